//! `GET /api/sheet`: a printable page of boards to find a tour on by hand,
//! or its solution page (the library's [`SheetRequest`], read from the
//! query), as SVG or PNG. The board is held to the tourney cap (the
//! library's own limit for a sheet is far smaller); the tours are made in
//! the light lane when the algorithm is a construction, else in the heavy
//! one, under this server's time limit.

use axum::extract::State;
use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use knights::algorithms::Algorithm;
use knights::request::{JobRequest, SheetRequest};
use knights::Control;

use super::api::{capped, read_query};
use super::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/sheet", get(sheet))
}

/// `GET /api/sheet?board=6x6&copies=6&seed=1&solution=true&format=png`:
/// the page as `image/svg+xml` (the default) or `image/png`, to download
/// as `sheet-6x6.svg` (`sheet-6x6-solution.png` for the solution page).
async fn sheet(State(state): State<AppState>, uri: Uri) -> Result<Response, ApiError> {
    let (request, [format]): (SheetRequest, _) = read_query(&uri, ["format"])?;
    let format = format.unwrap_or_else(|| "svg".into());
    if !["svg", "png"].contains(&format.as_str()) {
        return Err(ApiError::bad(format!(
            "'{}' is not a format of /api/sheet; use svg or png",
            knights::excerpt(&format)
        )));
    }
    let board = capped(
        request.board.parse()?,
        state.config.max_tourney_squares,
        "/api/sheet",
    )?;
    let plan = request.plan()?;
    // A construction on the plain board is quick; a search takes the heavy lane.
    let linear = plan.shape().is_plain()
        && matches!(
            request.algorithm.parse::<Algorithm>(),
            Ok(Algorithm::Auto | Algorithm::Construct)
        );
    let squares = board.squares() * plan.copies() as usize;
    let png = format == "png";
    let body = state
        .sized(squares, linear, move |stop| {
            let answer = SheetRequest::run_plan(plan, &Control::new().stop(stop))?;
            if png {
                answer.png()
            } else {
                answer.svg().map(String::into_bytes)
            }
        })
        .await?;
    let page = if request.solution { "-solution" } else { "" };
    let (kind, name) = if png {
        ("image/png", format!("sheet-{board}{page}.png"))
    } else {
        ("image/svg+xml", format!("sheet-{board}{page}.svg"))
    };
    Ok((
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response())
}
