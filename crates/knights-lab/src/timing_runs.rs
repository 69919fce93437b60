//! Time of the generators against board size, as in Figures 3, 20 and 21 of
//! the tourney paper (Parberry 2020), measured by the command line (wall
//! time is the command's business, not the library's): the plain Warnsdorff
//! tour, and for each
//! tourney generator the tourney alone, joined, and joined then obfuscated.

use std::time::Instant;

use rand::Rng;
use serde::Serialize;

use knights::algorithms::TourneyMethod;
use knights::algorithms::{TourGenerator, TourSpec, Warnsdorff};
use knights::rails::{self, ObfuscateOptions};
use knights::rng::for_batch;
use knights::{Board, Error, Result, Wanted};

/// What is timed.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Form {
    /// A closed tour by Warnsdorff's rule alone (Figure 3).
    Tour,
    /// A tourney of the generator (Figure 20).
    Tourney,
    /// A tourney joined into a closed tour.
    Join,
    /// A tourney joined, then obfuscated (16 shatters and a join; Figure 21).
    Obfuscate,
}

impl Form {
    /// The form's name in tables and legends.
    pub fn name(self) -> &'static str {
        match self {
            Form::Tour => "tour",
            Form::Tourney => "tourney",
            Form::Join => "tourney+join",
            Form::Obfuscate => "tourney+join+obfuscate",
        }
    }
}

/// The mean time of one form on one board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timing {
    /// The generator's name (`warnsdorff` for the plain tour).
    pub generator: &'static str,
    /// What was timed.
    pub form: Form,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Number of runs.
    pub runs: u32,
    /// Mean seconds per run (wall clock of one thread).
    pub seconds: f64,
    /// Mean number of rails of the closed tours made (joined forms only).
    pub rails: Option<f64>,
}

fn timing(board: Board, generator: &'static str, form: Form, runs: u32, total: f64) -> Timing {
    Timing {
        generator,
        form,
        rows: board.rows(),
        cols: board.cols(),
        runs,
        seconds: total / f64::from(runs.max(1)),
        rails: None,
    }
}

fn check_runs(runs: u32) -> Result<()> {
    if runs == 0 {
        return Err(Error::Unsupported(
            "the number of runs must be at least 1".into(),
        ));
    }
    Ok(())
}

/// Times `runs` tourneys of `generator` on `board`, one after another on
/// this thread (run `i` seeded with `rng::for_batch(seed, i)`): the tourney
/// alone, the tourney joined, and the tourney joined and obfuscated, each
/// timed from the start of the run, so the three rows share their runs.
/// The joined rows carry the mean number of rails of their tours.
pub fn time_tourneys(
    board: Board,
    generator: TourneyMethod,
    runs: u32,
    seed: u64,
) -> Result<[Timing; 3]> {
    check_runs(runs)?;
    let (mut made, mut joined, mut obfuscated) = (0.0, 0.0, 0.0);
    let (mut rails_joined, mut rails_obfuscated) = (0u64, 0u64);
    for i in 0..runs {
        let rng = &mut for_batch(seed, u64::from(i));
        let start = Instant::now();
        let mut cover = knights::Tourney::builder(board)
            .method(generator)
            .cover_with(rng)?;
        made += start.elapsed().as_secs_f64();
        rails::join(&mut cover, &Default::default(), rng)?;
        joined += start.elapsed().as_secs_f64();
        let before = Instant::now();
        let joined_rails = rails::count_rails(&cover) as u64;
        let counting = before.elapsed().as_secs_f64();
        rails::obfuscate(&mut cover, &ObfuscateOptions::default(), rng)?;
        obfuscated += start.elapsed().as_secs_f64() - counting;
        rails_joined += joined_rails;
        rails_obfuscated += rails::count_rails(&cover) as u64;
    }
    let name = generator.name();
    let mean = |r: u64| Some(r as f64 / f64::from(runs));
    let mut join = timing(board, name, Form::Join, runs, joined);
    join.rails = mean(rails_joined);
    let mut obf = timing(board, name, Form::Obfuscate, runs, obfuscated);
    obf.rails = mean(rails_obfuscated);
    Ok([timing(board, name, Form::Tourney, runs, made), join, obf])
}

/// Times `runs` closed tours by Warnsdorff's rule alone (restarting until a
/// walk closes, under its attempt budget), as in Figure 3.
pub fn time_warnsdorff_tours(board: Board, runs: u32, seed: u64) -> Result<Timing> {
    check_runs(runs)?;
    let mut total = 0.0;
    let spec = TourSpec {
        kind: Wanted::Closed,
        ..TourSpec::new(board)
    };
    for i in 0..runs {
        let rng = &mut for_batch(seed, u64::from(i));
        let _: u64 = rng.random(); // a stream apart from the tourney runs'
        let start = Instant::now();
        Warnsdorff::default().generate(&spec, rng)?;
        total += start.elapsed().as_secs_f64();
    }
    Ok(timing(board, "warnsdorff", Form::Tour, runs, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_rows_for_every_generator() {
        let board = Board::new(12, 12).unwrap();
        for g in TourneyMethod::ALL {
            let rows = time_tourneys(board, g, 2, 5).unwrap();
            assert_eq!(
                rows.clone().map(|t| t.form),
                [Form::Tourney, Form::Join, Form::Obfuscate]
            );
            for t in &rows {
                assert_eq!((t.generator, t.rows, t.cols, t.runs), (g.name(), 12, 12, 2));
                assert!(t.seconds.is_finite() && t.seconds >= 0.0);
            }
            // The three forms share their runs, each timed from the run's start.
            assert!(rows[0].seconds <= rows[1].seconds && rows[1].seconds <= rows[2].seconds);
            assert_eq!(rows[0].rails, None);
            // Every closed tour of a board this size has rails (the Rail Conjecture).
            assert!(rows[1].rails.unwrap() >= 1.0 && rows[2].rails.unwrap() >= 1.0);
        }
        let t = time_warnsdorff_tours(board, 2, 5).unwrap();
        assert_eq!((t.form, t.generator), (Form::Tour, "warnsdorff"));
        assert!(time_tourneys(board, TourneyMethod::Braid, 0, 5).is_err());
        // Boards a generator does not take are refused, not timed.
        assert!(
            time_tourneys(Board::new(10, 10).unwrap(), TourneyMethod::FourCover, 1, 5).is_err()
        );
    }
}
