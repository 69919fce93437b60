//! The error type's tests: hints as fields, every hint listed, names for
//! what happened, no flag in a library message.

use super::*;

/// The lines of `text` outside comments and before its test module.
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .filter(|line| !line.trim_start().starts_with("//"))
}

/// Whether `line` has a string literal holding a flag ("--max-nodes"):
/// a `--` and a letter after an odd number of quotes.
fn names_a_flag(line: &str) -> bool {
    line.match_indices("--").any(|(at, _)| {
        let in_string = line[..at].matches('"').count() % 2 == 1;
        let letter = line[at + 2..].starts_with(|c: char| c.is_ascii_lowercase());
        in_string && letter
    })
}

fn rust_files(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs")
            && path.file_name().is_some_and(|n| n != "tests.rs")
        {
            files.push(path);
        }
    }
}

/// No message of the library names a command-line flag: advice is a
/// [`Hint`] that each front end says in its own words.
#[test]
fn no_library_string_names_a_flag() {
    let mut files = Vec::new();
    rust_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    assert!(files.len() > 20, "{files:?}");
    let mut flags = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for line in code_lines(&text).filter(|l| names_a_flag(l)) {
            flags.push(format!("{}: {}", path.display(), line.trim()));
        }
    }
    assert!(flags.is_empty(), "{flags:#?}");
    assert!(names_a_flag(r#"    "raise --max-nodes","#));
    assert!(!names_a_flag("    x -= 1; // --max-nodes"));
}

/// Errors that advise something carry it as a hint, and their text
/// says it in plain words.
#[test]
fn advice_is_a_hint_in_plain_words() {
    let gave_up = crate::count::Counter::new("6x6".parse().unwrap())
        .max_memory(1000)
        .tours()
        .unwrap_err();
    assert_eq!(gave_up.hint(), Some(Hint::Raise(Budget::Memory)));
    assert!(matches!(gave_up, Error::OverBudget(_)));
    assert_eq!(gave_up.category(), Category::OverLimit);
    let text = gave_up.to_string();
    assert!(text.ends_with("; allow the count more memory"), "{text}");

    let over = Error::OverDisk {
        square: 3,
        squares: 36,
        needed: 3 << 30,
        now: 1 << 30,
        next: 2 << 30,
        budget: "the disk budget of 2.0 GiB".into(),
        hint: None,
    }
    .with_hint(Hint::ResumeWithRoom);
    assert_eq!(over.category(), Category::OverLimit);
    let text = over.to_string();
    assert!(
        text.starts_with("the count stopped before square 3 of 36"),
        "{text}"
    );
    assert!(text.contains("resume it once there is room"), "{text}");
    assert!(!text.contains("--"), "{text}");

    let far = Error::OutOfReach {
        square: 24,
        squares: 144,
        needed: 3 << 50,
        peak_square: 125,
        budget: "the disk budget of 2.0 GiB".into(),
        hint: None,
    };
    assert_eq!(far.category(), Category::OverLimit);
    assert_eq!(
        far.to_string(),
        "the count stopped after square 24 of 144: its states are projected to need at least 3.0 PiB on disk at their peak (after square 125), more than a thousand times the disk budget of 2.0 GiB; a count this large is out of reach here"
    );
}

/// A hinted error still matches its variant, keeps its category, and
/// its text is the unhinted text, `; ` and the hint in plain words.
#[test]
fn a_hinted_error_matches_its_variant() {
    for hint in Hint::every() {
        let e = Error::GaveUp("the search found no tour".into()).with_hint(hint);
        assert!(matches!(e, Error::GaveUp(_)), "{e:?}");
        assert_eq!(e.hint(), Some(hint));
        assert_eq!(e.category(), Category::NoAnswer);
        assert_eq!(e.unhinted().to_string(), "the search found no tour");
        assert_eq!(e.to_string(), format!("the search found no tour; {hint}"));
    }
    let far = Error::TooLarge {
        what: "count",
        rows: 9,
        cols: 9,
        needed: "9 GiB".into(),
        available: "only 1 GiB is available".into(),
        hint: None,
    }
    .with_hint(Hint::MoreRoom);
    assert!(matches!(far, Error::TooLarge { rows: 9, .. }), "{far:?}");
    assert_eq!(far.hint(), Some(Hint::MoreRoom));
    assert!(far.to_string().ends_with("a smaller board; give the count a work directory on a disk with more room, or more memory"), "{far}");
}

/// The list of hints has every budget, method and algorithm once, and
/// each says something of its own.
#[test]
fn every_hint_is_listed_once() {
    let every = Hint::every();
    let distinct: std::collections::HashSet<Hint> = every.iter().copied().collect();
    assert_eq!(distinct.len(), every.len(), "{every:?}");
    for budget in Budget::ALL {
        assert!(every.contains(&Hint::Raise(budget)));
    }
    assert!(every.contains(&Hint::UseMethod(Method::Forward)));
    assert!(every.contains(&Hint::UseEstimateMethod(EstimateMethod::Sis)));
    assert!(every.contains(&Hint::Classic(false)));
    let words: std::collections::HashSet<String> = every.iter().map(|h| h.to_string()).collect();
    assert!(words.len() >= 20, "{words:?}");
}

/// A refusal, a missing checkpoint and a key that gives no tour are
/// variants of their own, bad input all; a bad key keeps its source
/// whole and says its advice in its text.
#[test]
fn variants_are_named_for_what_happened() {
    use std::error::Error as _;
    let refused = Error::Refused("samples must be 1 or more".into());
    assert_eq!(refused.category(), Category::BadInput);
    let none = Error::NoCheckpoint("there is no checkpoint".into()).with_hint(Hint::DontResume);
    assert_eq!(none.category(), Category::BadInput);
    assert!(matches!(none, Error::NoCheckpoint(_)));
    let inner = Error::Unsupported("braid needs a closed tour".into())
        .with_hint(Hint::UseAlgorithm(Algorithm::Auto));
    let key = Error::BadKey {
        key: "4x4".into(),
        source: Box::new(inner),
    };
    assert_eq!(key.category(), Category::BadInput);
    assert_eq!(key.hint(), None);
    assert_eq!(
        key.to_string(),
        "the key '4x4' gives no tour: braid needs a closed tour; use the auto algorithm"
    );
    let source = key
        .source()
        .and_then(|s| s.downcast_ref::<Error>())
        .unwrap();
    assert!(matches!(source, Error::Unsupported(_)));
    assert_eq!(source.hint(), Some(Hint::UseAlgorithm(Algorithm::Auto)));
}

/// A failed file operation is its own category and keeps the system's
/// error as its source, without the error number in its text.
#[test]
fn io_errors_keep_their_source() {
    use std::error::Error as _;
    let e = Error::io(
        "write /x/checkpoint.json",
        std::io::Error::from_raw_os_error(28),
    );
    assert_eq!(e.category(), Category::Io);
    assert!(e.source().is_some());
    let text = e.to_string();
    assert!(
        text.starts_with("could not write /x/checkpoint.json: "),
        "{text}"
    );
    assert!(!text.contains("os error"), "{text}");
}
