//! Counting jobs: `POST /api/count` starts an exact count of a small board
//! on the blocking pool, `GET /api/count/{id}/events` streams its progress
//! (server-sent events), `GET /api/count/{id}` reads it once, `DELETE
//! /api/count/{id}` cancels it. Jobs live in memory only (at most
//! [`super::Config::max_count_jobs`], finished ones forgotten first), on
//! boards of at most [`super::Config::max_count_squares`] squares, for at
//! most [`super::Config::count_timeout`]; the states stay in memory (a
//! count never goes to disk here). Only `DELETE` cancels a job: closing its
//! event stream does not (a `GET` has no side effects). Job ids are 128
//! random bits from the operating system's generator, so that another page
//! cannot guess them.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use knights::request::{CountOf, CountRequest, JobRequest as _};
use knights::{Board, StopFlag};
use serde_json::{json, Value};
use tokio::sync::{mpsc, watch, Semaphore};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

use super::api::{capped, read_query};
use super::{ApiError, AppState};

/// The jobs, by id.
#[derive(Clone, Default)]
pub struct Jobs {
    map: Arc<Mutex<BTreeMap<String, Arc<Job>>>>,
}

/// A job id that cannot be guessed: 128 bits from the thread's generator
/// (seeded from the operating system), in hex.
fn new_id() -> String {
    format!("{:032x}", rand::random::<u128>())
}

/// One count.
pub struct Job {
    stop: StopFlag,
    status: watch::Sender<Value>,
    /// Permits for its event streams open at once
    /// ([`super::Config::max_job_streams`]).
    streams: Arc<Semaphore>,
}

impl Job {
    fn is_over(&self) -> bool {
        self.status.borrow()["state"] != "running"
    }
}

/// The plain routes.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/count", axum::routing::post(start))
        .route("/api/count/{id}", get(status).delete(cancel))
}

/// The streaming route.
pub fn stream_routes() -> Router<AppState> {
    Router::new().route("/api/count/{id}/events", get(events))
}

fn find(state: &AppState, id: &str) -> Result<Arc<Job>, ApiError> {
    let missing = || {
        ApiError::with(
            StatusCode::NOT_FOUND,
            format!(
                "there is no counting job '{}' (jobs are kept in memory, a few at a time)",
                knights::excerpt(id)
            ),
        )
    };
    let map = state.counts.map.lock().unwrap_or_else(|p| p.into_inner());
    map.get(id).cloned().ok_or_else(missing)
}

/// Most bytes of a count's states in memory here.
const MEMORY: u64 = 1 << 30;

/// `POST /api/count?board=6x6&kind=closed|open`: starts the library's
/// [`CountRequest`] (202), in memory only and within this server's cap.
async fn start(
    State(state): State<AppState>,
    uri: Uri,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let (mut request, []): (CountRequest, _) = read_query(&uri, [])?;
    if request.work_dir.is_some() {
        return Err(ApiError::bad(
            "this server keeps a count's states in memory and touches no file: work-dir does not apply here",
        ));
    }
    request.memory_only = true;
    request.max_memory = Some(request.max_memory.map_or(MEMORY, |m| m.min(MEMORY)));
    let plan = request.plan()?;
    let board: Board = plan.shape().board();
    capped(board, state.config.max_count_squares, "/api/count")?;
    let plain = plan.shape().is_plain();
    let known = (plain && request.of == CountOf::Tours && !request.directed)
        .then(|| knights::count::published(board, request.kind))
        .flatten();
    // A job slot for the whole count: refused at once when none is free.
    let permit = state.heavy_lane.try_permit().ok_or_else(ApiError::busy)?;
    let id = new_id();
    let initial = json!({
        "id": id, "board": board.to_string(), "kind": request.kind.name(),
        "state": "running", "step": 0, "steps": 0, "states": 0, "elapsed": 0.0,
        "known": known,
    });
    let job = Arc::new(Job {
        stop: StopFlag::new(),
        status: watch::channel(initial.clone()).0,
        streams: Arc::new(Semaphore::new(state.config.max_job_streams.max(1))),
    });
    {
        let mut map = state.counts.map.lock().unwrap_or_else(|p| p.into_inner());
        while map.len() >= state.config.max_count_jobs {
            let Some(old) = map
                .iter()
                .find(|(_, j)| j.is_over())
                .map(|(k, _)| k.clone())
            else {
                return Err(ApiError::busy());
            };
            map.remove(&old);
        }
        map.insert(id.clone(), job.clone());
    }
    let limit = state.config.count_timeout;
    let timer = job.clone();
    tokio::spawn(async move {
        tokio::time::sleep(limit).await;
        timer.stop.stop();
    });
    let worker = job.clone();
    tokio::task::spawn_blocking(move || {
        super::work_priority();
        let t0 = Instant::now();
        let last = Mutex::new(Instant::now() - Duration::from_secs(1));
        let watcher = worker.clone();
        let control = knights::Control::new()
            .stop(worker.stop.clone())
            .progress(move |p| {
                let mut last = last.lock().unwrap_or_else(|p| p.into_inner());
                if last.elapsed() >= Duration::from_millis(100) || Some(p.done) == p.total {
                    *last = Instant::now();
                    watcher.status.send_modify(|v| {
                        v["step"] = json!(p.done);
                        v["steps"] = json!(p.total);
                        v["states"] = json!(p.states);
                        v["elapsed"] = json!(t0.elapsed().as_secs_f64());
                        phase_and_time_left(v, p.frontier.as_ref());
                    });
                }
            });
        let result = CountRequest::run_plan(plan, &control);
        // The slot is free before the job says it is over.
        drop(permit);
        worker.status.send_modify(|v| {
            v["elapsed"] = json!(t0.elapsed().as_secs_f64());
            match result {
                Ok(answer) => {
                    // A sweep's counts as exact strings (a JSON number past
                    // 2^53 is rounded in the page).
                    let prefixes: Vec<Value> = answer
                        .lengths
                        .iter()
                        .map(|l| json!([l.board, l.count.to_string()]))
                        .chain(
                            answer
                                .cells
                                .iter()
                                .map(|c| json!([c.cells.to_string(), c.count.to_string()])),
                        )
                        .collect();
                    if !prefixes.is_empty() {
                        v["prefixes"] = json!(prefixes);
                    }
                    v["state"] = json!("done");
                    v["count"] = json!(answer.count.to_string());
                    v["answer"] = json!(answer);
                    v["step"] = v["steps"].clone();
                }
                Err(e) if worker.stop.is_stopped() => {
                    v["state"] = json!("cancelled");
                    v["error"] = json!(format!(
                        "the count was stopped (cancelled, or past this server's limit of {} s): {}",
                        limit.as_secs_f64(),
                        super::error::in_http_words(&e)
                    ));
                }
                Err(e) => {
                    v["state"] = json!("failed");
                    v["error"] = json!(super::error::in_http_words(&e));
                }
            }
        });
    });
    Ok((StatusCode::ACCEPTED, Json(initial)))
}

/// The count's phase ("squares", "top part", "bottom part", "join"), its
/// time left (`null` while it is estimating) and, in a join, the states
/// joined of all: after the last square the status moves on to the join
/// rather than standing at the last square.
fn phase_and_time_left(v: &mut Value, f: Option<&knights::count::FrontierProgress>) {
    v["phase"] = json!(f.and_then(|f| f.stage).map(|s| s.name()));
    v["seconds_left"] = json!(f.and_then(|f| f.seconds_left));
    match f.and_then(|f| f.joining) {
        Some(j) => {
            v["joined"] = json!(j.done);
            v["to_join"] = json!(j.total);
        }
        None => {
            if let Some(o) = v.as_object_mut() {
                o.remove("joined");
                o.remove("to_join");
            }
        }
    }
}

/// `GET /api/count/{id}`: the job's status now.
async fn status(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let job = find(&state, &id)?;
    let v = job.status.borrow().clone();
    Ok(Json(v))
}

/// `DELETE /api/count/{id}`: cancels the job (it stops after the square in progress).
async fn cancel(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let job = find(&state, &id)?;
    job.stop.stop();
    let v = job.status.borrow().clone();
    Ok(Json(v))
}

/// `GET /api/count/{id}/events`: `progress` events, then one `done` event
/// (the job is over: done, cancelled or failed), after which the stream
/// ends; closing the stream leaves the job running. A job has at most
/// [`super::Config::max_job_streams`] streams open (more are 429), the
/// server at most [`super::Config::max_streams`] (more are 503); a refusal
/// closes its connection.
async fn events(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let job = match find(&state, &id) {
        Ok(job) => job,
        Err(e) => return e.into_response(),
    };
    let Ok(mine) = job.streams.clone().try_acquire_owned() else {
        return super::closing(ApiError::with(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "this count already has {} event streams open, the most one job may have; close one, or read the status with GET /api/count/{id}",
                state.config.max_job_streams.max(1)
            ),
        ));
    };
    let total = match state.stream_permit() {
        Ok(permit) => permit,
        Err(e) => return super::closing(e),
    };
    let (tx, rx) = mpsc::channel::<Event>(2);
    tokio::spawn(forward(job, tx));
    // The permits go with the stream: they are freed when it ends or its
    // client goes away.
    let stream = ReceiverStream::new(rx).map(move |event| {
        let _held = (&mine, &total);
        Ok::<_, Infallible>(event)
    });
    Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response()
}

/// Sends the job's status to `events` as it changes (at most one event in
/// 50 ms), until the job is over or the stream's client goes away.
async fn forward(job: Arc<Job>, events: mpsc::Sender<Event>) {
    let mut rx = job.status.subscribe();
    loop {
        let v = rx.borrow_and_update().clone();
        let over = v["state"] != "running";
        let name = if over { "done" } else { "progress" };
        let event = Event::default().event(name).data(v.to_string());
        if events.send(event).await.is_err() || over {
            return;
        }
        tokio::select! {
            changed = rx.changed() => if changed.is_err() { return },
            () = events.closed() => return,
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
