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
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::routing::get;
use axum::{Json, Router};
use knights::algorithms::backtrack::{self, Event as Step, Order};
use knights::algorithms::{Tie, Warnsdorff};
use knights::{Board, Kind, Square, Tour};
use rand::seq::SliceRandom;
use rand::Rng;
use serde_json::{json, Value};
use tokio_stream::wrappers::ReceiverStream;

use super::api::{rc, Params};
use super::{ApiError, AppState, StopOnDrop};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/theatre/warnsdorff", get(warnsdorff))
        .route("/api/theatre/search", get(search))
        .route("/api/theatre/neural", get(neural))
}

type Q =
    Result<axum::extract::Query<Vec<(String, String)>>, axum::extract::rejection::QueryRejection>;

/// `GET /api/theatre/warnsdorff?board&kind&start&seed&tie`.
async fn warnsdorff(State(state): State<AppState>, query: Q) -> Result<Json<Value>, ApiError> {
    let mut p = Params::new(query, "/api/theatre/warnsdorff")?;
    let board = p.board(state.config.max_theatre_squares)?;
    let kind = p.kind()?;
    let start = p.start(board)?;
    let seed = p.seed()?;
    let tie: Tie = match p.take("tie") {
        None => Tie::default(),
        Some(t) => t.parse()?,
    };
    p.done()?;
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

/// `GET /api/theatre/search?board&algorithm=backtrack|hybrid&kind&start&rate&max-nodes`:
/// events `steps` (`{"steps": [["+"|"-", r, c], ...], "nodes": N, "depth": D}`)
/// and one `done` (`{"found": bool, "message", "nodes", "squares"?}`).
async fn search(
    State(state): State<AppState>,
    query: Q,
) -> Result<impl axum::response::IntoResponse, ApiError> {
    let mut p = Params::new(query, "/api/theatre/search")?;
    let board = p.board(state.config.max_theatre_squares)?;
    let order = match p.take("algorithm").as_deref().unwrap_or("backtrack") {
        "backtrack" => Order::Fixed,
        "hybrid" => Order::Warnsdorff,
        other => {
            return Err(ApiError::bad(format!(
                "'{}' is not a search the theatre streams; use backtrack or hybrid",
                knights::excerpt(other)
            )))
        }
    };
    let closed = p.kind()? == Some(Kind::Closed);
    let start = p.start(board)?;
    let rate = p.number("rate", 50, 100_000)?.max(1);
    let max_nodes = p.number("max-nodes", 1_000_000, 10_000_000)?.max(1);
    p.done()?;
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

/// `GET /api/theatre/neural?board&seed&max-rounds`: one run of the
/// Takefuji-Lee network: the edges, the outputs at the start, and the
/// edges switched in each round until the network rests.
async fn neural(State(state): State<AppState>, query: Q) -> Result<Json<Value>, ApiError> {
    let mut p = Params::new(query, "/api/theatre/neural")?;
    let board = p.board(state.config.max_theatre_squares.min(144))?;
    let seed = p.seed()?;
    let max_rounds = p.number("max-rounds", 500, 5000)?.max(1) as usize;
    p.done()?;
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
