//! `sudoflow._sudoflow`: the Python extension behind the `sudoflow` package.
//!
//! Every batch function takes a list of `str` or any Arrow string column
//! (an object with `__arrow_c_array__` or `__arrow_c_stream__`: pyarrow,
//! polars, pandas with pyarrow, arro3, nanoarrow), works on it with the GIL
//! released and in parallel (`threads=None`: every core), and returns an
//! Arrow table (a pyo3-arrow `Table`, read by `pyarrow.table()` and
//! `polars.DataFrame()` through the Arrow PyCapsule interface) with one row
//! per input item, in input order, with the columns and values of the
//! matching CLI command's CSV.
//!
//! The rows are the library's own: [`solve_record`], [`count_one`] and
//! [`rate_record`] make them exactly as the CLI's workers do, and
//! [`table::Columns`] turns their CSV fields (in header order) into typed
//! Arrow columns, so a column the CLI gains appears here too.

mod input;
mod table;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use crossbeam_channel::{bounded, Receiver};
use input::Records;
use pyo3::exceptions::{PyIOError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3_arrow::{PyRecordBatchReader, PyTable};
use rand::RngCore;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use sudoflow::counting::solutions::CountOptions;
use sudoflow::generator::{seed_stream, GenerateOptions, Generated, Generator, Symmetry};
use sudoflow::grid::Grid;
use sudoflow::output::{SolveRow, Status, SOLVE_HEADER};
use sudoflow::pipeline::{self, PipelineOptions, Record};
use sudoflow::rating::se::Rating;
use sudoflow::rows::count::{count_one, CountRow, COUNT_HEADER};
use sudoflow::rows::rate::{
    rate_record, RateLimits, RateRow, RateState, DEFAULT_BUDGET, RATE_HEADER,
};
use sudoflow::rows::solve::solve_record;
use sudoflow::solver::{SolveOptions, Solver};
use table::{Columns, PushRow, Row};

/// Rows per Arrow record batch of a returned table or stream.
const BATCH_ROWS: usize = 64 * 1024;

/// The number of worker threads for `threads`: the value given (at least 1),
/// else every core the process may use.
fn thread_count(threads: Option<usize>) -> usize {
    threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// A rayon pool of `threads` workers, kept for later calls with the same
/// count (starting threads per call would cost more than a small call's work).
fn pool(threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("sudoflow-{i}"))
        .build()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))?;
    let p = Arc::new(p);
    pools.insert(threads, Arc::clone(&p));
    Ok(p)
}

/// `work` on every record with one state per worker, results in input order:
/// inline for one thread, else on a pool of `threads`.
fn par_map<S, T>(
    records: &[Record],
    threads: usize,
    make_state: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &Record) -> T + Sync + Send,
) -> PyResult<Vec<T>>
where
    T: Send,
{
    if threads <= 1 || records.len() < 2 {
        let mut state = make_state();
        return Ok(records.iter().map(|r| work(&mut state, r)).collect());
    }
    Ok(pool(threads)?.install(|| {
        records
            .par_iter()
            .with_min_len(16)
            .map_init(&make_state, |s, r| work(s, r))
            .collect()
    }))
}

/// Records handled per step of [`run_table`]: their rows are turned into
/// columns before the next step, while they are still in cache (and the rows
/// of a long input are never all in memory at once).
const CHUNK: usize = 4096;

/// `work` on every record (see [`par_map`]), the rows under `header` as a
/// table, in input order.
fn run_table<S, T: Row + Send>(
    records: &[Record],
    threads: usize,
    header: &[&str],
    make_state: impl Fn() -> S + Sync + Send,
    work: impl Fn(&mut S, &Record) -> T + Sync + Send,
) -> PyResult<PyTable> {
    let mut columns = Columns::with_capacity(header, records.len().min(BATCH_ROWS));
    let mut batches = Vec::new();
    for chunk in records.chunks(CHUNK * threads) {
        let rows = par_map(chunk, threads, &make_state, &work)?;
        for row in &rows {
            columns.push(row).map_err(PyRuntimeError::new_err)?;
            if columns.len() >= BATCH_ROWS {
                batches.push(columns.finish().map_err(arrow_err)?);
            }
        }
    }
    if !columns.is_empty() || batches.is_empty() {
        batches.push(columns.finish().map_err(arrow_err)?);
    }
    PyTable::try_new(batches, columns.schema())
}

/// The table of `rows` under `header`, built on the calling thread.
fn to_table<R: Row>(header: &[&str], rows: &[R]) -> PyResult<PyTable> {
    let mut columns = Columns::new(header);
    let mut batches = Vec::with_capacity(rows.len().div_ceil(BATCH_ROWS).max(1));
    for chunk in rows.chunks(BATCH_ROWS) {
        for row in chunk {
            columns.push(row).map_err(PyRuntimeError::new_err)?;
        }
        batches.push(columns.finish().map_err(arrow_err)?);
    }
    if batches.is_empty() {
        batches.push(columns.finish().map_err(arrow_err)?);
    }
    PyTable::try_new(batches, columns.schema())
}

fn arrow_err(e: ArrowError) -> PyErr {
    PyRuntimeError::new_err(e.to_string())
}

/// Solve every puzzle: the rows of `sudoflow solve` (same columns, same values).
#[pyfunction]
#[pyo3(signature = (puzzles, *, limit = 2, threads = None))]
fn solve(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    limit: u64,
    threads: Option<usize>,
) -> PyResult<PyTable> {
    let opts = solve_options(limit)?;
    let threads = check_threads(threads)?;
    let records = Records::extract(puzzles)?;
    py.detach(|| {
        let records = records.into_records();
        run_table(
            &records,
            threads,
            &SOLVE_HEADER,
            || Solver::new(opts),
            solve_record,
        )
    })
}

/// Count every puzzle's solutions: the rows of `sudoflow count`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, max = None, time_budget = None, threads = None))]
fn count(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    max: Option<u64>,
    time_budget: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyTable> {
    if max == Some(0) {
        return Err(PyValueError::new_err("max must be at least 1"));
    }
    // The budget in work, as `count --time-budget` counts it.
    let count_opts = CountOptions {
        max,
        budget: sudoflow::work::Budget {
            work: seconds(time_budget, "time_budget")?.map(sudoflow::work::solver_nodes),
            wall: None,
        },
    };
    let solve_opts = count_opts.solve_options();
    let threads = check_threads(threads)?;
    let records = Records::extract(puzzles)?;
    py.detach(|| {
        let records = records.into_records();
        run_table(
            &records,
            threads,
            &COUNT_HEADER,
            || Solver::new(solve_opts),
            |s, r| count_one(s, &count_opts, r),
        )
    })
}

/// Rate every puzzle on Sudoku Explainer's scale: the rows of `sudoflow rate`.
#[pyfunction]
#[pyo3(signature = (puzzles, *, time_budget = None, threads = None))]
fn rate(
    py: Python<'_>,
    puzzles: &Bound<'_, PyAny>,
    time_budget: Option<f64>,
    threads: Option<usize>,
) -> PyResult<PyTable> {
    let budget = seconds(time_budget, "time_budget")?.unwrap_or(DEFAULT_BUDGET);
    let threads = check_threads(threads)?;
    let records = Records::extract(puzzles)?;
    py.detach(|| {
        let records = records.into_records();
        run_table(
            &records,
            threads,
            &RATE_HEADER,
            || RateState::new(RateLimits::work(budget)),
            rate_record,
        )
    })
}

fn solve_options(limit: u64) -> PyResult<SolveOptions> {
    if limit == 0 {
        return Err(PyValueError::new_err("limit must be at least 1"));
    }
    Ok(SolveOptions {
        limit,
        ..SolveOptions::default()
    })
}

fn check_threads(threads: Option<usize>) -> PyResult<usize> {
    match threads {
        Some(0) => Err(PyValueError::new_err(
            "threads must be at least 1 (None: all cores)",
        )),
        t => Ok(thread_count(t)),
    }
}

fn seconds(secs: Option<f64>, name: &str) -> PyResult<Option<std::time::Duration>> {
    secs.map(|s| {
        std::time::Duration::try_from_secs_f64(s)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name} must be a positive number of seconds, not {s}"
                ))
            })
    })
    .transpose()
}

/// `solve` over files, streamed: an Arrow record batch reader whose batches
/// hold the rows of `sudoflow solve` on those files, in order.
///
/// The files go through the CLI's own pipeline (reader, workers, reordering),
/// on threads of their own; the reader pulls batches from it and holds at
/// most a few in memory, whatever the files' size. Dropping the reader
/// stops the run. `column` is the CLI's `--column`: a header's column name
/// (`str`) or a 1-based column number (`int`).
#[pyfunction]
#[pyo3(signature = (paths, *, limit = 2, threads = None, batch_rows = 65536, column = None))]
fn solve_file(
    paths: &Bound<'_, PyAny>,
    limit: u64,
    threads: Option<usize>,
    batch_rows: usize,
    column: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyRecordBatchReader> {
    let opts = solve_options(limit)?;
    let threads = check_threads(threads)?;
    let batch_rows = batch_rows.max(1);
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(one) => vec![one],
        Err(_) => paths.extract()?,
    };
    let column = column
        .map(|c| {
            let text = match c.extract::<u64>() {
                Ok(n) => n.to_string(),
                Err(_) => c.extract::<String>()?,
            };
            text.parse::<pipeline::reader::Column>()
                .map_err(|e| PyValueError::new_err(format!("column: {e}")))
        })
        .transpose()?;
    pipeline::check_inputs(&paths, column.as_ref())
        .map_err(|e| PyIOError::new_err(format!("{e:#}")))?;
    let popts = PipelineOptions {
        inputs: paths,
        column,
        keep: Vec::new(),
        puzzle: None,
        threads,
        batch_size: 1024,
        progress: None,
    };
    let schema = Columns::new(&SOLVE_HEADER).schema();
    let (tx, rx) = bounded::<Result<RecordBatch, ArrowError>>(2);
    std::thread::Builder::new()
        .name("sudoflow-solve-file".into())
        .spawn(move || {
            let mut columns = Columns::with_capacity(&SOLVE_HEADER, batch_rows.min(BATCH_ROWS));
            let tx2 = tx.clone();
            let run = pipeline::run(
                &popts,
                || Solver::new(opts),
                solve_record,
                |row: SolveRow| {
                    columns.push(&row).map_err(anyhow::Error::msg)?;
                    if columns.len() >= batch_rows {
                        let batch = columns.finish()?;
                        tx2.send(Ok(batch))
                            .map_err(|_| anyhow::anyhow!("the reader was closed"))?;
                    }
                    Ok(())
                },
            );
            let last = match run {
                Ok(_) if !columns.is_empty() => Some(columns.finish().map_err(Into::into)),
                Ok(_) => None,
                Err(e) => Some(Err(e)),
            };
            if let Some(last) = last {
                let _ = tx.send(last.map_err(|e: anyhow::Error| {
                    ArrowError::ExternalError(format!("{e:#}").into())
                }));
            }
        })
        .map_err(|e| PyRuntimeError::new_err(format!("cannot start the reader thread: {e}")))?;
    Ok(PyRecordBatchReader::new(Box::new(ChannelReader {
        schema,
        rx,
    })))
}

/// The batches a pipeline thread sends, as a [`RecordBatchReader`].
struct ChannelReader {
    schema: SchemaRef,
    rx: Receiver<Result<RecordBatch, ArrowError>>,
}

impl Iterator for ChannelReader {
    type Item = Result<RecordBatch, ArrowError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.rx.recv().ok()
    }
}

impl RecordBatchReader for ChannelReader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// A generated puzzle as `generate`'s CSV row: solve's columns, then er, ep,
/// ed when rated, then the candidate seed.
struct GeneratedRow {
    row: SolveRow,
    se: Option<[f64; 3]>,
    seed: u64,
}

impl Row for GeneratedRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.row.fill_record(record);
        if let Some(se) = self.se {
            for x in se {
                record.push_field(Rating::format(x).as_bytes());
            }
        }
        record.push_field(self.seed.to_string().as_bytes());
    }
}

/// An inclusive range from `int`, `(lo, hi)` or the CLI's text (`"20..25"`).
fn span<'py, T>(
    value: Option<&Bound<'py, PyAny>>,
    parse: fn(&str) -> Result<std::ops::RangeInclusive<T>, String>,
    name: &str,
) -> PyResult<Option<std::ops::RangeInclusive<T>>>
where
    T: for<'a> FromPyObject<'a, 'py> + Copy + std::fmt::Display,
{
    let Some(v) = value else { return Ok(None) };
    let text = if let Ok(s) = v.extract::<String>() {
        s
    } else if let Ok(x) = v.extract::<T>() {
        x.to_string()
    } else if let Ok((a, b)) = v.extract::<(T, T)>() {
        format!("{a}..{b}")
    } else {
        return Err(PyValueError::new_err(format!(
            "{name}: expected a number, a (min, max) pair or text such as \"20..25\""
        )));
    };
    parse(&text)
        .map(Some)
        .map_err(|e| PyValueError::new_err(format!("{name}: {e}")))
}

fn symmetry(name: &str) -> PyResult<Symmetry> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "none" => Symmetry::None,
        "rot180" => Symmetry::Rot180,
        "rot90" => Symmetry::Rot90,
        "mirror" => Symmetry::Mirror,
        "flip" => Symmetry::Flip,
        "diagonal" => Symmetry::Diagonal,
        "antidiagonal" => Symmetry::Antidiagonal,
        _ => {
            return Err(PyValueError::new_err(format!(
                "symmetry {name:?}: expected none, rot180, rot90, mirror, flip, diagonal or \
                 antidiagonal"
            )))
        }
    })
}

/// `n` proper puzzles: the rows `sudoflow generate -n N --seed SEED` writes
/// with the same options, whatever `threads` is.
#[pyfunction]
#[pyo3(signature = (n, *, seed, clues = None, wnf_level = None, symmetry = None, minimal = true,
    guesses = None, se = None, max_tries = 100_000, threads = None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    n: u64,
    seed: u64,
    clues: Option<&Bound<'_, PyAny>>,
    wnf_level: Option<&Bound<'_, PyAny>>,
    symmetry: Option<&str>,
    minimal: bool,
    guesses: Option<&Bound<'_, PyAny>>,
    se: Option<&Bound<'_, PyAny>>,
    max_tries: u64,
    threads: Option<usize>,
) -> PyResult<PyTable> {
    use sudoflow::generator::spans::{parse_clues, parse_guesses, parse_se, parse_wnf_level};
    let default_clues = if minimal { 17..=81 } else { 17..=80 };
    let se = match se {
        None => None,
        Some(v) => Some(
            if let Ok(s) = v.extract::<String>() {
                parse_se(&s)
            } else if let Ok((a, b)) = v.extract::<(f64, f64)>() {
                parse_se(&format!("{a:.1}..{b:.1}"))
            } else if let Ok(a) = v.extract::<f64>() {
                parse_se(&format!("{a:.1}"))
            } else {
                Err("expected a rating, a (min, max) pair or text such as \"7.0..8.0\"".into())
            }
            .map_err(|e| PyValueError::new_err(format!("se: {e}")))?,
        ),
    };
    let opts = GenerateOptions {
        symmetry: symmetry
            .map(self::symmetry)
            .transpose()?
            .unwrap_or_default(),
        minimal,
        clues: span(clues, parse_clues, "clues")?.unwrap_or(default_clues),
        wnf_level: span(wnf_level, parse_wnf_level, "wnf_level")?.unwrap_or(1..=4),
        guesses: span(guesses, parse_guesses, "guesses")?.unwrap_or(0..=u64::MAX),
        se: se.clone(),
        ..GenerateOptions::default()
    };
    if max_tries == 0 {
        return Err(PyValueError::new_err("max_tries must be at least 1"));
    }
    let threads = check_threads(threads)?;
    let mut header: Vec<&str> = SOLVE_HEADER.to_vec();
    if se.is_some() {
        header.extend(["er", "ep", "ed"]);
    }
    header.push("seed");
    py.detach(|| {
        let make = |gen: &mut Generator, index: u64| -> Option<Generated> {
            let mut seeds = seed_stream(seed, index);
            (0..max_tries).find_map(|_| gen.candidate(seeds.next_u64()).ok())
        };
        let made: Vec<Option<Generated>> = if threads <= 1 {
            let mut gen = Generator::new(opts.clone());
            (1..=n).map(|i| make(&mut gen, i)).collect()
        } else {
            pool(threads)?.install(|| {
                (1..=n)
                    .into_par_iter()
                    .map_init(|| Generator::new(opts.clone()), |g, i| make(g, i))
                    .collect()
            })
        };
        let limit = SolveOptions::default().limit;
        let mut rows = Vec::with_capacity(made.len());
        for (index, p) in (1..).zip(made) {
            let Some(p) = p else {
                return Err(PyRuntimeError::new_err(format!(
                    "puzzle {index}: none of {max_tries} candidates passed the filters; loosen \
                     clues, wnf_level, guesses or se, or raise max_tries"
                )));
            };
            rows.push(GeneratedRow {
                row: SolveRow::solved(index, &p.puzzle, &p.outcome, limit),
                se: p.se,
                seed: p.seed,
            });
        }
        to_table(&header, &rows)
    })
}

/// A Sudoku grid: 81 cells, row-major, 0 for a blank.
#[pyclass(module = "sudoflow", name = "Grid", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct PyGrid(Grid);

#[pymethods]
impl PyGrid {
    /// Parses 81 cells (`1`-`9` givens; `.`, `0` or `_` blanks).
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

    /// The value at zero-based (row, column), 0 for blank.
    fn __getitem__(&self, at: (usize, usize)) -> PyResult<u8> {
        let (r, c) = at;
        if r >= 9 || c >= 9 {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "cell ({r}, {c}) is outside the 9x9 grid"
            )));
        }
        Ok(self.0.get(9 * r + c))
    }

    /// Whether no two givens clash (same digit twice in a row, column or box).
    fn is_valid(&self) -> bool {
        self.0.check_givens().is_ok()
    }

    /// The one solution, or `None` when there is none or more than one.
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

/// Parses a puzzle; `ValueError` names the problem.
#[pyfunction]
fn parse(text: &str) -> PyResult<PyGrid> {
    Grid::parse(text.trim())
        .map(PyGrid)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Whether `puzzle` is 81 cells whose givens do not clash.
#[pyfunction]
fn is_valid(puzzle: &str) -> bool {
    Grid::parse(puzzle.trim()).is_ok_and(|g| g.check_givens().is_ok())
}

/// The solution of a puzzle with exactly one, else `None`; `ValueError`
/// for text that is not a puzzle or whose givens clash.
#[pyfunction]
fn solution(py: Python<'_>, puzzle: &str) -> PyResult<Option<String>> {
    let grid = Grid::parse(puzzle.trim()).map_err(|e| PyValueError::new_err(e.to_string()))?;
    grid.check_givens()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(py.detach(|| unique_solution(&grid)).map(|g| g.to_line()))
}

#[pymodule]
fn _sudoflow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(solve_file, m)?)?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(solution, m)?)?;
    m.add_class::<PyGrid>()?;
    m.add("SOLVE_COLUMNS", SOLVE_HEADER.to_vec())?;
    m.add("COUNT_COLUMNS", COUNT_HEADER.to_vec())?;
    m.add("RATE_COLUMNS", RATE_HEADER.to_vec())?;
    Ok(())
}

impl Row for SolveRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        self.fill_record(record);
    }
}

impl Row for CountRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        record.clear();
        for f in self.fields() {
            record.push_field(f.as_bytes());
        }
    }
}

impl Row for RateRow {
    fn fill(&self, record: &mut csv::ByteRecord) {
        record.clear();
        for f in self.fields() {
            record.push_field(f.as_bytes());
        }
    }
}
