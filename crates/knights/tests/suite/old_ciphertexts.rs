//! Stored keys keep working: ciphertexts made by an earlier version decrypt
//! with the same key descriptions (`tests/data/old_ciphertexts.toml`).

use knights::cipher::{decrypt, Key, KeySpec, Mode};

use super::data;

#[test]
fn ciphertexts_of_an_earlier_version_still_decrypt() {
    let doc: toml::Value = toml::from_str(&data("old_ciphertexts.toml")).unwrap();
    let plaintext = doc["plaintext"].as_str().unwrap();
    let letters: String = plaintext
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let entries = doc["ciphertext"].as_array().unwrap();
    assert!(entries.len() >= 10, "the data file lists its ciphertexts");
    for entry in entries {
        let spec: KeySpec = entry["key"].as_str().unwrap().parse().unwrap();
        let key = Key::new(spec.tour(&knights::Control::new()).unwrap()).unwrap();
        let exact = decrypt(&key, entry["exact"].as_str().unwrap(), Mode::Exact).unwrap();
        assert_eq!(exact, plaintext, "{spec}");
        let classic = decrypt(&key, entry["classic"].as_str().unwrap(), Mode::Classic).unwrap();
        let classic: String = classic.chars().filter(|c| !c.is_whitespace()).collect();
        assert!(classic.starts_with(&letters), "{spec}: {classic}");
    }
}
