//! Every failure as an HTTP status and `{"error": "..."}`, in one place:
//! the library's [`knights::Category`] picks the status, the library's
//! sentence (the same as the command line prints) is the message.
//!
//! | category or cause | status |
//! |---|---|
//! | bad input (board, option, file, combination) | 400 |
//! | a board over the endpoint's cap | 400, naming the cap |
//! | no answer (no tour of that kind, not a tour, a search gave up) | 422 |
//! | over a limit of the machine (memory) or a body too large | 413 |
//! | too busy, out of time, interrupted | 503 with `Retry-After` |
//! | a fault of the program | 500 |

use std::time::Duration;

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use knights::Category;

/// An error answer: a status and one or two plain sentences.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for a person.
    pub message: String,
    /// Seconds after which a retry may succeed (503).
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// A 400 with `message`.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::with(StatusCode::BAD_REQUEST, message)
    }

    /// An answer with this status and message.
    pub fn with(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503: every job slot is taken and the queue is full.
    pub fn busy() -> ApiError {
        ApiError {
            retry_after: Some(2),
            ..ApiError::with(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy with other heavy requests; try again in a moment",
            )
        }
    }

    /// 503: the work ran past the time limit and was stopped.
    pub fn timeout(limit: Duration) -> ApiError {
        ApiError {
            retry_after: Some(5),
            ..ApiError::with(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "the request took longer than this server's limit of {} s and was stopped; ask for a smaller board, another algorithm or a smaller budget",
                    limit.as_secs_f64()
                ),
            )
        }
    }

    /// 500: a fault of the program.
    pub fn internal(what: &str) -> ApiError {
        ApiError::with(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error: {what}; please report it"),
        )
    }

    /// 400 for a board over an endpoint's cap.
    pub fn over_cap(board: knights::Board, cap: usize, what: &str) -> ApiError {
        let side = (cap as f64).sqrt().floor() as usize;
        ApiError::bad(format!(
            "{board} has {} squares, over this server's cap of {cap} squares ({side}x{side}) for {what}; ask for a smaller board (the cap is set by `knights serve`'s flags)",
            board.squares()
        ))
    }
}

/// The one mapping from the library's categories to HTTP statuses.
pub fn status_of(category: Category) -> StatusCode {
    match category {
        Category::BadInput => StatusCode::BAD_REQUEST,
        Category::NoAnswer => StatusCode::UNPROCESSABLE_ENTITY,
        Category::OverLimit => StatusCode::PAYLOAD_TOO_LARGE,
        Category::Interrupted => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<knights::Error> for ApiError {
    fn from(e: knights::Error) -> ApiError {
        let status = status_of(e.category());
        ApiError {
            status,
            message: e.to_string(),
            retry_after: (status == StatusCode::SERVICE_UNAVAILABLE).then_some(5),
        }
    }
}

impl From<axum::extract::rejection::BytesRejection> for ApiError {
    fn from(e: axum::extract::rejection::BytesRejection) -> ApiError {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::with(
                status,
                "the request body is larger than this server's limit; send a smaller tour or text",
            )
        } else {
            ApiError::with(status, e.body_text())
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// 404 for any path that is neither the page nor the API.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::with(
        StatusCode::NOT_FOUND,
        format!(
            "there is nothing at {}; the API is described in docs/http-api.md",
            knights::excerpt(uri.path())
        ),
    )
}
