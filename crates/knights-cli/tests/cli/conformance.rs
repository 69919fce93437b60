//! The conformance table (`crates/knights/tests/data/conformance.toml`)
//! through the command line: each case's request, in the library's request
//! model, becomes the flags a user would type (the translation table
//! below), and the output and exit status must show the facts or the error
//! category the table expects (exit statuses as docs/formats.md lists them).

use knights_conformance::{
    cases, file_facts, magic_facts, position_facts, solve_facts, text, Case,
};
use serde_json::{json, Map, Value};

use super::{knights, scratch};

/// The request's fields that are flags of the same value, as the command
/// line spells them; the others are translated in [`args`].
const FLAGS: &[(&str, &str)] = &[
    ("algorithm", "--algorithm"),
    ("seed", "--seed"),
    ("start", "--start"),
    ("end", "--end"),
    ("tie", "--tie"),
    ("max-attempts", "--max-attempts"),
    ("max-nodes", "--max-nodes"),
    ("wrap", "--wrap"),
    ("leaper", "--leaper"),
    ("method", "--method"),
    ("keep", "--keep"),
    ("seconds", "--seconds"),
    ("shatters", "--shatters"),
    ("samples", "--samples"),
    ("key", "--key"),
    ("difficulty", "--difficulty"),
    ("limit", "--limit"),
    ("checkpoint", "--checkpoint"),
];

/// The request's switches (a flag without a value, given when true).
const SWITCHES: &[(&str, &str)] = &[
    ("directed", "--directed"),
    ("outside-in", "--outside-in"),
    ("staggered", "--staggered"),
    ("classic", "--classic"),
    ("obfuscate", "--obfuscate"),
    ("tourneys", "--tourney"),
    ("symmetric", "--symmetric"),
    ("step", "--step"),
    ("all", "--all"),
];

/// The exit status of an error category.
fn exit_status(category: &str) -> i32 {
    match category {
        "bad-input" | "over-limit" => 2,
        "no-answer" => 1,
        "interrupted" => 130,
        "io" => 74,
        other => panic!("no category {other}"),
    }
}

/// The command line of `case` (the job's subcommand, flags and operands)
/// and its standard input.
fn args(case: &Case, dir: &std::path::Path) -> (Vec<String>, String) {
    if case.job == "position" {
        return (position_args(case, dir), String::new());
    }
    // A dry run is a count's flags and --dry-run.
    let job = match case.job.as_str() {
        "dry-run" => "count",
        job => job,
    };
    let mut args = vec![job.to_string()];
    let mut stdin = String::new();
    for (field, value) in &case.request {
        let value_text = text(value);
        match (case.job.as_str(), field.as_str()) {
            (_, "board") => args.push(value_text),
            ("puzzle", "kind") => args.extend(["--kind".into(), value_text]),
            (_, "kind") if value_text == "either" => {}
            (_, "kind") => args.push(format!("--{value_text}")),
            (_, "of") => args.push(format!("--{value_text}")),
            (_, "cover") | ("check", "text") | ("solve", "puzzle") => {
                let file = dir.join("input");
                std::fs::write(&file, &value_text).unwrap();
                args.push(file.display().to_string());
            }
            ("check", "puzzle") | ("solve", "progress") | ("magic", "from") => {
                let file = dir.join(field.as_str());
                std::fs::write(&file, &value_text).unwrap();
                let flag = format!("--{field}");
                args.extend([flag, file.display().to_string()]);
            }
            ("encrypt" | "decrypt", "text") => stdin = value_text,
            ("stats", "samples") => args.extend(["--count".into(), value_text]),
            (_, field) => {
                if let Some(&(_, flag)) = SWITCHES.iter().find(|(f, _)| *f == field) {
                    if value.as_bool() == Some(true) {
                        args.push(flag.into());
                    }
                } else if let Some(&(_, flag)) = FLAGS.iter().find(|(f, _)| *f == field) {
                    args.extend([flag.into(), value_text]);
                } else {
                    panic!("{}: no flag for the field {field}", case.name);
                }
            }
        }
    }
    match case.job.as_str() {
        "tour" | "tourney" | "join" | "shatter" | "obfuscate" => {
            args.extend(["--format".into(), "json".into()])
        }
        "stats" | "puzzle" | "solve" | "magic" => args.extend(["--format".into(), "json".into()]),
        "count" | "estimate" => args.push("--json".into()),
        "dry-run" => args.extend(["--dry-run".into(), "--json".into()]),
        _ => {}
    }
    (args, stdin)
}

/// The command line of a position case: its board, shape and path become
/// a partial path's JSON file for `knights hint`, the rest flags.
fn position_args(case: &Case, dir: &std::path::Path) -> Vec<String> {
    let board = text(&case.request["board"]);
    let (rows, cols) = board.split_once('x').expect("a ROWSxCOLS board");
    let pair = |t: &str| -> Value {
        let (a, b) = t.split_once(',').expect("a pair A,B");
        json!([
            a.trim().parse::<i64>().unwrap(),
            b.trim().parse::<i64>().unwrap()
        ])
    };
    let mut file = json!({ "rows": rows.parse::<u32>().unwrap(), "cols": cols.parse::<u32>().unwrap(), "squares": [] });
    let mut args = vec!["hint".to_string()];
    for (field, value) in &case.request {
        let value_text = text(value);
        match field.as_str() {
            "board" => {}
            "path" => {
                let squares: Vec<Value> = value
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|s| pair(&text(s)))
                    .collect();
                file["squares"] = json!(squares);
            }
            "wrap" => file["wrap"] = json!(value_text),
            "leaper" => file["leaper"] = pair(&value_text),
            "kind" => args.extend(["--kind".into(), value_text]),
            "end" => args.extend(["--end".into(), value_text]),
            "max-nodes" => args.extend(["--max-nodes".into(), value_text]),
            other => panic!("{}: no flag for the field {other}", case.name),
        }
    }
    let path = dir.join(format!("{}.json", case.name));
    std::fs::write(&path, file.to_string()).unwrap();
    args.extend([path.display().to_string(), "-f".into(), "json".into()]);
    args
}

/// The facts of an accepted case's output and exit status.
fn facts(job: &str, status: i32, out: &str) -> Map<String, Value> {
    let mut facts = Map::new();
    let json = || serde_json::from_str::<Value>(out).expect("JSON output");
    match job {
        "tour" | "tourney" | "join" | "shatter" | "obfuscate" => facts = file_facts(out),
        "exists" => {
            let answer = out.split_whitespace().next().unwrap_or_default();
            let by_status = ["yes", "no", "", "unknown"][status as usize];
            assert_eq!(answer, by_status, "exists' exit status {status}: {out}");
            facts.insert("answer".into(), json!(answer));
        }
        "count" => {
            let count = json()["count"].to_string();
            facts.insert("count".into(), json!(count.trim_matches('"')));
        }
        "estimate" => {
            facts.insert("method".into(), json()["method"].clone());
        }
        "dry-run" => {
            for key in ["method", "order", "steps"] {
                facts.insert(key.into(), json()[key].clone());
            }
        }
        "encrypt" | "decrypt" => {
            facts.insert("text".into(), json!(out));
        }
        "stats" => {
            facts.insert("samples".into(), json()["count"].clone());
        }
        "check" => {
            // The verdict, then a semimagic or magic tour's sums.
            let mut lines = out.lines();
            facts.insert("valid".into(), json!(status == 0));
            facts.insert("verdict".into(), json!(lines.next().unwrap_or_default()));
            if let Some((word, _)) = lines.next().and_then(|l| l.split_once(':')) {
                facts.insert("magic".into(), json!(word));
            }
        }
        "magic" => facts = magic_facts(&json()),
        "position" => facts = position_facts(&json()),
        "solve" => facts = solve_facts(&json()),
        "puzzle" => facts = puzzle_facts(&json()),
        other => panic!("no job {other}"),
    }
    if job != "exists" && job != "check" {
        assert_eq!(status, 0, "{job}: {out}");
    }
    facts
}

/// A puzzle's JSON form's facts: its kind, its squares, and whether
/// `knights solve` proves its solution unique.
fn puzzle_facts(puzzle: &Value) -> Map<String, Value> {
    let (rows, cols) = (
        puzzle["rows"].as_u64().unwrap(),
        puzzle["cols"].as_u64().unwrap(),
    );
    let holes = puzzle["holes"].as_array().map_or(0, Vec::len) as u64;
    let out = knights()
        .args(["solve", "-", "-f", "json"])
        .write_stdin(puzzle.to_string())
        .output()
        .unwrap();
    let solved: Value = serde_json::from_slice(&out.stdout).expect("a solve answer");
    let mut facts = Map::new();
    facts.insert("closed".into(), puzzle["closed"].clone());
    facts.insert("squares".into(), json!(rows * cols - holes));
    facts.insert("unique".into(), solved["unique"].clone());
    facts
}

#[test]
fn the_conformance_table_through_the_command_line() {
    let dir = scratch("conformance");
    for case in cases().iter().filter(|c| c.is_for("cli")) {
        let name = &case.name;
        let (args, stdin) = args(case, &dir);
        let out = knights().args(&args).write_stdin(stdin).output().unwrap();
        let status = out.status.code().unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        if let Some(category) = &case.refused {
            assert_eq!(status, exit_status(category), "{name}: {args:?}: {stderr}");
            assert!(
                stdout.is_empty(),
                "{name}: a refusal prints nothing: {stdout}"
            );
            case.assert_refusal_says(&stderr, |field| format!("--{field}"));
            continue;
        }
        let facts = facts(&case.job, status, &stdout);
        case.assert_facts(&facts, &format!("{args:?} {stderr}"));
    }
    let _ = std::fs::remove_dir_all(dir);
}
