//! `POST /api/position`: the library's position job (a partial path and its
//! goal: the legal next squares, whether it can still be finished, and the
//! hints), for the page's Play panel. The body is the [`PositionRequest`]
//! JSON, planned once; the board is held to the tourney cap (the oracle
//! searches, and hints judge every legal move); the work runs in the heavy
//! lane under this server's time limit, whose stop flag ends the oracle's
//! search.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::Uri;
use axum::routing::post;
use axum::{Json, Router};
use knights::request::{Job, PositionAnswer, PositionRequest};
use knights::Control;

use super::api::{capped, own_query, read_json};
use super::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/position", post(position))
}

/// `POST /api/position`: `{"board": "8x8", "path": ["0,0", "1,2"], "kind":
/// "closed", ...}` to the library's answer (`legal-moves`, `verdict`,
/// `reason`, `completion`, `hints`, `finished`, `won`).
async fn position(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<PositionAnswer>, ApiError> {
    own_query(&uri, [])?;
    let request: PositionRequest = read_json(body)?;
    // The cap before the plan, which builds the board's move graph.
    let board: knights::Board = request.board.parse()?;
    capped(board, state.config.max_tourney_squares, "/api/position")?;
    let plan = request.plan()?;
    let answer = state
        .heavy(move |stop| PositionRequest::run_plan(plan, &Control::new().stop(stop)))
        .await?;
    Ok(Json(answer))
}
