//! Files to download: the formats of `/api/tour`, `/api/tourney` and
//! `/api/picture` (SVG, animated SVG, PNG, GIF, grid, move list, beside
//! JSON), each made by the library's `knights::format` inside the
//! request's job (never on the server's own threads). Rasterising is work like any other: it
//! takes a lane by its cost (a GIF draws many frames, so it is heavy) and
//! a board over the cap of files other than JSON is refused before it
//! starts.

use axum::http::header;
use axum::response::{IntoResponse, Response};
use knights::format::{self, GifOptions, SvgOptions};
use knights::{Board, Tour, Tourney};

use super::ApiError;

/// A format of an answer: JSON, or a file to download.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// The project's JSON (docs/formats.md).
    Json,
    /// The picture as SVG.
    Svg,
    /// The picture as SVG, drawn step by step (SMIL).
    AnimatedSvg,
    /// The picture as PNG.
    Png,
    /// The tour drawn step by step, as an animated GIF.
    Gif,
    /// The numbered grid (text).
    Grid,
    /// The move list (text).
    Moves,
}

/// Every format by its name, as every door spells it.
const NAMES: [(&str, Format); 7] = [
    ("json", Format::Json),
    ("svg", Format::Svg),
    ("animated-svg", Format::AnimatedSvg),
    ("png", Format::Png),
    ("gif", Format::Gif),
    ("grid", Format::Grid),
    ("moves", Format::Moves),
];

/// The formats of `/api/tour`.
const TOUR: &[Format] = &[
    Format::Json,
    Format::Svg,
    Format::AnimatedSvg,
    Format::Png,
    Format::Gif,
    Format::Grid,
    Format::Moves,
];
/// The formats of `/api/tourney`.
const TOURNEY: &[Format] = &[Format::Json, Format::Svg, Format::AnimatedSvg, Format::Png];
/// The formats of `/api/picture`.
const PATH: &[Format] = &[Format::Png, Format::Svg];

impl Format {
    /// Its name.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(_, f)| *f == self)
            .map_or("json", |(n, _)| n)
    }

    /// The format `name` of `/api/tour` (json when none is given).
    pub fn of_tour(name: Option<&str>) -> Result<Format, ApiError> {
        Format::pick(name.unwrap_or("json"), TOUR, "/api/tour")
    }

    /// The format `name` of `/api/tourney` (json when none is given); a
    /// GIF, which draws one tour step by step, is refused with what works.
    pub fn of_tourney(name: Option<&str>) -> Result<Format, ApiError> {
        let name = name.unwrap_or("json");
        if name == "gif" {
            return Err(ApiError::bad(
                "a GIF draws one tour step by step, and a tourney is several cycles; ask /api/tourney for png, svg or animated-svg (or join the tourney into a tour first)",
            ));
        }
        Format::pick(name, TOURNEY, "/api/tourney")
    }

    /// The format `name` of `/api/picture` (png when none is given).
    pub fn of_path(name: Option<&str>) -> Result<Format, ApiError> {
        Format::pick(name.unwrap_or("png"), PATH, "/api/picture")
    }

    /// `name` among `known`, else a refusal listing them.
    fn pick(name: &str, known: &[Format], endpoint: &str) -> Result<Format, ApiError> {
        NAMES
            .iter()
            .find(|(n, f)| *n == name && known.contains(f))
            .map(|&(_, f)| f)
            .ok_or_else(|| {
                let names: Vec<&str> = known.iter().map(|f| f.name()).collect();
                let (last, rest) = names.split_last().unwrap_or((&"json", &[]));
                ApiError::bad(format!(
                    "'{}' is not a format of {endpoint}; use {} or {last}",
                    knights::excerpt(name),
                    rest.join(", ")
                ))
            })
    }

    /// Whether the work of this format on a board of `squares` squares may
    /// take the light lane (when the board is small enough for it, see
    /// [`crate::AppState::sized`]): text and SVG always; a PNG on boards
    /// of at most [`LIGHT_PNG_SQUARES`] (its pixels grow with the board,
    /// up to 4000 a side); a GIF never, since each of its frames is a
    /// picture drawn and encoded.
    pub fn is_light(self, squares: usize) -> bool {
        match self {
            Format::Gif => false,
            Format::Png => squares <= LIGHT_PNG_SQUARES,
            _ => true,
        }
    }
}

/// The most squares of a board whose PNG is light work: 32x32, 48 pixels
/// a square (1536 a side); past it a PNG has up to 16 million pixels.
pub const LIGHT_PNG_SQUARES: usize = 1024;

/// An answer's body with its content type, and its file name when it is a
/// download (sent as `Content-Disposition: attachment`).
pub struct File {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The file's name, for a download.
    pub name: Option<String>,
}

impl File {
    /// A JSON answer from text already written.
    pub fn json(text: String) -> File {
        File {
            bytes: text.into_bytes(),
            content_type: "application/json",
            name: None,
        }
    }

    /// A file named `stem` and the format's extension.
    pub fn download(bytes: Vec<u8>, format: Format, stem: &str) -> File {
        let (content_type, extension) = match format {
            Format::Svg => ("image/svg+xml", ".svg"),
            Format::AnimatedSvg => ("image/svg+xml", "-animated.svg"),
            Format::Png => ("image/png", ".png"),
            Format::Gif => ("image/gif", ".gif"),
            Format::Grid => ("text/plain; charset=utf-8", ".txt"),
            Format::Moves => ("text/plain; charset=utf-8", ".moves"),
            Format::Json => ("application/json", ".json"),
        };
        File {
            bytes,
            content_type,
            name: Some(format!("{stem}{extension}")),
        }
    }
}

impl IntoResponse for File {
    fn into_response(self) -> Response {
        let mut response =
            ([(header::CONTENT_TYPE, self.content_type)], self.bytes).into_response();
        if let Some(name) = self.name {
            if let Ok(value) = format!("attachment; filename=\"{name}\"").parse() {
                response
                    .headers_mut()
                    .insert(header::CONTENT_DISPOSITION, value);
            }
        }
        response
    }
}

/// The stem of a file's name: `tour-8x8`.
pub fn stem(what: &str, board: Board) -> String {
    format!("{what}-{}x{}", board.rows(), board.cols())
}

fn animated(format: Format) -> SvgOptions {
    SvgOptions {
        animate: format == Format::AnimatedSvg,
        ..SvgOptions::default()
    }
}

/// The tour as the file `format` asks for (any but JSON).
pub fn tour_file(tour: &Tour, format: Format) -> knights::Result<File> {
    let bytes = match format {
        Format::Json => format::tour_json(tour).to_string().into_bytes(),
        Format::Svg | Format::AnimatedSvg => format::tour_svg(tour, animated(format))
            .to_string()
            .into_bytes(),
        Format::Png => format::tour_png(tour, SvgOptions::default())?,
        Format::Gif => format::tour_gif(tour, &GifOptions::default())?,
        Format::Grid => format::grid(tour, 0).to_string().into_bytes(),
        Format::Moves => format::move_list(tour).to_string().into_bytes(),
    };
    Ok(File::download(bytes, format, &stem("tour", tour.board())))
}

/// The tourney as the file `format` asks for (one of [`Format::of_tourney`]'s;
/// any other is drawn as SVG).
pub fn tourney_file(tourney: &Tourney, format: Format) -> knights::Result<File> {
    let bytes = match format {
        Format::Png => format::tourney_png(tourney, SvgOptions::default())?,
        Format::Json => format::tourney_json(tourney).to_string().into_bytes(),
        _ => format::tourney_svg(tourney, animated(format))
            .to_string()
            .into_bytes(),
    };
    Ok(File::download(
        bytes,
        format,
        &stem("tourney", tourney.board()),
    ))
}
