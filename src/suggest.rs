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
fn distance(a: &[char], b: &[char], stop_at: u8) -> Option<u8> {
    // The lengths alone bound the distance from below.
    if small(a.len().abs_diff(b.len())) >= stop_at {
        return None;
    }
    // Tool names fit in 64 characters: then the table's columns fit in machine words.
    let (shorter, longer) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if shorter.len() <= 64 {
        let found = distance_in_words(shorter, longer);
        return (found < stop_at).then_some(found);
    }
    distance_in_rows(a, b, stop_at)
}

/// The same distance computed a whole table column at a time in 64-bit words: Hyyrö's
/// bit-vector algorithm for the Damerau (optimal string alignment) distance, after Myers.
/// Bit `i` of the vectors describes row `i` of the column: `positive` and `negative` hold
/// where the column's value goes up or down by one from the row above, `zero_diagonal`
/// where the diagonal step costs nothing. `pattern` has at most 64 characters.
///
/// H. Hyyrö, "A bit-vector algorithm for computing Levenshtein and Damerau edit
/// distances", Nordic Journal of Computing 10 (2003).
fn distance_in_words(pattern: &[char], text: &[char]) -> u8 {
    let length = pattern.len();
    if length == 0 {
        return small(text.len());
    }
    let all = u64::MAX >> (64 - length);
    let last = 1u64 << (length - 1);
    let mut positive = all;
    let mut negative = 0u64;
    let mut zero_diagonal = 0u64;
    let mut previous_matches = 0u64;
    let mut score = length;
    for &c in text {
        // Where `c` stands in the pattern.
        let matches = pattern
            .iter()
            .enumerate()
            .filter(|&(_, &p)| p == c)
            .fold(0u64, |bits, (i, _)| bits | 1 << i);
        let swap = ((!zero_diagonal & matches) << 1) & previous_matches;
        zero_diagonal =
            (((matches & positive).wrapping_add(positive)) ^ positive) | matches | negative | swap;
        let horizontal_up = negative | !(zero_diagonal | positive);
        let horizontal_down = zero_diagonal & positive;
        if horizontal_up & last != 0 {
            score = score.saturating_add(1);
        } else if horizontal_down & last != 0 {
            score = score.saturating_sub(1);
        }
        let shifted_up = (horizontal_up << 1) | 1;
        negative = shifted_up & zero_diagonal & all;
        positive = ((horizontal_down << 1) | !(shifted_up | zero_diagonal)) & all;
        previous_matches = matches;
    }
    small(score)
}

/// The same distance row by row, for a pattern too long for a word, stopping early once
/// it is sure to be at least `stop_at`.
fn distance_in_rows(a: &[char], b: &[char], stop_at: u8) -> Option<u8> {
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
        let previous_min = previous
            .iter()
            .take(b.len() + 1)
            .copied()
            .min()
            .unwrap_or(0);
        if row_min >= stop_at && previous_min >= stop_at {
            return None;
        }
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
