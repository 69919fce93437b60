//! Every failure as an HTTP status and `{"error": "..."}`, in one place:
//! the library's [`knights::Category`] picks the status, the library's
//! sentence is the message, and its [`knights::Hint`] is said as the
//! query or JSON parameter that follows it ([`in_http_words`]).
//!
//! | category or cause | status |
//! |---|---|
//! | bad input (board, option, file, combination) | 400 |
//! | a board over the endpoint's cap | 400, naming the cap |
//! | no answer (no tour of that kind, not a tour, a search gave up) | 422 |
//! | over a limit of the machine (memory) or a body too large | 413 |
//! | too busy, out of time, interrupted | 503 with `Retry-After` |
//! | a file could not be read or written: the disk is full | 507 |
//! | a file could not be read or written: any other reason | 500 |
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

    /// 400 for a board over an endpoint's cap: the cap stated plainly, with
    /// the largest board of the squarest shape it allows ("at most 48
    /// squares (such as 6x8)").
    pub fn over_cap(board: knights::Board, cap: usize, what: &str) -> ApiError {
        let side = cap.isqrt().max(1);
        ApiError::bad(format!(
            "{board} has {} squares, over this server's cap for {what} of at most {cap} squares (such as {side}x{}); ask for a smaller board (the cap is set by `knights serve`'s flags)",
            board.squares(),
            cap / side
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

/// The status of a library error: its category's, but 507 for a full disk.
fn status_of_error(e: &knights::Error) -> StatusCode {
    match e {
        knights::Error::Io { source, .. }
            if matches!(
                source.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            ) =>
        {
            StatusCode::INSUFFICIENT_STORAGE
        }
        e => status_of(e.category()),
    }
}

/// A library error as the web server says it: the library's sentence, then
/// its hint (if any) as the parameter that follows it.
pub fn in_http_words(e: &knights::Error) -> String {
    let Some(hint) = e.hint() else {
        return e.to_string();
    };
    format!("{}; {}", e.unhinted(), hint_in_parameters(hint))
}

/// The web server's table of hints: each as the query or JSON parameter
/// that follows it, or, where the choice is this server's (its memory,
/// disk and work directory), as what the server's operator or the caller
/// can do.
fn hint_in_parameters(hint: knights::Hint) -> String {
    use knights::{Budget, Hint};
    match hint {
        Hint::Raise(Budget::Nodes) => "allow more with max-nodes=N".into(),
        Hint::Raise(Budget::Attempts) => "allow more with max-attempts=N".into(),
        Hint::Raise(Budget::Memory) => {
            "this server's memory for a count is its own (`knights serve`'s flags); ask for a smaller board".into()
        }
        Hint::Raise(Budget::Disk) => {
            "this server's disk for a count is its own (`knights serve`'s flags); ask for a smaller board".into()
        }
        Hint::UseAlgorithm(algorithm) => format!("use algorithm={}", algorithm.name()),
        Hint::AlgorithmOptions => "the options are tie=, max-attempts= and max-nodes=".into(),
        Hint::AskClosed => "ask kind=closed".into(),
        Hint::ClosedFromStart => "ask kind=closed with only start=".into(),
        Hint::UseMethod(method) => format!("use method={}", method.name()),
        Hint::UseEstimateMethod(method) => format!("use method={}", method.name()),
        Hint::Classic(true) => "send \"classic\": true".into(),
        Hint::Classic(false) => "send \"classic\": false".into(),
        Hint::Resume
        | Hint::ResumeOrFresh
        | Hint::DontResume
        | Hint::StartFresh
        | Hint::ResumeWithRoom => {
            "this server keeps no checkpoint of a count between requests; send the request again".into()
        }
        Hint::MoreRoom => {
            "this server's room for a count is its own (`knights serve`'s flags); ask for a smaller board".into()
        }
        Hint::MoreTimeOrSamples => "allow more with seconds=, or give samples=N".into(),
    }
}

impl From<knights::Error> for ApiError {
    fn from(e: knights::Error) -> ApiError {
        let status = status_of_error(&e);
        ApiError {
            status,
            message: in_http_words(&e),
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

#[cfg(test)]
mod tests {
    use super::*;
    use knights::{Budget, Hint};

    #[test]
    fn a_full_disk_is_507_and_another_file_error_500() {
        let full = knights::Error::io("write x", std::io::Error::from_raw_os_error(28));
        assert_eq!(
            ApiError::from(full).status,
            StatusCode::INSUFFICIENT_STORAGE
        );
        let failing = knights::Error::io("read x", std::io::Error::from_raw_os_error(5));
        let answer = ApiError::from(failing);
        assert_eq!(answer.status, StatusCode::INTERNAL_SERVER_ERROR);
        assert!(
            answer.message.starts_with("could not read x: "),
            "{}",
            answer.message
        );
    }

    /// Every hint is said in the web server's words, never the library's,
    /// and a hinted error still matches its variant.
    #[test]
    fn every_hint_is_said_in_http_words() {
        let every = Hint::every();
        assert!(every.len() > 20, "{every:?}");
        for hint in every {
            let words = hint_in_parameters(hint);
            assert_ne!(words, hint.to_string(), "{hint:?}");
            assert!(!words.contains("--"), "{hint:?}: {words}");
            let e = knights::Error::OverBudget("over".into()).with_hint(hint);
            assert!(matches!(e, knights::Error::OverBudget(_)), "{e:?}");
            assert_eq!(ApiError::from(e).message, format!("over; {words}"));
        }
    }

    #[test]
    fn a_hint_is_said_as_the_parameter() {
        let e = knights::Error::GaveUp("the search found no tour".into())
            .with_hint(Hint::Raise(Budget::Nodes));
        let answer = ApiError::from(e);
        assert_eq!(answer.status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(
            answer.message,
            "the search found no tour; allow more with max-nodes=N"
        );
    }
}
