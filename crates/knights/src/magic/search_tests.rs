//! Tests of the magic search.

use super::search::MagicSearch;
use super::tests::{dudeney, tour_of};
use super::Magic;
use crate::{check, Control, Error, Wanted};

/// Searches `search`, re-checking every tour it hands out.
fn run(search: &MagicSearch) -> crate::Result<(Vec<Vec<u32>>, super::search::SearchReport)> {
    let mut tours = Vec::new();
    let report = search.run(&Control::new(), &mut |f| {
        assert!(check::check_tour(&f.tour).is_ok());
        assert_ne!(super::sums(&f.tour).unwrap().magic, Magic::No);
        tours.push(f.tour.squares().to_vec());
        Ok(())
    })?;
    Ok((tours, report))
}

fn dudeney_prefix(len: usize) -> Vec<u32> {
    tour_of(&dudeney()).squares()[..len].to_vec()
}

#[test]
fn the_first_20_steps_of_dudeneys_tour_have_a_semimagic_completion() {
    let mut search = MagicSearch::new(8);
    search.prefix = dudeney_prefix(20);
    search.max_nodes = Some(50_000_000);
    let (tours, report) = run(&search).unwrap();
    assert_eq!(report.found, 1);
    assert_eq!(&tours[0][..20], &search.prefix[..]);
}

#[test]
fn a_prefix_that_is_not_a_knight_path_is_refused() {
    let mut search = MagicSearch::new(8);
    search.prefix = vec![0, 1];
    assert!(matches!(run(&search), Err(Error::Refused(_))));
    search.prefix = vec![0, 10, 0];
    assert!(matches!(run(&search), Err(Error::Refused(_))));
    search.prefix = vec![70];
    assert!(matches!(run(&search), Err(Error::Refused(_))));
    search.prefix = vec![0];
    search.start = Some(1);
    assert!(matches!(run(&search), Err(Error::Refused(_))));
    for side in [5, 4, 18, 0] {
        assert!(matches!(
            run(&MagicSearch::new(side)),
            Err(Error::Refused(_))
        ));
    }
}

#[test]
fn a_whole_tour_given_is_handed_back_when_semimagic() {
    let mut search = MagicSearch::new(8);
    search.prefix = dudeney_prefix(64);
    let (tours, _) = run(&search).unwrap();
    assert_eq!(tours, vec![search.prefix.clone()]);
    // Dudeney's tour closes (64 is a knight's move from 1).
    search.kind = Wanted::Open;
    assert!(matches!(run(&search), Err(Error::NoTour(_))));
}

#[test]
fn a_tiny_budget_gives_up_with_the_nodes_hint() {
    let mut search = MagicSearch::new(8);
    search.max_nodes = Some(1000);
    match run(&search) {
        Err(e @ Error::GaveUp(_)) => assert!(e.to_string().contains("more nodes")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_pinned_seed_finds_a_semimagic_tour_from_16_steps_of_dudeneys() {
    let mut search = MagicSearch::new(8);
    search.prefix = dudeney_prefix(16);
    search.seed = 5;
    search.max_nodes = Some(100_000_000);
    let (tours, report) = run(&search).unwrap();
    let crc = crc32fast::hash(
        &tours[0]
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect::<Vec<u8>>(),
    );
    assert_eq!(crc, 0xf8dc_e8e5, "{:?}", &tours[0][16..24]);
    assert!(report.nodes < 100_000_000);
}

#[test]
#[ignore = "measures Knuth's estimate of the whole 8x8 tree (MAGIC_PROBES probes), in release"]
fn magic_estimate() {
    let probes: u64 = std::env::var("MAGIC_PROBES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let t0 = std::time::Instant::now();
    let (mean, se) =
        super::enumerate::estimate_nodes(8, Wanted::Either, probes, 1, &Control::new()).unwrap();
    println!(
        "8x8 either: {probes} probes, nodes {mean:.4e} ± {se:.2e} ({:.1}s)",
        t0.elapsed().as_secs_f64()
    );
}

#[test]
fn the_slices_follow_lubys_sequence() {
    let seq: Vec<u64> = (1..=15).map(super::search::luby).collect();
    assert_eq!(seq, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
}

#[test]
fn a_bare_pinned_seed_finds_a_semimagic_tour_within_five_million_nodes() {
    let mut search = MagicSearch::new(8);
    search.seed = 1;
    search.max_nodes = Some(5_000_000);
    let (tours, report) = run(&search).unwrap();
    assert_eq!(report.found, 1);
    let crc = crc32fast::hash(
        &tours[0]
            .iter()
            .flat_map(|s| s.to_le_bytes())
            .collect::<Vec<u8>>(),
    );
    assert_eq!(crc, 0x90b6_b31b, "{:?}", &tours[0][..8]);
}

#[test]
fn a_symmetric_search_hands_out_tours_symmetric_under_the_half_turn() {
    let mut search = MagicSearch::new(8);
    search.symmetric = true;
    search.seed = 2;
    search.limit = Some(3);
    search.max_nodes = Some(50_000_000);
    let (tours, report) = run(&search).unwrap();
    assert_eq!(report.found, 3);
    for t in &tours {
        for k in 0..32 {
            assert_eq!(t[k + 32], 63 - t[k], "{t:?}");
        }
    }
    search.kind = Wanted::Open;
    assert!(matches!(run(&search), Err(Error::Refused(_))));
}
