//! Join, shatter and obfuscate a closed tour or tourney, and check a tour
//! or tourney: the jobs whose input is a file's text.

use serde::{Deserialize, Serialize};

use super::{refuse, within, TourAnswer, TourneyAnswer};
use crate::algorithms::Algorithm;
use crate::format::{self, Valid};
use crate::rails::{self, JoinOptions, JoinStats, ObfuscateOptions};
use crate::{Control, Cover, Result, Square};

/// A closed tour or tourney (its file's text: JSON, a grid or a move list)
/// joined into one closed tour (`knights join`, `POST /api/join`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct JoinRequest {
    /// The closed tour or tourney, as a file's text.
    pub cover: String,
    /// Seed of the random choices.
    #[serde(default)]
    pub seed: u64,
}

/// A closed tour or tourney shattered into a tourney (`knights shatter`,
/// `POST /api/shatter`).
pub type ShatterRequest = JoinRequest;

/// A closed tour or tourney shattered `shatters` times and joined again
/// (`knights obfuscate`, `POST /api/obfuscate`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ObfuscateRequest {
    /// The closed tour or tourney, as a file's text.
    pub cover: String,
    /// Seed of the random choices.
    #[serde(default)]
    pub seed: u64,
    /// Shatters before the join (1 to 1000, default 16).
    #[serde(default = "sixteen")]
    pub shatters: u32,
}

fn sixteen() -> u32 {
    16
}

/// The cover of a closed tour or tourney's text, and the tour's start.
fn read_cover(text: &str) -> Result<(Cover, Option<Square>)> {
    match format::read(text)?.into_valid()? {
        Valid::Tour(t) if t.is_closed() => Ok((Cover::from_tour(&t)?, Some(t.start()))),
        Valid::Tour(t) => refuse(format!(
            "join, shatter and obfuscate need a closed tour or a tourney, and this is an open tour of {}",
            t.board()
        )),
        Valid::Tourney(t) => Ok((Cover::from_tourney(&t)?, None)),
    }
}

/// A joined (or obfuscated) tour and what the join did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JoinAnswer {
    /// The closed tour.
    pub tour: TourAnswer,
    /// Cycles before the join.
    pub cycles_before: usize,
    /// Passes of the join.
    pub passes: u32,
    /// Rails switched.
    pub rails_switched: u64,
}

/// The shattered tourney.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShatterAnswer {
    /// The tourney.
    pub tourney: TourneyAnswer,
    /// Rails switched.
    pub rails_switched: usize,
}

impl JoinRequest {
    /// Every check of the request.
    pub fn validate(&self) -> Result<()> {
        read_cover(&self.cover).map(drop)
    }

    /// The joined tour.
    pub fn run(&self, control: &Control) -> Result<JoinAnswer> {
        let (mut cover, start) = read_cover(&self.cover)?;
        let options = JoinOptions {
            control: control.clone(),
            ..Default::default()
        };
        let stats = rails::join(&mut cover, &options, &mut crate::rng::seeded(self.seed))?;
        joined(&cover, start, &stats, self.seed)
    }

    /// The shattered tourney.
    pub fn shatter(&self, control: &Control) -> Result<ShatterAnswer> {
        let (mut cover, _) = read_cover(&self.cover)?;
        control.check("the shatter")?;
        let switched = rails::shatter(&mut cover, &mut crate::rng::seeded(self.seed))?;
        Ok(ShatterAnswer {
            tourney: TourneyAnswer::of(&cover.to_tourney()?),
            rails_switched: switched,
        })
    }
}

/// The answer of a join or obfuscation: the cover as a tour from `start`.
fn joined(
    cover: &Cover,
    start: Option<Square>,
    stats: &JoinStats,
    seed: u64,
) -> Result<JoinAnswer> {
    let tour = cover.to_tour(start.unwrap_or(0), None)?;
    Ok(JoinAnswer {
        tour: TourAnswer::of(&tour, Algorithm::Auto, seed),
        cycles_before: stats.cycles_before,
        passes: stats.passes,
        rails_switched: stats.rails_switched,
    })
}

impl ObfuscateRequest {
    /// Every check of the request.
    pub fn validate(&self) -> Result<()> {
        within("shatters", self.shatters, 1, 1000)?;
        read_cover(&self.cover).map(drop)
    }

    /// The obfuscated tour.
    pub fn run(&self, control: &Control) -> Result<JoinAnswer> {
        within("shatters", self.shatters, 1, 1000)?;
        let (mut cover, start) = read_cover(&self.cover)?;
        let options = ObfuscateOptions {
            shatters: self.shatters,
            join: JoinOptions {
                control: control.clone(),
                ..Default::default()
            },
        };
        let stats = rails::obfuscate(&mut cover, &options, &mut crate::rng::seeded(self.seed))?;
        joined(&cover, start, &stats, self.seed)
    }
}

/// A tour or tourney checked by the independent checker (`knights check`,
/// `POST /api/check`, `knights.check`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CheckRequest {
    /// The tour or tourney, as a file's text.
    pub text: String,
}

/// The checker's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckAnswer {
    /// Whether it is a valid tour or tourney.
    pub valid: bool,
    /// What it is (`closed tour on 8x8`, ...) or what is wrong with it.
    pub verdict: String,
}

impl CheckRequest {
    /// Every check of the request: the text must read as a tour or tourney
    /// file (whether it is a valid one is the answer).
    pub fn validate(&self) -> Result<()> {
        format::read(&self.text).map(drop)
    }

    /// The verdict.
    pub fn run(&self, _control: &Control) -> Result<CheckAnswer> {
        let doc = format::read(&self.text)?;
        Ok(match doc.check() {
            Ok(verdict) => CheckAnswer {
                valid: true,
                verdict: match (doc.shape(), &verdict) {
                    (Some(shape), crate::check::Verdict::Tour { kind, .. }) => {
                        format!("{kind} tour on {shape}")
                    }
                    _ => verdict.to_string(),
                },
            },
            Err(fault) => CheckAnswer {
                valid: false,
                verdict: fault.to_string(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::{tests::round_trip, Request};
    use super::*;
    use crate::{Kind, Tour};

    fn tour_text(kind: Kind) -> String {
        let tour = Tour::builder("6x6".parse().unwrap())
            .kind(kind)
            .build()
            .unwrap();
        crate::format::tour_json(&tour).to_string()
    }

    #[test]
    fn join_shatter_and_obfuscate_take_a_closed_tour_and_refuse_an_open_one() {
        let closed = tour_text(Kind::Closed);
        let join = JoinRequest {
            cover: closed.clone(),
            seed: 1,
        };
        assert_eq!(
            round_trip(Request::Join(join.clone()))["join"]["tour"]["closed"],
            true
        );
        let shattered = round_trip(Request::Shatter(join));
        assert!(shattered["shatter"]["tourney"]["cycles"].is_array());
        let obfuscate = ObfuscateRequest {
            cover: closed,
            seed: 1,
            shatters: 4,
        };
        assert_eq!(
            round_trip(Request::Obfuscate(obfuscate.clone()))["obfuscate"]["tour"]["closed"],
            true
        );
        let open = JoinRequest {
            cover: tour_text(Kind::Open),
            seed: 1,
        };
        assert!(open
            .validate()
            .unwrap_err()
            .to_string()
            .contains("open tour"));
        let none = ObfuscateRequest {
            shatters: 0,
            ..obfuscate
        };
        assert!(none
            .validate()
            .unwrap_err()
            .to_string()
            .contains("shatters"));
    }

    #[test]
    fn check_answers_valid_or_not_and_refuses_what_is_no_file() {
        let answer = round_trip(Request::Check(CheckRequest {
            text: tour_text(Kind::Open),
        }));
        assert_eq!(answer["check"]["valid"], true);
        let broken = CheckRequest {
            text: "0 1\n2 3\n".into(),
        };
        assert!(!broken.run(&Control::new()).unwrap().valid);
        assert!(CheckRequest {
            text: String::new()
        }
        .validate()
        .is_err());
    }
}
