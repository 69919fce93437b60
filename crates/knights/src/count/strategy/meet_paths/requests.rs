//! The bottom states turned into requests to the table: each bottom
//! state (or, with a middle, each state its edges make of it) asks the
//! table's patterns it can meet, and equal requests are added up before a
//! batch is joined.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::boundary::*;
use super::middle::Middle;
use super::reader::Relabel;
use super::table::Table;
use crate::count::engine::executor::{self, RunOptions, Stop};
use crate::{Error, Result};

/// Sorts requests by pattern and program and adds up equal ones.
pub(super) fn sort_and_add_up(v: &mut Vec<Request>) -> Result<()> {
    v.par_sort_unstable_by_key(|r| (r.0, r.1));
    add_up(v)
}

/// Adds up equal requests of the sorted `v`, in place.
fn add_up(v: &mut Vec<Request>) -> Result<()> {
    let mut w = 0;
    for i in 0..v.len() {
        if w > 0 && (v[w - 1].0, v[w - 1].1) == (v[i].0, v[i].1) {
            v[w - 1].2 = v[w - 1]
                .2
                .checked_add(v[i].2)
                .ok_or_else(executor::part_overflow)?;
        } else {
            v[w] = v[i];
            w += 1;
        }
    }
    v.truncate(w);
    Ok(())
}

/// The requests of bottom states (packed boundaries with their counts),
/// sorted, equal ones added up.
fn meet_all(table: &Table, states: impl IntoIterator<Item = (u128, u128)>) -> Result<Vec<Request>> {
    RAW.with(|raw| {
        let mut raw = raw.borrow_mut();
        raw.clear();
        for (k, count) in states {
            table.requests(&Boundary::unpacked(k), count, &mut raw)?;
        }
        raw.sort_unstable_by_key(|r| (r.0, r.1));
        add_up(&mut raw)?;
        // A copy of the exact size: the buffer stays for the next piece.
        Ok(raw.to_vec())
    })
}

/// Frees every thread's request buffer (see `RAW`) once a join ends.
pub(super) fn release_buffers() {
    rayon::broadcast(|_| RAW.with(|raw| std::mem::take(&mut *raw.borrow_mut())));
}

thread_local! {
    /// The requests a thread makes before they are sorted and added up,
    /// kept from one piece to the next: fresh buffers this large cost
    /// more in the kernel's zeroing of new pages than the requests
    /// themselves. Emptied when a join ends (see [`release_buffers`]).
    static RAW: std::cell::RefCell<Vec<Request>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The requests to the table (see [`meet_all`]) of the bottom part's
/// final states `chunk` (packed boundaries), or with a middle, of the
/// bottom states that the lower part's final states make with its edges,
/// added up by state (and mirror image), in sorted pieces. Each piece of
/// the work first checks whether the count is to stop.
pub(super) fn join_bottom(
    table: &Table,
    middle: &Option<Middle>,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
    sink: &mut impl FnMut(Vec<Vec<Request>>) -> Result<()>,
) -> Result<()> {
    let per = piece_size(chunk.len());
    let Some(middle) = middle else {
        return sink(
            chunk
                .par_chunks(per)
                .map(|c| -> Result<Vec<Request>> {
                    opts.check_stop(executor::JOINING)?;
                    meet_all(table, c.iter().copied())
                })
                .collect::<Result<_>>()?,
        );
    };
    join_through(table, middle, w, chunk, room, opts, sink)
}

/// [`join_bottom`] through the middle. The lower part's states expand
/// into many bottom states: a chunk whose expansion would pass `room`
/// bytes is joined in halves (the same sum, with less adding up of equal
/// states); a single state is joined whatever it takes. Each part's
/// requests go to `sink` as soon as they are made.
fn join_through(
    table: &Table,
    middle: &Middle,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
    sink: &mut impl FnMut(Vec<Vec<Request>>) -> Result<()>,
) -> Result<()> {
    let room = if chunk.len() > 1 { room } else { u64::MAX };
    match join_middle(table, middle, w, chunk, room, opts) {
        Ok(done) => sink(done),
        Err(Expansion::Err(e)) => Err(e),
        Err(Expansion::TooLarge) => {
            let (a, b) = chunk.split_at(chunk.len() / 2);
            join_through(table, middle, w, a, room, opts, sink)?;
            join_through(table, middle, w, b, room, opts, sink)
        }
    }
}

/// Why a join through the middle stopped.
enum Expansion {
    /// The expanded states would pass the memory left for them.
    TooLarge,
    Err(Error),
}

impl From<Error> for Expansion {
    fn from(e: Error) -> Expansion {
        Expansion::Err(e)
    }
}

/// [`join_bottom`] through the middle for one chunk, whose expanded
/// states may take at most `room` bytes.
fn join_middle(
    table: &Table,
    middle: &Middle,
    w: usize,
    chunk: &[(u128, u128)],
    room: u64,
    opts: &RunOptions<'_>,
) -> std::result::Result<Vec<Vec<Request>>, Expansion> {
    let per = piece_size(chunk.len());
    let entry = std::mem::size_of::<(u128, u128)>() as u64;
    let expanded = AtomicU64::new(0);
    // Expanded in parallel into shards by state; each shard is added up
    // and met on its own.
    const SHARDS: usize = 16;
    let mirror = Relabel::mirror(w);
    let pieces: Vec<Vec<Vec<(u128, u128)>>> = chunk
        .par_chunks(per)
        .map(
            |c| -> std::result::Result<Vec<Vec<(u128, u128)>>, Expansion> {
                opts.check_stop(executor::JOINING)?;
                let mut out: Vec<Vec<(u128, u128)>> = vec![Vec::new(); SHARDS];
                let mut added = 0u64;
                for (i, &(k, count)) in c.iter().enumerate() {
                    middle.expand(Boundary::unpacked(k), &mut |b| {
                        let k = b.packed().min(mirror.of(b).packed());
                        let h = (k as u64 ^ (k >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
                        out[(h >> 60) as usize].push((k, count));
                        added += 1;
                    });
                    if i % 64 == 63 {
                        let total = expanded.fetch_add(added, Ordering::Relaxed) + added;
                        added = 0;
                        // Twice the entries: a vector's spare capacity.
                        if total.saturating_mul(2 * entry) > room {
                            return Err(Expansion::TooLarge);
                        }
                    }
                }
                Ok(out)
            },
        )
        .collect::<std::result::Result<_, Expansion>>()?;
    (0..SHARDS)
        .into_par_iter()
        .map(|j| -> Result<Vec<Request>> {
            opts.check_stop(executor::JOINING)?;
            let mut v: Vec<(u128, u128)> =
                pieces.iter().flat_map(|p| p[j].iter().copied()).collect();
            executor::merge(&mut v).map_err(|stop| match stop {
                Stop::Err(e) => e,
                Stop::Overflow => executor::part_overflow(),
                Stop::OverMemory(_) => {
                    crate::Error::Internal("a merge passed a memory bound".into())
                }
            })?;
            meet_all(table, v)
        })
        .collect::<Result<_>>()
        .map_err(Expansion::Err)
}
