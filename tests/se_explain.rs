//! `explain`'s facts per step (issue 32, point 1) against Sudoku Explainer
//! 1.2.1.3's own: every reference file of `../shared/datasets/se/steps/`
//! (or `$SUDOFLOW_SE_STEPS`; a held-out set dropped there is checked the
//! same way), made by running SE's rating loop step by step and keeping its
//! hints' facts (format: `../shared/datasets/se/README.md`).
//!
//! Every step's rating (SE's double), technique, value placed and
//! candidates removed must be SE's; the cells the hint names and its chains
//! must be SE's on at least 99% of the steps that have them (and the rating
//! with its steps kept must be the rating without, work included). The match
//! rates are printed (`cargo test --test se_explain -- --nocapture`);
//! `SUDOFLOW_EXPLAIN_SHOW=N` prints the first N differences of each kind.

use flate2::read::GzDecoder;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use sudoflow::grid::Grid;
use sudoflow::rating::se::explain::Step;
use sudoflow::rating::se::{Options, Rater};

/// The folder of reference files, or `None` (the test then fails unless
/// `SUDOFLOW_ALLOW_MISSING_DATASETS` lets it skip).
fn steps_dir() -> Option<PathBuf> {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SUDOFLOW_SE_STEPS").map(PathBuf::from),
        std::env::var_os("SUDOFLOW_SE_DATASETS").map(|d| PathBuf::from(d).join("steps")),
        Some(manifest.join("../shared/datasets/se/steps")),
        Some(manifest.join("../../shared/datasets/se/steps")),
    ];
    let found = candidates.into_iter().flatten().find(|d| d.is_dir());
    if found.is_none() {
        sudoflow::datasets::skip_missing(
            "../shared/datasets/se/steps not found (set SUDOFLOW_SE_STEPS)",
        );
    }
    found
}

/// The reference records of every `.jsonl` or `.jsonl.gz` file of `dir`.
fn references(dir: &std::path::Path) -> Vec<(String, Value)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
        })
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .jsonl(.gz) file in {}",
        dir.display()
    );
    let mut out = Vec::new();
    for path in files {
        let file = std::fs::File::open(&path).unwrap();
        let reader: Box<dyn Read> = if path.to_string_lossy().ends_with(".gz") {
            Box::new(GzDecoder::new(file))
        } else {
            Box::new(file)
        };
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in BufReader::new(reader).lines().enumerate() {
            let line = line.unwrap();
            if line.trim().is_empty() {
                continue;
            }
            let v: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("{name}:{}: {e}", n + 1));
            out.push((format!("{name}:{}", n + 1), v));
        }
    }
    out
}

/// Counts of one compared fact: steps that have it, steps that match.
#[derive(Default)]
struct Rate {
    have: usize,
    same: usize,
    shown: Vec<String>,
}

impl Rate {
    fn check(&mut self, same: bool, have: bool, show: usize, what: impl FnOnce() -> String) {
        if !have {
            return;
        }
        self.have += 1;
        if same {
            self.same += 1;
        } else if self.shown.len() < show {
            self.shown.push(what());
        }
    }

    fn percent(&self) -> f64 {
        if self.have == 0 {
            100.0
        } else {
            100.0 * self.same as f64 / self.have as f64
        }
    }
}

#[test]
fn steps_match_sudoku_explainer() {
    let Some(dir) = steps_dir() else {
        return;
    };
    let show: usize = std::env::var("SUDOFLOW_EXPLAIN_SHOW")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let records = references(&dir);
    let mut rater = Rater::new();
    let options = Options {
        keep_steps: true,
        ..Options::default()
    };
    let (mut steps, mut path) = (0usize, Rate::default());
    let (mut cells, mut chains) = (Rate::default(), Rate::default());
    // Chains per technique: (steps with chains, matching).
    let mut by_technique: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for (place, record) in &records {
        let puzzle = Grid::parse(record["puzzle"].as_str().unwrap()).unwrap();
        let rating = rater.rate(&puzzle, &options).unwrap();
        // Explaining is rating: the same numbers, and the same work, so a
        // budget runs out at the same point.
        let plain = rater.rate(&puzzle, &Options::default()).unwrap();
        assert_eq!(
            (
                rating.er,
                rating.ep,
                rating.ed,
                rating.step_count,
                rating.work
            ),
            (plain.er, plain.ep, plain.ed, plain.step_count, plain.work),
            "{place}: explaining the puzzle is not rating it"
        );
        let ours: Vec<Step> = rating.steps.iter().map(Step::of).collect();
        let theirs = record["steps"].as_array().unwrap();
        steps += theirs.len();
        for (i, se) in theirs.iter().enumerate() {
            let at = || format!("{place} step {}", i + 1);
            let Some(step) = ours.get(i) else {
                path.check(false, true, show, || format!("{}: no such step", at()));
                continue;
            };
            let json = serde_json::to_value(step).unwrap();
            let placed = json["placed"].as_str().unwrap_or("").to_owned();
            let removed = step.removed_names().join(" ");
            let same_path = step.rating == se["rating"].as_f64().unwrap()
                && step.technique == se["technique"].as_str().unwrap()
                && placed == se["placed"].as_str().unwrap()
                && removed == se["removed"].as_str().unwrap();
            path.check(same_path, true, show, || {
                format!(
                    "{}: ours [{:?}] {} placed {placed:?} removed {removed:?}, SE's [{}] {} placed {} removed {}",
                    at(),
                    step.rating,
                    step.technique,
                    se["rating"],
                    se["technique"],
                    se["placed"],
                    se["removed"]
                )
            });
            let se_cells = &se["cells"];
            let has_cells = !se_cells.as_array().unwrap().is_empty() || !step.cells.is_empty();
            cells.check(json["cells"] == *se_cells, has_cells, show, || {
                format!(
                    "{}: {}: ours {} SE's {}",
                    at(),
                    step.technique,
                    json["cells"],
                    se_cells
                )
            });
            let se_chains = &se["chains"];
            let has_chains = !se_chains.as_array().unwrap().is_empty() || !step.chains.is_empty();
            let same_chains = json["chains"] == *se_chains;
            if has_chains {
                let e = by_technique.entry(step.technique.clone()).or_default();
                e.0 += 1;
                e.1 += usize::from(same_chains);
            }
            chains.check(same_chains, has_chains, show, || {
                format!(
                    "{}: {}:\n  ours {}\n  SE's {}",
                    at(),
                    step.technique,
                    json["chains"],
                    se_chains
                )
            });
        }
        if ours.len() > theirs.len() {
            path.check(false, true, show, || {
                format!("{place}: {} steps, SE took {}", ours.len(), theirs.len())
            });
        }
    }
    println!(
        "{} puzzles, {steps} steps: path (rating, technique, placed, removed) {}/{} ({:.2}%), \
         cells {}/{} ({:.2}%), chains {}/{} ({:.2}%)",
        records.len(),
        path.same,
        path.have,
        path.percent(),
        cells.same,
        cells.have,
        cells.percent(),
        chains.same,
        chains.have,
        chains.percent()
    );
    for (technique, (have, same)) in &by_technique {
        println!("  chains of {technique}: {same}/{have}");
    }
    for (what, rate) in [("path", &path), ("cells", &cells), ("chains", &chains)] {
        for s in &rate.shown {
            println!("{what} differs: {s}");
        }
    }
    assert_eq!(
        path.same,
        path.have,
        "every step's rating, technique, placed and removed must be SE's: {}",
        path.shown.join("\n")
    );
    assert!(
        cells.percent() >= 99.0,
        "cells match on {:.2}% of steps (99% needed)",
        cells.percent()
    );
    assert!(
        chains.percent() >= 99.0,
        "chains match on {:.2}% of steps (99% needed)",
        chains.percent()
    );
}
