//! Move statistics over many generated tours or tourneys, in one place for
//! every front end: `knights stats`, `knights paper`, the web page and
//! Python's `knights.stats` all sample through [`summarise`].

use crate::algorithms::{tourney, Algorithm, Generator};
use crate::{rails, Board, Cover, Error, Kind, Result, StopFlag, Tour};

use super::{sample, MoveCounts, Summary, SummaryBuilder};

/// The figure that records whether each tour came out closed: its mean is
/// the share of closed tours.
pub const CLOSED_FIGURE: &str = "closed";

/// What one sample is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// A tour by the algorithm, of the kind (`None`: either), obfuscated
    /// with this many shatters if any (a closed tour is then asked for).
    Tour(Algorithm, Option<Kind>, Option<u32>),
    /// A raw tourney of the generator.
    Tourney(Generator),
}

/// The move and relative-move distributions of `count` samples of `job`
/// on `board`, sample `i` drawn with [`crate::rng::for_batch`]`(seed, i)`
/// (the same summary on any number of threads), with the figures `rails`
/// (of the closed tours) or `cycles` (of the tourneys) and, for tours,
/// [`CLOSED_FIGURE`]. `progress` is called after every sample; a raised
/// `stop` ends the work with [`Error::Interrupted`].
///
/// # Example
/// ```
/// use knights::stats::{summarise, Job, CLOSED_FIGURE};
/// use knights::algorithms::Algorithm;
/// let job = Job::Tour("warnsdorff".parse::<Algorithm>()?, None, None);
/// let s = summarise("8x8".parse()?, job, 20, 1, &|| {}, None)?;
/// assert_eq!(s.count, 20);
/// let closed = s.figures.iter().find(|f| f.name == CLOSED_FIGURE).unwrap();
/// assert!((0.0..=1.0).contains(&closed.mean));
/// # Ok::<(), knights::Error>(())
/// ```
pub fn summarise(
    board: Board,
    job: Job,
    count: u64,
    seed: u64,
    progress: &(dyn Fn() + Sync),
    stop: Option<&StopFlag>,
) -> Result<Summary> {
    let stop = stop.cloned().unwrap_or_default();
    let trial = |rng: &mut crate::rng::KnightRng| {
        if stop.is_stopped() {
            return Err(Error::Interrupted("the statistics were stopped".into()));
        }
        one(board, job, &stop, rng)
    };
    let results = sample(count, seed, trial, progress)?;
    let figure = match job {
        Job::Tour(..) => "rails",
        Job::Tourney(_) => "cycles",
    };
    let mut builder = SummaryBuilder::default();
    for (counts, value, closed) in &results {
        builder.push(counts);
        if let Some(v) = value {
            builder.push_figure(figure, *v);
        }
        if let Some(closed) = closed {
            builder.push_figure(CLOSED_FIGURE, if *closed { 1.0 } else { 0.0 });
        }
    }
    Ok(builder.finish(board))
}

/// The counts of one sample, its figure (`rails` of a closed tour, `cycles`
/// of a tourney) and, for a tour, whether it came out closed.
/// A raised `stop` ends the sample's own search too.
fn one(
    board: Board,
    job: Job,
    stop: &StopFlag,
    rng: &mut crate::rng::KnightRng,
) -> Result<(MoveCounts, Option<f64>, Option<bool>)> {
    match job {
        Job::Tourney(g) => {
            let t = tourney::tourney_with_stop(board, g, stop, rng)?.to_tourney()?;
            Ok((MoveCounts::of_tourney(&t), Some(t.len() as f64), None))
        }
        Job::Tour(algorithm, kind, shatters) => {
            let mut request = Tour::builder(board)
                .kind(kind)
                .algorithm(algorithm)
                .stop_flag(stop.clone());
            if let Some(shatters) = shatters {
                request = request.closed().obfuscate(shatters);
            }
            let tour = request.build_with(rng)?;
            let rails = if tour.is_closed() {
                Some(rails::count_rails(&Cover::from_tour(&tour)?) as f64)
            } else {
                None
            };
            Ok((MoveCounts::of_tour(&tour), rails, Some(tour.is_closed())))
        }
    }
}
