//! What an estimate says (its method, mean, errors and Hall's
//! skewness-corrected 95 % interval) and how it comes from the probes'
//! sums (see the `estimate` module notes).

use serde::Serialize;

/// How probes choose their way.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EstimateMethod {
    /// [`EstimateMethod::Frontier`] for closed tours where the frontier
    /// program fits, else [`EstimateMethod::Sis`].
    #[default]
    Auto,
    /// Runs of the frontier program that keep a sample of its states.
    Frontier,
    /// Sequential importance sampling of walks on the pruned tree with a
    /// Warnsdorff-like proposal.
    Sis,
    /// Uniform walks of the tree pruned by dead-end and connectivity checks.
    Pruned,
    /// Knuth's plain probe of plain backtracking (rarely reaches a tour).
    Knuth,
}

impl std::str::FromStr for EstimateMethod {
    type Err = crate::Error;

    /// A method by its name (spaces around are ignored); any other text
    /// is refused, naming the methods there are.
    fn from_str(text: &str) -> crate::Result<EstimateMethod> {
        EstimateMethod::ALL
            .into_iter()
            .find(|m| m.name() == text.trim())
            .ok_or_else(|| {
                let names: Vec<&str> = EstimateMethod::ALL.iter().map(|m| m.name()).collect();
                crate::Error::Unsupported(
                    format!(
                        "'{}' is not an estimate method; the method is one of {}",
                        crate::excerpt(text),
                        names.join(", ")
                    )
                    .into(),
                )
            })
    }
}

impl<'de> serde::Deserialize<'de> for EstimateMethod {
    /// Read by its name (see [`EstimateMethod::name`]).
    fn deserialize<D: serde::Deserializer<'de>>(
        d: D,
    ) -> std::result::Result<EstimateMethod, D::Error> {
        let text = <String as serde::Deserialize>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl EstimateMethod {
    /// Every method, in the order of the command line's list.
    pub const ALL: [EstimateMethod; 5] = [
        EstimateMethod::Auto,
        EstimateMethod::Frontier,
        EstimateMethod::Sis,
        EstimateMethod::Pruned,
        EstimateMethod::Knuth,
    ];

    /// The method's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            EstimateMethod::Auto => "auto",
            EstimateMethod::Frontier => "frontier",
            EstimateMethod::Sis => "sis",
            EstimateMethod::Pruned => "pruned",
            EstimateMethod::Knuth => "knuth",
        }
    }

    /// One line about the method.
    pub fn about(self) -> &'static str {
        match self {
            EstimateMethod::Auto => {
                "frontier for closed tours of boards with a short side of at most 11, else sis"
            }
            EstimateMethod::Frontier => {
                "runs of the exact counter's frontier program keeping a sample of its states"
            }
            EstimateMethod::Sis => {
                "importance sampling of walks on the pruned tree, preferring squares with few ways out"
            }
            EstimateMethod::Pruned => {
                "uniform walks of the tree pruned by dead-end and connectivity checks"
            }
            EstimateMethod::Knuth => {
                "Knuth's plain probe of plain backtracking (rarely reaches a tour)"
            }
        }
    }

    /// Probes made when none are asked for: 10 runs of the frontier
    /// program, 300,000 walks for the others.
    pub fn default_samples(self) -> u64 {
        match self {
            EstimateMethod::Frontier => 10,
            _ => 300_000,
        }
    }
}

/// An estimate with its spread.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Estimated number of undirected tours.
    pub tours: f64,
    /// Standard error of `tours`.
    pub tours_error: f64,
    /// Lower end of the 95 % interval of `tours` (never below 0).
    pub low: f64,
    /// Upper end of the 95 % interval of `tours`.
    pub high: f64,
    /// Estimated number of nodes of the tree the walks probe (0 for the
    /// frontier method).
    pub tree: f64,
    /// Standard error of `tree`.
    pub tree_error: f64,
    /// Probes that found a tour.
    pub hits: u64,
    /// Probes made.
    pub samples: u64,
    /// The method used ([`EstimateMethod::Auto`] resolved).
    pub method: EstimateMethod,
    /// Whether the estimate is exact: every run of the frontier method kept
    /// all its states.
    pub exact: bool,
    /// Sample skewness of the probes' results (0 for fewer than 3 probes).
    pub skewness: f64,
    /// The largest probe result's share of their sum (0 to 1; near 1, one
    /// probe made the estimate).
    pub largest: f64,
}

/// The sums of the probes' results, added up batch by batch.
#[derive(Copy, Clone, Default)]
pub(super) struct Sums {
    tours: f64,
    tours2: f64,
    tours3: f64,
    max: f64,
    tree: f64,
    tree2: f64,
    hits: u64,
    pub(super) samples: u64,
    /// Runs of the frontier method that dropped states.
    pub(super) sampled: u64,
}

impl Sums {
    pub(super) fn add_one(&mut self, tours: f64, tree: f64) {
        self.tours += tours;
        self.tours2 += tours * tours;
        self.tours3 += tours * tours * tours;
        self.max = self.max.max(tours);
        self.tree += tree;
        self.tree2 += tree * tree;
        self.hits += u64::from(tours > 0.0);
        self.samples += 1;
    }

    pub(super) fn add(&mut self, p: &Sums) {
        self.tours += p.tours;
        self.tours2 += p.tours2;
        self.tours3 += p.tours3;
        self.max = self.max.max(p.max);
        self.tree += p.tree;
        self.tree2 += p.tree2;
        self.hits += p.hits;
        self.samples += p.samples;
        self.sampled += p.sampled;
    }
}

/// The estimate, its errors and interval from the probes' sums.
pub(super) fn summarise(s: &Sums, method: EstimateMethod) -> Estimate {
    let k = s.samples as f64;
    let spread = |sum: f64, sum2: f64| {
        let mean = sum / k;
        let var = if s.samples > 1 {
            ((sum2 - k * mean * mean) / (k - 1.0)).max(0.0)
        } else {
            0.0
        };
        (mean, var)
    };
    let (tours, var) = spread(s.tours, s.tours2);
    let (tree, tree_var) = spread(s.tree, s.tree2);
    let se = (var / k).sqrt();
    let skewness = if s.samples > 2 && var > 0.0 {
        // Third central moment from the raw sums, over the variance^1.5.
        let m3 = s.tours3 / k - 3.0 * tours * s.tours2 / k + 2.0 * tours.powi(3);
        m3 / var.powf(1.5)
    } else {
        0.0
    };
    let (low, high) = interval(tours, se, skewness, s.samples);
    Estimate {
        tours,
        tours_error: se,
        low,
        high,
        tree,
        tree_error: (tree_var / k).sqrt(),
        hits: s.hits,
        samples: s.samples,
        method,
        exact: method == EstimateMethod::Frontier && s.sampled == 0,
        skewness,
        largest: if s.tours > 0.0 { s.max / s.tours } else { 0.0 },
    }
}

/// The 95 % interval of a mean of `n` results with standard error `se` and
/// sample skewness `g`: Student's `t` widened on the side of the skew
/// (Hall's Edgeworth correction), cut at 0.
fn interval(mean: f64, se: f64, g: f64, n: u64) -> (f64, f64) {
    if se == 0.0 || n < 2 {
        return (mean, mean);
    }
    let t = student_975(n - 1);
    let c = (g * (2.0 * t * t + 1.0) / (6.0 * (n as f64).sqrt())).clamp(-t, t);
    ((mean - (t - c) * se).max(0.0), mean + (t + c) * se)
}

/// Student's t distribution's 97.5 % point for `df` degrees of freedom, by
/// the Cornish-Fisher expansion around the normal's 1.96 (within 0.1 % from
/// 5 degrees of freedom; exact table values below).
fn student_975(df: u64) -> f64 {
    const SMALL: [f64; 5] = [12.706, 4.303, 3.182, 2.776, 2.571];
    if (1..=5).contains(&df) {
        return SMALL[df as usize - 1];
    }
    let z: f64 = 1.959_964;
    let v = df as f64;
    let (z3, z5, z7) = (z.powi(3), z.powi(5), z.powi(7));
    z + (z3 + z) / (4.0 * v)
        + (5.0 * z5 + 16.0 * z3 + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z7 + 19.0 * z5 + 17.0 * z3 - 15.0 * z) / (384.0 * v.powi(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Student's quantiles against the table (to 3 decimals).
    #[test]
    fn student_quantiles_match_the_table() {
        for (df, t) in [
            (1, 12.706),
            (5, 2.571),
            (6, 2.447),
            (9, 2.262),
            (19, 2.093),
            (30, 2.042),
            (100, 1.984),
        ] {
            assert!(
                (student_975(df) - t).abs() < 0.002,
                "{df}: {}",
                student_975(df)
            );
        }
    }

    /// The interval leans towards the skew and never goes below 0.
    #[test]
    fn the_interval_leans_with_the_skew() {
        let (lo, hi) = interval(100.0, 10.0, 0.0, 1000);
        assert!((100.0 - lo - (hi - 100.0)).abs() < 1e-9);
        let (lo2, hi2) = interval(100.0, 10.0, 5.0, 1000);
        assert!(lo2 > lo && hi2 > hi);
        assert_eq!(interval(1.0, 10.0, 0.0, 1000).0, 0.0);
    }
}
