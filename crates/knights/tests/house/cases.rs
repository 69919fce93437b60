//! The house checks on small made-up crates, so that each can fail.

use super::items::{public_api, public_names};
use super::modules::{circles, graph};
use super::sources::{source, Source};

fn sample(files: &[(&str, &str)]) -> Vec<Source> {
    files
        .iter()
        .map(|(path, text)| source(path, text))
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
fn siblings_child_names_use_groups_and_macro_arguments_are_edges() {
    let sources = sample(&[
        ("a/mod.rs", "mod x; mod y; mod z; pub fn f() { x::g(); }"),
        ("a/x.rs", "use super::{y::{self, H}, f};"),
        ("a/y.rs", "pub struct H;"),
        ("a/z.rs", "fn k() { println!(\"{}\", super::y::N); }"),
    ]);
    let edges = graph(&sources);
    assert!(edges["a/mod.rs"].contains_key("a/x.rs"));
    assert!(edges["a/x.rs"]["a/y.rs"].contains("super::y::H"));
    assert!(edges["a/x.rs"].contains_key("a/mod.rs"));
    assert!(edges["a/z.rs"]["a/y.rs"].contains("super::y::N"));
    assert_eq!(circles(&sources).len(), 1);
}

#[test]
fn a_modules_re_exports_are_its_front_door() {
    let sources = sample(&[
        (
            "a/mod.rs",
            "mod b; pub use b::Y; pub(crate) use self::b::make; pub struct X;",
        ),
        (
            "a/b.rs",
            "use super::X; pub struct Y; pub(super) fn make() {}",
        ),
    ]);
    assert!(circles(&sources).is_empty(), "{:?}", circles(&sources));
}

#[test]
fn comments_strings_and_tests_name_no_path() {
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
fn public_types_are_found_by_name_outside_tests() {
    let sources = sample(&[
        ("a.rs", "pub struct Found; pub(crate) enum Event {}"),
        (
            "b.rs",
            "pub enum Found {}\npub type Event = u8;\n// pub struct Hidden;\n#[cfg(test)]\nmod tests { pub struct Event; }",
        ),
    ]);
    let names = public_names(&sources);
    assert_eq!(names["Found"], vec!["a.rs", "b.rs"]);
    assert_eq!(names["Event"], vec!["b.rs"]);
    assert!(!names.contains_key("Hidden"));
}

#[test]
fn the_api_listing_follows_public_modules_and_re_exports() {
    let sources = sample(&[
        (
            "lib.rs",
            "pub mod a; mod hidden; pub use hidden::{Shown, Old as New};\npub(crate) fn inner() {}\n#[macro_export]\nmacro_rules! m { () => {} }",
        ),
        (
            "a.rs",
            "pub fn f() {}\npub const C: u8 = 1;\nfn private() {}\npub mod b { pub struct S; }\n#[cfg(test)]\npub fn t() {}",
        ),
        ("hidden.rs", "pub struct Shown; pub struct Old; pub struct Unseen;"),
    ]);
    assert_eq!(
        public_api("k", &sources),
        vec![
            "const k::a::C",
            "fn k::a::f",
            "macro k::m",
            "mod k::a",
            "mod k::a::b",
            "re-export k::New = hidden::Old",
            "re-export k::Shown = hidden::Shown",
            "struct k::a::b::S",
        ]
    );
}
