//! The conformance table (`crates/knights/tests/data/conformance.toml`),
//! read once for the runners of every door: the library's own
//! (`crates/knights/tests/conformance.rs`), the command line's
//! (`crates/knights-cli/tests/cli/conformance.rs`) and the web server's
//! (`crates/knights-serve/src/conformance.rs`); Python's runner reads the
//! same file with its own TOML reader. Each runner keeps only its door's
//! translation (flags, query and body parameters) and how it reads an
//! answer; what a case is, how a tour file's facts are read and what an
//! accepted or refused case must show live here.
//!
//! ```
//! let cases = knights_conformance::cases();
//! assert!(cases.iter().any(|c| c.job == "tour" && c.is_for("cli")));
//! ```

use knights::format::{self, Checked};
use serde_json::{json, Map, Value};

/// One row of the table: a job's request in the library's serde form, the
/// doors it runs through, and what must come out.
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// The case's name, unique in the table.
    pub name: String,
    /// The job (`tour`, `count`, ...): the request's variant.
    pub job: String,
    /// The job's request, by the request's own field names.
    pub request: toml::Table,
    /// The doors it runs through: `cli`, `http`, `python`.
    pub doors: Vec<String>,
    /// For an accepted case, the facts every door must give.
    #[serde(default)]
    pub expect: Option<toml::Table>,
    /// For a refused case, the error's category (`bad-input`, ...).
    #[serde(default)]
    pub refused: Option<String>,
    /// Part of the library's sentence, which every door shows unchanged.
    #[serde(default)]
    pub says: Option<String>,
    /// The request's field that the refusal's advice names.
    #[serde(default)]
    pub hint: Option<String>,
}

/// Every case of the table, in its order.
pub fn cases() -> Vec<Case> {
    #[derive(serde::Deserialize)]
    struct Table {
        case: Vec<Case>,
    }
    let text = include_str!("../../knights/tests/data/conformance.toml");
    toml::from_str::<Table>(text)
        .expect("the conformance table reads")
        .case
}

/// A request field's value as a door's text (a flag's or a query's value).
pub fn text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Case {
    /// Whether the case runs through `door`.
    pub fn is_for(&self, door: &str) -> bool {
        self.doors.iter().any(|d| d == door)
    }

    /// Asserts that `facts` (read from one door's answer) are the facts the
    /// case expects; `context` is added to a failure's message.
    pub fn assert_facts(&self, facts: &Map<String, Value>, context: &str) {
        let expect = self.expect.as_ref().expect("an accepted case");
        for (key, want) in expect {
            let want = serde_json::to_value(want).expect("a TOML value is JSON");
            assert_eq!(
                facts.get(key),
                Some(&want),
                "{}: {key}: {context}",
                self.name
            );
        }
    }

    /// Asserts that a door's refusal `said` shows the library's sentence
    /// unchanged and names the advice's field as the door spells it
    /// (`spell("max-nodes")` is `--max-nodes` on the command line).
    pub fn assert_refusal_says(&self, said: &str, spell: impl Fn(&str) -> String) {
        let says = self.says.as_deref().unwrap_or_default();
        assert!(said.contains(says), "{}: says {says:?}: {said}", self.name);
        if let Some(field) = &self.hint {
            let spelt = spell(field);
            assert!(said.contains(&spelt), "{}: hint {spelt}: {said}", self.name);
        }
    }
}

/// The facts of a tour or tourney file in any format the checker reads,
/// after the checker has passed it: a tour's kind, size, ends and order,
/// a tourney's squares and cycles. Panics on a file that is no valid tour
/// or tourney.
pub fn file_facts(text: &str) -> Map<String, Value> {
    let valid = format::read(text)
        .and_then(|d| d.into_checked())
        .unwrap_or_else(|e| panic!("not a valid tour or tourney ({e}): {text}"));
    let mut facts = Map::new();
    match valid {
        Checked::Tour(t) => {
            let at = |s: u32| json!([s / t.board().cols(), s % t.board().cols()]);
            facts.insert("closed".into(), json!(t.is_closed()));
            facts.insert("squares".into(), json!(t.squares().len()));
            facts.insert("start".into(), at(t.squares()[0]));
            facts.insert("end".into(), at(*t.squares().last().expect("a tour")));
            facts.insert("order".into(), json!(t.squares()));
        }
        Checked::Tourney(t) => {
            let squares: usize = t.cycles().iter().map(|c| c.len()).sum();
            facts.insert("squares".into(), json!(squares));
            facts.insert("cycles".into(), json!(t.cycles().len()));
        }
    }
    facts
}

/// The facts of a position answer (its JSON, as every door gives it): the
/// verdict and reason, the path, the squares left, the legal moves,
/// whether it is won, the completion's length and the finished tour's kind
/// (`""` while squares are left).
pub fn position_facts(answer: &Value) -> Map<String, Value> {
    let mut facts = Map::new();
    for key in ["verdict", "reason", "path", "left", "legal-moves", "won"] {
        facts.insert(key.into(), answer[key].clone());
    }
    if let Some(rest) = answer["completion"].as_array() {
        facts.insert("completes".into(), json!(rest.len()));
    }
    facts.insert(
        "finished".into(),
        json!(answer["finished"].as_str().unwrap_or("")),
    );
    facts
}

/// The facts of a solve answer (its JSON, as every door gives it): the
/// solutions found, whether one is proved unique and whether the search
/// finished; or a step's outcome.
pub fn solve_facts(answer: &Value) -> Map<String, Value> {
    let mut facts = Map::new();
    for (from, to) in [
        ("count", "found"),
        ("unique", "unique"),
        ("complete", "complete"),
        ("outcome", "outcome"),
    ] {
        if let Some(v) = answer.get(from).filter(|v| !v.is_null()) {
            facts.insert(to.into(), v.clone());
        }
    }
    facts
}

/// The facts of a puzzle answer (the library's, `{"puzzle": {"json",
/// "text"}, "solution", ...}`): its kind and squares, with `unique`,
/// whether the door's own solve of the puzzle's text proved it unique.
pub fn puzzle_facts(answer: &Value, unique: bool) -> Map<String, Value> {
    let solution = answer["solution"].as_array().expect("a puzzle's solution");
    let mut facts = Map::new();
    facts.insert("closed".into(), answer["puzzle"]["json"]["closed"].clone());
    facts.insert("squares".into(), json!(solution.len()));
    facts.insert("unique".into(), json!(unique));
    facts
}

/// The facts of a magic answer (its JSON, as every door gives it): the
/// tours found and how magic the first is (`semimagic`, `magic`).
pub fn magic_facts(answer: &Value) -> Map<String, Value> {
    let tours = answer["tours"].as_array().map_or(&[][..], Vec::as_slice);
    let mut facts = Map::new();
    facts.insert("tours".into(), json!(tours.len()));
    if let Some(first) = tours.first() {
        facts.insert("magic".into(), first["sums"]["magic"].clone());
    }
    facts
}
