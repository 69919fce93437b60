//! Throughput of the knight's tour cipher: exact and classic mode, both ways,
//! on a 1 MiB seeded text with keys on 8x8 and 100x100.

#![allow(missing_docs)] // `criterion_group!` makes an undocumented public function.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use knights::cipher::{decrypt, encrypt, Key, KeySpec, Mode};
use rand::Rng;

/// 1 MiB of seeded text: words of mixed ASCII and a few non-ASCII letters, lines.
fn text() -> String {
    let mut rng = knights::rng::seeded(1);
    let alphabet: Vec<char> = "abcdefghijklmnopqrstuvwxyz ,.\nÄé😀".chars().collect();
    let mut s = String::new();
    while s.len() < 1 << 20 {
        s.push(alphabet[rng.random_range(0..alphabet.len())]);
    }
    s
}

fn bench(c: &mut Criterion) {
    let text = text();
    let mut group = c.benchmark_group("cipher");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    for board in ["8x8", "100x100"] {
        let key =
            Key::from_spec(&board.parse::<KeySpec>().unwrap(), &knights::Control::new()).unwrap();
        for (name, mode) in [("exact", Mode::Exact), ("classic", Mode::Classic)] {
            let secret = encrypt(&key, &text, mode).unwrap();
            group.bench_function(format!("encrypt/{name}/{board}"), |b| {
                b.iter(|| encrypt(&key, black_box(&text), mode).unwrap())
            });
            group.bench_function(format!("decrypt/{name}/{board}"), |b| {
                b.iter(|| decrypt(&key, black_box(&secret), mode).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
