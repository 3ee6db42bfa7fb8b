//! `sudoflow._sudoflow`: the Python extension behind the `sudoflow` package.
//!
//! Every batch function takes a list of `str` or any Arrow string column
//! ([`input`]: each item read as the CLI reads a line), works on it with
//! the GIL released and in parallel (`threads=None`: every core) while the
//! calling thread watches for Ctrl-C ([`run`]), and returns a
//! `pyarrow.Table` with one row per input item, in input order, with the
//! columns and values of the matching CLI command's CSV. The `*_file`
//! functions stream files through the CLI's pipeline ([`stream`]) as a
//! `pyarrow.RecordBatchReader`.
//!
//! The rows are the library's own ([`sudoflow::rows`]): made exactly as the
//! CLI's workers make them, and turned into typed Arrow columns from their
//! CSV fields in header order ([`table`]), so a column the CLI gains
//! appears here too.
//!
//! The Python docstrings are the `///` comments of the `#[pyfunction]`s
//! below: they are written for `help()`.

mod args;
mod input;
mod run;
mod stream;
mod table;

use args::{Int, Real};
use input::Records;
use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rand::RngCore;
use run::{for_each_chunk, watched, Progress, Watch};
use std::sync::Arc;
use sudoflow::canon::{Canonicalizer, Classes, SharedClasses};
use sudoflow::counting::solutions::CountOptions;
use sudoflow::generator::{seed_stream, GenerateOptions, Generated, Generator};
use sudoflow::grid::Grid;
use sudoflow::output::{with_blank, Status, SOLVE_HEADER};
use sudoflow::pipeline::reader::{for_each_text_item, item_record, Item, TEXT_NAME};
use sudoflow::pipeline::Record;
use sudoflow::rating::se::Rater;
use sudoflow::rows::canon::{canon_one, CanonState, CANON_HEADER};
use sudoflow::rows::count::{count_one, COUNT_HEADER};
use sudoflow::rows::explain::Unexplained;
use sudoflow::rows::rate::{rate_record, RateLimits, RateState, DEFAULT_BUDGET, RATE_HEADER};
use sudoflow::rows::solve::{se_columns, solve_record};
use sudoflow::rows::{classify, RecordClasses};
use sudoflow::solver::{SolveOptions, Solver};
use table::{Builder, CanonOut, GeneratedRow, RateOut, Row, SolveOut};

/// `solve`'s options, as `sudoflow solve` takes them.
#[derive(Clone, Copy)]
pub(crate) struct SolveSpec {
    pub opts: SolveOptions,
    pub blank: u8,
    /// `--se`: the rating's limits (`--se-budget`, `--se-wall-limit`).
    pub se: Option<RateLimits>,
}

impl SolveSpec {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        limit: Int,
        prune: &str,
        no_guess: bool,
        se: bool,
        se_budget: Option<Real>,
        se_wall_limit: Option<Real>,
        blank: &str,
    ) -> PyResult<SolveSpec> {
        let se_budget = args::seconds(se_budget, "se_budget")?;
        let se_wall_limit = args::seconds(se_wall_limit, "se_wall_limit")?;
        for (given, name) in [
            (se_budget.is_some(), "se_budget"),
            (se_wall_limit.is_some(), "se_wall_limit"),
        ] {
            if given && !se {
                return Err(PyValueError::new_err(format!(
                    "{name} limits the rating of se=True: pass se=True too"
                )));
            }
        }
        Ok(SolveSpec {
            opts: SolveOptions {
                limit: args::natural("limit", limit, 1)?,
                prune: args::prune(prune)?,
                guess: !no_guess,
                ..SolveOptions::default()
            },
            blank: args::blank(blank)?,
            se: se.then_some(RateLimits {
                time: Some(se_budget.unwrap_or(DEFAULT_BUDGET)),
                wall: se_wall_limit,
            }),
        })
    }

    /// The header: solve's columns, then er, ep, ed with `se`.
    pub fn header(&self) -> Vec<&'static str> {
        let mut header = SOLVE_HEADER.to_vec();
        if self.se.is_some() {
            header.extend(["er", "ep", "ed"]);
        }
        header
    }

    /// A worker's state.
    pub fn state(&self) -> (Solver, Option<Rater>) {
        (Solver::new(self.opts), self.se.map(|_| Rater::new()))
    }

    /// The row of `record`, as `sudoflow solve` with these options makes it.
    pub fn row(&self, (solver, rater): &mut (Solver, Option<Rater>), record: &Record) -> SolveOut {
        let mut row = solve_record(solver, record);
        // A clash row's puzzle column is the parsed puzzle: it takes the
        // blank too (as in `sudoflow solve --blank`).
        if record.grid.is_ok() && row.puzzle.is_none() {
            row.raw = with_blank(&row.raw, self.blank);
        }
        let se = match (rater.as_mut(), &self.se) {
            (Some(r), Some(limits)) => Some(se_columns(r, &mut row, limits)),
            _ => None,
        };
        SolveOut {
            row,
            blank: self.blank,
            se,
        }
    }
}

impl sudoflow::pipeline::FromPanic for SolveOut {
    fn from_panic(record: &Record, message: &str) -> SolveOut {
        SolveOut {
            row: sudoflow::output::SolveRow::error(record, message),
            blank: b'.',
            se: None,
        }
    }
}

/// `work` on every record of `puzzles` (watched, see [`run::watched`]), the
/// rows under `header` as a pyarrow table in input order.
#[allow(clippy::too_many_arguments)]
fn batch_table<S, T: Row + Send>(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    threads: usize,
    distinct: bool,
    progress: Option<&Bound<'_, PyAny>>,
    header: &[&str],
    make_state: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &Record) -> T + Sync + Send,
) -> PyResult<Py<PyAny>> {
    let records = Records::extract(puzzles)?;
    let mut progress = Progress::new(py, progress, Some(records.len() as u64), "puzzles")?;
    let table = watched(py, &mut progress, |watch| {
        let (records, names) = records.into_records();
        let mut builder = Builder::new(header, table::BATCH_ROWS);
        // `distinct` (--distinct): the first item of each class is worked
        // on and gets a row, as the CLI's pipeline does it.
        let classes = distinct.then(SharedClasses::new);
        let classes = classes.as_ref();
        let state = || (make_state(), RecordClasses::default());
        let work =
            |(s, canon): &mut (S, RecordClasses), r: &Record| classify(classes, canon, s, r, &work);
        for_each_chunk(&records, threads, watch, state, work, |rows| {
            rows.iter()
                .filter_map(|carried| carried.written(classes))
                .try_for_each(|row| {
                    builder
                        .push(row, names.as_ref())
                        .map_err(PyRuntimeError::new_err)
                })
        })?;
        builder.into_table()
    })?;
    table::to_pyarrow(py, table)
}

/// Solves every puzzle: the rows of ``sudoflow solve``, one per item, in input order.
///
/// Parameters
/// ----------
/// puzzles : iterable of str, or an Arrow string column
///     A list (tuple, generator, pandas Series of str) of puzzles, or any
///     Arrow string column: a pyarrow Array, ChunkedArray or one-column
///     Table, a polars Series, a pandas Series with a str or Arrow dtype
///     (anything with ``__arrow_c_array__`` or ``__arrow_c_stream__``).
///     A pandas Series of dtype ``object`` (or any column Arrow cannot
///     read) is read item by item as a list is, its ``None``, NaN,
///     ``pd.NA`` and ``pd.NaT`` nulls; one of numbers only raises as an
///     Arrow column of numbers does.
///     Each item is read as the CLI reads one line of a file: 81 cells
///     (``1``-``9`` givens; ``.``, ``0``, ``_``, ``-``, ``*``, ``x``, ``X``
///     blanks), text after a space, tab, ``,``, ``;`` or ``:`` ignored
///     (``"P ED=7.1/1.2/1.2"``, ``"P:1:"``), a quoted field, cells pasted
///     between spaces or ``|``, or 729 characters of pencilmarks; an
///     item over 64 KiB is invalid (``line too long``), as such a line is.
/// limit : int, default 2
///     Count solutions up to this many (``--limit``): ``solutions`` equal
///     to ``limit`` means that many or more. 1 only finds one (status
///     ``solved``).
/// prune : str, default "basic"
///     Propagation before each guess: ``"basic"``, ``"matching"`` or
///     ``"matching-root"`` (``--prune``).
/// no_guess : bool, default False
///     Propagate only; puzzles propagation does not finish are ``stuck``
///     (``--no-guess``).
/// se : bool, default False
///     Also rate each puzzle with one solution on Sudoku Explainer's scale:
///     columns ``er``, ``ep``, ``ed`` after ``error`` (``--se``).
/// se_budget : float, optional
///     The budget to rate one puzzle with ``se``, in seconds of reference
///     work (default 10; counted in work, not wall time, so the rows are the
///     same on a loaded machine): past it the rating columns are null and
///     ``error`` says so (``--se-budget``).
/// se_wall_limit : float, optional
///     Also give up rating after this many seconds of wall time
///     (``--se-wall-limit``; the rows then depend on the machine's load).
/// blank : str, default "."
///     The character blanks are written as in the ``puzzle`` column: ``.``,
///     ``0``, ``_``, ``-``, ``*``, ``x`` or ``X`` (``--blank``).
/// distinct : bool, default False
///     Only the first item of each class of equivalent puzzles (same minlex
///     form, as :func:`canon` finds it) is worked on and gets a row;
///     ``index`` keeps its place (``--distinct``).
/// threads : int, optional
///     Worker threads (default: every core); the table is the same for any.
/// progress : bool or callable, optional
///     ``True``: a tqdm bar when tqdm is installed, else a line on stderr;
///     a callable: called as ``progress(done, total)`` at most every 50 ms.
///
/// Returns
/// -------
/// pyarrow.Table
///     Columns ``index`` (int64, the item's 1-based position), ``puzzle``
///     (``.`` blanks; an invalid item's text), ``status``, ``solutions``,
///     ``solution``, ``clues``, ``wnf`` (float64), ``wnf_level``,
///     ``guesses``, ``backtracks`` (int64), ``error``, then ``er``, ``ep``,
///     ``ed`` (float64) with ``se``; a column that does not apply is null.
///     Statuses: ``unique``, ``multiple``, ``unsolvable``, ``solved``
///     (``limit=1``), ``stuck`` (``no_guess``), ``invalid`` (the item is not
///     a puzzle or its givens clash: ``error`` names ``<input>:N``, N the
///     item's position, and the problem), ``error`` (a bug).
///
/// Raises
/// ------
/// TypeError
///     ``puzzles`` is one str or bytes (wrap it in a list), not iterable, or
///     an Arrow column of numbers or other non-strings (the message says how
///     to read puzzles as text); a bool given for a number (``limit=True``;
///     the message names the parameter).
/// ValueError
///     An option out of range (named).
/// KeyboardInterrupt
///     Ctrl-C (checked every 50 ms while the work runs): every search
///     under way stops within milliseconds, however long its record would
///     have taken, and no table is returned. sudoflow calls running in
///     other threads meanwhile stop too and raise ``KeyboardInterrupt``.
#[pyfunction]
#[pyo3(signature = (puzzles, *, limit = Int::of(2), prune = "basic", no_guess = false, se = false,
    se_budget = None, se_wall_limit = None, blank = ".", distinct = false, threads = None,
    progress = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(puzzles, *, limit=2, prune=\"basic\", no_guess=False, se=False, se_budget=None, se_wall_limit=None, blank=\".\", distinct=False, threads=None, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    limit: Int,
    prune: &str,
    no_guess: bool,
    se: bool,
    se_budget: Option<Real>,
    se_wall_limit: Option<Real>,
    blank: &str,
    distinct: bool,
    threads: Option<Int>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let spec = SolveSpec::new(limit, prune, no_guess, se, se_budget, se_wall_limit, blank)?;
    let threads = args::threads(threads)?;
    batch_table(
        py,
        puzzles,
        threads,
        distinct,
        progress,
        &spec.header(),
        || spec.state(),
        |s, r| spec.row(s, r),
    )
}

/// `count`'s options, as `sudoflow count` takes them: the cap
/// (`--limit`, or `max`, the old spelling as `--max` is), the budget in
/// search nodes (`--time-budget`), and a wall-clock limit (`--wall-limit`).
pub(crate) fn count_options(
    limit: Option<Int>,
    max: Option<Int>,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
) -> PyResult<CountOptions> {
    let cap = match (limit, max) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "limit and max are one option (max is its old spelling, as count --max): \
                 pass limit only",
            ))
        }
        (Some(n), None) => Some(args::natural("limit", n, 1)?),
        (None, Some(n)) => Some(args::natural("max", n, 1)?),
        (None, None) => None,
    };
    Ok(CountOptions {
        max: cap,
        budget: sudoflow::work::Budget {
            work: args::seconds(time_budget, "time_budget")?.map(sudoflow::work::solver_nodes),
            wall: args::seconds(wall_limit, "wall_limit")?,
        },
    })
}

/// `rate`'s limits, as `sudoflow rate` takes them (`--time-budget`, default
/// 10 s of reference work, and `--wall-limit`).
pub(crate) fn rate_limits(
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
) -> PyResult<RateLimits> {
    Ok(RateLimits {
        time: Some(args::seconds(time_budget, "time_budget")?.unwrap_or(DEFAULT_BUDGET)),
        wall: args::seconds(wall_limit, "wall_limit")?,
    })
}

/// Counts every puzzle's solutions: the rows of ``sudoflow count``, one per item, in input order.
///
/// Parameters
/// ----------
/// puzzles : iterable of str, or an Arrow string column
///     As for :func:`solve`: each item read as the CLI reads a line (81
///     cells, text after a separator ignored, pasted cells, 729-character
///     pencilmarks).
/// limit : int, optional
///     Stop a puzzle at its limit-th solution (``--limit``): status
///     ``capped``, ``solutions`` = limit meaning that many or more. ``max``
///     is its old spelling (as ``--max``).
/// time_budget : float, optional
///     The budget per puzzle in seconds of reference work, counted in
///     search nodes (10 million a second): past it, status ``timeout`` with
///     the count so far (``--time-budget``); the same rows on any machine.
/// wall_limit : float, optional
///     Also give up on a puzzle after this many seconds of wall time
///     (``--wall-limit``; the rows then depend on the machine's load).
/// blank : str, default "."
///     The character blanks are written as in the ``puzzle`` column, as
///     :func:`solve` (``--blank``).
/// distinct : bool, default False
///     Only the first item of each class of equivalent puzzles (same minlex
///     form, as :func:`canon` finds it) is worked on and gets a row;
///     ``index`` keeps its place (``--distinct``).
/// threads : int, optional
///     Worker threads (default: every core).
/// progress : bool or callable, optional
///     As for :func:`solve`.
///
/// Returns
/// -------
/// pyarrow.Table
///     Columns ``index``, ``puzzle``, ``status``, ``solutions`` (int64),
///     ``error``. Statuses: ``unique``, ``multiple`` (the exact count),
///     ``unsolvable``, ``capped``, ``timeout``, ``invalid`` (``error`` names
///     ``<input>:N`` and the problem), ``error`` (a bug).
///
/// Raises
/// ------
/// TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, limit = None, time_budget = None, wall_limit = None,
    blank = ".", distinct = false, threads = None, progress = None, max = None))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    limit: Option<Int>,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
    blank: &str,
    distinct: bool,
    threads: Option<Int>,
    progress: Option<&Bound<'_, PyAny>>,
    max: Option<Int>,
) -> PyResult<Py<PyAny>> {
    let opts = count_options(limit, max, time_budget, wall_limit)?;
    let solve_opts = opts.solve_options();
    let blank = args::blank(blank)?;
    let threads = args::threads(threads)?;
    batch_table(
        py,
        puzzles,
        threads,
        distinct,
        progress,
        &COUNT_HEADER,
        || Solver::new(solve_opts),
        |s, r| count_row(s, &opts, r, blank),
    )
}

/// `count`'s row for `record`, its `puzzle` column written with `blank`
/// as `count --blank` writes it.
pub(crate) fn count_row(
    solver: &mut Solver,
    opts: &CountOptions,
    record: &Record,
    blank: u8,
) -> sudoflow::rows::count::CountRow {
    let mut row = count_one(solver, opts, record);
    if record.grid.is_ok() {
        row.puzzle = with_blank(&row.puzzle, blank);
    }
    row
}

/// `rate`'s row for `record`, its `puzzle` column written with `blank`
/// as `rate --blank` writes it.
pub(crate) fn rate_row(
    state: &mut RateState,
    record: &Record,
    blank: u8,
) -> sudoflow::rows::rate::RateRow {
    let mut row = rate_record(state, record);
    if record.grid.is_ok() {
        row.puzzle = with_blank(&row.puzzle, blank);
    }
    row
}

/// `canon`'s row for `record`, a grid's `puzzle` column written with
/// `blank` as `canon --blank` writes it (a pencilmark line's dots are
/// eliminated candidates, not blanks).
pub(crate) fn canon_row(
    state: &mut CanonState,
    record: &Record,
    blank: u8,
) -> sudoflow::rows::canon::CanonRow {
    let mut row = canon_one(state, record);
    if blank != b'.' && matches!(row.result, Ok(sudoflow::rows::canon::Form::Puzzle(_))) {
        row.puzzle = with_blank(&row.puzzle, blank);
    }
    row
}

/// Rates every puzzle on Sudoku Explainer's scale: the rows of ``sudoflow rate``, one per item.
///
/// ER (the hardest step of SE 1.2.1.3's solution path), EP (the hardest
/// up to the first value placed) and ED (the first step), computed as SE
/// computes them.
///
/// Parameters
/// ----------
/// puzzles : iterable of str, or an Arrow string column
///     As for :func:`solve`; a 729-character pencilmark puzzle is rated from
///     its candidates.
/// time_budget : float, optional
///     The budget per puzzle in seconds of reference work (default 10),
///     counted in the rater's work, not wall time, so the rows are the same
///     on any machine: past it, status ``timeout`` (``--time-budget``).
/// wall_limit : float, optional
///     Also give up after this many seconds of wall time (``--wall-limit``;
///     the rows then depend on the machine's load).
/// blank : str, default "."
///     The character blanks are written as in the ``puzzle`` column, as
///     :func:`solve` (``--blank``).
/// distinct : bool, default False
///     Only the first item of each class of equivalent puzzles (same minlex
///     form, as :func:`canon` finds it) is worked on and gets a row;
///     ``index`` keeps its place (``--distinct``).
/// labels : bool, default False
///     Add a ``label`` column last (``--labels``): the level of ``er`` on
///     Sudoku Explainer's generator scale (Easy 0.0-1.2, Medium 1.3-1.5,
///     Hard 1.6-2.5, Fiendish 2.6-6.0, Diabolical 6.1 and up); null when
///     not rated.
/// threads : int, optional
///     Worker threads (default: every core).
/// progress : bool or callable, optional
///     As for :func:`solve`.
///
/// Returns
/// -------
/// pyarrow.Table
///     Columns ``index``, ``puzzle``, ``status``, ``er``, ``ep``, ``ed``
///     (float64, one decimal), ``technique`` (SE's name of the step that
///     set ER), ``steps`` (int64), ``error``. Statuses: ``rated``,
///     ``multiple`` (no rating: SE rates proper puzzles), ``unsolvable``,
///     ``timeout``, ``invalid`` (``error`` names ``<input>:N``), ``error``.
///
/// Raises
/// ------
/// TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, time_budget = None, wall_limit = None, blank = ".",
    distinct = false, labels = false, threads = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn rate(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
    blank: &str,
    distinct: bool,
    labels: bool,
    threads: Option<Int>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let limits = rate_limits(time_budget, wall_limit)?;
    let blank = args::blank(blank)?;
    let threads = args::threads(threads)?;
    batch_table(
        py,
        puzzles,
        threads,
        distinct,
        progress,
        &rate_header(labels),
        || RateState::new(limits),
        |s, r| RateOut {
            row: rate_row(s, r, blank),
            labels,
        },
    )
}

/// `rate`'s columns, then `label` with `labels` (`--labels`).
pub(crate) fn rate_header(labels: bool) -> Vec<&'static str> {
    RATE_HEADER
        .iter()
        .copied()
        .chain(labels.then_some("label"))
        .collect()
}

/// The classes of canon rows, in input order (`sudoflow canon`'s): each
/// row's class is the index of the first row with the same form; with
/// `distinct`, rows of a class already seen are dropped.
pub(crate) struct ClassBook {
    classes: Classes,
    distinct: bool,
}

impl ClassBook {
    pub fn new(distinct: bool) -> ClassBook {
        ClassBook {
            classes: Classes::new(),
            distinct,
        }
    }

    /// The row to write for `row`, if any.
    pub fn out(&mut self, row: sudoflow::rows::canon::CanonRow) -> Option<CanonOut> {
        let class = match &row.result {
            Ok(form) => {
                let digest = sudoflow::canon::line_digest(form.to_line().as_bytes());
                let class = self.classes.first_of(digest, row.index);
                if self.distinct && class != row.index {
                    return None;
                }
                Some(class)
            }
            Err(_) => None,
        };
        Some(CanonOut { row, class })
    }
}

/// Canonical forms and duplicates: the rows of ``sudoflow canon``, one per item.
///
/// Two puzzles are the same puzzle when one becomes the other by
/// relabelling digits, transposing, and permuting rows within bands, bands,
/// columns within stacks and stacks.
///
/// Parameters
/// ----------
/// puzzles : iterable of str, or an Arrow string column
///     As for :func:`solve`; a 729-character pencilmark puzzle gets its own
///     729-character form.
/// distinct : bool, default False
///     Keep only the first item of each class (and every invalid item), as
///     ``--distinct``: ``index`` keeps the item's position.
/// blank : str, default "."
///     The character blanks are written as in the ``puzzle`` column, as
///     :func:`solve` (``--blank``; a pencilmark line is written as read).
/// threads : int, optional
///     Worker threads (default: every core); the table is the same for any.
/// progress : bool or callable, optional
///     As for :func:`solve`.
///
/// Returns
/// -------
/// pyarrow.Table
///     Columns ``index``, ``puzzle``, ``canonical`` (the minlex form: the
///     smallest 81-character string, blanks ``0``, among the equivalent
///     puzzles), ``automorphisms`` (int64), ``class_index`` (int64: the
///     index of the first item with the same form), ``error`` (an invalid
///     item: ``<input>:N`` and the problem; its form columns are null).
///
/// Raises
/// ------
/// TypeError, ValueError, KeyboardInterrupt
///     As for :func:`solve`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, distinct = false, blank = ".", threads = None,
    progress = None))]
fn canon(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    distinct: bool,
    blank: &str,
    threads: Option<Int>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let blank = args::blank(blank)?;
    let threads = args::threads(threads)?;
    let records = Records::extract(puzzles)?;
    let mut progress = Progress::new(py, progress, Some(records.len() as u64), "puzzles")?;
    let table = watched(py, &mut progress, |watch| {
        let (records, names) = records.into_records();
        let mut builder = Builder::new(&CANON_HEADER, table::BATCH_ROWS);
        let mut book = ClassBook::new(distinct);
        for_each_chunk(
            &records,
            threads,
            watch,
            CanonState::default,
            |s, r| canon_row(s, r, blank),
            |rows| {
                for row in rows {
                    if let Some(out) = book.out(row) {
                        builder
                            .push(&out, names.as_ref())
                            .map_err(PyRuntimeError::new_err)?;
                    }
                }
                Ok(())
            },
        )?;
        builder.into_table()
    })?;
    table::to_pyarrow(py, table)
}

/// The path Sudoku Explainer follows through one puzzle, step by step: ``sudoflow explain``.
///
/// Parameters
/// ----------
/// puzzle : str
///     One puzzle, read as ``explain -p`` reads its text: 81 cells on a
///     line (text after a separator ignored), cells pasted between spaces
///     or ``|``, a grid of 9 lines of 9 cells, or 729 characters giving
///     its candidates.
/// time_budget : float, optional
///     The budget in seconds of reference work (default 10), counted as
///     :func:`rate` counts it (``--time-budget``).
/// wall_limit : float, optional
///     Also give up after this many seconds of wall time (``--wall-limit``).
///
/// Returns
/// -------
/// dict
///     What ``sudoflow explain PUZZLE --format json`` prints: ``index`` (1),
///     ``puzzle``, ``status`` (``"rated"``), ``er``, ``ep``, ``ed`` (floats,
///     one decimal), ``technique`` and ``hardest_step`` (the step that set
///     ER, from 1), ``steps`` and ``error`` (None). Each step is a dict
///     ``{rating, technique, cells, placed, removed, chains}``: the cells
///     Sudoku Explainer's hint names (``["r1c9", "r3c8", "r1c5"]``), the
///     value placed (``"r4c2=1"``) or None, the candidates removed
///     (``["r1c3<>9", ...]``) and, for chaining techniques, the chains: each
///     a list of implications ``{"if": [[cell, digit, on], ...], "then":
///     [cell, digit, on], "why": "cell"|"row"|"column"|"block"|""}`` in
///     SE's order (README, "explain").
///
/// Raises
/// ------
/// TypeError
///     ``puzzle`` is not a str; a bool given for a number.
/// ValueError
///     The text is not a puzzle (the message says why) or holds more than
///     one, its givens clash, or
///     it has no solution or more than one (SE rates proper puzzles only).
/// TimeoutError
///     The rating ran past ``time_budget`` or ``wall_limit``.
/// KeyboardInterrupt
///     Ctrl-C.
#[pyfunction]
#[pyo3(signature = (puzzle, *, time_budget = None, wall_limit = None))]
fn explain(
    py: Python<'_>,
    puzzle: &str,
    time_budget: Option<Real>,
    wall_limit: Option<Real>,
) -> PyResult<Py<PyAny>> {
    let limits = rate_limits(time_budget, wall_limit)?;
    // Read as `explain -p` reads it: a puzzle on one line, its 729
    // candidates, a pasted grid (9 lines of 9 cells too; found by probing:
    // a 9-line grid was refused as "9 lines in one item").
    let record = text_record(puzzle)?;
    let explained = match record.pencilmarks {
        Some(_) => watched(py, &mut Progress::new(py, None, None, "")?, |_| {
            Ok(sudoflow::rows::explain::explain_one(&record, limits))
        })?,
        None => {
            let grid = record
                .grid
                .map_err(|e| PyValueError::new_err(unnamed(&e)))?;
            watched(py, &mut Progress::new(py, None, None, "")?, |_| {
                Ok(sudoflow::rows::explain::explain_grid(&grid, limits))
            })?
        }
    };
    let row = explained.map_err(|e| match e {
        Unexplained::Timeout { .. } => PyTimeoutError::new_err(e.to_string()),
        Unexplained::Error(_) => PyRuntimeError::new_err(e.to_string()),
        e => PyValueError::new_err(e.to_string()),
    })?;
    Ok(py
        .import("json")?
        .call_method1("loads", (row.json_line(),))?
        .unbind())
}

/// The one puzzle of `text`, read as `explain -p` reads its text
/// ([`for_each_text_item`]: a line, 729 candidates, cells pasted between
/// spaces or `|`, a grid on 9 lines).
///
/// Errors: `ValueError` for text that holds no puzzle (blank, a comment:
/// the message says so, as for an item of a list) or more than one.
fn text_record(text: &str) -> PyResult<Record> {
    let mut records = Vec::new();
    for_each_text_item(text, &[], |item| {
        if let Item::Record(record) = item {
            records.push(record);
        }
        std::ops::ControlFlow::Continue(())
    })
    .map_err(|e| PyValueError::new_err(format!("{e:#}")))?;
    match records.len() {
        0 => {
            let record = item_record(1, &Arc::from(TEXT_NAME), text.as_bytes());
            let why = record.grid.err().unwrap_or_else(|| "no puzzle".to_owned());
            Err(PyValueError::new_err(unnamed(&why)))
        }
        1 => Ok(records.remove(0)),
        n => Err(PyValueError::new_err(format!(
            "{n} puzzles in the text: explain takes one puzzle (call it for each)"
        ))),
    }
}

/// A record's error without the name of its record (`<puzzle>:N: `).
fn unnamed(error: &str) -> String {
    let named = error.strip_prefix(TEXT_NAME).and_then(|rest| {
        let rest = rest.strip_prefix(':')?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        rest[digits..].strip_prefix(": ")
    });
    named.unwrap_or(error).to_owned()
}

/// Why `generate` could not make puzzle `index`.
enum GiveUp {
    MaxTries(u64),
    Stopped,
}

/// The first candidate of `seeds` that passes the filters and `accept`,
/// within `max_tries` candidates.
fn make_from(
    gen: &mut Generator,
    seeds: &mut impl RngCore,
    index: u64,
    max_tries: u64,
    watch: &Watch,
    mut accept: impl FnMut(&Generated) -> bool,
) -> Result<Generated, GiveUp> {
    for _ in 0..max_tries {
        if watch.stopped() {
            return Err(GiveUp::Stopped);
        }
        if let Ok(p) = gen.candidate(seeds.next_u64()) {
            if accept(&p) {
                return Ok(p);
            }
        }
    }
    Err(GiveUp::MaxTries(index))
}

/// `distinct`: puzzle `index` of the run seeded `run_seed`, `p`, if no
/// earlier puzzle has its class; else the next candidate of index's own seed
/// stream after `p` that passes the filters and whose class is new and not `excluded`: what
/// `sudoflow generate --distinct` writes (its `distinct`, in
/// `cmd::generate`). Called in index order.
#[allow(clippy::too_many_arguments)]
fn replace_repeat(
    p: Generated,
    (run_seed, index): (u64, u64),
    classes: &mut Classes,
    excluded: Option<&Classes>,
    (gen, canon): &mut (Generator, Canonicalizer),
    max_tries: u64,
    watch: &Watch,
) -> Result<Generated, GiveUp> {
    let digest = canon.canonicalize(&p.puzzle).digest();
    if classes.first_of(digest, index) == index {
        return Ok(p);
    }
    let mut seeds = seed_stream(run_seed, index);
    for _ in 0..=max_tries {
        if seeds.next_u64() == p.seed {
            break;
        }
    }
    let mut fresh = 0;
    let q = make_from(gen, &mut seeds, index, max_tries, watch, |q| {
        fresh = canon.canonicalize(&q.puzzle).digest();
        !classes.contains(fresh) && excluded.is_none_or(|e| !e.contains(fresh))
    })?;
    classes.first_of(fresh, index);
    Ok(q)
}

/// Generates proper puzzles (one solution each), minimal by default: the rows of ``sudoflow generate``.
///
/// Puzzle i is the first candidate of a seed stream made from ``seed`` and
/// i that passes the filters, so the same seed and options give the same
/// table whatever ``threads`` is, and the rows ``sudoflow generate -n N
/// --seed SEED`` writes with the same options.
///
/// Parameters
/// ----------
/// n : int, default 1
///     Puzzles to make.
/// seed : int
///     The run's seed (0 to 2**64 - 1); required unless ``puzzle_seed``.
/// puzzle_seed : int, optional
///     Remake the one puzzle of a ``seed`` column value (``--puzzle-seed``),
///     with the options of the run that made it; ``n`` must be 1.
/// clues : int, (min, max) or str, optional
///     Keep puzzles with that many givens (``22``, ``(22, 26)``, ``"22..26"``).
/// wnf_level : int, (min, max) or str, optional
///     Keep puzzles whose WNF band (1-4) is in range (default 1..4).
/// symmetry : str, optional
///     ``none``, ``rot180``, ``rot90``, ``mirror``, ``flip``, ``diagonal`` or
///     ``antidiagonal``: the givens' pattern.
/// minimal : bool, default True
///     Every given necessary.
/// guesses : int, (min, max) or str, optional
///     Keep puzzles the solver needs that many guesses for.
/// se : float, (min, max) or str, optional
///     Keep puzzles whose Sudoku Explainer rating ER is in range (``7.0``,
///     ``(7.0, 8.0)``, ``"7.0..8.0"``); adds columns ``er``, ``ep``, ``ed``.
/// se_budget : float, optional
///     With ``se``: the budget of each candidate's rating in seconds of
///     reference work (default 10, as ``--se-budget``); a candidate whose
///     rating runs past it is rejected.
/// distinct : bool, default False
///     No two puzzles of the table equivalent (``--distinct``): a puzzle
///     whose class an earlier one has is replaced by the next candidate of
///     its own seed stream that passes the filters and is new.
/// exclude : str, bytes, os.PathLike or a sequence of them, optional
///     Never make a puzzle equivalent to one in these files (a book's
///     earlier volumes; ``--exclude``): each file is read as the CLI reads
///     its inputs, and a candidate whose class (minlex form) one of their
///     puzzles has is passed over as one the filters reject, so the table
///     is ``sudoflow generate --exclude FILE...``'s for any ``threads``.
/// max_tries : int, default 100000
///     Candidates tried per puzzle before giving up.
/// blank : str, default "."
///     The character blanks are written as in the ``puzzle`` column, as
///     :func:`solve` (``--blank``): the same puzzles whatever it is.
/// labels : bool, default False
///     With ``se``, a ``label`` column after ``seed`` (``--labels``): the
///     level of ``er`` on Sudoku Explainer's generator scale (Easy ...
///     Diabolical, as :func:`rate` gives it).
/// threads : int, optional
///     Worker threads (default: every core).
/// progress : bool or callable, optional
///     As for :func:`solve` (counts puzzles made).
///
/// Returns
/// -------
/// pyarrow.Table
///     :func:`solve`'s columns (status ``unique``), then ``er``, ``ep``,
///     ``ed`` with ``se``, then ``seed`` (uint64: the candidate seed that
///     remakes that row alone, see ``puzzle_seed``).
///
/// Raises
/// ------
/// TypeError
///     A bool given for a number (``n``, ``seed``, ``clues``, ``se``...).
/// ValueError
///     An option out of range (named), fewer than 17 clues, a
///     ``puzzle_seed`` whose candidate the filters reject, ``exclude``
///     with ``puzzle_seed``, or an empty ``exclude`` path.
/// OSError
///     An ``exclude`` file cannot be read (the message names it).
/// RuntimeError
///     Some puzzle found no candidate within ``max_tries``: the message
///     names it, and the exception's ``table`` attribute holds the puzzles
///     made before it (the rows ``sudoflow generate`` writes before it
///     exits 1).
/// KeyboardInterrupt
///     Ctrl-C.
#[pyfunction]
#[pyo3(signature = (n = Int::of(1), *, seed = None, puzzle_seed = None, clues = None, wnf_level = None,
    symmetry = None, minimal = true, guesses = None, se = None, se_budget = None,
    distinct = false, exclude = None, max_tries = Int::of(100_000), blank = ".", labels = false,
    threads = None, progress = None))]
// Int defaults would show as "..." (an expression, not a literal).
#[pyo3(
    text_signature = "(n=1, *, seed=None, puzzle_seed=None, clues=None, wnf_level=None, symmetry=None, minimal=True, guesses=None, se=None, se_budget=None, distinct=False, exclude=None, max_tries=100000, blank=\".\", labels=False, threads=None, progress=None)"
)]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    n: Int,
    seed: Option<Int>,
    puzzle_seed: Option<Int>,
    clues: Option<&Bound<'_, PyAny>>,
    wnf_level: Option<&Bound<'_, PyAny>>,
    symmetry: Option<&str>,
    minimal: bool,
    guesses: Option<&Bound<'_, PyAny>>,
    se: Option<&Bound<'_, PyAny>>,
    se_budget: Option<Real>,
    distinct: bool,
    exclude: Option<&Bound<'_, PyAny>>,
    max_tries: Int,
    blank: &str,
    labels: bool,
    threads: Option<Int>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    use sudoflow::generator::spans::{parse_clues, parse_guesses, parse_se, parse_wnf_level};
    let blank = args::blank(blank)?;
    let n = args::natural("n", n, 0)?;
    let seed = seed.map(|s| args::natural("seed", s, 0)).transpose()?;
    let puzzle_seed = puzzle_seed
        .map(|s| args::natural("puzzle_seed", s, 0))
        .transpose()?;
    let max_tries = args::natural("max_tries", max_tries, 1)?;
    let default_clues = if minimal { 17..=81 } else { 17..=80 };
    let se = match se {
        None => None,
        Some(v) => Some(
            if v.is_instance_of::<pyo3::types::PyBool>() {
                // Found by probing: se=True kept ratings of exactly 1.0.
                return Err(args::not_bool(
                    "se",
                    "a rating, a (min, max) pair or text such as \"7.0..8.0\"",
                    v.is_truthy()?,
                ));
            } else if let Ok(s) = v.extract::<String>() {
                parse_se(&s)
            } else if let Ok((a, b)) = v.extract::<(Real, Real)>() {
                let (a, b) = (a.get("se")?, b.get("se")?);
                // Written in full (shortest round trip), so that 2.04 is
                // refused as the CLI refuses it, not rounded to 2.0.
                parse_se(&format!("{a}..{b}"))
            } else if let Ok(a) = v.extract::<Real>() {
                let a = a.get("se")?;
                parse_se(&format!("{a}"))
            } else {
                Err("expected a rating, a (min, max) pair or text such as \"7.0..8.0\"".into())
            }
            .map_err(|e| PyValueError::new_err(format!("se: {e}")))?,
        ),
    };
    let opts = GenerateOptions {
        symmetry: symmetry
            .map(args::symmetry)
            .transpose()?
            .unwrap_or_default(),
        minimal,
        clues: args::span(clues, parse_clues, "clues")?.unwrap_or(default_clues),
        wnf_level: args::span(wnf_level, parse_wnf_level, "wnf_level")?.unwrap_or(1..=4),
        guesses: args::span(guesses, parse_guesses, "guesses")?.unwrap_or(0..=u64::MAX),
        se: se.clone(),
        // As `generate --se-budget`: the rows are the CLI's.
        // Named se_budget (found by probing: its errors named time_budget).
        se_budget: RateLimits {
            time: Some(args::seconds(se_budget, "se_budget")?.unwrap_or(DEFAULT_BUDGET)),
            wall: None,
        }
        .budget(),
        ..GenerateOptions::default()
    };
    if se_budget.is_some() && se.is_none() {
        return Err(PyValueError::new_err(
            "se_budget limits the rating of se=: pass se too",
        ));
    }
    // As the CLI: options no puzzle can meet are refused at once.
    opts.check_reachable()
        .map_err(|e| PyValueError::new_err(args::python_words(&e)))?;
    let threads = args::threads(threads)?;
    let exclude = match exclude {
        None => Vec::new(),
        Some(e) => args::paths(e, "exclude")?,
    };
    if !exclude.is_empty() && puzzle_seed.is_some() {
        return Err(PyValueError::new_err(
            "exclude and puzzle_seed: puzzle_seed remakes one puzzle of a run as it was made",
        ));
    }
    // The excluded classes, read before the run (as the CLI does).
    let excluded = if exclude.is_empty() {
        None
    } else {
        let files = exclude.clone();
        let read = py.detach(move || sudoflow::rows::classes_in(&files, threads));
        Some(
            read.map_err(|e| pyo3::exceptions::PyOSError::new_err(format!("exclude: {e:#}")))?
                .0,
        )
    };
    let excluded = excluded.as_ref();
    let mut header: Vec<&str> = SOLVE_HEADER.to_vec();
    if se.is_some() {
        header.extend(["er", "ep", "ed"]);
    }
    header.push("seed");
    if labels {
        if se.is_none() {
            return Err(PyValueError::new_err(
                "labels names the level of each puzzle's rating: pass se too (as --labels \
                 needs --se)",
            ));
        }
        header.push("label");
    }
    let limit = SolveOptions::default().limit;
    let row = |index: u64, p: &Generated| GeneratedRow {
        row: sudoflow::output::SolveRow::solved(index, &p.puzzle, &p.outcome, limit),
        se: p.se,
        seed: p.seed,
        blank,
        labels,
    };
    let seed = match (seed, puzzle_seed) {
        (Some(_), Some(_)) => {
            return Err(PyValueError::new_err(
                "seed and puzzle_seed: give one (puzzle_seed remakes one puzzle of a run)",
            ))
        }
        (None, Some(ps)) => {
            if n != 1 {
                return Err(PyValueError::new_err(format!(
                    "puzzle_seed makes one puzzle: n must be 1, not {n}"
                )));
            }
            let p = Generator::new(opts).candidate(ps).map_err(|r| {
                PyValueError::new_err(format!(
                    "puzzle seed {ps} makes a candidate the filters reject ({}); use the \
                     symmetry, minimal and filter options of the run that made it",
                    r.as_str()
                ))
            })?;
            let mut builder = Builder::new(&header, table::BATCH_ROWS);
            builder
                .push(&row(1, &p), None)
                .map_err(PyRuntimeError::new_err)?;
            return table::to_pyarrow(py, builder.into_table()?);
        }
        (Some(s), None) => s,
        (None, None) => {
            return Err(PyValueError::new_err(
                "seed is required (any int from 0 to 2**64 - 1: the same seed gives the same \
                 puzzles), or puzzle_seed",
            ))
        }
    };
    let mut progress = Progress::new(py, progress, Some(n), "puzzles")?;
    let table = watched(py, &mut progress, |watch| {
        // A candidate of an excluded class is passed over in the worker,
        // as the filters pass over theirs (the CLI's make).
        let make = |(gen, canon): &mut (Generator, Canonicalizer),
                    index: u64|
         -> Result<Generated, GiveUp> {
            let mut seeds = seed_stream(seed, index);
            let made = make_from(gen, &mut seeds, index, max_tries, watch, |p| {
                excluded.is_none_or(|e| !e.contains(canon.canonicalize(&p.puzzle).digest()))
            });
            watch.add(1);
            made
        };
        let mut builder = Builder::new(&header, table::BATCH_ROWS);
        let mut classes = distinct.then(Classes::new);
        let mut worker = (Generator::new(opts.clone()), Canonicalizer::new());
        let pool = (threads > 1).then(|| run::pool(threads)).transpose()?;
        // A chunk of indices at a time: the rows go to the table as they
        // come (not every puzzle's search state first), and a stop ends
        // the run within a chunk.
        let step = (run::CHUNK * threads) as u64;
        let mut first = 1;
        while first <= n {
            let last = n.min(first.saturating_add(step - 1));
            let made: Vec<Result<Generated, GiveUp>> = match &pool {
                None => (first..=last).map(|i| make(&mut worker, i)).collect(),
                Some(pool) => {
                    use rayon::prelude::*;
                    pool.install(|| {
                        (first..=last)
                            .into_par_iter()
                            .map_init(
                                || (Generator::new(opts.clone()), Canonicalizer::new()),
                                |w, i| make(w, i),
                            )
                            .collect()
                    })
                }
            };
            for (index, p) in (first..).zip(made) {
                let p = match (p, classes.as_mut()) {
                    (Ok(p), Some(classes)) => replace_repeat(
                        p,
                        (seed, index),
                        classes,
                        excluded,
                        &mut worker,
                        max_tries,
                        watch,
                    ),
                    (p, None) => p,
                    (Err(e), _) => Err(e),
                };
                match p {
                    Ok(p) => builder
                        .push(&row(index, &p), None)
                        .map_err(PyRuntimeError::new_err)?,
                    Err(GiveUp::Stopped) => return Err(run::stopped()),
                    Err(GiveUp::MaxTries(i)) => {
                        // The rows made before it are kept, as the CLI
                        // writes them before it exits 1.
                        let why = format!(
                            "puzzle {i}: none of {max_tries} candidates passed the filters{}; \
                             loosen clues, wnf_level, guesses or se, or raise max_tries (the \
                             exception's table attribute holds the {} puzzles made before it)",
                            if distinct { " and was new" } else { "" },
                            i - 1
                        );
                        return Ok((builder.into_table()?, Some(why)));
                    }
                }
            }
            first = last.saturating_add(1);
        }
        Ok((builder.into_table()?, None))
    })?;
    let (table, gave_up) = table;
    let table = table::to_pyarrow(py, table)?;
    match gave_up {
        None => Ok(table),
        Some(why) => {
            let err = PyRuntimeError::new_err(why);
            err.value(py).setattr("table", table)?;
            Err(err)
        }
    }
}

/// A Sudoku grid: 81 cells, row-major, 0 for a blank.
///
/// ``Grid(text)`` parses 81 cells (``1``-``9`` givens; ``.``, ``0``,
/// ``_``, ``-``, ``*``, ``x``, ``X`` blanks); ``ValueError`` names the
/// problem. ``g[r, c]`` is the value at zero-based row and column (0 for a
/// blank; ``IndexError`` outside 0-8). Grids compare and hash by their cells.
#[pyclass(module = "sudoflow", name = "Grid", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyGrid(Grid);

#[pymethods]
impl PyGrid {
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        parse(text)
    }

    /// The 81 cell values, row-major, 0 for blank.
    #[getter]
    fn cells(&self) -> Vec<u8> {
        self.0.cells().to_vec()
    }

    /// The number of givens.
    #[getter]
    fn clues(&self) -> usize {
        self.0.clues()
    }

    /// The value at zero-based (row, column), 0 for blank; IndexError outside 0-8.
    fn __getitem__(&self, at: (i128, i128)) -> PyResult<u8> {
        let (r, c) = at;
        if !(0..9).contains(&r) || !(0..9).contains(&c) {
            return Err(PyIndexError::new_err(format!(
                "cell ({r}, {c}) is outside the 9x9 grid: rows and columns are 0 to 8"
            )));
        }
        Ok(self.0.get((9 * r + c) as usize))
    }

    /// Whether no two givens clash (same digit twice in a row, column or box).
    fn is_valid(&self) -> bool {
        self.0.check_givens().is_ok()
    }

    /// The one solution as a Grid, or None when there is none or more than one.
    fn solution(&self) -> Option<PyGrid> {
        unique_solution(&self.0).map(PyGrid)
    }

    fn __str__(&self) -> String {
        self.0.to_line()
    }

    fn __repr__(&self) -> String {
        format!("Grid('{}')", self.0.to_line())
    }
}

fn unique_solution(grid: &Grid) -> Option<Grid> {
    let outcome = Solver::new(SolveOptions::default()).solve(grid);
    (Status::of(&outcome, 2) == Status::Unique)
        .then_some(outcome.solution)
        .flatten()
}

/// Parses a puzzle of 81 cells into a Grid.
///
/// Parameters
/// ----------
/// text : str
///     81 cells (``1``-``9`` givens; ``.``, ``0``, ``_``, ``-``, ``*``,
///     ``x``, ``X`` blanks), blanks around them ignored.
///
/// Returns
/// -------
/// Grid
///
/// Raises
/// ------
/// ValueError
///     The text is not 81 cells; the message names the problem (the length
///     found, a bad character and its position).
#[pyfunction]
fn parse(text: &str) -> PyResult<PyGrid> {
    Grid::parse(text.trim_ascii())
        .map(PyGrid)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Whether ``puzzle`` (str) is 81 cells whose givens do not clash; never raises for a str.
#[pyfunction]
fn is_valid(puzzle: &Bound<'_, PyString>) -> bool {
    // A str UTF-8 cannot encode (lone surrogates) is no puzzle.
    puzzle
        .to_cow()
        .is_ok_and(|p| Grid::parse(p.trim_ascii()).is_ok_and(|g| g.check_givens().is_ok()))
}

/// The solution of a puzzle with exactly one, as 81 digits, else None.
///
/// Parameters
/// ----------
/// puzzle : str
///     81 cells, as :func:`parse` takes them.
///
/// Returns
/// -------
/// str or None
///     The solution (81 digits) when the puzzle has exactly one, else None.
///
/// Raises
/// ------
/// ValueError
///     The text is not a puzzle, or its givens clash.
#[pyfunction]
fn solution(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let grid =
        Grid::parse(puzzle.trim_ascii()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    grid.check_givens()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| unique_solution(&grid)).map(|g| g.to_line()))
}

#[pymodule]
fn _sudoflow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(canon, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(stream::solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(stream::count_file, m)?)?;
    m.add_function(wrap_pyfunction!(stream::rate_file, m)?)?;
    m.add_function(wrap_pyfunction!(stream::canon_file, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(solution, m)?)?;
    m.add_class::<PyGrid>()?;
    m.add_class::<input::Named>()?;
    m.add_class::<stream::Batches>()?;
    m.add("SOLVE_COLUMNS", SOLVE_HEADER.to_vec())?;
    m.add("COUNT_COLUMNS", COUNT_HEADER.to_vec())?;
    m.add("RATE_COLUMNS", RATE_HEADER.to_vec())?;
    m.add("CANON_COLUMNS", CANON_HEADER.to_vec())?;
    Ok(())
}
