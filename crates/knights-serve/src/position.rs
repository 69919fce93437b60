//! `POST /api/position`: the library's position job (a partial path and its
//! goal: the legal next squares, whether it can still be finished, and the
//! hints), for the page's Play panel; and `POST /api/picture`, the played
//! path's picture (its "Save picture"). The body is the [`PositionRequest`]
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
use knights::format::{self, SvgOptions};
use knights::play::Position;
use knights::request::{JobRequest, PositionAnswer, PositionRequest};
use knights::{Board, Control, Wanted};
use serde::Deserialize;

use super::api::{capped, own_query, read_json};
use super::picture::{stem, File, Format};
use super::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/position", post(position))
        .route("/api/picture", post(picture))
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

/// The body of `POST /api/picture`: a played path on its board, as the
/// position request has them, and the picture's format.
#[derive(Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct PictureRequest {
    /// The board, `ROWSxCOLS`.
    board: String,
    /// Holes, as the position request's (`.` a square, `#` a hole).
    #[serde(default)]
    holes: Option<String>,
    /// Wrapped edges: none, rows, cols or both.
    #[serde(default)]
    wrap: Option<String>,
    /// Another leaper than the knight, `A,B`.
    #[serde(default)]
    leaper: Option<String>,
    /// The squares played, in order, each `ROW,COL` or a name such as `c3`.
    #[serde(default)]
    path: Vec<String>,
    /// `png` (the default) or `svg`.
    #[serde(default)]
    format: Option<String>,
}

/// `POST /api/picture`: the picture of a played path (the library's
/// `path_png` or `path_svg`), as a file to download. The path is checked
/// as the position request checks it (every square on the board and not a
/// hole, each step a move, none visited twice); the board is held to the
/// cap of files other than JSON before any work.
async fn picture(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<File, ApiError> {
    own_query(&uri, [])?;
    let request: PictureRequest = read_json(body)?;
    let format = Format::of_path(request.format.as_deref())?;
    let board: Board = request.board.parse()?;
    capped(board, state.config.max_tourney_squares, "/api/picture")?;
    let shape = knights::request::shape(
        &request.board,
        request.holes.as_deref(),
        request.wrap.as_deref(),
        request.leaper.as_deref(),
    )?;
    let path = request
        .path
        .iter()
        .map(|s| shape.parse_square(s))
        .collect::<knights::Result<Vec<_>>>()?;
    state
        .sized(
            board.squares(),
            format.is_light(board.squares()),
            move |_stop| {
                let position = Position::new(shape, Wanted::Either, None)?.with_path(&path)?;
                let (shape, path) = (position.shape(), position.path());
                let bytes = match format {
                    Format::Svg => format::path_svg(shape, path, SvgOptions::default())
                        .to_string()
                        .into_bytes(),
                    _ => format::path_png(shape, path, SvgOptions::default())?,
                };
                Ok(File::download(bytes, format, &stem("play", board)))
            },
        )
        .await
}
