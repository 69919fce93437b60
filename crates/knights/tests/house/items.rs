//! The library's public items: which names are shared, and the listing of
//! the public API that docs/architecture.md holds.
//!
//! The listing follows the crate's public modules (`pub mod`) from its
//! root and names each public item of each (functions, types, traits,
//! constants, statics, modules, exported macros) and each public
//! re-export, one line each, as `kind path`. Methods are not listed: they
//! belong to their type.

use std::collections::BTreeMap;

use super::sources::{is_test, item_attributes, Source};

/// For each name of a public type or trait (`pub struct`, `enum`, `trait`,
/// `type`, `union`) outside tests, the files that declare one.
pub(crate) fn public_names(sources: &[Source]) -> BTreeMap<String, Vec<String>> {
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for source in sources {
        walk(&source.file.items, &mut |item| {
            let (vis, ident) = match item {
                syn::Item::Struct(i) => (&i.vis, &i.ident),
                syn::Item::Enum(i) => (&i.vis, &i.ident),
                syn::Item::Trait(i) => (&i.vis, &i.ident),
                syn::Item::Type(i) => (&i.vis, &i.ident),
                syn::Item::Union(i) => (&i.vis, &i.ident),
                _ => return,
            };
            if matches!(vis, syn::Visibility::Public(_)) {
                let places = names.entry(ident.to_string()).or_default();
                if !places.contains(&source.path) {
                    places.push(source.path.clone());
                }
            }
        });
    }
    names
}

/// Calls `f` on every item outside test code, inline modules' items too.
fn walk(items: &[syn::Item], f: &mut dyn FnMut(&syn::Item)) {
    for item in items {
        if let syn::Item::Mod(m) = item {
            if is_test(&m.attrs) {
                continue;
            }
            if let Some((_, inner)) = &m.content {
                walk(inner, f);
            }
        }
        f(item);
    }
}

/// The public API of the crate named `krate`, one line per item, sorted.
pub(crate) fn public_api(krate: &str, sources: &[Source]) -> Vec<String> {
    let files: BTreeMap<&[String], &Source> =
        sources.iter().map(|s| (s.module.as_slice(), s)).collect();
    let mut lines = Vec::new();
    let root = files
        .get([].as_slice())
        .expect("the crate root is among the sources");
    module_api(&root.file.items, &[], &files, krate, &mut lines);
    lines.sort();
    lines
}

/// The public items of one public module, and of its public modules.
fn module_api(
    items: &[syn::Item],
    module: &[String],
    files: &BTreeMap<&[String], &Source>,
    krate: &str,
    lines: &mut Vec<String>,
) {
    let path = |name: &str| {
        let mut parts = vec![krate.to_string()];
        parts.extend(module.iter().cloned());
        parts.push(name.to_string());
        parts.join("::")
    };
    for item in items {
        let Some((kind, vis, name)) = described(item) else {
            continue;
        };
        let exported = matches!(item, syn::Item::Macro(m) if m.attrs.iter().any(|a| a.path().is_ident("macro_export")));
        if is_test(item_attributes(item))
            || !(exported || matches!(vis, Some(syn::Visibility::Public(_))))
        {
            continue;
        }
        match item {
            syn::Item::Use(u) => {
                for (name, target) in re_exports(&u.tree, Vec::new()) {
                    lines.push(format!("re-export {} = {}", path(&name), target.join("::")));
                }
            }
            syn::Item::Mod(m) => {
                lines.push(format!("mod {}", path(&name)));
                let mut inner = module.to_vec();
                inner.push(name.clone());
                match &m.content {
                    Some((_, items)) => module_api(items, &inner, files, krate, lines),
                    None => {
                        let file = files.get(inner.as_slice()).unwrap_or_else(|| {
                            panic!("module {} has no file among the sources", inner.join("::"))
                        });
                        module_api(&file.file.items, &inner, files, krate, lines);
                    }
                }
            }
            _ => lines.push(format!("{kind} {}", path(&name))),
        }
    }
}

/// An item's kind, visibility and name, for the kinds the listing shows.
fn described(item: &syn::Item) -> Option<(&'static str, Option<&syn::Visibility>, String)> {
    Some(match item {
        syn::Item::Const(i) => ("const", Some(&i.vis), i.ident.to_string()),
        syn::Item::Enum(i) => ("enum", Some(&i.vis), i.ident.to_string()),
        syn::Item::Fn(i) => ("fn", Some(&i.vis), i.sig.ident.to_string()),
        syn::Item::Macro(i) => ("macro", None, i.ident.as_ref()?.to_string()),
        syn::Item::Mod(i) => ("mod", Some(&i.vis), i.ident.to_string()),
        syn::Item::Static(i) => ("static", Some(&i.vis), i.ident.to_string()),
        syn::Item::Struct(i) => ("struct", Some(&i.vis), i.ident.to_string()),
        syn::Item::Trait(i) => ("trait", Some(&i.vis), i.ident.to_string()),
        syn::Item::Type(i) => ("type", Some(&i.vis), i.ident.to_string()),
        syn::Item::Union(i) => ("union", Some(&i.vis), i.ident.to_string()),
        syn::Item::Use(i) => ("re-export", Some(&i.vis), String::new()),
        _ => return None,
    })
}

/// The names a `use` tree gives and the paths they stand for (`a::{B, C
/// as D}` gives `B = a::B` and `D = a::C`; a glob `a::*` gives `* = a`).
fn re_exports(tree: &syn::UseTree, mut prefix: Vec<String>) -> Vec<(String, Vec<String>)> {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            re_exports(&p.tree, prefix)
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            let name = prefix.last().cloned().unwrap_or_default();
            vec![(name, prefix)]
        }
        syn::UseTree::Name(n) => {
            prefix.push(n.ident.to_string());
            vec![(n.ident.to_string(), prefix)]
        }
        syn::UseTree::Rename(r) => {
            prefix.push(r.ident.to_string());
            vec![(r.rename.to_string(), prefix)]
        }
        syn::UseTree::Glob(_) => vec![("*".to_string(), prefix)],
        syn::UseTree::Group(g) => g
            .items
            .iter()
            .flat_map(|t| re_exports(t, prefix.clone()))
            .collect(),
    }
}
