//! Published counts of knight's tours that the counting panel shows beside
//! a result (undirected; "open" counts every Hamiltonian path, including
//! those whose ends are a knight's move apart, as `knights count --open`
//! does). Copied from the repository's test data
//! (crates/knights/tests/data/counts.toml and published_counts.toml), where
//! each value's test lives.

use serde_json::{json, Value};

/// (shorter side, longer side, closed?, count, source).
const KNOWN: &[(u32, u32, bool, &str, &str)] = &[
    (3, 4, true, "0", "Schwenk 1991"),
    (3, 10, true, "16", "OEIS A070030"),
    (3, 12, true, "176", "OEIS A070030"),
    (5, 6, true, "8", "OEIS A175855"),
    (5, 8, true, "44202", "OEIS A392000"),
    (6, 6, true, "9862", "OEIS A001230"),
    (6, 7, true, "1067638", "OEIS A175881"),
    (6, 8, true, "55488142", "OEIS A175881"),
    (8, 8, true, "13267364410532", "McKay 1997, OEIS A001230"),
    (3, 4, false, "8", "OEIS A390833"),
    (3, 7, false, "52", "OEIS A390833"),
    (3, 8, false, "396", "OEIS A390833"),
    (3, 9, false, "560", "OEIS A390833"),
    (3, 10, false, "3048", "OEIS A390833"),
    (3, 11, false, "10672", "OEIS A390833"),
    (3, 12, false, "57248", "OEIS A390833"),
    (4, 5, false, "82", "OEIS A390833"),
    (4, 6, false, "744", "OEIS A390833"),
    (4, 7, false, "6378", "OEIS A390833"),
    (4, 8, false, "31088", "OEIS A390833"),
    (4, 9, false, "189688", "OEIS A390833"),
    (4, 10, false, "1213112", "OEIS A390833"),
    (5, 5, false, "864", "OEIS A390833, A165134"),
    (5, 6, false, "18784", "OEIS A390833"),
    (5, 7, false, "622868", "OEIS A390833"),
    (5, 8, false, "18061054", "OEIS A390833"),
    (6, 6, false, "3318960", "OEIS A390833, A165134"),
];

/// The published count for `rows x cols`, closed or open, with its source.
pub fn lookup(rows: u32, cols: u32, closed: bool) -> Option<Value> {
    let (a, b) = (rows.min(cols), rows.max(cols));
    KNOWN
        .iter()
        .find(|k| k.0 == a && k.1 == b && k.2 == closed)
        .map(|k| json!({"count": k.3, "source": k.4}))
}

/// Every published count, for the page.
pub fn all() -> Value {
    Value::Array(
        KNOWN
            .iter()
            .map(|k| {
                json!({
                    "board": format!("{}x{}", k.0, k.1),
                    "kind": if k.2 { "closed" } else { "open" },
                    "count": k.3, "source": k.4,
                })
            })
            .collect(),
    )
}
