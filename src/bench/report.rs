//! `bench`'s output: an aligned table, CSV or JSON.
//!
//! Columns (CSV header names; JSON keys of each result are the same):
//! `dataset, solver, puzzles, validated, runs, puzzles_per_sec, us_per_puzzle,
//! no_guess_pct, guesses_per_puzzle, answered_pct, timeouts, disagreements`.
//! `no_guess_pct` and `guesses_per_puzzle` are empty (CSV), `null` (JSON) or
//! `-` (table) for solvers that do not count guesses. The build appears once:
//! a `# build:` line above the table, a top-level `build` object in JSON, and
//! three trailing columns `rustc, profile, target_features` in CSV (so every
//! CSV row stands alone and any CSV reader can parse the file).

use super::harness::Row;
use super::BuildInfo;
use std::io::Write;

/// Output format (`--format`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Aligned columns for people.
    #[default]
    Table,
    /// CSV with a header row.
    Csv,
    /// One JSON object: `{"build": {...}, "limit": N, "results": [...]}`.
    Json,
}

/// The CSV header, in column order.
pub const CSV_HEADER: [&str; 15] = [
    "dataset",
    "solver",
    "puzzles",
    "validated",
    "runs",
    "puzzles_per_sec",
    "us_per_puzzle",
    "no_guess_pct",
    "guesses_per_puzzle",
    "answered_pct",
    "timeouts",
    "disagreements",
    "rustc",
    "profile",
    "target_features",
];

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(String::new, |x| format!("{x:.decimals$}"))
}

/// Writes `rows` in `format`.
///
/// Errors: writing to `out` fails.
pub fn write(
    out: &mut dyn Write,
    format: Format,
    build: &BuildInfo,
    limit: u64,
    rows: &[Row],
) -> anyhow::Result<()> {
    match format {
        Format::Table => write_table(out, build, limit, rows),
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
                    format!("{:.1}", r.puzzles_per_sec),
                    format!("{:.3}", r.us_per_puzzle),
                    opt(r.no_guess_pct, 2),
                    opt(r.guesses_per_puzzle, 3),
                    format!("{:.2}", r.answered_pct),
                    r.timeouts.to_string(),
                    r.disagreements.to_string(),
                    build.rustc.clone(),
                    build.profile.clone(),
                    build.target_features.clone(),
                ])?;
            }
            w.flush()?;
            Ok(())
        }
        Format::Json => {
            let doc = serde_json::json!({
                "build": build,
                "limit": limit,
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
    rows: &[Row],
) -> anyhow::Result<()> {
    writeln!(
        out,
        "# build: {}, profile {}, target features {}; limit {limit}",
        build.rustc, build.profile, build.target_features
    )?;
    let header = [
        "dataset",
        "solver",
        "puzzles/s",
        "µs/puzzle",
        "no guess %",
        "guesses/puzzle",
        "answered %",
        "timeouts",
        "validated",
        "disagree",
    ];
    let body: Vec<[String; 10]> = rows
        .iter()
        .map(|r| {
            [
                r.dataset.clone(),
                r.solver.clone(),
                format!("{:.1}", r.puzzles_per_sec),
                format!("{:.2}", r.us_per_puzzle),
                r.no_guess_pct.map_or("-".into(), |x| format!("{x:.1}")),
                r.guesses_per_puzzle
                    .map_or("-".into(), |x| format!("{x:.2}")),
                format!("{:.1}", r.answered_pct),
                r.timeouts.to_string(),
                format!("{}/{}", r.validated, r.puzzles),
                r.disagreements.to_string(),
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
            if k < 2 {
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
    Ok(())
}
