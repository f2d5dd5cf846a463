//! Edit distance, for the unknown-tool gate's "Did you mean" list.
//!
//! A model that misspells a tool name (`serch_orders`, `search_order`, `seacrh_orders`)
//! nearly always means the registered name with the smallest edit distance, so the gate
//! names the closest ones. The distance is the *optimal string alignment* variant of
//! Damerau-Levenshtein: insertions, deletions, substitutions and swaps of two adjacent
//! characters each cost one, because a swap (`seacrh`) is the commonest typo and plain
//! Levenshtein would charge it two.
//!
//! The name comes from the model and can be anything, including megabytes of text. The cost
//! stays bounded: only the first [`MAX_CHARS`] characters of each side are compared (tool
//! names are at most 64 characters, so this never changes a ranking among real names), and
//! the table is three fixed rows on the stack, so no allocation happens at all.

/// Characters compared from the start of each name; anything after is ignored.
pub const MAX_CHARS: usize = 128;

/// The optimal-string-alignment edit distance between the first [`MAX_CHARS`] characters of
/// `a` and of `b`: the fewest insertions, deletions, substitutions and adjacent swaps that
/// turn one into the other. Characters are compared exactly (case matters).
///
/// ```
/// use toolgate::suggest::edit_distance;
/// assert_eq!(edit_distance("serch_orders", "search_orders"), 1);
/// assert_eq!(edit_distance("seacrh_orders", "search_orders"), 1);
/// assert_eq!(edit_distance("get_shipment", "get_shipment"), 0);
/// assert_eq!(edit_distance("", "abc"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let mut a_chars = ['\0'; MAX_CHARS];
    let mut b_chars = ['\0'; MAX_CHARS];
    let a = fill(&mut a_chars, a);
    let b = fill(&mut b_chars, b);

    // Three rows of the dynamic-programming table: `two_back` is row i-2 (needed for
    // swaps), `previous` row i-1, `current` row i. Row i, column j holds the distance
    // between the first i characters of `a` and the first j of `b`.
    let mut two_back = [0usize; MAX_CHARS + 1];
    let mut previous = [0usize; MAX_CHARS + 1];
    let mut current = [0usize; MAX_CHARS + 1];
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for (i, &a_char) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, &b_char) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(a_char != b_char);
            let deletion = previous[j + 1] + 1;
            let insertion = current[j] + 1;
            let mut best = substitution.min(deletion).min(insertion);
            let swapped =
                i > 0 && j > 0 && a.get(i - 1) == Some(&b_char) && b.get(j - 1) == Some(&a_char);
            if swapped {
                best = best.min(two_back[j - 1] + 1);
            }
            current[j + 1] = best;
        }
        two_back = previous;
        previous = current;
    }
    previous[b.len()]
}

/// The at most `n` candidates closest to `name` by [`edit_distance`], closest first; ties
/// keep the candidates' own order, so the answer is the same on every run.
///
/// ```
/// use toolgate::suggest::closest;
/// let tools = ["get_shipment", "search_orders", "sort_orders"];
/// assert_eq!(closest("serch_orders", tools, 2), ["search_orders", "sort_orders"]);
/// ```
pub fn closest<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    n: usize,
) -> Vec<&'c str> {
    let mut ranked: Vec<(usize, usize, &'c str)> = candidates
        .into_iter()
        .enumerate()
        .map(|(index, candidate)| (edit_distance(name, candidate), index, candidate))
        .collect();
    // (distance, index) pairs are unique, so this order is total and stable.
    ranked.sort_unstable_by_key(|&(distance, index, _)| (distance, index));
    ranked
        .into_iter()
        .take(n)
        .map(|(_, _, candidate)| candidate)
        .collect()
}

/// Copies the first [`MAX_CHARS`] characters of `text` into `buffer` and returns them.
fn fill<'b>(buffer: &'b mut [char; MAX_CHARS], text: &str) -> &'b [char] {
    let mut n_chars = 0;
    for (slot, c) in buffer.iter_mut().zip(text.chars()) {
        *slot = c;
        n_chars += 1;
    }
    buffer.get(..n_chars).unwrap_or(&[])
}
