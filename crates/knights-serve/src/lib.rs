//! The web page of knight's tours and its JSON API, on axum, hyper and
//! tokio: what `knights serve` runs ([`run`] with a [`Launch`]), in a crate
//! of its own so that the command line's binary only maps its flags.
//!
//! - [`router`] builds the whole application from a [`Config`]: the page's
//!   files (embedded in the binary, see `assets`), the JSON API under
//!   `/api/` (`api`, documented in `docs/http-api.md`; the Play panel's
//!   positions and their pictures in `position`, files in `picture`, clue
//!   puzzles in `puzzle`), the step streams of
//!   the algorithm theatre (`theatre`) and the counting jobs (`jobs`).
//! - Errors become HTTP statuses in one place, `error`.
//! - Only its own page: `guard` refuses requests addressed to another host
//!   name (DNS rebinding) and requests from other web sites.
//! - Work runs on tokio's blocking pool in one of two lanes of
//!   [`Config::jobs`] permits each: linear work (a construction, a picture,
//!   a check; no search and no budget option) on boards of at most
//!   [`Config::light_squares`] squares in the light lane, so that it never
//!   waits behind heavy jobs; within [`Config::timeout`] for the wait for a
//!   permit and the work together, with a
//!   [`knights::StopFlag`] raised when the time runs out or the client goes
//!   away, which the library's loops watch, so that the job returns and
//!   frees its permit.
//! - [`serve`] accepts at most [`Config::max_connections`] connections at
//!   once and closes those that do not send their headers within
//!   [`Config::header_timeout`]; answers larger than
//!   [`Config::max_compressed`] bytes are sent uncompressed (gzip of a
//!   megabytes-long tour would hold an async thread for a long time).
//!
//! Safe by default: loopback only unless `--host` says otherwise, caps on
//! board sizes per endpoint, request bodies, time per request and jobs at
//! once; no endpoint touches the file system.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use axum::body::HttpBody;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use knights::StopFlag;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

mod api;
mod assets;
mod error;
mod estimates;
mod guard;
mod jobs;
mod parse_errors;
mod picture;
mod position;
mod puzzle;
mod sheet;
mod theatre;

#[cfg(test)]
mod amount_tests;
#[cfg(test)]
mod browser_magic_tests;
#[cfg(test)]
mod browser_picture_tests;
#[cfg(test)]
mod browser_play_tests;
#[cfg(test)]
mod browser_puzzle_tests;
#[cfg(test)]
mod browser_share_tests;
#[cfg(test)]
mod browser_sheet_tests;
#[cfg(test)]
mod browser_tests;
#[cfg(test)]
mod browser_trial_tests;
#[cfg(test)]
mod conformance;
#[cfg(test)]
mod count_progress_tests;
#[cfg(test)]
mod estimates_tests;
#[cfg(test)]
mod guard_tests;
#[cfg(test)]
mod job_tests;
#[cfg(test)]
mod load_test;
#[cfg(test)]
mod magic_tests;
#[cfg(test)]
mod picture_tests;
#[cfg(test)]
mod position_latency;
#[cfg(test)]
mod position_tests;
#[cfg(test)]
mod puzzle_tests;
#[cfg(test)]
mod sheet_tests;
#[cfg(test)]
mod squares_tests;
#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tests;

pub use error::ApiError;

/// The server's limits; most can be set by a flag of `knights serve`.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address the server listens on: requests must be addressed to
    /// it (see `guard`).
    pub addr: SocketAddr,
    /// Other host names that requests may be addressed to (`--allow-host`).
    pub allow_hosts: Vec<String>,
    /// Most squares of a board for tours (as JSON) and existence answers.
    pub max_squares: usize,
    /// Most squares of a board for tourneys, rails, statistics and files
    /// other than JSON (pictures, grids, move lists).
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
    /// Most time for one step stream of the theatre (`--count-timeout`).
    pub stream_timeout: Duration,
    /// Jobs running at once in each lane (heavy and light).
    pub jobs: usize,
    /// Linear work on boards of at most this many squares is light, with a
    /// lane of its own.
    pub light_squares: usize,
    /// Requests that may wait for a job slot in a lane before the server
    /// answers 503.
    pub max_waiting: usize,
    /// Counting jobs kept in memory (running or finished) at once.
    pub max_count_jobs: usize,
    /// Most time for a client to send a request's headers, and for an idle
    /// connection to stay open.
    pub header_timeout: Duration,
    /// Connections open at once; more wait to be accepted.
    pub max_connections: usize,
    /// Event streams open at once (counts' and the theatre's), at most half
    /// of [`Config::max_connections`]: more are refused with 503, so that
    /// streams never take every connection.
    pub max_streams: usize,
    /// Event streams open at once on one counting job; more are refused
    /// with 429.
    pub max_job_streams: usize,
    /// Answers of at most this many bytes are compressed for clients that
    /// accept gzip; larger ones are sent as they are.
    pub max_compressed: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            allow_hosts: Vec::new(),
            max_squares: 1_000_000,
            max_tourney_squares: 250_000,
            max_theatre_squares: 400,
            max_count_squares: 48,
            max_body: 1 << 20,
            timeout: Duration::from_secs(20),
            count_timeout: Duration::from_secs(120),
            stream_timeout: Duration::from_secs(120),
            jobs: 4,
            light_squares: 10_000,
            max_waiting: 256,
            max_count_jobs: 8,
            header_timeout: Duration::from_secs(10),
            max_connections: 512,
            max_streams: 64,
            max_job_streams: 4,
            max_compressed: 256 << 10,
        }
    }
}

/// Job slots: permits for jobs at once, and the requests waiting for one.
#[derive(Clone)]
pub(crate) struct Lane {
    slots: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl Lane {
    fn new(jobs: usize) -> Lane {
        Lane {
            slots: Arc::new(Semaphore::new(jobs.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// A permit at once, if one is free.
    pub fn try_permit(&self) -> Option<OwnedSemaphorePermit> {
        self.slots.clone().try_acquire_owned().ok()
    }

    /// A permit: waits for one (until `deadline`) while fewer than
    /// [`Config::max_waiting`] requests wait, else answers 503.
    async fn permit(
        &self,
        config: &Config,
        deadline: Instant,
    ) -> Result<OwnedSemaphorePermit, ApiError> {
        if let Some(permit) = self.try_permit() {
            return Ok(permit);
        }
        if self.waiting.fetch_add(1, Ordering::SeqCst) >= config.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(ApiError::busy());
        }
        let got = tokio::time::timeout_at(deadline, self.slots.clone().acquire_owned()).await;
        self.waiting.fetch_sub(1, Ordering::SeqCst);
        match got {
            Ok(Ok(permit)) => Ok(permit),
            _ => Err(ApiError::busy()),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub(crate) struct AppState {
    /// The limits.
    pub config: Arc<Config>,
    /// The lane of heavy jobs (large boards, counts, streams, the cipher).
    pub heavy_lane: Lane,
    /// The lane of light jobs (linear work on boards of at most
    /// [`Config::light_squares`] squares).
    pub light_lane: Lane,
    /// The counting jobs.
    pub counts: jobs::Jobs,
    /// Permits for event streams open at once (see [`Config::max_streams`]).
    pub streams: Arc<Semaphore>,
}

impl AppState {
    /// Fresh state for `config`.
    pub fn new(config: Config) -> AppState {
        AppState {
            heavy_lane: Lane::new(config.jobs),
            light_lane: Lane::new(config.jobs),
            counts: jobs::Jobs::default(),
            streams: Arc::new(Semaphore::new(
                config.max_streams.min(config.max_connections / 2).max(1),
            )),
            config: Arc::new(config),
        }
    }

    /// A permit for one more event stream, or 503 (with the connection
    /// closed) when [`Config::max_streams`] are open.
    pub fn stream_permit(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.streams.clone().try_acquire_owned().map_err(|_| {
            let most = self.streams_bound();
            ApiError {
                retry_after: Some(5),
                ..ApiError::with(
                    axum::http::StatusCode::SERVICE_UNAVAILABLE,
                    format!("this server already has {most} event streams open, the most it keeps at once; try again when one has closed"),
                )
            }
        })
    }

    /// The most event streams open at once.
    pub fn streams_bound(&self) -> usize {
        self.config
            .max_streams
            .min(self.config.max_connections / 2)
            .max(1)
    }

    /// A permit for one heavy job, waiting at most [`Config::timeout`] (see
    /// [`Lane::permit`]).
    pub async fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        let deadline = Instant::now() + self.config.timeout;
        self.heavy_lane.permit(&self.config, deadline).await
    }

    /// Runs `work` in the heavy lane (see [`AppState::run`]).
    pub async fn heavy<T, F>(&self, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
    {
        self.run(&self.heavy_lane, work).await
    }

    /// Runs `work` on a board of `squares` squares: in the light lane when
    /// it is `linear` (a construction, a picture, a check: no search, no
    /// budget option) and the board has at most [`Config::light_squares`]
    /// squares, else in the heavy one.
    pub async fn sized<T, F>(&self, squares: usize, linear: bool, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
    {
        let lane = if linear && squares <= self.config.light_squares {
            &self.light_lane
        } else {
            &self.heavy_lane
        };
        self.run(lane, work).await
    }

    /// Runs `work` on the blocking pool with a permit of `lane`, under the
    /// time limit: one deadline for the wait and the work (the work gets
    /// what the wait left), so that this answer comes before the router's
    /// backstop. Its flag is raised when the time runs out or the request
    /// ends before the work does; the permit is freed when the work
    /// returns, which the library's loops make soon after the flag.
    async fn run<T, F>(&self, lane: &Lane, work: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(StopFlag) -> knights::Result<T> + Send + 'static,
    {
        let deadline = Instant::now() + self.config.timeout;
        let permit = lane.permit(&self.config, deadline).await?;
        let stop = StopFlag::new();
        let _guard = StopOnDrop(stop.clone());
        let flag = stop.clone();
        let task = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work_priority();
            work(flag)
        });
        match tokio::time::timeout_at(deadline, task).await {
            Ok(Ok(result)) => result.map_err(ApiError::from),
            Ok(Err(e)) => Err(ApiError::internal(&format!("the work failed: {e}"))),
            Err(_) => {
                stop.stop();
                Err(ApiError::timeout(self.config.timeout))
            }
        }
    }
}

/// Lowers the calling thread's scheduling priority to the least (the
/// highest nice value) for the work of a request: the server's own threads,
/// which read requests and answer the cheap ones, then come first on a busy
/// machine. Only the blocking pool's threads call it, and they run nothing
/// but jobs. Where the system refuses, the work runs as it is.
pub(crate) fn work_priority() {
    let _ = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
}

/// Raises its flag when dropped: work whose request is gone stops.
pub struct StopOnDrop(pub StopFlag);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.stop();
    }
}

/// `error` as an answer that also closes its connection: a client refused
/// an event stream keeps no connection open for it.
pub(crate) fn closing(error: ApiError) -> axum::response::Response {
    use axum::response::IntoResponse;
    let mut response = error.into_response();
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Compresses only answers of a known size of at most this many bytes.
#[derive(Clone, Copy)]
struct SmallBodies(u64);

impl Predicate for SmallBodies {
    fn should_compress<B: HttpBody>(&self, response: &axum::http::Response<B>) -> bool {
        response
            .body()
            .size_hint()
            .upper()
            .is_some_and(|n| n <= self.0)
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
        .merge(estimates::routes())
        .merge(position::routes())
        .merge(puzzle::routes())
        .merge(sheet::routes())
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::SERVICE_UNAVAILABLE,
            backstop,
        ));
    let streams = theatre::routes().merge(jobs::stream_routes());
    let compress = DefaultPredicate::new().and(SmallBodies(state.config.max_compressed));
    Router::new()
        .merge(plain)
        .merge(streams)
        .merge(assets::routes())
        .fallback(error::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .layer(CompressionLayer::new().compress_when(compress))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::only_our_page,
        ))
        .with_state(state)
}

/// Serves `app` (made by [`router`] from `config`) on `listener` until the process ends: at
/// most [`Config::max_connections`] connections at once (more wait in the
/// listen queue), each closed when a request's headers take longer than
/// [`Config::header_timeout`].
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    config: &Config,
) -> std::io::Result<()> {
    let connections = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout);
    loop {
        let Ok(permit) = connections.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) if is_fatal(&e) => return Err(e),
            Err(_) => {
                // Out of file descriptors or a connection reset before it was
                // accepted: wait a moment and go on.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let connection = http.serve_connection(
            TokioIo::new(parse_errors::ParseErrors::new(stream)),
            TowerToHyperService::new(app.clone()),
        );
        tokio::spawn(async move {
            let _permit = permit;
            let _ = connection.await;
        });
    }
}

/// Whether an error of `accept` means the listener itself is broken.
fn is_fatal(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::InvalidInput | std::io::ErrorKind::NotConnected
    )
}

/// Where and how [`run`] serves: the address to listen on, whether to open
/// the page in the desktop's browser, and the server's limits.
#[derive(Clone, Debug)]
pub struct Launch {
    /// The IP address to listen on (an IPv6 address with or without brackets).
    pub host: String,
    /// The port (0 picks a free one).
    pub port: u16,
    /// Open the page in the desktop's browser once listening.
    pub open: bool,
    /// The limits; [`Config::addr`] is set from `host` and `port`.
    pub config: Config,
}

/// Serves the page until the process ends, saying on standard error where.
pub fn run(launch: Launch) -> Result<()> {
    let Launch {
        host,
        port,
        open,
        mut config,
    } = launch;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .max_blocking_threads(2 * config.jobs + 4)
        .build()
        .context("could not start the server's runtime")?;
    runtime.block_on(async move {
        let addr: SocketAddr = format!("{host}:{port}")
            .parse()
            .or_else(|_| format!("[{host}]:{port}").parse())
            .with_context(|| {
                format!(
                    "'{}' is not an IP address to listen on",
                    knights::excerpt(&host)
                )
            })?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("could not listen on {addr}"))?;
        let local = listener.local_addr()?;
        config.addr = local;
        let url = format!("http://{local}/");
        eprintln!("knights: serving the web page on {url} (Ctrl-C stops)");
        if !local.ip().is_loopback() {
            eprintln!(
                "knights: warning: {} is reachable from other machines",
                local.ip()
            );
        }
        if open {
            open_browser(&url);
        }
        // Ctrl-C ends the process (the caller's handler, or the default one).
        serve(listener, router(config.clone()), &config)
            .await
            .context("the server stopped")
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
