//! The workspace's Rust files as the architecture tests read them: every
//! crate's module files parsed by `syn`, with the modules that are tests
//! left out, and every `.rs` file of the repository for the length rule.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// One module file of a crate: its path below `src/`, its module path and
/// its parsed items.
pub(crate) struct Source {
    pub(crate) path: String,
    pub(crate) module: Vec<String>,
    pub(crate) file: syn::File,
}

/// A source from its path below `src/` and its text.
pub(crate) fn source(path: &str, text: &str) -> Source {
    let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{path} does not parse: {e}"));
    Source {
        path: path.to_string(),
        module: module_of(path),
        file,
    }
}

/// The repository's root folder.
pub(crate) fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every crate of the workspace: its folder name and its module files,
/// tests left out (files named `tests.rs` or `*_tests.rs`, folders named
/// `tests`, and modules declared under `#[cfg(test)]`).
pub(crate) fn workspace_crates() -> Vec<(String, Vec<Source>)> {
    let mut dirs: Vec<PathBuf> = listing(&repository().join("crates"))
        .into_iter()
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    let crates: Vec<(String, Vec<Source>)> = dirs
        .iter()
        .map(|dir| {
            let name = dir.file_name().unwrap().to_string_lossy().into_owned();
            (name, crate_sources(&dir.join("src")))
        })
        .collect();
    assert!(crates.len() >= 3, "the workspace's crates are found");
    crates
}

/// The module files of the crate whose sources are in `src`.
pub(crate) fn crate_sources(src: &Path) -> Vec<Source> {
    let mut files = Vec::new();
    rust_files(src, &mut files, &|name| name != "tests");
    let mut sources: Vec<Source> = files
        .iter()
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            name != "tests.rs" && !name.ends_with("_tests.rs")
        })
        .map(|path| {
            let relative = path.strip_prefix(src).unwrap().to_string_lossy();
            let text = fs::read_to_string(path).expect("a source file reads");
            source(&relative.replace('\\', "/"), &text)
        })
        .collect();
    let tests: BTreeSet<Vec<String>> = sources.iter().flat_map(test_modules).collect();
    sources.retain(|s| !tests.iter().any(|t| s.module.starts_with(t)));
    sources
}

/// Every `.rs` file of the repository outside build output and version
/// control.
pub(crate) fn every_rust_file() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&repository(), &mut files, &|name| {
        !matches!(name, "target" | ".git" | "node_modules")
    });
    files
}

/// The `.rs` files below `dir`, entering the folders `enter` accepts.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>, enter: &dyn Fn(&str) -> bool) {
    let mut entries = listing(dir);
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if enter(&name) {
                rust_files(&path, out, enter);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

fn listing(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{} does not list: {e}", dir.display()))
        .map(|e| e.expect("a folder lists").path())
        .collect()
}

/// The module path of a file below `src/`: `a/mod.rs` and `a.rs` are `a`,
/// `lib.rs` and `main.rs` the crate root.
pub(crate) fn module_of(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path.split('/').map(str::to_string).collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    let root = parts.is_empty() && matches!(stem, "lib" | "main");
    if stem != "mod" && !root {
        parts.push(stem.to_string());
    }
    parts
}

/// The modules that `source` declares as tests (`#[cfg(test)] mod x;`).
fn test_modules(source: &Source) -> Vec<Vec<String>> {
    source
        .file
        .items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Mod(m) if m.content.is_none() && is_test(&m.attrs) => {
                let mut module = source.module.clone();
                module.push(m.ident.to_string());
                Some(module)
            }
            _ => None,
        })
        .collect()
}

/// Whether the attributes make an item test code (`#[cfg(test)]`, or a
/// condition that needs `test`, or `#[test]`).
pub(crate) fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        if attr.path().is_ident("test") {
            return true;
        }
        if !attr.path().is_ident("cfg") {
            return false;
        }
        let condition = match &attr.meta {
            syn::Meta::List(list) => list.tokens.to_string().replace(' ', ""),
            _ => return false,
        };
        condition == "test" || condition.starts_with("all(test")
    })
}

/// The attributes of an item of any kind.
pub(crate) fn item_attributes(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item::*;
    match item {
        Const(i) => &i.attrs,
        Enum(i) => &i.attrs,
        ExternCrate(i) => &i.attrs,
        Fn(i) => &i.attrs,
        ForeignMod(i) => &i.attrs,
        Impl(i) => &i.attrs,
        Macro(i) => &i.attrs,
        Mod(i) => &i.attrs,
        Static(i) => &i.attrs,
        Struct(i) => &i.attrs,
        Trait(i) => &i.attrs,
        TraitAlias(i) => &i.attrs,
        Type(i) => &i.attrs,
        Union(i) => &i.attrs,
        Use(i) => &i.attrs,
        _ => &[],
    }
}
