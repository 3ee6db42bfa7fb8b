//! `explain`'s row for one record: `rate`'s row ([`super::rate`]) with the
//! path behind the rating, each step with the facts of Sudoku Explainer's
//! hint ([`Step`]: cells, value placed, candidates removed, chains).
//!
//! Columns (JSON Lines keys, in order):
//! `index,puzzle,status,er,ep,ed,technique,hardest_step,steps,error`;
//! `steps` is the array of steps, the other columns are `rate`'s.

use super::rate::{rate_record, RateLimits, RateOutcome, RateRow, RateState};
use crate::pipeline::{self, Record};
use crate::rating::se::explain::{text, Explanation, Step};
use crate::rating::se::{Board, Rating};
use serde::Serialize;

/// The keys of `explain`'s JSON objects, in order.
pub const EXPLAIN_HEADER: [&str; 10] = [
    "index",
    "puzzle",
    "status",
    "er",
    "ep",
    "ed",
    "technique",
    "hardest_step",
    "steps",
    "error",
];

/// One record explained.
#[derive(Debug, Clone, PartialEq)]
pub struct ExplainRow {
    /// What `rate` writes for the record (a rated row's rating keeps no
    /// steps: they are in `explanation`).
    pub rate: RateRow,
    /// The path, when the record was rated.
    pub explanation: Option<Explanation>,
}

/// The JSON object of a row (`--format json` pretty, `jsonl` compact).
#[derive(Serialize)]
struct RowJson<'a> {
    index: u64,
    puzzle: &'a str,
    status: &'a str,
    er: Option<f64>,
    ep: Option<f64>,
    ed: Option<f64>,
    technique: Option<&'a str>,
    hardest_step: Option<usize>,
    steps: Option<&'a [Step]>,
    error: Option<&'a str>,
}

/// What a record carries into its explanation besides the explanation
/// (`--keep`, `--source`; [`crate::rows::Carry`]): empty by default.
#[derive(Debug, Clone, Default)]
pub struct Origin<'a> {
    /// `--keep`'s columns: (name as given, the record's field).
    pub kept: Vec<(&'a str, &'a str)>,
    /// `--source`: the input and the record's first line in it (1-based).
    pub source: Option<(&'a str, u64)>,
}

impl<'a> Origin<'a> {
    /// What `record` carries as `carry` asks.
    pub fn of(carry: &'a crate::rows::Carry, record: &'a Record) -> Origin<'a> {
        Origin::new(carry, &record.kept, &record.source, record.line)
    }

    /// What a record carries as `carry` asks, from its kept fields, source
    /// and line ([`Record::kept`], [`Record::source`], [`Record::line`]).
    pub fn new(
        carry: &'a crate::rows::Carry,
        kept: &'a [String],
        source: &'a str,
        line: u64,
    ) -> Origin<'a> {
        Origin {
            kept: carry
                .keep
                .iter()
                .enumerate()
                .map(|(k, name)| (name.as_str(), kept.get(k).map_or("", String::as_str)))
                .collect(),
            source: carry.source.then_some((source, line)),
        }
    }
}

/// `--keep`'s columns as JSON keys, in order, their values strings (an
/// empty field null, as the JSON Lines writer writes it).
struct KeptKeys<'a>(&'a [(&'a str, &'a str)]);

impl Serialize for KeptKeys<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (name, value) in self.0 {
            map.serialize_entry(name, &Some(value).filter(|v| !v.is_empty()))?;
        }
        map.end()
    }
}

/// A row's JSON object with what its record carries ([`Origin`]).
#[derive(Serialize)]
struct Framed<'a> {
    #[serde(flatten)]
    kept: KeptKeys<'a>,
    #[serde(flatten)]
    row: RowJson<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
}

/// A rating in tenths as a JSON number (7.1, not 7.1000000001), as `rate`
/// prints it.
fn tenths(x: f64) -> f64 {
    Rating::tenths(x) as f64 / 10.0
}

impl ExplainRow {
    /// The status: `rate`'s (`rated`, `multiple`, `unsolvable`, `timeout`,
    /// `invalid`, `error`).
    pub fn status(&self) -> &'static str {
        self.rate.status()
    }

    /// The error column: why the record has no explanation (`None` when
    /// rated, or for `multiple`, whose status says it).
    pub fn error(&self) -> Option<&str> {
        match &self.rate.outcome {
            RateOutcome::Timeout { message: e, .. }
            | RateOutcome::Unsolvable(e)
            | RateOutcome::Invalid(e)
            | RateOutcome::Error(e) => Some(e),
            _ => None,
        }
    }

    fn json(&self) -> RowJson<'_> {
        let ex = self.explanation.as_ref();
        let r = ex.map(|e| &e.rating);
        RowJson {
            index: self.rate.index,
            puzzle: &self.rate.puzzle,
            status: self.status(),
            er: r.map(|r| tenths(r.er)),
            ep: r.map(|r| tenths(r.ep)),
            ed: r.map(|r| tenths(r.ed)),
            // A solved grid has no step, so no technique: null, as the
            // JSON Lines writer writes an empty field.
            technique: r.map(|r| r.technique.as_str()).filter(|t| !t.is_empty()),
            hardest_step: ex
                .filter(|e| !e.steps.is_empty())
                .map(|e| e.rating.hardest + 1),
            steps: ex.map(|e| e.steps.as_slice()),
            error: self.error(),
        }
    }

    /// The row as one pretty-printed JSON object, with a final newline.
    pub fn json_pretty(&self) -> String {
        self.json_pretty_from(&Origin::default())
    }

    /// [`ExplainRow::json_pretty`] with what the record carries
    /// (`--keep`'s columns as the first keys, `--source`'s `source` and
    /// `line` as the last, in the order of the JSON Lines and CSV headers).
    pub fn json_pretty_from(&self, origin: &Origin<'_>) -> String {
        let framed = Framed {
            kept: KeptKeys(&origin.kept),
            row: self.json(),
            source: origin.source.map(|(s, _)| s),
            line: origin.source.map(|(_, l)| l),
        };
        serde_json::to_string_pretty(&framed).expect("rows serialize") + "\n"
    }

    /// The row as one line of JSON (what `--format jsonl` writes, newline
    /// included).
    pub fn json_line(&self) -> String {
        serde_json::to_string(&self.json()).expect("rows serialize") + "\n"
    }

    /// The fields in [`EXPLAIN_HEADER`] order, as text (empty: null), for
    /// the JSON Lines writer: numbers as JSON numbers, `steps` as its JSON
    /// array.
    pub fn fields(&self) -> [String; 10] {
        let j = self.json();
        let num = |x: Option<f64>| x.map_or_else(String::new, Rating::format);
        [
            j.index.to_string(),
            j.puzzle.to_string(),
            j.status.to_string(),
            num(j.er),
            num(j.ep),
            num(j.ed),
            j.technique.unwrap_or("").to_string(),
            j.hardest_step.map_or_else(String::new, |h| h.to_string()),
            j.steps.map_or_else(String::new, |s| {
                serde_json::to_string(s).expect("steps serialize")
            }),
            j.error.unwrap_or("").to_string(),
        ]
    }

    /// The row for people: the summary and one block per step (its line
    /// of the table, then the step in words, [`text::describe`]), or what
    /// kept the record from being explained.
    pub fn text(&self) -> String {
        self.text_from(&Origin::default())
    }

    /// [`ExplainRow::text`] with what the record carries: the record's
    /// index (`index    N`, as the other formats' column: found by probing,
    /// a text run with `--distinct` did not say which records it dropped),
    /// a line per `--keep` column (`NAME     value`, its line ends and other
    /// control characters escaped, `\n`, so that it stays one line) and
    /// `--source`'s (`source   FILE:LINE`) before the puzzle's.
    pub fn text_from(&self, origin: &Origin<'_>) -> String {
        use std::fmt::Write as _;
        let mut s = String::new();
        let _ = writeln!(s, "index    {}", self.rate.index);
        for (name, value) in &origin.kept {
            let _ = writeln!(s, "{name:<8} {}", one_line(value));
        }
        if let Some((source, line)) = origin.source {
            let _ = writeln!(s, "source   {}:{line}", one_line(source));
        }
        let _ = writeln!(s, "puzzle   {}", self.rate.puzzle);
        let Some(ex) = &self.explanation else {
            let why = match &self.rate.outcome {
                RateOutcome::Multiple => Unexplained::Multiple.to_string(),
                _ => self.error().unwrap_or("").to_string(),
            };
            let _ = writeln!(s, "status   {}: {why}", self.status());
            return s;
        };
        let rating = &ex.rating;
        let _ = writeln!(
            s,
            "rating   ER {}  EP {}  ED {}   (Sudoku Explainer 1.2.1.3 scale)",
            Rating::format(rating.er),
            Rating::format(rating.ep),
            Rating::format(rating.ed)
        );
        if !ex.steps.is_empty() {
            let _ = writeln!(
                s,
                "hardest  step {}: {}",
                rating.hardest + 1,
                rating.technique
            );
        }
        let _ = writeln!(s, "steps    {}", rating.step_count);
        let _ = writeln!(s);
        let width = ex
            .steps
            .iter()
            .map(|h| h.technique.len())
            .max()
            .unwrap_or(9)
            .max(9);
        let _ = writeln!(s, "step  rating  {:width$}  result", "technique");
        let indent = " ".repeat(14);
        for (i, (step, words)) in ex.steps.iter().zip(ex.describe()).enumerate() {
            let _ = writeln!(
                s,
                "{:>4}  {:>6}  {:width$}  {}",
                i + 1,
                Rating::format(step.rating),
                step.technique,
                text::result_text(step)
            );
            for line in words {
                let _ = writeln!(s, "{indent}{line}");
            }
        }
        s
    }
}

impl pipeline::FromPanic for ExplainRow {
    fn from_panic(record: &Record, message: &str) -> ExplainRow {
        ExplainRow {
            rate: RateRow::from_panic(record, message),
            explanation: None,
        }
    }
}

/// The row for one record: explained if it parsed and has one solution.
/// `state` must keep steps ([`RateState::explaining`]).
pub fn explain_record(state: &mut RateState, record: &Record) -> ExplainRow {
    let mut rate = rate_record(state, record);
    let explanation = match &mut rate.outcome {
        RateOutcome::Rated(rating) => {
            let start = match (&record.pencilmarks, &record.grid) {
                (Some(pm), _) => Board::from_pencilmarks(pm),
                (None, Ok(grid)) => Board::new(grid),
                (None, Err(_)) => unreachable!("an invalid record is not rated"),
            };
            let rating = std::mem::replace(rating, rating_without_steps(rating));
            Some(Explanation::new(start, rating))
        }
        _ => None,
    };
    ExplainRow { rate, explanation }
}

/// A copy of `rating` without its steps.
fn rating_without_steps(rating: &Rating) -> Rating {
    Rating {
        steps: Vec::new(),
        technique: rating.technique.clone(),
        ..*rating
    }
}

/// Why a puzzle has no explanation: what `sudoflow explain PUZZLE` says on
/// stderr (exit 1), and what the Python package's `explain()` raises.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Unexplained {
    /// Its givens clash (the message names the clash).
    #[error("the puzzle is not valid: {0}")]
    Clash(String),
    /// It has more than one solution.
    #[error("the puzzle has more than one solution: Sudoku Explainer rates only proper puzzles")]
    Multiple,
    /// It has no solution: the message says where propagation finds the
    /// contradiction ("no solution: ..." as `rate`'s error column).
    #[error("the puzzle has {0}")]
    Unsolvable(String),
    /// The rating ran out of its budget, or a stop was requested: the
    /// message says which ([`RateLimits::timeout_message`]).
    #[error("{message}")]
    Timeout {
        /// What cut the rating short.
        cut: crate::work::Cut,
        /// The message.
        message: String,
    },
    /// The work panicked (a bug): the message says where.
    #[error("{0}")]
    Error(String),
}

/// `text` on one line, unambiguously: control characters escaped as Rust
/// writes them (`\n`, `\t`, `\u{1b}`), and a backslash doubled (found by
/// probing: a kept field holding a line end split its line, and once
/// escaped, read as one holding a backslash and an `n`).
fn one_line(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() || c == '\\') {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars()
        .flat_map(|c| match c.is_control() || c == '\\' {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect::<String>()
        .into()
}

impl ExplainRow {
    /// Why `record`'s row has no explanation (`None` when it has one),
    /// the messages without the record's `source:line`.
    pub fn unexplained(&self, record: &Record) -> Option<Unexplained> {
        if self.explanation.is_some() {
            return None;
        }
        let at = format!("{}:{}: ", record.source, record.line);
        let bare = |e: &str| e.strip_prefix(&at).unwrap_or(e).to_string();
        Some(match &self.rate.outcome {
            RateOutcome::Multiple => Unexplained::Multiple,
            RateOutcome::Unsolvable(e) => Unexplained::Unsolvable(bare(e)),
            RateOutcome::Timeout { cut, message, .. } => Unexplained::Timeout {
                cut: *cut,
                message: bare(message),
            },
            RateOutcome::Invalid(e) => Unexplained::Clash(bare(e)),
            RateOutcome::Error(e) => Unexplained::Error(bare(e)),
            RateOutcome::Rated(_) => unreachable!("a rated record is explained"),
        })
    }
}

/// `grid` explained as `sudoflow explain PUZZLE --format json` explains
/// it (the record on line 1 of the source `argument 1`), giving up past `limits` as
/// `rate` does: its row, or why it has none.
///
/// Errors: see [`Unexplained`].
pub fn explain_grid(
    grid: &crate::grid::Grid,
    limits: RateLimits,
) -> Result<ExplainRow, Unexplained> {
    grid.check_givens()
        .map_err(|clash| Unexplained::Clash(clash.to_string()))?;
    let record = Record {
        index: 1,
        source: std::sync::Arc::from("argument 1"),
        line: 1,
        raw: String::new(),
        grid: Ok(*grid),
        pencilmarks: None,
        kept: Vec::new(),
    };
    explain_one(&record, limits)
}

/// `record` (a grid, or a puzzle given by its candidates: `-p` with 729
/// characters) explained as [`explain_grid`] explains a grid.
///
/// Errors: see [`Unexplained`] (an invalid record is [`Unexplained::Clash`]
/// with its error).
pub fn explain_one(record: &Record, limits: RateLimits) -> Result<ExplainRow, Unexplained> {
    let row = explain_record(&mut RateState::explaining(limits), record);
    match row.unexplained(record) {
        None => Ok(row),
        Some(why) => Err(why),
    }
}
