//! Semimagic tours through the request model: look for them, or
//! enumerate them all ([`MagicRequest`], `knights magic`), with the same
//! checks and sentences for every door.

use std::path::PathBuf;

use serde::{Deserialize, Serialize, Serializer};

use super::{place, refuse, within, JobRequest};
use crate::magic::search::{
    check_symmetric, Enumeration, EnumerationReport, Found, MagicSearch, SearchReport, MAX_SIDE,
};
use crate::magic::LineSums;
use crate::{Board, Control, Result, Shape, Square, Tour, Wanted};

/// The node budget of a search or an enumeration for a door that needs
/// one when the request gives none (the web server, Python); the command
/// line has none, and Ctrl-C stops it.
pub const DEFAULT_MAGIC_NODES: u64 = 200_000_000;

/// A search for semimagic tours of a square board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct MagicRequest {
    /// The board, `NxN` or one number.
    pub board: String,
    /// Closed, open or either (default either).
    #[serde(default)]
    pub kind: Wanted,
    /// The square numbered 1, `ROW,COL` or a name such as `a8`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// A partial path to extend, in any tour format (docs/formats.md,
    /// "Partial paths").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The seed of the order of the choices.
    #[serde(default)]
    pub seed: u64,
    /// The node budget.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u64>,
    /// Stop after this many tours (default 1; not with `all`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// Enumerate exhaustively, in ranges.
    #[serde(default)]
    pub all: bool,
    /// With `all`, the checkpoint file to resume from and rewrite.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<String>,
    /// Only tours symmetric under the half turn (number `k + N/2` on the
    /// square opposite `k`; such tours are closed).
    #[serde(default)]
    pub symmetric: bool,
}

impl MagicRequest {
    /// A search of `board`, every default.
    pub fn new(board: &str) -> MagicRequest {
        MagicRequest {
            board: board.into(),
            kind: Wanted::Either,
            start: None,
            from: None,
            seed: 0,
            max_nodes: None,
            limit: None,
            all: false,
            checkpoint: None,
            symmetric: false,
        }
    }
}

/// A magic request read: a search or an enumeration.
#[derive(Clone, Debug)]
pub enum MagicPlan {
    /// Look for tours from a seed.
    Search(MagicSearch),
    /// Enumerate them all, in ranges.
    Enumerate(Enumeration),
}

/// One tour of a [`MagicAnswer`]; it serialises as `{"rows", "cols",
/// "closed", "squares", "sums"}` (squares as indices, row-major).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MagicTour {
    /// The tour.
    pub tour: Tour,
    /// Its line sums.
    pub sums: LineSums,
}

impl Serialize for MagicTour {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        /// The tour's JSON.
        #[derive(Serialize)]
        struct Wire<'a> {
            rows: u32,
            cols: u32,
            closed: bool,
            squares: &'a [crate::Square],
            sums: &'a LineSums,
        }
        let board = self.tour.board();
        Wire {
            rows: board.rows(),
            cols: board.cols(),
            closed: self.tour.is_closed(),
            squares: self.tour.squares(),
            sums: &self.sums,
        }
        .serialize(serializer)
    }
}

/// The tours found and how the search ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MagicAnswer {
    /// The tours found, in the order found.
    pub tours: Vec<MagicTour>,
    /// Nodes searched.
    pub nodes: u64,
    /// Whether the search's whole space was searched.
    pub complete: bool,
    /// With `all`: ranges, tours and classes so far.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<EnumerationSummary>,
}

/// An enumeration's figures, for the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EnumerationSummary {
    /// Ranges finished.
    pub ranges_done: u64,
    /// Ranges in all.
    pub ranges: u64,
    /// Tours found (start in the fundamental region).
    pub tours: u64,
    /// Classes up to the 16 symmetries.
    pub classes: u64,
}

impl MagicPlan {
    /// Runs the plan, giving each tour to `on_found` as it is found (the
    /// CLI prints it at once); the answer lists them all.
    pub fn run_watched(
        self,
        control: &Control,
        on_found: &mut dyn FnMut(&Found) -> Result<()>,
    ) -> Result<MagicAnswer> {
        let mut tours = Vec::new();
        let mut keep = |f: &Found| {
            tours.push(MagicTour {
                tour: f.tour.clone(),
                sums: f.sums.clone(),
            });
            on_found(f)
        };
        match self {
            MagicPlan::Search(search) => {
                let SearchReport {
                    nodes, complete, ..
                } = search.run(control, &mut keep)?;
                Ok(MagicAnswer {
                    tours,
                    nodes,
                    complete,
                    enumeration: None,
                })
            }
            MagicPlan::Enumerate(e) => {
                let r: EnumerationReport = e.run(control, &mut keep)?;
                Ok(MagicAnswer {
                    tours,
                    nodes: r.nodes,
                    complete: r.complete,
                    enumeration: Some(EnumerationSummary {
                        ranges_done: r.ranges_done,
                        ranges: r.ranges,
                        tours: r.tours,
                        classes: r.classes,
                    }),
                })
            }
        }
    }
}

impl MagicRequest {
    /// The enumeration this request (with `all`) asks for.
    fn enumeration(&self, side: u32, max_nodes: Option<u64>) -> Result<MagicPlan> {
        let given: Vec<&str> = [
            ("start", self.start.is_some()),
            ("from", self.from.is_some()),
            ("limit", self.limit.is_some()),
        ]
        .iter()
        .filter(|(_, given)| *given)
        .map(|(field, _)| *field)
        .collect();
        if !given.is_empty() {
            return refuse(format!(
                "an enumeration of every tour (all) starts everywhere and finds them all, so it takes no {}; leave {} out, or look for some tours without all",
                given.join(", "),
                if given.len() == 1 { "it" } else { "them" }
            ));
        }
        Ok(MagicPlan::Enumerate(Enumeration {
            side,
            kind: self.kind,
            checkpoint: self.checkpoint.as_ref().map(PathBuf::from),
            max_nodes,
            symmetric: self.symmetric,
        }))
    }
}

/// The side of a board the magic search takes: square, even, from 6 to
/// [`MAX_SIDE`].
fn magic_side(board: Board) -> Result<u32> {
    let side = board.rows();
    let why = if board.cols() != side {
        format!("{board} is not square")
    } else if side % 2 == 1 {
        format!(
            "{board} has an odd side (there the rows hold {} and {} odd step numbers in turn, so no two rows next to each other sum alike)",
            side.div_ceil(2),
            side / 2
        )
    } else if !(6..=MAX_SIDE).contains(&side) {
        format!("{board} is outside that range")
    } else {
        return Ok(side);
    };
    refuse(format!(
        "the magic search takes a square board of even side from 6 to {MAX_SIDE} (6x6, 8x8, ..., {MAX_SIDE}x{MAX_SIDE}), and {why}"
    ))
}

/// The squares of a partial path in any tour format, which must be a
/// knight's path on the plain `board` (no holes, wrapping or other
/// leaper), and, when it covers the board, a tour of the kind wanted.
fn read_prefix(text: &str, board: Board, kind: Wanted) -> Result<Vec<Square>> {
    let partial = crate::format::read_partial(text)?;
    if !partial.shape.is_plain() {
        return refuse(format!(
            "the path to extend is on {}, but the magic search is for the plain board of the knight, without holes, wrapped edges or another leaper",
            partial.shape
        ));
    }
    if partial.shape.board() != board {
        return refuse(format!(
            "the path to extend is on a {} board, but the board is {board}; give a path on the {board} board",
            partial.shape.board()
        ));
    }
    let (rows, cols) = (board.rows(), board.cols());
    if let Err(fault) = crate::check::check_partial_path(rows, cols, &partial.path) {
        return refuse(format!(
            "the path to extend is not a knight's path: {fault}"
        ));
    }
    let squares: Vec<Square> = partial
        .path
        .iter()
        .map(|&(r, c)| board.square(r as u32, c as u32))
        .collect();
    if squares.len() == board.squares() {
        let closed = squares.len() > 2
            && crate::check::is_knight_move(partial.path[0], partial.path[squares.len() - 1]);
        let wrong = match kind {
            Wanted::Closed if !closed => Some("open, and a closed tour is wanted"),
            Wanted::Open if closed => Some("closed, and an open tour is wanted"),
            _ => None,
        };
        if let Some(wrong) = wrong {
            return refuse(format!(
                "the path to extend is a whole tour, {wrong}; give a shorter path, or ask for the other kind"
            ));
        }
    }
    Ok(squares)
}

impl JobRequest for MagicRequest {
    type Plan = MagicPlan;
    type Answer = MagicAnswer;

    /// The board must be square, of even side from 6 to [`MAX_SIDE`]; a
    /// search's `start` on it, its `from` a partial knight's path on the
    /// plain board (its first square the `start`, if both are given) and
    /// `limit` 1 or more; `symmetric` tours are not open; an enumeration (`all`) takes neither `start`,
    /// `from` nor `limit`, and only it takes a `checkpoint`.
    fn plan(&self) -> Result<MagicPlan> {
        let board: Board = self.board.parse()?;
        let side = magic_side(board)?;
        check_symmetric(self.kind, self.symmetric)?;
        let max_nodes = self
            .max_nodes
            .map(|n| within("max-nodes", n, 1, u64::MAX))
            .transpose()?;
        if self.all {
            return self.enumeration(side, max_nodes);
        }
        if self.checkpoint.is_some() {
            return refuse(
                "a checkpoint is kept by an enumeration of every tour (all); a search for some tours keeps none".into(),
            );
        }
        let limit = within("limit", self.limit.unwrap_or(1), 1, u64::MAX)?;
        let shape = Shape::new(board);
        let (start, _) = place::ends(&shape, self.start.as_deref(), None)?;
        let prefix = match &self.from {
            Some(text) => read_prefix(text, board, self.kind)?,
            None => Vec::new(),
        };
        if let (Some(s), Some(&first)) = (start, prefix.first()) {
            if s != first {
                return refuse(format!(
                    "the start square is {}, but the path to extend starts at {}; give one of them, or the same square",
                    shape.name(s),
                    shape.name(first)
                ));
            }
        }
        Ok(MagicPlan::Search(MagicSearch {
            side,
            kind: self.kind,
            start: start.or(prefix.first().copied()),
            prefix,
            seed: self.seed,
            max_nodes,
            limit: Some(limit),
            symmetric: self.symmetric,
        }))
    }

    fn run_plan(plan: MagicPlan, control: &Control) -> Result<MagicAnswer> {
        plan.run_watched(control, &mut |_| Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;
    use crate::Category;

    use crate::magic::tests::dudeney;

    /// Dudeney's tour as a numbered grid up to step `steps`, `.` after.
    fn dudeney_grid(steps: u32) -> String {
        let mut text = String::new();
        for row in dudeney() {
            let cells: Vec<String> = row
                .iter()
                .map(|&n| match n <= u64::from(steps) {
                    true => format!("{n:>2}"),
                    false => " .".into(),
                })
                .collect();
            text.push_str(&cells.join(" "));
            text.push('\n');
        }
        text
    }

    /// The square numbered `n` in Dudeney's tour.
    fn dudeney_square(n: u32) -> Square {
        let at = dudeney()
            .iter()
            .flatten()
            .position(|&m| m == u64::from(n))
            .unwrap();
        at as Square
    }

    fn refusal(request: MagicRequest) -> String {
        let e = request.validate().unwrap_err();
        assert_eq!(e.category(), Category::BadInput, "{e}");
        let said = e.to_string();
        assert!(!said.contains("--"), "names a flag: {said}");
        said
    }

    #[test]
    fn boards_other_than_even_squares_from_6_to_16_are_refused() {
        for (board, why) in [
            ("8x10", "8x10 is not square"),
            ("7x7", "7x7 has an odd side"),
            ("4x4", "4x4 is outside that range"),
            ("18", "18x18 is outside that range"),
        ] {
            let said = refusal(MagicRequest::new(board));
            assert!(said.contains(why), "{said}");
            assert!(
                said.starts_with("the magic search takes a square board of even side from 6 to 16"),
                "{said}"
            );
        }
        assert_eq!(
            MagicRequest::new("banana")
                .validate()
                .unwrap_err()
                .category(),
            Category::BadInput
        );
        for board in ["6x6", "8", "12x12", "16x16"] {
            MagicRequest::new(board).validate().unwrap();
        }
    }

    #[test]
    fn a_search_reads_its_start_path_seed_budget_and_limit() {
        let request = MagicRequest {
            kind: Wanted::Closed,
            start: Some("c1".into()),
            from: Some(dudeney_grid(40)),
            seed: 7,
            max_nodes: Some(1000),
            limit: Some(3),
            ..MagicRequest::new("8x8")
        };
        let MagicPlan::Search(search) = request.plan().unwrap() else {
            panic!("a search")
        };
        let prefix: Vec<Square> = (1..=40).map(dudeney_square).collect();
        assert_eq!(search.prefix, prefix);
        assert_eq!(search.start, Some(dudeney_square(1)));
        assert_eq!(search.start, Some(58), "c1 is row 7, column 2");
        assert_eq!(
            (
                search.side,
                search.kind,
                search.seed,
                search.max_nodes,
                search.limit
            ),
            (8, Wanted::Closed, 7, Some(1000), Some(3))
        );
        let MagicPlan::Search(plain) = MagicRequest::new("8x8").plan().unwrap() else {
            panic!("a search")
        };
        assert_eq!(
            plain,
            MagicSearch::new(8),
            "the defaults: limit 1, no budget"
        );
    }

    #[test]
    fn a_start_off_the_board_or_away_from_the_path_is_refused() {
        let off = MagicRequest {
            start: Some("i9".into()),
            ..MagicRequest::new("8x8")
        };
        refusal(off);
        let away = MagicRequest {
            start: Some("a8".into()),
            from: Some(dudeney_grid(10)),
            ..MagicRequest::new("8x8")
        };
        let said = refusal(away);
        assert!(
            said.contains("the start square is (0, 0), but the path to extend starts at (7, 2)"),
            "{said}"
        );
    }

    #[test]
    fn a_path_that_is_no_knights_path_on_the_plain_board_is_refused() {
        let with = |from: &str| MagicRequest {
            from: Some(from.into()),
            ..MagicRequest::new("8x8")
        };
        let cases = [
            (
                r#"{"rows": 8, "cols": 8, "squares": [[0, 0], [1, 1]]}"#,
                "not a knight's path: the step from (0, 0) to (1, 1) at step 1 is not a knight's move",
            ),
            (
                r#"{"rows": 8, "cols": 8, "squares": [[0, 0], [2, 1], [0, 0]]}"#,
                "not a knight's path: square (0, 0) is visited twice, at steps 0 and 2",
            ),
            (
                r#"{"rows": 8, "cols": 8, "squares": [[0, 0], [9, 9]]}"#,
                "not a knight's path: step 1 is at (9, 9), which is off the 8x8 board",
            ),
            (
                r#"{"rows": 6, "cols": 6, "squares": [[0, 0]]}"#,
                "the path to extend is on a 6x6 board, but the board is 8x8",
            ),
            (
                r#"{"rows": 8, "cols": 8, "wrap": "both", "squares": [[0, 0]]}"#,
                "is for the plain board of the knight",
            ),
            (
                r#"{"rows": 8, "cols": 8, "leaper": [1, 3], "squares": [[0, 0]]}"#,
                "is for the plain board of the knight",
            ),
            ("tour 8x8 holes=0,0\n", "is for the plain board of the knight"),
            (
                &dudeney_grid(5).replacen(" .", " #", 1),
                "is for the plain board of the knight",
            ),
        ];
        for (from, says) in cases {
            let said = refusal(with(from));
            assert!(said.contains(says), "{from}: {said}");
        }
        refusal(with("banana"));
        let MagicPlan::Search(empty) = with("tour 8x8\n").plan().unwrap() else {
            panic!("a search")
        };
        assert!(empty.prefix.is_empty());
    }

    #[test]
    fn a_whole_tour_given_must_be_of_the_kind_wanted() {
        let whole = |kind| MagicRequest {
            kind,
            from: Some(dudeney_grid(64)),
            ..MagicRequest::new("8x8")
        };
        // Dudeney's tour closes: 64 (g2... row 6, column 4) to 1 (row 7, column 2).
        let said = refusal(whole(Wanted::Open));
        assert!(
            said.contains("is a whole tour, closed, and an open tour is wanted"),
            "{said}"
        );
        whole(Wanted::Closed).validate().unwrap();
        whole(Wanted::Either).validate().unwrap();
    }

    #[test]
    fn budgets_and_limits_are_one_or_more_and_a_checkpoint_needs_all() {
        let said = refusal(MagicRequest {
            limit: Some(0),
            ..MagicRequest::new("8x8")
        });
        assert_eq!(said, "limit must be from 1 to 18446744073709551615, not 0");
        let said = refusal(MagicRequest {
            max_nodes: Some(0),
            ..MagicRequest::new("8x8")
        });
        assert!(said.starts_with("max-nodes must be from 1"), "{said}");
        let said = refusal(MagicRequest {
            checkpoint: Some("c.json".into()),
            ..MagicRequest::new("8x8")
        });
        assert!(
            said.contains("a checkpoint is kept by an enumeration"),
            "{said}"
        );
    }

    #[test]
    fn an_enumeration_takes_no_start_path_or_limit() {
        let all = MagicRequest {
            all: true,
            ..MagicRequest::new("8x8")
        };
        for (request, names) in [
            (
                MagicRequest {
                    start: Some("a1".into()),
                    ..all.clone()
                },
                "takes no start; leave it out",
            ),
            (
                MagicRequest {
                    from: Some(dudeney_grid(3)),
                    ..all.clone()
                },
                "takes no from; leave it out",
            ),
            (
                MagicRequest {
                    start: Some("a1".into()),
                    limit: Some(2),
                    ..all.clone()
                },
                "takes no start, limit; leave them out",
            ),
        ] {
            let said = refusal(request);
            assert!(said.contains(names), "{said}");
        }
        let request = MagicRequest {
            checkpoint: Some("magic.ckpt".into()),
            max_nodes: Some(5),
            kind: Wanted::Open,
            ..all
        };
        let MagicPlan::Enumerate(e) = request.plan().unwrap() else {
            panic!("an enumeration")
        };
        assert_eq!(
            e,
            Enumeration {
                side: 8,
                kind: Wanted::Open,
                checkpoint: Some(PathBuf::from("magic.ckpt")),
                max_nodes: Some(5),
                symmetric: false,
            }
        );
    }

    #[test]
    fn symmetric_tours_are_closed_so_none_is_open() {
        let open = MagicRequest {
            symmetric: true,
            kind: Wanted::Open,
            ..MagicRequest::new("8x8")
        };
        let said = refusal(open.clone());
        assert!(said.contains("closed"), "{said}");
        refusal(MagicRequest { all: true, ..open });
        let MagicPlan::Search(search) = MagicRequest {
            symmetric: true,
            ..MagicRequest::new("8x8")
        }
        .plan()
        .unwrap() else {
            panic!("a search")
        };
        assert!(search.symmetric);
    }

    #[test]
    fn a_request_survives_json_in_its_wire_form() {
        let text = r#"{"magic": {"board": "8x8", "kind": "open", "start": "a8", "from": " 1 . .", "seed": 3, "max-nodes": 1000000, "limit": 2}}"#;
        let request: Request = serde_json::from_str(text).unwrap();
        let Request::Magic(magic) = &request else {
            panic!("a magic request")
        };
        assert_eq!(
            (
                magic.start.as_deref(),
                magic.seed,
                magic.max_nodes,
                magic.limit
            ),
            (Some("a8"), 3, Some(1_000_000), Some(2))
        );
        let back: Request =
            serde_json::from_str(&serde_json::to_string(&request).unwrap()).unwrap();
        assert_eq!(back, request);
        let e = serde_json::from_str::<Request>(r#"{"magic": {"board": "8x8", "colour": 1}}"#);
        assert!(e.unwrap_err().to_string().contains("colour"));
    }

    #[test]
    fn a_run_extends_forty_steps_of_dudeneys_tour_and_the_answer_serialises() {
        let request = MagicRequest {
            from: Some(dudeney_grid(40)),
            ..MagicRequest::new("8x8")
        };
        let answer = round_trip(Request::Magic(request));
        let tours = answer["magic"]["tours"].as_array().unwrap();
        assert_eq!(tours.len(), 1, "{answer}");
        assert_eq!(tours[0]["sums"]["magic"], "semimagic");
        let squares = tours[0]["squares"].as_array().unwrap();
        for n in 1..=40 {
            assert_eq!(squares[n as usize - 1], dudeney_square(n), "step {n}");
        }
    }
}
