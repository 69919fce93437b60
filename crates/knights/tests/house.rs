//! The architecture of the house, checked over every crate of the workspace
//! (`crates/*/src`), with a small scanner of our own (std only):
//!
//! - no import circle among a crate's module files: file A points to file B
//!   when A's code names a path into B (`use crate::b::..`, `super::b`,
//!   `crate::b::f`, `self::b`, a child module by its name). A folder's
//!   `mod.rs` is its own node; `super::x` points at sibling `x` when it is a
//!   module, else at the parent's file. The crate root (`lib.rs`,
//!   `main.rs`) is the crate's front door, whose re-exports everyone names,
//!   so it is no node; likewise a folder's `pub use` re-exports of its
//!   children's items are its front door, not an edge (its other code
//!   naming a child is). Tests are no part of the graph: `#[cfg(test)]` items,
//!   files named `tests.rs` or `*_tests.rs`, and folders named `tests`.
//! - no function over [`MAX_LINES`] lines (from `fn` to its closing brace)
//!   outside tests.
//! - no file of the counting engine (`crates/knights/src/count/`) over
//!   [`MAX_COUNT_FILE_LINES`] lines, its test module included.
//! - no two public items of the library (`crates/knights/src`, outside
//!   tests) share a name: a `pub struct`, `enum`, `trait`, `type` or
//!   `union` says what it is by its name alone, whichever module it is in.
//!
//! Comments and string literals are blanked first (lines kept), so that
//! neither names a path nor hides a brace.

#[path = "house/scanner.rs"]
mod scanner;

use scanner::{circles, long_functions, public_items, workspace_crates};

/// The most lines of a function outside tests.
const MAX_LINES: usize = 120;

/// The counting engine's folder (relative to the workspace).
const COUNT: &str = "crates/knights/src/count/";

/// The most lines of a file of the counting engine, tests included.
const MAX_COUNT_FILE_LINES: usize = 700;

/// Import circles still open, named so that the test
/// fails on any new circle and on any of these growing: each is the first
/// line of a circle as [`circles`] prints it. A line whose circle is broken
/// must go (the test fails on it), so the list only shrinks.
const CIRCLES_STILL_OPEN: &[&str] = &[];

/// Functions still over the limit, named the same way (file: function); a
/// line whose function is split must go. None is.
const LONG_FUNCTIONS_STILL_OPEN: &[&str] = &[];

/// Files of the counting engine still over [`MAX_COUNT_FILE_LINES`] lines
/// (relative to the workspace); a file brought under the limit must go.
/// None is.
const LONG_COUNT_FILES_STILL_OPEN: &[&str] = &[];

/// Names still given to more than one public item of the library, named
/// the same way (the name alone); a name no longer shared must go. None is.
const SHARED_NAMES_STILL_OPEN: &[&str] = &[];

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    let mut open = Vec::new();
    for (name, sources) in workspace_crates() {
        for circle in circles(&sources) {
            let circle = format!("{name}: {circle}");
            let head = circle.lines().next().unwrap_or_default().to_string();
            if !CIRCLES_STILL_OPEN.contains(&head.as_str()) {
                found.push(circle);
            }
            open.push(head);
        }
    }
    assert!(
        found.is_empty(),
        "import circles (file -> file: the paths named):\n{}",
        found.join("\n")
    );
    let stale = stale(CIRCLES_STILL_OPEN, &open);
    assert!(stale.is_empty(), "circles broken, still listed: {stale:?}");
}

#[test]
fn no_function_is_over_120_lines() {
    let mut found = Vec::new();
    let mut open = Vec::new();
    for (name, sources) in workspace_crates() {
        for source in &sources {
            let file = format!("crates/{name}/src/{}", source.path);
            for (function, lines) in long_functions(&source.text) {
                let named = format!("{file}: {function}");
                if !LONG_FUNCTIONS_STILL_OPEN.contains(&named.as_str()) {
                    found.push(format!("{named}, {lines} lines"));
                }
                open.push(named);
            }
        }
    }
    assert!(
        found.is_empty(),
        "functions over {MAX_LINES} lines:\n{}",
        found.join("\n")
    );
    let stale = stale(LONG_FUNCTIONS_STILL_OPEN, &open);
    assert!(stale.is_empty(), "functions split, still listed: {stale:?}");
}

#[test]
fn no_file_of_the_counting_engine_is_over_700_lines() {
    let (_, sources) = workspace_crates()
        .into_iter()
        .find(|(name, _)| name == "knights")
        .expect("the library crate is found");
    let mut found = Vec::new();
    let mut open = Vec::new();
    for source in &sources {
        let file = format!("crates/knights/src/{}", source.path);
        let lines = source.text.lines().count();
        if !file.starts_with(COUNT) || lines <= MAX_COUNT_FILE_LINES {
            continue;
        }
        if !LONG_COUNT_FILES_STILL_OPEN.contains(&file.as_str()) {
            found.push(format!("{file}, {lines} lines"));
        }
        open.push(file);
    }
    assert!(
        found.is_empty(),
        "files of the counting engine over {MAX_COUNT_FILE_LINES} lines:\n{}",
        found.join("\n")
    );
    let stale = stale(LONG_COUNT_FILES_STILL_OPEN, &open);
    assert!(stale.is_empty(), "files split, still listed: {stale:?}");
}

#[test]
fn no_two_public_items_of_the_library_share_a_name() {
    let (_, sources) = workspace_crates()
        .into_iter()
        .find(|(name, _)| name == "knights")
        .expect("the library crate is found");
    let mut shared = Vec::new();
    let mut open = Vec::new();
    for (name, places) in public_items(&sources) {
        if places.len() < 2 {
            continue;
        }
        if !SHARED_NAMES_STILL_OPEN.contains(&name.as_str()) {
            shared.push(format!("{name}: {}", places.join(", ")));
        }
        open.push(name);
    }
    assert!(
        shared.is_empty(),
        "public items sharing a name (name: files):\n{}",
        shared.join("\n")
    );
    let stale = stale(SHARED_NAMES_STILL_OPEN, &open);
    assert!(
        stale.is_empty(),
        "names no longer shared, still listed: {stale:?}"
    );
}

/// The entries of an allow-list that no longer occur: a list only shrinks.
fn stale<'a>(listed: &[&'a str], open: &[String]) -> Vec<&'a str> {
    listed
        .iter()
        .filter(|entry| !open.iter().any(|o| o == *entry))
        .copied()
        .collect()
}
