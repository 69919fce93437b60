//! The import graph of a crate's module files, and its circles.
//!
//! File A points to file B when A's code names a path into B: `use
//! crate::b::..`, `super::b`, `crate::b::f`, `self::b`, a child module by
//! its name, also inside the arguments of macros such as `format!`. A path
//! goes to the file of its longest prefix that is a module file, so
//! `super::x` is sibling `x` when that is a module, else the parent's file.
//! The crate root (`lib.rs`, `main.rs`) is the crate's front door, whose
//! re-exports everyone names, so it is no node; likewise a module's `pub
//! use` re-exports of its own children's items are its front door, not an
//! edge (its other code naming a child is). Test code is no part of the
//! graph.

use std::collections::{BTreeMap, BTreeSet};

use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

use super::sources::{is_test, item_attributes, Source};

/// For each file, the files it points to and the paths that do.
pub(crate) type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// The import graph of one crate's module files.
pub(crate) fn graph(sources: &[Source]) -> Graph {
    let files: BTreeMap<Vec<String>, String> = sources
        .iter()
        .filter(|s| !s.module.is_empty())
        .map(|s| (s.module.clone(), s.path.clone()))
        .collect();
    let mut graph = Graph::new();
    for source in sources.iter().filter(|s| !s.module.is_empty()) {
        let mut names = Names {
            files: &files,
            own: &source.module,
            module: source.module.clone(),
            front_door: false,
            edges: graph.entry(source.path.clone()).or_default(),
        };
        names.visit_file(&source.file);
    }
    graph
}

/// The visitor that records the paths one file names.
struct Names<'a> {
    files: &'a BTreeMap<Vec<String>, String>,
    own: &'a [String],
    /// The module the visitor is in: the file's, or an inline one in it.
    module: Vec<String>,
    /// Inside a `pub use`: re-exports of the module's own children are
    /// no edges.
    front_door: bool,
    edges: &'a mut BTreeMap<String, BTreeSet<String>>,
}

impl Names<'_> {
    fn name(&mut self, segments: &[String]) {
        let Some(target) = self.resolve(segments) else {
            return;
        };
        if target.as_slice() == self.own || (self.front_door && target.starts_with(self.own)) {
            return;
        }
        let file = self.files[&target].clone();
        self.edges
            .entry(file)
            .or_default()
            .insert(segments.join("::"));
    }

    /// The module file a path leads into, if it is one of the crate's.
    fn resolve(&self, segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut absolute = match first.as_str() {
            "crate" => segments[1..].to_vec(),
            "self" => [&self.module[..], &segments[1..]].concat(),
            "super" => {
                let ups = segments.iter().take_while(|s| *s == "super").count();
                let base = &self.module[..self.module.len().checked_sub(ups)?];
                [base, &segments[ups..]].concat()
            }
            _ if segments.len() == 1 => return None,
            _ => {
                let child = [&self.module[..], &segments[..1]].concat();
                if !self.files.contains_key(&child) {
                    return None;
                }
                [&self.module[..], segments].concat()
            }
        };
        while !absolute.is_empty() {
            if self.files.contains_key(&absolute) {
                return Some(absolute);
            }
            absolute.pop();
        }
        None
    }
}

impl<'ast> Visit<'ast> for Names<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !is_test(item_attributes(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if let Some((_, items)) = &m.content {
            self.module.push(m.ident.to_string());
            for item in items {
                self.visit_item(item);
            }
            self.module.pop();
        }
    }

    fn visit_impl_item(&mut self, item: &'ast syn::ImplItem) {
        let attrs: &[syn::Attribute] = match item {
            syn::ImplItem::Fn(f) => &f.attrs,
            syn::ImplItem::Const(c) => &c.attrs,
            syn::ImplItem::Type(t) => &t.attrs,
            _ => &[],
        };
        if !is_test(attrs) {
            visit::visit_impl_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        self.front_door = !matches!(item.vis, syn::Visibility::Inherited);
        for path in use_paths(&item.tree, Vec::new()) {
            self.name(&path);
        }
        self.front_door = false;
    }

    /// `pub(super)` and `pub(in path)` name no item.
    fn visit_visibility(&mut self, _: &'ast syn::Visibility) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        self.name(&segments);
        visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        let parser = Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
        if let Ok(arguments) = mac.parse_body_with(parser) {
            for argument in &arguments {
                self.visit_expr(argument);
            }
        }
        visit::visit_macro(self, mac);
    }
}

/// The paths a `use` tree names, one per leaf (`a::{b, c::d}` gives `a::b`
/// and `a::c::d`; `a::{self}` gives `a`).
pub(crate) fn use_paths(tree: &syn::UseTree, prefix: Vec<String>) -> Vec<Vec<String>> {
    let with = |name: String| {
        let mut path = prefix.clone();
        if name != "self" || path.is_empty() {
            path.push(name);
        }
        path
    };
    match tree {
        syn::UseTree::Path(p) => use_paths(&p.tree, with(p.ident.to_string())),
        syn::UseTree::Name(n) => vec![with(n.ident.to_string())],
        syn::UseTree::Rename(r) => vec![with(r.ident.to_string())],
        syn::UseTree::Glob(_) => vec![prefix],
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .flat_map(|t| use_paths(t, prefix.clone()))
            .collect(),
    }
}

/// The import circles of a crate: each strongly connected set of files,
/// printed as its edges (`from -> to: the paths named`).
pub(crate) fn circles(sources: &[Source]) -> Vec<String> {
    let graph = graph(sources);
    strongly_connected(&graph)
        .into_iter()
        .filter(|set| set.len() > 1)
        .map(|set| {
            let mut lines = Vec::new();
            for from in &set {
                for (to, paths) in &graph[from] {
                    if set.contains(to) {
                        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
                        lines.push(format!("{from} -> {to}: {}", paths.join(", ")));
                    }
                }
            }
            lines.join("\n")
        })
        .collect()
}

/// The strongly connected sets of the graph (Tarjan's algorithm).
fn strongly_connected(graph: &Graph) -> Vec<BTreeSet<String>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        sets: Vec<BTreeSet<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, node: &'g str) {
            let i = self.index.len();
            self.index.insert(node, i);
            self.low.insert(node, i);
            self.stack.push(node);
            self.on_stack.insert(node);
            for next in self.graph.get(node).into_iter().flat_map(|e| e.keys()) {
                if !self.index.contains_key(next.as_str()) {
                    self.visit(next);
                    let low = self.low[node].min(self.low[next.as_str()]);
                    self.low.insert(node, low);
                } else if self.on_stack.contains(next.as_str()) {
                    let low = self.low[node].min(self.index[next.as_str()]);
                    self.low.insert(node, low);
                }
            }
            if self.low[node] == self.index[node] {
                let mut set = BTreeSet::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    set.insert(top.to_string());
                    if top == node {
                        break;
                    }
                }
                self.sets.push(set);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        sets: Vec::new(),
    };
    for node in graph.keys() {
        if !walk.index.contains_key(node.as_str()) {
            walk.visit(node);
        }
    }
    walk.sets
}
