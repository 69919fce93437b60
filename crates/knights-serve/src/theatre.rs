//! The algorithm theatre's data, on boards of at most
//! [`super::Config::max_theatre_squares`] squares. The algorithms are the
//! library's; their observers tell what they do, and this module only
//! writes it down for the page:
//!
//! - `GET /api/theatre/warnsdorff`: a tour by the library's Warnsdorff rule
//!   ([`Warnsdorff::generate_observed`]), step by step: the candidate
//!   squares of every move with their degrees (onward moves), the one
//!   taken, and the tie-break when several had the smallest degree.
//! - `GET /api/theatre/search`: backtracking or the hybrid as it happens,
//!   a stream of server-sent events from the library's observer
//!   ([`TreeSearch::search`]): squares entered
//!   and left (retreats), throttled to `rate` steps a second, with the node
//!   count. The search waits for the stream; when the client goes away, or
//!   after [`super::Config::stream_timeout`], it is stopped and the stream
//!   ends.
//! - `GET /api/theatre/neural`: one run of the library's Takefuji-Lee
//!   network ([`TakefujiLee::cover_observed`]) on a small board, round by
//!   round: the edges whose output switched in each round.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::Uri;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::{Json, Router};
use knights::algorithms::backtrack::BacktrackEvent;
use knights::algorithms::warnsdorff::Step;
use knights::algorithms::TreeSearch;
use knights::algorithms::{Backtrack, Hybrid, Tie, TourSpec, Warnsdorff};
use knights::algorithms::{NeuralEvent, TakefujiLee};
use knights::{Board, Control, Square, StopFlag, Wanted};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

use super::api::{capped, read_query};
use super::{ApiError, AppState, StopOnDrop};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/theatre/warnsdorff", get(warnsdorff))
        .route("/api/theatre/search", get(search))
        .route("/api/theatre/neural", get(neural))
}

/// The query of a Warnsdorff replay.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct WalkQuery {
    board: String,
    #[serde(default)]
    kind: Wanted,
    #[serde(default)]
    start: Option<String>,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    tie: Option<String>,
}

/// A square as the page reads it: `[row, col]`.
type Rc = [u32; 2];

/// The `[row, col]` of `s`.
fn rc(board: Board, s: Square) -> Rc {
    let (r, c) = board.coords(s);
    [r, c]
}

/// A Warnsdorff walk as the page replays it. (The fields of the answers
/// are in the order of their names, as the page has always received them.)
#[derive(Debug, Serialize)]
struct Walk {
    /// Whether the tour is closed.
    closed: bool,
    cols: u32,
    rows: u32,
    /// The squares walked, in order.
    squares: Vec<Rc>,
    /// Every move.
    steps: Vec<WalkMove>,
    /// The tie-break's name.
    tie: &'static str,
}

/// One move of a walk.
#[derive(Debug, Serialize)]
struct WalkMove {
    /// The squares the knight could move to, with their degrees.
    candidates: Vec<Candidate>,
    /// The one taken.
    chosen: Rc,
    /// What the tie-break did, when several had the fewest onward moves.
    tie: Option<String>,
}

/// A square the knight could move to, and its onward moves.
#[derive(Debug, Serialize)]
struct Candidate {
    degree: u8,
    square: Rc,
}

/// The `done` event of a search stream.
#[derive(Debug, Serialize)]
struct SearchDone {
    /// Whether the tour found is closed (when one is).
    #[serde(skip_serializing_if = "Option::is_none")]
    closed: Option<bool>,
    found: bool,
    message: String,
    nodes: u64,
    /// The tour found, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    squares: Option<Vec<Rc>>,
}

/// A `steps` event of a search stream: squares entered (`+`) and left
/// (`-`), the nodes entered so far and the depth.
#[derive(Debug, Serialize)]
struct SearchSteps {
    depth: usize,
    nodes: u64,
    steps: Vec<(&'static str, u32, u32)>,
}

/// One run of the network as the page replays it.
#[derive(Debug, Serialize)]
struct Network {
    cols: u32,
    /// The board's edges (index = edge number).
    edges: Vec<[Rc; 2]>,
    /// The edges on at the start.
    initial: Vec<usize>,
    /// Whether the network rested as a tourney.
    rested: bool,
    /// The edges switched in each round.
    rounds: Vec<Vec<usize>>,
    rows: u32,
    /// The same as `rested`.
    tourney: bool,
}

/// The board of a theatre's query, within `cap` squares.
fn theatre_board(text: &str, cap: usize, endpoint: &str) -> Result<Board, ApiError> {
    capped(text.parse()?, cap, endpoint)
}

/// The start square, if given.
fn start_square(board: Board, start: Option<&str>) -> Result<Option<Square>, ApiError> {
    Ok(start.map(|t| board.parse_square(t)).transpose()?)
}

/// `GET /api/theatre/warnsdorff?board&kind&start&seed&tie`.
async fn warnsdorff(State(state): State<AppState>, uri: Uri) -> Result<Json<Walk>, ApiError> {
    let (q, []): (WalkQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares;
    let board = theatre_board(&q.board, cap, "/api/theatre/warnsdorff")?;
    let spec = TourSpec {
        kind: q.kind,
        start: start_square(board, q.start.as_deref())?,
        ..TourSpec::new(board)
    };
    let tie: Tie = q.tie.as_deref().map_or(Ok(Tie::default()), str::parse)?;
    let seed = q.seed;
    let value = state
        .sized(board.squares(), true, move |stop| {
            walk(
                TourSpec {
                    control: Control::new().stop(stop),
                    ..spec
                },
                tie,
                seed,
            )
        })
        .await?;
    Ok(Json(value))
}

/// The tour `Tour::builder` makes with Warnsdorff's rule for `spec`, `tie`
/// and `seed`, as the library's observer tells its last walk: the squares
/// walked and, for every move, the candidates with their degrees, the one
/// chosen and the tie-break when several had the fewest onward moves.
/// (Where an open tour is asked and the walk closed, the library opens the
/// cycle afterwards; `closed` is the tour's.)
fn walk(spec: TourSpec, tie: Tie, seed: u64) -> knights::Result<Walk> {
    let board = spec.board;
    let (mut squares, mut steps) = (Vec::new(), Vec::new());
    let tour = Warnsdorff::default().tie(tie).generate_observed(
        &spec,
        &mut knights::rng::seeded(seed),
        &mut |step| match step {
            Step::Walk { start } => {
                squares = vec![rc(board, start)];
                steps.clear();
            }
            Step::Move {
                candidates, chosen, ..
            } => {
                squares.push(rc(board, chosen));
                steps.push(move_value(board, candidates, chosen, tie));
            }
        },
    )?;
    Ok(Walk {
        closed: tour.is_closed(),
        cols: board.cols(),
        rows: board.rows(),
        squares,
        steps,
        tie: tie.name(),
    })
}

/// One move of a walk as the page shows it.
fn move_value(board: Board, candidates: &[(Square, u8)], chosen: Square, tie: Tie) -> WalkMove {
    let least = candidates.iter().map(|c| c.1).min().unwrap_or(0);
    let tied = candidates.iter().filter(|c| c.1 == least).count();
    let tie = (tied > 1).then(|| {
        format!(
            "{tied} squares share the fewest onward moves ({least}); the tie-break '{}' chose: {}",
            tie.name(),
            tie.about()
        )
    });
    WalkMove {
        candidates: candidates
            .iter()
            .map(|&(t, degree)| Candidate {
                degree,
                square: rc(board, t),
            })
            .collect(),
        chosen: rc(board, chosen),
        tie,
    }
}

/// The query of a search stream.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct SearchQuery {
    board: String,
    #[serde(default = "backtrack")]
    algorithm: String,
    #[serde(default)]
    kind: Wanted,
    #[serde(default)]
    start: Option<String>,
    /// Steps a second (1 to 100,000).
    #[serde(default = "fifty")]
    rate: u64,
    /// The search's node budget (1 to 10,000,000).
    #[serde(default = "million")]
    max_nodes: u64,
}

fn backtrack() -> String {
    "backtrack".into()
}

fn fifty() -> u64 {
    50
}

fn million() -> u64 {
    1_000_000
}

/// `GET /api/theatre/search?board&algorithm=backtrack|hybrid&kind&start&rate&max-nodes`:
/// events `steps` (`{"steps": [["+"|"-", r, c], ...], "nodes": N, "depth": D}`)
/// and one `done` (`{"found": bool, "message", "nodes", "squares"?}`).
async fn search(
    State(state): State<AppState>,
    uri: Uri,
) -> Result<axum::response::Response, ApiError> {
    let (q, []): (SearchQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares;
    let board = theatre_board(&q.board, cap, "/api/theatre/search")?;
    let max_nodes = q.max_nodes.clamp(1, 10_000_000);
    let searcher: Box<dyn TreeSearch + Send> = match q.algorithm.as_str() {
        "backtrack" => Box::new(Backtrack::DEFAULT.max_nodes(max_nodes)),
        "hybrid" => Box::new(Hybrid::DEFAULT.max_nodes(max_nodes)),
        other => {
            return Err(ApiError::bad(format!(
                "'{}' is not a search the theatre streams; use backtrack or hybrid",
                knights::excerpt(other)
            )))
        }
    };
    // The search streams the tour it finds: open or either take any tour.
    let kind = if q.kind == Wanted::Closed {
        Wanted::Closed
    } else {
        Wanted::Either
    };
    let spec = TourSpec {
        kind,
        start: start_square(board, q.start.as_deref())?,
        ..TourSpec::new(board)
    };
    knights::exists::require(board, kind)?;
    let open = match state.stream_permit() {
        Ok(open) => open,
        Err(e) => return Ok(super::closing(e)),
    };
    let permit = state.slot().await?;
    let (steps_tx, steps_rx) = mpsc::channel::<BacktrackEvent>(1024);
    let (done_tx, done_rx) = oneshot::channel::<SearchDone>();
    let (sse_tx, sse_rx) = mpsc::channel::<Result<Event, Infallible>>(4);
    let stop = spec.control.stop_flag().clone();
    tokio::task::spawn_blocking(move || {
        super::work_priority();
        let _permit = permit;
        let _ = done_tx.send(run_search(&*searcher, &spec, &steps_tx));
    });
    let rate = q.rate.clamp(1, 100_000);
    let limit = state.config.stream_timeout;
    let nodes = Arc::new(AtomicU64::new(0));
    let forward = forward(
        board,
        rate,
        steps_rx,
        done_rx,
        sse_tx.clone(),
        nodes.clone(),
    );
    // The stream ends at its time limit, however slowly its client reads:
    // dropping `forward` drops the steps' receiver, which ends the search's
    // next send, and the guard raises its flag; the search then returns and
    // frees its job slot.
    tokio::spawn(async move {
        let _stop = StopOnDrop(stop);
        if tokio::time::timeout(limit, forward).await.is_err() {
            let done = SearchDone {
                closed: None,
                found: false,
                message: format!(
                    "the stream reached this server's limit of {} s and was stopped",
                    limit.as_secs_f64()
                ),
                nodes: nodes.load(Ordering::Relaxed),
                squares: None,
            };
            let _ = sse_tx.try_send(Ok(event("done", &done)));
        }
    });
    // The stream's permit is freed when it ends or its client goes away.
    let stream = ReceiverStream::new(sse_rx).map(move |event| {
        let _held = &open;
        event
    });
    Ok(Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response())
}

/// Runs the library's search, sending every square entered and left to
/// `steps` (a closed stream stops it); the `done` event's data.
fn run_search(
    searcher: &dyn TreeSearch,
    spec: &TourSpec,
    steps: &mpsc::Sender<BacktrackEvent>,
) -> SearchDone {
    let board = spec.board;
    let report = searcher.search(spec, &mut |e| {
        if steps.blocking_send(e).is_err() {
            spec.control.stop_flag().stop();
        }
    });
    let nodes = report.stats.nodes;
    match report.result {
        Ok(tour) => SearchDone {
            closed: Some(tour.is_closed()),
            found: true,
            message: format!(
                "{} tour after {nodes} nodes",
                with_article(tour.kind().name())
            ),
            nodes,
            squares: Some(tour.squares().iter().map(|&s| rc(board, s)).collect()),
        },
        Err(e) => SearchDone {
            closed: None,
            found: false,
            message: super::error::in_http_words(&e),
            nodes,
            squares: None,
        },
    }
}

/// A server-sent event `name` whose data is `data`'s JSON.
fn event(name: &str, data: &impl Serialize) -> Event {
    let data = serde_json::to_string(data).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    Event::default().event(name).data(data)
}

/// `word` after "a" or "an": "an open", "a closed".
fn with_article(word: &str) -> String {
    let vowel = word.starts_with(|c: char| "aeiouAEIOU".contains(c));
    format!("{} {word}", if vowel { "an" } else { "a" })
}

/// Forwards the search's steps to `events` at `rate` steps a second (every
/// tick, the steps due, as one `steps` event with the nodes entered so far
/// in `seen` and the depth), then its `done` event.
async fn forward(
    board: Board,
    rate: u64,
    mut steps: mpsc::Receiver<BacktrackEvent>,
    done: oneshot::Receiver<SearchDone>,
    events: mpsc::Sender<Result<Event, Infallible>>,
    seen: Arc<AtomicU64>,
) {
    let tick = Duration::from_millis(50);
    let per_tick = (rate as f64 * tick.as_secs_f64()).ceil().max(1.0) as usize;
    let ticks_per_step = (1.0 / (rate as f64 * tick.as_secs_f64())).round().max(1.0) as u32;
    let mut interval = tokio::time::interval(tick);
    let (mut depth, mut waited) = (0usize, 0);
    loop {
        interval.tick().await;
        waited += 1;
        if waited < ticks_per_step {
            continue;
        }
        waited = 0;
        let mut batch = Vec::new();
        let mut closed = false;
        while batch.len() < per_tick {
            let Some(e) = steps.recv().await else {
                closed = true;
                break;
            };
            let (sign, s) = match e {
                BacktrackEvent::Enter(s) => {
                    seen.fetch_add(1, Ordering::Relaxed);
                    depth += 1;
                    ("+", s)
                }
                BacktrackEvent::Leave(s) => {
                    depth -= 1;
                    ("-", s)
                }
            };
            let (r, c) = board.coords(s);
            batch.push((sign, r, c));
            if batch.len() < per_tick && steps.is_empty() {
                break;
            }
        }
        if !batch.is_empty() {
            let nodes = seen.load(Ordering::Relaxed);
            let data = SearchSteps {
                depth,
                nodes,
                steps: batch,
            };
            if events.send(Ok(event("steps", &data))).await.is_err() {
                return;
            }
        }
        if closed {
            break;
        }
    }
    if let Ok(done) = done.await {
        let _ = events.send(Ok(event("done", &done))).await;
    }
}

/// The query of a network run.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct NetworkQuery {
    board: String,
    #[serde(default)]
    seed: u64,
    /// The most rounds (1 to 5000).
    #[serde(default = "five_hundred")]
    max_rounds: u32,
}

fn five_hundred() -> u32 {
    500
}

/// `GET /api/theatre/neural?board&seed&max-rounds`: one run of the
/// Takefuji-Lee network: the edges, the outputs at the start, and the
/// edges switched in each round until the network rests.
async fn neural(State(state): State<AppState>, uri: Uri) -> Result<Json<Network>, ApiError> {
    let (q, []): (NetworkQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares.min(144);
    let board = theatre_board(&q.board, cap, "/api/theatre/neural")?;
    let (seed, max_rounds) = (q.seed, q.max_rounds.clamp(1, 5000));
    let value = state
        .sized(board.squares(), false, move |stop| {
            network(board, seed, max_rounds, stop)
        })
        .await?;
    Ok(Json(value))
}

/// One run of the library's network ([`TakefujiLee::cover_observed`], one run
/// of at most `max_rounds` rounds, seeded with `seed`) as its observer tells
/// it: the board's edges, those on at first, the edges switched in each
/// round, and whether it rested as a tourney.
fn network(board: Board, seed: u64, max_rounds: u32, stop: StopFlag) -> knights::Result<Network> {
    let mut edges: Vec<(Square, Square)> = Vec::new();
    for s in 0..board.squares() as Square {
        edges.extend(
            board
                .neighbours(s)
                .filter(|&(_, t)| s < t)
                .map(|(_, t)| (s, t)),
        );
    }
    let index: HashMap<(Square, Square), usize> =
        edges.iter().enumerate().map(|(i, &e)| (e, i)).collect();
    let edge = |u: Square, v: Square| index[&(u.min(v), u.max(v))];
    let (mut initial, mut rounds, mut switched) = (Vec::new(), Vec::new(), Vec::new());
    let network = TakefujiLee::DEFAULT.max_rounds(max_rounds).max_restarts(1);
    let run = network.cover_observed(
        board,
        &Control::new().stop(stop),
        &mut knights::rng::seeded(seed),
        &mut |event| match event {
            NeuralEvent::Run => {}
            NeuralEvent::On { u, v } => initial.push(edge(u, v)),
            NeuralEvent::Switch { u, v, .. } => switched.push(edge(u, v)),
            NeuralEvent::Round { round } => {
                // Rounds that switch nothing are taken at once: empty here.
                rounds.resize(round as usize - 1, Vec::new());
                rounds.push(std::mem::take(&mut switched));
            }
        },
    );
    let tourney = match run {
        Ok(_) => true,
        Err(knights::Error::GaveUp(_)) => false,
        Err(e) => return Err(e),
    };
    Ok(Network {
        cols: board.cols(),
        edges: edges
            .iter()
            .map(|&(u, v)| [rc(board, u), rc(board, v)])
            .collect(),
        initial,
        rested: tourney,
        rounds,
        rows: board.rows(),
        tourney,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use knights::Tour;

    /// The theatre's walk is the tour `knights tour -a warnsdorff` makes for
    /// the same seed, square for square.
    #[test]
    fn the_walk_shown_is_the_librarys_tour() {
        for (board, kind, start, tie, seed) in [
            ("8x8", Wanted::Either, None, Tie::Random, 1),
            ("8x8", Wanted::Closed, Some(0), Tie::Random, 2),
            ("10x10", Wanted::Either, None, Tie::Pohl, 6),
            ("6x6", Wanted::Closed, None, Tie::Random, 3),
            ("5x5", Wanted::Either, Some(0), Tie::Centre, 4),
            ("7x9", Wanted::Either, None, Tie::First, 5),
        ] {
            let board: Board = board.parse().unwrap();
            let spec = TourSpec {
                kind,
                start,
                ..TourSpec::new(board)
            };
            let shown = walk(spec, tie, seed).unwrap();
            let tour = Tour::builder(board)
                .kind(kind)
                .start_at(start)
                .seed(seed)
                .algorithm(Warnsdorff::default().tie(tie))
                .build()
                .unwrap();
            let squares: Vec<Rc> = tour.squares().iter().map(|&s| rc(board, s)).collect();
            assert_eq!(shown.squares, squares, "{board} {seed}");
            assert_eq!(shown.steps.len(), squares.len() - 1);
            assert_eq!(shown.closed, tour.is_closed());
        }
    }

    /// The edges the theatre shows on at the end of a run, replayed from
    /// its start and its rounds, are the tourney the library's network
    /// makes for the same seed.
    #[test]
    fn the_rounds_shown_end_in_the_librarys_tourney() {
        let board: Board = "6x6".parse().unwrap();
        let mut settled = 0;
        for seed in 0..8 {
            let shown = network(board, seed, 5000, StopFlag::new()).unwrap();
            let edges = &shown.edges;
            let mut on: std::collections::BTreeSet<usize> = shown.initial.iter().copied().collect();
            for round in &shown.rounds {
                for &e in round {
                    if !on.remove(&e) {
                        on.insert(e);
                    }
                }
            }
            let library = TakefujiLee::DEFAULT
                .max_rounds(5000)
                .max_restarts(1)
                .cover_observed(
                    board,
                    &Control::new(),
                    &mut knights::rng::seeded(seed),
                    &mut |_| {},
                );
            assert_eq!(shown.tourney, library.is_ok(), "seed {seed}");
            let Ok(cover) = library else { continue };
            let mut want = std::collections::BTreeSet::new();
            for cycle in cover.to_tourney().unwrap().cycles() {
                for (i, &u) in cycle.iter().enumerate() {
                    let v = cycle[(i + 1) % cycle.len()];
                    let pair = [rc(board, u.min(v)), rc(board, u.max(v))];
                    want.insert(edges.iter().position(|e| *e == pair).unwrap());
                }
            }
            assert_eq!(on, want, "seed {seed}");
            settled += 1;
        }
        assert!(settled > 0, "no run settled");
    }

    /// The answers' JSON has the keys the page reads (in the order of
    /// their names, as the hand-built JSON had them).
    #[test]
    fn the_answers_have_the_keys_the_page_reads() {
        let board: Board = "5x5".parse().unwrap();
        let spec = TourSpec {
            start: Some(0),
            ..TourSpec::new(board)
        };
        let shown = serde_json::to_string(&walk(spec, Tie::Centre, 4).unwrap()).unwrap();
        assert!(
            shown.starts_with(r#"{"closed":false,"cols":5,"rows":5,"squares":[[0,0],"#),
            "{shown}"
        );
        assert!(
            shown.contains(r#""steps":[{"candidates":[{"degree":"#),
            "{shown}"
        );
        assert!(shown.ends_with(r#""tie":"centre"}"#), "{shown}");
        let network =
            serde_json::to_value(network(board, 0, 50, StopFlag::new()).unwrap()).unwrap();
        let keys: Vec<&String> = network.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["cols", "edges", "initial", "rested", "rounds", "rows", "tourney"]
        );
        assert_eq!(network["edges"][0][0], serde_json::json!([0, 0]));
        let done = SearchDone {
            closed: None,
            found: false,
            message: "stopped".into(),
            nodes: 3,
            squares: None,
        };
        assert_eq!(
            serde_json::to_string(&done).unwrap(),
            r#"{"found":false,"message":"stopped","nodes":3}"#
        );
        let steps = SearchSteps {
            depth: 1,
            nodes: 1,
            steps: vec![("+", 0, 0)],
        };
        assert_eq!(
            serde_json::to_string(&steps).unwrap(),
            r#"{"depth":1,"nodes":1,"steps":[["+",0,0]]}"#
        );
    }
}
