//! The conformance table (`crates/knights/tests/data/conformance.toml`)
//! through the command line: each case's request, in the library's request
//! model, becomes the flags a user would type (the translation table
//! below), and the output and exit status must show the facts or the error
//! category the table expects (exit statuses as docs/formats.md lists them).

use knights::format::{self, Valid};
use serde_json::{json, Map, Value};

use super::{data, knights, scratch};

/// One row of the table (the fields this runner reads).
#[derive(serde::Deserialize)]
struct Case {
    name: String,
    job: String,
    request: toml::Table,
    doors: Vec<String>,
    #[serde(default)]
    expect: Option<toml::Table>,
    #[serde(default)]
    refused: Option<String>,
    /// Part of the library's sentence, which the door must show unchanged.
    #[serde(default)]
    says: Option<String>,
    /// The request's field that the refusal's advice names.
    #[serde(default)]
    hint: Option<String>,
}

#[derive(serde::Deserialize)]
struct Table {
    case: Vec<Case>,
}

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
];

/// The request's switches (a flag without a value, given when true).
const SWITCHES: &[(&str, &str)] = &[
    ("directed", "--directed"),
    ("outside-in", "--outside-in"),
    ("classic", "--classic"),
    ("obfuscate", "--obfuscate"),
    ("tourneys", "--tourney"),
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

/// A field's value as the command line writes it.
fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The command line of `case` (the job's subcommand, flags and operands)
/// and its standard input.
fn args(case: &Case, dir: &std::path::Path) -> (Vec<String>, String) {
    let mut args = vec![case.job.clone()];
    let mut stdin = String::new();
    for (field, value) in &case.request {
        let value_text = text(value);
        match (case.job.as_str(), field.as_str()) {
            (_, "board") => args.push(value_text),
            (_, "kind") if value_text == "either" => {}
            (_, "kind") => args.push(format!("--{value_text}")),
            (_, "of") => args.push(format!("--{value_text}")),
            (_, "cover") | ("check", "text") => {
                let file = dir.join("input");
                std::fs::write(&file, &value_text).unwrap();
                args.push(file.display().to_string());
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
        "stats" => args.extend(["--format".into(), "json".into()]),
        "count" | "estimate" => args.push("--json".into()),
        _ => {}
    }
    (args, stdin)
}

/// A tour or tourney file's facts, after the checker has read it.
fn file_facts(out: &str, facts: &mut Map<String, Value>) {
    let valid = format::read(out)
        .and_then(|d| d.into_valid())
        .unwrap_or_else(|e| panic!("not a valid tour or tourney ({e}): {out}"));
    match valid {
        Valid::Tour(t) => {
            let at = |s: u32| json!([s / t.board().cols(), s % t.board().cols()]);
            facts.insert("closed".into(), json!(t.is_closed()));
            facts.insert("squares".into(), json!(t.squares().len()));
            facts.insert("start".into(), at(t.squares()[0]));
            facts.insert("end".into(), at(*t.squares().last().unwrap()));
            facts.insert("order".into(), json!(t.squares()));
        }
        Valid::Tourney(t) => {
            let squares: usize = t.cycles().iter().map(|c| c.len()).sum();
            facts.insert("squares".into(), json!(squares));
            facts.insert("cycles".into(), json!(t.cycles().len()));
        }
    }
}

/// The facts of an accepted case's output and exit status.
fn facts(job: &str, status: i32, out: &str) -> Map<String, Value> {
    let mut facts = Map::new();
    let json = || serde_json::from_str::<Value>(out).expect("JSON output");
    match job {
        "tour" | "tourney" | "join" | "shatter" | "obfuscate" => file_facts(out, &mut facts),
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
        "encrypt" | "decrypt" => {
            facts.insert("text".into(), json!(out));
        }
        "stats" => {
            facts.insert("samples".into(), json()["count"].clone());
        }
        "check" => {
            facts.insert("valid".into(), json!(status == 0));
            facts.insert("verdict".into(), json!(out.trim_end()));
        }
        other => panic!("no job {other}"),
    }
    if job != "exists" && job != "check" {
        assert_eq!(status, 0, "{job}: {out}");
    }
    facts
}

#[test]
fn the_conformance_table_through_the_command_line() {
    let table = std::fs::read_to_string(data("conformance.toml")).unwrap();
    let table: Table = toml::from_str(&table).expect("the table reads");
    let dir = scratch("conformance");
    for case in table
        .case
        .iter()
        .filter(|c| c.doors.iter().any(|d| d == "cli"))
    {
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
            let says = case.says.as_deref().unwrap_or_default();
            assert!(stderr.contains(says), "{name}: says {says:?}");
            if let Some(field) = &case.hint {
                let spelt = format!("--{field}");
                assert!(stderr.contains(&spelt), "{name}: hint {spelt}");
            }
            continue;
        }
        let facts = facts(&case.job, status, &stdout);
        for (key, want) in case.expect.as_ref().unwrap() {
            let want = serde_json::to_value(want).unwrap();
            assert_eq!(
                facts.get(key),
                Some(&want),
                "{name}: {key}: {args:?} {stderr}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}
