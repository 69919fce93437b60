//! `knights count`'s state files and checkpoints through the real binary:
//! forged, damaged or foreign files are refused, naming them.

use super::knights;
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// A count of 6x6 (forward) in `dir/work` stopped after its 10th square,
/// and the folder of its run (which holds `checkpoint.json` and the state
/// files `s10-b*.bin`).
fn stopped_count(dir: &std::path::Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let work = dir.join("work");
    knights()
        .args(["count", "6x6", "--method", "forward", "--stop-after", "10"])
        .arg("--work-dir")
        .arg(&work)
        .assert()
        .code(130)
        .stderr(contains("stopped after square 10 of"));
    let run = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("checkpoint.json").is_file())
        .expect("a checkpoint");
    (work, run)
}

/// `knights count 6x6 --method forward --work-dir WORK --resume`.
fn resume(work: &std::path::Path) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "6x6", "--method", "forward", "--resume"])
        .arg("--work-dir")
        .arg(work)
        .assert()
}

/// A manifest's text with its checksum taken again over the text with
/// the checksum 0, as the count seals it.
fn resealed(text: &str) -> String {
    let (head, rest) = text.split_once("\"checksum\":").expect("a checksum");
    let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let crc = crc32fast::hash(format!("{head}\"checksum\":0{tail}").as_bytes());
    format!("{head}\"checksum\":{crc}{tail}")
}

/// A checkpoint edited to name another file as a state file is refused
/// before that file is read or removed (it was read as states, then deleted).
#[test]
fn a_forged_state_file_name_is_refused_and_its_target_untouched() {
    let dir = super::scratch("forged-name");
    let (work, run) = stopped_count(&dir);
    let victim = dir.join("victim");
    std::fs::create_dir(&victim).unwrap();
    std::fs::write(victim.join("precious.bin"), [7u8; 32]).unwrap();
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let forged = text.replacen("s10-b0.bin", "../../victim/precious.bin", 1);
    assert_ne!(forged, text);
    // Its checksum taken again: the manifest's checksum finds damage, not
    // a forger, so the names are checked on their own.
    std::fs::write(&manifest, resealed(&forged)).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("../../victim/precious.bin").and(contains("not one this count makes")));
    assert_eq!(
        std::fs::read(victim.join("precious.bin")).unwrap(),
        [7u8; 32]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// One flipped byte in a state file (it gave a wrong count with status 0)
/// and random bytes in one (a panic) are both refused, naming the file.
#[test]
fn a_damaged_state_file_is_refused_naming_it() {
    let dir = super::scratch("damaged-state");
    let (work, run) = stopped_count(&dir);
    // The largest of the square's state files.
    let file = std::fs::read_dir(&run)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "bin"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let name = file.file_name().unwrap().to_str().unwrap().to_string();
    let mut bytes = std::fs::read(&file).unwrap();
    assert!(bytes.len() >= 16);
    bytes[3] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains(name.as_str()).and(contains("damaged")));
    // Random bytes of the same length.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let random: Vec<u8> = (0..bytes.len())
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&file, random).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains(name.as_str()).and(contains("panicked").not()));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A state file replaced by a symbolic link to another file is refused
/// (the link was followed and its target read as states), and the target
/// is left as it was.
#[cfg(unix)]
#[test]
fn a_state_file_replaced_by_a_link_is_refused_and_its_target_untouched() {
    let dir = super::scratch("linked-state");
    let (work, run) = stopped_count(&dir);
    let file = run.join("s10-b0.bin");
    let target = dir.join("precious.bin");
    // The target holds the very bytes of the state file: only the link is wrong.
    std::fs::copy(&file, &target).unwrap();
    let before = std::fs::read(&target).unwrap();
    std::fs::remove_file(&file).unwrap();
    std::os::unix::fs::symlink(&target, &file).unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("s10-b0.bin").and(contains("not a regular file")));
    assert_eq!(std::fs::read(&target).unwrap(), before);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `knights count 6x6 --method METHOD --work-dir WORK` to the end and
/// returns the file that keeps its count (`checkpoint.json` of a forward
/// run, the summary `count-meet-*.json` of a meeting).
fn finished_count(work: &std::path::Path, method: &str) -> std::path::PathBuf {
    knights()
        .args(["count", "6x6", "--method", method, "--work-dir"])
        .arg(work)
        .assert()
        .success()
        .stdout("9862\n");
    std::fs::read_dir(work)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .map(|p| {
            if p.is_dir() {
                p.join("checkpoint.json")
            } else {
                p
            }
        })
        .find(|p| p.is_file() && p.extension().is_some_and(|e| e == "json"))
        .expect("the file of a finished count")
}

/// One flipped digit of the count in a finished count's manifest or a
/// meeting's summary (the resumed count answered it with status 0) is
/// refused with status 2, naming the file.
#[test]
fn a_flipped_digit_in_a_count_file_is_refused_naming_it() {
    for method in ["forward", "meet"] {
        let dir = super::scratch(&format!("flipped-{method}"));
        let file = finished_count(&dir, method);
        let text = std::fs::read_to_string(&file).unwrap();
        let flipped = text.replacen("9862", "9863", 1);
        assert_ne!(flipped, text, "{method}: {text}");
        std::fs::write(&file, flipped).unwrap();
        let name = file.file_name().unwrap().to_str().unwrap().to_string();
        knights()
            .args(["count", "6x6", "--method", method, "--resume", "--work-dir"])
            .arg(&dir)
            .assert()
            .code(2)
            .stdout("")
            .stderr(contains(name.as_str()).and(contains("checksum")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A checkpoint of the format before checksums is refused with a sentence.
#[test]
fn a_checkpoint_without_checksums_is_refused() {
    let dir = super::scratch("old-checkpoint");
    let (work, run) = stopped_count(&dir);
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        text.replacen("\"version\":6", "\"version\":1", 1),
    )
    .unwrap();
    resume(&work)
        .code(2)
        .stderr(contains("format 1").and(contains("checksums")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--resume` on a folder with other files but no checkpoint is an error
/// (it started a fresh count silently).
#[test]
fn resume_in_a_folder_of_other_files_is_an_error() {
    let dir = super::scratch("resume-unrelated");
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    knights()
        .args(["count", "6x6", "--resume", "--work-dir"])
        .arg(&dir)
        .assert()
        .code(2)
        .stderr(contains("no checkpoint"));
    assert!(dir.join("notes.txt").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count without `--resume` refuses to overwrite a checkpoint (it
/// discarded it silently); `--fresh` discards it and counts.
#[test]
fn a_checkpoint_is_overwritten_only_with_fresh() {
    let dir = super::scratch("fresh");
    let (work, run) = stopped_count(&dir);
    knights()
        .args(["count", "6x6", "--method", "forward", "--work-dir"])
        .arg(&work)
        .assert()
        .code(2)
        .stderr(contains(
            "holds an unfinished checkpoint of this count; resume it, or start afresh to discard it (--resume, or --fresh)",
        ));
    assert!(run.join("s10-b0.bin").is_file());
    knights()
        .args([
            "count",
            "6x6",
            "--method",
            "forward",
            "--fresh",
            "--work-dir",
        ])
        .arg(&work)
        .assert()
        .success()
        .stdout("9862\n");
    knights()
        .args(["count", "6x6", "--fresh", "--resume", "--work-dir"])
        .arg(&work)
        .assert()
        .code(2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `knights count 5x6 [ARGS] --work-dir WORK` (the count is 8).
fn count_5x6(work: &std::path::Path, args: &[&str]) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "5x6"])
        .args(args)
        .arg("--work-dir")
        .arg(work)
        .assert()
}

/// The checkpoint rules look at this count's checkpoint, not another's in
/// the same folder: `--resume` of another count is the documented error
/// (it started that count afresh, silently); a count without `--resume`
/// runs beside another's checkpoint (it was refused); `--fresh` removes
/// only its own files (it removed every count's); the other count then
/// resumes to its answer.
#[test]
fn the_checkpoint_rules_see_only_this_counts_checkpoint() {
    let dir = super::scratch("other-count");
    let (work, run) = stopped_count(&dir);
    count_5x6(&work, &["--resume"])
        .code(2)
        .stdout("")
        .stderr(contains("no checkpoint of this count in"));
    count_5x6(&work, &[]).success().stdout("8\n");
    count_5x6(&work, &["--fresh"]).success().stdout("8\n");
    count_5x6(&work, &["--fresh", "--method", "meet"])
        .success()
        .stdout("8\n");
    assert!(run.join("checkpoint.json").is_file());
    assert!(run.join("s10-b0.bin").is_file());
    resume(&work).success().stdout("9862\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished count in the folder is no checkpoint to protect: run again
/// without `--resume` it is counted afresh (it was refused), and with
/// `--resume` it is answered from its file; forward and met in the middle.
#[test]
fn a_finished_count_runs_again_without_resume() {
    for method in ["forward", "meet"] {
        let dir = super::scratch(&format!("finished-{method}"));
        finished_count(&dir, method);
        finished_count(&dir, method);
        knights()
            .args(["count", "6x6", "--method", method, "--resume", "--work-dir"])
            .arg(&dir)
            .assert()
            .success()
            .stdout("9862\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A meeting whose top part is done but whose bottom part has no
/// checkpoint yet (killed between them) is an unfinished count: run again
/// without `--resume` it is refused (the done part looked like a finished
/// count and was discarded), and `--resume` finishes it.
#[test]
fn a_meeting_with_one_part_done_is_unfinished() {
    let dir = super::scratch("meet-half-done");
    let meet = |args: &[&str]| {
        knights()
            .args(["count", "5x8", "--method", "meet"])
            .args(args)
            .arg("--work-dir")
            .arg(&dir)
            .assert()
    };
    meet(&["--stop-after", "26"]).code(130);
    // Remove the bottom part's checkpoint: the top part's alone is left.
    let mut removed = 0;
    // Each part has its folder (and its lock file beside it).
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        if !entry.path().is_dir() {
            continue;
        }
        let manifest = std::fs::read_to_string(entry.path().join("checkpoint.json")).unwrap();
        if manifest.contains("\"count\":null") {
            std::fs::remove_dir_all(entry.path()).unwrap();
            removed += 1;
        }
    }
    assert_eq!(removed, 1);
    meet(&[])
        .code(2)
        .stderr(contains("unfinished checkpoint of this count"));
    meet(&["--resume"]).success().stdout("44202\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A meeting's summary that cannot be cleared (here a folder in its
/// place) is an error naming it and the reason, without the system's error
/// number (it printed "... (os error 21)").
#[test]
fn a_summary_error_names_the_file_without_the_error_number() {
    let dir = super::scratch("summary-error");
    let summary = finished_count(&dir, "meet");
    std::fs::remove_file(&summary).unwrap();
    std::fs::create_dir(&summary).unwrap();
    let name = summary.file_name().unwrap().to_str().unwrap().to_string();
    knights()
        .args(["count", "6x6", "--method", "meet", "--work-dir"])
        .arg(&dir)
        .assert()
        .code(74)
        .stderr(
            contains(name.as_str())
                .and(contains("could not clear"))
                .and(contains("os error").not()),
        );
    std::fs::remove_dir_all(&dir).unwrap();
}
