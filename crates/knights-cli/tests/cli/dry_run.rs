//! `knights count --dry-run`: the projection of the very count the
//! options ask for, its order of squares, method and sweep included.

use super::knights;

/// `knights count ARGS --json` as JSON.
fn json(args: &[&str]) -> serde_json::Value {
    let out = knights()
        .arg("count")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Each option that changes the plan changes the dry run as it changes
/// the count: on 5x6 closed (small enough for the trial to count it
/// whole, so the projection is measured) the dry run's peak, squares and
/// method are the real count's, for the default (a meeting), outside-in,
/// staggered and both methods named.
#[test]
fn a_dry_run_projects_the_count_its_options_ask_for() {
    let plans: [&[&str]; 5] = [
        &[],
        &["--outside-in"],
        &["--staggered"],
        &["--method", "meet"],
        &["--method", "forward"],
    ];
    let mut peaks = Vec::new();
    for flags in plans {
        let args: Vec<&str> = ["5x6"].iter().chain(flags).copied().collect();
        let real = json(&args);
        let dry = json(&[&args[..], &["--dry-run"]].concat());
        assert_eq!(
            dry["source"],
            "the trial run finished the count, so these are measured"
        );
        assert_eq!(
            dry["projected_peak_states"], real["peak_states"],
            "{flags:?}"
        );
        assert_eq!(dry["method"], real["method"], "{flags:?}");
        let squares = real["states_per_step"].as_array().unwrap().len();
        assert_eq!(dry["steps"], squares, "{flags:?}");
        peaks.push(dry["projected_peak_states"].as_u64().unwrap());
    }
    // The orders and the methods pass different states (the default
    // meets in the middle).
    assert_eq!(peaks[0], peaks[3]);
    assert_ne!(peaks[1], peaks[4], "outside-in against rows");
    assert_ne!(peaks[2], peaks[4], "staggered against rows");
    assert_ne!(peaks[3], peaks[4], "meet against forward");
}

/// `--all-cells` and `--all-lengths` project their own one pass: a sweep
/// over cells folds no mirror images, so it holds more states than the
/// plain count; on a small board the trial runs the whole pass, and its
/// peak is the sweep's.
#[test]
fn sweeps_have_dry_runs_of_their_own() {
    for sweep in ["--all-cells", "--all-lengths"] {
        let args = ["4x7", "--open", sweep];
        let real = json(&args);
        let dry = json(&[&args[..], &["--dry-run"]].concat());
        assert_eq!(dry["projected_peak_states"], real["peak_states"], "{sweep}");
        assert_eq!(dry["steps"], 28);
        assert_eq!(dry["of"], sweep.trim_start_matches("--"));
    }
    let cells = json(&["4x7", "--open", "--all-cells", "--dry-run"]);
    let plain = json(&["4x7", "--open", "--method", "forward", "--dry-run"]);
    assert!(
        cells["projected_peak_states"].as_u64() > plain["projected_peak_states"].as_u64(),
        "{cells} {plain}"
    );
    let out = knights()
        .args(["count", "4x7", "--open", "--all-cells", "--dry-run"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("4x7 open tours of every prefix of cells (forward), projected:"),
        "{text}"
    );
}
