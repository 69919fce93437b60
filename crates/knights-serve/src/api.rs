//! The JSON API's plain requests (everything but the streams and counts):
//! tours, existence, tourneys, join / shatter / obfuscate, statistics,
//! checking and the cipher. Each handler reads the library's request (the
//! query's parameters, or the JSON body, by the request's own field
//! names), keeps to this server's caps on board sizes and time, and runs
//! it; the library validates and refuses with its sentences, which become
//! the answers' `error`s (see `error`).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::{header, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use knights::algorithms::{Algorithm, Tie, TourneyMethod};
use knights::board::MOVES;
use knights::format::{self, Checked};
use knights::request::{
    CheckRequest, CipherRequest, DecryptRequest, EncryptRequest, ExistsRequest, JobRequest,
    JoinRequest, ObfuscateRequest, ShatterRequest, TourRequest, TourneyRequest,
};
use knights::stats::MoveCounts;
use knights::{rails, Board, Control, Cover, Square, StopFlag, Tour, Tourney};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::picture::{self, File, Format};
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

/// The query's parameters: the request `T`, read by its field names (a
/// parameter it does not have, one given twice or a value of the wrong
/// type is refused, naming the parameter), and the values of this server's
/// own parameters `own`, which are not fields of the request.
pub fn read_query<T: DeserializeOwned, const N: usize>(
    uri: &Uri,
    own: [&str; N],
) -> Result<(T, [Option<String>; N]), ApiError> {
    let (mine, theirs): (Vec<&str>, Vec<&str>) = uri
        .query()
        .unwrap_or_default()
        .split('&')
        .filter(|pair| !pair.is_empty())
        .partition(|pair| own.contains(&pair.split('=').next().unwrap_or_default()));
    let Query(request) = query_of(&theirs)?;
    let Query(pairs): Query<Vec<(String, String)>> = query_of(&mine)?;
    let values = own.map(|key| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()));
    Ok((request, values))
}

/// `T` from the query's `pairs` (still encoded).
fn query_of<T: DeserializeOwned>(pairs: &[&str]) -> Result<Query<T>, ApiError> {
    let uri: Uri = format!("/?{}", pairs.join("&"))
        .parse()
        .map_err(|e| ApiError::bad(format!("the query does not read: {e}")))?;
    Query::try_from_uri(&uri).map_err(|e| ApiError::bad(e.body_text()))
}

/// This server's own parameters `own` of a request whose fields come in
/// the body; any other parameter is refused.
pub fn own_query<const N: usize>(
    uri: &Uri,
    own: [&str; N],
) -> Result<[Option<String>; N], ApiError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Nothing {}
    let (Nothing {}, values) = read_query(uri, own)?;
    Ok(values)
}

/// The request `T` from the JSON body, by its field names.
pub fn read_json<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let body = body?;
    serde_json::from_slice(&body).map_err(|e| {
        // The message may quote a value sent: at most its first 300 characters.
        let mut message = e.to_string();
        if let Some((cut, _)) = message.char_indices().nth(300) {
            message.replace_range(cut.., "...");
        }
        ApiError::bad(format!(
            "the body is not the request's JSON (see docs/http-api.md): {message}"
        ))
    })
}

/// `board` if it has at most `cap` squares, else the cap's refusal.
pub fn capped(board: Board, cap: usize, what: &str) -> Result<Board, ApiError> {
    if board.squares() > cap {
        return Err(ApiError::over_cap(board, cap, what));
    }
    Ok(board)
}

/// A control of the work's stop flag (raised at the time limit or when the
/// client goes away).
fn control(stop: StopFlag) -> Control {
    Control::new().stop(stop)
}

/// A JSON answer from text already written.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
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
        "generators": TourneyMethod::ALL.iter().map(|g| json!({"name": g.name(), "about": g.about()})).collect::<Vec<_>>(),
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
fn is_construction(generator: TourneyMethod) -> bool {
    matches!(
        generator,
        TourneyMethod::Braid | TourneyMethod::FourCover | TourneyMethod::Divide
    )
}

/// `GET /api/tour`: one tour, as JSON (squares or a compact move string)
/// or a file (SVG, animated SVG, PNG, GIF, grid or move list; see
/// `picture`). The query is a [`TourRequest`] and this server's `format`
/// and `encoding`.
async fn tour(State(state): State<AppState>, uri: Uri) -> Result<Response, ApiError> {
    let (request, [format, encoding]): (TourRequest, _) = read_query(&uri, ["format", "encoding"])?;
    let format = Format::of_tour(format.as_deref())?;
    let encoding = encoding.unwrap_or_else(|| "squares".into());
    if !["squares", "moves"].contains(&encoding.as_str()) {
        return Err(ApiError::bad(format!(
            "'{}' is not an encoding of /api/tour; use squares or moves",
            knights::excerpt(&encoding)
        )));
    }
    let plan = request.plan()?;
    let board = capped(
        request.board.parse()?,
        state.config.max_squares,
        "/api/tour",
    )?;
    if format != Format::Json {
        let cap = state.config.max_tourney_squares;
        capped(board, cap, "/api/tour files other than JSON")?;
    }
    let linear = is_linear(plan.algorithm())
        && request.obfuscate.is_none()
        && format.is_light(board.squares());
    let file = state
        .sized(board.squares(), linear, move |stop| {
            let answer = TourRequest::run_plan(plan, &control(stop))?;
            if format != Format::Json {
                return picture::tour_file(&answer.tour, format);
            }
            Ok(File::json(tour_json(
                &answer.tour,
                &encoding,
                answer.algorithm,
                answer.seed,
            )))
        })
        .await?;
    Ok(file.into_response())
}

/// The tour's JSON (in `encoding`) with its algorithm and seed.
fn tour_json(tour: &Tour, encoding: &str, algorithm: Algorithm, seed: u64) -> String {
    if encoding == "moves" && tour.is_plain() {
        let board = tour.board();
        let moves: String = tour.moves().map(|k| char::from(b'0' + k)).collect();
        let start = board.coords(tour.start());
        return json!({
            "rows": board.rows(), "cols": board.cols(), "closed": tour.is_closed(),
            "start": [start.0, start.1], "moves": moves,
            "algorithm": algorithm.name(), "seed": seed,
        })
        .to_string();
    }
    format::tour_json(tour)
        .with("algorithm", algorithm.name())
        .with("seed", seed)
        .to_string()
}

/// `GET /api/exists`: the library's [`ExistsRequest`] and its answer. A
/// question about the plain board without ends is answered by the theorems
/// at once (the light lane, no cap); any other runs the search under the
/// tour cap.
async fn existence(State(state): State<AppState>, uri: Uri) -> Result<Response, ApiError> {
    let (request, []): (ExistsRequest, _) = read_query(&uri, [])?;
    let plan = request.plan()?;
    let board = plan.spec.board;
    let theorems = request.start.is_none()
        && request.holes.is_none()
        && request.wrap.is_none()
        && request.leaper.is_none();
    if !theorems {
        capped(board, state.config.max_squares, "/api/exists")?;
    }
    let answer = state
        .sized(board.squares(), theorems, move |stop| {
            ExistsRequest::run_plan(plan, &control(stop))
        })
        .await?;
    Ok(Json(answer).into_response())
}

/// The JSON of a tourney file (docs/formats.md) with its rails (the four
/// squares of each, for boards small enough to draw them) and `extra` keys.
fn tourney_file(tourney: &Tourney, extra: &[(&str, Value)]) -> knights::Result<String> {
    let board = tourney.board();
    let mut file = format::tourney_json(tourney);
    if board.squares() <= 10_000 {
        let rails: Vec<Value> = rails::find_rails(&Cover::from_tourney(tourney)?)
            .iter()
            .map(|r| Value::Array(r.squares(board).iter().map(|&s| rc(board, s)).collect()))
            .collect();
        file = file.with("rails", rails);
    }
    for (key, value) in extra {
        file = file.with(key, value.clone());
    }
    Ok(file.to_string())
}

/// The JSON of a tour file (docs/formats.md).
fn tour_value(tour: &Tour) -> knights::Result<Value> {
    serde_json::from_str(&format::tour_json(tour).to_string())
        .map_err(|e| knights::Error::Internal(e.to_string().into()))
}

/// `GET /api/tourney`: the library's [`TourneyRequest`], answered as a
/// tourney file with its rails, `algorithm` and `seed`, or as a picture
/// (this server's `format`: svg, animated-svg or png; see `picture`).
async fn tourney(State(state): State<AppState>, uri: Uri) -> Result<Response, ApiError> {
    let (request, [format]): (TourneyRequest, _) = read_query(&uri, ["format"])?;
    let format = Format::of_tourney(format.as_deref())?;
    let plan = request.plan()?;
    let cap = state.config.max_tourney_squares;
    let board = capped(plan.board, cap, "/api/tourney")?;
    let linear = is_construction(plan.generator) && format.is_light(board.squares());
    let file = state
        .sized(board.squares(), linear, move |stop| {
            let answer = TourneyRequest::run_plan(plan, &control(stop))?;
            if format != Format::Json {
                return picture::tourney_file(&answer.tourney, format);
            }
            let extra = [
                ("algorithm", json!(request.algorithm)),
                ("seed", json!(request.seed)),
            ];
            tourney_file(&answer.tourney, &extra).map(File::json)
        })
        .await?;
    Ok(file.into_response())
}

/// The board of a tour or tourney file's text, within `cap` squares.
fn cover_board(text: &str, cap: usize, endpoint: &str) -> Result<Board, ApiError> {
    capped(format::read(text)?.board(), cap, endpoint)
}

/// `POST /api/join?steps=true`: the library's [`JoinRequest`] as the JSON
/// body (`{"cover", "seed"}`); with `steps`, every rail switched on the way
/// (boards up to 24x24) before the library's join finishes the rest.
async fn join(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let [steps] = own_query(&uri, ["steps"])?;
    let steps = steps.is_some_and(|t| t == "true" || t == "1");
    let request: JoinRequest = read_json(body)?;
    let mut plan = request.plan()?;
    let cap = state.config.max_tourney_squares;
    let board = capped(plan.cover.board(), cap, "/api/join")?;
    let value = state
        .sized(board.squares(), false, move |stop| {
            let mut switched = Vec::new();
            if steps && board.squares() <= 576 {
                switched = join_steps(&mut plan.cover)?;
                if !switched.is_empty() {
                    // The library joins what is left as the tourney it now is.
                    plan.cover = Cover::from_tourney(&plan.cover.to_tourney()?)?;
                    plan.start = None;
                }
            }
            let answer = JoinRequest::run_plan(plan, &control(stop))?;
            let mut v = json!(answer);
            v["tour"] = tour_value(&answer.tour.tour)?;
            if steps {
                v["steps"] = Value::Array(switched);
            }
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

/// `POST /api/shatter`: the library's [`ShatterRequest`] as the JSON body
/// (`{"cover", "seed"}`), answered as the tourney file with its rails,
/// `rails_switched` and the move statistics.
async fn shatter(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    own_query(&uri, [])?;
    let request: ShatterRequest = read_json(body)?;
    let plan = request.plan()?;
    let cap = state.config.max_tourney_squares;
    let board = capped(plan.cover.board(), cap, "/api/shatter")?;
    let text = state
        .sized(board.squares(), true, move |stop| {
            let answer = ShatterRequest::run_plan(plan, &control(stop))?;
            let tourney = &answer.tourney.tourney;
            let extra = [
                ("rails_switched", json!(answer.rails_switched)),
                ("stats", counts_value(&MoveCounts::of_tourney(tourney))),
            ];
            tourney_file(tourney, &extra)
        })
        .await?;
    Ok(json_text(text))
}

/// `POST /api/obfuscate`: the library's [`ObfuscateRequest`] as the JSON
/// body (`{"cover", "seed", "shatters"}`), answered as the tour file with
/// the move statistics.
async fn obfuscate(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    own_query(&uri, [])?;
    let request: ObfuscateRequest = read_json(body)?;
    let plan = request.plan()?;
    let cap = state.config.max_tourney_squares;
    let board = capped(plan.cover.cover.board(), cap, "/api/obfuscate")?;
    let value = state
        .sized(board.squares(), false, move |stop| {
            let answer = ObfuscateRequest::run_plan(plan, &control(stop))?;
            let tour = &answer.tour.tour;
            let mut v = tour_value(tour)?;
            v["stats"] = counts_value(&MoveCounts::of_tour(tour));
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

/// `POST /api/stats`: move and relative-move counts of one tour or tourney,
/// whose file is the body.
async fn stats(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    own_query(&uri, [])?;
    let body = body?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad("the request body is not UTF-8 text"))?;
    cover_board(text, state.config.max_tourney_squares, "/api/stats")?;
    Ok(Json(counts_value(
        &match format::read(text)?.into_checked()? {
            Checked::Tour(t) => MoveCounts::of_tour(&t),
            Checked::Tourney(t) => MoveCounts::of_tourney(&t),
        },
    )))
}

/// `POST /api/check`: the library's [`CheckRequest`] as the JSON body
/// (`{"text"}`) and its verdict; a file that is no tour or tourney is 422.
async fn check(
    State(state): State<AppState>,
    uri: Uri,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    own_query(&uri, [])?;
    let request: CheckRequest = read_json(body)?;
    let plan = request.plan()?;
    capped(plan.board(), state.config.max_squares, "/api/check")?;
    let answer = CheckRequest::run_plan(plan, &Control::new())?;
    if !answer.valid {
        let status = axum::http::StatusCode::UNPROCESSABLE_ENTITY;
        return Err(ApiError::with(status, answer.verdict));
    }
    Ok(Json(answer).into_response())
}

/// `POST /api/encrypt` and `/api/decrypt`: the library's [`CipherRequest`]
/// as the JSON body (`{"key", "text", "classic"}`), answered with the text
/// and the key's tour (`rows`, `cols`, its description `spec` if it has
/// one, `squares`) for the page to draw.
async fn cipher_run(
    state: AppState,
    body: Result<Bytes, BytesRejection>,
    decrypting: bool,
) -> Result<Json<Value>, ApiError> {
    let request: CipherRequest = read_json(body)?;
    let plan = request.plan()?;
    let cap = state.config.max_tourney_squares;
    capped(plan.board(), cap, "cipher keys")?;
    let spec = plan.spec().map(|s| s.to_string());
    let value = state
        .heavy(move |stop| {
            let answer = if decrypting {
                DecryptRequest::run_plan(plan, &control(stop))?
            } else {
                EncryptRequest::run_plan(plan, &control(stop))?
            };
            let key = &answer.key;
            let board = key.board();
            let mut v = json!(answer);
            v["key"] = json!({
                "rows": board.rows(), "cols": board.cols(), "spec": spec,
                "squares": key.order().iter().map(|&s| rc(board, s)).collect::<Vec<_>>(),
            });
            Ok(v)
        })
        .await?;
    Ok(Json(value))
}

/// `POST /api/encrypt`: `{"key", "text", "classic"}` to `{"text", "key"}`.
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
