//! The conformance table (`tests/data/conformance.toml`) through the
//! request model itself: every case's request reads as a
//! [`knights::request::Request`], and running it gives the facts (or the
//! error category) the table expects. The doors' runners (the command
//! line, the web server, Python) check the same table through their own
//! syntax; this one shows that the table is the library's.

use knights::request::{JobRequest, Request, SolveAnswer, SolveRequest};
use knights::{Category, Control};
use knights_conformance::{cases, magic_facts, position_facts, puzzle_facts, solve_facts};
use serde_json::{json, Map, Value};

/// The table's name of a category.
fn category_name(category: Category) -> &'static str {
    match category {
        Category::BadInput => "bad-input",
        Category::NoAnswer => "no-answer",
        Category::OverLimit => "over-limit",
        Category::Interrupted => "interrupted",
        Category::Io => "io",
        _ => "internal",
    }
}

/// A tour answer's facts: kind, size, first and last squares.
fn tour_facts(tour: &Value, facts: &mut Map<String, Value>) {
    let cols = tour["cols"].as_u64().unwrap();
    let squares = tour["squares"].as_array().unwrap();
    let at = |v: &Value| {
        let s = v.as_u64().unwrap();
        json!([s / cols, s % cols])
    };
    facts.insert("closed".into(), tour["closed"].clone());
    facts.insert("squares".into(), json!(squares.len()));
    facts.insert("start".into(), at(&squares[0]));
    facts.insert("end".into(), at(squares.last().unwrap()));
    facts.insert("order".into(), tour["squares"].clone());
}

/// A tourney answer's facts: its squares and cycles.
fn tourney_facts(tourney: &Value, facts: &mut Map<String, Value>) {
    let cycles = tourney["cycles"].as_array().unwrap();
    let squares: usize = cycles.iter().map(|c| c.as_array().unwrap().len()).sum();
    facts.insert("squares".into(), json!(squares));
    facts.insert("cycles".into(), json!(cycles.len()));
}

/// The facts of an answer (serialised), in the table's names.
fn facts(job: &str, answer: &Value) -> Map<String, Value> {
    let a = &answer[job];
    let mut facts = Map::new();
    let mut copy = |from: &str, to: &str| {
        facts.insert(to.into(), a[from].clone());
    };
    match job {
        "exists" => copy("answer", "answer"),
        "count" => copy("count", "count"),
        "estimate" => copy("method", "method"),
        "dry-run" => {
            copy("method", "method");
            copy("order", "order");
            copy("steps", "steps");
        }
        "encrypt" | "decrypt" => copy("text", "text"),
        "stats" => copy("count", "samples"),
        "check" => {
            copy("valid", "valid");
            copy("verdict", "verdict");
            if let Some(word) = a["magic"].get("magic") {
                facts.insert("magic".into(), word.clone());
            }
        }
        "magic" => facts = magic_facts(a),
        "position" => facts = position_facts(a),
        "solve" => facts = solve_facts(a),
        "puzzle" => facts = puzzle_facts(a, solves_uniquely(a)),
        _ => {}
    }
    match job {
        "tour" => tour_facts(a, &mut facts),
        "join" | "obfuscate" => tour_facts(&a["tour"], &mut facts),
        "tourney" => tourney_facts(a, &mut facts),
        "shatter" => tourney_facts(&a["tourney"], &mut facts),
        _ => {}
    }
    // A count is a string in the table, whichever way it serialises.
    if let Some(count) = facts.get_mut("count") {
        *count = json!(count.to_string().trim_matches('"'));
    }
    facts
}

/// Whether the solve request proves a generated puzzle's solution unique.
fn solves_uniquely(a: &Value) -> bool {
    let text = a["puzzle"]["text"].as_str().unwrap();
    let solved = SolveRequest::new(text).run(&Control::new()).unwrap();
    let SolveAnswer::Solutions(solved) = solved else {
        panic!("solutions, not a step")
    };
    solved.unique
}

#[test]
fn every_job_has_an_accepted_and_a_refused_case() {
    let cases = cases();
    for job in [
        "tour",
        "tourney",
        "join",
        "shatter",
        "obfuscate",
        "exists",
        "count",
        "dry-run",
        "estimate",
        "encrypt",
        "decrypt",
        "stats",
        "check",
        "position",
        "puzzle",
        "solve",
        "magic",
    ] {
        let of_job = || cases.iter().filter(|c| c.job == job);
        assert!(
            of_job().any(|c| c.expect.is_some()),
            "{job}: no accepted case"
        );
        assert!(
            of_job().any(|c| c.refused.is_some()),
            "{job}: no refused case"
        );
    }
    for case in &cases {
        assert!(
            case.expect.is_some() != case.refused.is_some(),
            "{}: expect or refused, one of them",
            case.name
        );
        for door in &case.doors {
            assert!(
                ["cli", "http", "python"].contains(&door.as_str()),
                "{}: door {door}",
                case.name
            );
        }
    }
}

#[test]
fn the_table_runs_through_the_request_model() {
    for case in cases() {
        let name = &case.name;
        let request = json!({ &case.job: serde_json::to_value(&case.request).unwrap() });
        let request: Request = serde_json::from_value(request)
            .unwrap_or_else(|e| panic!("{name}: not a request of the model: {e}"));
        match (request.run(&Control::new()), &case.expect, &case.refused) {
            (Ok(answer), Some(_), None) => {
                let facts = facts(&case.job, &serde_json::to_value(&answer).unwrap());
                case.assert_facts(&facts, "the request model");
            }
            (Err(e), None, Some(refused)) => {
                assert_eq!(category_name(e.category()), refused, "{name}: {e}");
                let says = case.says.as_deref().unwrap_or_default();
                assert!(e.to_string().contains(says), "{name}: {e}");
                assert!(!e.to_string().contains("--"), "{name}: names a flag: {e}");
                if let Some(field) = &case.hint {
                    assert!(e.hint().is_some(), "{name}: no advice to name {field}: {e}");
                }
            }
            (outcome, _, _) => panic!("{name}: unexpected {:?}", outcome.map(|_| "an answer")),
        }
    }
}
