//! The scanner behind the architecture tests (`tests/house.rs`): it reads
//! every crate's module files, blanks comments and strings, and finds the
//! paths each file names, the functions' lengths and the public items.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use super::MAX_LINES;

/// One source file of a crate: its path below `src/` and its text.
pub(crate) struct Source {
    pub(crate) path: String,
    pub(crate) text: String,
}

/// Every crate of the workspace: its folder name and its module files
/// (tests left out).
pub(crate) fn workspace_crates() -> Vec<(String, Vec<Source>)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut crates = Vec::new();
    let mut dirs: Vec<PathBuf> = fs::read_dir(root.join("crates"))
        .expect("crates/ reads")
        .map(|e| e.expect("crates/ lists").path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    for dir in dirs {
        let src = dir.join("src");
        let mut sources = Vec::new();
        collect(&src, &src, &mut sources);
        let test_modules: BTreeSet<Vec<String>> = sources.iter().flat_map(test_modules).collect();
        sources.retain(|s| !test_modules.contains(&module_of(&s.path)));
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        crates.push((name, sources));
    }
    assert!(crates.len() >= 3, "the workspace's crates are found");
    crates
}

/// The `.rs` files below `dir`, without test files and `tests` folders.
fn collect(src: &Path, dir: &Path, out: &mut Vec<Source>) {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .expect("a source folder reads")
        .map(|e| e.expect("a source folder lists").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if name != "tests" {
                collect(src, &path, out);
            }
        } else if name.ends_with(".rs") && name != "tests.rs" && !name.ends_with("_tests.rs") {
            let relative = path.strip_prefix(src).unwrap().to_string_lossy();
            out.push(Source {
                path: relative.replace('\\', "/"),
                text: fs::read_to_string(&path).expect("a source file reads"),
            });
        }
    }
}

/// The modules that `source` declares as tests (`#[cfg(test)] mod x;`),
/// whose files are test files whatever their names.
fn test_modules(source: &Source) -> Vec<Vec<String>> {
    let code = blank(&source.text);
    let c: Vec<char> = code.chars().collect();
    let tokens: Vec<String> = words(&c).into_iter().map(|(_, w)| w).collect();
    let attribute = ["#", "[", "cfg", "(", "test", ")", "]", "mod"];
    let mut found = Vec::new();
    for (i, window) in tokens.windows(attribute.len() + 2).enumerate() {
        if window[..attribute.len()] == attribute && window[attribute.len() + 1] == ";" {
            let mut module = module_of(&source.path);
            module.push(tokens[i + attribute.len()].clone());
            found.push(module);
        }
    }
    found
}

/// `text` with comments, string and character literals blanked (their
/// newlines kept, so line numbers stay).
fn blank(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let keep_lines = |s: &[char], out: &mut String| {
        for &ch in s {
            out.push(if ch == '\n' { '\n' } else { ' ' });
        }
    };
    while i < c.len() {
        let rest = |k: usize| c.get(i + k).copied().unwrap_or('\0');
        let end = if c[i] == '/' && rest(1) == '/' {
            c[i..]
                .iter()
                .position(|&ch| ch == '\n')
                .map_or(c.len(), |p| i + p)
        } else if c[i] == '/' && rest(1) == '*' {
            block_comment_end(&c, i)
        } else if c[i] == '"' {
            quoted_end(&c, i + 1, '"')
        } else if (c[i] == 'r' || (c[i] == 'b' && rest(1) == 'r'))
            && !ident_char(if i > 0 { c[i - 1] } else { ' ' })
            && raw_string_start(&c, i).is_some()
        {
            raw_string_start(&c, i).unwrap()
        } else if c[i] == 'b' && rest(1) == '"' && !ident_char(if i > 0 { c[i - 1] } else { ' ' }) {
            quoted_end(&c, i + 2, '"')
        } else if c[i] == '\'' && rest(1) == '\\' {
            quoted_end(&c, i + 1, '\'')
        } else if c[i] == '\'' && rest(2) == '\'' {
            i + 3
        } else {
            out.push(c[i]);
            i += 1;
            continue;
        };
        keep_lines(&c[i..end.min(c.len())], &mut out);
        i = end;
    }
    out
}

/// Whether `ch` can be part of an identifier.
fn ident_char(ch: char) -> bool {
    ch.is_alphanumeric() || ch == '_'
}

/// The end (one past) of the nested block comment starting at `i`.
fn block_comment_end(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i + 1 < c.len() {
        if c[i] == '/' && c[i + 1] == '*' {
            depth += 1;
            i += 2;
        } else if c[i] == '*' && c[i + 1] == '/' {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    c.len()
}

/// The end (one past the closing `quote`) of a literal whose body starts at `i`.
fn quoted_end(c: &[char], mut i: usize, quote: char) -> usize {
    while i < c.len() {
        match c[i] {
            '\\' => i += 2,
            ch if ch == quote => return i + 1,
            _ => i += 1,
        }
    }
    c.len()
}

/// The end of the raw string (`r"..."`, `r#"..."#`, `br"..."`) at `i`, if one starts there.
fn raw_string_start(c: &[char], i: usize) -> Option<usize> {
    let mut j = i + if c[i] == 'b' { 2 } else { 1 };
    let mut hashes = 0;
    while c.get(j) == Some(&'#') {
        hashes += 1;
        j += 1;
    }
    if c.get(j) != Some(&'"') {
        return None;
    }
    j += 1;
    while j < c.len() {
        if c[j] == '"' && (1..=hashes).all(|k| c.get(j + k) == Some(&'#')) {
            return Some(j + 1 + hashes);
        }
        j += 1;
    }
    Some(c.len())
}

/// `code` (already blanked) without its `#[cfg(test)]` items, lines kept.
fn without_tests(code: &str) -> String {
    let mut c: Vec<char> = code.chars().collect();
    let attribute: Vec<char> = "#[cfg(test)]".chars().collect();
    let mut i = 0;
    while i + attribute.len() <= c.len() {
        if c[i..i + attribute.len()] != attribute[..] {
            i += 1;
            continue;
        }
        let body = i + attribute.len();
        let stop = (body..c.len()).find(|&k| c[k] == '{' || c[k] == ';');
        let end = match stop {
            Some(k) if c[k] == '{' => matching_brace(&c, k).map_or(c.len(), |e| e + 1),
            Some(k) => k + 1,
            None => c.len(),
        };
        for ch in &mut c[i..end] {
            if *ch != '\n' {
                *ch = ' ';
            }
        }
        i = end;
    }
    c.into_iter().collect()
}

/// The index of the brace closing the one at `open`.
fn matching_brace(c: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &ch) in c.iter().enumerate().skip(open) {
        match ch {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(k);
                }
            }
            _ => {}
        }
    }
    None
}

/// The public items (`pub struct|enum|trait|type|union`, outside tests) of
/// `sources` by name: name -> the files that define one.
pub(crate) fn public_items(sources: &[Source]) -> BTreeMap<String, Vec<String>> {
    const KINDS: &[&str] = &["struct", "enum", "trait", "type", "union"];
    let mut items: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for source in sources {
        let code = without_tests(&blank(&source.text));
        let c: Vec<char> = code.chars().collect();
        let tokens: Vec<String> = words(&c).into_iter().map(|(_, w)| w).collect();
        for w in tokens.windows(3) {
            if w[0] == "pub" && KINDS.contains(&w[1].as_str()) {
                items
                    .entry(w[2].clone())
                    .or_default()
                    .push(source.path.clone());
            }
        }
    }
    items
}

/// The functions of `text` longer than [`MAX_LINES`]: (name, lines).
pub(crate) fn long_functions(text: &str) -> Vec<(String, usize)> {
    let code = without_tests(&blank(text));
    let c: Vec<char> = code.chars().collect();
    let line_of = |k: usize| c[..k].iter().filter(|&&ch| ch == '\n').count();
    let mut found = Vec::new();
    let functions = words(&c)
        .windows(2)
        .filter(|w| w[0].1 == "fn" && ident_char(w[1].1.chars().next().unwrap_or(' ')))
        .map(|w| (w[0].0, w[1].1.clone()))
        .collect::<Vec<_>>();
    for (start, name) in functions {
        let mut depth = 0i32;
        let mut body = None;
        for (k, &ch) in c.iter().enumerate().skip(start) {
            match ch {
                '(' | '[' => depth += 1,
                ')' | ']' => depth -= 1,
                '{' if depth == 0 => {
                    body = Some(k);
                    break;
                }
                ';' if depth == 0 => break,
                _ => {}
            }
        }
        if let Some(close) = body.and_then(|open| matching_brace(&c, open)) {
            let lines = line_of(close) - line_of(start) + 1;
            if lines > MAX_LINES {
                found.push((name, lines));
            }
        }
    }
    found
}

/// The identifiers and `::` of `c` with where each starts, in order.
fn words(c: &[char]) -> Vec<(usize, String)> {
    let mut words = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if ident_char(c[i]) {
            let start = i;
            while i < c.len() && ident_char(c[i]) {
                i += 1;
            }
            words.push((start, c[start..i].iter().collect()));
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            words.push((i, "::".to_string()));
            i += 2;
        } else {
            if !c[i].is_whitespace() {
                words.push((i, c[i].to_string()));
            }
            i += 1;
        }
    }
    words
}

/// The module path of a file below `src/`: `a/b.rs` and `a/b/mod.rs` are
/// `a::b`; the crate root (`lib.rs`, `main.rs`) is empty.
fn module_of(path: &str) -> Vec<String> {
    let path = path.strip_suffix(".rs").unwrap_or(path);
    let mut parts: Vec<String> = path.split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod")
        || (parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main"))
    {
        parts.pop();
    }
    parts
}

/// The paths that `code` names: `use` trees expanded, and every other
/// `a::b::c` run of identifiers; without `pub use` re-exports when
/// `facade` (a folder's `mod.rs` re-exporting its children's items).
fn named_paths(code: &str, facade: bool) -> Vec<Vec<String>> {
    let c: Vec<char> = code.chars().collect();
    let tokens: Vec<String> = words(&c).into_iter().map(|(_, w)| w).collect();
    let mut paths = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "use" {
            let mut k = i + 1;
            let mut named = Vec::new();
            use_tree(&tokens, &mut k, &mut Vec::new(), &mut named);
            if !(facade && is_public(&tokens[..i])) {
                paths.extend(named);
            }
            i = k;
        } else if ident_char(tokens[i].chars().next().unwrap_or(' '))
            && tokens.get(i + 1).is_some_and(|t| t == "::")
            && (i == 0 || tokens[i - 1] != "::")
        {
            let mut path = vec![tokens[i].clone()];
            let mut k = i + 1;
            while tokens.get(k).is_some_and(|t| t == "::")
                && tokens
                    .get(k + 1)
                    .is_some_and(|t| ident_char(t.chars().next().unwrap_or(' ')))
            {
                path.push(tokens[k + 1].clone());
                k += 2;
            }
            paths.push(path);
            i = k;
        } else {
            i += 1;
        }
    }
    paths
}

/// Whether the item whose keyword follows `before` is public (`pub`,
/// `pub(crate)`, `pub(super)`).
fn is_public(before: &[String]) -> bool {
    match before {
        [.., last] if last == "pub" => true,
        [.., p, open, _, close] => p == "pub" && open == "(" && close == ")",
        _ => false,
    }
}

/// Expands the `use` tree at `tokens[*k]` under `prefix` into `out`,
/// leaving `*k` after it.
fn use_tree(
    tokens: &[String],
    k: &mut usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<Vec<String>>,
) {
    let depth = prefix.len();
    loop {
        match tokens.get(*k).map(String::as_str) {
            Some("{") => {
                *k += 1;
                while tokens.get(*k).is_some_and(|t| t != "}") {
                    use_tree(tokens, k, prefix, out);
                    if tokens.get(*k).is_some_and(|t| t == ",") {
                        *k += 1;
                    }
                }
                *k += 1;
                break;
            }
            Some("::") => *k += 1,
            Some("*") => {
                *k += 1;
                out.push(prefix.clone());
                break;
            }
            Some(t) if ident_char(t.chars().next().unwrap_or(' ')) && t != "as" => {
                // `a::{self, ..}` names `a` itself.
                if t != "self" || prefix.is_empty() {
                    prefix.push(t.to_string());
                }
                *k += 1;
                if tokens.get(*k).is_none_or(|t| t != "::") {
                    out.push(prefix.clone());
                    if tokens.get(*k).is_some_and(|t| t == "as") {
                        *k += 2;
                    }
                    break;
                }
            }
            _ => break,
        }
    }
    prefix.truncate(depth);
    if depth == 0 && tokens.get(*k).is_some_and(|t| t == ";") {
        *k += 1;
    }
}

/// The file a named `path` points into from the module `from`, if it is a
/// module file of this crate other than the root.
fn target(
    path: &[String],
    from: &[String],
    modules: &BTreeMap<Vec<String>, String>,
) -> Option<String> {
    let mut base: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = from.to_vec();
            rest = &path[1..];
        }
        Some("super") => {
            base = from.to_vec();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        // A child module named by itself (`use child::X`, `child::f()`).
        Some(first) => {
            let mut child = from.to_vec();
            child.push(first.to_string());
            modules.get(&child)?;
            base = from.to_vec();
        }
        None => return None,
    }
    let mut full = base;
    full.extend(rest.iter().cloned());
    (1..=full.len())
        .rev()
        .find_map(|n| modules.get(&full[..n]))
        .cloned()
}

/// The import graph of a crate's files: file -> (file -> the paths named).
fn graph(sources: &[Source]) -> BTreeMap<String, BTreeMap<String, BTreeSet<String>>> {
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .map(|s| (module_of(&s.path), s.path.clone()))
        .filter(|(m, _)| !m.is_empty())
        .collect();
    let mut edges: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for source in sources {
        let from = module_of(&source.path);
        if from.is_empty() {
            continue;
        }
        let code = without_tests(&blank(&source.text));
        for path in named_paths(&code, source.path.ends_with("mod.rs")) {
            if let Some(to) = target(&path, &from, &modules) {
                if to != source.path {
                    edges
                        .entry(source.path.clone())
                        .or_default()
                        .entry(to)
                        .or_default()
                        .insert(path.join("::"));
                }
            }
        }
    }
    edges
}

/// Every circle of a crate's import graph: each group of files that reach
/// one another, as its edges `a -> b: names`.
pub(crate) fn circles(sources: &[Source]) -> Vec<String> {
    let edges = graph(sources);
    let reach = |from: &str| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_string()];
        while let Some(node) = stack.pop() {
            for next in edges.get(&node).into_iter().flat_map(|e| e.keys()) {
                if seen.insert(next.clone()) {
                    stack.push(next.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|n| (n, reach(n))).collect();
    let mut grouped = BTreeSet::new();
    let mut out = Vec::new();
    for node in edges.keys() {
        if grouped.contains(node) || !reaches[node].contains(node) {
            continue;
        }
        let group: BTreeSet<&String> = reaches[node]
            .iter()
            .filter_map(|other| reaches.get_key_value(other))
            .filter(|(_, r)| r.contains(node))
            .map(|(n, _)| *n)
            .collect();
        let mut lines = Vec::new();
        for &a in &group {
            for (b, names) in &edges[a] {
                if group.contains(b) {
                    let names: Vec<&str> = names.iter().map(String::as_str).collect();
                    lines.push(format!("  {a} -> {b}: {}", names.join(", ")));
                }
            }
            grouped.insert(a.clone());
        }
        let files: Vec<&str> = group.iter().map(|s| s.as_str()).collect();
        out.push(format!(
            "circle of {}\n{}",
            files.join(", "),
            lines.join("\n")
        ));
    }
    out
}

/// Sources from `(path, text)` pairs, for the scanner's own tests.
fn sample(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| Source {
            path: path.to_string(),
            text: text.to_string(),
        })
        .collect()
}

#[test]
fn a_circle_through_super_and_crate_is_found() {
    let sources = sample(&[
        ("lib.rs", "mod a; pub use a::X;"),
        (
            "a/mod.rs",
            "mod b; pub struct X; fn f() { self::b::make(); }",
        ),
        ("a/b.rs", "use super::X; pub fn make() {}"),
        ("c.rs", "use crate::a::X;"),
    ]);
    let found = circles(&sources);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].contains("a/b.rs -> a/mod.rs: super::X"),
        "{}",
        found[0]
    );
    assert!(
        found[0].contains("a/mod.rs -> a/b.rs: self::b::make"),
        "{}",
        found[0]
    );
    assert!(!found[0].contains("c.rs"), "{}", found[0]);
}

#[test]
fn siblings_child_names_and_use_groups_are_edges() {
    let sources = sample(&[
        ("a/mod.rs", "mod x; mod y; pub fn f() { x::g(); }"),
        ("a/x.rs", "use super::{y::{self, H}, f};"),
        ("a/y.rs", "pub struct H;"),
    ]);
    let edges = graph(&sources);
    assert!(edges["a/mod.rs"].contains_key("a/x.rs"));
    assert!(edges["a/x.rs"]["a/y.rs"].contains("super::y::H"));
    assert!(edges["a/x.rs"].contains_key("a/mod.rs"));
    assert_eq!(circles(&sources).len(), 1);
}

#[test]
fn a_folders_re_exports_are_its_front_door() {
    let sources = sample(&[
        (
            "a/mod.rs",
            "mod b; pub use b::Y; pub(crate) use self::b::make; pub struct X;",
        ),
        ("a/b.rs", "use super::X; pub struct Y; pub fn make() {}"),
    ]);
    assert!(circles(&sources).is_empty(), "{:?}", circles(&sources));
}

#[test]
fn no_circle_is_found_where_there_is_none() {
    let sources = sample(&[
        ("lib.rs", "pub mod a; pub mod b; pub use a::A; pub use b::B;"),
        ("a.rs", "use crate::b::B; use crate::A as _; pub struct A(B);"),
        (
            "b.rs",
            "// use crate::a::A;\nconst S: &str = \"crate::a::A\"; const R: &str = r#\"super::a\"#;\npub struct B;\n#[cfg(test)]\nmod tests { use crate::a::A; }",
        ),
    ]);
    assert!(circles(&sources).is_empty(), "{:?}", circles(&sources));
}

#[test]
fn long_functions_are_measured_from_fn_to_the_closing_brace() {
    let body = "    let x = 1;\n".repeat(MAX_LINES - 2);
    let fits = format!("fn fits() {{\n{body}}}\n");
    let over = format!("fn over(a: [u8; 2]) -> u8 {{\n{body}    let s = \"}}\";\n}}\n");
    let test = format!("#[cfg(test)]\nmod tests {{\n    fn long() {{\n{body}{body}    }}\n}}\n");
    let found = long_functions(&format!("{fits}{over}{test}trait T {{ fn f(); }}"));
    assert_eq!(found, vec![("over".to_string(), MAX_LINES + 1)]);
}

#[test]
fn public_items_are_found_by_name_outside_tests() {
    let sources = sample(&[
        ("a.rs", "pub struct Found; pub(crate) enum Event {}"),
        (
            "b.rs",
            "pub enum Found {}\npub type Event = u8;\n// pub struct Hidden;\n#[cfg(test)]\nmod tests { pub struct Event; }",
        ),
    ]);
    let items = public_items(&sources);
    assert_eq!(items["Found"], vec!["a.rs", "b.rs"]);
    assert_eq!(items["Event"], vec!["b.rs"]);
    assert!(!items.contains_key("Hidden"));
}
