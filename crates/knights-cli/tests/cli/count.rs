//! `knights count` and `knights estimate` through the real binary.

use super::knights;
use predicates::str::contains;

#[test]
fn counts_print_alone() {
    knights()
        .args(["count", "6x6"])
        .assert()
        .success()
        .stdout("9862\n");
    knights()
        .args(["count", "3x4", "--open"])
        .assert()
        .success()
        .stdout("8\n");
    knights()
        .args(["count", "3x4", "--open", "--directed"])
        .assert()
        .success()
        .stdout("16\n");
    knights()
        .args(["count", "6x6", "--symmetric"])
        .assert()
        .success()
        .stdout("78\n");
    knights()
        .args(["count", "4x8"])
        .assert()
        .success()
        .stdout("0\n");
}

#[test]
fn json_has_the_count_and_figures() {
    let out = knights().args(["count", "5x6", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["count"], 8);
    assert_eq!(v["states_per_step"].as_array().unwrap().len(), 30);
    assert!(v["peak_states"].as_u64().unwrap() > 0);
    let out = knights()
        .args(["count", "6x6", "--classes", "--json"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["classes"], 1245);
    assert_eq!(v["fixed"]["quarter turn"], 10);
}

#[test]
fn bad_requests_exit_cleanly() {
    knights()
        .args(["count", "6x6", "--max-memory", "1K"])
        .assert()
        .code(1)
        .stderr(contains("--max-memory"));
    knights()
        .args(["count", "6x6", "--max-memory", "lots"])
        .assert()
        .code(2)
        .stderr(contains("amount of memory"));
    knights()
        .args(["count", "12x12"])
        .assert()
        .code(2)
        .stderr(contains("narrower board"));
    knights()
        .args(["count", "6x6", "--open", "--symmetric"])
        .assert()
        .code(2);
    knights()
        .args(["estimate", "5x5", "--samples", "0"])
        .assert()
        .code(2);
}

#[test]
fn estimates_are_seeded() {
    let run = || {
        knights()
            .args([
                "estimate",
                "4x5",
                "--open",
                "--samples",
                "3000",
                "--seed",
                "5",
                "--json",
            ])
            .output()
            .unwrap()
            .stdout
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b);
    let v: serde_json::Value = serde_json::from_slice(&a).unwrap();
    assert_eq!(v["samples"], 3000);
    assert!(v["tours"].as_f64().unwrap() > 0.0);
}
