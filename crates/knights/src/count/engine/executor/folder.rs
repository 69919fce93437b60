//! The files a count makes under its work directory, reached through an
//! open handle of their folder and never through a link: the work
//! directory may be shared with other users (`/tmp/knights-count`), who
//! could plant a link where a count's file or run folder is about to be
//! (its name is predictable) and so have the count write, or remove, a
//! file of theirs choosing.
//!
//! The work directory itself may be a link (to a larger disk). Under it a
//! file is created exclusively (`O_CREAT | O_EXCL`, which never follows a
//! link) after removing what had its name (the link itself, not what it
//! points to), opened with `O_NOFOLLOW`, renamed and removed relative to
//! the folder's handle (`openat`, `renameat`, `unlinkat`), so a folder
//! swapped for a link after it was checked is not followed either. A run
//! folder is made by the count (mode 0700) and, read back, must be a
//! folder of this user, not a link. The calls come from `nix`, already a
//! dependency of the library for `statvfs`: safe wrappers of the system
//! calls, where the workspace forbids unsafe code. Systems without them
//! (not Unix) use the paths, checked as far as the standard library goes.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::Error;

/// A folder of the count, open: its handle and its path (for messages).
pub(crate) struct Folder {
    #[cfg_attr(not(unix), allow(dead_code))]
    handle: File,
    path: PathBuf,
}

/// What a name in a folder is, not following a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Missing,
    File,
    Folder,
    /// A link, a device, a pipe or a socket.
    Other,
}

impl Folder {
    /// Opens the work directory `path` (which may be a link).
    pub fn open(path: &Path) -> io::Result<Folder> {
        Ok(Folder {
            handle: sys::open_dir(path)?,
            path: path.to_path_buf(),
        })
    }

    /// The folder's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The path of `name` in the folder (for messages and the code that
    /// reads a run's files by path).
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// What `name` is in the folder.
    pub fn kind(&self, name: &str) -> Kind {
        sys::kind(self, name)
    }

    /// The folder `name` in this one, which the count made: `None` if
    /// there is nothing of that name; an error if it is a link, not a
    /// folder, or another user's.
    pub fn sub(&self, name: &str) -> Result<Option<Folder>, Error> {
        let path = self.join(name);
        match sys::open_sub(self, name) {
            Ok(handle) => {
                if !sys::is_mine(&handle) {
                    return Err(not_made_here(&path, "another user's folder"));
                }
                Ok(Some(Folder { handle, path }))
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(_) if self.kind(name) != Kind::Folder => {
                Err(not_made_here(&path, "a link or other than a folder"))
            }
            Err(e) => Err(super::io_error("open", &path, e)),
        }
    }

    /// Makes the folder `name` in this one (readable by this user only)
    /// and opens it; an error if the name is taken.
    pub fn make_sub(&self, name: &str) -> Result<Folder, Error> {
        let path = self.join(name);
        sys::make_dir(self, name).map_err(|e| super::io_error("create", &path, e))?;
        self.sub(name)?
            .ok_or_else(|| Error::Internal(format!("{} vanished", path.display()).into()))
    }

    /// Creates the file `name` (replacing what had that name, never what a
    /// link there points to), for writing.
    pub fn create(&self, name: &str) -> io::Result<File> {
        match sys::unlink(self, name) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
        sys::create_new(self, name)
    }

    /// Opens the regular file `name` for reading, not through a link (a
    /// link, a pipe or a device is refused with `InvalidInput`).
    pub fn read(&self, name: &str) -> io::Result<File> {
        sys::open_file(self, name, false)
    }

    /// Opens, creating it if need be, the lock file `name` (a regular
    /// file, not a link).
    pub fn lock_file(&self, name: &str) -> io::Result<File> {
        sys::open_file(self, name, true)
    }

    /// Removes the file `name` (a link: the link itself).
    pub fn remove(&self, name: &str) -> io::Result<()> {
        sys::unlink(self, name)
    }

    /// Writes `bytes` to `name` whole or not at all: a temporary file of
    /// its own, synced, then renamed over it.
    pub fn write_atomic(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        let tmp = format!("{name}.tmp");
        let mut f = self.create(&tmp)?;
        f.write_all(bytes).and_then(|()| f.sync_all())?;
        sys::rename(self, &tmp, name)
    }

    /// Renames `from` to `to` in the folder (what is at `to` replaced).
    pub fn rename(&self, from: &str, to: &str) -> io::Result<()> {
        sys::rename(self, from, to)
    }

    /// The names in the folder (those that are not UTF-8 left out: a
    /// count names its files in ASCII).
    pub fn names(&self) -> io::Result<Vec<String>> {
        sys::names(self)
    }

    /// Removes the folder `name`, which the count made, and the files in
    /// it (a run's folder holds files only); nothing if it is missing.
    pub fn remove_sub(&self, name: &str) -> Result<(), Error> {
        let Some(sub) = self.sub(name)? else {
            return Ok(());
        };
        let clear = |e| super::io_error("clear", &sub.path, e);
        for entry in sub.names().map_err(clear)? {
            sub.remove(&entry).map_err(clear)?;
        }
        sys::remove_dir(self, name).map_err(clear)
    }
}

fn not_made_here(path: &Path, what: &str) -> Error {
    Error::Parse(format!(
        "{} is {what}, not a folder this count made; knights neither writes nor removes anything there (remove or rename it, or give another work directory)",
        path.display()
    ).into())
}

#[cfg(unix)]
mod sys {
    use std::fs::File;
    use std::io;
    use std::os::unix::fs::MetadataExt;
    use std::path::Path;

    use nix::errno::Errno;
    use nix::fcntl::{openat, renameat, AtFlags, OFlag};
    use nix::sys::stat::{fstatat, mkdirat, Mode, SFlag};
    use nix::unistd::{unlinkat, UnlinkatFlags};

    use super::{Folder, Kind};

    fn err(e: Errno) -> io::Error {
        io::Error::from_raw_os_error(e as i32)
    }

    pub fn open_dir(path: &Path) -> io::Result<File> {
        let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_CLOEXEC;
        nix::fcntl::open(path, flags, Mode::empty())
            .map(File::from)
            .map_err(err)
    }

    pub fn open_sub(f: &Folder, name: &str) -> io::Result<File> {
        let flags = OFlag::O_RDONLY | OFlag::O_DIRECTORY | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        openat(&f.handle, name, flags, Mode::empty())
            .map(File::from)
            .map_err(err)
    }

    pub fn is_mine(handle: &File) -> bool {
        handle
            .metadata()
            .is_ok_and(|m| m.uid() == nix::unistd::geteuid().as_raw())
    }

    pub fn kind(f: &Folder, name: &str) -> Kind {
        match fstatat(&f.handle, name, AtFlags::AT_SYMLINK_NOFOLLOW) {
            Err(_) => Kind::Missing,
            Ok(st) => match SFlag::from_bits_truncate(st.st_mode) & SFlag::S_IFMT {
                SFlag::S_IFREG => Kind::File,
                SFlag::S_IFDIR => Kind::Folder,
                _ => Kind::Other,
            },
        }
    }

    pub fn make_dir(f: &Folder, name: &str) -> io::Result<()> {
        mkdirat(&f.handle, name, Mode::S_IRWXU).map_err(err)
    }

    pub fn create_new(f: &Folder, name: &str) -> io::Result<File> {
        let flags =
            OFlag::O_WRONLY | OFlag::O_CREAT | OFlag::O_EXCL | OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC;
        openat(&f.handle, name, flags, Mode::from_bits_truncate(0o644))
            .map(File::from)
            .map_err(err)
    }

    pub fn open_file(f: &Folder, name: &str, lock: bool) -> io::Result<File> {
        // Non-blocking, so that a pipe planted there does not hang the
        // open; it is then refused as not a regular file.
        let mut flags = OFlag::O_NOFOLLOW | OFlag::O_CLOEXEC | OFlag::O_NONBLOCK;
        flags |= match lock {
            true => OFlag::O_RDWR | OFlag::O_CREAT,
            false => OFlag::O_RDONLY,
        };
        let file = openat(&f.handle, name, flags, Mode::from_bits_truncate(0o644))
            .map(File::from)
            .map_err(|e| match e {
                Errno::ELOOP => io::Error::new(io::ErrorKind::InvalidInput, "it is a link"),
                e => err(e),
            })?;
        if !file.metadata()?.file_type().is_file() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is not a regular file",
            ));
        }
        // Back to blocking reads (a regular file never blocks anyway).
        nix::fcntl::fcntl(&file, nix::fcntl::FcntlArg::F_SETFL(OFlag::empty())).map_err(err)?;
        Ok(file)
    }

    pub fn unlink(f: &Folder, name: &str) -> io::Result<()> {
        unlinkat(&f.handle, name, UnlinkatFlags::NoRemoveDir).map_err(err)
    }

    pub fn remove_dir(f: &Folder, name: &str) -> io::Result<()> {
        unlinkat(&f.handle, name, UnlinkatFlags::RemoveDir).map_err(err)
    }

    pub fn rename(f: &Folder, from: &str, to: &str) -> io::Result<()> {
        renameat(&f.handle, from, &f.handle, to).map_err(err)
    }

    pub fn names(f: &Folder) -> io::Result<Vec<String>> {
        let handle = f.handle.try_clone()?;
        let mut dir = nix::dir::Dir::from_fd(handle.into()).map_err(err)?;
        let mut names = Vec::new();
        for entry in dir.iter() {
            let entry = entry.map_err(err)?;
            if let Ok(name) = entry.file_name().to_str() {
                if name != "." && name != ".." {
                    names.push(name.to_string());
                }
            }
        }
        Ok(names)
    }
}

#[cfg(not(unix))]
mod sys {
    use std::fs::{self, File};
    use std::io;
    use std::path::Path;

    use super::{Folder, Kind};

    pub fn open_dir(path: &Path) -> io::Result<File> {
        if !path.is_dir() {
            return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder"));
        }
        File::open(path)
    }

    pub fn open_sub(f: &Folder, name: &str) -> io::Result<File> {
        let path = f.join(name);
        let meta = fs::symlink_metadata(&path)?;
        if !meta.is_dir() {
            return Err(io::Error::new(io::ErrorKind::NotADirectory, "not a folder"));
        }
        File::open(path)
    }

    pub fn is_mine(_: &File) -> bool {
        true
    }

    pub fn kind(f: &Folder, name: &str) -> Kind {
        match fs::symlink_metadata(f.join(name)) {
            Err(_) => Kind::Missing,
            Ok(m) if m.is_file() => Kind::File,
            Ok(m) if m.is_dir() => Kind::Folder,
            Ok(_) => Kind::Other,
        }
    }

    pub fn make_dir(f: &Folder, name: &str) -> io::Result<()> {
        fs::create_dir(f.join(name))
    }

    pub fn create_new(f: &Folder, name: &str) -> io::Result<File> {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(f.join(name))
    }

    pub fn open_file(f: &Folder, name: &str, lock: bool) -> io::Result<File> {
        if !matches!(kind(f, name), Kind::File) && !(lock && kind(f, name) == Kind::Missing) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "it is not a regular file",
            ));
        }
        fs::OpenOptions::new()
            .read(true)
            .write(lock)
            .create(lock)
            .truncate(false)
            .open(f.join(name))
    }

    pub fn unlink(f: &Folder, name: &str) -> io::Result<()> {
        fs::remove_file(f.join(name))
    }

    pub fn remove_dir(f: &Folder, name: &str) -> io::Result<()> {
        fs::remove_dir(f.join(name))
    }

    pub fn rename(f: &Folder, from: &str, to: &str) -> io::Result<()> {
        fs::rename(f.join(from), f.join(to))
    }

    pub fn names(f: &Folder) -> io::Result<Vec<String>> {
        Ok(fs::read_dir(&f.path)?
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(str::to_string))
            .collect())
    }
}
