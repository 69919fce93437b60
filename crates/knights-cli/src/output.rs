//! Every byte the command writes goes through here, and no write can panic.
//!
//! - Standard output: [`out!`](crate::out) and [`outln!`](crate::outln) return a
//!   `Result`; a closed pipe comes back as the `BrokenPipe` error, which `main`
//!   turns into a quiet exit 0, and any other failure (a full disk) as a
//!   one-line error, exit 2.
//! - Standard error: [`warn!`](crate::warn) ignores failures (there is nowhere
//!   left to report them).
//! - Files: [`Output::create`] writes a regular file whole or not at all. It
//!   writes a temporary file in the target's folder (the folder of a symbolic
//!   link's target) and renames it over the target in [`Output::finish`]; an
//!   error, an early return or Ctrl-C leaves the target as it was and no
//!   temporary file behind. A dangling link is written through: its target
//!   is made. A target that is not a regular file (`/dev/stdout`,
//!   a FIFO) is written directly.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use anyhow::Result;
use knights::StopFlag;

/// Writes `format!` text to standard output; a `Result`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::stdout(format_args!($($arg)*), false) };
}

/// Writes `format!` text and a line break to standard output; a `Result`.
#[macro_export]
macro_rules! outln {
    () => { $crate::output::stdout(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::output::stdout(format_args!($($arg)*), true) };
}

/// Writes `format!` text and a line break to standard error, ignoring failures.
#[macro_export]
macro_rules! warn {
    ($($arg:tt)*) => { $crate::output::stderr(format_args!($($arg)*)) };
}

/// Writes to standard output (see [`out!`](crate::out)).
pub fn stdout(args: fmt::Arguments<'_>, newline: bool) -> Result<()> {
    let mut o = io::stdout().lock();
    o.write_fmt(args)
        .and_then(|()| if newline { o.write_all(b"\n") } else { Ok(()) })
        .and_then(|()| o.flush())
        .map_err(|e| write_error(e, None))
}

/// Writes a line to standard error, ignoring failures.
pub fn stderr(args: fmt::Arguments<'_>) {
    let mut e = io::stderr().lock();
    let _ = e.write_fmt(args).and_then(|()| e.write_all(b"\n"));
}

/// A write error for the user: a closed pipe stays an `io::Error` (a quiet
/// exit), anything else becomes the library's I/O error (exit 74).
fn write_error(e: io::Error, path: Option<&Path>) -> anyhow::Error {
    if e.kind() == io::ErrorKind::BrokenPipe {
        return e.into();
    }
    let target = match path {
        Some(p) => format!("'{}'", p.display()),
        None => "the output".into(),
    };
    knights::Error::io(format!("write {target}"), e).into()
}

/// Temporary files being written, removed by Ctrl-C.
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
/// The stop flag of a command that stops gracefully on the first Ctrl-C.
static STOP: OnceLock<StopFlag> = OnceLock::new();

/// Installs the one Ctrl-C handler: the first Ctrl-C raises the stop flag of
/// a command that asked for one ([`stop_on_ctrl_c`]); otherwise (or on a
/// second Ctrl-C) it removes the temporary files and ends the process with
/// status 130.
pub fn install_ctrl_c() {
    // Failing to install the handler only means Ctrl-C ends the process at
    // once, which can leave a temporary file (never a half-written target).
    let _ = ctrlc::set_handler(|| {
        if let Some(flag) = STOP.get() {
            if !flag.is_stopped() {
                flag.stop();
                return;
            }
        }
        let temps = TEMPS.lock().unwrap_or_else(|p| p.into_inner());
        for path in temps.iter() {
            let _ = fs::remove_file(path);
        }
        // Exit while holding the lock, so no rename can follow.
        std::process::exit(130);
    });
}

/// A stop flag raised by the first Ctrl-C; a second Ctrl-C ends the process.
pub fn stop_on_ctrl_c() -> StopFlag {
    STOP.get_or_init(StopFlag::new).clone()
}

/// Where output goes: standard output, a file written directly, or a
/// temporary file renamed over its target when complete.
pub struct Output {
    sink: Sink,
    path: Option<PathBuf>,
}

enum Sink {
    Done,
    Stdout(BufWriter<io::StdoutLock<'static>>),
    Direct(BufWriter<File>),
    Atomic {
        file: BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
}

impl Output {
    /// Standard output when `path` is `None` or `-`, else the file.
    pub fn create(path: Option<&Path>) -> Result<Output> {
        let Some(p) = path.filter(|p| p.as_os_str() != "-") else {
            return Ok(Output {
                sink: Sink::Stdout(BufWriter::with_capacity(1 << 16, io::stdout().lock())),
                path: None,
            });
        };
        let cannot = |e: io::Error| knights::Error::io(format!("create '{}'", p.display()), e);
        // Follow symbolic links: the rename replaces the link's target.
        let target = link_target(p).map_err(cannot)?;
        let regular = match fs::metadata(&target) {
            Ok(m) => m.is_file(),
            Err(e) if e.kind() == io::ErrorKind::NotFound => true,
            Err(e) => return Err(cannot(e).into()),
        };
        let sink = if regular {
            let dir = match target.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            let name = target
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let mut temps = TEMPS.lock().unwrap_or_else(|p| p.into_inner());
            let tmp = tempfile::Builder::new()
                .prefix(&format!(".{name}."))
                .suffix(".tmp")
                .tempfile_in(&dir)
                .map_err(cannot)?;
            temps.push(tmp.path().to_path_buf());
            Sink::Atomic {
                file: BufWriter::with_capacity(1 << 20, tmp),
                target,
            }
        } else {
            Sink::Direct(BufWriter::with_capacity(
                1 << 16,
                File::create(&target).map_err(cannot)?,
            ))
        };
        Ok(Output {
            sink,
            path: Some(p.to_path_buf()),
        })
    }

    /// Flushes and, for a file written through a temporary one, renames it
    /// over the target. Dropping an `Output` without `finish` leaves the
    /// target as it was.
    pub fn finish(mut self) -> Result<()> {
        let path = self.path.clone();
        let err = |e: io::Error| write_error(e, path.as_deref());
        self.flush().map_err(err)?;
        match std::mem::replace(&mut self.sink, Sink::Done) {
            Sink::Done | Sink::Stdout(_) | Sink::Direct(_) => Ok(()),
            Sink::Atomic { file, target } => {
                let tmp = file.into_inner().map_err(|e| err(e.into_error()))?;
                let tmp_path = tmp.path().to_path_buf();
                let mut temps = TEMPS.lock().unwrap_or_else(|p| p.into_inner());
                // An existing file keeps its permissions, a new one gets the usual ones.
                match fs::metadata(&target) {
                    Ok(m) => {
                        let _ = fs::set_permissions(&tmp_path, m.permissions());
                    }
                    Err(_) => set_default_permissions(&tmp_path),
                }
                let done = tmp.persist(&target).map_err(|e| err(e.error));
                temps.retain(|t| *t != tmp_path);
                done.map(|_| ())
            }
        }
    }
}

/// Where a write to `path` lands: the path itself, or for a symbolic link
/// its final target, also when that target does not exist yet (a dangling
/// link is written through, never replaced by a file).
fn link_target(path: &Path) -> io::Result<PathBuf> {
    if let Ok(real) = fs::canonicalize(path) {
        return Ok(real);
    }
    if fs::metadata(path).is_ok() {
        // Something without a path of its own, such as the pipe behind /dev/stdout.
        return Ok(path.to_path_buf());
    }
    let mut target = path.to_path_buf();
    // The limit of links Linux follows in one path.
    for _ in 0..40 {
        match fs::symlink_metadata(&target) {
            Ok(m) if m.file_type().is_symlink() => {
                let next = fs::read_link(&target)?;
                target = match target.parent() {
                    Some(dir) => dir.join(next),
                    None => next,
                };
            }
            _ => return Ok(target),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Read and write for everyone the umask allows (tempfile creates 0600).
#[cfg(unix)]
fn set_default_permissions(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_default_permissions(_: &Path) {}

impl Drop for Output {
    fn drop(&mut self) {
        if let Sink::Atomic { file, .. } = std::mem::replace(&mut self.sink, Sink::Done) {
            let path = file.get_ref().path().to_path_buf();
            // Removes the temporary file (tempfile's drop), then forgets it.
            drop(file);
            let mut temps = TEMPS.lock().unwrap_or_else(|p| p.into_inner());
            temps.retain(|t| *t != path);
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write(buf),
            Sink::Direct(w) => w.write(buf),
            Sink::Atomic { file, .. } => file.write(buf),
            Sink::Done => Ok(buf.len()),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.write_all(buf),
            Sink::Direct(w) => w.write_all(buf),
            Sink::Atomic { file, .. } => file.write_all(buf),
            Sink::Done => Ok(()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => w.flush(),
            Sink::Direct(w) => w.flush(),
            Sink::Atomic { file, .. } => file.flush(),
            Sink::Done => Ok(()),
        }
    }
}

/// Writes a displayable value to `path` (standard output for `None` or `-`), whole.
pub fn emit(path: Option<&Path>, value: &dyn fmt::Display) -> Result<()> {
    let mut w = Output::create(path)?;
    if let Err(e) = write!(w, "{value}") {
        return Err(write_error(e, path));
    }
    w.finish()
}

/// Writes bytes (a PNG or GIF) to `path` (standard output for `None` or
/// `-`), whole: made in full before the first byte is written, and a file
/// written through a temporary one as [`emit`] writes text.
pub fn emit_bytes(path: Option<&Path>, bytes: &[u8]) -> Result<()> {
    let mut w = Output::create(path)?;
    if let Err(e) = w.write_all(bytes) {
        return Err(write_error(e, path));
    }
    w.finish()
}

/// Whether `path` means standard output and that is a terminal, where
/// binary output (a PNG or GIF) would garble the screen.
pub fn is_terminal(path: Option<&Path>) -> bool {
    use std::io::IsTerminal;
    path.is_none_or(|p| p.as_os_str() == "-") && io::stdout().is_terminal()
}

/// The extension of an output file, in lower case.
pub fn extension(path: Option<&Path>) -> Option<String> {
    path.and_then(Path::extension)
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

/// One format a command writes: its `--format` name, what it is in words,
/// and the extensions (lower case, no dot) an output file of it may have.
pub struct FormatName<F: 'static> {
    /// The format.
    pub format: F,
    /// Its `--format` name.
    pub name: &'static str,
    /// What it is, for sentences: "a numbered grid".
    pub what: &'static str,
    /// The extensions it may be written under; the first format listing an
    /// extension is the one that extension chooses without `--format`.
    pub extensions: &'static [&'static str],
}

/// The one rule for `--output FILE` and `--format`: the format asked for,
/// else the one the file's extension names, else `default` (standard
/// output, and a file name without an extension). An extension that names
/// no format of `table` (`tour.xyz`, or `stats.png`: stats draws SVG only), or
/// another format than the one asked for (`-f svg -o t.json`), is refused
/// with the names that would be right, before any work and before
/// anything is written.
pub fn choose_format<F: Copy + PartialEq>(
    path: Option<&Path>,
    asked: Option<F>,
    table: &[FormatName<F>],
    default: F,
) -> Result<F> {
    let Some(ext) = extension(path) else {
        return Ok(asked.unwrap_or(default));
    };
    let file = path.map(|p| p.display().to_string()).unwrap_or_default();
    let named = |f: F| table.iter().find(|n| n.format == f);
    let chosen = table.iter().find(|n| n.extensions.contains(&ext.as_str()));
    match (asked, chosen) {
        (Some(f), Some(_)) if named(f).is_some_and(|n| n.extensions.contains(&ext.as_str())) => {
            Ok(f)
        }
        (Some(f), Some(by_name)) => {
            let n = named(f).unwrap_or(by_name);
            let right = n.extensions.first().copied().unwrap_or("txt");
            Err(knights::Error::Unsupported(format!(
                "'{file}' ends in .{ext}, but --format {} writes {}; name the file .{right}, or leave out --format to write {}",
                n.name, n.what, by_name.what
            ).into())
            .into())
        }
        (_, Some(n)) => Ok(n.format),
        (_, None) => {
            let mut names: Vec<String> = Vec::new();
            for n in table {
                for e in n.extensions {
                    if !names.iter().any(|x| x.starts_with(&format!(".{e} "))) {
                        names.push(format!(".{e} ({})", n.what));
                    }
                }
            }
            let formats: Vec<&str> = table.iter().map(|n| n.name).collect();
            Err(knights::Error::Unsupported(format!(
                "'{file}' ends in .{ext}, but this command writes no {} files. Name the file {}, or give it no extension and choose with --format ({})",
                ext.to_uppercase(),
                or_list(&names),
                formats.join(", ")
            ).into())
            .into())
        }
    }
}

/// `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// Refuses an output file whose extension names another format than the
/// one written (`--csv plot.svg`).
pub fn expect_extension(path: Option<&Path>, format: &str) -> Result<()> {
    match extension(path).as_deref() {
        Some(e @ ("json" | "svg" | "csv" | "moves")) if e != format => {
            Err(knights::Error::Unsupported(
                format!(
                    "'{}' names a .{e} file, but this option writes {}; name it .{format}",
                    path.map(|p| p.display().to_string()).unwrap_or_default(),
                    format.to_uppercase()
                )
                .into(),
            )
            .into())
        }
        _ => Ok(()),
    }
}
