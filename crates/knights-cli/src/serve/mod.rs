//! `knights serve`: the web page and its JSON API, on axum and tokio.
//!
//! - [`router`] builds the whole application from a [`Config`]: the page's
//!   files (embedded in the binary, see `assets`), the JSON API under
//!   `/api/` (`api`, documented in `docs/http-api.md`), the step streams of
//!   the algorithm theatre (`theatre`) and the counting jobs (`jobs`).
//! - Errors become HTTP statuses in one place, `error`.
//! - Heavy work runs on tokio's blocking pool behind a semaphore of
//!   [`Config::jobs`] permits, under [`Config::timeout`], with a
//!   [`knights::StopFlag`] raised when the request ends early (the client
//!   went away, or the time ran out).
//!
//! Safe by default: loopback only unless `--host` says otherwise, caps on
//! board sizes per endpoint, request bodies, time per request and heavy jobs
//! at once; no endpoint touches the file system.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::Router;
use knights::StopFlag;
use tokio::sync::Semaphore;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use crate::cli::ServeArgs;

mod api;
mod assets;
mod error;
mod jobs;
mod known;
mod theatre;

#[cfg(test)]
mod browser_tests;
#[cfg(test)]
mod load_test;
#[cfg(test)]
mod tests;

pub use error::ApiError;

/// The server's limits; every one can be set by a flag of `knights serve`.
#[derive(Clone, Debug)]
pub struct Config {
    /// Most squares of a board for tours, existence answers and pictures.
    pub max_squares: usize,
    /// Most squares of a board for tourneys, rails and statistics.
    pub max_tourney_squares: usize,
    /// Most squares of a board for a step stream of the theatre.
    pub max_theatre_squares: usize,
    /// Most squares of a board that may be counted.
    pub max_count_squares: usize,
    /// Most bytes of a request body.
    pub max_body: usize,
    /// Most time for one request's work.
    pub timeout: Duration,
    /// Most time for one count.
    pub count_timeout: Duration,
    /// Heavy jobs (tours, tourneys, counts, streams) running at once.
    pub jobs: usize,
    /// Requests that may wait for a job slot before the server answers 503.
    pub max_waiting: usize,
    /// Counting jobs kept in memory (running or finished) at once.
    pub max_count_jobs: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_squares: 1_000_000,
            max_tourney_squares: 250_000,
            max_theatre_squares: 400,
            max_count_squares: 48,
            max_body: 1 << 20,
            timeout: Duration::from_secs(20),
            count_timeout: Duration::from_secs(120),
            jobs: 4,
            max_waiting: 256,
            max_count_jobs: 8,
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The limits.
    pub config: Arc<Config>,
    /// One permit per heavy job running.
    pub slots: Arc<Semaphore>,
    /// Requests waiting for a permit.
    pub waiting: Arc<AtomicUsize>,
    /// The counting jobs.
    pub counts: jobs::Jobs,
}

impl AppState {
    /// Fresh state for `config`.
    pub fn new(config: Config) -> AppState {
        AppState {
            slots: Arc::new(Semaphore::new(config.jobs.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            counts: jobs::Jobs::default(),
            config: Arc::new(config),
        }
    }

    /// A permit for one heavy job: waits for one while fewer than
    /// [`Config::max_waiting`] requests wait, else answers 503.
    pub async fn slot(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        if let Ok(permit) = self.slots.clone().try_acquire_owned() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= self.config.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::busy());
        }
        let got =
            tokio::time::timeout(self.config.timeout, self.slots.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        match got {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::busy()),
        }
    }

    /// Runs `work` on the blocking pool in a job slot, under the time limit;
    /// the flag it gets is raised when the request ends before the work does.
    pub async fn heavy<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
    {
        let permit = self.slot().await?;
        let stop = StopFlag::new();
        let _guard = StopOnDrop(stop.clone());
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work(stop)
        });
        match tokio::time::timeout(self.config.timeout, task).await {
            Ok(Ok(result)) => result.map_err(ApiError::from),
            Ok(Err(e)) => Err(ApiError::internal(&format!("the work failed: {e}"))),
            Err(_) => Err(ApiError::timeout(self.config.timeout)),
        }
    }
}

/// Raises its flag when dropped: work whose request is gone stops.
pub struct StopOnDrop(pub StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// The whole application: the page, the API, the streams.
pub fn router(config: Config) -> Router {
    let state = AppState::new(config);
    let limit = state.config.max_body;
    // The API's plain requests answer within the time limit (a margin over
    // the limit of their work); the streams and job events run longer.
    let backstop = state.config.timeout + Duration::from_secs(5);
    let plain = api::routes()
        .merge(jobs::routes())
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            backstop,
        ));
    let streams = theatre::routes().merge(jobs::stream_routes());
    Router::new()
        .merge(plain)
        .merge(streams)
        .merge(assets::routes())
        .fallback(error::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .layer(CompressionLayer::new())
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .with_state(state)
}

/// `knights serve`.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let config = Config {
        max_squares: args.max_squares,
        max_tourney_squares: args.max_tourney_squares,
        max_count_squares: args.max_count_squares,
        max_body: args.max_body,
        timeout: args.timeout,
        count_timeout: args.count_timeout,
        jobs: args.jobs.max(1),
        ..Config::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(config.jobs + 4)
        .build()
        .context("could not start the server's runtime")?;
    runtime.block_on(async move {
        let addr: SocketAddr = format!("{}:{}", args.host, args.port)
            .parse()
            .or_else(|_| format!("[{}]:{}", args.host, args.port).parse())
            .with_context(|| {
                format!(
                    "'{}' is not an IP address to listen on",
                    knights::excerpt(&args.host)
                )
            })?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("could not listen on {addr}"))?;
        let local = listener.local_addr()?;
        let url = format!("http://{local}/");
        eprintln!("knights: serving the web page on {url} (Ctrl-C stops)");
        if !local.ip().is_loopback() {
            eprintln!(
                "knights: warning: {} is reachable from other machines",
                local.ip()
            );
        }
        if args.open {
            open_browser(&url);
        }
        // Ctrl-C ends the process (the command line's handler, main.rs).
        axum::serve(listener, router(config))
            .await
            .context("the server stopped")?;
        Ok(ExitCode::SUCCESS)
    })
}

/// Opens `url` in the desktop's browser, if there is one (failure is only reported).
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program).arg(url).spawn() {
        eprintln!("knights: could not open a browser ({program}: {e}); open {url} yourself");
    }
}
