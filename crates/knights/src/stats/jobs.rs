//! Move statistics over many generated tours or tourneys, in one place for
//! every front end: `knights stats`, `knights paper`, the web page and
//! Python's `knights.stats` all sample through [`Summary::builder`].

use crate::algorithms::{tourney_methods, Algorithm, TourneyMethod};
use crate::{rails, Board, Control, Cover, Phase, Progress, Result, Tour, Wanted};

use super::{sample, MoveCounts, RunningSummary, Summary};

/// The figure that records whether each tour came out closed: its mean is
/// the share of closed tours.
pub const CLOSED_FIGURE: &str = "closed";

/// What one sample is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sampled {
    /// A tour by the algorithm, of the kind wanted, obfuscated with this
    /// many shatters if any (a closed tour is then asked for).
    Tour(Algorithm, Wanted, Option<u32>),
    /// A raw tourney of the generator.
    Tourney(TourneyMethod),
}

/// The statistics of many samples of one [`Sampled`], made by
/// [`Summary::builder`].
#[derive(Clone, Debug)]
#[must_use = "a SummaryBuilder does nothing until run"]
pub struct SummaryBuilder<'a> {
    board: Board,
    job: Sampled,
    samples: u64,
    seed: u64,
    control: Option<&'a Control>,
}

impl Summary {
    /// A builder of the summary of samples of `job` on `board`: 1000
    /// samples, seed 0, never stopped.
    ///
    /// # Example
    /// ```
    /// use knights::stats::{Sampled, Summary, CLOSED_FIGURE};
    /// use knights::Wanted;
    /// let job = Sampled::Tour("warnsdorff".parse()?, Wanted::Either, None);
    /// let s = Summary::builder("8x8".parse()?, job).samples(20).seed(1).run()?;
    /// assert_eq!(s.count, 20);
    /// let closed = s.figures.iter().find(|f| f.name == CLOSED_FIGURE).unwrap();
    /// assert!((0.0..=1.0).contains(&closed.mean));
    /// # Ok::<(), knights::Error>(())
    /// ```
    pub fn builder<'a>(board: Board, job: Sampled) -> SummaryBuilder<'a> {
        SummaryBuilder {
            board,
            job,
            samples: 1000,
            seed: 0,
            control: None,
        }
    }
}

impl<'a> SummaryBuilder<'a> {
    /// Draws `samples` samples.
    pub fn samples(mut self, samples: u64) -> Self {
        self.samples = samples;
        self
    }

    /// Draws sample `i` with [`crate::rng::for_batch`]`(seed, i)`: the same
    /// summary on any number of threads.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Reports [`Phase::Sampling`] progress after every sample, and stops
    /// with [`crate::Error::Interrupted`] when its flag is raised.
    pub fn control(mut self, control: &'a Control) -> Self {
        self.control = Some(control);
        self
    }

    /// The move and relative-move distributions of the samples, with the
    /// figures `rails` (of the closed tours) or `cycles` (of the tourneys)
    /// and, for tours, [`CLOSED_FIGURE`].
    pub fn run(self) -> Result<Summary> {
        let quiet = Control::new();
        let control = self.control.unwrap_or(&quiet);
        let (board, job, total) = (self.board, self.job, self.samples);
        let done = std::sync::atomic::AtomicU64::new(0);
        let progress = || {
            let done = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            control.report(&Progress::new(Phase::Sampling, done, Some(total)));
        };
        let trial = |rng: &mut crate::rng::KnightRng| {
            control.check("the sampling")?;
            one(board, job, control, rng)
        };
        let results = sample(total, self.seed, trial, &progress)?;
        let figure = match job {
            Sampled::Tour(..) => "rails",
            Sampled::Tourney(_) => "cycles",
        };
        let mut tally = RunningSummary::default();
        for (counts, value, closed) in &results {
            tally.push(counts);
            if let Some(v) = value {
                tally.push_figure(figure, *v);
            }
            if let Some(closed) = closed {
                tally.push_figure(CLOSED_FIGURE, if *closed { 1.0 } else { 0.0 });
            }
        }
        Ok(tally.finish(board))
    }
}

/// The counts of one sample, its figure (`rails` of a closed tour, `cycles`
/// of a tourney) and, for a tour, whether it came out closed.
/// A raised stop flag of `control` ends the sample's own search too.
fn one(
    board: Board,
    job: Sampled,
    control: &Control,
    rng: &mut crate::rng::KnightRng,
) -> Result<(MoveCounts, Option<f64>, Option<bool>)> {
    match job {
        Sampled::Tourney(g) => {
            let t = tourney_methods::controlled(board, g, control, rng)?.to_tourney()?;
            Ok((MoveCounts::of_tourney(&t), Some(t.len() as f64), None))
        }
        Sampled::Tour(algorithm, wanted, shatters) => {
            let mut request = Tour::builder(board)
                .kind(wanted)
                .algorithm(algorithm)
                .control(control);
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
