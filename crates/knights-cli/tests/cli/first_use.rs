//! What a new user meets first: output file names that name a format the
//! command does not write, `--seed` where it changes nothing, the methods
//! that make cycles only asked for an open tour, and board files without
//! holes.

use std::path::Path;

use predicates::str::contains;

use super::{knights, run, scratch};

/// A tour and a tourney file in `dir`, for the commands that read one.
fn inputs(dir: &Path) -> (String, String) {
    let tour = dir.join("t.json");
    let tourney = dir.join("tn.json");
    knights()
        .args(["tour", "6x6", "-o", tour.to_str().unwrap()])
        .assert()
        .success();
    knights()
        .args(["tourney", "6x6", "-o", tourney.to_str().unwrap()])
        .assert()
        .success();
    (
        tour.to_str().unwrap().into(),
        tourney.to_str().unwrap().into(),
    )
}

#[test]
fn an_output_name_of_no_format_is_refused_and_nothing_is_written() {
    let dir = scratch("first-use-ext");
    let (tour, tourney) = inputs(&dir);
    let commands: Vec<Vec<&str>> = vec![
        vec!["tour", "8x8"],
        vec!["tour", "8x8", "-f", "json"],
        vec!["tourney", "8x8"],
        vec!["render", &tour],
        vec!["join", &tourney],
        vec!["shatter", &tour],
        vec!["obfuscate", &tour],
        vec!["stats", "8x8", "-n", "2", "-a", "braid"],
    ];
    for args in &commands {
        // Pictures are PNG, GIF and SVG; stats draws SVG only.
        let names: &[&str] = if args[0] == "stats" {
            &["s.png", "s.gif", "s.xyz"]
        } else {
            &["tour.xyz", "tour.BMP", "tour.data"]
        };
        for &name in names {
            let target = dir.join(name);
            let mut all = args.clone();
            all.extend(["-o", target.to_str().unwrap()]);
            let (code, out, err) = run(&all, "");
            assert_eq!(code, 2, "{all:?}: {err}");
            assert!(out.is_empty(), "{all:?}: {out}");
            let ext = name.rsplit('.').next().unwrap().to_uppercase();
            assert!(
                err.contains(&format!("writes no {ext} files")) && err.contains(".json (JSON)"),
                "{all:?}: {err}"
            );
            assert!(err.contains(".svg"), "{all:?}: {err}");
            assert!(err.lines().count() == 1, "{all:?}: {err}");
            assert!(!target.exists(), "{all:?} wrote {name}");
        }
    }
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| n.ends_with(".json")), "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_refusal_names_the_extensions_and_formats_that_would_do() {
    let dir = scratch("first-use-snap");
    let out = knights()
        .current_dir(&dir)
        .args(["tour", "8x8", "-o", "tour.xyz"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    insta::assert_snapshot!(String::from_utf8(out.stderr).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_known_extensions_choose_their_formats() {
    let dir = scratch("first-use-known");
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec!["tour", "5x5"], "t.txt", " 0 "),
        (vec!["tour", "5x5"], "T.SVG", "<svg"),
        (vec!["tour", "5x5"], "t.moves", "tour 5x5"),
        (vec!["tour", "5x5"], "no-extension", " 0 "),
        (vec!["tour", "5x5", "-f", "json"], "t.txt", "{"),
        (vec!["tour", "5x5", "-f", "animated-svg"], "a.svg", "<svg"),
        (vec!["tour", "5x5", "-f", "json"], "plain", "{"),
        (
            vec!["stats", "8x8", "-n", "2", "-a", "braid"],
            "s.txt",
            "board 8x8",
        ),
    ];
    for (args, name, start) in cases {
        let target = path(name);
        let mut all = args.clone();
        all.extend(["-o", &target]);
        let (code, _, err) = run(&all, "");
        assert_eq!(code, 0, "{all:?}: {err}");
        let text = std::fs::read_to_string(&target).unwrap();
        assert!(text.contains(start), "{all:?}: {text}");
    }
    // An extension of another format than --format asks for.
    let (code, _, err) = run(&["tour", "5x5", "-f", "svg", "-o", &path("t.json")], "");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--format svg writes an SVG picture; name the file .svg"),
        "{err}"
    );
    assert!(!dir.join("t.json").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_seed_given_to_a_method_without_random_choices_is_noted() {
    // The tour is the same for every seed, and a note says so.
    for args in [
        vec!["tour", "8x8"],
        vec!["tour", "8x8", "-a", "construct"],
        vec!["tour", "6x6", "-a", "backtrack"],
        vec!["tour", "6x6", "-a", "warnsdorff", "--tie", "first"],
    ] {
        let (_, plain, quiet) = run(&args, "");
        assert!(quiet.is_empty(), "{args:?}: {quiet}");
        let mut seeded = args.clone();
        seeded.extend(["--seed", "7"]);
        let (code, out, err) = run(&seeded, "");
        assert_eq!(code, 0, "{seeded:?}: {err}");
        assert_eq!(out, plain, "{seeded:?}: the pinned tour changed");
        assert!(
            err.contains("--seed changes nothing here"),
            "{seeded:?}: {err}"
        );
    }
    // Where the seed matters, no note.
    for args in [
        vec!["tour", "8x8", "-a", "warnsdorff", "--seed", "7"],
        vec!["tour", "8x8", "-a", "braid", "--seed", "7"],
        vec!["tour", "8x8", "--obfuscate", "--seed", "7"],
    ] {
        let (code, _, err) = run(&args, "");
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(!err.contains("--seed"), "{args:?}: {err}");
    }
    knights()
        .args(["tour", "--help"])
        .assert()
        .success()
        .stdout(contains("The methods without random choices"));
}

#[test]
fn the_cycle_methods_open_their_cycle_and_say_so() {
    let (code, json, err) = run(
        &["tour", "6x6", "--open", "-a", "takefuji-lee", "-f", "json"],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run(&["check", "-"], &json);
    assert_eq!((code, out.trim()), (0, "open tour on 6x6"));
    knights()
        .args(["tour", "--help"])
        .assert()
        .success()
        .stdout(contains("an open tour is the cycle opened"));
}

#[test]
fn graph_reads_a_board_file_without_holes() {
    let dir = scratch("first-use-graph");
    let file = dir.join("board.txt");
    std::fs::write(&file, "....\n....\n....\n").unwrap();
    let file = file.to_str().unwrap();
    let (code, out, err) = run(&["graph", file], "");
    assert_eq!(code, 0, "{err}");
    let (_, sized, _) = run(&["graph", "3x4"], "");
    assert_eq!(out, sized);
    let (code, out, err) = run(&["graph", file, "--degrees", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let (_, sized, _) = run(&["graph", "3x4", "--degrees", "--json"], "");
    assert_eq!(out, sized);
    std::fs::remove_dir_all(&dir).unwrap();
}
