//! The algorithm theatre's data, on boards of at most
//! [`super::Config::max_theatre_squares`] squares:
//!
//! - `GET /api/theatre/warnsdorff`: a tour by the library's Warnsdorff rule,
//!   replayed here step by step: the candidate squares of every step with
//!   their degrees (onward moves), the one taken, and the tie-break when
//!   several had the smallest degree.
//! - `GET /api/theatre/search`: backtracking or the hybrid as it happens,
//!   a stream of server-sent events from the library's observer
//!   ([`knights::algorithms::backtrack::search_observed`]): squares entered
//!   and left (retreats), throttled to `rate` steps a second, with the node
//!   count. The search waits for the stream; when the client goes away, or
//!   after [`super::Config::stream_timeout`], it is stopped and the stream
//!   ends.
//! - `GET /api/theatre/neural`: the Takefuji-Lee network (1992) run here,
//!   round by round, on a small board: the edges whose output switched in
//!   each round.

use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::http::Uri;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::{Json, Router};
use knights::algorithms::backtrack::{self, Event as Step, Order};
use knights::algorithms::{Tie, Warnsdorff};
use knights::{Board, Kind, Square, Tour, Wanted};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio_stream::wrappers::ReceiverStream;

use super::api::{capped, rc, read_query};
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

/// The board of a theatre's query, within `cap` squares.
fn theatre_board(text: &str, cap: usize, endpoint: &str) -> Result<Board, ApiError> {
    capped(text.parse()?, cap, endpoint)
}

/// The start square, if given.
fn start_square(board: Board, start: Option<&str>) -> Result<Option<Square>, ApiError> {
    Ok(start.map(|t| board.parse_square(t)).transpose()?)
}

/// `GET /api/theatre/warnsdorff?board&kind&start&seed&tie`.
async fn warnsdorff(State(state): State<AppState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let (q, []): (WalkQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares;
    let board = theatre_board(&q.board, cap, "/api/theatre/warnsdorff")?;
    let kind = q.kind.kind();
    let start = start_square(board, q.start.as_deref())?;
    let seed = q.seed;
    let tie: Tie = q.tie.as_deref().map_or(Ok(Tie::default()), str::parse)?;
    let value = state
        .sized(board.squares(), true, move |stop| {
            let tour = Tour::builder(board)
                .kind(kind)
                .start_at(start)
                .seed(seed)
                .algorithm(Warnsdorff::default().tie(tie))
                .stop_flag(stop)
                .build()?;
            Ok(replay(&tour, tie, kind == Some(Kind::Closed)))
        })
        .await?;
    Ok(Json(value))
}

/// The steps of a Warnsdorff tour, with each step's candidates and degrees.
fn replay(tour: &Tour, tie: Tie, aim_closed: bool) -> Value {
    let board = tour.board();
    let squares = tour.squares();
    let start = squares[0];
    let aim_closed = aim_closed && tie != Tie::First;
    let mut visited = vec![false; board.squares()];
    let mut steps = Vec::new();
    for (i, &s) in squares.iter().enumerate() {
        visited[s as usize] = true;
        let Some(&next) = squares.get(i + 1) else {
            break;
        };
        let degree = |t: Square| {
            let free = board
                .neighbours(t)
                .filter(|&(_, u)| !visited[u as usize])
                .count();
            // Aiming to close, the start counts as a way on from its neighbours.
            free + usize::from(aim_closed && t != start && board.move_between(t, start).is_some())
        };
        let candidates: Vec<(Square, usize)> = board
            .neighbours(s)
            .filter(|&(_, t)| !visited[t as usize])
            .map(|(_, t)| (t, degree(t)))
            .collect();
        let least = candidates.iter().map(|c| c.1).min().unwrap_or(0);
        let tied = candidates.iter().filter(|c| c.1 == least).count();
        steps.push(json!({
            "candidates": candidates.iter().map(|&(t, d)| json!({"square": rc(board, t), "degree": d})).collect::<Vec<_>>(),
            "chosen": rc(board, next),
            "tie": if tied > 1 { Value::from(format!("{tied} squares share the fewest onward moves ({least}); the tie-break '{}' chose: {}", tie.name(), tie.about())) } else { Value::Null },
        }));
    }
    json!({
        "rows": board.rows(), "cols": board.cols(), "closed": tour.is_closed(),
        "squares": squares.iter().map(|&s| rc(board, s)).collect::<Vec<_>>(),
        "tie": tie.name(), "steps": steps,
    })
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
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let (q, []): (SearchQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares;
    let board = theatre_board(&q.board, cap, "/api/theatre/search")?;
    let order = match q.algorithm.as_str() {
        "backtrack" => Order::Fixed,
        "hybrid" => Order::Warnsdorff,
        other => {
            return Err(ApiError::bad(format!(
                "'{}' is not a search the theatre streams; use backtrack or hybrid",
                knights::excerpt(other)
            )))
        }
    };
    let closed = q.kind == Wanted::Closed;
    let start = start_square(board, q.start.as_deref())?;
    let rate = q.rate.clamp(1, 100_000);
    let max_nodes = q.max_nodes.clamp(1, 10_000_000);
    knights::exists::require(board, closed)?;
    let permit = state.slot().await?;
    let (steps_tx, mut steps_rx) = tokio::sync::mpsc::channel::<Step>(1024);
    let (done_tx, done_rx) = tokio::sync::oneshot::channel::<Value>();
    let (sse_tx, sse_rx) = tokio::sync::mpsc::channel::<Result<Event, Infallible>>(4);
    let stop = knights::StopFlag::new();
    let options = backtrack::Options {
        closed,
        start,
        order,
        max_nodes,
        stop: stop.clone(),
        ..backtrack::Options::default()
    };
    tokio::task::spawn_blocking(move || {
        super::work_priority();
        let _permit = permit;
        let report = backtrack::search_observed(board, &options, &mut |e| {
            if steps_tx.blocking_send(e).is_err() {
                options.stop.stop();
            }
        });
        drop(steps_tx);
        let done = match report.result {
            Ok(tour) => json!({
                "found": true, "nodes": report.stats.nodes, "closed": tour.is_closed(),
                "message": format!("a {} tour after {} nodes", tour.kind().name(), report.stats.nodes),
                "squares": tour.squares().iter().map(|&s| rc(board, s)).collect::<Vec<_>>(),
            }),
            Err(e) => {
                json!({"found": false, "nodes": report.stats.nodes, "message": super::error::in_http_words(&e)})
            }
        };
        let _ = done_tx.send(done);
    });
    // Throttle: every tick, the steps due at `rate` a second, as one event.
    let tick = Duration::from_millis(50);
    let per_tick = (rate as f64 * tick.as_secs_f64()).ceil().max(1.0) as usize;
    let ticks_per_step = (1.0 / (rate as f64 * tick.as_secs_f64())).round().max(1.0) as u32;
    let limit = state.config.stream_timeout;
    let nodes = Arc::new(AtomicU64::new(0));
    let (events, seen) = (sse_tx.clone(), nodes.clone());
    let forward = async move {
        let mut interval = tokio::time::interval(tick);
        let mut depth = 0usize;
        let mut waited = 0;
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
                match steps_rx.recv().await {
                    Some(e) => {
                        let (sign, s) = match e {
                            Step::Enter(s) => {
                                seen.fetch_add(1, Ordering::Relaxed);
                                depth += 1;
                                ("+", s)
                            }
                            Step::Leave(s) => {
                                depth -= 1;
                                ("-", s)
                            }
                        };
                        let (r, c) = board.coords(s);
                        batch.push(json!([sign, r, c]));
                        if batch.len() < per_tick && steps_rx.is_empty() {
                            break;
                        }
                    }
                    None => {
                        closed = true;
                        break;
                    }
                }
            }
            if !batch.is_empty() {
                let nodes = seen.load(Ordering::Relaxed);
                let data = json!({"steps": batch, "nodes": nodes, "depth": depth});
                let event = Event::default().event("steps").data(data.to_string());
                if events.send(Ok(event)).await.is_err() {
                    return;
                }
            }
            if closed {
                break;
            }
        }
        if let Ok(done) = done_rx.await {
            let _ = events
                .send(Ok(Event::default().event("done").data(done.to_string())))
                .await;
        }
    };
    // The stream ends at its time limit, however slowly its client reads:
    // dropping `forward` drops the steps' receiver, which ends the search's
    // next send, and the guard raises its flag; the search then returns and
    // frees its job slot.
    tokio::spawn(async move {
        let _stop = StopOnDrop(stop);
        if tokio::time::timeout(limit, forward).await.is_err() {
            let done = json!({
                "found": false, "nodes": nodes.load(Ordering::Relaxed),
                "message": format!("the stream reached this server's limit of {} s and was stopped", limit.as_secs_f64()),
            });
            let _ = sse_tx.try_send(Ok(Event::default().event("done").data(done.to_string())));
        }
    });
    Ok(Sse::new(ReceiverStream::new(sse_rx)).keep_alive(KeepAlive::default()))
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
    max_rounds: usize,
}

fn five_hundred() -> usize {
    500
}

/// `GET /api/theatre/neural?board&seed&max-rounds`: one run of the
/// Takefuji-Lee network: the edges, the outputs at the start, and the
/// edges switched in each round until the network rests.
async fn neural(State(state): State<AppState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let (q, []): (NetworkQuery, _) = read_query(&uri, [])?;
    let cap = state.config.max_theatre_squares.min(144);
    let board = theatre_board(&q.board, cap, "/api/theatre/neural")?;
    let (seed, max_rounds) = (q.seed, q.max_rounds.clamp(1, 5000));
    let value = state
        .sized(board.squares(), false, move |_| {
            Ok(network_run(board, seed, max_rounds))
        })
        .await?;
    Ok(Json(value))
}

/// The network of Takefuji and Lee (1992) as the tourney paper runs it
/// (Parberry 2020): one neuron per edge, state 0 and a random output at
/// first; in each round, over the edges in an order drawn once,
/// `U += 4 - (outputs at u) - (outputs at v)`, then the output is 1 above
/// 3, 0 below 0. It rests when a round changes no state.
fn network_run(board: Board, seed: u64, max_rounds: usize) -> Value {
    let mut rng = knights::rng::seeded(seed);
    let mut edges: Vec<(Square, Square)> = Vec::new();
    for s in 0..board.squares() as Square {
        for (_, t) in board.neighbours(s) {
            if s < t {
                edges.push((s, t));
            }
        }
    }
    let mut at: Vec<Vec<usize>> = vec![Vec::new(); board.squares()];
    for (i, &(u, v)) in edges.iter().enumerate() {
        at[u as usize].push(i);
        at[v as usize].push(i);
    }
    let mut out: Vec<bool> = edges.iter().map(|_| rng.random_bool(0.5)).collect();
    let mut state = vec![0i32; edges.len()];
    let initial = out.clone();
    let mut order: Vec<usize> = (0..edges.len()).collect();
    order.shuffle(&mut rng);
    let mut rounds = Vec::new();
    let mut rested = false;
    for _ in 0..max_rounds {
        let mut changed = false;
        let mut switched = Vec::new();
        for &i in &order {
            let (u, v) = edges[i];
            let on = |s: Square| at[s as usize].iter().filter(|&&j| out[j]).count() as i32;
            let inc = 4 - on(u) - on(v);
            if inc != 0 {
                changed = true;
                state[i] += inc;
            }
            let new = if state[i] > 3 {
                true
            } else if state[i] < 0 {
                false
            } else {
                out[i]
            };
            if new != out[i] {
                out[i] = new;
                switched.push(i);
            }
        }
        rounds.push(switched);
        if !changed {
            rested = true;
            break;
        }
    }
    let degrees_two = (0..board.squares()).all(|s| at[s].iter().filter(|&&j| out[j]).count() == 2);
    json!({
        "rows": board.rows(), "cols": board.cols(),
        "edges": edges.iter().map(|&(u, v)| json!([rc(board, u), rc(board, v)])).collect::<Vec<_>>(),
        "initial": initial.iter().enumerate().filter(|(_, &o)| o).map(|(i, _)| i).collect::<Vec<_>>(),
        "rounds": rounds,
        "rested": rested,
        "tourney": rested && degrees_two,
    })
}
