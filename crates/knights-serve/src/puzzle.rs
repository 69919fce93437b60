//! Clue puzzles, for the page's Puzzle panel: `GET /api/puzzle` makes one
//! (the library's [`PuzzleRequest`], read from the query) and `POST
//! /api/solve` solves one or takes one step in it (the library's
//! [`SolveRequest`], the JSON body). Both search, so both take the heavy
//! lane under this server's time limit, whose stop flag ends the search;
//! the board is held to the tourney cap before any work (the library's own
//! limit for a puzzle, a side of at most 32, is far smaller).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::Uri;
use axum::routing::{get, post};
use axum::{Json, Router};
use knights::request::{JobRequest, PuzzleAnswer, PuzzleRequest, SolveAnswer, SolveRequest};
use knights::Control;

use super::api::{capped, own_query, read_json, read_query};
use super::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/puzzle", get(puzzle))
        .route("/api/solve", post(solve))
}

/// `GET /api/puzzle?board=6x6&difficulty=easy&seed=3&symmetric=true`: a
/// generated puzzle with its one solution (the library's answer: `puzzle`
/// with its `json` and `text`, `solution`, `difficulty`, `work`, `seed`).
async fn puzzle(State(state): State<AppState>, uri: Uri) -> Result<Json<PuzzleAnswer>, ApiError> {
    let (request, []): (PuzzleRequest, _) = read_query(&uri, [])?;
    // The cap before the plan, which builds the shape.
    let board: knights::Board = request.board.parse()?;
    capped(board, state.config.max_tourney_squares, "/api/puzzle")?;
    let plan = request.plan()?;
    let answer = state
        .heavy(move |stop| PuzzleRequest::run_plan(plan, &Control::new().stop(stop)))
        .await?;
    Ok(Json(answer))
}

/// `POST /api/solve`: `{"puzzle": "<text or JSON>", "progress"?, "limit"?,
/// "max-nodes"?, "step"?}` to the solutions (`count`, `unique`,
/// `complete`, `solutions`, `work`) or, with `step`, one step (`outcome`,
/// `deduction`, `at`, `reason`). The puzzle is read (and its board held to
/// the body's size) before the cap is checked.
async fn solve(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<SolveAnswer>, ApiError> {
    own_query(&uri, [])?;
    let request: SolveRequest = read_json(body)?;
    let plan = request.plan()?;
    capped(
        plan.puzzle.shape().board(),
        state.config.max_tourney_squares,
        "/api/solve",
    )?;
    let answer = state
        .heavy(move |stop| SolveRequest::run_plan(plan, &Control::new().stop(stop)))
        .await?;
    Ok(Json(answer))
}
