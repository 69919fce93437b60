//! Every tour of `tests/data/magic_tours.toml` (published semimagic 8x8
//! tours, and ordinary tours beside them) goes through the one checker,
//! then `magic::sums` must say what the file says: semimagic or not, closed
//! or open, the diagonal sums; and none is magic (no 8x8 tour is:
//! Meyrignac, Stertenbrink et al., Computing Magic Knight Tours, 2003).

use knights::check::{check_path, grid_to_path};
use knights::magic::enumerate::canonical;
use knights::magic::search::Enumeration;
use knights::magic::{sums, Magic};
use knights::{Control, Kind, Tour, Wanted};
use serde::Deserialize;

use crate::suite::data;

/// One tour of the file.
#[derive(Deserialize)]
pub struct Published {
    pub name: String,
    pub source: String,
    pub semimagic: bool,
    pub closed: bool,
    pub diagonals: [u64; 2],
    pub rows: String,
}

/// One published count of classes.
#[derive(Deserialize)]
pub struct Count {
    pub what: String,
    pub symmetric: bool,
    pub classes: u64,
    pub source: String,
}

#[derive(Deserialize)]
struct File {
    tour: Vec<Published>,
    count: Vec<Count>,
}

fn file() -> File {
    toml::from_str::<File>(&data("magic_tours.toml")).expect("magic_tours.toml reads")
}

/// The tours of the file.
pub fn published() -> Vec<Published> {
    file().tour
}

impl Published {
    /// The tour, read from its numbered rows through the one checker.
    pub fn tour(&self) -> Tour {
        let numbers: Vec<u64> = self
            .rows
            .split_whitespace()
            .map(|n| n.parse().expect("a number"))
            .collect();
        assert_eq!(numbers.len(), 64, "{}", self.name);
        let path = grid_to_path(8, 8, &numbers, 1).expect(&self.name);
        let kind = check_path(8, 8, &path, None).expect(&self.name);
        assert_eq!(kind == Kind::Closed, self.closed, "{}", self.name);
        let squares = path.iter().map(|&(r, c)| (r * 8 + c) as u32).collect();
        Tour::new("8x8".parse().unwrap(), squares).expect(&self.name)
    }
}

#[test]
fn every_published_tour_is_recognised_as_its_source_says() {
    let tours = published();
    assert!(tours.iter().filter(|t| t.semimagic).count() >= 10);
    assert!(tours.iter().filter(|t| !t.semimagic).count() >= 3);
    for t in &tours {
        assert!(!t.source.is_empty(), "{} has no source", t.name);
        let s = sums(&t.tour()).expect("a plain board");
        let want = if t.semimagic {
            Magic::Semimagic
        } else {
            Magic::No
        };
        assert_eq!(s.magic, want, "{}: {s:?}", t.name);
        assert_eq!(s.diagonals, Some(t.diagonals), "{}", t.name);
        assert_eq!(s.rows.iter().sum::<u64>(), 64 * 65 / 2);
        if t.semimagic {
            assert_eq!(
                (s.rows.clone(), s.cols.clone()),
                (vec![260; 8], vec![260; 8])
            );
            assert!(s
                .describe()
                .starts_with("semimagic: rows sum to 260, columns sum to 260"));
        }
    }
}

#[test]
fn beverleys_tour_reversed_and_reflected_stays_semimagic() {
    let beverley = published()
        .into_iter()
        .find(|t| t.name == "Beverley 1848")
        .unwrap();
    let tour = beverley.tour();
    let mirrored: Vec<u32> = tour
        .squares()
        .iter()
        .map(|&s| s - s % 8 + 7 - s % 8)
        .collect();
    for t in [
        tour.reversed(),
        Tour::new("8x8".parse().unwrap(), mirrored).unwrap(),
    ] {
        let s = sums(&t).unwrap();
        assert_eq!(s.magic, Magic::Semimagic);
    }
    // Numbers 1 and 3 swapped (squares in different rows and columns):
    // the checker refuses the path, and the sums no longer agree.
    let mut swapped = tour.squares().to_vec();
    swapped.swap(0, 2);
    assert!(Tour::new("8x8".parse().unwrap(), swapped.clone()).is_err());
    let t = Tour::from_squares_unchecked("8x8".parse().unwrap(), swapped);
    assert_eq!(sums(&t).unwrap().magic, Magic::No);
}

/// The one count an enumeration finishes within the tests: the tours
/// symmetric under the half turn (a search of half the depth). Every one
/// is checked by the one checker as it is found, and the published
/// symmetric tours are among them.
#[test]
fn the_published_count_of_tours_symmetric_under_the_half_turn_is_found() {
    let counts = file().count;
    let count = counts
        .iter()
        .find(|c| c.symmetric)
        .expect("a symmetric count");
    assert!(!count.source.is_empty(), "{} has no source", count.what);
    let mut classes = std::collections::BTreeSet::new();
    let report = Enumeration {
        side: 8,
        kind: Wanted::Either,
        checkpoint: None,
        max_nodes: None,
        symmetric: true,
    }
    .run(&Control::new(), &mut |found| {
        let squares = found.tour.squares();
        assert!((0..32).all(|k| squares[k + 32] == 63 - squares[k]));
        classes.insert(canonical(8, squares));
        Ok(())
    })
    .unwrap();
    assert!(report.complete);
    assert_eq!(report.classes, count.classes, "{}", count.what);
    assert_eq!(classes.len() as u64, count.classes);
    let symmetric: Vec<Published> = published()
        .into_iter()
        .filter(|t| {
            let s = t.tour().squares().to_vec();
            t.semimagic && (0..32).all(|k| s[k + 32] == 63 - s[k])
        })
        .collect();
    assert!(!symmetric.is_empty(), "Wenzelides' tour is symmetric");
    for t in symmetric {
        assert!(
            classes.contains(&canonical(8, t.tour().squares())),
            "{}",
            t.name
        );
    }
}
