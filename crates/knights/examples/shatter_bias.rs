//! Measures the orientation bias of shatter and obfuscate on a square board:
//! the fraction of steep moves (1, 2, 5, 6) minus that of flat ones
//! (0, 3, 4, 7), before and after each step.
//!
//! `cargo run --release -p knights --example shatter_bias -- [N] [SIDE]`

use knights::algorithms::TourneyMethod;
use knights::{rails, Board, Cover};

/// Steep minus flat fraction of the moves of a cover.
fn excess(cover: &Cover) -> f64 {
    let (mut steep, mut all) = (0u64, 0u64);
    for &b in cover.as_bytes() {
        steep += u64::from((b & 0x66).count_ones());
        all += u64::from(b.count_ones());
    }
    (2.0 * steep as f64 - all as f64) / all as f64
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(Ok(200), |s| s.parse())?;
    let side: u64 = args.get(2).map_or(Ok(32), |s| s.parse())?;
    let board = Board::new(side, side)?;
    for gen in [
        TourneyMethod::Braid,
        TourneyMethod::Divide,
        TourneyMethod::Warnsdorff,
    ] {
        let mut sum = [0.0f64; 5];
        let mut switched = 0usize;
        for i in 0..n {
            let mut rng = knights::rng::for_batch(5, i);
            let raw = knights::Tourney::builder(board)
                .method(gen)
                .cover_with(&mut rng)?;
            if i == 0 {
                let mut t = raw.clone();
                rails::obfuscate(&mut t, &Default::default(), &mut rng)?;
                println!(
                    "rails per square: raw {:.3}, obfuscated {:.3}",
                    rails::count_rails(&raw) as f64 / (side * side) as f64,
                    rails::count_rails(&t) as f64 / (side * side) as f64
                );
            }
            sum[0] += excess(&raw);
            let mut one = raw.clone();
            switched += rails::shatter(&mut one, &mut rng)?;
            sum[1] += excess(&one);
            let mut many = raw.clone();
            for _ in 0..16 {
                rails::shatter(&mut many, &mut rng)?;
            }
            sum[2] += excess(&many);
            rails::join(&mut many, &Default::default(), &mut rng)?;
            sum[3] += excess(&many);
            let mut obf = raw.clone();
            rails::obfuscate(&mut obf, &Default::default(), &mut rng)?;
            sum[4] += excess(&obf);
        }
        let m = |k: usize| sum[k] / n as f64;
        println!(
            "{gen:?} {side}x{side} x{n}: raw {:+.4}  1 shatter {:+.4} ({:.4} rails/square)  16 shatters {:+.4}  +join {:+.4}  obfuscate {:+.4}",
            m(0),
            m(1),
            switched as f64 / (n as f64 * (side * side) as f64),
            m(2),
            m(3),
            m(4)
        );
    }
    Ok(())
}
