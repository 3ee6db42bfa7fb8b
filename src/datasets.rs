//! Where the public benchmark sets live, and a plain loader for them.
//!
//! The sets use tdoku's names plus `.txt`: lines starting with `#` are comments,
//! every other non-blank line starts with an 81-character puzzle. They are looked
//! up in, first match wins: `$SUDOFLOW_DATASETS`, the project's `datasets/`
//! (filled by `make datasets`), then `../shared/datasets` beside the project.
//! Benchmarks, tests and `sudoflow bench` share this loader; the `solve`
//! pipeline has its own streaming reader.

use crate::grid::Grid;
use anyhow::{bail, Context};
use std::path::{Path, PathBuf};

/// Every 17-clue puzzle: 49,158, each with exactly one solution.
pub const SEVENTEEN_CLUE: &str = "puzzles2_17_clue.txt";
/// magictour top1465: 1,465 hard puzzles, each with exactly one solution.
pub const TOP1465: &str = "puzzles3_magictour_top1465.txt";
/// The forum's hardest list: 375 puzzles, each with exactly one solution.
pub const HARDEST_1106: &str = "puzzles6_forum_hardest_1106.txt";
/// Serg's benchmark: 10,000 puzzles, each with two or more solutions.
pub const SERG: &str = "puzzles7_serg_benchmark.txt";
/// The four public sets, in the order tables list them.
pub const PUBLIC: [&str; 4] = [SEVENTEEN_CLUE, TOP1465, HARDEST_1106, SERG];

/// The folder holding the public sets, if one of the candidate folders has
/// [`SEVENTEEN_CLUE`] in it.
pub fn public_dir() -> Option<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("SUDOFLOW_DATASETS").map(PathBuf::from),
        Some(manifest.join("datasets")),
        Some(manifest.join("../shared/datasets")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|dir| dir.join(SEVENTEEN_CLUE).is_file())
}

/// Path of one public set by file name (e.g. [`TOP1465`]).
///
/// Errors: none of the candidate folders has it (run `make datasets`).
pub fn public_path(name: &str) -> anyhow::Result<PathBuf> {
    match public_dir() {
        Some(dir) if dir.join(name).is_file() => Ok(dir.join(name)),
        _ => bail!("dataset {name} not found: run `make datasets` or set SUDOFLOW_DATASETS"),
    }
}

/// Loads every puzzle of a file: skips `#` comments and blank lines, reads the
/// first 81 characters of each other line.
///
/// Errors: the file cannot be read, or a line does not start with a valid
/// puzzle (the message names the file, the line and the problem).
pub fn load(path: &Path) -> anyhow::Result<Vec<Grid>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut puzzles = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let cells = line.get(..81).unwrap_or(line);
        let grid = Grid::parse(cells)
            .with_context(|| format!("{}:{}: not a puzzle", path.display(), n + 1))?;
        puzzles.push(grid);
    }
    Ok(puzzles)
}

/// Loads a public set by file name; see [`public_path`] and [`load`].
pub fn load_public(name: &str) -> anyhow::Result<Vec<Grid>> {
    load(&public_path(name)?)
}

/// The environment variable that lets test suites skip the tests that need
/// the public sets (or Sudoku Explainer's rated sets) when those are missing:
/// `SUDOFLOW_ALLOW_MISSING_DATASETS=1`. Without it a missing set fails the
/// test, so a suite that passes has run on the real data.
pub const ALLOW_MISSING: &str = "SUDOFLOW_ALLOW_MISSING_DATASETS";

/// For test suites: whether a test may skip because its data are missing.
///
/// Returns `true` (after printing `SKIPPED: <what>` on stderr) when
/// [`ALLOW_MISSING`] is set to anything but `0` or the empty string.
///
/// Panics: otherwise, with `what` and how to get the data.
pub fn skip_missing(what: &str) -> bool {
    match std::env::var(ALLOW_MISSING) {
        Ok(v) if !v.is_empty() && v != "0" => {
            eprintln!("SKIPPED ({ALLOW_MISSING} is set): {what}");
            true
        }
        _ => panic!(
            "{what}: run `make datasets` (or set SUDOFLOW_DATASETS), \
             or set {ALLOW_MISSING}=1 to skip the tests that need it"
        ),
    }
}

/// For test suites: a public set by file name, or `None` when it is missing
/// and [`ALLOW_MISSING`] allows skipping (see [`skip_missing`]).
///
/// Panics: the set is missing and skipping is not allowed, or it does not
/// load (a line that is not a puzzle).
pub fn load_public_or_skip(name: &str) -> Option<Vec<Grid>> {
    match public_path(name) {
        Ok(path) => Some(load(&path).unwrap_or_else(|e| panic!("{e:#}"))),
        Err(e) => {
            skip_missing(&e.to_string());
            None
        }
    }
}
