//! `knights stats` through the real binary.

use super::{knights, run};
use predicates::prelude::*;
use predicates::str::contains;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let (code, out, err) = run(args, "");
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).expect("one JSON object")
}

fn array8(v: &Value, key: &str) -> Vec<f64> {
    let a: Vec<f64> = v[key]
        .as_array()
        .unwrap_or_else(|| panic!("{key} is an array"))
        .iter()
        .map(|x| x.as_f64().expect("a number"))
        .collect();
    assert_eq!(a.len(), 8, "{key}");
    a
}

#[test]
fn json_has_the_keys_and_shapes() {
    for args in [
        &[
            "stats",
            "12x12",
            "-a",
            "warnsdorff",
            "-n",
            "20",
            "-f",
            "json",
        ][..],
        &[
            "stats",
            "12x12",
            "-a",
            "braid",
            "-n",
            "10",
            "--obfuscate",
            "-f",
            "json",
        ],
        &["stats", "10x10", "-a", "construct", "-n", "3", "-f", "json"],
    ] {
        let v = json(args);
        assert_eq!(v["rows"], 12 - 2 * u64::from(args[1] == "10x10") as i64);
        assert_eq!(v["count"].as_u64(), args[5].parse().ok());
        for key in ["moves", "relative_moves"] {
            let a = array8(&v, key);
            assert!(
                (a.iter().sum::<f64>() - 1.0).abs() < 1e-9,
                "{key} sums to 1"
            );
            assert!(a.iter().all(|&f| (0.0..=1.0).contains(&f)));
        }
        for key in ["moves_std", "relative_moves_std"] {
            assert!(array8(&v, key).iter().all(|&s| s >= 0.0));
        }
        // A knight never goes straight back in a tour.
        assert_eq!(array8(&v, "relative_moves")[4], 0.0);
        assert_eq!(array8(&v, "relative_moves_std")[4], 0.0);
        // Rails are counted on the closed tours; the share of closed tours
        // is a figure of every tour sample.
        let figures = v["figures"].as_array().expect("figures");
        let figure = |name: &str| figures.iter().find(|f| f["name"] == name);
        let closed = figure("closed").expect("the closed share")["mean"]
            .as_f64()
            .unwrap();
        assert!((0.0..=1.0).contains(&closed));
        match figure("rails") {
            Some(rails) => assert!(closed > 0.0 && rails["mean"].as_f64().unwrap() > 0.0),
            None => assert_eq!(closed, 0.0),
        }
    }
}

#[test]
fn tourneys_report_cycles() {
    // The divide generator's tourney is fixed: its base tours.
    let v = json(&[
        "stats",
        "16x16",
        "-a",
        "divide",
        "--tourney",
        "-n",
        "3",
        "-f",
        "json",
    ]);
    assert_eq!(v["figures"][0]["name"], "cycles");
    assert!(v["figures"][0]["mean"].as_f64().unwrap() >= 1.0);
    assert_eq!(v["figures"][0]["std"], 0.0);
    let v = json(&[
        "stats",
        "16x16",
        "-a",
        "tourney",
        "--tourney",
        "-n",
        "5",
        "-f",
        "json",
    ]);
    assert!((array8(&v, "moves").iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[test]
fn a_seed_gives_the_same_output() {
    let args = [
        "stats",
        "16x16",
        "-a",
        "tourney",
        "-n",
        "12",
        "--obfuscate",
        "-s",
        "5",
        "-f",
        "csv",
    ];
    let (a, b) = (run(&args, ""), run(&args, ""));
    assert_eq!(a.0, 0, "{}", a.2);
    assert_eq!(a, b);
    let one_thread = knights()
        .args(args)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .expect("knights runs");
    assert_eq!(String::from_utf8(one_thread.stdout).unwrap(), a.1);
    let other = run(
        &[
            "stats",
            "16x16",
            "-a",
            "tourney",
            "-n",
            "12",
            "--obfuscate",
            "-s",
            "6",
            "-f",
            "csv",
        ],
        "",
    );
    assert_ne!(other.1, a.1);
    assert_eq!(a.1.lines().count(), 9);
}

#[test]
fn table_and_svg() {
    knights()
        .args(["stats", "8x8", "-a", "tourney", "-n", "5"])
        .assert()
        .success()
        .stdout(contains("board 8x8, 5 samples").and(contains("rails: mean")));
    let (code, svg, _) = run(&["stats", "8x8", "-a", "braid", "-n", "5", "-f", "svg"], "");
    assert_eq!(code, 0);
    assert!(svg.starts_with("<svg") || svg.starts_with("<?xml"));
    assert_eq!(svg.matches("<rect class=\"bar\"").count(), 16);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["stats", "0x5"][..],
        &["stats", "8x8", "-n", "0"],
        &["stats", "8x8", "-a", "warnsdorff", "--tourney"],
        &["stats", "8x8", "--tourney", "--obfuscate", "-a", "braid"],
        &["stats", "8x8", "-f", "xml"],
        &["stats", "8x8", "-n", "-3"],
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty() && !err.is_empty(), "{args:?}");
    }
}

#[test]
fn no_answer_exits_1() {
    // 3x3 has no tour at all.
    let (code, _, err) = run(&["stats", "3x3", "-a", "warnsdorff", "-n", "2"], "");
    assert_eq!(code, 1, "{err}");
}

#[test]
fn the_library_refuses_what_does_not_apply() {
    for (args, says) in [
        (
            &["stats", "8x8", "-n", "10000001"][..],
            "samples must be from 1 to 10000000, not 10000001",
        ),
        (
            &["stats", "8x8", "-a", "tourney", "--tourney", "--obfuscate"],
            "obfuscate does not apply",
        ),
        (
            &["stats", "8x8", "-a", "warnsdorff", "--tourney"],
            "needs a tourney generator",
        ),
    ] {
        let (code, out, err) = run(args, "");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{out}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
