//! Tests of the enumeration, its checkpoint and the symmetry classes.

use super::enumerate::{canonical, estimate_nodes};
use super::search::{Enumeration, EnumerationReport};
use super::tests::{dudeney, tour_of};
use crate::{Control, Error, Wanted};

fn enumerate(
    side: u32,
    checkpoint: Option<&std::path::Path>,
    max_nodes: Option<u64>,
) -> crate::Result<EnumerationReport> {
    let e = Enumeration {
        side,
        kind: Wanted::Either,
        checkpoint: checkpoint.map(|p| p.to_path_buf()),
        max_nodes,
        symmetric: false,
    };
    e.run(&Control::new(), &mut |_| Ok(()))
}

#[test]
fn the_canonical_form_is_the_same_for_all_16_images() {
    let tour = tour_of(&dudeney()).squares().to_vec();
    let want = canonical(8, &tour);
    let n = 8u32;
    type Map = fn(u32, u32) -> (u32, u32);
    let maps: [Map; 8] = [
        |r, c| (r, c),
        |r, c| (c, 7 - r),
        |r, c| (7 - r, 7 - c),
        |r, c| (7 - c, r),
        |r, c| (r, 7 - c),
        |r, c| (7 - r, c),
        |r, c| (c, r),
        |r, c| (7 - c, 7 - r),
    ];
    for f in maps {
        let image: Vec<u32> = tour
            .iter()
            .map(|&s| {
                let (r, c) = f(s / n, s % n);
                r * n + c
            })
            .collect();
        assert_eq!(canonical(8, &image), want);
        let reversed: Vec<u32> = image.into_iter().rev().collect();
        assert_eq!(canonical(8, &reversed), want);
    }
    assert!(want <= tour);
}

/// 6x6 has no semimagic tour, as this enumeration finds (magic tours need
/// a side that is a multiple of 4 at least 8; Jelliss's notes).
#[test]
fn the_6x6_enumeration_finds_no_tour_and_resumes_to_the_same_report() {
    let whole = enumerate(6, None, None).unwrap();
    assert_eq!(
        (
            whole.ranges_done,
            whole.ranges,
            whole.tours,
            whole.classes,
            whole.complete
        ),
        (108, 108, 0, 0, true)
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("magic.json");
    let part = enumerate(6, Some(&path), Some(whole.nodes / 3)).unwrap();
    assert!(!part.complete);
    assert!(part.ranges_done < 108);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"version\":1"));
    let rest = enumerate(6, Some(&path), None).unwrap();
    assert_eq!(
        (
            rest.ranges_done,
            rest.ranges,
            rest.tours,
            rest.classes,
            rest.complete
        ),
        (108, 108, 0, 0, true)
    );
    assert!(rest.nodes >= whole.nodes);
    let again = enumerate(6, Some(&path), None).unwrap();
    assert_eq!(again, rest);
}

#[test]
fn a_checkpoint_of_another_board_version_or_none_at_all_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("magic.json");
    enumerate(6, Some(&path), Some(1)).unwrap();
    let refused = |side: u32| match enumerate(side, Some(&path), Some(1)) {
        Err(e @ Error::Refused(_)) => e.to_string(),
        other => panic!("{other:?}"),
    };
    assert!(
        refused(8).contains("of another enumeration: the 6x6 board"),
        "{}",
        refused(8)
    );
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("\"version\":1", "\"version\":99");
    std::fs::write(&path, text).unwrap();
    assert!(refused(6).contains("version 99, not 1"));
    for junk in ["", "{", "[1,2]", "{\"version\":1}", "\u{0}\u{1}"] {
        std::fs::write(&path, junk).unwrap();
        assert!(refused(6).contains("is not a magic enumeration checkpoint"));
    }
}

#[test]
fn the_estimate_of_6x6_is_near_the_nodes_it_takes() {
    let whole = enumerate(6, None, None).unwrap();
    let (mean, se) = estimate_nodes(6, Wanted::Either, 2000, 7, &Control::new()).unwrap();
    assert!(se > 0.0);
    assert!(
        (mean - whole.nodes as f64).abs() < 5.0 * se + 0.2 * whole.nodes as f64,
        "{mean} ± {se} vs {}",
        whole.nodes
    );
}
