//! A meeting stopped inside its join resumes after the last part of the
//! table it joined (issue 62): its bottom states stream from a part's
//! final layer in the work directory, and each part done is recorded in
//! that run's manifest (format 6); a manifest of format 5 resumes, or
//! holding a join (which format 5 cannot) is refused.

use std::path::{Path, PathBuf};

use super::{knights, scratch};
use predicates::str::contains;

/// 7x6 open, undirected (OEIS A165134's table of open tours; the test
/// data's `[open]`).
const OPEN_7X6: &str = "389969466\n";

/// `knights count 7x6 --open` with its states on disk: a work directory
/// and a memory bound of 3 MiB, so that the join takes many parts.
fn meet(work: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "7x6", "--open", "--quiet", "--max-memory", "3M"])
        .arg("--work-dir")
        .arg(work)
        .args(args)
        .assert()
}

/// The manifests of the runs in `work`, with their text.
fn manifests(work: &Path) -> Vec<(PathBuf, String)> {
    std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("checkpoint.json"))
        .filter(|m| m.is_file())
        .map(|m| {
            let text = std::fs::read_to_string(&m).unwrap();
            (m, text)
        })
        .collect()
}

/// Rewrites the manifest at `path` (text `text`) as format 5, sealed
/// again with its checksum (its binding is left as it was).
fn as_format_5(path: &Path, text: &str) {
    let at = text.find("\"checksum\":").unwrap();
    let unsealed =
        format!("{}\"checksum\":0}}", &text[..at]).replace("\"version\":6", "\"version\":5");
    assert!(unsealed.contains("\"version\":5"), "{text}");
    let checksum = crc32fast::hash(unsealed.as_bytes());
    let sealed = unsealed.replace("\"checksum\":0}", &format!("\"checksum\":{checksum}}}"));
    std::fs::write(path, sealed).unwrap();
}

/// Stopped after the first part of its join, the count has recorded that
/// part in a manifest, and `--resume` gives the count of an uninterrupted
/// run.
#[test]
fn a_meet_stopped_inside_its_join_resumes_to_the_same_count() {
    let work = scratch("meet-join-stop");
    meet(&work, &["--stop-in-join", "1"])
        .code(130)
        .stderr(contains("while its parts were joined"));
    let recorded: Vec<String> = manifests(&work)
        .into_iter()
        .map(|(_, text)| text)
        .filter(|text| text.contains("\"join\":{"))
        .collect();
    assert_eq!(recorded.len(), 1, "{recorded:?}");
    assert!(recorded[0].contains("\"version\":6"), "{}", recorded[0]);
    assert!(!recorded[0].contains("\"done\":0,"), "{}", recorded[0]);
    meet(&work, &["--resume"]).success().stdout(OPEN_7X6);
    let fresh = scratch("meet-join-whole");
    meet(&fresh, &[]).success().stdout(OPEN_7X6);
    for dir in [work, fresh] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// A finished part of format 5 (no join recorded) resumes, its join from
/// the first part; a manifest of format 5 that records a join is refused
/// with status 2, naming the format.
#[test]
fn a_checkpoint_of_format_5_resumes_and_one_with_a_join_is_refused() {
    let work = scratch("meet-join-v5");
    // Stopped as the join begins: no part recorded.
    meet(&work, &["--stop-in-join", "0"]).code(130);
    let found = manifests(&work);
    assert!(!found.is_empty());
    for (path, text) in &found {
        assert!(!text.contains("\"join\""), "{text}");
        as_format_5(path, text);
    }
    meet(&work, &["--resume"]).success().stdout(OPEN_7X6);
    let refused = scratch("meet-join-v5-refused");
    meet(&refused, &["--stop-in-join", "1"]).code(130);
    let (path, text) = manifests(&refused)
        .into_iter()
        .find(|(_, text)| text.contains("\"join\":{"))
        .unwrap();
    as_format_5(&path, &text);
    meet(&refused, &["--resume"])
        .code(2)
        .stderr(contains("in format 5"));
    for dir in [work, refused] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
