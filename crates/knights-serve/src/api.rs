//! The JSON API's plain requests (everything but the streams and counts):
//! tours, existence, tourneys, join / shatter / obfuscate, statistics,
//! checking and the cipher. Each handler reads its parameters, checks the
//! board against its cap, and calls the library's front door; the
//! library's sentences become the answers' `error`s (see `error`).

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use knights::algorithms::{Algorithm, Generator, Tie};
use knights::board::MOVES;
use knights::cipher::{self, Key, KeySpec, Mode};
use knights::format::{self, SvgOptions, Valid};
use knights::stats::MoveCounts;
use knights::{exists, rails, Board, Cover, Kind, Square, Tour, Tourney};
use serde_json::{json, Value};

use super::{ApiError, AppState};

/// The routes of this module.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/info", get(info))
        .route("/api/tour", get(tour))
        .route("/api/exists", get(existence))
        .route("/api/tourney", get(tourney))
        .route("/api/join", post(join))
        .route("/api/shatter", post(shatter))
        .route("/api/obfuscate", post(obfuscate))
        .route("/api/stats", post(stats))
        .route("/api/check", post(check))
        .route("/api/encrypt", post(encrypt))
        .route("/api/decrypt", post(decrypt))
}

/// Query parameters, in order, each read at most once.
pub struct Params {
    pairs: Vec<(String, String)>,
    endpoint: &'static str,
}

type Q = Result<Query<Vec<(String, String)>>, QueryRejection>;

impl Params {
    /// The parameters of a request to `endpoint`.
    pub fn new(query: Q, endpoint: &'static str) -> Result<Params, ApiError> {
        let Query(pairs) = query.map_err(|e| ApiError::bad(e.body_text()))?;
        let mut seen = std::collections::HashSet::new();
        for (k, _) in &pairs {
            if !seen.insert(k.clone()) {
                return Err(ApiError::bad(format!(
                    "the parameter '{}' is given twice",
                    knights::excerpt(k)
                )));
            }
        }
        Ok(Params { pairs, endpoint })
    }

    /// Takes a parameter's value.
    pub fn take(&mut self, key: &str) -> Option<String> {
        let i = self.pairs.iter().position(|(k, _)| k == key)?;
        Some(self.pairs.remove(i).1)
    }

    /// The board, required, within `cap` squares.
    pub fn board(&mut self, cap: usize) -> Result<Board, ApiError> {
        let text = self.take("board").ok_or_else(|| {
            ApiError::bad(format!(
                "{} needs a board, such as board=8x8",
                self.endpoint
            ))
        })?;
        let board: Board = text.parse()?;
        if board.squares() > cap {
            return Err(ApiError::over_cap(board, cap, self.endpoint));
        }
        Ok(board)
    }

    /// The seed (default 0).
    pub fn seed(&mut self) -> Result<u64, ApiError> {
        match self.take("seed") {
            None => Ok(0),
            Some(t) => t.trim().parse().map_err(|_| {
                ApiError::bad(format!(
                    "the seed must be a whole number from 0 to {}, not '{}'",
                    u64::MAX,
                    knights::excerpt(&t)
                ))
            }),
        }
    }

    /// A whole number parameter with a default and a range.
    pub fn number(&mut self, key: &str, default: u64, max: u64) -> Result<u64, ApiError> {
        match self.take(key) {
            None => Ok(default),
            Some(t) => t
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n <= max)
                .ok_or_else(|| {
                    ApiError::bad(format!(
                        "{key} must be a whole number from 0 to {max}, not '{}'",
                        knights::excerpt(&t)
                    ))
                }),
        }
    }

    /// The kind: closed, open or any (default any).
    pub fn kind(&mut self) -> Result<Option<Kind>, ApiError> {
        match self.take("kind") {
            None => Ok(None),
            Some(t) => Ok(Kind::parse_request(&t)?),
        }
    }

    /// The start square `R,C`, if given.
    pub fn start(&mut self, board: Board) -> Result<Option<Square>, ApiError> {
        match self.take("start") {
            None => Ok(None),
            Some(t) if t.trim().is_empty() => Ok(None),
            Some(t) => Ok(Some(board.parse_square(&t)?)),
        }
    }

    /// The board's holes (`holes`: the board file's text, rows separated
    /// by newlines or `/`, which must have the board's size), wrapping
    /// (`wrap`) and leaper (`leaper=A,B`).
    pub fn shape(&mut self, board: Board) -> Result<knights::Shape, ApiError> {
        let mut shape = knights::Shape::new(board);
        if let Some(text) = self.take("holes").filter(|t| !t.trim().is_empty()) {
            let holed = knights::Shape::parse_board_text(&text.replace('/', "\n"))?;
            if holed.board() != board {
                return Err(ApiError::bad(format!(
                    "the holes describe a {} board, but the board is {board}; give one row of '.' and '#' per board row",
                    holed.board()
                )));
            }
            shape = holed;
        }
        if let Some(w) = self.take("wrap") {
            shape = shape.with_wrap(w.parse()?);
        }
        if let Some(l) = self.take("leaper").filter(|t| !t.trim().is_empty()) {
            shape = shape.with_leaper(l.parse()?);
        }
        Ok(shape)
    }

    /// A square `R,C` of the shape (not a hole), if given.
    pub fn square_of(
        &mut self,
        key: &str,
        shape: &knights::Shape,
    ) -> Result<Option<Square>, ApiError> {
        match self.take(key) {
            None => Ok(None),
            Some(t) if t.trim().is_empty() => Ok(None),
            Some(t) => Ok(Some(shape.parse_square(&t)?)),
        }
    }

    /// Refuses any parameter left over.
    pub fn done(self) -> Result<(), ApiError> {
        match self.pairs.first() {
            None => Ok(()),
            Some((k, _)) => Err(ApiError::bad(format!(
                "'{}' is not a parameter of {}; see docs/http-api.md",
                knights::excerpt(k),
                self.endpoint
            ))),
        }
    }
}

/// A JSON answer from text already written.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

/// A file to download.
fn download(text: String, content_type: &'static str, name: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        text,
    )
        .into_response()
}

/// `[r, c]` of a square.
pub fn rc(board: Board, s: Square) -> Value {
    let (r, c) = board.coords(s);
    json!([r, c])
}

/// `GET /api/info`: the algorithms, generators, tie-breaks, limits and
/// the published counts the page shows.
async fn info(State(state): State<AppState>) -> Json<Value> {
    let c = &state.config;
    Json(json!({
        "algorithms": Algorithm::ALL.iter().map(|a| json!({
            "name": a.name(), "about": a.about(), "options": a.option_names(),
        })).collect::<Vec<_>>(),
        "generators": Generator::ALL.iter().map(|g| json!({"name": g.name(), "about": g.about()})).collect::<Vec<_>>(),
        "ties": Tie::ALL.iter().map(|t| json!({"name": t.name(), "about": t.about()})).collect::<Vec<_>>(),
        "moves": MOVES.iter().map(|&(dx, dy)| json!([dy, dx])).collect::<Vec<_>>(),
        "limits": {
            "tour_squares": c.max_squares,
            "tourney_squares": c.max_tourney_squares,
            "theatre_squares": c.max_theatre_squares,
            "count_squares": c.max_count_squares,
            "body_bytes": c.max_body,
            "timeout_seconds": c.timeout.as_secs_f64(),
            "count_seconds": c.count_timeout.as_secs_f64(),
            "jobs": c.jobs,
        },
        "known_counts": knights::count::PUBLISHED,
    }))
}

/// Whether `algorithm` makes a tour in linear time, without a search or a
/// budget option (such work may take the light lane).
fn is_linear(algorithm: Algorithm) -> bool {
    match algorithm {
        Algorithm::Auto | Algorithm::Construct => true,
        Algorithm::Tourney(generator) => is_construction(generator),
        _ => false,
    }
}

/// Whether `generator` is a construction (no search, no restarts).
fn is_construction(generator: Generator) -> bool {
    matches!(
        generator,
        Generator::Braid | Generator::FourCover | Generator::Divide
    )
}

/// The parameters of `GET /api/tour` besides the board, read into a builder.
fn tour_request(p: &mut Params, board: Board) -> Result<(knights::TourBuilder, u64), ApiError> {
    let kind = p.kind()?;
    let shape = p.shape(board)?;
    let start = p.square_of("start", &shape)?;
    let end = p.square_of("end", &shape)?;
    if end.is_some() && start.is_none() {
        return Err(ApiError::bad("an end square needs a start square as well"));
    }
    let seed = p.seed()?;
    let mut algorithm: Algorithm = match p.take("algorithm") {
        None => Algorithm::Auto,
        Some(t) => t.parse()?,
    };
    let shatters = p.take("obfuscate");
    // Whatever is left names an algorithm option (or is refused by the
    // algorithm with a sentence naming the algorithms that take it).
    let rest: Vec<(String, String)> = p
        .pairs
        .iter()
        .filter(|(k, _)| k != "format" && k != "encoding")
        .cloned()
        .collect();
    for (k, v) in &rest {
        algorithm.set_option(k, v)?;
        p.take(k);
    }
    let mut builder = Tour::builder(board)
        .shape(shape)
        .kind(kind)
        .start_at(start)
        .end_at(end)
        .seed(seed)
        .algorithm(algorithm);
    if let Some(t) = shatters {
        let n: u32 = t
            .trim()
            .parse()
            .ok()
            .filter(|&n| n <= 1000)
            .ok_or_else(|| {
                ApiError::bad(format!(
                    "obfuscate must be a number of shatters from 0 to 1000, not '{}'",
                    knights::excerpt(&t)
                ))
            })?;
        builder = builder.obfuscate(n);
    }
    Ok((builder, seed))
}

/// `GET /api/tour`: one tour, as JSON (squares or a compact move string),
/// SVG, grid or move list.
async fn tour(State(state): State<AppState>, query: Q) -> Result<Response, ApiError> {
    let mut p = Params::new(query, "/api/tour")?;
    let board = p.board(state.config.max_squares)?;
    let format = p.take("format").unwrap_or_else(|| "json".into());
    let encoding = p.take("encoding").unwrap_or_else(|| "squares".into());
    if !["json", "svg", "grid", "moves"].contains(&format.as_str()) {
        return Err(ApiError::bad(format!(
            "'{}' is not a format of /api/tour; use json, svg, grid or moves",
            knights::excerpt(&format)
        )));
    }
    if !["squares", "moves"].contains(&encoding.as_str()) {
        return Err(ApiError::bad(format!(
            "'{}' is not an encoding of /api/tour; use squares or moves",
            knights::excerpt(&encoding)
        )));
    }
    if format != "json" && board.squares() > state.config.max_tourney_squares {
        return Err(ApiError::over_cap(
            board,
            state.config.max_tourney_squares,
            "/api/tour files other than JSON",
        ));
    }
    let obfuscated = p.pairs.iter().any(|(k, _)| k == "obfuscate");
    let (builder, seed) = tour_request(&mut p, board)?;
    p.done()?;
    let algorithm = builder.algorithm_asked();
    let linear = is_linear(algorithm) && !obfuscated;
    let tour = state
        .sized(board.squares(), linear, move |stop| {
            builder.stop_flag(stop).build()
        })
        .await?;
    let name = format!("tour-{}x{}", board.rows(), board.cols());
    Ok(match format.as_str() {
        "svg" => download(
            format::tour_svg(&tour, SvgOptions::default()).to_string(),
            "image/svg+xml",
            format!("{name}.svg"),
        ),
        "grid" => download(
            format::grid(&tour, 0).to_string(),
            "text/plain; charset=utf-8",
            format!("{name}.txt"),
        ),
        "moves" => download(
            format::move_list(&tour).to_string(),
            "text/plain; charset=utf-8",
            format!("{name}.moves"),
        ),
        _ if encoding == "moves" && tour.is_plain() => {
            let moves: String = tour.moves().map(|k| char::from(b'0' + k)).collect();
            let start = board.coords(tour.start());
            json_text(
                json!({
                    "rows": board.rows(), "cols": board.cols(), "closed": tour.is_closed(),
                    "start": [start.0, start.1], "moves": moves,
                    "algorithm": algorithm.name(), "seed": seed,
                })
                .to_string(),
            )
        }
        _ => json_text(
            format::tour_json(&tour)
                .with("algorithm", algorithm.name())
                .with("seed", seed)
                .to_string(),
        ),
    })
}

/// `GET /api/exists`: both answers with their theorems.
async fn existence(State(state): State<AppState>, query: Q) -> Result<Json<Value>, ApiError> {
    let mut p = Params::new(query, "/api/exists")?;
    let text = p
        .take("board")
        .ok_or_else(|| ApiError::bad("/api/exists needs a board, such as board=8x8"))?;
    let board: Board = text.parse()?;
    let shape = p.shape(board)?;
    let start = p.square_of("start", &shape)?;
    let end = p.square_of("end", &shape)?;
    let kind = p.kind()?;
    p.done()?;
    if !shape.is_plain() || start.is_some() {
        // Beyond the plain board: yes, no or unknown, by the necessary
        // conditions, the theorems and a search of at most 1,000,000 nodes.
        if board.squares() > state.config.max_squares {
            return Err(ApiError::over_cap(
                board,
                state.config.max_squares,
                "/api/exists",
            ));
        }
        if end.is_some() && start.is_none() {
            return Err(ApiError::bad("an end square needs a start square as well"));
        }
        let spec = knights::algorithms::Spec {
            kind,
            start,
            end,
            ..knights::algorithms::Spec::on(shape.clone())
        };
        let d = state
            .sized(board.squares(), false, move |stop| {
                knights::decide::decide(&knights::algorithms::Spec { stop, ..spec }, 1_000_000)
            })
            .await?;
        return Ok(Json(json!({
            "rows": board.rows(), "cols": board.cols(), "board": shape.to_string(),
            "answer": d.answer.word(), "reason": d.reason,
        })));
    }
    let answer = |e: exists::Existence| json!({"exists": e.exists, "theorem": e.theorem, "reason": e.reason});
    Ok(Json(json!({
        "rows": board.rows(), "cols": board.cols(),
        "closed": answer(exists::closed_tour(board)),
        "open": answer(exists::open_tour(board)),
    })))
}

/// A tourney as JSON with its rails (for boards small enough to draw them).
fn tourney_value(tourney: &Tourney, cover: &Cover) -> Value {
    let board = tourney.board();
    let cycles: Vec<Vec<Value>> = tourney
        .cycles()
        .iter()
        .map(|c| c.iter().map(|&s| rc(board, s)).collect())
        .collect();
    let mut v = json!({"rows": board.rows(), "cols": board.cols(), "cycles": cycles});
    if board.squares() <= 10_000 {
        let rails: Vec<Value> = rails::find_rails(cover)
            .iter()
            .map(|r| Value::Array(r.squares(board).iter().map(|&s| rc(board, s)).collect()))
            .collect();
        v["rails"] = Value::Array(rails);
    }
    v
}

/// `GET /api/tourney`: a tourney by a generator, with its rails.
async fn tourney(State(state): State<AppState>, query: Q) -> Result<Json<Value>, ApiError> {
    let mut p = Params::new(query, "/api/tourney")?;
    let board = p.board(state.config.max_tourney_squares)?;
    let generator: Generator = match p.take("generator") {
        None => Generator::default(),
        Some(t) => t.parse()?,
    };
    let seed = p.seed()?;
    p.done()?;
    let value = state
        .sized(board.squares(), is_construction(generator), move |stop| {
            let cover = Tourney::builder(board)
                .generator(generator)
                .seed(seed)
                .cover_with_stop(&stop)?;
            let tourney = cover.to_tourney()?;
            let mut v = tourney_value(&tourney, &cover);
            v["generator"] = json!(generator.name());
            v["seed"] = json!(seed);
            Ok(v)
        })
        .await?;
    Ok(Json(value))
}

/// Reads a tour or tourney body in any format, checked, within `cap`.
fn read_body(body: &Bytes, cap: usize, endpoint: &str) -> Result<Valid, ApiError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ApiError::bad("the request body is not UTF-8 text"))?;
    let doc = format::read(text)?;
    let board = doc.board();
    if board.squares() > cap {
        return Err(ApiError::over_cap(board, cap, endpoint));
    }
    Ok(doc.into_valid()?)
}

/// The cover of a tour or tourney (rails work on closed tours and tourneys).
fn cover_of(valid: &Valid) -> knights::Result<Cover> {
    match valid {
        Valid::Tour(t) => Cover::from_tour(t),
        Valid::Tourney(t) => Cover::from_tourney(t),
    }
}

/// The number of squares of a tour's or tourney's board.
fn valid_squares(valid: &Valid) -> usize {
    match valid {
        Valid::Tour(t) => t.board().squares(),
        Valid::Tourney(t) => t.board().squares(),
    }
}

/// The first square of a tour (to keep it), or square 0.
fn start_of(valid: &Valid) -> Square {
    match valid {
        Valid::Tour(t) => t.start(),
        Valid::Tourney(_) => 0,
    }
}

/// `POST /api/join?seed=N&steps=true`: a tourney joined into one closed
/// tour; with `steps`, every rail switched on the way (boards up to 24x24).
async fn join(
    State(state): State<AppState>,
    query: Q,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    let mut p = Params::new(query, "/api/join")?;
    let seed = p.seed()?;
    let steps = p.take("steps").is_some_and(|t| t == "true" || t == "1");
    p.done()?;
    let valid = read_body(&body, state.config.max_tourney_squares, "/api/join")?;
    let value = state
        .sized(valid_squares(&valid), false, move |stop| {
            let mut cover = cover_of(&valid)?;
            let board = cover.board();
            let mut rng = knights::rng::seeded(seed);
            let mut v = json!({});
            if steps && board.squares() <= 576 {
                v["steps"] = Value::Array(join_steps(&mut cover)?);
            }
            let options = rails::JoinOptions {
                stop,
                ..Default::default()
            };
            let stats = rails::join(&mut cover, &options, &mut rng)?;
            let tour = cover.to_tour(start_of(&valid), None)?;
            v["tour"] = serde_json::from_str(&format::tour_json(&tour).to_string())
                .map_err(|e| knights::Error::Internal(e.to_string()))?;
            v["cycles_before"] = json!(stats.cycles_before);
            Ok(v)
        })
        .await?;
    Ok(Json(value))
}

/// Joins cycles one rail at a time while a rail joins two cycles, and
/// says after each switch which rail it was and what the cycles are.
/// (The library's [`rails::join`] finishes whatever is left.)
fn join_steps(cover: &mut Cover) -> knights::Result<Vec<Value>> {
    let board = cover.board();
    let mut out = Vec::new();
    loop {
        let tourney = cover.to_tourney()?;
        if tourney.len() <= 1 {
            break;
        }
        let mut cycle_of = vec![0usize; board.squares()];
        for (i, c) in tourney.cycles().iter().enumerate() {
            for &s in c {
                cycle_of[s as usize] = i;
            }
        }
        let joining = rails::find_rails(cover).into_iter().find(|r| {
            let sq = r.squares(board);
            sq.iter()
                .any(|&s| cycle_of[s as usize] != cycle_of[sq[0] as usize])
        });
        let Some(rail) = joining else { break };
        rails::switch(cover, rail);
        let after = cover.to_tourney()?;
        out.push(json!({
            "rail": rail.squares(board).iter().map(|&s| rc(board, s)).collect::<Vec<_>>(),
            "cycles": after.cycles().iter().map(|c| c.iter().map(|&s| rc(board, s)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        }));
    }
    Ok(out)
}

/// `POST /api/shatter?seed=N`: one shatter of a closed tour or tourney.
async fn shatter(
    State(state): State<AppState>,
    query: Q,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    let mut p = Params::new(query, "/api/shatter")?;
    let seed = p.seed()?;
    p.done()?;
    let valid = read_body(&body, state.config.max_tourney_squares, "/api/shatter")?;
    let value = state
        .sized(valid_squares(&valid), true, move |_| {
            let mut cover = cover_of(&valid)?;
            let switched = rails::shatter(&mut cover, &mut knights::rng::seeded(seed))?;
            let tourney = cover.to_tourney()?;
            let mut v = tourney_value(&tourney, &cover);
            v["switched"] = json!(switched);
            v["stats"] = counts_value(&MoveCounts::of_tourney(&tourney));
            Ok(v)
        })
        .await?;
    Ok(Json(value))
}

/// `POST /api/obfuscate?seed=N&shatters=K`: shattered K times and joined.
async fn obfuscate(
    State(state): State<AppState>,
    query: Q,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    let mut p = Params::new(query, "/api/obfuscate")?;
    let seed = p.seed()?;
    let shatters = p.number("shatters", 16, 1000)? as u32;
    p.done()?;
    let valid = read_body(&body, state.config.max_tourney_squares, "/api/obfuscate")?;
    let value = state
        .sized(valid_squares(&valid), false, move |stop| {
            let mut rng = knights::rng::seeded(seed);
            let options = rails::ObfuscateOptions {
                shatters,
                join: rails::JoinOptions {
                    stop,
                    ..Default::default()
                },
            };
            let tour = match valid {
                Valid::Tour(t) => rails::obfuscate_tour_with(t, &options, &mut rng)?,
                Valid::Tourney(t) => {
                    let mut cover = Cover::from_tourney(&t)?;
                    rails::obfuscate(&mut cover, &options, &mut rng)?;
                    cover.to_tour(0, None)?
                }
            };
            let mut v: Value = serde_json::from_str(&format::tour_json(&tour).to_string())
                .map_err(|e| knights::Error::Internal(e.to_string()))?;
            v["stats"] = counts_value(&MoveCounts::of_tour(&tour));
            Ok(v)
        })
        .await?;
    Ok(Json(value))
}

/// Move statistics as JSON.
fn counts_value(c: &MoveCounts) -> Value {
    json!({
        "moves": c.moves, "relative": c.relative,
        "move_frequencies": c.move_frequencies(),
        "relative_frequencies": c.relative_frequencies(),
    })
}

/// `POST /api/stats`: move and relative-move counts of a tour or tourney.
async fn stats(
    State(state): State<AppState>,
    query: Q,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    Params::new(query, "/api/stats")?.done()?;
    let valid = read_body(&body, state.config.max_tourney_squares, "/api/stats")?;
    Ok(Json(counts_value(&match &valid {
        Valid::Tour(t) => MoveCounts::of_tour(t),
        Valid::Tourney(t) => MoveCounts::of_tourney(t),
    })))
}

/// `POST /api/check`: what a tour or tourney file is, or its first fault (422).
async fn check(
    State(state): State<AppState>,
    query: Q,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    Params::new(query, "/api/check")?.done()?;
    let valid = read_body(&body, state.config.max_squares, "/api/check")?;
    Ok(Json(match valid {
        Valid::Tour(t) => {
            let b = t.board();
            json!({"rows": b.rows(), "cols": b.cols(), "tour": t.kind().name()})
        }
        Valid::Tourney(t) => {
            let b = t.board();
            json!({"rows": b.rows(), "cols": b.cols(), "cycles": t.len()})
        }
    }))
}

/// The body of `POST /api/encrypt` and `/api/decrypt`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CipherBody {
    key: String,
    text: String,
    #[serde(default)]
    mode: Option<String>,
}

/// The key: a key description such as `8x8,seed=5`, or a tour in any format.
fn read_key(
    text: &str,
    cap: usize,
    stop: &knights::StopFlag,
) -> Result<(Key, Option<String>), ApiError> {
    let t = text.trim();
    let looks_like_spec = t.len() < 200 && !t.contains('\n') && !t.starts_with('{');
    if looks_like_spec {
        if let Ok(spec) = t.parse::<KeySpec>() {
            if spec.board.squares() > cap {
                return Err(ApiError::over_cap(spec.board, cap, "cipher keys"));
            }
            return Ok((
                Key::from_spec_with_stop(&spec, stop)?,
                Some(spec.to_string()),
            ));
        }
        if !t.contains(' ') {
            // Report the description's own error for one-word keys.
            t.parse::<KeySpec>()?;
        }
    }
    let doc = format::read(t)?;
    if doc.board().squares() > cap {
        return Err(ApiError::over_cap(doc.board(), cap, "cipher keys"));
    }
    Ok((Key::from_text(t)?, None))
}

async fn cipher_run(
    state: AppState,
    body: Result<Bytes, BytesRejection>,
    decrypting: bool,
) -> Result<Json<Value>, ApiError> {
    let body = body?;
    let request: CipherBody = serde_json::from_slice(&body).map_err(|e| {
        ApiError::bad(format!(
            "the body must be JSON such as {{\"key\": \"8x8,seed=5\", \"text\": \"...\", \"mode\": \"exact\"}}: {}",
            knights::excerpt(&e.to_string())
        ))
    })?;
    let mode = match request.mode.as_deref().unwrap_or("exact") {
        "exact" => Mode::Exact,
        "classic" => Mode::Classic,
        other => {
            return Err(ApiError::bad(format!(
                "'{}' is not a cipher mode; use exact or classic",
                knights::excerpt(other)
            )))
        }
    };
    let cap = state.config.max_tourney_squares;
    let value = state
        .heavy(move |stop| {
            // Once the flag is raised, the answer is the time limit's (or
            // nobody's), whatever this error says.
            let (key, spec) =
                read_key(&request.key, cap, &stop).map_err(|e| knights::Error::Parse(e.message))?;
            let text = if decrypting {
                cipher::decrypt(&key, &request.text, mode)?
            } else {
                cipher::encrypt(&key, &request.text, mode)?
            };
            let board = key.board();
            Ok(json!({
                "text": text,
                "key": {
                    "rows": board.rows(), "cols": board.cols(), "spec": spec,
                    "squares": key.order().iter().map(|&s| rc(board, s)).collect::<Vec<_>>(),
                },
            }))
        })
        .await?;
    Ok(Json(value))
}

/// `POST /api/encrypt`: `{"key", "text", "mode"}` to `{"text", "key"}`.
async fn encrypt(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    cipher_run(state, body, false).await
}

/// `POST /api/decrypt`: the same, the other way.
async fn decrypt(
    State(state): State<AppState>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    cipher_run(state, body, true).await
}
