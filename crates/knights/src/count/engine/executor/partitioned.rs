//! A test-only executor that splits every layer into `n` partitions by key
//! hash, as `n` processes would: a step expands each partition's states,
//! posts every successor run to the partition its key picks (the only way
//! states move between partitions), and each partition merges its own
//! inbox. Its counts and states per square must be the ordinary
//! executor's for any `n`.

use super::merge::{merge, partition_of};
use super::options::{FinalLayer, RunOptions, JOINING};
use super::step::{expand_chunk, widen, Executor, Square, SquareWatch, StepGuard, Stepped};
use super::words::{Key, Stop, Tally};

/// A layer in partitions that exchange their successors by message.
pub(super) struct Partitioned<K, C> {
    parts: Vec<Vec<(K, C)>>,
    /// Routes a successor by the partition it came from as well as by its
    /// key (to show that the tests catch a wrong route).
    misroute: bool,
}

/// Successor runs in flight, by the partition they are addressed to.
struct Mail<K, C> {
    inboxes: Vec<Vec<Vec<(K, C)>>>,
}

impl<K: Key, C: Tally> Mail<K, C> {
    fn post(&mut self, to: usize, run: Vec<(K, C)>) {
        self.inboxes[to].push(run);
    }
}

impl<K: Key, C: Tally> Partitioned<K, C> {
    /// A layer of the one state `start`, in `n` partitions.
    pub fn new(n: usize, start: K, misroute: bool) -> Self {
        let mut parts = vec![Vec::new(); n];
        parts[partition_of(start, n)].push((start, C::ONE));
        Partitioned { parts, misroute }
    }
}

impl<K: Key, C: Tally> Executor<K, C> for Partitioned<K, C> {
    fn states(&self) -> u64 {
        self.parts.iter().map(|p| p.len() as u64).sum()
    }

    fn step(&mut self, sq: &Square<'_>) -> Result<Stepped<C>, Stop> {
        let n = self.parts.len();
        let when = sq.when();
        let watch = SquareWatch::new(sq);
        let guard = StepGuard::new(sq, &when, &watch, u64::MAX, 1, self.states());
        let mut mail = Mail {
            inboxes: (0..n).map(|_| Vec::new()).collect(),
        };
        let (mut done, mut prefix, mut generated) = (C::ZERO, C::ZERO, 0u64);
        for (from, states) in std::mem::take(&mut self.parts).iter().enumerate() {
            let (out, d, p) = expand_chunk(sq.engine, sq.step, states, n, &guard)?;
            done = done.add(d).ok_or(Stop::Overflow)?;
            prefix = prefix.add(p).ok_or(Stop::Overflow)?;
            for (to, run) in out.into_iter().enumerate() {
                generated += run.len() as u64;
                mail.post(if self.misroute { (from + to) % n } else { to }, run);
            }
        }
        for runs in mail.inboxes {
            let mut part = runs.concat();
            merge(&mut part)?;
            self.parts.push(part);
        }
        Ok(Stepped {
            done,
            prefix,
            generated,
            states: self.states(),
        })
    }

    fn hand_over(&self, consume: &FinalLayer<'_>, opts: &RunOptions<'_>) -> Result<(), Stop> {
        for part in &self.parts {
            for piece in part.chunks(1 << 12) {
                opts.check_stop(JOINING)?;
                consume(&widen(piece)?).map_err(Stop::Err)?;
            }
        }
        Ok(())
    }
}

/// The problems every executor's tests run: boards of both kinds, a sweep
/// over lengths, and the parts of both meetings.
pub(super) fn problems() -> Vec<(String, crate::count::engine::frontier::Problem)> {
    use crate::Kind;
    let mut all = Vec::new();
    for (text, kind) in [
        ("3x4", Kind::Open),
        ("4x5", Kind::Open),
        ("3x10", Kind::Closed),
        ("5x6", Kind::Closed),
        ("5x6", Kind::Open),
        ("6x6", Kind::Closed),
    ] {
        let board = text.parse().unwrap();
        all.push((
            format!("{text} {kind:?}"),
            crate::count::plan::board_problem(board, kind),
        ));
    }
    // Every length at once: the prefixes' counts.
    let mut sweep =
        crate::count::plan::strip_problem(7, 4, Kind::Open, crate::count::SquareOrder::Rows);
    sweep.prefixes = (1..7).map(|l| l * 4).collect();
    all.push(("4x7 all lengths".into(), sweep));
    // The parts of a meeting in the middle, whose final layers are joined.
    for (i, part) in crate::count::strategy::meet::part_problems(6, 6)
        .into_iter()
        .enumerate()
    {
        all.push((format!("6x6 closed part {i}"), part));
    }
    for (i, part) in crate::count::strategy::meet_paths::part_problems(6, 5, Default::default())
        .into_iter()
        .enumerate()
    {
        all.push((format!("6x5 open part {i}"), part));
    }
    all
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::super::drive::{drive, run};
    use super::super::options::Run;
    use super::*;
    use crate::count::engine::frontier::{Engine, Problem};
    use crate::count::Count;
    use crate::Kind;

    /// What `run` returns when given options that collect the final
    /// layer, and that layer sorted.
    fn with_final_layer(run: impl FnOnce(&RunOptions<'_>) -> Run) -> (Run, Vec<(u128, u128)>) {
        let finals = Mutex::new(Vec::new());
        let collect = |states: &[(u128, u128)]| {
            finals.lock().unwrap().extend_from_slice(states);
            Ok(())
        };
        let run = run(&RunOptions {
            final_layer: Some(&collect),
            ..RunOptions::default()
        });
        let mut finals = finals.into_inner().unwrap();
        finals.sort_unstable();
        (run, finals)
    }

    /// Runs `p` on `n` partitions; its final layer sorted.
    fn partitioned(p: &Problem, n: usize, misroute: bool) -> (Run, Vec<(u128, u128)>) {
        let engine = Engine::new(p).unwrap();
        let start = Run {
            slots: engine.width,
            key_bytes: 16,
            peak: 1,
            ..Run::default()
        };
        with_final_layer(|opts| {
            let mut exec = Partitioned::<u128, u128>::new(n, engine.start_key(), misroute);
            let Ok(run) = drive(p, &engine, opts, &mut exec, 0, start) else {
                panic!("the partitioned run failed");
            };
            run
        })
    }

    /// The ordinary executor's run of `p`, and its final layer sorted.
    fn ordinary(p: &Problem) -> (Run, Vec<(u128, u128)>) {
        with_final_layer(|opts| run(p, opts).unwrap())
    }

    #[test]
    fn any_number_of_partitions_gives_the_same_layers_and_counts() {
        for (name, p) in problems() {
            let (expected, finals) = ordinary(&p);
            assert!(
                expected.count != Count::ZERO || !finals.is_empty(),
                "{name}"
            );
            for n in [1, 2, 3, 7] {
                let (got, got_finals) = partitioned(&p, n, false);
                assert_eq!(got.count, expected.count, "{name}, {n} partitions");
                assert_eq!(
                    got.states_per_step, expected.states_per_step,
                    "{name}, {n} partitions"
                );
                assert_eq!(got.prefix_counts, expected.prefix_counts, "{name}, {n}");
                assert_eq!(got.generated, expected.generated, "{name}, {n}");
                assert_eq!(got_finals, finals, "{name}, {n} partitions");
            }
        }
    }

    #[test]
    fn a_successor_sent_to_the_wrong_partition_is_caught() {
        let p = crate::count::plan::board_problem("5x6".parse().unwrap(), Kind::Closed);
        let (expected, _) = ordinary(&p);
        let (wrong, _) = partitioned(&p, 3, true);
        assert_ne!(wrong.states_per_step, expected.states_per_step);
        let (right, _) = partitioned(&p, 1, true);
        assert_eq!(right.states_per_step, expected.states_per_step);
    }
}
