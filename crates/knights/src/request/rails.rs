//! Join, shatter and obfuscate a closed tour or tourney, and check a tour
//! or tourney: the jobs whose input is a file's text.

use serde::{Deserialize, Serialize};

use super::check_puzzle::{is_puzzle, PuzzleCheck};
use super::{refuse, within, JobRequest, TourAnswer, TourneyAnswer};
use crate::algorithms::Algorithm;
use crate::format::{self, Checked, Parsed};
use crate::rails::{self, JoinOptions, JoinStats, ObfuscateOptions};
use crate::{Control, Cover, Result, Square, Tour, Tourney};

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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct ShatterRequest {
    /// The closed tour or tourney, as a file's text.
    pub cover: String,
    /// Seed of the random choices.
    #[serde(default)]
    pub seed: u64,
}

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

/// A join, shatter or obfuscation checked: the cover read from the file's
/// text, the tour's start (for a tour) and the seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoverPlan {
    /// The closed tour or tourney as a cover.
    pub cover: Cover,
    /// The start of the closed tour, `None` for a tourney.
    pub start: Option<Square>,
    /// Seed of the random choices.
    pub seed: u64,
}

impl CoverPlan {
    /// The closed `tour` as a cover from its start; an open tour is
    /// refused.
    pub fn of_tour(tour: &Tour, seed: u64) -> Result<CoverPlan> {
        if !tour.is_closed() {
            return refuse(format!(
                "join, shatter and obfuscate need a closed tour or a tourney, and this is an open tour of {}",
                tour.board()
            ));
        }
        Ok(CoverPlan {
            cover: Cover::from_tour(tour)?,
            start: Some(tour.start()),
            seed,
        })
    }

    /// The cover of `tourney`.
    pub fn of_tourney(tourney: &Tourney, seed: u64) -> Result<CoverPlan> {
        Ok(CoverPlan {
            cover: Cover::from_tourney(tourney)?,
            start: None,
            seed,
        })
    }

    /// The cover of a closed tour or tourney's text.
    fn read(text: &str, seed: u64) -> Result<CoverPlan> {
        match format::read(text)?.into_checked()? {
            Checked::Tour(t) => CoverPlan::of_tour(&t, seed),
            Checked::Tourney(t) => CoverPlan::of_tourney(&t, seed),
        }
    }

    /// The answer of a join or obfuscation: the cover as a tour from the
    /// start.
    fn joined(self, stats: &JoinStats) -> Result<JoinAnswer> {
        let tour = self.cover.to_tour(self.start.unwrap_or(0), None)?;
        Ok(JoinAnswer {
            tour: TourAnswer {
                tour,
                algorithm: Algorithm::Auto,
                seed: self.seed,
            },
            cycles_before: stats.cycles_before,
            passes: stats.passes,
            rails_switched: stats.rails_switched,
        })
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

impl JobRequest for JoinRequest {
    type Plan = CoverPlan;
    type Answer = JoinAnswer;

    fn plan(&self) -> Result<CoverPlan> {
        CoverPlan::read(&self.cover, self.seed)
    }

    /// The joined tour.
    fn run_plan(mut plan: CoverPlan, control: &Control) -> Result<JoinAnswer> {
        let options = JoinOptions {
            control: control.clone(),
            ..Default::default()
        };
        let mut rng = crate::rng::seeded(plan.seed);
        let stats = rails::join(&mut plan.cover, &options, &mut rng)?;
        plan.joined(&stats)
    }
}

impl JobRequest for ShatterRequest {
    type Plan = CoverPlan;
    type Answer = ShatterAnswer;

    fn plan(&self) -> Result<CoverPlan> {
        CoverPlan::read(&self.cover, self.seed)
    }

    /// The shattered tourney.
    fn run_plan(mut plan: CoverPlan, control: &Control) -> Result<ShatterAnswer> {
        control.check("the shatter")?;
        let switched = rails::shatter(&mut plan.cover, &mut crate::rng::seeded(plan.seed))?;
        Ok(ShatterAnswer {
            tourney: TourneyAnswer {
                tourney: plan.cover.to_tourney()?,
            },
            rails_switched: switched,
        })
    }
}

/// An [`ObfuscateRequest`] checked: the cover and the shatters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObfuscatePlan {
    /// The cover, its start and the seed.
    pub cover: CoverPlan,
    shatters: u32,
}

impl ObfuscatePlan {
    /// `cover` to be shattered `shatters` times (1 to 1000) and joined.
    pub fn new(cover: CoverPlan, shatters: u32) -> Result<ObfuscatePlan> {
        let shatters = within("shatters", shatters, 1, MAX_SHATTERS)?;
        Ok(ObfuscatePlan { cover, shatters })
    }
}

/// The most shatters an obfuscation may ask for.
const MAX_SHATTERS: u32 = 1000;

impl JobRequest for ObfuscateRequest {
    type Plan = ObfuscatePlan;
    type Answer = JoinAnswer;

    fn plan(&self) -> Result<ObfuscatePlan> {
        let shatters = within("shatters", self.shatters, 1, MAX_SHATTERS)?;
        Ok(ObfuscatePlan {
            cover: CoverPlan::read(&self.cover, self.seed)?,
            shatters,
        })
    }

    /// The obfuscated tour.
    fn run_plan(plan: ObfuscatePlan, control: &Control) -> Result<JoinAnswer> {
        let ObfuscatePlan {
            cover: mut plan,
            shatters,
        } = plan;
        let options = ObfuscateOptions {
            shatters,
            join: JoinOptions {
                control: control.clone(),
                ..Default::default()
            },
        };
        let mut rng = crate::rng::seeded(plan.seed);
        let stats = rails::obfuscate(&mut plan.cover, &options, &mut rng)?;
        plan.joined(&stats)
    }
}

/// A tour or tourney checked by the independent checker (`knights check`,
/// `POST /api/check`, `knights.check`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
pub struct CheckRequest {
    /// The tour or tourney, as a file's text; or a puzzle file
    /// (docs/formats.md, "Puzzles"), whose solutions are counted; or,
    /// with `puzzle`, a filled grid that must solve it.
    pub text: String,
    /// A puzzle (either form) that `text`, a filled grid in any tour
    /// format or the puzzle's own form, must solve.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub puzzle: Option<String>,
}

impl CheckRequest {
    /// The check of `text`, a tour, tourney or puzzle file.
    pub fn new(text: impl Into<String>) -> CheckRequest {
        CheckRequest {
            text: text.into(),
            puzzle: None,
        }
    }
}

/// A check request read: a tour or tourney file, or a puzzle's check.
#[derive(Clone, Debug)]
pub enum CheckPlan {
    /// A tour or tourney file, unchecked.
    File(Parsed),
    /// A puzzle, or a solution of one.
    Puzzle(Box<PuzzleCheck>),
}

impl CheckPlan {
    /// The board of the file or the puzzle (for a door's size caps).
    pub fn board(&self) -> crate::Board {
        match self {
            CheckPlan::File(doc) => doc.board(),
            CheckPlan::Puzzle(p) => p.board(),
        }
    }
}

impl From<Parsed> for CheckPlan {
    fn from(doc: Parsed) -> CheckPlan {
        CheckPlan::File(doc)
    }
}

/// The checker's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CheckAnswer {
    /// Whether it is a valid tour or tourney.
    pub valid: bool,
    /// What it is (`closed tour on 8x8`, ...) or what is wrong with it.
    pub verdict: String,
    /// A valid tour's line sums numbered from 1, and whether it is
    /// semimagic or magic (a tour on a board without holes only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub magic: Option<crate::magic::LineSums>,
}

impl JobRequest for CheckRequest {
    type Plan = CheckPlan;
    type Answer = CheckAnswer;

    /// The text must read as a tour, tourney or puzzle file, and with a
    /// puzzle the puzzle must read (whether the file is valid, or solves
    /// the puzzle, is the answer).
    fn plan(&self) -> Result<CheckPlan> {
        if let Some(puzzle) = &self.puzzle {
            let check = PuzzleCheck::solution(&self.text, puzzle)?;
            return Ok(CheckPlan::Puzzle(Box::new(check)));
        }
        if is_puzzle(&self.text) {
            let check = PuzzleCheck::puzzle(&self.text)?;
            return Ok(CheckPlan::Puzzle(Box::new(check)));
        }
        format::read(&self.text).map(CheckPlan::File)
    }

    /// The verdict.
    fn run_plan(plan: CheckPlan, control: &Control) -> Result<CheckAnswer> {
        let doc = match plan {
            CheckPlan::File(doc) => doc,
            CheckPlan::Puzzle(check) => return check.run(control),
        };
        Ok(match doc.check() {
            Ok(verdict) => CheckAnswer {
                valid: true,
                verdict: match (doc.shape(), &verdict) {
                    (Some(shape), crate::check::Verdict::Tour { kind, .. }) => {
                        format!("{kind} tour on {shape}")
                    }
                    _ => verdict.to_string(),
                },
                magic: match doc.into_checked() {
                    Ok(Checked::Tour(tour)) => crate::magic::sums(&tour),
                    _ => None,
                },
            },
            Err(fault) => CheckAnswer {
                valid: false,
                verdict: fault.to_string(),
                magic: None,
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
        let shatter = ShatterRequest {
            cover: join.cover,
            seed: join.seed,
        };
        let shattered = round_trip(Request::Shatter(shatter));
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
        let answer = round_trip(Request::Check(CheckRequest::new(tour_text(Kind::Open))));
        assert_eq!(answer["check"]["valid"], true);
        let broken = CheckRequest::new("0 1\n2 3\n");
        assert!(!broken.run(&Control::new()).unwrap().valid);
        assert!(CheckRequest::new(String::new()).validate().is_err());
    }

    #[test]
    fn shatter_is_its_own_job_and_a_plan_of_the_tour_itself_is_the_plan_of_its_text() {
        let tour = Tour::builder("6x6".parse().unwrap())
            .kind(Kind::Closed)
            .build()
            .unwrap();
        let text = crate::format::tour_json(&tour).to_string();
        let request = ShatterRequest {
            cover: text.clone(),
            seed: 3,
        };
        let plan = request.plan().unwrap();
        assert_eq!(CoverPlan::of_tour(&tour, 3).unwrap(), plan);
        let answer: ShatterAnswer = ShatterRequest::run_plan(plan, &Control::new()).unwrap();
        assert_eq!(answer.tourney.tourney.board(), tour.board());
        assert_eq!(answer, request.run(&Control::new()).unwrap());
        let open = Tour::builder("5x5".parse().unwrap()).build().unwrap();
        let e = CoverPlan::of_tour(&open, 0).unwrap_err();
        assert!(e.to_string().contains("open tour of 5x5"), "{e}");
        let joined = JoinRequest {
            cover: text,
            seed: 3,
        }
        .run(&Control::new())
        .unwrap();
        assert_eq!(joined.tour.tour.start(), tour.start());
        let shown = serde_json::to_value(&joined).unwrap();
        assert_eq!(
            shown["tour"]["squares"],
            serde_json::json!(joined.tour.tour.squares())
        );
        assert_eq!(shown["tour"]["algorithm"], "auto");
    }
}
