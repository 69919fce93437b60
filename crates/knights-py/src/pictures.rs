//! Pictures and files of tours and tourneys: PNG and GIF bytes (the
//! library's `raster` feature) and `save`, which writes any format to a
//! file whole or not at all, the format chosen from the file's extension
//! by the command line's rule (`knights tour -o t.png`).

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::convert::bad_input;
use crate::memory::ensure_text_fits;
use crate::run::{run_watched, Watch};
use knights::format::{self, GifOptions, SvgOptions};
use knights::{Error, Tour, Tourney};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A tour or tourney to draw or save, owned so that a worker thread can
/// draw it while Python waits for Ctrl-C.
pub(crate) enum Item {
    Tour(Tour),
    Tourney(Tourney),
}

impl Item {
    fn board(&self) -> knights::Board {
        match self {
            Item::Tour(t) => t.board(),
            Item::Tourney(t) => t.board(),
        }
    }

    /// The method that saves it, for sentences.
    fn saver(&self) -> &'static str {
        match self {
            Item::Tour(_) => "Tour.save",
            Item::Tourney(_) => "Tourney.save",
        }
    }
}

/// A format `save` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Grid,
    Json,
    Moves,
    Svg,
    AnimatedSvg,
    Png,
    Gif,
}

/// A format's name, what it is in words, and the extensions it may be
/// saved under (the first format listing an extension is the one the
/// extension chooses): the command line's table.
struct Named {
    format: Format,
    name: &'static str,
    what: &'static str,
    extensions: &'static [&'static str],
}

const FORMATS: &[Named] = &[
    Named {
        format: Format::Grid,
        name: "grid",
        what: "a numbered grid",
        extensions: &["txt"],
    },
    Named {
        format: Format::Json,
        name: "json",
        what: "JSON",
        extensions: &["json", "txt"],
    },
    Named {
        format: Format::Moves,
        name: "moves",
        what: "a move list",
        extensions: &["moves", "txt"],
    },
    Named {
        format: Format::Svg,
        name: "svg",
        what: "an SVG picture",
        extensions: &["svg"],
    },
    Named {
        format: Format::AnimatedSvg,
        name: "animated-svg",
        what: "an animated SVG picture",
        extensions: &["svg"],
    },
    Named {
        format: Format::Png,
        name: "png",
        what: "a PNG picture",
        extensions: &["png"],
    },
    Named {
        format: Format::Gif,
        name: "gif",
        what: "an animated GIF",
        extensions: &["gif"],
    },
];

/// The refusal of a tourney's GIF, naming the pictures a tourney has.
const NO_TOURNEY_GIF: &str = "an animated GIF draws a tour step by step, and a tourney (a set of cycles) has no one order of steps; save the tourney as a picture with format='png' or 'svg' (a .png or .svg file)";

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The format asked for, else the one the file's extension names (in any
/// case), else the numbered grid (a tourney's is its move list, as on the
/// command line); an unknown name or extension, or an extension of another
/// format than the one asked for, is refused with the names that would do.
fn choose(path: &Path, asked: Option<&str>, saver: &str) -> Result<Format, String> {
    let named = |f: Format| FORMATS.iter().find(|n| n.format == f);
    let asked = match asked {
        None => None,
        Some(name) => match FORMATS.iter().find(|n| n.name == name) {
            Some(n) => Some(n.format),
            None => {
                let names: Vec<String> = FORMATS.iter().map(|n| format!("'{}'", n.name)).collect();
                return Err(format!(
                    "format='{}' is not a format of {saver}; give {}",
                    knights::excerpt(name),
                    or_list(&names)
                ));
            }
        },
    };
    let Some(ext) = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
    else {
        return Ok(asked.unwrap_or(Format::Grid));
    };
    let file = path.display();
    let by_extension = FORMATS
        .iter()
        .find(|n| n.extensions.contains(&ext.as_str()));
    match (asked.and_then(named), by_extension) {
        (Some(n), Some(_)) if n.extensions.contains(&ext.as_str()) => Ok(n.format),
        (Some(n), Some(by_name)) => Err(format!(
            "'{file}' ends in .{ext}, but format='{}' writes {}; name the file .{}, or leave out format to write {}",
            n.name, n.what, n.extensions[0], by_name.what
        )),
        (_, Some(n)) => Ok(n.format),
        (_, None) => {
            let mut names: Vec<String> = Vec::new();
            for n in FORMATS {
                for e in n.extensions {
                    if !names.iter().any(|x| x.starts_with(&format!(".{e} "))) {
                        names.push(format!(".{e} ({})", n.what));
                    }
                }
            }
            let formats: Vec<String> = FORMATS.iter().map(|n| format!("'{}'", n.name)).collect();
            Err(format!(
                "'{file}' ends in .{ext}, but {saver} writes no {} files. Name the file {}, or give it no extension and choose with format= ({})",
                ext.to_uppercase(),
                or_list(&names),
                formats.join(", ")
            ))
        }
    }
}

fn svg_options(animate: bool) -> SvgOptions {
    SvgOptions {
        animate,
        ..SvgOptions::default()
    }
}

/// The bytes of `item` in `format`: text as the command line writes it,
/// pictures as the library draws them.
fn render(item: &Item, format: Format) -> knights::Result<Vec<u8>> {
    let text = |s: String| Ok(s.into_bytes());
    match (item, format) {
        (Item::Tour(t), Format::Grid) => text(format::grid(t, 0).to_string()),
        (Item::Tour(t), Format::Json) => text(format!("{}\n", format::tour_json(t))),
        (Item::Tour(t), Format::Moves) => text(format::move_list(t).to_string()),
        (Item::Tour(t), f @ (Format::Svg | Format::AnimatedSvg)) => {
            text(format::tour_svg(t, svg_options(f == Format::AnimatedSvg)).to_string())
        }
        (Item::Tour(t), Format::Png) => format::tour_png(t, SvgOptions::default()),
        (Item::Tour(t), Format::Gif) => format::tour_gif(t, &GifOptions::default()),
        (Item::Tourney(t), Format::Grid | Format::Moves) => {
            text(format::tourney_move_list(t).to_string())
        }
        (Item::Tourney(t), Format::Json) => text(format!("{}\n", format::tourney_json(t))),
        (Item::Tourney(t), f @ (Format::Svg | Format::AnimatedSvg)) => {
            text(format::tourney_svg(t, svg_options(f == Format::AnimatedSvg)).to_string())
        }
        (Item::Tourney(t), Format::Png) => format::tourney_png(t, SvgOptions::default()),
        (Item::Tourney(_), Format::Gif) => Err(Error::Refused(NO_TOURNEY_GIF.into())),
    }
}

/// Draws `item` in `format` on a worker thread (Ctrl-C gives control back
/// to Python at once), after checking that its text fits in memory.
fn drawn(py: Python<'_>, item: Item, format: Format) -> PyResult<Vec<u8>> {
    if let (Item::Tourney(_), Format::Gif) = (&item, format) {
        return bad_input(py, NO_TOURNEY_GIF.into());
    }
    let what = match format {
        Format::Png | Format::Gif => "the picture",
        _ => "the text",
    };
    ensure_text_fits(what, item.board())?;
    run_watched(py, &Watch::default(), move |_| render(&item, format))
}

/// The PNG picture of `item`, as `bytes`.
pub(crate) fn png<'py>(py: Python<'py>, item: Item) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &drawn(py, item, Format::Png)?))
}

/// The animated GIF of a tour, as `bytes`.
pub(crate) fn gif<'py>(py: Python<'py>, tour: Tour) -> PyResult<Bound<'py, PyBytes>> {
    Ok(PyBytes::new(py, &drawn(py, Item::Tour(tour), Format::Gif)?))
}

/// Saves `item` to `path` in `format` (else the format its extension
/// names), whole or not at all.
pub(crate) fn save(
    py: Python<'_>,
    item: Item,
    path: PathBuf,
    format: Option<&str>,
) -> PyResult<()> {
    let format = match choose(&path, format, item.saver()) {
        Ok(f) => f,
        Err(sentence) => return bad_input(py, sentence),
    };
    let bytes = drawn(py, item, format)?;
    crate::errors::lib(py, py.detach(|| write_whole(&path, &bytes)))
}

/// Writes `bytes` to `path` whole or not at all: a regular file (or a new
/// one) through a temporary file in its folder, renamed over it when
/// complete, so that an error leaves the file as it was and no temporary
/// file behind; a symbolic link's target is replaced (a dangling link's
/// target is made, the link kept), and what is not a regular file
/// (`/dev/null`, a FIFO) is written directly: as `knights tour -o FILE`
/// writes.
pub(crate) fn write_whole(path: &Path, bytes: &[u8]) -> knights::Result<()> {
    let failed = |doing: &str, e: io::Error| Error::io(format!("{doing} '{}'", path.display()), e);
    let target = link_target(path);
    let existing = match fs::metadata(&target) {
        Ok(m) if !m.is_file() => {
            return fs::write(&target, bytes).map_err(|e| failed("write", e));
        }
        Ok(m) => Some(m.permissions()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(failed("write", e)),
    };
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(&dir)
        .map_err(|e| failed("create", e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.flush())
        .map_err(|e| failed("write", e))?;
    set_permissions(tmp.path(), existing);
    tmp.persist(&target)
        .map(|_| ())
        .map_err(|e| failed("write", e.error))
}

/// Where a write to `path` lands: the path itself, or for a symbolic link
/// its final target, also when that target does not exist yet.
fn link_target(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    if fs::metadata(path).is_ok() {
        // Something without a path of its own, such as a pipe's /dev/stdout.
        return path.to_path_buf();
    }
    let mut target = path.to_path_buf();
    // The limit of links Linux follows in one path.
    for _ in 0..40 {
        match fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => match fs::read_link(&target) {
                Ok(next) => {
                    target = match target.parent() {
                        Some(dir) => dir.join(next),
                        None => next,
                    }
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    target
}

/// The permissions of the file replaced, else those most programs give a
/// new file (`rw-r--r--`; tempfile creates `rw-------`).
#[cfg(unix)]
fn set_permissions(path: &Path, existing: Option<fs::Permissions>) {
    use std::os::unix::fs::PermissionsExt;
    let permissions = existing.unwrap_or_else(|| fs::Permissions::from_mode(0o644));
    let _ = fs::set_permissions(path, permissions);
}

#[cfg(not(unix))]
fn set_permissions(path: &Path, existing: Option<fs::Permissions>) {
    if let Some(permissions) = existing {
        let _ = fs::set_permissions(path, permissions);
    }
}
