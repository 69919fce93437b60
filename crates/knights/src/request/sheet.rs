//! A printable sheet of tours to find by hand (`knights sheet BOARD`,
//! `GET /api/sheet`): `copies` boards, each with a tour made by the tour
//! request from seed, seed + 1, ..., shown by its start (and its end when
//! asked), and the solution page numbering every square.

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize, Serializer};

use super::{place, within, JobRequest, TourRequest};
use crate::format::sheet::{
    caption, check_fits, Paper, Sheet, SheetBoard, SheetOptions, MAX_BOARDS, NOTE, NOTE_CLOSED,
};
use crate::puzzle::{generate, Difficulty, GenerateOptions, Generated};
use crate::{rng, Category, Control, Result, Shape, Square, Tour, Wanted};

/// The start squares a copy without a given start tries, drawn from its
/// seed, before it gives up (a start from which no tour of the kind leaves
/// is refused at once by the tour request's conditions).
const START_TRIES: usize = 8;

/// A sheet of boards to find a tour on. It is not one of
/// [`super::Request`]'s jobs: its answer is a picture, which only the
/// command line and the web server draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct SheetRequest {
    /// The board, `ROWSxCOLS` or one number.
    pub board: String,
    /// Holes: the rows of a board file, as in [`TourRequest`].
    #[serde(default)]
    pub holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    pub wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    pub leaper: Option<String>,
    /// The kind of tour to find (default either).
    #[serde(default)]
    pub kind: Wanted,
    /// The algorithm that makes the tours (default `auto`).
    #[serde(default = "auto")]
    pub algorithm: String,
    /// The seed of the first board; board i has seed + i.
    #[serde(default)]
    pub seed: u64,
    /// How many boards (1 to 16).
    #[serde(default = "one")]
    pub copies: u32,
    /// Every board's start square; by default each board's is drawn from
    /// its seed.
    #[serde(default)]
    pub start: Option<String>,
    /// Every board's end square (needs a start), given on the worksheet.
    #[serde(default)]
    pub end: Option<String>,
    /// Give each board's end square on the worksheet too.
    #[serde(default)]
    pub show_end: bool,
    /// Warnsdorff's tie-break.
    #[serde(default)]
    pub tie: Option<String>,
    /// Attempts allowed to the methods that restart.
    #[serde(default)]
    pub max_attempts: Option<u32>,
    /// Node budget of the backtracking searches.
    #[serde(default)]
    pub max_nodes: Option<u64>,
    /// The paper: a4 (the default) or letter.
    #[serde(default)]
    pub paper: Paper,
    /// Draw the solution page instead of the worksheet.
    #[serde(default)]
    pub solution: bool,
    /// On the solution page, draw each tour's path under its numbers.
    #[serde(default)]
    pub path: bool,
    /// Puzzles of this difficulty instead of tours to find: board i is
    /// the puzzle generated from seed + i, its clues given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<Difficulty>,
    /// With `puzzle`, clues symmetric under a half turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub symmetric: bool,
}

fn auto() -> String {
    "auto".into()
}

fn one() -> u32 {
    1
}

impl SheetRequest {
    /// A sheet of one board of `board` with every default.
    pub fn new(board: &str) -> SheetRequest {
        SheetRequest {
            board: board.into(),
            holes: None,
            wrap: None,
            leaper: None,
            kind: Wanted::Either,
            algorithm: auto(),
            seed: 0,
            copies: 1,
            start: None,
            end: None,
            show_end: false,
            tie: None,
            max_attempts: None,
            max_nodes: None,
            paper: Paper::A4,
            solution: false,
            path: false,
            puzzle: None,
            symmetric: false,
        }
    }

    /// The tour request of board `i` from `start`.
    fn tour_request(&self, i: u32, start: Option<String>) -> TourRequest {
        TourRequest {
            board: self.board.clone(),
            holes: self.holes.clone(),
            wrap: self.wrap.clone(),
            leaper: self.leaper.clone(),
            kind: self.kind,
            algorithm: self.algorithm.clone(),
            seed: self.seed.wrapping_add(u64::from(i)),
            start,
            end: self.end.clone(),
            tie: self.tie.clone(),
            max_attempts: self.max_attempts,
            max_nodes: self.max_nodes,
            obfuscate: None,
        }
    }
}

/// A [`SheetRequest`] checked.
#[derive(Clone, Debug)]
pub struct SheetPlan {
    request: SheetRequest,
    shape: Shape,
}

impl SheetPlan {
    /// The board's shape.
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The number of boards.
    pub fn copies(&self) -> u32 {
        self.request.copies
    }
}

impl JobRequest for SheetRequest {
    type Plan = SheetPlan;
    type Answer = SheetAnswer;

    fn plan(&self) -> Result<SheetPlan> {
        within("copies", self.copies, 1, MAX_BOARDS as u32)?;
        let shape = place::shape(
            &self.board,
            self.holes.as_deref(),
            self.wrap.as_deref(),
            self.leaper.as_deref(),
        )?;
        let board = shape.board();
        let sides = vec![(board.rows(), board.cols()); self.copies as usize];
        check_fits(&sides, self.paper)?;
        if self.path && !self.solution {
            return Err(crate::Error::Refused(
                "the path is drawn on the solution page only; ask for the solution as well".into(),
            ));
        }
        if self.puzzle.is_some() {
            let with_ends = [
                ("a start square", self.start.is_some()),
                ("an end square", self.end.is_some() || self.show_end),
            ];
            if let Some((what, _)) = with_ends.iter().find(|w| w.1) {
                return Err(crate::Error::Refused(
                    format!("a puzzle gives its own numbers, not {what}; leave it out, or ask for tours to find instead of puzzles").into(),
                ));
            }
        } else if self.symmetric {
            return Err(crate::Error::Refused(
                "symmetric clues are a puzzle's; ask for puzzles as well".into(),
            ));
        }
        // Every check of the tours' request, once, before any is made.
        self.tour_request(0, self.start.clone()).plan()?;
        Ok(SheetPlan {
            request: self.clone(),
            shape,
        })
    }

    fn run_plan(plan: SheetPlan, control: &Control) -> Result<SheetAnswer> {
        if let Some(difficulty) = plan.request.puzzle {
            return puzzle_sheet(&plan, difficulty, control);
        }
        let request = &plan.request;
        let mut boards = Vec::with_capacity(request.copies as usize);
        for i in 0..request.copies {
            let tour = match &request.start {
                Some(start) => {
                    request
                        .tour_request(i, Some(start.clone()))
                        .run(control)?
                        .tour
                }
                None => from_drawn_start(request, &plan.shape, i, control)?,
            };
            let show_end = request.show_end || request.end.is_some();
            let caption = caption(i as usize + 1, request.kind, &tour, show_end);
            boards.push(SheetBoard::find_tour(tour, show_end, caption));
        }
        let board = plan.shape.board();
        let note = match request.kind {
            Wanted::Closed => NOTE_CLOSED,
            _ => NOTE,
        };
        Ok(SheetAnswer {
            sheet: Sheet {
                title: format!("Knight's tours on {board} (seed {})", request.seed),
                note: note.into(),
                boards,
            },
            options: SheetOptions {
                paper: request.paper,
                solution: request.solution,
                path: request.path,
            },
        })
    }
}

/// A sheet of puzzles: board i is the puzzle generated from seed + i,
/// its clues given and its solution on the solution page.
fn puzzle_sheet(
    plan: &SheetPlan,
    difficulty: Difficulty,
    control: &Control,
) -> Result<SheetAnswer> {
    let request = &plan.request;
    let mut boards = Vec::with_capacity(request.copies as usize);
    let mut closed = false;
    for i in 0..request.copies {
        let options = GenerateOptions {
            difficulty,
            seed: request.seed.wrapping_add(u64::from(i)),
            symmetric: request.symmetric,
        };
        let g = generate(&plan.shape, request.kind, options, control)?;
        // The puzzle's kind, not its solution's: an open puzzle's tour may
        // happen to close.
        closed = g.puzzle.closed();
        boards.push(puzzle_board(i as usize + 1, &g));
    }
    let board = plan.shape.board();
    Ok(SheetAnswer {
        sheet: Sheet {
            title: format!("Knight's tour puzzles on {board} (seed {})", request.seed),
            note: puzzle_note(&plan.shape, closed),
            boards,
        },
        options: SheetOptions {
            paper: request.paper,
            solution: request.solution,
            path: request.path,
        },
    })
}

/// Board `n` of a sheet of puzzles: the clues given, counted from 1, and
/// the caption `3. Medium puzzle, closed`.
fn puzzle_board(n: usize, g: &Generated) -> SheetBoard {
    let given = g
        .puzzle
        .clues()
        .iter()
        .enumerate()
        .filter_map(|(s, c)| c.map(|step| (s as Square, step + 1)))
        .collect();
    let name = g.difficulty.name();
    let mut caption = format!("{n}. {}{} puzzle, ", name[..1].to_uppercase(), &name[1..]);
    caption += if g.puzzle.closed() { "closed" } else { "open" };
    SheetBoard {
        shape: g.puzzle.shape().clone(),
        given,
        caption,
        solution: Some(g.solution.clone()),
    }
}

/// The instructions of a sheet of puzzles on `shape`: `Number the squares
/// 1 to 64 so that each number is a knight's move from the next.`
fn puzzle_note(shape: &Shape, closed: bool) -> String {
    let leaper = shape.leaper();
    let piece = if leaper == crate::shape::Leaper::KNIGHT {
        "a knight's move".to_string()
    } else {
        format!("a {leaper} leaper's move")
    };
    let mut note = format!(
        "Number the squares 1 to {} so that each number is {piece} from the next",
        shape.squares()
    );
    if closed {
        note += &format!(", and the last {piece} from 1");
    }
    note + "."
}

/// The tour of board `i` from a start drawn from its seed: the squares in
/// the seed's order, the first from which a tour of the kind is found.
fn from_drawn_start(
    request: &SheetRequest,
    shape: &Shape,
    i: u32,
    control: &Control,
) -> Result<Tour> {
    let board = shape.board();
    let mut squares: Vec<Square> = (0..board.squares() as Square)
        .filter(|&s| !shape.is_hole(s))
        .collect();
    let seed = request.seed.wrapping_add(u64::from(i));
    squares.shuffle(&mut rng::seeded(seed));
    let mut last = None;
    for &s in squares.iter().take(START_TRIES) {
        let (r, c) = board.coords(s);
        match request
            .tour_request(i, Some(format!("{r},{c}")))
            .run(control)
        {
            Ok(answer) => return Ok(answer.tour),
            Err(e) if e.category() == Category::NoAnswer => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| crate::Error::NoTour("the board has no square to start on".into())))
}

/// A sheet and how to draw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetAnswer {
    /// The boards, each with its tour.
    pub sheet: Sheet,
    /// The paper and the page asked for.
    pub options: SheetOptions,
}

impl SheetAnswer {
    /// The page asked for, as SVG.
    pub fn svg(&self) -> Result<String> {
        crate::format::sheet::sheet_svg(&self.sheet, self.options)
    }

    /// The page asked for, as PNG.
    #[cfg(feature = "raster")]
    pub fn png(&self) -> Result<Vec<u8>> {
        crate::format::sheet::sheet_png(&self.sheet, self.options)
    }
}

impl Serialize for SheetAnswer {
    /// `{"paper", "boards": [{"rows", "cols", "caption", "given": [[r, c,
    /// n], ...], "squares": [[r, c], ...]}]}`.
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Wire<'a> {
            paper: &'static str,
            boards: Vec<WireBoard<'a>>,
        }
        #[derive(Serialize)]
        struct WireBoard<'a> {
            rows: u32,
            cols: u32,
            caption: &'a str,
            given: Vec<(u32, u32, u32)>,
            squares: Vec<(u32, u32)>,
        }
        let boards = self
            .sheet
            .boards
            .iter()
            .map(|b| {
                let board = b.shape.board();
                WireBoard {
                    rows: board.rows(),
                    cols: board.cols(),
                    caption: &b.caption,
                    given: b
                        .given
                        .iter()
                        .map(|&(s, n)| {
                            let (r, c) = board.coords(s);
                            (r, c, n)
                        })
                        .collect(),
                    squares: b.solution.as_ref().map_or_else(Vec::new, |t| {
                        t.squares().iter().map(|&s| board.coords(s)).collect()
                    }),
                }
            })
            .collect();
        Wire {
            paper: self.options.paper.name(),
            boards,
        }
        .serialize(serializer)
    }
}
