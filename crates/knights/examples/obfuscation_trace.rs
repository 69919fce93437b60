//! Measures the chirality of obfuscated tours: relative move k minus
//! relative move 8 - k (k = 3, 2, 1), as a fraction of the turns, read
//! along the tour from its start square (as `knights stats` reads it), over
//! all turns and with the turns within r rows and columns of the start left
//! out (r = 0, 3, 6). Mean, and in brackets the mean in standard errors.
//!
//! The reading itself is chiral: from a corner start the first turn is
//! always relative move 3, which puts 3 ahead of 5 by about 0.0009 on 48 x 48
//! for any distribution of tours; beyond 3 squares of the start that is gone.
//!
//! `cargo run --release -p knights --example obfuscation_trace -- [N] [SIDE] [SEED]`
use knights::algorithms::TourneyMethod;
use knights::{rails, Board, Cover};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let n: u64 = args.get(1).map_or(Ok(300), |s| s.parse())?;
    let side: u32 = args.get(2).map_or(Ok(48), |s| s.parse())?;
    let seed: u64 = args.get(3).map_or(Ok(3), |s| s.parse())?;
    let board = Board::new(side.into(), side.into())?;
    let radii = [None, Some(0u32), Some(3), Some(6)];
    for g in [
        TourneyMethod::Divide,
        TourneyMethod::Braid,
        TourneyMethod::FourCover,
        TourneyMethod::Warnsdorff,
        TourneyMethod::Neural,
    ] {
        // per radius: sums of (rel3-rel5, rel2-rel6, rel1-rel7) fractions and squares
        let mut sum = vec![[0.0f64; 3]; radii.len()];
        let mut sq = vec![[0.0f64; 3]; radii.len()];
        for i in 0..n {
            let mut rng = knights::rng::for_batch(seed, i);
            let t = knights::Tour::builder(board)
                .algorithm(g)
                .build_with(&mut rng)?;
            let mut c = Cover::from_tour(&t)?;
            rails::obfuscate(&mut c, &Default::default(), &mut rng)?;
            let t = c.to_tour(t.start(), None)?;
            let s = t.squares();
            let len = s.len();
            let mv = |a: u32, b: u32| board.move_between(a, b).unwrap();
            let start = s[0];
            for (ri, r) in radii.iter().enumerate() {
                let mut cnt = [0u64; 8];
                for j in 0..len {
                    let here = s[j];
                    if let Some(r) = r {
                        let (hr, hc) = (here / side, here % side);
                        let (sr, scol) = (start / side, start % side);
                        if hr.abs_diff(sr) <= *r && hc.abs_diff(scol) <= *r {
                            continue;
                        }
                    }
                    let prev = s[(j + len - 1) % len];
                    let next = s[(j + 1) % len];
                    let rel = (mv(here, next) + 8 - mv(prev, here)) % 8;
                    cnt[rel as usize] += 1;
                }
                let tot: u64 = cnt.iter().sum();
                for (k, e) in [3usize, 2, 1].iter().enumerate() {
                    let d = (cnt[*e] as f64 - cnt[8 - e] as f64) / tot as f64;
                    sum[ri][k] += d;
                    sq[ri][k] += d * d;
                }
            }
        }
        print!("{g:?}:");
        for (ri, r) in radii.iter().enumerate() {
            print!("  r={r:?}");
            for k in 0..3 {
                let m = sum[ri][k] / n as f64;
                let se = ((sq[ri][k] / n as f64 - m * m) / n as f64).sqrt();
                print!(" {:+.4}({:.1})", m, m / se);
            }
        }
        println!();
    }
    Ok(())
}
