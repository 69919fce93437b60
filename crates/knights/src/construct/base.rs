//! The base tours of the construction, kept as data, and their decoding
//! into small covers ("patterns") that are copied onto the board.
//!
//! Every base was found once by the seeded search in [`super::search`]
//! (`cargo run --release -p knights --example find_bases` prints this
//! table), and the test below runs every one through the checker. A base is
//! given by its board and, for each of its cycles or its one path, the start
//! square and the move numbers (0-7) taken from it in order.

use crate::board::{move_for, MOVES};

/// What a base covers its board with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// One closed tour.
    Closed,
    /// One open tour (a Hamiltonian path whose ends are not a knight's move apart).
    Path,
    /// Two cycles that cover the board between them (4-row blocks, which
    /// have no closed tour: each cycle keeps to the outer squares of one
    /// colour and the inner squares of the other).
    Pair,
}

/// One base, as kept in [`BASES`].
#[derive(Copy, Clone, Debug)]
pub(crate) struct Base {
    pub kind: Kind,
    pub rows: u32,
    pub cols: u32,
    /// (start row, start column, moves) for each cycle, or for the path.
    pub cycles: &'static [(u32, u32, &'static str)],
}

/// A small cover ready to be copied onto the board: one byte per square
/// (bit k = move k chosen, as in [`crate::Cover`]), the cycle each square
/// lies on, and the ends of a path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub rows: u32,
    pub cols: u32,
    pub links: Vec<u8>,
    /// Index of the cycle (or path) through each square.
    pub label: Vec<u8>,
    /// Position of each square along its cycle (or path), in base order.
    pub order: Vec<u16>,
    /// Number of cycles and paths.
    pub parts: u8,
    /// The two ends of the path, for a pattern that holds one.
    pub ends: Option<[(u32, u32); 2]>,
}

impl Pattern {
    /// A pattern from cycles or one path, each as a list of (row, column).
    /// Panics on squares that are not a knight's move apart (callers pass
    /// checked data).
    pub fn from_parts(rows: u32, cols: u32, parts: &[Vec<(u32, u32)>], path: bool) -> Pattern {
        let n = (rows * cols) as usize;
        let mut p = Pattern {
            rows,
            cols,
            links: vec![0; n],
            label: vec![u8::MAX; n],
            order: vec![0; n],
            parts: parts.len() as u8,
            ends: None,
        };
        for (id, sq) in parts.iter().enumerate() {
            let len = sq.len();
            let edges = if path { len - 1 } else { len };
            for i in 0..edges {
                let (a, b) = (sq[i], sq[(i + 1) % len]);
                let k = move_for(
                    i64::from(b.1) - i64::from(a.1),
                    i64::from(b.0) - i64::from(a.0),
                )
                .expect("consecutive squares of a base are a knight's move apart");
                p.links[(a.0 * cols + a.1) as usize] |= 1 << k;
                p.links[(b.0 * cols + b.1) as usize] |= 1 << (k ^ 4);
            }
            for (i, &(r, c)) in sq.iter().enumerate() {
                p.label[(r * cols + c) as usize] = id as u8;
                p.order[(r * cols + c) as usize] = i as u16;
            }
            if path {
                p.ends = Some([sq[0], sq[len - 1]]);
            }
        }
        p
    }

    /// The same pattern turned on its side (rows become columns).
    pub fn transposed(&self) -> Pattern {
        let map: Vec<u8> = MOVES
            .iter()
            .map(|&(dx, dy)| {
                move_for(i64::from(dy), i64::from(dx)).expect("a transposed move is a move")
            })
            .collect();
        let n = self.links.len();
        let (mut links, mut label, mut order) = (vec![0u8; n], vec![0u8; n], vec![0u16; n]);
        for r in 0..self.rows {
            for c in 0..self.cols {
                let from = (r * self.cols + c) as usize;
                let to = (c * self.rows + r) as usize;
                let bits = self.links[from];
                links[to] = (0..8)
                    .filter(|k| bits & (1 << k) != 0)
                    .fold(0u8, |acc, k| acc | (1 << map[k]));
                label[to] = self.label[from];
                order[to] = self.order[from];
            }
        }
        Pattern {
            rows: self.cols,
            cols: self.rows,
            links,
            label,
            order,
            parts: self.parts,
            ends: self.ends.map(|e| e.map(|(r, c)| (c, r))),
        }
    }
}

impl Base {
    /// The squares of each cycle (or of the path), decoded from the moves.
    pub fn squares(&self) -> Vec<Vec<(u32, u32)>> {
        self.cycles
            .iter()
            .map(|&(r, c, moves)| {
                let mut at = (i64::from(r), i64::from(c));
                let mut out = vec![(r, c)];
                for k in moves.bytes() {
                    let (dx, dy) = MOVES[usize::from(k - b'0')];
                    at = (at.0 + i64::from(dy), at.1 + i64::from(dx));
                    out.push((at.0 as u32, at.1 as u32));
                }
                if self.kind != Kind::Path {
                    out.pop(); // the closing move returns to the start
                }
                out
            })
            .collect()
    }

    /// The decoded pattern.
    pub fn pattern(&self) -> Pattern {
        Pattern::from_parts(
            self.rows,
            self.cols,
            &self.squares(),
            self.kind == Kind::Path,
        )
    }
}

/// The pattern of a base of this kind and size, turning a base of the
/// transposed size on its side when needed.
pub(crate) fn pattern(kind: Kind, rows: u32, cols: u32) -> Option<Pattern> {
    let find = |r, c| {
        BASES
            .iter()
            .find(|b| b.kind == kind && b.rows == r && b.cols == c)
    };
    find(rows, cols)
        .map(Base::pattern)
        .or_else(|| find(cols, rows).map(|b| b.pattern().transposed()))
}

// Printed by examples/find_bases.rs; checked by base::tests.

/// Every base tour of the construction.
pub(crate) const BASES: &[Base] = &[
    Base { kind: Kind::Closed, rows: 5, cols: 6, cycles: &[(0, 0, "650712503457020563421630764313")] },
    Base { kind: Kind::Closed, rows: 5, cols: 8, cycles: &[(0, 0, "6503170754116534310705634250134601764233")] },
    Base { kind: Kind::Closed, rows: 5, cols: 10, cycles: &[(0, 0, "65031707056302436507250134345700602346324750725313")] },
    Base { kind: Kind::Closed, rows: 6, cols: 5, cycles: &[(0, 0, "657036123560634120744601247143")] },
    Base { kind: Kind::Closed, rows: 6, cols: 6, cycles: &[(0, 0, "657012524650712574321646072134610533")] },
    Base { kind: Kind::Closed, rows: 6, cols: 7, cycles: &[(0, 0, "657072136143465070302435607425206712430633")] },
    Base { kind: Kind::Closed, rows: 6, cols: 8, cycles: &[(0, 0, "741707563430601252765343002456070324365000144252")] },
    Base { kind: Kind::Closed, rows: 6, cols: 9, cycles: &[(0, 0, "657070214361756302343567252106672024424650714702430523")] },
    Base { kind: Kind::Closed, rows: 6, cols: 10, cycles: &[(0, 0, "657070124352465031070747534144163216760725021453147175413523")] },
    Base { kind: Kind::Closed, rows: 7, cols: 6, cycles: &[(0, 0, "614657012502503456725274112577630527220533")] },
    Base { kind: Kind::Closed, rows: 7, cols: 8, cycles: &[(0, 0, "61465725036070213435752105660124661472125552010535613143")] },
    Base { kind: Kind::Closed, rows: 7, cols: 10, cycles: &[(0, 0, "6146572503607072502136147243535763131705276474227606134106543021642523")] },
    Base { kind: Kind::Closed, rows: 8, cols: 5, cycles: &[(0, 0, "6035657021245003465603507214571253072143")] },
    Base { kind: Kind::Closed, rows: 8, cols: 6, cycles: &[(0, 0, "614656072125025034575276023316557250713614120533")] },
    Base { kind: Kind::Closed, rows: 8, cols: 7, cycles: &[(0, 0, "61465607147212345650702124357461055311610536614521105243")] },
    Base { kind: Kind::Closed, rows: 8, cols: 8, cycles: &[(0, 0, "6146560702124714345025657250701461213464753206772420364102764233")] },
    Base { kind: Kind::Closed, rows: 8, cols: 9, cycles: &[(0, 0, "614656070121472434565071602572216325564303671317207556135233165074127243")] },
    Base { kind: Kind::Closed, rows: 8, cols: 10, cycles: &[(0, 0, "61465607072123471756534341210741706305633305446175247132167716643206523076341323")] },
    Base { kind: Kind::Closed, rows: 9, cols: 6, cycles: &[(0, 0, "614656702125756342036507121250345765310571235720143503")] },
    Base { kind: Kind::Closed, rows: 9, cols: 8, cycles: &[(0, 0, "614656707250212353576601213435656147071302143577125564112553650206142033")] },
    Base { kind: Kind::Closed, rows: 9, cols: 10, cycles: &[(0, 0, "614656707021234553650360727714721350124363356141077036143676333507650334470134761034270333")] },
    Base { kind: Kind::Closed, rows: 10, cols: 5, cycles: &[(0, 0, "60356567121303465764212106564743120754507221631143")] },
    Base { kind: Kind::Closed, rows: 10, cols: 6, cycles: &[(0, 0, "614656507147214643127467030212503457712575452014101436753203")] },
    Base { kind: Kind::Closed, rows: 10, cols: 7, cycles: &[(0, 0, "6146565070212147243565670146147244200553000213506532754136714302066323")] },
    Base { kind: Kind::Closed, rows: 10, cols: 8, cycles: &[(0, 0, "61465650701212471434502565671602142207565630524420031761236475247143657105312033")] },
    Base { kind: Kind::Closed, rows: 10, cols: 9, cycles: &[(0, 0, "614656507072121345027056564343127467071212343561145710064464103063674503305024256520612133")] },
    Base { kind: Kind::Closed, rows: 10, cols: 10, cycles: &[(0, 0, "6146565070712123442565670703501212503434565607072144321177143477753275431764430033671271743570243033")] },
    Base { kind: Kind::Closed, rows: 3, cols: 10, cycles: &[(0, 0, "614700742524707036147243633503")] },
    Base { kind: Kind::Closed, rows: 3, cols: 12, cycles: &[(0, 0, "614700525306070353050714725034343503")] },
    Base { kind: Kind::Closed, rows: 3, cols: 14, cycles: &[(0, 0, "614700525307703507036036147243630534143503")] },
    Base { kind: Kind::Closed, rows: 3, cols: 16, cycles: &[(0, 0, "614700617074174163053363053414347160703534143503")] },
    Base { kind: Kind::Closed, rows: 3, cols: 18, cycles: &[(0, 0, "614700617070630527434306160353417434143471600534143503")] },
    Base { kind: Kind::Closed, rows: 11, cols: 6, cycles: &[(0, 0, "614656570121257214725034570641656342741075274327227470241663212503")] },
    Base { kind: Kind::Closed, rows: 11, cols: 8, cycles: &[(0, 0, "6146565707121214724616565417416343275013600242775327113524716336467205356503071246320303")] },
    Base { kind: Kind::Closed, rows: 11, cols: 10, cycles: &[(0, 0, "61465657070121234724356565036070725024102136147243677565244327227675010225505430527206142164753310521457175223")] },
    Base { kind: Kind::Closed, rows: 13, cols: 6, cycles: &[(0, 0, "614656567021212502503457064165652054305072246412741203677420146430212705541303")] },
    Base { kind: Kind::Closed, rows: 13, cols: 8, cycles: &[(0, 0, "61465656707212121434571176565643420365007410343203676447071214442760230102442560063207564250643125061233")] },
    Base { kind: Kind::Closed, rows: 13, cols: 10, cycles: &[(0, 0, "6146565670702121234545036574607072121214724632535771003435257106470635245250500255550707121327465414117450064503145314571160232133")] },
    Base { kind: Kind::Path, rows: 5, cols: 5, cycles: &[(0, 0, "650721441764310653207541")] },
    Base { kind: Kind::Path, rows: 5, cols: 7, cycles: &[(0, 0, "6503170653414107641143461750135507")] },
    Base { kind: Kind::Path, rows: 5, cols: 9, cycles: &[(0, 0, "65031707643431055025207075352170563206534161")] },
    Base { kind: Kind::Path, rows: 7, cols: 5, cycles: &[(0, 0, "6035005246570214753507212457520571")] },
    Base { kind: Kind::Path, rows: 7, cols: 7, cycles: &[(0, 0, "614657250360714725021346105553271363170641356175")] },
    Base { kind: Kind::Path, rows: 7, cols: 9, cycles: &[(0, 0, "61465725036070123435006410741630565272450725313054601435012450")] },
    Base { kind: Kind::Path, rows: 9, cols: 5, cycles: &[(0, 0, "60350052465671212450056305367431763412074642")] },
    Base { kind: Kind::Path, rows: 9, cols: 7, cycles: &[(0, 0, "61465670121344170630564245614707247125743412702065420522560125")] },
    Base { kind: Kind::Path, rows: 9, cols: 9, cycles: &[(0, 0, "61465670712124345657163412746070147433031144170765572317442010527536523061453014")] },
    Base { kind: Kind::Path, rows: 3, cols: 4, cycles: &[(0, 0, "74174163053")] },
    Base { kind: Kind::Path, rows: 3, cols: 7, cycles: &[(0, 0, "60063052743416306034")] },
    Base { kind: Kind::Path, rows: 3, cols: 8, cycles: &[(0, 0, "61470063052743350053060")] },
    Base { kind: Kind::Path, rows: 3, cols: 9, cycles: &[(0, 0, "61470074163053347147174335")] },
    Base { kind: Kind::Path, rows: 3, cols: 11, cycles: &[(0, 0, "61470053350053060074163053361470")] },
    Base { kind: Kind::Path, rows: 3, cols: 13, cycles: &[(0, 0, "61470053350053061607036147244306306034")] },
    Base { kind: Kind::Path, rows: 3, cols: 15, cycles: &[(0, 0, "61470053350053061607005274334724700742530706")] },
    Base { kind: Kind::Pair, rows: 4, cols: 5, cycles: &[(0, 0, "6713460143"), (0, 1, "5702450723")] },
    Base { kind: Kind::Pair, rows: 4, cols: 6, cycles: &[(0, 0, "670257234613"), (0, 1, "572507136143")] },
    Base { kind: Kind::Pair, rows: 4, cols: 7, cycles: &[(0, 0, "67014346071343"), (0, 1, "57250167250243")] },
    Base { kind: Kind::Pair, rows: 4, cols: 8, cycles: &[(0, 0, "6713460702572343"), (0, 1, "5725016713614523")] },
    Base { kind: Kind::Pair, rows: 4, cols: 9, cycles: &[(0, 0, "671346070146135243"), (0, 1, "572501617631642523")] },
    Base { kind: Kind::Path, rows: 4, cols: 5, cycles: &[(0, 0, "6713460147245072357")] },
    Base { kind: Kind::Path, rows: 4, cols: 6, cycles: &[(0, 0, "67024520763052054316145")] },
    Base { kind: Kind::Path, rows: 4, cols: 7, cycles: &[(0, 0, "670143461075335017634317064")] },
    Base { kind: Kind::Path, rows: 4, cols: 8, cycles: &[(0, 0, "6725206176316427146135245072531")] },
    Base { kind: Kind::Path, rows: 4, cols: 9, cycles: &[(0, 0, "67252061671346014724616325245072531")] },
    Base { kind: Kind::Path, rows: 4, cols: 10, cycles: &[(0, 0, "672520616146072502471461352461634316410")] },
    Base { kind: Kind::Path, rows: 4, cols: 11, cycles: &[(0, 0, "6725206161460713460147246163252572523572501")] },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check_cycles, check_path};

    fn coords(sq: &[(u32, u32)]) -> Vec<(i64, i64)> {
        sq.iter()
            .map(|&(r, c)| (i64::from(r), i64::from(c)))
            .collect()
    }

    /// Every base passes the checker as what it claims to be.
    #[test]
    fn every_base_is_valid() {
        for b in BASES {
            let parts = b.squares();
            let what = format!("{:?} base {}x{}", b.kind, b.rows, b.cols);
            match b.kind {
                Kind::Closed => {
                    assert_eq!(parts.len(), 1, "{what}");
                    assert_eq!(
                        check_path(b.rows, b.cols, &coords(&parts[0]), None),
                        Ok(crate::Kind::Closed),
                        "{what}"
                    );
                }
                Kind::Path => {
                    assert_eq!(parts.len(), 1, "{what}");
                    assert_eq!(
                        check_path(b.rows, b.cols, &coords(&parts[0]), None),
                        Ok(crate::Kind::Open),
                        "{what}"
                    );
                }
                Kind::Pair => {
                    let cycles: Vec<_> = parts.iter().map(|p| coords(p)).collect();
                    assert_eq!(check_cycles(b.rows, b.cols, &cycles), Ok(2), "{what}");
                }
            }
            let p = b.pattern();
            assert!(
                p.links.iter().all(|l| l.count_ones() == 2)
                    || (b.kind == Kind::Path
                        && p.links.iter().filter(|l| l.count_ones() == 1).count() == 2),
                "{what}"
            );
            assert_eq!(p.transposed().transposed(), p, "{what}");
        }
    }

    /// The table holds every size the layouts ask for.
    #[test]
    fn every_needed_size_is_there() {
        for h in 5..=10 {
            for w in 5..=10 {
                let odd = h * w % 2 == 1;
                assert_eq!(pattern(Kind::Closed, h, w).is_some(), !odd, "{h}x{w}");
                if odd && h <= 9 && w <= 9 {
                    assert!(pattern(Kind::Path, h, w).is_some(), "{h}x{w}");
                }
            }
        }
        for w in [10, 12, 14, 16, 18] {
            assert!(pattern(Kind::Closed, w, 3).is_some());
        }
        // Next to an 11- or 13-row path block (odd boards of 11 or 13 rows).
        for h in [11, 13] {
            for w in [6, 8, 10] {
                assert!(pattern(Kind::Closed, h, w).is_some(), "{h}x{w}");
            }
        }
        for w in [4, 7, 8, 9, 11, 13, 15] {
            assert!(pattern(Kind::Path, w, 3).is_some());
        }
        for w in 5..=11 {
            assert!(pattern(Kind::Path, w, 4).is_some());
        }
        for w in super::super::layout::PAIR_WIDTHS {
            assert!(pattern(Kind::Pair, w, 4).is_some());
        }
    }
}
