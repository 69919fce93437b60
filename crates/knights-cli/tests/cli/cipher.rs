//! `knights encrypt` and `knights decrypt`, run as the real binary.

use predicates::prelude::*;

use super::{data, knights};

/// The cipher article's tour (The Knight's Tour, n.d.), its key.
const KEY_GRID: &str = "\
56 25 40 11 36 23 62 13
41 10 55 24 63 12 35 22
26 57 52 39 48 37 14 61
09 42 27 54 51 60 21 34
28 53 58 47 38 49 00 15
05 08 43 50 59 18 33 20
44 29 06 03 46 31 16 01
07 04 45 30 17 02 19 32
";
const PLAINTEXT: &str =
    "NEARLY EVERY INVENTOR OF A CIPHER SYSTEM FIRMLY BELIEVES IT IS IMPREGNABLE X.";
const CIPHERTEXT: &str =
    "LRLSG BIEEP RRVVC YPBVE SSNYI ETEET AMXET ELARO AEHLI NIIFM ISRMR YNOFE YIEN\n";
const NORMALISED: &str = "NEARLYEVERYINVENTOROFACIPHERSYSTEMFIRMLYBELIEVESITISIMPREGNABLEX\n";

/// A temporary directory with the cipher article's key grid in `key.txt`.
fn key_dir(name: &str) -> std::path::PathBuf {
    let dir = super::scratch(&format!("cipher-{name}"));
    std::fs::write(dir.join("key.txt"), KEY_GRID).unwrap();
    dir
}

#[test]
fn cipher_article_classic_both_ways() {
    let dir = key_dir("article");
    let key = dir.join("key.txt");
    knights()
        .args(["encrypt", "--classic", "--key"])
        .arg(&key)
        .write_stdin(PLAINTEXT)
        .assert()
        .success()
        .stdout(CIPHERTEXT);
    std::fs::write(dir.join("secret.txt"), CIPHERTEXT).unwrap();
    knights()
        .args(["decrypt", "--classic", "--key"])
        .arg(&key)
        .arg("--input")
        .arg(dir.join("secret.txt"))
        .assert()
        .success()
        .stdout(NORMALISED);
    std::fs::remove_dir_all(dir).unwrap();
    // The article's labelled grid, as the article prints it, is the same key.
    knights()
        .args([
            "encrypt",
            "--classic",
            "--key",
            &data("cipher_article_grid.txt"),
        ])
        .write_stdin(PLAINTEXT)
        .assert()
        .success()
        .stdout(CIPHERTEXT);
}

#[test]
fn exact_mode_round_trips_through_the_binary() {
    let message = "Grüße aus Köln!\n\tZeile 2 — «ça va?» 🐴\\n\r\n";
    for key in [
        "8x8",
        "5x7,seed=9,start=2,2",
        "12x12,algorithm=warnsdorff,seed=5,closed",
    ] {
        let secret = knights()
            .args(["encrypt", "--key", key])
            .write_stdin(message)
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let secret = String::from_utf8(secret).unwrap();
        assert!(secret.starts_with("knights-cipher v1 "), "{secret}");
        knights()
            .args(["decrypt", "--key", key])
            .write_stdin(secret)
            .assert()
            .success()
            .stdout(message);
    }
}

#[test]
fn bad_input_exits_2_with_a_reason() {
    let dir = key_dir("bad");
    let bad_key = dir.join("bad.txt");
    std::fs::write(&bad_key, KEY_GRID.replace("56", "99")).unwrap();
    let cases: Vec<(Vec<String>, &str, &str)> = vec![
        (
            vec![
                "encrypt".into(),
                "--key".into(),
                bad_key.display().to_string(),
            ],
            "x",
            "not a knight's tour",
        ),
        (
            vec!["encrypt".into(), "--key".into(), "4x4".into()],
            "x",
            "gives no tour",
        ),
        (
            vec!["encrypt".into(), "--key".into(), "8x8,seed=x".into()],
            "x",
            "not a whole number",
        ),
        (
            vec!["encrypt".into(), "--key".into(), "nonsense".into()],
            "x",
            "there is no key file 'nonsense'",
        ),
        (
            vec!["encrypt".into(), "--key".into(), "8x8".into()],
            "",
            "empty",
        ),
        (
            vec![
                "encrypt".into(),
                "--classic".into(),
                "--key".into(),
                "8x8".into(),
            ],
            "123 !",
            "no letters A-Z",
        ),
        (
            vec![
                "decrypt".into(),
                "--classic".into(),
                "--key".into(),
                "8x8".into(),
            ],
            "ABCDE",
            "5 letters",
        ),
        (
            vec![
                "decrypt".into(),
                "--classic".into(),
                "--key".into(),
                "8x8".into(),
            ],
            "ABCD3",
            "'3'",
        ),
        (
            vec!["decrypt".into(), "--key".into(), "8x8".into()],
            "ABCDE FGHIJ",
            "--classic",
        ),
        (
            vec!["decrypt".into(), "--key".into(), "8x8".into()],
            "knights-cipher v1 6x6 3\nabc\n",
            "key on 6x6",
        ),
        (
            vec!["decrypt".into(), "--key".into(), "8x8".into()],
            "knights-cipher v1 8x8 4\nabc\n",
            "cut short",
        ),
        (
            vec![
                "encrypt".into(),
                "--key".into(),
                "8x8".into(),
                "--input".into(),
                "/nonexistent/x".into(),
            ],
            "",
            "cannot open",
        ),
    ];
    for (args, stdin, needle) in cases {
        knights()
            .args(&args)
            .write_stdin(stdin)
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::contains(needle).and(predicate::str::contains("panicked").not()),
            );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn classic_notes_letters_it_leaves_out() {
    knights()
        .args(["encrypt", "--classic", "--key", "5x5"])
        .write_stdin("Café")
        .assert()
        .success()
        .stderr(predicate::str::contains("1 other letter such as 'é'"));
}
