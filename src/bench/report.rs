//! `bench`'s output: an aligned table, CSV or JSON.
//!
//! Columns (CSV header names; JSON keys of each result are the same):
//! `dataset, solver, puzzles, validated, runs, puzzles_per_sec, us_per_puzzle,
//! startup_ms, no_guess_pct, guesses_per_puzzle, answered_pct, timeouts,
//! disagreements, reference, failure`. A field that does not apply is empty
//! (CSV), `null` (JSON) or `-` (table): `no_guess_pct` and
//! `guesses_per_puzzle` for solvers that do not count guesses, `startup_ms`
//! for built-in solvers, the timing fields when nothing was timed, `failure`
//! when the solver ran. `us_per_puzzle` excludes an external program's
//! start-up, which `startup_ms` gives. The build appears once:
//! a `# build:` line above the table, a top-level `build` object in JSON, and
//! three trailing columns `rustc, profile, target_features` in CSV (so every
//! CSV row stands alone and any CSV reader can parse the file). So does the
//! protocol: with `bench --permute` the seed that transformed every puzzle
//! ([`super::permute`]) ends the `# build:` line (`puzzles permuted, seed N`,
//! else `puzzles as written`), is the top-level `permute_seed` in JSON (`null`
//! when the puzzles were timed as written) and the last CSV column,
//! `permute_seed` (empty when not permuted).

use super::harness::Row;
use super::BuildInfo;
use std::io::Write;

/// Output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Format {
    /// Aligned columns for people.
    #[default]
    Table,
    /// CSV with a header row.
    Csv,
    /// One JSON object: `{"build": {...}, "limit": N, "permute_seed": N or null, "results": [...]}`.
    Json,
}

/// The CSV header, in column order.
pub const CSV_HEADER: [&str; 19] = [
    "dataset",
    "solver",
    "puzzles",
    "validated",
    "runs",
    "puzzles_per_sec",
    "us_per_puzzle",
    "startup_ms",
    "no_guess_pct",
    "guesses_per_puzzle",
    "answered_pct",
    "timeouts",
    "disagreements",
    "reference",
    "failure",
    "rustc",
    "profile",
    "target_features",
    "permute_seed",
];

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(String::new, |x| format!("{x:.decimals$}"))
}

/// Writes `rows` in `format`; `permute` is the seed every puzzle was
/// transformed with ([`super::permute`]), `None` when timed as written.
///
/// Errors: writing to `out` fails.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    build: &BuildInfo,
    limit: u64,
    permute: Option<u64>,
    rows: &[Row],
) -> anyhow::Result<()> {
    match format {
        Format::Table => write_table(out, build, limit, permute, rows),
        Format::Csv => {
            let mut w = csv::Writer::from_writer(out);
            w.write_record(CSV_HEADER)?;
            for r in rows {
                w.write_record([
                    r.dataset.clone(),
                    r.solver.clone(),
                    r.puzzles.to_string(),
                    r.validated.to_string(),
                    r.runs.to_string(),
                    opt(r.puzzles_per_sec, 1),
                    opt(r.us_per_puzzle, 3),
                    opt(r.startup_ms, 3),
                    opt(r.no_guess_pct, 2),
                    opt(r.guesses_per_puzzle, 3),
                    format!("{:.2}", r.answered_pct),
                    r.timeouts.to_string(),
                    r.disagreements.to_string(),
                    r.reference.clone(),
                    r.failure.clone().unwrap_or_default(),
                    build.rustc.clone(),
                    build.profile.clone(),
                    build.target_features.clone(),
                    permute.map_or_else(String::new, |seed| seed.to_string()),
                ])?;
            }
            w.flush()?;
            Ok(())
        }
        Format::Json => {
            let doc = serde_json::json!({
                "build": build,
                "limit": limit,
                "permute_seed": permute,
                "results": rows,
            });
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
            Ok(())
        }
    }
}

fn write_table(
    out: &mut dyn Write,
    build: &BuildInfo,
    limit: u64,
    permute: Option<u64>,
    rows: &[Row],
) -> anyhow::Result<()> {
    writeln!(
        out,
        "# build: {}, profile {}, target features {}; limit {limit}; {}",
        build.rustc,
        build.profile,
        build.target_features,
        permute.map_or_else(
            || "puzzles as written".to_string(),
            |seed| format!("puzzles permuted, seed {seed}")
        )
    )?;
    let header = [
        "dataset",
        "solver",
        "puzzles/s",
        "µs/puzzle",
        "startup ms",
        "no guess %",
        "guesses/puzzle",
        "answered %",
        "timeouts",
        "validated",
        "disagree",
        "reference",
    ];
    let body: Vec<[String; 12]> = rows
        .iter()
        .map(|r| {
            [
                r.dataset.clone(),
                r.solver.clone(),
                r.puzzles_per_sec.map_or("-".into(), |x| format!("{x:.1}")),
                r.us_per_puzzle.map_or("-".into(), |x| format!("{x:.2}")),
                r.startup_ms.map_or("-".into(), |x| format!("{x:.2}")),
                r.no_guess_pct.map_or("-".into(), |x| format!("{x:.1}")),
                r.guesses_per_puzzle
                    .map_or("-".into(), |x| format!("{x:.2}")),
                format!("{:.1}", r.answered_pct),
                r.timeouts.to_string(),
                format!("{}/{}", r.validated, r.puzzles),
                r.disagreements.to_string(),
                r.reference.clone(),
            ]
        })
        .collect();
    let mut width = header.map(|h| h.chars().count());
    for row in &body {
        for (w, cell) in width.iter_mut().zip(row.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<&str>| -> String {
        let mut s = String::new();
        for (k, (cell, w)) in cells.iter().zip(width.iter()).enumerate() {
            let pad = w - cell.chars().count();
            if k > 0 {
                s.push_str("  ");
            }
            // Names left-aligned, numbers right-aligned.
            if k < 2 || k == 11 {
                s.push_str(cell);
                s.push_str(&" ".repeat(pad));
            } else {
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            }
        }
        s.trim_end().to_string()
    };
    writeln!(out, "{}", line(header.to_vec()))?;
    for row in &body {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    writeln!(
        out,
        "# µs/puzzle: solve time only; an external program's start-up is measured apart \
         (startup ms, empty input) and not included. answered %: answers that agree with the \
         rules and the reference solver."
    )?;
    for r in rows {
        if let Some(failure) = &r.failure {
            writeln!(
                out,
                "# {} on {}: not measured: {failure}",
                r.solver, r.dataset
            )?;
        }
    }
    Ok(())
}
