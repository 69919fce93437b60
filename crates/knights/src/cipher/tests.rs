//! The cipher against the cipher article's example (The Knight's Tour, n.d.), pinned keys, and round-trip properties.

use proptest::prelude::*;

use super::*;
use crate::check::check_tour;
use crate::{Board, Error, Wanted};

/// The cipher vectors (`tests/data/cipher.toml`).
const VECTORS: &str = include_str!("../../tests/data/cipher.toml");

#[derive(Debug)]
struct Vector {
    name: String,
    rows: u32,
    cols: u32,
    key_grid: String,
    plaintext: String,
    normalised: String,
    ciphertext: String,
}

fn vectors() -> Vec<Vector> {
    let doc: toml::Value = toml::from_str(VECTORS).expect("the vector file is TOML");
    let field = |v: &toml::Value, k: &str| -> String {
        v.get(k)
            .and_then(toml::Value::as_str)
            .unwrap_or_else(|| panic!("vector field {k}"))
            .to_string()
    };
    let number = |v: &toml::Value, k: &str| -> u32 {
        v.get(k)
            .and_then(toml::Value::as_integer)
            .unwrap_or_else(|| panic!("vector field {k}")) as u32
    };
    doc["vector"]
        .as_array()
        .expect("[[vector]] entries")
        .iter()
        .map(|v| Vector {
            name: field(v, "name"),
            rows: number(v, "rows"),
            cols: number(v, "cols"),
            key_grid: field(v, "key_grid"),
            plaintext: field(v, "plaintext"),
            normalised: field(v, "normalised"),
            ciphertext: field(v, "ciphertext"),
        })
        .collect()
}

#[test]
fn cipher_article_vector() {
    let all = vectors();
    assert!(!all.is_empty());
    for v in all {
        let key = Key::from_text(&v.key_grid).unwrap();
        assert_eq!((key.board().rows(), key.board().cols()), (v.rows, v.cols));
        assert_eq!(normalise(&v.plaintext), v.normalised, "{}", v.name);
        let c = encrypt(&key, &v.plaintext, Mode::Classic).unwrap();
        assert_eq!(c, format!("{}\n", v.ciphertext), "{}", v.name);
        assert_eq!(
            decrypt(&key, &v.ciphertext, Mode::Classic).unwrap(),
            v.normalised,
            "{}",
            v.name
        );
        // The exact mode of the same key gets the same letters back too.
        let e = encrypt(&key, &v.plaintext, Mode::Exact).unwrap();
        assert_eq!(decrypt(&key, &e, Mode::Exact).unwrap(), v.plaintext);
    }
}

#[test]
fn keys_are_checked() {
    // Steps 0 and 1 swapped: squares 0 and 6 ... no longer a knight's path.
    let bad = " 1  3  6  9\n11  8  0  4\n 2  5 10  7\n";
    let e = Key::from_text(bad).unwrap_err();
    assert!(matches!(e, Error::Parse(_)), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("the key is not a knight's tour: "),
        "{e}"
    );
    let tourney = r#"{"rows": 3, "cols": 4, "cycles": [[[0,0],[1,2]], [[0,1],[1,3]]]}"#;
    assert!(Key::from_text(tourney).is_err());
    let e = Key::from_spec(&"4x4".parse().unwrap(), &crate::Control::new()).unwrap_err();
    assert!(matches!(e, Error::BadKey { .. }), "{e:?}");
    assert_eq!(e.category(), crate::Category::BadInput);
    assert!(e.to_string().contains("gives no tour"), "{e}");
}

/// The description `8x8,seed=5` must give this tour for ever: ciphertexts
/// made with it must stay readable. If the generator changes, this fails.
#[test]
fn pinned_key_description() {
    let spec: KeySpec = "8x8,seed=5".parse().unwrap();
    let tour = spec.tour(&crate::Control::new()).unwrap();
    assert_eq!(check_tour(&tour), Ok(crate::Kind::Open));
    assert_eq!(tour.squares()[..8], PINNED_8X8_SEED_5);
    let key = Key::new(tour).unwrap();
    assert_eq!(
        encrypt(&key, "Meet me at the old mill.\n", Mode::Exact).unwrap(),
        PINNED_MESSAGE
    );
}

const PINNED_8X8_SEED_5: [u32; 8] = [43, 58, 48, 33, 16, 1, 11, 5];
const PINNED_MESSAGE: &str = "knights-cipher v1 8x8 25\nletmo\\nt  le.dM heame l it\n";

/// A key from Warnsdorff's rule on a board of 5..=12 by 5..=12 squares.
/// Every description gives a tour (`opened` moves the start of a closed walk
/// off the squares from which no open tour starts).
fn key_strategy() -> impl Strategy<Value = Key> {
    (5u64..=12, 5u64..=12, any::<u64>()).prop_map(|(r, c, seed)| {
        let mut spec = KeySpec::new(Board::new(r, c).unwrap());
        spec.seed = seed;
        let tour = spec
            .tour(&crate::Control::new())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_tour(&tour).unwrap();
        assert!(!tour.is_closed(), "{spec}");
        Key::new(tour).unwrap()
    })
}

/// The seeds that once gave no tour: Warnsdorff's walk closed at a start
/// that is a knight's move from two corners (see `algorithms::make_open`).
#[test]
fn keys_whose_walk_closes_next_to_two_corners() {
    for (r, c, seed) in [(8, 5, 297), (10, 5, 182), (10, 5, 282), (12, 5, 236)] {
        let mut spec = KeySpec::new(Board::new(r, c).unwrap());
        spec.seed = seed;
        let tour = spec
            .tour(&crate::Control::new())
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        check_tour(&tour).unwrap();
        assert!(!tour.is_closed());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn exact_round_trips_any_text(key in key_strategy(),
                                  chars in proptest::collection::vec(any::<char>(), 1..400)) {
        let text: String = chars.into_iter().collect();
        let c = encrypt(&key, &text, Mode::Exact).unwrap();
        prop_assert_eq!(&decrypt(&key, &c, Mode::Exact).unwrap(), &text);
        // Copying damage that the format forgives: CRLF, indentation, trailing blanks.
        let mangled: String = c.lines().map(|l| format!("  {l} \t\r\n")).collect();
        prop_assert_eq!(&decrypt(&key, &mangled, Mode::Exact).unwrap(), &text);
        // The body is a permutation of the text.
        let body: String = c.split_once('\n').unwrap().1.to_string();
        let mut a: Vec<char> = decrypt_body_chars(&body);
        let mut b: Vec<char> = text.chars().collect();
        a.sort_unstable();
        b.sort_unstable();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn exact_round_trips_printable_text(key in key_strategy(), text in "\\PC{1,300}") {
        let c = encrypt(&key, &text, Mode::Exact).unwrap();
        prop_assert_eq!(decrypt(&key, &c, Mode::Exact).unwrap(), text);
    }

    #[test]
    fn classic_round_trips_its_normal_form(key in key_strategy(), text in "[ -~é\n]{1,400}") {
        prop_assume!(!normalise(&text).is_empty());
        let c = encrypt(&key, &text, Mode::Classic).unwrap();
        let n = key.block_len();
        for line in c.lines() {
            prop_assert!(line.len() <= 77);
            prop_assert!(line.split(' ').all(|g| !g.is_empty() && g.len() <= 5));
        }
        let plain = decrypt(&key, &c, Mode::Classic).unwrap();
        prop_assert_eq!(plain.len() % n, 0);
        prop_assert_eq!(plain, classic_form(&text, n));
    }

    #[test]
    fn key_descriptions_print_and_parse_back(r in 1u64..40, c in 1u64..40, seed in any::<u64>(),
                                             start in proptest::option::of((0u32..40, 0u32..40)),
                                             want in 0u8..3, attempts in proptest::option::of(1u32..5000)) {
        let mut spec = KeySpec::new(Board::new(r, c).unwrap());
        spec.seed = seed;
        spec.start = start.map(|(a, b)| (a % r as u32, b % c as u32));
        spec.kind = [Wanted::Open, Wanted::Closed, Wanted::Either][want as usize];
        spec.max_attempts = attempts;
        prop_assert_eq!(spec.to_string().parse::<KeySpec>().unwrap(), spec);
    }
}

/// The characters of a ciphertext body (escapes decoded, line breaks dropped).
fn decrypt_body_chars(body: &str) -> Vec<char> {
    let mut out = Vec::new();
    let mut it = body.lines().flat_map(str::chars);
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('s') => out.push(' '),
            Some('u') => {
                let hex: String = it.by_ref().skip(1).take_while(|&d| d != '}').collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            other => panic!("bad escape {other:?}"),
        }
    }
    out
}
