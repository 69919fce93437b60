//! Stopping long work from outside: a flag that a Ctrl-C handler, another
//! thread or a web request's cancellation raises, and that searches and
//! counts watch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::{Error, Result};

/// A flag the caller raises to stop a search early (from another thread or
/// a Ctrl-C handler); clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag that is not raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Raises the flag: searches watching it stop soon after.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// [`Error::Interrupted`] saying that `what` was stopped, if the flag is
    /// raised: the one check that loops of long work make between steps.
    pub fn check(&self, what: &str) -> Result<()> {
        if self.is_stopped() {
            return Err(Error::Interrupted(format!("{what} was stopped").into()));
        }
        Ok(())
    }
}

impl PartialEq for StopFlag {
    /// Two flags are equal when they are the same flag.
    fn eq(&self, other: &StopFlag) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopFlag {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithms::tourney_methods::{self, neural, walks, TourneyMethod};
    use crate::algorithms::{warnsdorff, Algorithm, TakefujiLee, Warnsdorff};
    use crate::cipher::{Key, KeySpec};
    use crate::{rails, rng, Board, Control, Tour, Tourney};

    /// A control whose stop flag is already raised.
    fn stopped() -> Control {
        let stop = StopFlag::new();
        stop.stop();
        Control::new().stop(stop)
    }

    fn assert_stopped<T: std::fmt::Debug>(result: Result<T>, what: &str) {
        assert!(
            matches!(result, Err(Error::Interrupted(_))),
            "{what}: {result:?}"
        );
    }

    /// Every loop that restarts or repeats watches the control's stop flag:
    /// a flag raised before the work starts stops it at its first check,
    /// through every public way in (options, builders, the tourney and the
    /// cipher key).
    #[test]
    fn every_restarting_method_stops_on_a_raised_flag() {
        let board = Board::new(8, 8).unwrap();
        let options = warnsdorff::WarnsdorffOptions {
            control: stopped(),
            ..Default::default()
        };
        assert_stopped(
            warnsdorff::tour(board, &options, &mut rng::seeded(0)),
            "warnsdorff::tour",
        );
        for algorithm in [
            Algorithm::Warnsdorff(Warnsdorff::DEFAULT),
            Algorithm::TakefujiLee(TakefujiLee::DEFAULT),
            Algorithm::Tourney(TourneyMethod::Warnsdorff),
            Algorithm::Tourney(TourneyMethod::Neural),
            Algorithm::Tourney(TourneyMethod::Braid),
        ] {
            let built = Tour::builder(board)
                .algorithm(algorithm)
                .control(&stopped())
                .build();
            assert_stopped(built, algorithm.name());
        }
        let walks = walks::WalkOptions {
            control: stopped(),
            ..Default::default()
        };
        assert_stopped(
            walks::warnsdorff(board, &walks, &mut rng::seeded(0)),
            "walks",
        );
        assert_stopped(
            neural::cover(board, &stopped(), &mut rng::seeded(0)),
            "neural",
        );
        assert_stopped(
            Tourney::builder(board).control(&stopped()).cover(),
            "TourneyBuilder::control",
        );
        let spec: KeySpec = "8x8".parse().unwrap();
        assert_stopped(Key::from_spec(&spec, &stopped()), "cipher key");
        let spec: KeySpec = "8x8,algorithm=tourney".parse().unwrap();
        assert_stopped(Key::from_spec(&spec, &stopped()), "tourney key");
        let mut cover =
            tourney_methods::cover(board, TourneyMethod::FourCover, &mut rng::seeded(0)).unwrap();
        let join = rails::JoinOptions {
            control: stopped(),
            ..Default::default()
        };
        assert_stopped(rails::join(&mut cover, &join, &mut rng::seeded(0)), "join");
        assert!(crate::check::check_cover(&cover).is_ok(), "still a tourney");
        let obfuscate = rails::ObfuscateOptions { shatters: 4, join };
        assert_stopped(
            rails::obfuscate(&mut cover, &obfuscate, &mut rng::seeded(0)),
            "obfuscate",
        );
        let tour = Tour::builder(board).closed().build().unwrap();
        assert_stopped(
            rails::obfuscate_tour_with(tour, &obfuscate, &mut rng::seeded(0)),
            "obfuscate_tour_with",
        );
        let built = Tour::builder(board)
            .closed()
            .obfuscate(4)
            .control(&stopped())
            .build();
        assert_stopped(built, "TourBuilder::obfuscate");
    }
}
