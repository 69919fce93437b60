//! The executor across workers: every worker (a process, on this machine
//! or another) holds the states of its share of each layer, the keys
//! that [`partition_of`] gives it, in memory. A square expands the
//! worker's states in parallel, merges the successors bound for each
//! worker, sends them through the [`Exchange`], merges what it received
//! into its share of the next layer, and agrees with the others on the
//! square's figures (states, successors, tours completed) and on whether
//! to go on: a worker that fails or is stopped still takes part in the
//! square's two collective calls, so that every worker stops after the
//! same square with the same answer (a count that overflows its width
//! restarts wider on every worker at once).
//!
//! On the wire a worker's successors for another are sorted by key, each
//! key as its LEB128 difference from the one before and each count as a
//! LEB128 varint (the packed files' coding, without blocks).

use rayon::prelude::*;

use super::checkpoint::unfinished;
use super::merge::{merge, partition_of};
use super::options::{FinalLayer, Run, RunOptions};
use super::spread_checkpoint::ShareFiles;
use super::step::{expand_chunk, widen, Executor, Shares, Square, SquareWatch, StepGuard, Stepped};
use super::words::{Key, Stop, Tally, Word};
use crate::count::exchange::{first_raised, garbled, Exchange};
use crate::Error;

/// A worker's share of a layer spread over workers.
pub(super) struct Spread<'a, K, C> {
    ex: &'a dyn Exchange,
    part: Vec<(K, C)>,
    /// States of the layer over all workers.
    total: u64,
    /// Bytes this worker has sent to the others.
    pub sent: u64,
    /// The most states this worker has held at once.
    pub held_peak: u64,
    /// Where its share goes after every square, with a work directory.
    shares: Option<ShareFiles>,
}

/// What a square gave on one worker, as it tells the others.
struct Report<C> {
    /// Empty if the worker goes on, else why it stops.
    failure: Option<Failure>,
    states: u64,
    generated: u64,
    done: C,
    prefix: C,
}

/// Why a worker stops.
enum Failure {
    Overflow,
    Stopped(String),
}

impl<'a, K: Key, C: Tally> Spread<'a, K, C> {
    /// The layer of the one state `start`, held by the worker its key picks.
    pub fn new(ex: &'a dyn Exchange, start: K, shares: Option<ShareFiles>) -> Self {
        let mine = partition_of(start, ex.workers()) == ex.rank();
        Spread {
            ex,
            part: if mine {
                vec![(start, C::ONE)]
            } else {
                Vec::new()
            },
            total: 1,
            sent: 0,
            held_peak: 1,
            shares,
        }
    }

    /// Where the run starts: after the last square every worker holds in
    /// the work directory if it resumes (the run's figures then), else
    /// from the start state, refusing to overwrite an unfinished
    /// checkpoint unless it starts afresh (`n`: the run's squares). Every
    /// worker decides alike.
    pub fn open(
        &mut self,
        opts: &RunOptions<'_>,
        n: usize,
        fresh: Run,
    ) -> Result<(usize, Run), Stop> {
        let Some(shares) = &self.shares else {
            return Ok((0, fresh));
        };
        if opts.count.resume {
            match shares.resume(self.ex)? {
                Some(r) => {
                    let mut part = Vec::new();
                    decode(&r.bytes, &mut part)?;
                    self.total = r.run.states_per_step.last().copied().unwrap_or(1);
                    self.held_peak = self.held_peak.max(part.len() as u64);
                    self.part = part;
                    return Ok((r.step, r.run));
                }
                None if opts.later => {}
                None => return Err(Stop::Err(shares.no_checkpoint())),
            }
        } else {
            let any = first_raised(self.ex, shares.unfinished(n))?.is_some();
            if any && !opts.count.fresh {
                return Err(Stop::Err(unfinished(shares.dir())));
            }
        }
        shares.clear()?;
        Ok((0, fresh))
    }

    /// This worker's successors, merged, by the worker they go to; the
    /// tours completed, the prefix's tours and the successors made.
    #[allow(clippy::type_complexity)]
    fn expand(&self, sq: &Square<'_>) -> Result<(Shares<K, C>, C, C, u64), Stop> {
        let n = self.ex.workers();
        let when = sq.when();
        let threads = rayon::current_num_threads().max(1);
        let watch = SquareWatch::new(sq);
        let (limit, states) = (sq.opts.budget(), self.part.len() as u64);
        let guard = StepGuard::new(sq, &when, &watch, limit, threads as u64, states);
        let chunk = (self.part.len() / (4 * threads)).clamp(1, 1 << 16);
        let pieces = self
            .part
            .par_chunks(chunk)
            .map(|c| expand_chunk(sq.engine, sq.step, c, n, &guard))
            .collect::<Result<Vec<_>, Stop>>()?;
        let (mut done, mut prefix, mut generated) = (C::ZERO, C::ZERO, 0u64);
        let mut out: Shares<K, C> = vec![Vec::new(); n];
        for (shares, d, p) in pieces {
            done = done.add(d).ok_or(Stop::Overflow)?;
            prefix = prefix.add(p).ok_or(Stop::Overflow)?;
            for (to, run) in shares.into_iter().enumerate() {
                generated += run.len() as u64;
                out[to].extend(run);
            }
        }
        out.par_iter_mut().try_for_each(merge)?;
        Ok((out, done, prefix, generated))
    }

    /// The square's figures over all workers, or the stop every worker
    /// makes if one of them failed.
    fn agree(&self, mine: Report<C>) -> Result<Report<C>, Stop> {
        let all = self.ex.all_gather(mine.encode())?;
        let mut sum = Report::<C>::none();
        let mut overflow = false;
        for (rank, bytes) in all.iter().enumerate() {
            let r = Report::<C>::decode(bytes).ok_or_else(garbled)?;
            match r.failure {
                Some(Failure::Overflow) => overflow = true,
                Some(Failure::Stopped(why)) => {
                    return Err(Stop::Err(Error::Interrupted(
                        format!("the count stopped because worker {rank} stopped: {why}").into(),
                    )))
                }
                None => {}
            }
            sum.states += r.states;
            sum.generated += r.generated;
            sum.done = sum.done.add(r.done).ok_or(Stop::Overflow)?;
            sum.prefix = sum.prefix.add(r.prefix).ok_or(Stop::Overflow)?;
        }
        if overflow {
            return Err(Stop::Overflow);
        }
        Ok(sum)
    }
}

impl<K: Key, C: Tally> Executor<K, C> for Spread<'_, K, C> {
    fn states(&self) -> u64 {
        self.total
    }

    fn step(&mut self, sq: &Square<'_>) -> Result<Stepped<C>, Stop> {
        let (n, rank) = (self.ex.workers(), self.ex.rank());
        // The successors go out encoded, and their runs are let go.
        let (bufs, expanded): (Vec<Vec<u8>>, _) = match self.expand(sq) {
            Ok((mut out, done, prefix, generated)) => (
                out.par_iter_mut().map(|run| encode(run)).collect(),
                Ok((done, prefix, generated)),
            ),
            Err(stop) => (vec![Vec::new(); n], Err(stop)),
        };
        self.sent += bufs
            .iter()
            .enumerate()
            .filter(|&(to, _)| to != rank)
            .map(|(_, b)| b.len() as u64)
            .sum::<u64>();
        let got = self.ex.all_to_all(bufs)?;
        let mut report = Report::none();
        let mut own: Option<Stop> = None;
        match expanded {
            Ok((done, prefix, generated)) => {
                let mut part = Vec::new();
                let received = got.iter().try_for_each(|b| decode(b, &mut part));
                match received.and_then(|()| merge(&mut part)) {
                    Ok(()) => {
                        (report.states, report.generated) = (part.len() as u64, generated);
                        (report.done, report.prefix) = (done, prefix);
                        self.held_peak = self.held_peak.max(part.len() as u64);
                        self.part = part;
                    }
                    Err(stop) => own = Some(stop),
                }
            }
            Err(stop) => own = Some(stop),
        }
        report.failure = own.as_ref().map(Failure::of);
        // Every worker decides alike from the same reports: a failure
        // anywhere stops all of them, an overflow anywhere (and no
        // failure) widens all of them; a worker that failed tells its own
        // error.
        let sum = match (self.agree(report), own) {
            (Ok(sum), None) => sum,
            (Err(Stop::Overflow), _) => return Err(Stop::Overflow),
            (Err(remote), None | Some(Stop::Overflow)) => return Err(remote),
            (_, Some(Stop::OverMemory(bytes))) => return Err(Stop::Err(over_memory(bytes, sq))),
            (_, Some(stop)) => return Err(stop),
        };
        self.total = sum.states;
        Ok(Stepped {
            done: sum.done,
            prefix: sum.prefix,
            generated: sum.generated,
            states: sum.states,
        })
    }

    /// Writes this worker's share after the square; once every worker
    /// has, removes its square before.
    fn checkpoint(&mut self, sq: &Square<'_>, run: &Run) -> Result<(), Stop> {
        let Some(shares) = &self.shares else {
            return Ok(());
        };
        let step = sq.t + 1;
        let written = shares.write(step, run, &encode(&mut self.part), self.part.len() as u64);
        let failed = first_raised(self.ex, written.is_err())?;
        written?;
        if let Some(rank) = failed {
            return Err(Stop::Err(Error::Interrupted(
                format!(
                    "the count stopped {}: worker {rank} could not write its checkpoint",
                    sq.when()
                )
                .into(),
            )));
        }
        shares.remove_before(step)
    }

    fn check_stop(&self, opts: &RunOptions<'_>, when: &str) -> Result<(), Stop> {
        let mine = opts.check_stop(when);
        match first_raised(self.ex, mine.is_err())? {
            None => Ok(()),
            Some(_) if mine.is_err() => Ok(mine?),
            Some(rank) => Err(Stop::Err(Error::Interrupted(
                format!("the count was stopped {when}, by worker {rank}").into(),
            ))),
        }
    }

    /// Every worker gets the final states whose pattern it owns (see
    /// [`RunOptions::route`]), or the whole final layer.
    fn hand_over(&self, consume: &FinalLayer<'_>, opts: &RunOptions<'_>) -> Result<(), Stop> {
        let all = match opts.route {
            Some(route) => {
                let n = self.ex.workers();
                let to: Vec<usize> = self
                    .part
                    .par_iter()
                    .map(|&(k, _)| partition_of(u128::from(route(k.to_u128())), n))
                    .collect();
                let mut out: Shares<K, C> = vec![Vec::new(); n];
                for (&w, &state) in to.iter().zip(&self.part) {
                    out[w].push(state);
                }
                drop(to);
                let bufs = out.par_iter_mut().map(|run| encode(run)).collect();
                drop(out);
                self.ex.all_to_all(bufs)?
            }
            None => self.ex.all_gather(encode(&mut self.part.clone()))?,
        };
        let consumed = all.into_iter().try_for_each(|bytes| {
            let mut states: Vec<(K, C)> = Vec::new();
            decode(&bytes, &mut states)?;
            states
                .chunks(1 << 12)
                .try_for_each(|piece| consume(&widen(piece)?).map_err(Stop::Err))
        });
        // A worker whose join failed (over its memory bound) stops them all.
        match first_raised(self.ex, consumed.is_err())? {
            Some(rank) if consumed.is_ok() => Err(Stop::Err(Error::Interrupted(
                format!("the count stopped at the join: worker {rank} failed").into(),
            ))),
            _ => consumed,
        }
    }
}

impl Failure {
    fn of(stop: &Stop) -> Failure {
        match stop {
            Stop::Overflow => Failure::Overflow,
            Stop::OverMemory(_) => {
                Failure::Stopped("its share of a square passed its memory bound".into())
            }
            Stop::Err(e) => Failure::Stopped(e.to_string()),
        }
    }
}

impl<C: Tally> Report<C> {
    /// No failure, and nothing counted.
    fn none() -> Report<C> {
        Report {
            failure: None,
            states: 0,
            generated: 0,
            done: C::ZERO,
            prefix: C::ZERO,
        }
    }

    fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match &self.failure {
            None => out.push(0),
            Some(Failure::Overflow) => out.push(1),
            Some(Failure::Stopped(why)) => {
                out.push(2);
                out.extend_from_slice(why.as_bytes());
                return out;
            }
        }
        self.states.put_var(&mut out);
        self.generated.put_var(&mut out);
        self.done.put_var(&mut out);
        self.prefix.put_var(&mut out);
        out
    }

    fn decode(b: &[u8]) -> Option<Report<C>> {
        let (&tag, mut rest) = b.split_first()?;
        let mut r = Report::none();
        match tag {
            0 => {}
            1 => r.failure = Some(Failure::Overflow),
            2 => {
                let why = String::from_utf8_lossy(rest).into_owned();
                r.failure = Some(Failure::Stopped(why));
                return Some(r);
            }
            _ => return None,
        }
        let next = |rest: &mut &[u8]| -> Option<u64> {
            let (v, used) = u64::get_var(rest)?;
            *rest = &rest[used..];
            Some(v)
        };
        r.states = next(&mut rest)?;
        r.generated = next(&mut rest)?;
        let (done, used) = C::get_var(rest)?;
        let (prefix, used2) = C::get_var(&rest[used..])?;
        (r.done, r.prefix) = (done, prefix);
        (used + used2 == rest.len()).then_some(r)
    }
}

/// A run of `(key, count)` pairs on the wire, sorted by key in place
/// (its order means nothing): each key as its difference from the one
/// before, then its count.
fn encode<K: Key, C: Tally>(run: &mut [(K, C)]) -> Vec<u8> {
    run.sort_unstable_by_key(|e| e.0);
    let mut out = Vec::with_capacity(4 * run.len());
    let mut prev = 0u128;
    for &(k, c) in run.iter() {
        let k = k.to_u128();
        (k - prev).put_var(&mut out);
        c.put_var(&mut out);
        prev = k;
    }
    out
}

/// Adds the pairs of `b` (see [`encode`]) to `into`.
fn decode<K: Key, C: Tally>(mut b: &[u8], into: &mut Vec<(K, C)>) -> Result<(), Stop> {
    let mut prev = 0u128;
    while !b.is_empty() {
        let (diff, used) = u128::get_var(b).ok_or_else(garbled)?;
        b = &b[used..];
        let (count, used) = C::get_var(b).ok_or_else(garbled)?;
        b = &b[used..];
        prev = prev.checked_add(diff).ok_or_else(garbled)?;
        into.push((K::from_u128(prev), count));
    }
    Ok(())
}

/// The error of a worker whose share of a square passed the memory bound.
fn over_memory(bytes: u64, sq: &Square<'_>) -> Error {
    Error::Interrupted(format!(
        "the count stopped {}: this worker's share of the square would need about {} of memory, more than its bound of {}; give the workers more memory or run more of them",
        sq.when(),
        crate::memory::human_bytes(bytes),
        crate::memory::human_bytes(sq.opts.budget())
    ).into())
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::super::drive::run;
    use super::super::options::Run;
    use super::super::partitioned::problems;
    use super::*;
    use crate::count::engine::frontier::Problem;
    use crate::count::exchange::threads::transport;
    use crate::Kind;

    /// Runs `p` with `opts` on `n` workers (threads), each collecting the
    /// final layer it is handed; every worker's run and final layer.
    fn on_workers(p: &Problem, n: usize, opts: &RunOptions<'_>) -> Vec<(Run, Vec<(u128, u128)>)> {
        let ends = transport(n);
        std::thread::scope(|s| {
            let handles: Vec<_> = ends
                .iter()
                .map(|ex| {
                    s.spawn(move || {
                        let finals = Mutex::new(Vec::new());
                        let collect = |states: &[(u128, u128)]| {
                            finals.lock().unwrap().extend_from_slice(states);
                            Ok(())
                        };
                        let run = run(
                            p,
                            &RunOptions {
                                workers: Some(ex),
                                final_layer: Some(&collect),
                                ..*opts
                            },
                        )
                        .unwrap();
                        let mut finals = finals.into_inner().unwrap();
                        finals.sort_unstable();
                        (run, finals)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    /// Routed by a pattern, each worker is handed the final states whose
    /// pattern it owns, and together they are handed each state once.
    #[test]
    fn a_routed_final_layer_goes_to_the_owners_of_its_patterns() {
        let route = |key: u128| (key % 11) as u64;
        let parts: Vec<_> = problems()
            .into_iter()
            .filter(|(_, p)| p.external.iter().any(|&e| e > 0))
            .collect();
        assert_eq!(parts.len(), 3, "the parts of the two meets");
        for (name, p) in parts {
            let (_, mut expected) = on_workers(&p, 1, &RunOptions::default()).remove(0);
            assert!(!expected.is_empty(), "{name}");
            for n in [2, 3] {
                let opts = RunOptions {
                    route: Some(&route),
                    ..RunOptions::default()
                };
                let mut all = Vec::new();
                for (rank, (_, finals)) in on_workers(&p, n, &opts).into_iter().enumerate() {
                    for &(k, _) in &finals {
                        let owner = partition_of(u128::from(route(k)), n);
                        assert_eq!(owner, rank, "{name}: {k} on worker {rank} of {n}");
                    }
                    assert!(finals.len() < expected.len(), "{name}: a share on {n}");
                    all.extend(finals);
                }
                all.sort_unstable();
                expected.sort_unstable();
                assert_eq!(all, expected, "{name} on {n}");
            }
        }
    }

    #[test]
    fn every_worker_gets_the_one_process_count_layers_and_final_states() {
        for (name, p) in problems() {
            let (expected, finals) = on_workers(&p, 1, &RunOptions::default()).remove(0);
            assert!(expected.count != crate::count::Count::ZERO || !finals.is_empty());
            assert_eq!(
                expected.count,
                run(&p, &RunOptions::default()).unwrap().count,
                "{name}"
            );
            for n in [2, 3] {
                let got = on_workers(&p, n, &RunOptions::default());
                let mut sent = 0;
                for (rank, (run, got_finals)) in got.iter().enumerate() {
                    let at = format!("{name}, worker {rank} of {n}");
                    assert_eq!(run.count, expected.count, "{at}");
                    assert_eq!(run.states_per_step, expected.states_per_step, "{at}");
                    assert_eq!(run.prefix_counts, expected.prefix_counts, "{at}");
                    assert_eq!(run.generated, expected.generated, "{at}");
                    assert_eq!(got_finals, &finals, "{at}");
                    sent += run.sent_bytes;
                }
                assert!(sent > 0, "{name}: {n} workers sent nothing");
            }
        }
    }

    /// One worker's run of `p` in the work directory `dir`, resuming or
    /// not, stopped after square 12 when it does not resume.
    fn in_dir(
        p: &Problem,
        ex: &dyn crate::count::Exchange,
        dir: &std::path::Path,
        resume: bool,
    ) -> Result<Run, String> {
        let flag = crate::StopFlag::default();
        let stop = |pr: &crate::count::FrontierProgress| {
            if pr.step == 12 {
                flag.stop();
            }
        };
        let count = crate::count::CountOptions {
            work_dir: Some(dir.to_path_buf()),
            resume,
            ..crate::count::CountOptions::default()
        };
        let opts = RunOptions {
            count: &count,
            workers: Some(ex),
            stop: Some(&flag),
            progress: (!resume).then_some(&stop),
            ..RunOptions::default()
        };
        run(p, &opts).map_err(|e| e.to_string())
    }

    /// A spread count stopped after a square resumes from the workers'
    /// shares in the work directory with the one-process count; one that
    /// does not resume refuses to overwrite them; a share missing on one
    /// worker leaves no square that all of them hold.
    #[test]
    fn a_stopped_spread_count_resumes_from_its_shares() {
        let p = crate::count::plan::board_problem("5x6".parse().unwrap(), Kind::Closed);
        let expected = run(&p, &RunOptions::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let ends = transport(2);
        let each = |resume: bool| -> Vec<Result<Run, String>> {
            std::thread::scope(|s| {
                let handles: Vec<_> = ends
                    .iter()
                    .map(|ex| s.spawn(|| in_dir(&p, ex, dir.path(), resume)))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap()).collect()
            })
        };
        let all_fail = |runs: &[Result<Run, String>], with: &str| {
            runs.iter()
                .all(|r| r.as_ref().is_err_and(|e| e.contains(with)))
        };
        let stopped = each(false);
        assert!(all_fail(&stopped, "after square 12"), "{stopped:?}");
        let refused = each(false);
        assert!(all_fail(&refused, "unfinished checkpoint"), "{refused:?}");
        // The run's folder, beside the workers' lock files.
        let folder = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.is_dir())
            .unwrap();
        let lost = folder.join("w1-s12.json");
        let kept = std::fs::read(&lost).unwrap();
        std::fs::remove_file(&lost).unwrap();
        let none = each(true);
        assert!(all_fail(&none, "no checkpoint"), "{none:?}");
        std::fs::write(&lost, kept).unwrap();
        for r in each(true) {
            let r = r.unwrap();
            assert_eq!(r.count, expected.count);
            assert_eq!(r.states_per_step, expected.states_per_step);
        }
    }

    /// Counts too wide for `u64` restart wider on every worker at once.
    #[test]
    fn an_overflow_on_one_worker_widens_every_worker() {
        let p = crate::count::plan::strip_problem(
            130,
            3,
            Kind::Closed,
            crate::count::SquareOrder::Rows,
        );
        let expected = run(&p, &RunOptions::default()).unwrap();
        assert!(expected.count.bits() > 64, "{}", expected.count);
        for (run, _) in on_workers(&p, 3, &RunOptions::default()) {
            assert_eq!(run.count, expected.count);
        }
    }

    /// A stop raised on one worker stops every worker after the same
    /// square, each with an error.
    #[test]
    fn a_stop_on_one_worker_stops_them_all() {
        let p = crate::count::plan::board_problem("5x6".parse().unwrap(), Kind::Closed);
        let ends = transport(3);
        let flag = crate::StopFlag::default();
        flag.stop();
        let results: Vec<bool> = std::thread::scope(|s| {
            let handles: Vec<_> = ends
                .iter()
                .enumerate()
                .map(|(rank, ex)| {
                    let (flag, p) = (&flag, &p);
                    s.spawn(move || {
                        let opts = RunOptions {
                            workers: Some(ex),
                            stop: (rank == 1).then_some(flag),
                            ..RunOptions::default()
                        };
                        run(p, &opts).is_err()
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(results, vec![true, true, true]);
    }
}
