//! What a count would take and how many tours there are about, each in one
//! request: `GET /api/dry-run` (the library's [`DryRunRequest`]: a count's
//! projected states, disk and time, without counting) and `GET
//! /api/estimate` (its [`EstimateRequest`]: random probes). Both read the
//! request's fields from the query, run in the heavy lane within this
//! server's time limit (the stop flag ends a trial or the probes when it
//! runs out, or when the client goes away) and touch no file.

use axum::extract::State;
use axum::http::Uri;
use axum::routing::get;
use axum::{Json, Router};
use knights::request::{
    CountRequest, DryRunAnswer, DryRunRequest, EstimateAnswer, EstimateRequest, JobRequest,
};
use knights::Control;

use super::api::{capped, read_query};
use super::{ApiError, AppState};

/// The most states a run of the frontier method keeps here (the library
/// takes up to 2^26, whose states would take gigabytes).
const MAX_KEEP: usize = 1 << 20;

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/dry-run", get(dry_run))
        .route("/api/estimate", get(estimate))
}

/// `GET /api/dry-run?board=8x8&kind=open&staggered=true`: the count
/// request's projection (the answer `knights count --dry-run --json`
/// writes), on boards within this server's cap of squares.
async fn dry_run(State(state): State<AppState>, uri: Uri) -> Result<Json<DryRunAnswer>, ApiError> {
    let (request, []): (CountRequest, _) = read_query(&uri, [])?;
    if request.work_dir.is_some() {
        return Err(ApiError::bad(
            "this server touches no file: work-dir does not apply to its dry runs",
        ));
    }
    let request = DryRunRequest(request);
    let plan = request.plan()?;
    let squares = plan.shape().squares();
    capped(
        plan.shape().board(),
        state.config.max_squares,
        "/api/dry-run",
    )?;
    let answer = state
        .sized(squares, false, move |stop| {
            DryRunRequest::run_plan(plan, &Control::new().stop(stop))
        })
        .await?;
    Ok(Json(answer))
}

/// `GET /api/estimate?board=8x8&method=sis&samples=1000&seed=1`: the
/// estimate request's answer (as `knights estimate --json` writes it),
/// probing for at most this server's time limit.
async fn estimate(
    State(state): State<AppState>,
    uri: Uri,
) -> Result<Json<EstimateAnswer>, ApiError> {
    let (request, []): (EstimateRequest, _) = read_query(&uri, [])?;
    let limit = state.config.timeout.as_secs_f64();
    if request.seconds.is_some_and(|s| s > limit) {
        return Err(ApiError::bad(format!(
            "this server answers within {limit} s: give seconds of at most that"
        )));
    }
    if request.keep > MAX_KEEP {
        return Err(ApiError::bad(format!(
            "this server keeps at most {MAX_KEEP} states a square in a run of the frontier method, not {}",
            request.keep
        )));
    }
    let plan = request.plan()?;
    capped(plan.board(), state.config.max_squares, "/api/estimate")?;
    let answer = state
        .heavy(move |stop| EstimateRequest::run_plan(plan, &Control::new().stop(stop)))
        .await?;
    Ok(Json(answer))
}
