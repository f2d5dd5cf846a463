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
//! the table is three fixed rows of bytes on the stack, so no allocation happens at all.

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
    usize::from(distance(a, b, u8::MAX).unwrap_or(u8::MAX))
}

/// The at most `n` candidates closest to `name` by [`edit_distance`], closest first; ties
/// keep the candidates' own order, so the answer is the same on every run.
///
/// Once `n` candidates are in hand, a later one is only measured until it is sure to lose
/// (every cell of a table row is at least the worst distance kept), so a long list of
/// tools costs little more than its first few.
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
    if n == 0 {
        return Vec::new();
    }
    let mut name_chars = ['\0'; MAX_CHARS];
    let name = fill(&mut name_chars, name);
    let mut candidate_chars = ['\0'; MAX_CHARS];
    // The best so far, closest first; among equals, the earlier candidate first.
    let mut kept: Vec<(u8, &'c str)> = Vec::with_capacity(n.saturating_add(1));
    for candidate in candidates {
        // Once `n` are kept, a later candidate must beat the worst of them strictly: ties
        // keep the candidates' order.
        let stop_at = match kept.last() {
            Some(&(worst, _)) if kept.len() >= n => worst,
            _ => u8::MAX,
        };
        let chars = fill(&mut candidate_chars, candidate);
        let Some(found) = distance(name, chars, stop_at) else {
            continue;
        };
        let position = kept.partition_point(|&(kept_distance, _)| kept_distance <= found);
        kept.insert(position, (found, candidate));
        kept.truncate(n);
    }
    kept.into_iter().map(|(_, candidate)| candidate).collect()
}

/// The optimal-string-alignment distance between `a` and `b` (each at most
/// [`MAX_CHARS`] characters), or `None` as soon as it is sure to be at least `stop_at`.
///
/// Computed row by row of the dynamic-programming table. (0.1 also had Hyyrö's
/// bit-vector form for names of up to 64 characters; it ran only on the unknown-tool path,
/// before a model round trip, so its speed bought nothing a user could see, and two
/// algorithms for one number were two places for a ranking bug.)
fn distance(a: &[char], b: &[char], stop_at: u8) -> Option<u8> {
    // The lengths alone bound the distance from below.
    if small(a.len().abs_diff(b.len())) >= stop_at {
        return None;
    }
    // Three rows of the dynamic-programming table: `two_back` is row i-2 (needed for
    // swaps), `previous` row i-1, `current` row i. Row i, column j holds the distance
    // between the first i characters of `a` and the first j of `b`. A distance is at most
    // MAX_CHARS, so a byte holds it; the rows rotate by reference, never by copy.
    // (Indices stay in bounds: j < b.len() <= MAX_CHARS and the rows have MAX_CHARS + 1.)
    let mut rows = [[0u8; MAX_CHARS + 1]; 3];
    let [first, second, third] = &mut rows;
    let (mut two_back, mut previous, mut current) = (first, second, third);
    for (j, cell) in previous.iter_mut().enumerate().take(b.len() + 1) {
        *cell = small(j);
    }
    // The least cell of row i-1 (row 0 holds 0).
    let mut previous_min = 0;
    let mut a_before = None;
    for (i, &a_char) in a.iter().enumerate() {
        current[0] = small(i + 1);
        let mut row_min = current[0];
        let mut b_before = None;
        for (j, &b_char) in b.iter().enumerate() {
            let substitution = previous[j].saturating_add(u8::from(a_char != b_char));
            let deletion = previous[j + 1].saturating_add(1);
            let insertion = current[j].saturating_add(1);
            let mut best = substitution.min(deletion).min(insertion);
            // `b_before` is set only from j = 1 on, so `j - 1` cannot underflow.
            if a_before == Some(b_char) && b_before == Some(a_char) {
                best = best.min(two_back[j - 1].saturating_add(1));
            }
            current[j + 1] = best;
            row_min = row_min.min(best);
            b_before = Some(b_char);
        }
        a_before = Some(a_char);
        // The answer is reached by a chain of cells from (0, 0) that never decreases (every
        // step costs 0 or 1) and skips at most one row at a time (a swap), so it passes
        // through this row or the one before. Once both are at least `stop_at`, so is the
        // answer.
        if row_min >= stop_at && previous_min >= stop_at {
            return None;
        }
        previous_min = row_min;
        (two_back, previous, current) = (previous, current, two_back);
    }
    let found = previous[b.len()];
    (found < stop_at).then_some(found)
}

/// A table value: at most `MAX_CHARS + 1`, which fits a byte.
fn small(n: usize) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
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
