//! Where a command's CSV rows go, safely: atomic output files, resumable
//! runs, and the end of a run (complete, failed or stopped by a signal).
//!
//! `-o FILE` writes `FILE.partial` beside `FILE`, plus a small sidecar
//! `FILE.partial.json` (the run's fingerprint, below). When the run completes
//! (exit 0, or 1 for `--strict`'s invalid records or `generate`'s
//! `--max-tries`/`--time-budget`, whose output is then what the run was
//! asked to give), [`RunOutput::commit`] flushes the rows, fsyncs
//! `FILE.partial`, renames it to `FILE`, fsyncs the folder and removes the
//! sidecar. So `FILE` appears whole or not at all, and an older `FILE` stays
//! as it was until then. A run that fails (exit 2: an input that cannot be
//! read mid-stream, a full disk) or is stopped by SIGINT/SIGTERM keeps
//! `FILE.partial`, flushed and fsynced, with every row written so far.
//!
//! `--resume` continues from `FILE.partial` ([`RunOutput::open`]):
//!
//! 1. the sidecar must match the run now asked for: the same command, the
//!    same sudoflow version, the same options that shape the rows
//!    ([`RunSpec::options`]) and the same inputs, each by path, size,
//!    modification time and the CRC-32 of its first MiB; otherwise the
//!    resume is refused with every difference named;
//! 2. a trailing incomplete row (a run killed while writing, SIGKILL
//!    included) is cut off: rows end with `\n` and no field holds one (an
//!    input record is one line; error messages are one line);
//! 3. the header and each row kept are checked against the inputs as they
//!    are read again ([`KeptRows::check`]): the row's `index` must be the
//!    record's and its `puzzle` the record's puzzle, so a different input
//!    that happens to share size and time is still caught, stdin included;
//! 4. those records are skipped (read and numbered, not worked on), and the
//!    new rows are appended.
//!
//! The file then holds exactly the bytes an uninterrupted run writes,
//! however often the run was stopped, since each row depends only on its
//! record and the options (`generate`: on its index and the seed).

use crate::output::{refuse_input_as_output, CsvSink};
use crate::pipeline::Record;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What makes a run's rows what they are: compared with the sidecar on
/// `--resume`.
#[derive(Debug, Clone)]
pub struct RunSpec {
    /// The subcommand, e.g. `solve`.
    pub command: &'static str,
    /// The inputs as given (`-` is stdin; empty for `generate`, and read as
    /// stdin by the input commands).
    pub inputs: Vec<PathBuf>,
    /// Every option that changes a row's text, by long name, with its
    /// value as text (e.g. `("limit", "2")`). Options that do not (`-j`,
    /// `--batch-size`, `--quiet`) are left out, so a run may be resumed with
    /// other values of them.
    pub options: Vec<(&'static str, String)>,
    /// The CSV header, in column order.
    pub header: Vec<String>,
    /// The rows' format (`--format`, or `-o`'s extension); only CSV can be
    /// resumed.
    pub format: crate::output::Format,
    /// Whether the command has `--resume`. A stopped run of a command
    /// without it still keeps `FILE.partial`, and says to delete it.
    pub resumable: bool,
}

/// The sidecar `FILE.partial.json`.
#[derive(Debug, Serialize, Deserialize)]
struct Sidecar {
    /// `sudoflow` version that wrote the rows.
    sudoflow: String,
    command: String,
    inputs: Vec<InputPrint>,
    options: Vec<(String, String)>,
}

/// A cheap fingerprint of one input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct InputPrint {
    /// As given on the command line.
    path: String,
    /// Canonical path (empty for stdin).
    canonical: String,
    /// Bytes (0 for stdin).
    size: u64,
    /// Modification time, nanoseconds since the Unix epoch (0 for stdin).
    mtime_ns: u128,
    /// CRC-32 (IEEE) of the first [`HEAD_BYTES`] bytes (0 for stdin).
    head_crc32: u32,
}

/// Bytes of each input that the fingerprint hashes.
const HEAD_BYTES: u64 = 1 << 20;

/// How often rows are pushed to the file in a long run (not fsynced: for a
/// run killed with SIGKILL, whose rows in the buffer are lost and redone).
const FLUSH_EVERY: Duration = Duration::from_secs(1);

impl InputPrint {
    fn of(path: &Path) -> anyhow::Result<InputPrint> {
        let shown = path.display().to_string();
        if path.as_os_str() == "-" {
            return Ok(InputPrint {
                path: shown,
                canonical: String::new(),
                size: 0,
                mtime_ns: 0,
                head_crc32: 0,
            });
        }
        let cannot = || format!("cannot read input {shown}");
        let meta = std::fs::metadata(path).with_context(cannot)?;
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        let mut head = Vec::new();
        File::open(path)
            .and_then(|f| f.take(HEAD_BYTES).read_to_end(&mut head))
            .with_context(cannot)?;
        Ok(InputPrint {
            canonical: std::fs::canonicalize(path)
                .map_or_else(|_| shown.clone(), |p| p.display().to_string()),
            path: shown,
            size: meta.len(),
            mtime_ns,
            head_crc32: crc32fast::hash(&head),
        })
    }
}

impl Sidecar {
    fn of(spec: &RunSpec) -> anyhow::Result<Sidecar> {
        Ok(Sidecar {
            sudoflow: env!("CARGO_PKG_VERSION").to_string(),
            command: spec.command.to_string(),
            inputs: spec
                .inputs
                .iter()
                .map(|p| InputPrint::of(p))
                .collect::<anyhow::Result<_>>()?,
            options: spec
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        })
    }

    /// What differs between the interrupted run (`self`) and `now`, one
    /// phrase each.
    fn differences(&self, now: &Sidecar) -> Vec<String> {
        let mut diffs = Vec::new();
        if self.command != now.command {
            diffs.push(format!(
                "it was written by `sudoflow {}`, not `sudoflow {}`",
                self.command, now.command
            ));
            return diffs;
        }
        if self.sudoflow != now.sudoflow {
            diffs.push(format!(
                "it was written by sudoflow {}, this is {}",
                self.sudoflow, now.sudoflow
            ));
        }
        for (name, then) in &self.options {
            match now.options.iter().find(|(n, _)| n == name) {
                Some((_, v)) if v == then => {}
                Some((_, v)) => diffs.push(format!("--{name} was {then}, now {v}")),
                None => diffs.push(format!("option --{name} is unknown to this version")),
            }
        }
        if self.inputs.len() != now.inputs.len() {
            let list = |v: &[InputPrint]| {
                v.iter()
                    .map(|i| i.path.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            diffs.push(format!(
                "the inputs were [{}], now [{}]",
                list(&self.inputs),
                list(&now.inputs)
            ));
            return diffs;
        }
        for (k, (then, now)) in self.inputs.iter().zip(&now.inputs).enumerate() {
            let n = k + 1;
            if then.canonical != now.canonical {
                diffs.push(format!("input {n} was {}, now {}", then.path, now.path));
            } else if then.size != now.size {
                diffs.push(format!(
                    "input {} was {} bytes, now {}",
                    now.path, then.size, now.size
                ));
            } else if then.head_crc32 != now.head_crc32 {
                diffs.push(format!("input {}: its first MiB changed", now.path));
            } else if then.mtime_ns != now.mtime_ns {
                diffs.push(format!(
                    "input {} was modified since (its modification time changed)",
                    now.path
                ));
            }
        }
        diffs
    }
}

/// `FILE` with `suffix` appended to its name (`out.csv` -> `out.csv.partial`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The partial file of output `path`: `path` + `.partial`.
pub fn partial_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial")
}

/// The sidecar of output `path`: `path` + `.partial.json`.
pub fn sidecar_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial.json")
}

/// One option's value as the sidecar of output `path` stored it (e.g.
/// `generate`'s drawn `seed`), if there is such a sidecar.
pub fn stored_option(path: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(sidecar_path(path)).ok()?;
    let sidecar: Sidecar = serde_json::from_str(&text).ok()?;
    sidecar
        .options
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

/// fsyncs the folder holding `path`, so that a rename or a new name in it
/// is durable.
fn sync_dir(path: &Path) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    #[cfg(unix)]
    {
        File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        Ok(())
    }
}

/// Writes `text` to `path` atomically against a killed process (a temporary
/// name, then rename). Not fsynced: after a power loss the file may be
/// empty, which makes `--resume` refuse (never resume wrongly); the fsyncs
/// that matter are those of the output at its end (BENCHMARKS.md, "Atomic
/// output": each fsync costs about 10 ms of wall time here).
fn write_atomic(path: &Path, text: &[u8]) -> anyhow::Result<()> {
    let tmp = with_suffix(path, ".tmp");
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(text)?;
        std::fs::rename(&tmp, path)
    };
    write().with_context(|| format!("cannot write {}", path.display()))
}

/// A run's output: stdout, or `FILE` through `FILE.partial`.
pub struct RunOutput {
    /// `None` for stdout.
    file: Option<OutFile>,
    /// [`RunSpec::resumable`].
    resumable: bool,
    /// The command line that continues this run (for the signal summary).
    resume_command: String,
    last_flush: Instant,
}

/// The files behind `-o FILE`.
struct OutFile {
    path: PathBuf,
    partial: PathBuf,
    sidecar: PathBuf,
    /// A second handle on `partial`, for fsync.
    sync: File,
}

/// The rows an interrupted run left in `FILE.partial`, read back in step
/// with the inputs by [`KeptRows::check`].
pub struct KeptRows {
    rows: csv::Reader<std::io::Take<BufReader<File>>>,
    name: String,
    row: csv::ByteRecord,
    columns: usize,
    index_col: Option<usize>,
    puzzle_col: Option<usize>,
    status_col: Option<usize>,
    /// Rows read back so far.
    kept: u64,
    /// Whether every kept row has been read.
    exhausted: bool,
    /// Rows per status, in order of first appearance.
    statuses: Vec<(String, u64)>,
    /// Rows may skip records (`canon --distinct`): indices only increase.
    sparse: bool,
    /// Sparse: a row read but not yet matched to its record.
    pending: bool,
    /// Sparse: the index of the last row read.
    last_index: u64,
}

impl KeptRows {
    /// The next kept row, if any; checks its shape and `index`.
    fn next_row(&mut self) -> anyhow::Result<bool> {
        if self.exhausted {
            return Ok(false);
        }
        let row_no = self.kept + 1;
        let more = self
            .rows
            .read_byte_record(&mut self.row)
            .with_context(|| format!("{}: row {row_no} cannot be read back", self.name))?;
        if !more {
            self.exhausted = true;
            return Ok(false);
        }
        if self.row.len() != self.columns {
            bail!(
                "{}: row {row_no} has {} columns, the header {}: the file is damaged",
                self.name,
                self.row.len(),
                self.columns
            );
        }
        if let (true, Some(c)) = (self.sparse, self.index_col) {
            let index = std::str::from_utf8(&self.row[c])
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
                .filter(|&i| i > self.last_index);
            let Some(index) = index else {
                bail!(
                    "{}: row {row_no} has index {:?}, not above the row before's {}: the file \
                     is damaged",
                    self.name,
                    String::from_utf8_lossy(&self.row[c]),
                    self.last_index
                );
            };
            self.last_index = index;
        } else if let Some(c) = self.index_col {
            if self.row[c] != *row_no.to_string().as_bytes() {
                bail!(
                    "{}: row {row_no} has index {:?}: the file is damaged",
                    self.name,
                    String::from_utf8_lossy(&self.row[c])
                );
            }
        }
        if let Some(c) = self.status_col {
            let status = String::from_utf8_lossy(&self.row[c]);
            match self.statuses.iter_mut().find(|(s, _)| *s == status) {
                Some((_, n)) => *n += 1,
                None => self.statuses.push((status.into_owned(), 1)),
            }
        }
        self.kept += 1;
        Ok(true)
    }

    /// Whether `record` (the next record of the inputs) already has its row:
    /// `Ok(true)` if a kept row is left, after checking that it is this
    /// record's (its `index` and `puzzle` columns); `Ok(false)` once every
    /// kept row has been matched.
    ///
    /// Errors: the row is not this record's (the inputs are not those of
    /// the interrupted run), or the file is damaged.
    pub fn check(&mut self, record: &Record) -> anyhow::Result<bool> {
        if self.sparse {
            return self.check_sparse(record);
        }
        if !self.next_row()? {
            return Ok(false);
        }
        self.check_puzzle(record)?;
        Ok(true)
    }

    /// Rows with gaps in their indices ([`KeptRows::set_sparse`]): a record
    /// before the next kept row's index is skipped (the interrupted run
    /// wrote no row for it), the record at that index is checked against
    /// the row, and once every row is matched, records are worked on again.
    fn check_sparse(&mut self, record: &Record) -> anyhow::Result<bool> {
        if !self.pending {
            if !self.next_row()? {
                return Ok(false);
            }
            self.pending = true;
        }
        if record.index < self.last_index {
            return Ok(true);
        }
        if record.index > self.last_index {
            bail!(
                "{}: row {} has index {}, but the inputs' records went past it: the file is \
                 damaged",
                self.name,
                self.kept,
                self.last_index
            );
        }
        self.pending = false;
        self.check_puzzle(record)?;
        Ok(true)
    }

    /// Lets rows skip records: their `index` column must only increase
    /// (`canon --distinct` writes no row for a repeated class). Records up
    /// to the last kept row's index are skipped.
    pub fn set_sparse(&mut self) {
        self.sparse = true;
    }

    /// Checks the kept row just read against `record` (its `puzzle`).
    fn check_puzzle(&mut self, record: &Record) -> anyhow::Result<()> {
        if let Some(c) = self.puzzle_col {
            // A parsed record's row may write its blanks as `--blank` asks
            // (`0`, `_`): the kept puzzle must be the same grid. Any other
            // record's row holds its text as read.
            let (want, same) = match &record.grid {
                Ok(grid) => {
                    let kept = std::str::from_utf8(&self.row[c]).ok();
                    let parsed = kept.and_then(|k| crate::grid::Grid::parse(k).ok());
                    (grid.to_line(), parsed.as_ref() == Some(grid))
                }
                Err(_) => (record.raw.clone(), self.row[c] == *record.raw.as_bytes()),
            };
            if !same {
                bail!(
                    "cannot resume: row {} of {} is for puzzle {:?}, but record {} of the \
                     inputs ({}:{}) is {:?}: the inputs are not those of the interrupted run",
                    self.kept,
                    self.name,
                    String::from_utf8_lossy(&self.row[c]),
                    record.index,
                    record.source,
                    record.line,
                    want
                );
            }
        }
        Ok(())
    }

    /// Reads every kept row (checking their shape and `index`), for a
    /// command without inputs (`generate`), calling `each` with each row's
    /// index and `puzzle` column (to rebuild state the rows carry, e.g. the
    /// classes `--distinct` has written); returns how many rows there are.
    ///
    /// Errors: the file is damaged, or `each`'s.
    pub fn drain(
        &mut self,
        mut each: impl FnMut(u64, &str) -> anyhow::Result<()>,
    ) -> anyhow::Result<u64> {
        while self.next_row()? {
            let puzzle = self
                .puzzle_col
                .map(|c| String::from_utf8_lossy(&self.row[c]).into_owned())
                .unwrap_or_default();
            each(self.kept, &puzzle)?;
        }
        Ok(self.kept)
    }

    /// Rows kept.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// Checks that the inputs had a record for every kept row.
    ///
    /// Errors: rows are left over (the inputs are shorter than those of the
    /// interrupted run).
    pub fn finish(&mut self) -> anyhow::Result<()> {
        if self.pending || self.next_row()? {
            bail!(
                "cannot resume: {} has more rows than the inputs have records ({}): the \
                 inputs are not those of the interrupted run",
                self.name,
                self.kept - 1
            );
        }
        Ok(())
    }

    /// Adds the kept rows' statuses to `counts`, whose slots are named by
    /// `names`.
    ///
    /// Errors: a kept row has a status not in `names` (a damaged file).
    pub fn add_counts(&self, names: &[&str], counts: &mut [u64]) -> anyhow::Result<()> {
        for (status, n) in &self.statuses {
            let Some(k) = names.iter().position(|s| s == status) else {
                bail!("{}: a row has the unknown status {status:?}", self.name);
            };
            counts[k] += n;
        }
        Ok(())
    }
}

impl RunOutput {
    /// Opens the run's output and writes the header (unless resumed):
    /// stdout for `None` or `-`; `path` itself if it is under `/dev` or
    /// `/proc` or exists and is not a regular file (`/dev/null`, a FIFO);
    /// else `path.partial` (see the module doc), beside the file a
    /// symbolic link `path` leads to.
    /// With `resume`, continues `path.partial` if it exists, after checking
    /// its sidecar against `spec`; the [`KeptRows`] then tell which records
    /// to skip. Without `resume`, an existing `path.partial` is refused (it
    /// holds an interrupted run's rows).
    ///
    /// Errors: `path` is one of the inputs; `--resume` without a file;
    /// `path.partial` exists without `resume`; the sidecar is missing,
    /// unreadable or differs from `spec` (the message lists what differs);
    /// the header kept differs; a file cannot be created or written.
    pub fn open(
        path: Option<&Path>,
        spec: &RunSpec,
        resume: bool,
    ) -> anyhow::Result<(RunOutput, CsvSink, Option<KeptRows>)> {
        let resume_command = resume_command();
        // Stdout, files that are not regular files (`/dev/null`, a FIFO)
        // and anything under /dev or /proc (`/dev/stdout` may lead to a
        // regular file, and /dev/stdout itself must never be renamed over)
        // are written directly: they cannot be replaced, nor resumed.
        let direct = match path {
            Some(p) if p.as_os_str() != "-" => {
                let special = p.starts_with("/dev")
                    || p.starts_with("/proc")
                    || std::fs::metadata(p).is_ok_and(|m| !m.is_file());
                special.then_some(p)
            }
            _ => Some(Path::new("-")),
        };
        if let Some(direct) = direct {
            if resume {
                bail!(
                    "--resume needs -o FILE, a regular file: a run writing to {} cannot be \
                     resumed",
                    if direct.as_os_str() == "-" {
                        "stdout".to_string()
                    } else {
                        direct.display().to_string()
                    }
                );
            }
            let mut sink = CsvSink::create_as(Some(direct), &spec.inputs, spec.format)?;
            sink.write_record(&spec.header)?;
            let out = RunOutput {
                file: None,
                resumable: spec.resumable,
                resume_command,
                last_flush: Instant::now(),
            };
            return Ok((out, sink, None));
        }
        let path = path.expect("not direct");
        refuse_input_as_output(path, &spec.inputs)?;
        if resume && spec.format != crate::output::Format::Csv {
            bail!(
                "--resume reads the rows an interrupted run kept as CSV: a run writing {} \
                 cannot be resumed",
                spec.format.name()
            );
        }
        // A symbolic link stays one: the file it leads to is replaced.
        let target = std::fs::symlink_metadata(path)
            .is_ok_and(|m| m.file_type().is_symlink())
            .then(|| {
                std::fs::canonicalize(path).ok().or_else(|| {
                    // A link to a file not there yet.
                    let to = std::fs::read_link(path).ok()?;
                    Some(path.parent().map_or(to.clone(), |dir| dir.join(&to)))
                })
            })
            .flatten();
        let path = target.as_deref().unwrap_or(path);
        let partial = partial_path(path);
        let sidecar = sidecar_path(path);
        let name = partial.display().to_string();
        let now = Sidecar::of(spec)?;
        let exists = partial.exists();
        if exists && !resume {
            if !spec.resumable {
                bail!(
                    "{name} exists: it holds the rows of an interrupted run (`sudoflow {}` \
                     cannot resume it): delete it to start over",
                    spec.command
                );
            }
            bail!(
                "{name} exists: it holds the rows of an interrupted run. Add --resume to \
                 continue that run, or delete it to start over"
            );
        }
        if !exists && resume {
            eprintln!("sudoflow: --resume: no {name} to continue, starting the run afresh");
        }
        let (file, kept) = if exists {
            let text = std::fs::read_to_string(&sidecar).with_context(|| {
                format!(
                    "cannot resume {name}: its sidecar {} cannot be read (delete {name} to \
                     start over)",
                    sidecar.display()
                )
            })?;
            let then: Sidecar = serde_json::from_str(&text)
                .with_context(|| format!("cannot resume: {} is damaged", sidecar.display()))?;
            let diffs = then.differences(&now);
            if !diffs.is_empty() {
                bail!(
                    "cannot resume {name}: {} (resume with the inputs and options of the \
                     interrupted run, or delete {name} to start over)",
                    diffs.join("; ")
                );
            }
            let (file, len) =
                cut_incomplete_row(&partial).with_context(|| format!("cannot resume {name}"))?;
            let rows = csv::ReaderBuilder::new()
                .has_headers(false)
                .flexible(true)
                .from_reader(BufReader::new(File::open(&partial)?).take(len));
            let column = |name: &str| spec.header.iter().position(|h| h == name);
            let mut kept = KeptRows {
                rows,
                name: name.clone(),
                row: csv::ByteRecord::new(),
                columns: spec.header.len(),
                index_col: column("index"),
                puzzle_col: column("puzzle"),
                status_col: column("status"),
                kept: 0,
                exhausted: len == 0,
                statuses: Vec::new(),
                sparse: false,
                pending: false,
                last_index: 0,
            };
            if len > 0 {
                let mut header = csv::StringRecord::new();
                kept.rows.read_record(&mut header)?;
                if header.iter().ne(spec.header.iter()) {
                    bail!(
                        "cannot resume {name}: its header is {:?}, this run's {:?}",
                        header.iter().collect::<Vec<_>>().join(","),
                        spec.header.join(",")
                    );
                }
            }
            (file, Some((kept, len)))
        } else {
            // The sidecar first: a partial file always has one.
            let mut json = serde_json::to_vec_pretty(&now)?;
            json.push(b'\n');
            write_atomic(&sidecar, &json)?;
            let file =
                File::create(&partial).with_context(|| format!("cannot create output {name}"))?;
            (file, None)
        };
        let sync = file
            .try_clone()
            .with_context(|| format!("cannot write {name}"))?;
        let mut sink = CsvSink::to_writer_as(Box::new(file), name, spec.format)?;
        let kept = match kept {
            Some((kept, len)) => {
                if len == 0 {
                    // Killed before the header was written.
                    sink.write_record(&spec.header)?;
                }
                Some(kept)
            }
            None => {
                sink.write_record(&spec.header)?;
                None
            }
        };
        let out = RunOutput {
            file: Some(OutFile {
                path: path.to_path_buf(),
                partial,
                sidecar,
                sync,
            }),
            resumable: spec.resumable,
            resume_command,
            last_flush: Instant::now(),
        };
        Ok((out, sink, kept))
    }

    /// `FILE.partial`, where the rows go (`None` for stdout and files
    /// written directly).
    pub fn partial(&self) -> Option<&Path> {
        self.file.as_ref().map(|f| f.partial.as_path())
    }

    /// Call after each row: pushes the buffered rows to the file once a
    /// second, so that a run killed outright (SIGKILL) loses at most about
    /// a second of rows to redo. Costs one clock read per row.
    ///
    /// Errors: the write's.
    pub fn row_written(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        if self.file.is_some() && self.last_flush.elapsed() >= FLUSH_EVERY {
            sink.flush()?;
            self.last_flush = Instant::now();
        }
        Ok(())
    }

    /// Ends a run of the pipeline (`solve`, `count`, `rate`): `result` is
    /// [`crate::pipeline::run_resumed`]'s, `kept` the rows resumed, `counts`
    /// the rows written per status named in `names` (the kept rows' are
    /// added, so the summary covers the whole file). Then, by the way the
    /// run ended:
    /// - an error: [`RunOutput::fail`] (the rows stay in `FILE.partial`);
    /// - a signal: [`RunOutput::interrupted`] (exit 130 or 143);
    /// - the end of the inputs: checks that every kept row had its record,
    ///   [`RunOutput::commit`], and [`crate::pipeline::Summary::finish`]
    ///   (exit 0, or 1 for `strict` and invalid records).
    ///
    /// Errors: the run's, a kept row without its record, or the output's.
    #[allow(clippy::too_many_arguments)]
    pub fn finish(
        self,
        sink: CsvSink,
        result: anyhow::Result<crate::pipeline::Summary>,
        kept: Option<&mut KeptRows>,
        names: &[&str],
        counts: &mut [u64],
        quiet: bool,
        strict: bool,
    ) -> anyhow::Result<std::process::ExitCode> {
        let signal = crate::interrupt::requested();
        let settled = result.and_then(|summary| {
            if let Some(kept) = kept {
                if signal.is_none() {
                    kept.finish()?;
                }
                kept.add_counts(names, counts)?;
            }
            Ok(summary)
        });
        let summary = match settled {
            Ok(summary) => summary,
            Err(e) => return Err(self.fail(sink, e)),
        };
        let named: Vec<(&str, u64)> = names.iter().copied().zip(counts.iter().copied()).collect();
        if let Some(signal) = signal {
            return self.interrupted(sink, signal, &summary.line(&named));
        }
        self.commit(sink)?;
        Ok(summary.finish(&named, quiet, strict))
    }

    /// Flushes the rows and fsyncs the partial file (stdout: flushes).
    fn sync(&self, sink: &mut CsvSink) -> anyhow::Result<()> {
        // A Parquet file's footer too: FILE.partial of a stopped run reads.
        sink.finish()?;
        if let Some(f) = &self.file {
            f.sync
                .sync_all()
                .with_context(|| format!("cannot write {}", f.partial.display()))?;
        }
        Ok(())
    }

    /// Ends a complete run: flush, fsync, rename `FILE.partial` to `FILE`,
    /// fsync the folder, remove the sidecar. Stdout is only flushed.
    ///
    /// Errors: any of these steps' (the partial file then stays).
    pub fn commit(self, mut sink: CsvSink) -> anyhow::Result<()> {
        self.sync(&mut sink)?;
        drop(sink);
        if let Some(f) = &self.file {
            std::fs::rename(&f.partial, &f.path).with_context(|| {
                format!(
                    "cannot rename {} to {}",
                    f.partial.display(),
                    f.path.display()
                )
            })?;
            sync_dir(&f.path).with_context(|| format!("cannot write {}", f.path.display()))?;
            // A sidecar left behind by a crash here is harmless: the next
            // run without a partial file writes a new one.
            let _ = std::fs::remove_file(&f.sidecar);
        }
        Ok(())
    }

    /// Ends a run that failed with `error` (exit 2): keeps the rows written
    /// (flushed and fsynced in `FILE.partial`) and says so in the error.
    pub fn fail(self, mut sink: CsvSink, error: anyhow::Error) -> anyhow::Error {
        let synced = self.sync(&mut sink);
        match (&self.file, synced) {
            (Some(f), Ok(())) if self.resumable => error.context(format!(
                "the rows written so far are kept in {} (--resume continues the run \
                 once the inputs read again, unchanged)",
                f.partial.display()
            )),
            (Some(f), Ok(())) => error.context(format!(
                "the rows written so far are kept in {}",
                f.partial.display()
            )),
            (_, Err(e)) => error.context(format!("{e:#}")),
            (None, Ok(())) => error,
        }
    }

    /// Ends a run stopped by `signal`: flush and fsync the rows written, then
    /// print one line on stderr: `summary`, where the rows are and the exact
    /// command that continues the run. Returns the exit status (128 + signal).
    ///
    /// Errors: the flush's or fsync's.
    pub fn interrupted(
        self,
        mut sink: CsvSink,
        signal: i32,
        summary: &str,
    ) -> anyhow::Result<std::process::ExitCode> {
        self.sync(&mut sink)?;
        let name = crate::interrupt::name(signal);
        match &self.file {
            Some(f) if !self.resumable => eprintln!(
                "sudoflow: stopped by {name}: {summary}; the rows are in {} (this command \
                 cannot be resumed: delete it to run again)",
                f.partial.display()
            ),
            Some(f) => eprintln!(
                "sudoflow: stopped by {name}: {summary}; the rows are in {}; continue with: {}",
                f.partial.display(),
                self.resume_command
            ),
            None => eprintln!(
                "sudoflow: stopped by {name}: {summary}; every row written is whole (use -o \
                 FILE, a regular file, to be able to --resume)"
            ),
        }
        Ok(std::process::ExitCode::from(crate::interrupt::exit_status(
            signal,
        )))
    }
}

/// Cuts `partial` after its last `\n` (a row cut short by a kill is not
/// data), fsyncs it, and returns it opened for appending with its new length.
fn cut_incomplete_row(partial: &Path) -> std::io::Result<(File, u64)> {
    let mut f = OpenOptions::new().read(true).write(true).open(partial)?;
    let len = f.metadata()?.len();
    // Look back in blocks for the last newline.
    let mut end = len;
    let mut buf = vec![0u8; 64 * 1024];
    let keep = loop {
        if end == 0 {
            break 0;
        }
        let start = end.saturating_sub(buf.len() as u64);
        let chunk = &mut buf[..(end - start) as usize];
        f.seek(SeekFrom::Start(start))?;
        f.read_exact(chunk)?;
        if let Some(k) = memchr::memrchr(b'\n', chunk) {
            break start + k as u64 + 1;
        }
        end = start;
    };
    if keep < len {
        f.set_len(keep)?;
        f.sync_all()?;
    }
    f.seek(SeekFrom::Start(keep))?;
    Ok((f, keep))
}

/// This process's command line, shell-quoted, with `--resume` added if it
/// is not there.
fn resume_command() -> String {
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let mut words: Vec<String> = args
        .iter()
        .map(|a| shlex::try_quote(a).map_or_else(|_| a.clone(), |q| q.into_owned()))
        .collect();
    if !args.iter().any(|a| a == "--resume") {
        words.push("--resume".to_string());
    }
    words.join(" ")
}
