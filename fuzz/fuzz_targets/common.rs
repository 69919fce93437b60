//! What every reader target does with its input: read it; check what it
//! read; build the checked tour or tourney and write it back in every format,
//! which must read back to the same thing; and use it as a cipher key.

#![allow(dead_code)]

use knights::format::{self, Document, Valid};
use knights::Result;

/// Runs one reader over `text` and everything that follows from its answer.
pub fn read_document(text: &str, parse: fn(&str) -> Result<Document>) {
    let Ok(doc) = parse(text) else { return };
    let verdict = doc.check();
    let _ = knights::cipher::Key::from_text(text);
    let Ok(valid) = doc.clone().into_valid() else {
        assert!(verdict.is_err(), "the checker passed what into_valid refused");
        return;
    };
    assert!(verdict.is_ok(), "into_valid passed what the checker refused");
    match valid {
        Valid::Tour(tour) => {
            for written in [
                format::tour_json(&tour).to_string(),
                format::grid(&tour, 0).to_string(),
                format::grid(&tour, 1).to_string(),
                format::move_list(&tour).to_string(),
            ] {
                let back = format::read(&written).expect("a written tour reads back");
                match back.into_valid().expect("a written tour checks") {
                    Valid::Tour(t) => assert_eq!(t.squares(), tour.squares()),
                    Valid::Tourney(_) => panic!("a tour read back as a tourney"),
                }
            }
            let _ = format::tour_svg(&tour, Default::default()).to_string();
        }
        Valid::Tourney(tourney) => {
            for written in [
                format::tourney_json(&tourney).to_string(),
                format::tourney_move_list(&tourney).to_string(),
            ] {
                let back = format::read(&written).expect("a written tourney reads back");
                match back.into_valid().expect("a written tourney checks") {
                    Valid::Tourney(t) => assert_eq!(t.cycles(), tourney.cycles()),
                    Valid::Tour(_) => panic!("a tourney read back as a tour"),
                }
            }
            let _ = format::tourney_svg(&tourney, Default::default()).to_string();
        }
    }
}
