//! A count's work directory under attack (issue 55): links planted where
//! a count's files go, a temporary folder of a live count that must not be
//! cleaned, and checkpoints edited and sealed again, through the real
//! binary.

use std::path::{Path, PathBuf};

use super::{knights, scratch};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

/// The names in `dir` that start with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect()
}

/// `knights count 6x6 --method METHOD --work-dir WORK ARGS`.
fn count(method: &str, work: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    knights()
        .args(["count", "6x6", "--quiet", "--method", method, "--work-dir"])
        .arg(work)
        .args(args)
        .assert()
}

/// The name of 6x6's forward run folder (`count-{fingerprint}`) and of a
/// meeting's summary (`count-meet-{hash}.json`): fixed by the board.
fn names_of_6x6(dir: &Path) -> (String, String) {
    let work = dir.join("names");
    count("forward", &work, &[]).success().stdout("9862\n");
    count("meet", &work, &[]).success().stdout("9862\n");
    let run = named(&work, "count-")
        .into_iter()
        .find(|n| work.join(n).is_dir())
        .expect("a run folder");
    let summary = named(&work, "count-meet-")
        .into_iter()
        .find(|n| n.ends_with(".json"))
        .expect("a summary");
    std::fs::remove_dir_all(&work).unwrap();
    (run, summary)
}

/// Repro 1: a link planted at the meet summary's temporary or final name,
/// or at a run's lock file, is not followed: its target is neither written
/// nor made (the summary overwrote `/tmp/victim`; the lock made a file).
#[cfg(unix)]
#[test]
fn links_planted_at_a_count_s_files_are_not_followed() {
    let dir = scratch("wd-planted");
    let (run, summary) = names_of_6x6(&dir);
    let victim = dir.join("victim");
    for planted in [format!("{summary}.tmp"), summary.clone()] {
        let work = dir.join("work");
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(&victim, "precious").unwrap();
        std::os::unix::fs::symlink(&victim, work.join(&planted)).unwrap();
        count("meet", &work, &[]).success().stdout("9862\n");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        std::fs::remove_dir_all(&work).unwrap();
    }
    // A lock file's link to a file that does not exist: refused, not made.
    let work = dir.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let made = dir.join("made-elsewhere");
    std::os::unix::fs::symlink(&made, work.join(format!("{run}.lock"))).unwrap();
    count("forward", &work, &[])
        .code(2)
        .stderr(contains(".lock").and(contains("not a lock file this count made")));
    assert!(!made.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count of 6x6 (forward) in `dir/work` stopped after its 10th square,
/// and the folder of its run.
fn stopped_count(dir: &Path) -> (PathBuf, PathBuf) {
    let work = dir.join("work");
    count("forward", &work, &["--stop-after", "10"])
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

/// Repro 2: the run folder replaced by a link to another folder is
/// refused on `--resume` (it removed files there that looked like its
/// own leftovers, and wrote its states there); that folder is untouched.
#[cfg(unix)]
#[test]
fn a_run_folder_replaced_by_a_link_is_refused() {
    let dir = scratch("wd-linked-run");
    let (work, run) = stopped_count(&dir);
    let elsewhere = dir.join("elsewhere");
    std::fs::rename(&run, &elsewhere).unwrap();
    std::fs::write(elsewhere.join("s3-b0.bin"), "theirs").unwrap();
    std::fs::write(elsewhere.join("raw-s11-b0.bin"), "theirs").unwrap();
    std::os::unix::fs::symlink(&elsewhere, &run).unwrap();
    let before = named(&elsewhere, "");
    for how in ["--resume", "--fresh"] {
        count("forward", &work, &[how])
            .code(2)
            .stdout("")
            .stderr(contains("a link or other than a folder"));
    }
    let mut after = named(&elsewhere, "");
    let mut before = before;
    before.sort();
    after.sort();
    assert_eq!(before, after);
    assert_eq!(
        std::fs::read_to_string(elsewhere.join("s3-b0.bin")).unwrap(),
        "theirs"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Repro 3: a count that spills to a temporary folder removes a killed
/// run's folder (its claim is free) but never a live one's (its claim is
/// held, here by this test, as by a count in another PID namespace whose
/// process id is not in this one's `/proc`), nor another user's.
#[cfg(target_os = "linux")]
#[test]
fn a_spill_removes_only_killed_runs_folders() {
    use std::os::unix::fs::MetadataExt;
    let dir = scratch("wd-spill");
    let folder = |name: &str| {
        let f = dir.join(name);
        std::fs::create_dir(&f).unwrap();
        std::fs::write(f.join("s1-b0.bin"), "states").unwrap();
        f
    };
    // Process ids past Linux's largest.
    let live = folder("knights-count-4294967295-live");
    let claim = std::fs::File::create(live.join("claim.lock")).unwrap();
    claim.try_lock().unwrap();
    let killed = folder("knights-count-4294967294-killed");
    std::fs::File::create(killed.join("claim.lock")).unwrap();
    let older = folder("knights-count-4294967293-older");
    let theirs = folder("knights-count-4294967292-theirs");
    let me = std::fs::metadata(&dir).unwrap().uid();
    let other_user = me == 0 && std::os::unix::fs::chown(&theirs, Some(4242), None).is_ok();
    knights()
        .args(["count", "6x6", "--method", "forward", "--quiet"])
        .args(["--max-memory", "1M"])
        .env("TMPDIR", &dir)
        .assert()
        .success()
        .stdout("9862\n");
    assert!(
        live.join("s1-b0.bin").is_file(),
        "a live run's folder is kept"
    );
    assert!(!killed.exists(), "a killed run's folder is removed");
    assert!(!older.exists(), "an older version's killed run is removed");
    if other_user {
        assert!(theirs.join("s1-b0.bin").is_file(), "another user's is kept");
    }
    // The count removed its own.
    assert_eq!(
        named(&dir, "knights-count-").len(),
        1 + usize::from(other_user)
    );
    drop(claim);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A manifest's text with its checksum taken again over the text with
/// the checksum 0, as the count seals it.
fn resealed(text: &str) -> String {
    let (head, rest) = text.split_once("\"checksum\":").expect("a checksum");
    let tail = rest.trim_start_matches(|c: char| c.is_ascii_digit());
    let crc = crc32fast::hash(format!("{head}\"checksum\":0{tail}").as_bytes());
    format!("{head}\"checksum\":{crc}{tail}")
}

/// `text` with the JSON field `field`'s value (up to the next `,"`)
/// replaced by `value`.
fn with_field(text: &str, field: &str, value: &str) -> String {
    let key = format!("\"{field}\":");
    let (head, rest) = text.split_once(&key).expect("the field");
    let end = if rest.starts_with('[') {
        rest.find("],\"").map(|i| i + 1)
    } else {
        rest.find(",\"")
    }
    .expect("a field after it");
    format!("{head}{key}{value}{}", &rest[end..])
}

/// A manifest edited in one field and sealed again gives status 2 or the
/// right count, never another count with status 0 (7 of 19 such edits
/// printed a wrong count: a square past the board or at its end with no
/// state files, no state files, one dropped, the files and the square
/// moved to another square, a count put in).
#[test]
fn a_manifest_edited_and_sealed_again_never_gives_another_count() {
    let dir = scratch("wd-edited");
    let (work, run) = stopped_count(&dir);
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let buckets = text
        .split_once("\"buckets\":[")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(list, _)| list.to_string())
        .unwrap();
    let first = buckets.split_once("},").map(|(b0, _)| b0).unwrap();
    let edits: Vec<(&str, String)> = vec![
        (
            "step 1000",
            with_field(&with_field(&text, "step", "1000"), "buckets", "[]"),
        ),
        (
            "step 35",
            with_field(&with_field(&text, "step", "35"), "buckets", "[]"),
        ),
        (
            "step 36",
            with_field(&with_field(&text, "step", "36"), "buckets", "[]"),
        ),
        ("no buckets", with_field(&text, "buckets", "[]")),
        (
            "a bucket dropped",
            text.replacen(&format!("{first}}},"), "", 1),
        ),
        ("a count", with_field(&text, "count", "\"12345\"")),
        (
            "moved",
            with_field(&text, "step", "11").replace("s10-b", "s11-b"),
        ),
        (
            "moved",
            with_field(
                &text.replace("\"states_per_step\":[", "\"states_per_step\":[1,"),
                "step",
                "11",
            )
            .replace("s10-b", "s11-b"),
        ),
    ];
    for (what, edited) in edits {
        assert_ne!(edited, text, "{what}");
        if what == "moved" {
            for e in std::fs::read_dir(&run).unwrap().flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if let Some(rest) = name.strip_prefix("s10-") {
                    std::fs::copy(e.path(), run.join(format!("s11-{rest}"))).unwrap();
                }
            }
        }
        std::fs::write(&manifest, resealed(&edited)).unwrap();
        count("forward", &work, &["--resume"])
            .code(2)
            .stdout("")
            .stderr(contains("checkpoint.json").and(contains("edited or damaged")));
    }
    // Unedited, it still resumes to the count.
    std::fs::write(&manifest, &text).unwrap();
    count("forward", &work, &["--resume"])
        .success()
        .stdout("9862\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A finished count's manifest with another count, sealed again, is
/// refused (it printed 12345 with status 0), and so is the same edit
/// passed off as the format before counts were bound.
#[test]
fn a_finished_count_edited_and_sealed_again_is_refused() {
    let dir = scratch("wd-finished");
    let work = dir.join("work");
    count("forward", &work, &[]).success().stdout("9862\n");
    let manifest = std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .map(|e| e.path().join("checkpoint.json"))
        .find(|m| m.is_file())
        .unwrap();
    let text = std::fs::read_to_string(&manifest).unwrap();
    let edited = text.replacen("\"9862\"", "\"12345\"", 1);
    assert_ne!(edited, text);
    std::fs::write(&manifest, resealed(&edited)).unwrap();
    count("forward", &work, &["--resume"])
        .code(2)
        .stdout("")
        .stderr(contains("not those it was written with"));
    let binding = with_field(&edited, "binding", "0").replacen(",\"binding\":0", "", 1);
    let older = binding.replacen("\"version\":6", "\"version\":4", 1);
    std::fs::write(&manifest, resealed(&older)).unwrap();
    count("forward", &work, &["--resume"])
        .code(2)
        .stdout("")
        .stderr(contains("format 4").and(contains("--fresh")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// An unfinished checkpoint of the format before (4: no binding) still
/// resumes to the count.
#[test]
fn an_unfinished_checkpoint_of_format_4_resumes() {
    let dir = scratch("wd-format4");
    let (work, run) = stopped_count(&dir);
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let older = with_field(&text, "binding", "0")
        .replacen(",\"binding\":0", "", 1)
        .replacen("\"version\":6", "\"version\":4", 1);
    assert!(!older.contains("binding"));
    std::fs::write(&manifest, resealed(&older)).unwrap();
    count("forward", &work, &["--resume"])
        .success()
        .stdout("9862\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A manifest that is not UTF-8, and a missing state file, are damage
/// (status 2, naming the file), not a failure to read (74).
#[test]
fn a_manifest_not_utf8_or_a_missing_state_file_is_damage() {
    let dir = scratch("wd-damage");
    let (work, run) = stopped_count(&dir);
    let manifest = run.join("checkpoint.json");
    let text = std::fs::read(&manifest).unwrap();
    let mut bad = text.clone();
    bad[2] = 0xff;
    std::fs::write(&manifest, &bad).unwrap();
    count("forward", &work, &["--resume"])
        .code(2)
        .stderr(contains("checkpoint.json").and(contains("UTF-8")));
    std::fs::write(&manifest, &text).unwrap();
    std::fs::remove_file(run.join("s10-b0.bin")).unwrap();
    count("forward", &work, &["--resume"])
        .code(2)
        .stderr(contains("s10-b0.bin").and(contains("missing")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--work-dir a/b` with `a` missing makes both, as `mkdir -p` (it was
/// refused).
#[test]
fn a_work_dir_s_missing_parents_are_made() {
    let dir = scratch("wd-parents");
    let work = dir.join("a").join("b");
    count("forward", &work, &[]).success().stdout("9862\n");
    assert!(work.is_dir());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A count stopped over its disk budget before its first checkpoint does
/// not say that its checkpoint is kept.
#[test]
fn no_checkpoint_is_promised_before_one_exists() {
    let dir = scratch("wd-no-checkpoint");
    let work = dir.join("work");
    count("forward", &work, &["--max-disk", "1K"])
        .code(2)
        .stderr(contains("checkpoint is kept").not());
    assert!(std::fs::read_dir(&work)
        .unwrap()
        .flatten()
        .all(|e| !e.path().join("checkpoint.json").exists()));
    std::fs::remove_dir_all(&dir).unwrap();
}
