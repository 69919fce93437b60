//! What a meet gathers while its parts run (the table's entries, the
//! bottom states held back), and the join: the table in parts, each met
//! by the bottom states' requests (made in `requests.rs`) a batch at a
//! time.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use rayon::prelude::*;

use super::boundary::*;
use super::fold;
use super::middle::Middle;
use super::reader::Relabel;
use super::requests::{self, join_bottom, sort_and_add_up};
use super::shelf::{lock, Room, Shelf};
use super::table::{pattern_key, unfolded, Table};
use crate::count::engine::executor::{
    self, FinishedLayer, FrontierProgress, JoinRecord, Joining, RunOptions,
};
use crate::count::engine::number::ProductSum;
use crate::{Error, Result};

/// Where a join reads its bottom states.
pub(super) enum Bottoms<'b> {
    /// From the shelf they were held on.
    Held,
    /// From a finished run's final layer in the work directory, each
    /// chunk of it read as bottom states (packed) by `read`.
    Stream {
        layer: FinishedLayer,
        read: &'b ReadBottoms<'b>,
    },
}

/// Reads a chunk of a final layer as bottom states (packed).
pub(super) type ReadBottoms<'a> = dyn Fn(&[(u128, u128)]) -> Vec<(u128, u128)> + Sync + 'a;

/// The progress a join reports: the part of the table and the bottom
/// states joined with it.
struct JoinProgress<'g, 'a> {
    gather: &'g Gather<'a>,
    started: std::time::Instant,
    parts: u64,
    states: u64,
    squares: usize,
}

impl JoinProgress<'_, '_> {
    /// Reports `done` bottom states joined with part `part` (from 0).
    fn report(&self, part: usize, done: u64) {
        let Some(f) = self.gather.opts.progress else {
            return;
        };
        let (states, total) = (self.states, self.states * self.parts);
        let so_far = part as u64 * states + done;
        let elapsed = self.started.elapsed().as_secs_f64();
        f(&FrontierProgress {
            step: self.squares,
            steps: self.squares,
            states: states as usize,
            peak: states as usize,
            on_disk: self.gather.room.spilled(),
            generated: 0,
            disk_bytes: self.gather.held_on_disk(),
            projected_peak: states,
            seconds_left: None,
            stage: None,
            joining: Some(Joining {
                part: part as u64 + 1,
                parts: self.parts,
                done,
                total: states,
                seconds_left: (so_far > 0)
                    .then(|| elapsed / so_far as f64 * total.saturating_sub(so_far) as f64),
            }),
            within: None,
        });
    }
}

/// What a meet gathers while its parts run: the top part's final states
/// and the bottom part's (or lower part's), as packed boundaries, on
/// shelves where they wait for the join (in memory, or past their share of
/// it on disk), and the join's sum.
pub(super) struct Gather<'a> {
    opts: &'a RunOptions<'a>,
    pub(super) budget: u64,
    /// The relabelling that mirrors the separator, where the top's states
    /// are kept up to their mirror images.
    mirror: Option<Relabel>,
    /// The top's states, in buckets by the pattern of the pair of a state
    /// and its image (see [`Gather::bucket_of`]).
    tops: Shelf,
    held: Shelf,
    room: Room<'a>,
    /// Bytes of memory the join takes now, besides the shelves'.
    bytes: AtomicU64,
    /// Requests waiting to be joined, a batch at a time: every batch
    /// works through the table's patterns it asks for, so batches are as
    /// large as the memory allows.
    pending: Mutex<Vec<Request>>,
    total: Mutex<(ProductSum, u64)>,
}

impl<'a> Gather<'a> {
    /// A gather for a count with `opts`, whose top states are kept up to
    /// the image `mirror` gives.
    pub(super) fn new(opts: &'a RunOptions<'a>, mirror: Option<Relabel>) -> Gather<'a> {
        let budget = opts.budget();
        Gather {
            opts,
            budget,
            mirror,
            tops: Shelf::new("top", TOP_BUCKETS),
            held: Shelf::new("bottom", 1),
            room: Room::new(opts, budget / HELD_SHARE),
            bytes: AtomicU64::new(0),
            pending: Mutex::new(Vec::new()),
            total: Mutex::new((ProductSum::default(), 0)),
        }
    }

    /// Bytes of memory the held states take now.
    pub(super) fn held_in_memory(&self) -> u64 {
        self.room.in_memory.load(Ordering::Relaxed)
    }

    /// The memory charged for a table being built, `building` bytes,
    /// brought down to what its `entries` take at rest; the bytes charged
    /// now.
    fn settle(&self, building: u64, entries: usize) -> u64 {
        let at_rest = entries as u64 * TABLE_BYTES_AT_REST;
        self.bytes
            .fetch_sub(building.saturating_sub(at_rest), Ordering::Relaxed);
        at_rest
    }

    /// Bytes of the held states on disk.
    pub(super) fn held_on_disk(&self) -> u64 {
        self.room.on_disk.load(Ordering::Relaxed)
    }

    /// The bucket of the top states of pattern `pattern` (a [`pattern_key`])
    /// and of their mirror images, whose pattern is the image's: a bottom
    /// state stands for itself and its image, which must meet a symmetric
    /// table, so a part of the table holds both or neither.
    fn bucket_of(&self, pattern: u64) -> usize {
        (self.pair_of(pattern).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize % TOP_BUCKETS
    }

    /// The pattern that stands for `pattern` and its mirror image (the
    /// smaller), which a part of the table holds together.
    pub(super) fn pair_of(&self, pattern: u64) -> u64 {
        self.mirror.map_or(pattern, |m| {
            let image = m.of(&Boundary {
                degrees: pattern as u32,
                term: (pattern >> 32) as u8,
                mates: 0,
            });
            pattern.min(pattern_key(image.degrees, image.term))
        })
    }

    /// The pair of patterns of a top state (see [`Gather::pair_of`]).
    pub(super) fn pair_of_state(&self, b: &Boundary) -> u64 {
        self.pair_of(pattern_key(b.degrees, b.term))
    }

    /// Once the shelves spill, moves what they hold in memory to disk.
    fn after_push(&self) -> Result<()> {
        self.room.once_spilled(|| {
            self.tops.spill(&self.room)?;
            self.held.spill(&self.room)
        })
    }

    /// Holds top states until the join: spread over workers, those of the
    /// patterns this worker owns (see [`RunOptions::owns`]).
    pub(super) fn table_in(&self, top: &[(Boundary, u128)]) -> Result<()> {
        let bucket_of = |k: u128| {
            let b = Boundary::unpacked(k);
            self.bucket_of(pattern_key(b.degrees, b.term))
        };
        let states = match self.opts.workers {
            None => packed(top),
            Some(_) => top
                .iter()
                .filter(|(b, _)| self.opts.owns(self.pair_of_state(b)))
                .map(|(b, c)| (b.packed(), *c))
                .collect(),
        };
        self.tops.push(&self.room, states, bucket_of)?;
        self.after_push()
    }

    /// Holds bottom states (packed) until the table is built.
    pub(super) fn hold_back(&self, bottom: Vec<(u128, u128)>) -> Result<()> {
        self.held.push(&self.room, bottom, |_| 0)?;
        self.after_push()
    }

    /// The parts the table is built in: runs of the top's buckets from
    /// `from`, each taking at most half of what the held states leave
    /// of the memory bound (a bucket larger than that makes a part of its
    /// own).
    fn parts(&self, from: usize) -> Vec<std::ops::Range<usize>> {
        let per_state = TABLE_BYTES_PER_STATE * if self.mirror.is_some() { 2 } else { 1 };
        let free = self.budget.saturating_sub(self.held_in_memory());
        let cap = (free / 2 / per_state).max(1);
        let mut parts = Vec::new();
        let (mut from, mut size) = (from, 0);
        let sizes = self.tops.sizes();
        for (i, &n) in sizes.iter().enumerate().skip(from) {
            if size > 0 && size + n > cap {
                parts.push(from..i);
                (from, size) = (i, 0);
            }
            size += n;
        }
        if from < sizes.len() {
            parts.push(from..sizes.len());
        }
        parts
    }

    /// Joins the top states held with the bottom states (held, or
    /// streamed from a part's final layer): the sum of the products of
    /// the counts of the pairs that make one path, and the table entries
    /// worked through. The table (the top's states unfolded from their
    /// mirror images, by pattern) is built in parts (see [`Gather::parts`]),
    /// each of which may leave its last buckets to the next
    /// ([`Gather::shrink`]); the bottom states meet each part in turn (through the middle
    /// `middle` makes for the part's patterns, on even rows). Streamed,
    /// each part done is recorded in the final layer's manifest, and a
    /// join recorded there resumes after its last part.
    pub(super) fn join_all(
        self,
        bottoms: Bottoms<'_>,
        seps: usize,
        middle: impl Fn(&Table) -> Option<Middle>,
        w: usize,
        squares: usize,
    ) -> Result<(ProductSum, u64)> {
        let mut from = self.resumed(&bottoms)?;
        let states = match &bottoms {
            Bottoms::Held => self.held.total(),
            Bottoms::Stream { layer, .. } => layer.states(),
        };
        let mut progress = JoinProgress {
            gather: &self,
            started: std::time::Instant::now(),
            parts: 0,
            states,
            squares,
        };
        let serial = Mutex::new(());
        let mut part = 0;
        loop {
            let planned = self.parts(from);
            let Some(buckets) = planned.first().cloned() else {
                break;
            };
            progress.parts = (part + planned.len()) as u64;
            self.opts.check_stop(executor::JOINING)?;
            progress.report(part, 0);
            let (table, building) = self.table_of(buckets.clone(), seps)?;
            // At rest a table entry takes its links and count only.
            let table_bytes = self.settle(building, table.states.len());
            let middle = middle(&table);
            let cut = Cut::new(buckets);
            let done = AtomicU64::new(0);
            let meet = |block: &[(u128, u128)]| -> Result<()> {
                let _one_at_a_time = lock(&serial);
                let share = done.load(Ordering::Relaxed) as f64 / states.max(1) as f64;
                self.join(&table, &middle, w, block, &cut, share)?;
                let done =
                    done.fetch_add(block.len() as u64, Ordering::Relaxed) + block.len() as u64;
                progress.report(part, done);
                Ok(())
            };
            match &bottoms {
                Bottoms::Held => self.held.each(BLOCK, &mut |block| meet(block))?,
                Bottoms::Stream { layer, read } => {
                    layer.hand_over(&|chunk| meet(&read(chunk)), self.opts)?
                }
            }
            let requests = std::mem::take(&mut *lock(&self.pending));
            self.join_batch(&table, requests)?;
            self.bytes.fetch_sub(table_bytes, Ordering::Relaxed);
            from = cut.end();
            if let Bottoms::Stream { layer, .. } = &bottoms {
                let total = lock(&self.total);
                layer.record(JoinRecord {
                    buckets: TOP_BUCKETS,
                    done: from,
                    sum: total.0.total(),
                    pairs: total.1,
                })?;
            }
            part += 1;
        }
        requests::release_buffers();
        Ok(self.total.into_inner().unwrap_or_else(|e| e.into_inner()))
    }

    /// Makes room in a batch of requests that passed its bound `cap`
    /// before any was joined, by joining fewer of the table's buckets in
    /// this pass: keeps the first buckets of the part whose requests, at
    /// the pace so far (`share` of the bottom states met), fit in the
    /// batch by the pass's end, withdraws the others from the table and
    /// drops their requests. False when the part cannot shrink (one
    /// bucket left, or a batch already joined).
    fn shrink(
        &self,
        table: &Table,
        pending: &mut Vec<Request>,
        cut: &Cut,
        cap: u64,
        share: f64,
    ) -> bool {
        let (start, end) = (cut.start, cut.end());
        if cut.joined.load(Ordering::Relaxed) || end - start <= 1 {
            return false;
        }
        let mut per = vec![0u64; TOP_BUCKETS];
        for r in pending.iter() {
            per[self.bucket_of(r.0)] += 1;
        }
        let scale = 1.0 / share.max(1e-3);
        let fits = (cap / REQUEST_BYTES) as f64 * 0.8;
        let mut kept = start + 1;
        let mut projected = per[start] as f64 * scale;
        while kept < end && projected + per[kept] as f64 * scale <= fits {
            projected += per[kept] as f64 * scale;
            kept += 1;
        }
        // At most half the part goes at once: the pace of the stream's
        // first states can mislead.
        let kept = kept.max(start + (end - start) / 2);
        if kept == end {
            return false;
        }
        cut.shrink_to(kept);
        for &pattern in table.runs.keys() {
            if self.bucket_of(pattern) >= kept {
                table.withdraw(pattern);
            }
        }
        pending.retain(|r| self.bucket_of(r.0) < kept);
        true
    }

    /// Where a join starts: after the buckets its streamed layer's
    /// manifest records as joined (their sum taken as the total so far),
    /// or at the first.
    fn resumed(&self, bottoms: &Bottoms<'_>) -> Result<usize> {
        let Bottoms::Stream { layer, .. } = bottoms else {
            return Ok(0);
        };
        let Some(record) = layer.join()? else {
            return Ok(0);
        };
        if record.buckets != TOP_BUCKETS {
            return Err(Error::Parse(format!(
                "the checkpoint records a join in {} parts by pattern, where this version of knights joins in {TOP_BUCKETS}; count again afresh, or in another work directory",
                record.buckets
            ).into())
            .with_hint(crate::Hint::StartFresh));
        }
        *lock(&self.total) = (ProductSum::starting_at(record.sum), record.pairs);
        Ok(record.done)
    }

    /// The table of the top's states in `buckets`, unfolded from their
    /// mirror images, and the bytes charged for it while it is built.
    fn table_of(&self, buckets: std::ops::Range<usize>, seps: usize) -> Result<(Table, u64)> {
        let tops = self.tops.read(buckets)?;
        let entries: Vec<(u64, u128, u128)> = tops
            .par_chunks(piece_size(tops.len()))
            .flat_map_iter(|chunk| {
                let chunk: Vec<(Boundary, u128)> = chunk
                    .iter()
                    .map(|&(k, c)| (Boundary::unpacked(k), c))
                    .collect();
                unfolded(&chunk, seps, self.mirror.as_ref())
            })
            .collect();
        drop(tops);
        let building = entries.len() as u64 * TABLE_BYTES_PER_STATE;
        self.bytes.fetch_add(building, Ordering::Relaxed);
        Ok((Table::new(entries, seps), building))
    }

    /// Turns bottom states into requests to the table (see
    /// [`join_bottom`]) and joins them once a batch fills what the table and
    /// the held states leave of the memory bound.
    pub(super) fn join(
        &self,
        table: &Table,
        middle: &Option<Middle>,
        w: usize,
        chunk: &[(u128, u128)],
        cut: &Cut,
        share: f64,
    ) -> Result<()> {
        let threads = rayon::current_num_threads().max(1) as u64;
        let room = self
            .budget
            .saturating_sub(self.bytes.load(Ordering::Relaxed) + self.held_in_memory());
        // The batch is sorted in place; through the middle, the expanded
        // states take their share next to it.
        let cap = if middle.is_some() {
            room / 2
        } else {
            room / 4 * 3
        };
        let mut sink = |pieces: Vec<Vec<Request>>| -> Result<()> {
            let mut pending = lock(&self.pending);
            for piece in pieces {
                pending.extend_from_slice(&piece);
            }
            if pending.len() as u64 * REQUEST_BYTES <= cap {
                return Ok(());
            }
            // Equal requests are many: added up, the batch often has room
            // again.
            sort_and_add_up(&mut pending)?;
            if pending.len() as u64 * REQUEST_BYTES > cap / 2
                && !self.shrink(table, &mut pending, cut, cap, share)
            {
                cut.joined.store(true, Ordering::Relaxed);
                let requests = std::mem::take(&mut *pending);
                self.join_batch(table, requests)?;
            }
            Ok(())
        };
        join_bottom(
            table,
            middle,
            w,
            chunk,
            room / (4 * threads),
            self.opts,
            &mut sink,
        )
    }

    /// Joins a batch of requests with the table, pattern by pattern (see
    /// the `fold` module notes), and adds the result to the total.
    fn join_batch(&self, table: &Table, mut requests: Vec<Request>) -> Result<()> {
        self.opts.check_stop(executor::JOINING)?;
        sort_and_add_up(&mut requests)?;
        let mut patterns = Vec::new();
        let mut from = 0;
        for i in 0..requests.len() {
            if i + 1 == requests.len() || requests[i + 1].0 != requests[i].0 {
                patterns.push((from, i + 1));
                from = i + 1;
            }
        }
        // The largest patterns first, so that the threads finish together.
        patterns.sort_unstable_by_key(|&(a, b)| std::cmp::Reverse(b - a));
        let sum = patterns
            .par_iter()
            .map_init(
                fold::Scratch::default,
                |scratch, &(from, to)| -> Result<(ProductSum, u64)> {
                    self.opts.check_stop(executor::JOINING)?;
                    let run = &requests[from..to];
                    let Some(&(a, b)) = table.runs.get(&run[0].0) else {
                        return Err(Error::Internal(
                            "a request to a pattern not in the table".into(),
                        ));
                    };
                    if table.withdrawn(run[0].0) {
                        // Withdrawn: a later part joins the pattern whole.
                        return Ok((ProductSum::default(), 0));
                    }
                    scratch.top.clear();
                    scratch.top.extend_from_slice(&table.states[a..b]);
                    scratch.bottom.clear();
                    scratch.bottom.extend(run.iter().map(|r| (r.1, r.2)));
                    let mut sum = ProductSum::default();
                    let work = fold::join(scratch, &mut sum)?;
                    Ok((sum, work))
                },
            )
            .try_reduce(|| (ProductSum::default(), 0), |a, b| Ok(plus(a, b)))?;
        let mut total = lock(&self.total);
        *total = plus(std::mem::take(&mut *total), sum);
        Ok(())
    }
}

/// The buckets of the top's states a part of the join joins: from
/// `start` to an end that shrinks while no batch has been joined (see
/// [`Gather::shrink`]).
pub(super) struct Cut {
    start: usize,
    end: AtomicUsize,
    /// A batch of the part's requests has been joined: the part keeps its
    /// buckets.
    joined: AtomicBool,
}

impl Cut {
    fn new(buckets: std::ops::Range<usize>) -> Cut {
        Cut {
            start: buckets.start,
            end: AtomicUsize::new(buckets.end),
            joined: AtomicBool::new(false),
        }
    }

    fn end(&self) -> usize {
        self.end.load(Ordering::Relaxed)
    }

    fn shrink_to(&self, end: usize) {
        self.end.store(end, Ordering::Relaxed);
    }
}
