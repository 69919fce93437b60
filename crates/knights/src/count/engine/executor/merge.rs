//! Routing and merging states: a successor goes to the partition its key's
//! hash picks, and a partition's successors are merged by adding up the
//! counts of equal keys (through a hash table, or by sorting past four
//! million entries, where the table would be large, or where the
//! allocator refuses it), or gathered into a [`Gathered`] bucket as
//! they arrive. Addition commutes, so a layer is the same however its
//! successors were split and gathered.

use super::words::{memory_entry_bytes, Key, Stop, Tally};

/// The partition of `parts` that the state `key` belongs to.
#[inline]
pub(crate) fn partition_of<K: Key>(key: K, parts: usize) -> usize {
    if parts == 1 {
        return 0;
    }
    let k = key.to_u128();
    let h = ((k as u64) ^ ((k >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let h = (h >> 32) as usize;
    match parts.is_power_of_two() {
        true => h & (parts - 1),
        false => h % parts,
    }
}

/// Adds up the counts of equal keys, leaving each key once (in no
/// particular order).
pub(crate) fn merge<K: Key, C: Tally>(v: &mut Vec<(K, C)>) -> std::result::Result<(), Stop> {
    if v.len() > MAX_HASHED {
        return merge_sorted(v);
    }
    // Open addressing over the distinct keys met so far, which are moved
    // to the front of `v` (a read index never trails the write index).
    let slots = (2 * v.len()).next_power_of_two().max(16);
    let bits = slots.trailing_zeros();
    // Where the allocator refuses the table (under an address-space
    // limit), sorting needs no memory beside the vector.
    let mut table: Vec<u32> = Vec::new();
    if table.try_reserve_exact(slots).is_err() {
        return merge_sorted(v);
    }
    table.resize(slots, u32::MAX);
    let mut w = 0usize;
    for r in 0..v.len() {
        let (key, count) = v[r];
        let i = probe(&table, bits, &v[..w], key);
        match table[i] {
            u32::MAX => {
                table[i] = w as u32;
                v[w] = (key, count);
                w += 1;
            }
            at => {
                let e = &mut v[at as usize];
                e.1 = e.1.add(count).ok_or(Stop::Overflow)?;
            }
        }
    }
    v.truncate(w);
    Ok(())
}

/// The first slot of `key` in an index table of `2^bits` slots.
#[inline]
fn slot<K: Key>(key: K, bits: u32) -> usize {
    let k = key.to_u128();
    let h = ((k as u64) ^ ((k >> 64) as u64).rotate_left(23)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    (h >> (64 - bits)) as usize
}

/// The slot of `key` in `table` (`2^bits` slots, each free or the place
/// of an entry of `entries`, linear probing): the one holding its entry,
/// or the free one where it goes. The table has a free slot.
#[inline]
fn probe<K: Key, C>(table: &[u32], bits: u32, entries: &[(K, C)], key: K) -> usize {
    let mask = table.len() - 1;
    let mut i = slot(key, bits);
    loop {
        let at = table[i];
        if at == u32::MAX || entries[at as usize].0 == key {
            return i;
        }
        i = (i + 1) & mask;
    }
}

/// A next bucket merged as its shares arrive: its distinct keys so far
/// with their summed counts, and an open-addressing table of their
/// places (at most half full). A layer step in memory gathers every
/// chunk's successors into these as the chunk ends, so the successors
/// are never all held at once beside the new layer.
pub(crate) struct Gathered<K, C> {
    entries: Vec<(K, C)>,
    table: Vec<u32>,
    bits: u32,
}

impl<K: Key, C: Tally> Gathered<K, C> {
    pub fn new() -> Self {
        Gathered {
            entries: Vec::new(),
            table: Vec::new(),
            bits: 0,
        }
    }

    /// The bytes it holds.
    pub fn bytes(&self) -> u64 {
        (self.entries.capacity() * memory_entry_bytes::<K, C>() + self.table.len() * 4) as u64
    }

    /// Adds `part` in: equal keys' counts summed. Fails on an overflow,
    /// or with the bytes it would hold when the allocator refuses them.
    pub fn add(&mut self, part: &[(K, C)]) -> std::result::Result<(), Stop> {
        let need = self.entries.len() + part.len();
        if need > self.entries.capacity() {
            let more = need.max(2 * self.entries.len()) - self.entries.len();
            if self.entries.try_reserve_exact(more).is_err() {
                return Err(Stop::OverMemory(self.bytes() * 2));
            }
        }
        if 2 * need > self.table.len() {
            self.grow_table(need)?;
        }
        // The table and the entries outgrow the caches: a batch's slots
        // and entries are first read together (their misses overlap),
        // then its keys are placed, finding their lines cached.
        let mut seen = 0u64;
        for batch in part.chunks(BATCH) {
            let mut at = [u32::MAX; BATCH];
            for (a, &(key, _)) in at.iter_mut().zip(batch) {
                *a = self.table[slot(key, self.bits)];
            }
            for &a in &at {
                if let Some(e) = self.entries.get(a as usize) {
                    seen ^= e.0.to_u128() as u64;
                }
            }
            for &(key, count) in batch {
                self.place(key, count)?;
            }
        }
        std::hint::black_box(seen);
        Ok(())
    }

    /// Adds `count` to `key`'s entry, or makes one (the room is reserved).
    #[inline]
    fn place(&mut self, key: K, count: C) -> std::result::Result<(), Stop> {
        let i = probe(&self.table, self.bits, &self.entries, key);
        match self.table[i] {
            u32::MAX => {
                self.table[i] = self.entries.len() as u32;
                self.entries.push((key, count));
            }
            at => {
                let e = &mut self.entries[at as usize];
                e.1 = e.1.add(count).ok_or(Stop::Overflow)?;
            }
        }
        Ok(())
    }

    /// A table for `need` entries (at least four slots an entry, so that
    /// it doubles seldom), the entries placed in it again.
    fn grow_table(&mut self, need: usize) -> std::result::Result<(), Stop> {
        let slots = (4 * need).next_power_of_two().max(16);
        // An index is a u32, one value of which marks a free slot.
        if slots > 1 << 32 {
            return Err(Stop::OverMemory(self.bytes() * 2));
        }
        let mut table: Vec<u32> = Vec::new();
        if table.try_reserve_exact(slots).is_err() {
            return Err(Stop::OverMemory(self.bytes() + slots as u64 * 4));
        }
        table.resize(slots, u32::MAX);
        let bits = slots.trailing_zeros();
        // The keys are distinct: each probe ends at a free slot.
        for (n, &(key, _)) in self.entries.iter().enumerate() {
            let i = probe(&table, bits, &self.entries[..n], key);
            table[i] = n as u32;
        }
        (self.table, self.bits) = (table, bits);
        Ok(())
    }

    /// The bucket's states, the table freed.
    pub fn into_entries(self) -> Vec<(K, C)> {
        let mut v = self.entries;
        v.shrink_to_fit();
        v
    }
}

/// The entries [`Gathered::add`] looks up together.
const BATCH: usize = 32;

/// The most entries [`merge`] adds up by hashing; longer vectors are
/// sorted, which needs no table beside them.
const MAX_HASHED: usize = 1 << 22;

/// Sorts by key and adds up the counts of equal keys.
fn merge_sorted<K: Key, C: Tally>(v: &mut Vec<(K, C)>) -> std::result::Result<(), Stop> {
    v.sort_unstable_by_key(|e| e.0);
    let mut w = 0usize;
    for r in 0..v.len() {
        if w > 0 && v[w - 1].0 == v[r].0 {
            v[w - 1].1 = v[w - 1].1.add(v[r].1).ok_or(Stop::Overflow)?;
        } else {
            v[w] = v[r];
            w += 1;
        }
    }
    v.truncate(w);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// The sums of equal keys, by a plain map.
    fn sums(parts: &[Vec<(u64, u64)>]) -> Vec<(u64, u64)> {
        let mut m = std::collections::BTreeMap::new();
        for &(k, c) in parts.iter().flatten() {
            *m.entry(k).or_insert(0) += c;
        }
        m.into_iter().collect()
    }

    #[test]
    fn gathered_parts_and_merged_ones_sum_equal_keys_alike() {
        let mut rng = Pcg64Mcg::seed_from_u64(63);
        // Parts of every size across the table's growths, keys repeating
        // within a part and across parts.
        let parts: Vec<Vec<(u64, u64)>> = (0..40)
            .map(|i| {
                (0..rng.random_range(0..i * 500 + 2))
                    .map(|_| {
                        (
                            rng.random_range(0..20_000u64) << 20,
                            rng.random_range(1..9u64),
                        )
                    })
                    .collect()
            })
            .collect();
        let mut g = Gathered::new();
        for p in &parts {
            assert!(g.add(p).is_ok());
        }
        let mut got = g.into_entries();
        got.sort_unstable();
        assert_eq!(got, sums(&parts));
        let mut all: Vec<(u64, u64)> = parts.concat();
        assert!(merge(&mut all).is_ok());
        all.sort_unstable();
        assert_eq!(all, got);
    }

    #[test]
    fn a_gathered_sum_past_the_width_is_an_overflow() {
        let mut g = Gathered::new();
        assert!(g.add(&[(7u64, u64::MAX - 1), (9, 1)]).is_ok());
        assert!(matches!(g.add(&[(7, 2)]), Err(Stop::Overflow)));
    }
}
