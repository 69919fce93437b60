//! Ciphertexts: the header and body of `knights-cipher v1` and the classic
//! form, deciphered with a fixed key; whatever deciphers enciphers back.
#![no_main]
use libfuzzer_sys::fuzz_target;

use knights::cipher::{decrypt, encrypt, Key, KeySpec, Mode};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let spec: KeySpec = "3x4,seed=1".parse().expect("a key");
    let key = Key::from_spec(&spec).expect("3x4 has a tour");
    if let Ok(plain) = decrypt(&key, text, Mode::Exact) {
        let again = encrypt(&key, &plain, Mode::Exact).expect("a deciphered text enciphers");
        assert_eq!(decrypt(&key, &again, Mode::Exact).expect("round trip"), plain);
    }
    let _ = decrypt(&key, text, Mode::Classic);
    let _ = encrypt(&key, text, Mode::Exact);
    let _ = encrypt(&key, text, Mode::Classic);
});
