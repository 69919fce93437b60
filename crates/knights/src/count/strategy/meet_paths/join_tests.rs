//! Tests of a meet's join streamed from a part's final layer in the work
//! directory, and of its checkpoint: stopped inside the join, a count
//! resumes after the last part it recorded.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::*;
use crate::count::{CountOptions, FrontierProgress};

/// 7x6 open: 389,969,466 undirected (OEIS A165134's table of open tours;
/// the test data's `[open]`).
const OPEN_7X6: u128 = 389_969_466;

fn work_dir(name: &str) -> PathBuf {
    let work = std::env::temp_dir().join(format!("knights-join-{name}-{}", std::process::id()));
    executor::prepare_work_dir(&work, false, true).unwrap();
    work
}

/// The manifests of the runs in the work directory, as text.
fn manifests(work: &Path) -> Vec<(PathBuf, String)> {
    std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.path().join("checkpoint.json"))
        .filter(|m| m.exists())
        .map(|m| {
            let text = std::fs::read_to_string(&m).unwrap();
            (m, text)
        })
        .collect()
}

/// 7x6 cut by rows with its states on disk (a work directory, a memory
/// bound of 3 MiB), stopped where the join reports part `stop_at`:
/// the error, and the parts the join was in.
fn stopped_in_the_join(work: &Path, stop_at: u64, resume: bool) -> (Error, u64) {
    let count = CountOptions {
        max_memory: Some(3 << 20),
        work_dir: Some(work.to_path_buf()),
        resume,
        ..CountOptions::default()
    };
    let stop = crate::StopFlag::new();
    let parts = AtomicU64::new(0);
    let raise = |p: &FrontierProgress| {
        if let Some(j) = p.joining {
            parts.store(j.parts, Ordering::Relaxed);
            if j.part == stop_at {
                stop.stop();
            }
        }
    };
    let opts = RunOptions {
        count: &count,
        stop: Some(&stop),
        progress: Some(&raise),
        ..RunOptions::default()
    };
    let Err(err) = open_tours_by_rows(7, 6, &opts) else {
        panic!("the count was not stopped in its join");
    };
    (err, parts.into_inner())
}

/// The count of 7x6 in `work` (resumed from its checkpoint, or afresh),
/// and the parts its join took.
fn joined(work: &Path, resume: bool) -> (u128, u64) {
    let count = CountOptions {
        max_memory: Some(3 << 20),
        work_dir: Some(work.to_path_buf()),
        resume,
        ..CountOptions::default()
    };
    let parts = AtomicU64::new(0);
    let watch = |p: &FrontierProgress| {
        if let Some(j) = p.joining {
            parts.fetch_max(j.part, Ordering::Relaxed);
        }
    };
    let opts = RunOptions {
        count: &count,
        progress: Some(&watch),
        ..RunOptions::default()
    };
    let run = open_tours_by_rows(7, 6, &opts).unwrap();
    (run.count.to_u128().unwrap(), parts.into_inner())
}

fn resumed(work: &Path) -> (u128, u64) {
    joined(work, true)
}

/// Stopped inside the join after its first part, the count records that
/// part in the bottom part's manifest (format 6) and, resumed, joins only
/// the parts left and gets the count of an uninterrupted run.
#[test]
fn a_join_stopped_after_a_part_resumes_after_it() {
    let work = work_dir("stop");
    let (err, parts) = stopped_in_the_join(&work, 2, false);
    assert!(matches!(err, Error::Interrupted(_)), "{err}");
    assert!(err.to_string().contains("joined"), "{err}");
    assert!(parts >= 3, "{parts} parts");
    let recorded: Vec<_> = manifests(&work)
        .into_iter()
        .filter(|(_, text)| text.contains("\"join\""))
        .collect();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert!(recorded[0].1.contains("\"version\":6"), "{}", recorded[0].1);
    let (count, left) = resumed(&work);
    assert_eq!(count, OPEN_7X6);
    let fresh = work_dir("fresh");
    let (again, all) = joined(&fresh, false);
    assert_eq!(again, OPEN_7X6);
    // The parts done before the stop are not joined again.
    assert!(left < all, "{left} parts resumed of {all}");
    std::fs::remove_dir_all(&work).unwrap();
    std::fs::remove_dir_all(&fresh).unwrap();
}

/// A finished part's checkpoint of format 5 (before the join was
/// recorded) resumes: its join starts from the first part.
#[test]
fn a_checkpoint_of_format_5_resumes_its_join_from_the_start() {
    let work = work_dir("v5");
    let (err, parts) = stopped_in_the_join(&work, 1, false);
    assert!(matches!(err, Error::Interrupted(_)), "{err}");
    let found = manifests(&work);
    assert_eq!(found.len(), 2);
    for (path, text) in found {
        assert!(!text.contains("\"join\""), "{text}");
        let at = text.find("\"checksum\":").unwrap();
        let unsealed =
            format!("{}\"checksum\":0}}", &text[..at]).replace("\"version\":6", "\"version\":5");
        let checksum = crc32fast::hash(unsealed.as_bytes());
        let old = unsealed.replace("\"checksum\":0}", &format!("\"checksum\":{checksum}}}"));
        std::fs::write(&path, old).unwrap();
    }
    // The parts a table is built in follow the memory its held states
    // take, which may differ between a run and its resumption: the join
    // has at least two, since the first run was stopped in its second.
    let (count, again) = resumed(&work);
    assert_eq!(count, OPEN_7X6);
    assert!(parts >= 2 && again >= 2, "{parts} then {again} parts");
    std::fs::remove_dir_all(&work).unwrap();
}

/// A join recorded in a manifest of format 5, which has none, is refused
/// as edited.
#[test]
fn a_join_in_a_checkpoint_of_format_5_is_refused() {
    let work = work_dir("v5-join");
    stopped_in_the_join(&work, 2, false);
    let (path, text) = manifests(&work)
        .into_iter()
        .find(|(_, text)| text.contains("\"join\""))
        .unwrap();
    let at = text.find("\"checksum\":").unwrap();
    let unsealed =
        format!("{}\"checksum\":0}}", &text[..at]).replace("\"version\":6", "\"version\":5");
    let checksum = crc32fast::hash(unsealed.as_bytes());
    std::fs::write(
        &path,
        unsealed.replace("\"checksum\":0}", &format!("\"checksum\":{checksum}}}")),
    )
    .unwrap();
    let (err, _) = stopped_in_the_join(&work, u64::MAX, true);
    assert!(err.to_string().contains("format 5"), "{err}");
    std::fs::remove_dir_all(&work).unwrap();
}

/// Streamed from the final layer in a work directory, the meets of even
/// rows (the lower part the top upside down) and across a separator
/// count as they do in memory (6x6 open: 3,318,960 undirected).
#[test]
fn streamed_joins_count_as_in_memory() {
    let work = work_dir("kinds");
    let count = CountOptions {
        max_memory: Some(3 << 20),
        work_dir: Some(work.to_path_buf()),
        ..CountOptions::default()
    };
    let opts = RunOptions {
        count: &count,
        ..RunOptions::default()
    };
    let shared = open_tours_by_rows(6, 6, &opts).unwrap();
    assert_eq!(shared.count.to_u128(), Some(3_318_960));
    let plan = Plan::find(6, 6).unwrap();
    let across = open_tours_across(&plan, &opts).unwrap();
    assert_eq!(across.count.to_u128(), Some(3_318_960));
    std::fs::remove_dir_all(&work).unwrap();
}
