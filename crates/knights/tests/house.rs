//! The architecture of the house, checked over the workspace with the
//! `syn` parser (function length is clippy's `too_many_lines`, set in
//! clippy.toml):
//!
//! - no import circle among a crate's module files (what counts as an
//!   edge: `house/modules.rs`);
//! - no `.rs` file of the repository over [`MAX_FILE_LINES`] lines, tests
//!   included;
//! - one module-file convention: a module with submodules is its folder's
//!   `mod.rs`, never a `name.rs` beside a `name/` folder of Rust files
//!   (test crates' roots in `tests/` aside);
//! - no two public types or traits of the library share a name: each says
//!   what it is by its name alone, whichever module it is in;
//! - the library's public API is the one docs/architecture.md lists, so
//!   that it changes only on purpose. After a deliberate change, run this
//!   test with `KNIGHTS_UPDATE_API=1` to rewrite the listing, and read the
//!   difference before committing it.

#[path = "house/items.rs"]
mod items;
#[path = "house/modules.rs"]
mod modules;
#[path = "house/sources.rs"]
mod sources;

use std::fs;

use sources::{every_rust_file, repository, workspace_crates};

/// The most lines of any Rust file.
const MAX_FILE_LINES: usize = 700;

/// The markers around the listing in docs/architecture.md.
const API_START: &str = "<!-- public API: start -->\n```text\n";
const API_END: &str = "```\n<!-- public API: end -->";

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for (name, sources) in workspace_crates() {
        for circle in modules::circles(&sources) {
            found.push(format!("{name}:\n{circle}"));
        }
    }
    assert!(
        found.is_empty(),
        "import circles (file -> file: the paths named):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_rust_file_is_over_700_lines() {
    let files = every_rust_file();
    assert!(files.len() > 100, "the repository's files are found");
    let long: Vec<String> = files
        .iter()
        .filter_map(|path| {
            let lines = fs::read_to_string(path).ok()?.lines().count();
            (lines > MAX_FILE_LINES).then(|| format!("{}, {lines} lines", shown(path)))
        })
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn every_module_with_submodules_is_its_folders_mod_rs() {
    let files = every_rust_file();
    let beside: Vec<String> = files
        .iter()
        .filter(|path| {
            let folder = path.with_extension("");
            // A test crate's root (`tests/name.rs`) is cargo's, not a module.
            let test_root = path.parent().and_then(|p| p.file_name()) == Some("tests".as_ref());
            !test_root
                && path.file_name().is_some_and(|n| n != "mod.rs")
                && files.iter().any(|f| f.parent() == Some(folder.as_path()))
        })
        .map(|path| shown(path))
        .collect();
    assert!(
        beside.is_empty(),
        "modules beside their folder (move each into its folder as mod.rs):\n{}",
        beside.join("\n")
    );
}

#[test]
fn no_two_public_types_of_the_library_share_a_name() {
    let shared: Vec<String> = items::public_names(&library())
        .into_iter()
        .filter(|(_, places)| places.len() > 1)
        .map(|(name, places)| format!("{name}: {}", places.join(", ")))
        .collect();
    assert!(
        shared.is_empty(),
        "public items sharing a name (name: files):\n{}",
        shared.join("\n")
    );
}

#[test]
fn the_public_api_is_the_one_the_architecture_lists() {
    let listing = items::public_api("knights", &library()).join("\n") + "\n";
    let doc_path = repository().join("docs/architecture.md");
    let doc = fs::read_to_string(&doc_path).expect("docs/architecture.md reads");
    let start = doc.find(API_START).expect("the listing's start marker") + API_START.len();
    let end = start
        + doc[start..]
            .find(API_END)
            .expect("the listing's end marker");
    if std::env::var_os("KNIGHTS_UPDATE_API").is_some() {
        let updated = format!("{}{listing}{}", &doc[..start], &doc[end..]);
        fs::write(&doc_path, updated).expect("docs/architecture.md writes");
        return;
    }
    let listed = &doc[start..end];
    let added: Vec<&str> = listing
        .lines()
        .filter(|l| !listed.lines().any(|m| m == *l))
        .collect();
    let gone: Vec<&str> = listed
        .lines()
        .filter(|l| !listing.lines().any(|m| m == *l))
        .collect();
    assert!(
        added.is_empty() && gone.is_empty(),
        "the public API differs from docs/architecture.md's listing (after a deliberate change, \
         rerun with KNIGHTS_UPDATE_API=1)\nnew: {added:#?}\ngone: {gone:#?}"
    );
}

/// `path` from the repository's root, for messages.
fn shown(path: &std::path::Path) -> String {
    let root = repository()
        .canonicalize()
        .expect("the repository is found");
    let full = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    full.strip_prefix(&root)
        .unwrap_or(&full)
        .display()
        .to_string()
}

/// The library crate's module files.
fn library() -> Vec<sources::Source> {
    workspace_crates()
        .into_iter()
        .find(|(name, _)| name == "knights")
        .expect("the library crate is found")
        .1
}

/// The checks' own cases, on small made-up crates.
#[path = "house/cases.rs"]
mod cases;
