//! The checks of a checkpoint's manifest beyond its checksum: its fields
//! must agree with the count's own problem (its number of squares) and
//! with each other, and its answer with its binding, so that a manifest
//! edited and sealed again (its checksum is a CRC-32 anyone can take)
//! is refused rather than answered.
//!
//! What is caught: a square past the board, a layer with no state files
//! or with files missing (their states no longer add up to the layer's), a
//! count in an unfinished run or none in a finished one, figures of other
//! squares than the manifest's, and any change of the count, the prefix
//! counts, the square or the state files' checksums that does not also
//! take the binding again. What is not: a forger who takes the binding
//! again as well, or who rewrites state files with their checksums.

use std::path::Path;

use crate::count::engine::number::Count;
use crate::Error;
use serde::{Deserialize, Serialize};

/// What a run's answer stands on: the count, the prefix counts, the
/// square, and the state files of the layer with their checksums.
#[derive(Serialize)]
struct Bound<'a> {
    fingerprint: &'a str,
    step: usize,
    count: &'a Option<String>,
    prefix_counts: &'a [(usize, Count)],
    states_per_step: &'a [u64],
    files: Vec<(&'a str, u64, u32)>,
    /// A meet's join so far (format 6), left out where there is none, so
    /// that the bindings of format 5 stay as they were.
    #[serde(skip_serializing_if = "Option::is_none")]
    join: &'a Option<JoinRecord>,
}

/// The manifest's binding: the CRC-32 of what its answer stands on,
/// seeded apart from the manifest's checksum.
pub(super) fn binding(m: &Manifest) -> u32 {
    let bound = Bound {
        fingerprint: &m.fingerprint,
        step: m.step,
        count: &m.count,
        prefix_counts: &m.prefix_counts,
        states_per_step: &m.states_per_step,
        files: m
            .buckets
            .iter()
            .map(|f| (f.name.as_str(), f.states, f.crc32))
            .collect(),
        join: &m.join,
    };
    let mut h = crc32fast::Hasher::new_with_initial(0x6b6e_6967);
    h.update(
        serde_json::to_string(&bound)
            .expect("a manifest serialises")
            .as_bytes(),
    );
    h.finalize()
}

/// Checks the fields of the manifest `m` at `path` of a run of `n`
/// squares (its checksum, fingerprint and file names are checked before).
pub(super) fn check_fields(m: &Manifest, path: &Path, n: usize) -> Result<(), Error> {
    let wrong = |what: String| {
        Error::Parse(format!(
            "{} is not a checkpoint this count could have written ({what}); it was edited or damaged",
            path.display()
        ).into())
        .with_hint(crate::Hint::StartFresh)
    };
    let step = m.step;
    if step == 0 || step > n {
        return Err(wrong(format!(
            "it is after square {step}, where the count has squares 1 to {n}"
        )));
    }
    if m.states_per_step.len() != step {
        return Err(wrong(format!(
            "it gives the states of {} squares, not of the {step} done",
            m.states_per_step.len()
        )));
    }
    match (&m.count, step == n) {
        (Some(_), false) => {
            return Err(wrong(format!(
                "it holds a count after square {step} of {n}"
            )))
        }
        (None, true) => return Err(wrong("it is finished without a count".into())),
        _ => {}
    }
    if step < n && m.buckets.is_empty() {
        return Err(wrong(format!("it names no state file after square {step}")));
    }
    if let Some(j) = (0..m.buckets.len()).find(|&j| m.buckets[j].name != state_file_name(step, j)) {
        return Err(wrong(format!(
            "its state files are not s{step}-b0.bin to s{step}-b{}.bin in order (at {j})",
            m.buckets.len() - 1
        )));
    }
    let states: u64 = m.buckets.iter().map(|f| f.states).sum();
    if !m.buckets.is_empty() && states != m.states_per_step[step - 1] {
        return Err(wrong(format!(
            "its state files hold {states} states, the layer {}",
            m.states_per_step[step - 1]
        )));
    }
    if let Some(j) = &m.join {
        let odd = if m.version < 6 {
            Some(format!("format {}, which has none", m.version))
        } else if m.count.is_none() {
            Some("a run not finished".to_string())
        } else if j.buckets == 0 || j.done > j.buckets {
            Some(format!("{} of {} buckets", j.done, j.buckets))
        } else {
            None
        };
        if let Some(odd) = odd {
            return Err(wrong(format!("it records a join in {odd}")));
        }
    }
    let mut last = 0;
    for &(square, _) in &m.prefix_counts {
        if square <= last || square > step {
            return Err(wrong(format!(
                "it holds a prefix count after square {square}"
            )));
        }
        last = square;
    }
    match m.binding {
        Some(b) if b == binding(m) => Ok(()),
        Some(_) => Err(wrong(
            "its count, square or state files are not those it was written with".into(),
        )),
        None if m.version >= 5 => Err(wrong("its binding is missing".into())),
        // The formats before 5 bound nothing: resumed while the run makes
        // its counts itself.
        None if m.version < 5 && m.count.is_none() && m.prefix_counts.is_empty() => Ok(()),
        None => Err(Error::Parse(format!(
            "{} is a checkpoint of format {} holding a count, which that format does not bind to its run (format 5 does), so it cannot be checked",
            path.display(),
            m.version
        ).into())
        .with_hint(crate::Hint::StartFresh)),
    }
}

/// How far a meet's join has come, kept in the manifest of the run whose
/// final layer it streams (format 6 on; see `replay.rs`): the top part's states are joined
/// in parts, each a run of `buckets` buckets by pattern; the buckets below
/// `done` are joined, and made `sum` (from `pairs` table entries).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct JoinRecord {
    /// The buckets the top's states are dealt into.
    pub buckets: usize,
    /// The buckets joined (those below it).
    pub done: usize,
    /// The sum of the products the joined buckets made.
    pub sum: crate::count::engine::number::Count,
    /// Table entries worked through.
    pub pairs: u64,
}

/// The checkpoint manifest.
#[derive(Serialize, Deserialize)]
pub(super) struct Manifest {
    pub version: u32,
    pub fingerprint: String,
    /// Vertices processed.
    pub step: usize,
    pub buckets: Vec<StateFile>,
    pub states_per_step: Vec<u64>,
    pub peak: u64,
    /// The count, once the run is complete.
    pub count: Option<String>,
    /// A sweep's counts of the prefixes done so far.
    #[serde(default)]
    pub prefix_counts: Vec<(usize, crate::count::engine::number::Count)>,
    /// Bytes of unmerged successors the last square wrote, from which a
    /// resume sizes its first square's files (an integer: a float read back
    /// may differ in its last bit, and so the checksum).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raw_bytes: Option<u64>,
    /// A meet's join so far, in the manifest of the finished run whose
    /// final layer it streams: the top's buckets joined and the sum they
    /// made (see `replay.rs`). Format 6 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub join: Option<JoinRecord>,
    /// The CRC-32 of the run's answer and what it stands on (see
    /// [`binding`]), kept apart from the manifest's checksum: a manifest
    /// edited and sealed again keeps the binding of its old answer.
    /// Format 5 on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
    /// The CRC-32 of the manifest's JSON with this field 0 (see `checkpoint::crc_of`).
    pub checksum: u32,
}

/// A state file of a layer, as its manifest names it.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct StateFile {
    /// The file's name in the run's folder: `s{square}-b{bucket}.bin`.
    pub name: String,
    pub states: u64,
    /// The CRC-32 of the file's bytes.
    pub crc32: u32,
}

/// The name of bucket `bucket`'s state file after square `square`.
pub(super) fn state_file_name(square: usize, bucket: usize) -> String {
    format!("s{square}-b{bucket}.bin")
}
