//! Puzzle files (docs/formats.md, "Puzzles"): a header line and a grid of
//! numbers with `.` for a blank and `#` for a hole, or the same as JSON.
//! The reader checks the format and the board's limits before it holds
//! anything the size of the board, so a huge board in a tiny file is
//! refused in one sentence; the puzzle ([`Puzzle::new`]) checks the clues.

use serde::{Deserialize, Serialize};

use super::{board_of, shape_of};
use crate::check::Coord;
use crate::puzzle::Puzzle;
use crate::shape::{Leaper, Wrap};
use crate::{Board, Error, Result, Shape};

/// Reads a puzzle in either form, told apart by the first character that
/// is not blank: `{` is JSON, else the text form.
///
/// # Example
/// ```
/// use knights::format::{puzzle_text, read_puzzle};
/// let text = "puzzle 3x4 open\n 1  .  .  .\n .  .  .  .\n .  .  . 12\n";
/// let puzzle = read_puzzle(text)?;
/// assert_eq!(puzzle.given(), 2);
/// assert_eq!(puzzle_text(&puzzle), text);
/// # Ok::<(), knights::Error>(())
/// ```
///
/// # Errors
/// [`Error::Parse`] for text that is no puzzle, and [`Error::Board`] for
/// clues that do not fit the board ([`Puzzle::new`]); each one sentence.
pub fn read_puzzle(text: &str) -> Result<Puzzle> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    match t.chars().next() {
        None => Err(Error::Parse(
            "the input is empty; expected a puzzle: a line 'puzzle ROWSxCOLS' and its grid, or JSON"
                .into(),
        )),
        Some('{') => read_json(t),
        Some(_) => read_text(t),
    }
}

/// The text form of `puzzle`: the header, then one line per row, each
/// entry right-aligned to the width of the largest number.
pub fn puzzle_text(puzzle: &Puzzle) -> String {
    let shape = puzzle.shape();
    let board = shape.board();
    let mut out = format!(
        "puzzle {}x{} {}",
        board.rows(),
        board.cols(),
        kind_word(puzzle)
    );
    if puzzle.base() != 1 {
        out.push_str(" base=0");
    }
    if shape.wrap() != Wrap::None {
        out.push_str(&format!(" wrap={}", shape.wrap()));
    }
    if shape.leaper() != Leaper::KNIGHT {
        out.push_str(&format!(" leaper={}", shape.leaper()));
    }
    out.push('\n');
    let largest = puzzle.cells() as u32 - 1 + puzzle.base();
    let width = largest.to_string().len();
    for r in 0..board.rows() {
        let row: Vec<String> = (0..board.cols())
            .map(|c| {
                let s = board.square(r, c);
                let entry = match puzzle.clues()[s as usize] {
                    _ if shape.is_hole(s) => "#".to_string(),
                    Some(step) => (step + puzzle.base()).to_string(),
                    None => ".".to_string(),
                };
                format!("{entry:>width$}")
            })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

/// The JSON form of `puzzle`, one line.
pub fn puzzle_json(puzzle: &Puzzle) -> String {
    let shape = puzzle.shape();
    let board = shape.board();
    let coord = |s: u32| {
        let (r, c) = board.coords(s);
        (i64::from(r), i64::from(c))
    };
    let json = PuzzleJson {
        rows: board.rows(),
        cols: board.cols(),
        closed: puzzle.closed(),
        base: Some(puzzle.base()),
        holes: shape.holes().map(coord).collect(),
        wrap: (shape.wrap() != Wrap::None).then(|| shape.wrap().name().to_string()),
        leaper: (shape.leaper() != Leaper::KNIGHT)
            .then(|| [shape.leaper().a(), shape.leaper().b()]),
        clues: (0..board.squares() as u32)
            .filter_map(|s| {
                let step = puzzle.clues()[s as usize]?;
                let (r, c) = coord(s);
                Some([r, c, i64::from(step + puzzle.base())])
            })
            .collect(),
    };
    serde_json::to_string(&json).expect("a puzzle serialises")
}

fn kind_word(puzzle: &Puzzle) -> &'static str {
    if puzzle.closed() {
        "closed"
    } else {
        "open"
    }
}

/// The JSON form: the board as a tour's JSON says it, and the clues as
/// `[row, column, number]`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PuzzleJson {
    rows: u32,
    cols: u32,
    closed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base: Option<u32>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    holes: Vec<Coord>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wrap: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    leaper: Option<[u32; 2]>,
    clues: Vec<[i64; 3]>,
}

fn read_json(text: &str) -> Result<Puzzle> {
    let json: PuzzleJson = serde_json::from_str(text).map_err(|e| {
        Error::Parse(format!("this is not a puzzle's JSON: {e}; a puzzle's JSON has rows, cols, closed and clues ([row, column, number] each)").into())
    })?;
    let board = puzzle_board(u64::from(json.rows), u64::from(json.cols))?;
    let base = base_of(json.base)?;
    let wrap = match json.wrap.as_deref() {
        None => Wrap::None,
        Some(w) => w.parse()?,
    };
    let leaper = match json.leaper {
        None => Leaper::KNIGHT,
        Some([a, b]) => Leaper::new(a, b)?,
    };
    let shape = shape_of(board, &json.holes, wrap, leaper)?.unwrap_or_else(|| Shape::new(board));
    let mut clues = vec![None; board.squares()];
    let mut seen = Seen::new(shape.squares(), base);
    for [r, c, n] in json.clues {
        if !board.contains(r, c) {
            return Err(Error::Parse(
                format!("the clue at ({r}, {c}) is off the {board} board").into(),
            ));
        }
        let step = seen.step(n, (r, c))?;
        let slot = &mut clues[board.square(r as u32, c as u32) as usize];
        if slot.replace(step).is_some() {
            return Err(Error::Parse(
                format!("the square ({r}, {c}) has two clues").into(),
            ));
        }
    }
    Ok(Puzzle::new(shape, json.closed, clues)?.with_base(base))
}

/// The numbers read so far, to refuse one out of range or given twice in
/// the puzzle's own numbering (from its base).
struct Seen {
    base: u32,
    at: Vec<Option<Coord>>,
}

impl Seen {
    fn new(cells: usize, base: u32) -> Seen {
        Seen {
            base,
            at: vec![None; cells],
        }
    }

    /// The step of number `n` written at `at`.
    fn step(&mut self, n: i64, at: Coord) -> Result<u32> {
        let (base, cells) = (i64::from(self.base), self.at.len() as i64);
        let (r, c) = at;
        if n < base || n - base >= cells {
            return Err(Error::Parse(
                format!(
                    "the number {n} on ({r}, {c}) is outside {base}..={}, the numbers of this puzzle (one for each square that is not a hole)",
                    cells - 1 + base
                )
                .into(),
            ));
        }
        let step = (n - base) as u32;
        if let Some((r0, c0)) = self.at[step as usize].replace(at) {
            return Err(Error::Parse(
                format!("the number {n} is given twice, on ({r0}, {c0}) and on ({r}, {c})").into(),
            ));
        }
        Ok(step)
    }
}

fn base_of(base: Option<u32>) -> Result<u32> {
    match base {
        None | Some(1) => Ok(1),
        Some(0) => Ok(0),
        Some(b) => Err(Error::Parse(
            format!("a puzzle's base is 0 or 1, not {b}").into(),
        )),
    }
}

/// The board of a puzzle, within [`crate::puzzle::MAX_SIDE`].
fn puzzle_board(rows: u64, cols: u64) -> Result<Board> {
    crate::puzzle::fits(rows, cols).map_err(|e| Error::Parse(e.to_string().into()))?;
    board_of(rows, cols)
}

/// The header's settings.
struct Header {
    board: Board,
    closed: bool,
    base: u32,
    wrap: Wrap,
    leaper: Leaper,
}

fn read_header(line: &str) -> Result<Header> {
    let bad = || {
        Error::Parse(
            format!(
                "line 1 is '{}'; a puzzle starts with 'puzzle ROWSxCOLS' and then closed or open",
                crate::excerpt(line)
            )
            .into(),
        )
    };
    let mut words = line.split_whitespace();
    if words.next() != Some("puzzle") {
        return Err(bad());
    }
    let size = words.next().ok_or_else(bad)?;
    // A size past the puzzle's limit is refused as such, before the board
    // (which has its own, larger limit) is read.
    let sides: Vec<u64> = size
        .split(['x', 'X', '*', '×'])
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    if let [rows, cols] = sides[..] {
        puzzle_board(rows, cols)?;
    }
    let board: Board = size
        .parse()
        .map_err(|e: Error| Error::Parse(e.to_string().into()))?;
    let board = puzzle_board(u64::from(board.rows()), u64::from(board.cols()))?;
    let mut header = Header {
        board,
        closed: false,
        base: 1,
        wrap: Wrap::None,
        leaper: Leaper::KNIGHT,
    };
    for word in words {
        match (word, word.split_once('=')) {
            ("closed", _) => header.closed = true,
            ("open", _) => header.closed = false,
            (_, Some(("base", b))) => {
                header.base = base_of(Some(b.parse().map_err(|_| bad())?))?;
            }
            (_, Some(("wrap", w))) => header.wrap = w.parse()?,
            (_, Some(("leaper", l))) => header.leaper = l.parse()?,
            _ => {
                return Err(Error::Parse(format!(
                    "'{}' on line 1 is not a puzzle option; write closed or open, base=0|1, wrap=rows|cols|both or leaper=A,B",
                    crate::excerpt(word)
                ).into()))
            }
        }
    }
    Ok(header)
}

fn read_text(text: &str) -> Result<Puzzle> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines.next().unwrap_or_default();
    let header = read_header(head)?;
    let board = header.board;
    let (rows, cols) = (board.rows() as usize, board.cols() as usize);
    let mut entries: Vec<Option<i64>> = Vec::with_capacity(board.squares());
    let mut holes = Vec::new();
    let mut row = 0usize;
    for (i, line) in lines {
        let line_no = i + 1;
        if row == rows {
            return Err(Error::Parse(
                format!("line {line_no} is past the grid; a {board} puzzle has {rows} rows").into(),
            ));
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if tokens.len() != cols {
            return Err(Error::Parse(
                format!(
                    "line {line_no} has {} entries; every row of a {board} puzzle has {cols}",
                    tokens.len()
                )
                .into(),
            ));
        }
        for (c, token) in tokens.into_iter().enumerate() {
            entries.push(match token {
                "." => None,
                "#" => {
                    holes.push((row as i64, c as i64));
                    None
                }
                _ => Some(token.parse::<i64>().map_err(|_| {
                    Error::Parse(format!(
                        "line {line_no} has '{}'; a puzzle's grid has only numbers, '.' for a blank and '#' for a hole",
                        crate::excerpt(token)
                    ).into())
                })?),
            });
        }
        row += 1;
    }
    if row != rows {
        return Err(Error::Parse(
            format!("the grid has {row} rows; a {board} puzzle has {rows}").into(),
        ));
    }
    let shape =
        shape_of(board, &holes, header.wrap, header.leaper)?.unwrap_or_else(|| Shape::new(board));
    let mut clues = Vec::with_capacity(entries.len());
    let mut seen = Seen::new(shape.squares(), header.base);
    for (s, entry) in entries.into_iter().enumerate() {
        let at = ((s / cols) as i64, (s % cols) as i64);
        clues.push(entry.map(|n| seen.step(n, at)).transpose()?);
    }
    Ok(Puzzle::new(shape, header.closed, clues)?.with_base(header.base))
}
