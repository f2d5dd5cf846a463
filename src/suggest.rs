//! Edit distance for the unknown-tool gate's "Did you mean" list: optimal string alignment
//! (a swap of two adjacent characters, the commonest typo, costs one). Only the first
//! [`MAX_CHARS`] characters are compared, so a name of any length costs little: one `u128`
//! column per character (Hyyrö's bit-vector algorithm), without allocating.

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
    Pattern::new(a).distance(b)
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
    if n == 0 {
        return Vec::new();
    }
    let name = Pattern::new(name);
    // The best so far, closest first; among equals, the earlier candidate first.
    let mut kept: Vec<(usize, &'c str)> = Vec::with_capacity(n.saturating_add(1));
    for candidate in candidates {
        let found = name.distance(candidate);
        // A later candidate goes after every kept one at its distance: ties keep the
        // candidates' order.
        let position = kept.partition_point(|&(kept_distance, _)| kept_distance <= found);
        if position < n {
            kept.insert(position, (found, candidate));
            kept.truncate(n);
        }
    }
    kept.into_iter().map(|(_, candidate)| candidate).collect()
}

/// One side of the distance: the first `len` characters of `text`, at most [`MAX_CHARS`].
struct Pattern<'t> {
    text: &'t str,
    len: usize,
}

impl<'t> Pattern<'t> {
    fn new(text: &'t str) -> Pattern<'t> {
        let len = text.chars().take(MAX_CHARS).count();
        Pattern { text, len }
    }

    /// The positions of `c` in the pattern, as the bits of a `u128` (bit `i` for character
    /// `i`).
    fn positions(&self, c: char) -> u128 {
        let chars = self.text.chars().take(self.len).enumerate();
        chars
            .filter(|&(_, p)| p == c)
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }

    /// The distance to the first [`MAX_CHARS`] characters of `text`, one column of the
    /// table per character of `text`: Hyyrö's bit-vector algorithm for the optimal string
    /// alignment distance, after Myers. Bit `i` of the vectors describes row `i` of the
    /// column: `positive` and `negative` hold where the column's value goes up or down by
    /// one from the row above, `zero_diagonal` where the diagonal step costs nothing; the
    /// value of the last row, the distance so far, is kept in `distance`. Bits past the
    /// pattern's length hold noise that only ever moves to higher bits (shifts left, the
    /// carries of an addition), so they never reach a bit that is read.
    ///
    /// H. Hyyrö, "A bit-vector algorithm for computing Levenshtein and Damerau edit
    /// distances", Nordic Journal of Computing 10 (2003).
    fn distance(&self, text: &str) -> usize {
        let text = text.chars().take(MAX_CHARS);
        let Some(last) = self.len.checked_sub(1).map(|top| 1u128 << top) else {
            return text.count();
        };
        let mut positive = u128::MAX;
        let mut negative = 0u128;
        let mut zero_diagonal = 0u128;
        let mut previous_matches = 0u128;
        let mut distance = self.len;
        for c in text {
            let matches = self.positions(c);
            let swap = ((!zero_diagonal & matches) << 1) & previous_matches;
            zero_diagonal = (((matches & positive).wrapping_add(positive)) ^ positive)
                | matches
                | negative
                | swap;
            let horizontal_up = negative | !(zero_diagonal | positive);
            let horizontal_down = zero_diagonal & positive;
            if horizontal_up & last != 0 {
                distance = distance.saturating_add(1);
            } else if horizontal_down & last != 0 {
                distance = distance.saturating_sub(1);
            }
            let shifted_up = (horizontal_up << 1) | 1;
            negative = shifted_up & zero_diagonal;
            positive = (horizontal_down << 1) | !(shifted_up | zero_diagonal);
            previous_matches = matches;
        }
        distance
    }
}
