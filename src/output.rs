//! The CSV row that `solve` writes (and `generate` extends with `seed`).
//!
//! Columns, in order: `index,puzzle,status,solutions,solution,clues,wnf,wnf_level,
//! guesses,backtracks,error`. `wnf` is printed with 10 decimals, which is at
//! least 7 significant digits for every possible WNF (its minimum is 1/512).

use crate::grid::Grid;
use crate::rating::Wnf;
use crate::solver::Outcome;
use std::io::Write;

/// The header of `solve`'s CSV, in column order.
pub const SOLVE_HEADER: [&str; 11] = [
    "index",
    "puzzle",
    "status",
    "solutions",
    "solution",
    "clues",
    "wnf",
    "wnf_level",
    "guesses",
    "backtracks",
    "error",
];

/// A record's status column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exactly one solution.
    Unique,
    /// Two or more solutions (counting stopped at the limit).
    Multiple,
    /// A solution was found but uniqueness was not checked: the limit was 1
    /// (`solve --limit 1`), so the search stopped at the first solution.
    Solved,
    /// No solution.
    Unsolvable,
    /// Not a puzzle: bad length, bad character or clashing givens.
    Invalid,
    /// Propagation stalled with guessing turned off.
    Stuck,
    /// The per-record time budget ran out.
    Timeout,
}

impl Status {
    /// The status as written in the CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::Solved => "solved",
            Status::Unsolvable => "unsolvable",
            Status::Invalid => "invalid",
            Status::Stuck => "stuck",
            Status::Timeout => "timeout",
        }
    }

    /// The status a solver outcome stands for (never `Invalid`); `limit` is the
    /// [`crate::solver::SolveOptions::limit`] it was solved with.
    pub fn of(outcome: &Outcome, limit: u64) -> Status {
        if outcome.timed_out {
            Status::Timeout
        } else if outcome.stuck && outcome.solutions == 0 {
            Status::Stuck
        } else {
            match outcome.solutions {
                0 => Status::Unsolvable,
                1 if outcome.stuck => Status::Stuck,
                1 if limit <= 1 => Status::Solved,
                1 => Status::Unique,
                _ => Status::Multiple,
            }
        }
    }
}

/// One row of `solve`'s output.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveRow {
    /// 1-based position of the record among all records.
    pub index: u64,
    /// The puzzle with `.` for blanks, or the raw text of an invalid record.
    pub puzzle: String,
    /// See [`Status`].
    pub status: Status,
    /// Solutions found, capped at the limit.
    pub solutions: u64,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Number of givens (0 for a record that did not parse).
    pub clues: usize,
    /// WNF, for every record that is not invalid.
    pub wnf: Option<Wnf>,
    /// Guesses the solver took.
    pub guesses: u64,
    /// Backtracks the solver met.
    pub backtracks: u64,
    /// Empty unless invalid: names the record's source line and the problem.
    pub error: String,
}

impl SolveRow {
    /// The row for a valid puzzle that was solved with `outcome`, counting up to
    /// `limit` solutions.
    pub fn solved(index: u64, puzzle: &Grid, outcome: &Outcome, limit: u64) -> SolveRow {
        SolveRow {
            index,
            puzzle: {
                // Bytes rather than Grid::to_line's char pushes: once per row.
                let mut line = [0u8; 81];
                std::str::from_utf8(grid_line(puzzle, &mut line))
                    .expect("ASCII")
                    .to_owned()
            },
            status: Status::of(outcome, limit),
            solutions: outcome.solutions,
            solution: outcome.solution,
            clues: puzzle.clues(),
            wnf: Some(crate::rating::wnf(puzzle)),
            guesses: outcome.guesses,
            backtracks: outcome.backtracks,
            error: String::new(),
        }
    }

    /// The row for an invalid record: `raw` is its puzzle field as read,
    /// `error` the message naming the source line and the problem.
    pub fn invalid(index: u64, raw: &str, error: String) -> SolveRow {
        SolveRow {
            index,
            puzzle: raw.to_string(),
            status: Status::Invalid,
            solutions: 0,
            solution: None,
            clues: 0,
            wnf: None,
            guesses: 0,
            backtracks: 0,
            error,
        }
    }

    /// The fields as CSV strings, in [`SOLVE_HEADER`] order.
    pub fn fields(&self) -> [String; 11] {
        [
            self.index.to_string(),
            self.puzzle.clone(),
            self.status.as_str().to_string(),
            self.solutions.to_string(),
            self.solution.map(|s| s.to_line()).unwrap_or_default(),
            self.clues.to_string(),
            self.wnf
                .map(|w| format!("{:.10}", w.value))
                .unwrap_or_default(),
            self.wnf.map(|w| w.level.to_string()).unwrap_or_default(),
            self.guesses.to_string(),
            self.backtracks.to_string(),
            self.error.clone(),
        ]
    }

    /// Writes the row as one CSV record, in [`SOLVE_HEADER`] order, the same
    /// text as [`SolveRow::fields`] but formatted into stack buffers: no
    /// allocation per row (the fast path of `solve`).
    ///
    /// Errors: the writer's (e.g. a closed stdout).
    pub fn write_csv<W: std::io::Write>(&self, wtr: &mut csv::Writer<W>) -> csv::Result<()> {
        let mut num = [0u8; 20];
        wtr.write_field(format_u64(self.index, &mut num))?;
        wtr.write_field(self.puzzle.as_bytes())?;
        wtr.write_field(self.status.as_str())?;
        wtr.write_field(format_u64(self.solutions, &mut num))?;
        let mut line = [0u8; 81];
        match &self.solution {
            Some(s) => wtr.write_field(grid_line(s, &mut line))?,
            None => wtr.write_field([])?,
        }
        wtr.write_field(format_u64(self.clues as u64, &mut num))?;
        match &self.wnf {
            Some(w) => {
                let mut text = [0u8; 32];
                let mut cursor = &mut text[..];
                write!(cursor, "{:.10}", w.value).expect("a WNF in [0, 1] fits 32 bytes");
                let len = 32 - cursor.len();
                wtr.write_field(&text[..len])?;
                wtr.write_field(format_u64(u64::from(w.level), &mut num))?;
            }
            None => {
                wtr.write_field([])?;
                wtr.write_field([])?;
            }
        }
        wtr.write_field(format_u64(self.guesses, &mut num))?;
        wtr.write_field(format_u64(self.backtracks, &mut num))?;
        wtr.write_field(self.error.as_bytes())?;
        wtr.write_record(None::<&[u8]>)
    }
}

/// Decimal digits of `n`, written at the end of `buf`.
fn format_u64(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[i..];
        }
    }
}

/// The 81-character line form of `grid` (`.` for blanks) in `buf`.
fn grid_line<'a>(grid: &Grid, buf: &'a mut [u8; 81]) -> &'a [u8] {
    for (out, &v) in buf.iter_mut().zip(grid.cells()) {
        *out = if v == 0 { b'.' } else { b'0' + v };
    }
    buf
}

/// A buffered CSV destination: a file, or stdout for `None` or `-`.
///
/// Shared by every command that writes CSV. Write errors name the destination
/// and keep an I/O error (such as the [`std::io::ErrorKind::BrokenPipe`] of a
/// closed stdout) as an `std::io::Error` in the chain, where the binary looks
/// for it to end quietly.
pub struct CsvSink {
    wtr: csv::Writer<Box<dyn std::io::Write>>,
    name: String,
}

impl CsvSink {
    /// Opens `path` (created or truncated), or stdout for `None` or `-`.
    ///
    /// Errors: the file cannot be created (the message names it).
    pub fn create(path: Option<&std::path::Path>) -> anyhow::Result<CsvSink> {
        use anyhow::Context;
        let (out, name): (Box<dyn std::io::Write>, String) = match path {
            Some(path) if path.as_os_str() != "-" => (
                Box::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("cannot create output {}", path.display()))?,
                ),
                path.display().to_string(),
            ),
            _ => (Box::new(std::io::stdout().lock()), "stdout".to_string()),
        };
        let wtr = csv::WriterBuilder::new()
            .buffer_capacity(64 * 1024)
            .from_writer(out);
        Ok(CsvSink { wtr, name })
    }

    /// Writes one record (a header, or a row's fields).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_record<I, T>(&mut self, fields: I) -> anyhow::Result<()>
    where
        I: IntoIterator<Item = T>,
        T: AsRef<[u8]>,
    {
        self.wtr.write_record(fields).map_err(|e| self.error(e))
    }

    /// Writes a `solve` row through [`SolveRow::write_csv`] (no allocation).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_solve_row(&mut self, row: &SolveRow) -> anyhow::Result<()> {
        row.write_csv(&mut self.wtr).map_err(|e| self.error(e))
    }

    /// Writes a `solve` row's fields followed by `extra` fields (e.g. `generate`'s seed).
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn write_solve_row_with(&mut self, row: &SolveRow, extra: &[&str]) -> anyhow::Result<()> {
        let fields = row.fields();
        let all = fields
            .iter()
            .map(String::as_str)
            .chain(extra.iter().copied());
        self.wtr.write_record(all).map_err(|e| self.error(e))
    }

    /// Flushes everything written so far.
    ///
    /// Errors: the destination's, see [`CsvSink`].
    pub fn flush(&mut self) -> anyhow::Result<()> {
        self.wtr
            .flush()
            .map_err(|e| anyhow::Error::from(e).context(format!("cannot write {}", self.name)))
    }

    /// csv wraps I/O errors; unwrap them so that a closed stdout stays a
    /// `BrokenPipe` the binary can recognise.
    fn error(&self, e: csv::Error) -> anyhow::Error {
        let io = match e.into_kind() {
            csv::ErrorKind::Io(io) => io,
            other => std::io::Error::other(format!("{other:?}")),
        };
        anyhow::Error::from(io).context(format!("cannot write {}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_of(row: &SolveRow) -> String {
        let mut wtr = csv::Writer::from_writer(Vec::new());
        row.write_csv(&mut wtr).unwrap();
        String::from_utf8(wtr.into_inner().unwrap()).unwrap()
    }

    fn csv_via_fields(row: &SolveRow) -> String {
        let mut wtr = csv::Writer::from_writer(Vec::new());
        wtr.write_record(row.fields()).unwrap();
        String::from_utf8(wtr.into_inner().unwrap()).unwrap()
    }

    #[test]
    fn write_csv_matches_fields() {
        let puzzle = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let outcome = crate::solver::Solver::new(Default::default()).solve(&puzzle);
        let row = SolveRow::solved(18_446_744_073_709_551_615, &puzzle, &outcome, 2);
        assert_eq!(csv_of(&row), csv_via_fields(&row));
        assert!(csv_of(&row).contains(",0.0451822917,4,"));
        let row = SolveRow::invalid(0, "1,2\"", "x:1: duplicate 5 in row 3: r3c2, r3c8".into());
        assert_eq!(csv_of(&row), csv_via_fields(&row));
        assert_eq!(
            csv_of(&row),
            "0,\"1,2\"\"\",invalid,0,,0,,,0,0,\"x:1: duplicate 5 in row 3: r3c2, r3c8\"\n"
        );
    }
}
