//! Edit distance for "Did you mean": exact values, agreement with a plain full-table
//! reference on random short strings, the cap on compared length, and the closest-names
//! order with its tie rule.

mod support;

use support::rng::Rng;
use toolgate::suggest::{closest, edit_distance, MAX_CHARS};

/// Optimal string alignment distance with the whole table, as textbooks write it.
fn reference(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[test]
fn exact_distances() {
    for (a, b, expect) in [
        ("", "", 0),
        ("", "abc", 3),
        ("abc", "", 3),
        ("search_orders", "search_orders", 0),
        ("serch_orders", "search_orders", 1),
        ("seacrh_orders", "search_orders", 1),
        ("search_order", "search_orders", 1),
        ("Search_Orders", "search_orders", 2),
        ("kitten", "sitting", 3),
        ("ca", "abc", 3),
        ("é", "e", 1),
        ("😀x", "x😀", 1),
    ] {
        assert_eq!(edit_distance(a, b), expect, "{a:?} {b:?}");
    }
}

#[test]
fn agrees_with_the_full_table_on_random_strings() {
    let mut rng = Rng::from_env();
    let alphabet = ['a', 'b', 'c', '_', 'é', '😀'];
    let word =
        |rng: &mut Rng| -> String { (0..rng.below(12)).map(|_| *rng.pick(&alphabet)).collect() };
    for _ in 0..Rng::iters(20_000) {
        let (a, b) = (word(&mut rng), word(&mut rng));
        let expect = reference(&a, &b);
        assert_eq!(
            edit_distance(&a, &b),
            expect,
            "seed {}: {a:?} {b:?}",
            rng.seed()
        );
        assert_eq!(edit_distance(&b, &a), expect, "symmetric: {a:?} {b:?}");
    }
}

#[test]
fn agrees_with_the_full_table_past_one_machine_word() {
    // Names of 60 to 128 characters: past one 64-bit word, up to the whole 128-bit one.
    let mut rng = Rng::from_env();
    let alphabet = ['a', 'b', '_', 'é'];
    let word = |rng: &mut Rng| -> String {
        (0..rng.range(60, 128))
            .map(|_| *rng.pick(&alphabet))
            .collect()
    };
    for _ in 0..Rng::iters(2_000) {
        let a = word(&mut rng);
        // A near copy, so distances are small as well as large.
        let mut b: Vec<char> = a.chars().collect();
        for _ in 0..rng.below(6) {
            let at = rng.below(b.len());
            match rng.below(3) {
                0 => b[at] = *rng.pick(&alphabet),
                1 => {
                    b.remove(at);
                }
                _ => {
                    let next = (at + 1).min(b.len() - 1);
                    b.swap(at, next);
                }
            }
        }
        let b: String = if rng.bool() {
            b.into_iter().collect()
        } else {
            word(&mut rng)
        };
        assert_eq!(
            edit_distance(&a, &b),
            reference(&a, &b),
            "seed {}: {a:?} {b:?}",
            rng.seed()
        );
    }
}

#[test]
fn closest_agrees_with_sorting_every_distance() {
    let mut rng = Rng::from_env();
    let alphabet = ['a', 'b', 'c', '_'];
    let word =
        |rng: &mut Rng| -> String { (0..rng.range(1, 8)).map(|_| *rng.pick(&alphabet)).collect() };
    for _ in 0..Rng::iters(5_000) {
        let name = word(&mut rng);
        let tools: Vec<String> = (0..rng.range(0, 12)).map(|_| word(&mut rng)).collect();
        let n = rng.range(0, 4);
        let mut ranked: Vec<(usize, usize)> = tools
            .iter()
            .enumerate()
            .map(|(index, tool)| (reference(&name, tool), index))
            .collect();
        ranked.sort();
        let expect: Vec<&str> = ranked
            .iter()
            .take(n)
            .map(|&(_, index)| tools[index].as_str())
            .collect();
        let got = closest(&name, tools.iter().map(String::as_str), n);
        assert_eq!(
            got,
            expect,
            "seed {}: {name:?} in {tools:?}, n {n}",
            rng.seed()
        );
    }
}

#[test]
fn only_the_first_max_chars_characters_count() {
    let base = "x".repeat(MAX_CHARS);
    // Differences after the cap are not seen.
    assert_eq!(
        edit_distance(&format!("{base}abc"), &format!("{base}xyz")),
        0
    );
    // The last character counted still counts: a change or a swap there is one edit.
    let stem = "x".repeat(MAX_CHARS - 2);
    let (ab, ba, ac) = (
        format!("{stem}ab"),
        format!("{stem}ba"),
        format!("{stem}ac"),
    );
    assert_eq!(edit_distance(&ab, &ba), 1);
    assert_eq!(edit_distance(&ab, &ac), 1);
    assert_eq!(edit_distance(&format!("{ab}tail"), &ac), 1);
    assert_eq!(edit_distance(&ab, &stem), 2);
    // A megabyte name against a tool name costs a bounded table, and compares its start.
    let huge = "search_orders".repeat(100_000);
    assert_eq!(
        edit_distance(&huge, "search_orders"),
        MAX_CHARS - "search_orders".len()
    );
    assert_eq!(edit_distance(&"é".repeat(MAX_CHARS + 1), ""), MAX_CHARS);
}

#[test]
fn closest_names_come_first_and_ties_keep_their_order() {
    let tools = [
        "get_shipment",
        "sort_orders",
        "search_orders",
        "search_order",
    ];
    assert_eq!(
        closest("serch_orders", tools, 3),
        ["search_orders", "search_order", "sort_orders"]
    );
    assert_eq!(closest("serch_orders", tools, 1), ["search_orders"]);
    assert_eq!(closest("x", tools, 10).len(), 4);
    assert!(closest("x", [], 3).is_empty());
    // Equal distances: the candidates' own order, on every run.
    assert_eq!(closest("ab", ["ba", "ac", "bb"], 3), ["ba", "ac", "bb"]);
}
