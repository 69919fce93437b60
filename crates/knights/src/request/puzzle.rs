//! Clue puzzles through the request model: make one
//! ([`PuzzleRequest`], `knights puzzle`) and solve one ([`SolveRequest`],
//! `knights solve`), the same for every door.

use serde::{Deserialize, Serialize, Serializer};

use super::{place, within, JobRequest};
use crate::format::{puzzle_json, puzzle_text, read_puzzle};
use crate::puzzle::{generate, Deduction, Difficulty, GenerateOptions, NextStep, Puzzle, Work};
use crate::{Budget, Control, Error, Hint, Result, Square, Tour, Wanted};

/// The node budget of a solve when the request gives none.
pub const DEFAULT_SOLVE_NODES: u64 = 10_000_000;

/// A puzzle to generate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct PuzzleRequest {
    /// The board, `ROWSxCOLS` or one number.
    pub board: String,
    /// Holes: the rows of a board file (`.` a square, `#` a hole),
    /// separated by newlines or `/`.
    #[serde(default)]
    pub holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    pub wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    pub leaper: Option<String>,
    /// The kind of tour the solution is (default either: closed where one
    /// exists).
    #[serde(default)]
    pub kind: Wanted,
    /// The difficulty (default medium).
    #[serde(default)]
    pub difficulty: Difficulty,
    /// The seed: the same seed gives the same puzzle everywhere.
    #[serde(default)]
    pub seed: u64,
    /// Whether the given squares are symmetric under a half turn.
    #[serde(default)]
    pub symmetric: bool,
}

impl PuzzleRequest {
    /// A puzzle of `board`, every default.
    pub fn new(board: &str) -> PuzzleRequest {
        PuzzleRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind: Wanted::Either,
            difficulty: Difficulty::default(),
            seed: 0,
            symmetric: false,
        }
    }
}

/// A puzzle request read into the shape and the options.
#[derive(Clone, Debug)]
pub struct PuzzlePlan {
    /// The board.
    pub shape: crate::Shape,
    /// The kind of the solution.
    pub kind: Wanted,
    /// Difficulty, seed and symmetry.
    pub options: GenerateOptions,
}

impl JobRequest for PuzzleRequest {
    type Plan = PuzzlePlan;
    type Answer = PuzzleAnswer;

    fn plan(&self) -> Result<PuzzlePlan> {
        let shape = place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )?;
        let board = shape.board();
        crate::puzzle::fits(u64::from(board.rows()), u64::from(board.cols()))?;
        Ok(PuzzlePlan {
            shape,
            kind: self.kind,
            options: GenerateOptions {
                difficulty: self.difficulty,
                seed: self.seed,
                symmetric: self.symmetric,
            },
        })
    }

    fn run_plan(plan: PuzzlePlan, control: &Control) -> Result<PuzzleAnswer> {
        let g = generate(&plan.shape, plan.kind, plan.options, control)?;
        Ok(PuzzleAnswer {
            puzzle: g.puzzle,
            solution: g.solution,
            difficulty: g.difficulty,
            work: g.work,
            seed: plan.options.seed,
        })
    }
}

/// A generated puzzle. As JSON: `puzzle` (the puzzle's JSON object),
/// `text` (its text form), `solution` (the tour's squares, row-major
/// numbers, in order), `difficulty`, `work` and `seed`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct PuzzleAnswer {
    /// The puzzle.
    #[serde(serialize_with = "puzzle_as_json")]
    pub puzzle: Puzzle,
    /// Its one solution.
    #[serde(serialize_with = "tour_squares")]
    pub solution: Tour,
    /// Its difficulty.
    pub difficulty: Difficulty,
    /// The solver's work on it.
    pub work: Work,
    /// The seed it was made from.
    pub seed: u64,
}

/// A puzzle to solve, or to take one step in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct SolveRequest {
    /// The puzzle, in either form (docs/formats.md, "Puzzles").
    pub puzzle: String,
    /// The numbers placed so far beyond the clues, in the puzzle's text
    /// form (the same header and board): for one step from there.
    #[serde(default)]
    pub progress: Option<String>,
    /// How many solutions to look for (1 or more; default 2, which proves
    /// a solution unique).
    #[serde(default = "two")]
    pub limit: usize,
    /// Node budget of the search (1 or more; default
    /// [`DEFAULT_SOLVE_NODES`]).
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// Give the next deduction instead of the solutions.
    #[serde(default)]
    pub step: bool,
}

fn two() -> usize {
    2
}

impl SolveRequest {
    /// A request to solve `puzzle` (either form), every default.
    pub fn new(puzzle: &str) -> SolveRequest {
        SolveRequest {
            puzzle: puzzle.into(),
            progress: None,
            limit: 2,
            max_nodes: None,
            step: false,
        }
    }
}

/// A solve request read into the puzzle and what to do.
#[derive(Clone, Debug)]
pub struct SolvePlan {
    /// The puzzle.
    pub puzzle: Puzzle,
    /// The clues and the numbers placed so far.
    pub filled: Vec<Option<u32>>,
    /// How many solutions to look for.
    pub limit: usize,
    /// The node budget.
    pub max_nodes: u64,
    /// Whether to give one deduction.
    pub step: bool,
}

impl JobRequest for SolveRequest {
    type Plan = SolvePlan;
    type Answer = SolveAnswer;

    fn plan(&self) -> Result<SolvePlan> {
        let puzzle = read_puzzle(&self.puzzle)?;
        let filled = match &self.progress {
            None => puzzle.clues().to_vec(),
            Some(p) => {
                let progress = read_puzzle(p)?;
                if progress.shape() != puzzle.shape() || progress.closed() != puzzle.closed() {
                    return Err(crate::Error::Board(
                        "the progress is of another board than the puzzle; write it with the puzzle's header".into(),
                    ));
                }
                progress.clues().to_vec()
            }
        };
        let limit = within("limit", self.limit, 1, 1000)?;
        let max_nodes = within(
            "max-nodes",
            self.max_nodes.unwrap_or(DEFAULT_SOLVE_NODES),
            1,
            u64::MAX,
        )?;
        Ok(SolvePlan {
            puzzle,
            filled,
            limit,
            max_nodes,
            step: self.step,
        })
    }

    fn run_plan(plan: SolvePlan, control: &Control) -> Result<SolveAnswer> {
        if plan.step {
            let step = plan
                .puzzle
                .next_step(&plan.filled, plan.max_nodes, control)?;
            return Ok(SolveAnswer::Step(StepAnswer::of(&plan.puzzle, step)));
        }
        let found = plan.puzzle.solutions(plan.limit, plan.max_nodes, control)?;
        if found.tours.is_empty() {
            return Err(no_solution(&plan, found.complete, control)?);
        }
        Ok(SolveAnswer::Solutions(SolutionsAnswer {
            count: found.tours.len(),
            unique: found.is_unique(),
            complete: found.complete,
            solutions: found.tours.iter().map(|t| t.squares().to_vec()).collect(),
            work: found.work,
        }))
    }
}

/// The error of a search that found no solution: [`Error::NoTour`] with
/// the reason when the search finished (the solver's contradiction on the
/// clues, if it names one), else [`Error::GaveUp`] advising more nodes.
fn no_solution(plan: &SolvePlan, complete: bool, control: &Control) -> Result<Error> {
    if !complete {
        let nodes = plan.max_nodes;
        return Ok(Error::GaveUp(
            format!(
                "the search ran out of its budget of {nodes} node{} before it found a solution or proved there is none",
                if nodes == 1 { "" } else { "s" }
            )
            .into(),
        )
        .with_hint(Hint::Raise(Budget::Nodes)));
    }
    let why = match plan
        .puzzle
        .next_step(plan.puzzle.clues(), plan.max_nodes, control)?
    {
        NextStep::Contradiction(why) => why,
        _ => "no numbering of its squares fits every clue".into(),
    };
    Ok(Error::NoTour(
        format!("this puzzle has no solution: {why}").into(),
    ))
}

/// What a solve answers: the solutions, or one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", untagged)]
pub enum SolveAnswer {
    /// The solutions found.
    Solutions(SolutionsAnswer),
    /// One step of reasoning.
    Step(StepAnswer),
}

/// The solutions of a puzzle, up to the limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct SolutionsAnswer {
    /// How many were found.
    pub count: usize,
    /// Whether exactly one exists (found, and the search finished).
    pub unique: bool,
    /// Whether the search finished within its budget.
    pub complete: bool,
    /// Each solution's squares in order, row-major numbers.
    pub solutions: Vec<Vec<Square>>,
    /// What the search spent.
    pub work: Work,
}

/// One step from a partly filled grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct StepAnswer {
    /// `deduction`, `contradiction`, `solved` or `stuck`.
    pub outcome: &'static str,
    /// The deduction, when there is one.
    pub deduction: Option<Deduction>,
    /// Its row, column and number as written, when there is one.
    pub at: Option<[u32; 3]>,
    /// Why, in one sentence (the deduction's or the contradiction's).
    pub reason: Option<String>,
}

impl StepAnswer {
    fn of(puzzle: &Puzzle, step: NextStep) -> StepAnswer {
        let board = puzzle.shape().board();
        match step {
            NextStep::Deduction(d) => {
                let (r, c) = board.coords(d.square);
                StepAnswer {
                    outcome: "deduction",
                    at: Some([r, c, d.step + puzzle.base()]),
                    reason: Some(d.reason.clone()),
                    deduction: Some(d),
                }
            }
            NextStep::Contradiction(why) => StepAnswer {
                outcome: "contradiction",
                deduction: None,
                at: None,
                reason: Some(why),
            },
            NextStep::Solved => StepAnswer {
                outcome: "solved",
                deduction: None,
                at: None,
                reason: None,
            },
            NextStep::Stuck => StepAnswer {
                outcome: "stuck",
                deduction: None,
                at: None,
                reason: None,
            },
        }
    }
}

fn puzzle_as_json<S: Serializer>(puzzle: &Puzzle, s: S) -> std::result::Result<S::Ok, S::Error> {
    let value: serde_json::Value =
        serde_json::from_str(&puzzle_json(puzzle)).expect("a puzzle's JSON reads back");
    let mut map = serde_json::Map::new();
    map.insert("json".into(), value);
    map.insert("text".into(), puzzle_text(puzzle).into());
    map.serialize(s)
}

fn tour_squares<S: Serializer>(tour: &Tour, s: S) -> std::result::Result<S::Ok, S::Error> {
    tour.squares().serialize(s)
}
