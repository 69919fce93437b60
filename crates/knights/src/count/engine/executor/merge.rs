//! Routing and merging states: a successor goes to the partition its key's
//! hash picks, and a partition's successors are merged by adding up the
//! counts of equal keys (through a hash table, or by sorting past four
//! million entries, where the table would be large, or where the
//! allocator refuses it). Addition commutes, so
//! a layer is the same however its successors were split and gathered.

use super::words::{Key, Stop, Tally};

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
    let bits = (2 * v.len()).next_power_of_two().max(16).trailing_zeros();
    let mask = (1usize << bits) - 1;
    // Where the allocator refuses the table (under an address-space
    // limit), sorting needs no memory beside the vector.
    let mut table: Vec<u32> = Vec::new();
    if table.try_reserve_exact(mask + 1).is_err() {
        return merge_sorted(v);
    }
    table.resize(mask + 1, u32::MAX);
    let mut w = 0usize;
    for r in 0..v.len() {
        let (key, count) = v[r];
        let k = key.to_u128();
        let h =
            ((k as u64) ^ ((k >> 64) as u64).rotate_left(23)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let mut i = (h >> (64 - bits)) as usize;
        loop {
            let at = table[i];
            if at == u32::MAX {
                table[i] = w as u32;
                v[w] = (key, count);
                w += 1;
                break;
            }
            let e = &mut v[at as usize];
            if e.0 == key {
                e.1 = e.1.add(count).ok_or(Stop::Overflow)?;
                break;
            }
            i = (i + 1) & mask;
        }
    }
    v.truncate(w);
    Ok(())
}

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
