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
//! A run holds an exclusive lock (`flock`) on `FILE.partial` while it
//! writes it, so a second run given the same `-o` at the same time,
//! resumed or not, is refused rather than writing into the first's rows.
//!
//! **Checkpoints.** The bytes written to `FILE.partial` go through a running
//! hash (XXH3-64). At least once a second while rows are being written, and
//! whenever the run flushes or stops, the rows are flushed and a checkpoint
//! is appended to the sidecar, one JSON object per line: the partial file's
//! length, the hash of all its bytes up to there, and how many records
//! (and rows) those bytes account for ([`RunOutput::row_written`],
//! [`RunOutput::record_without_row`]: `canon --distinct` consumes records
//! that get no row, and its checkpoints still advance).
//!
//! `--resume` continues from `FILE.partial` ([`RunOutput::open`]):
//!
//! 1. the sidecar must match the run now asked for: the same command, the
//!    same sudoflow version, the same options that shape the rows
//!    ([`RunSpec::options`]) and the same inputs, each by path, size,
//!    modification time and the CRC-32 of its first MiB (a pipe, FIFO or
//!    device, as stdin, by its path only: the kept rows' own columns are
//!    checked against the records read again); otherwise the
//!    resume is refused with every difference named;
//! 2. the partial file is verified against the checkpoints: it is read
//!    from the start through the same hash, and the longest prefix that
//!    ends at a checkpoint with the same hash is kept; everything after it
//!    is cut off and redone. After a kill (SIGKILL included) that is at most
//!    the last second's rows; if the file was changed after it was written
//!    (a byte altered, a row added or removed, a quote left open), the
//!    damage is named on stderr (byte offset and row) and the rows from the
//!    last checkpoint before it are redone, so the damage never reaches
//!    `FILE`;
//! 3. the header and each row kept are read back with the csv crate (or
//!    as JSON Lines) and checked against the inputs as they are read again
//!    ([`KeptRows::check`]): the row's `index` must be the record's and its
//!    `puzzle` the record's puzzle, so a different input that happens to
//!    share size and time is still caught, stdin included;
//! 4. the records the kept checkpoint accounts for are skipped (read and
//!    numbered, not worked on), and the new rows are appended.
//!
//! The file then holds exactly the bytes an uninterrupted run writes,
//! however often the run was stopped, since each row depends only on its
//! record and the options (`generate`: on its index and the seed). CSV and
//! JSON Lines runs can be resumed; a Parquet file is only readable once
//! its footer is written, so a Parquet run cannot.

use crate::output::{refuse_input_as_output, CsvSink, Format};
use crate::pipeline::Record;
use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use xxhash_rust::xxh3::Xxh3;

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
    /// The CSV header, in column order; empty for a command writing
    /// documents rather than rows (`explain`'s text and JSON, written with
    /// [`CsvSink::write_formatted`]): nothing is written before them.
    pub header: Vec<String>,
    /// Columns of `header` that the typed formats write as text whatever
    /// their names (`--keep`'s input columns, see
    /// [`crate::output::sink::column_kind_in`]); empty for most runs.
    pub text_columns: Vec<String>,
    /// The rows' format (`--format`, or `-o`'s extension); CSV and JSON
    /// Lines can be resumed, Parquet cannot.
    pub format: Format,
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
    /// Canonical path (empty for stdin; the path as given for a pipe, FIFO
    /// or device).
    canonical: String,
    /// Bytes (0 for stdin, a pipe, FIFO or device).
    size: u64,
    /// Modification time, nanoseconds since the Unix epoch (0 for stdin, a
    /// pipe, FIFO or device).
    mtime_ns: u128,
    /// CRC-32 (IEEE) of the first [`HEAD_BYTES`] bytes of a regular file (0
    /// for stdin; that of no bytes for a pipe, FIFO or device).
    head_crc32: u32,
}

/// Bytes of each input that the fingerprint hashes.
const HEAD_BYTES: u64 = 1 << 20;

/// How often rows are pushed to the file in a long run, with a checkpoint
/// (not fsynced: for a run killed with SIGKILL, whose rows in the buffer
/// and after the last checkpoint are lost and redone): a second.
///
/// For tests only: the environment variable `SUDOFLOW_TEST_FLUSH_MS` sets
/// it in milliseconds, so that runs killed after a few hundred
/// milliseconds have checkpoints to resume from. Read once per run.
fn flush_every() -> Duration {
    static EVERY: std::sync::OnceLock<Duration> = std::sync::OnceLock::new();
    *EVERY.get_or_init(|| {
        std::env::var("SUDOFLOW_TEST_FLUSH_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(Duration::from_secs(1), Duration::from_millis)
    })
}

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
        // A pipe, FIFO or device (`<(xzcat a.xz)`, /dev/fd/63) is printed
        // as stdin is: its time and its canonical name (`pipe:[N]`) change
        // with each run, so that no resume could go through (found by
        // probing, while the stop message offered one). Its rows' own
        // index and puzzle columns are checked against the records read
        // again, as for stdin.
        if !meta.is_file() {
            return Ok(InputPrint {
                canonical: shown.clone(),
                path: shown,
                size: 0,
                mtime_ns: 0,
                head_crc32: crc32fast::hash(&[]),
            });
        }
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        // Only a regular file's head is read (above: a pipe, FIFO or device
        // read here would hand those bytes to this fingerprint, not to the
        // reader, which opens the input again).
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
            // The rows' format shapes them too: a CSV file resumed as JSON
            // Lines is refused saying so, not read as a damaged file.
            options: spec
                .options
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .chain([("format".to_string(), spec.format.name().to_string())])
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
            } else if then.path != now.path {
                // The same file, spelt otherwise: the rows name their
                // records by the path as given (`source`, the errors), so
                // the resumed rows would name them otherwise than the kept.
                diffs.push(format!(
                    "input {n} was given as {}, now as {} (the rows name their records by the \
                     path as given: give it as before)",
                    then.path, now.path
                ));
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

/// Where a file written whole (a book, a picture) goes: `path`, or the file
/// a symbolic link at `path` leads to (the link stays one, as for
/// [`RunOutput::open`]); `None` when `path` is to be written directly, not
/// replaced: a file that is not a regular file (`/dev/null`, a FIFO, a
/// device), or anything under /dev or /proc (`/dev/stdout`).
pub fn replaced_path(path: &Path) -> Option<PathBuf> {
    let special = path.starts_with("/dev")
        || path.starts_with("/proc")
        || std::fs::metadata(path).is_ok_and(|m| !m.is_file());
    if special {
        return None;
    }
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
    Some(target.unwrap_or_else(|| path.to_path_buf()))
}

/// A file written whole beside `path` (a book, a picture) before it
/// replaces `path`: created under a name of its own (`.NAME.XXXXXX.partial`
/// in the same directory, made exclusively, so that neither a link planted
/// there nor another run writing the same `path` is written through), its
/// bytes synced; removed if dropped before [`Beside::replace`].
pub struct Beside {
    file: tempfile::NamedTempFile,
    path: PathBuf,
}

impl Beside {
    /// Writes `bytes` beside `path` (which [`replaced_path`] gave).
    ///
    /// Errors: the file cannot be created, written or synced (named).
    pub fn write(path: &Path, bytes: &[u8]) -> anyhow::Result<Beside> {
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = path
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        // As any new file: rw for whom the umask lets (tempfile's own
        // default is 0600), then the mode of the file it replaces.
        let mut file = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".partial")
            .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a file beside {}", path.display()))?;
        keep_mode(file.as_file(), path);
        file.write_all(bytes)
            .and_then(|()| file.as_file().sync_all())
            .with_context(|| format!("cannot write {}", file.path().display()))?;
        Ok(Beside {
            file,
            path: path.to_path_buf(),
        })
    }

    /// Renames the file over its `path` (one atomic step: a reader sees the
    /// old file or the new one).
    ///
    /// Errors: the rename fails (`path` is a directory, say); the file
    /// written is removed.
    pub fn replace(self) -> anyhow::Result<()> {
        let Beside { file, path } = self;
        file.persist(&path)
            .map(drop)
            .map_err(|e| anyhow::Error::new(e.error))
            .with_context(|| format!("cannot replace {}", path.display()))
    }
}

/// Gives `file`, written to replace `path`, the mode of the file at `path`
/// if there is one (a book or a CSV made 0640 stays so); a file not there
/// keeps the mode it was created with (0666 less the umask). Best effort:
/// a mode that cannot be set (another owner's file) is left as created.
pub fn keep_mode(file: &File, path: &Path) {
    if let Ok(meta) = std::fs::metadata(path) {
        if meta.is_file() {
            let _ = file.set_permissions(meta.permissions());
        }
    }
}

/// Whether `path` is the file `file` has open (same device and inode).
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// The sidecar of output `path`: `path` + `.partial.json`.
pub fn sidecar_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial.json")
}

/// A point up to which `FILE.partial` is known good: its first `bytes`
/// bytes hash to `xxh3` (XXH3-64, seed 0) and hold the outcome of the
/// first `records` records of the run, in `rows` rows (the header not
/// counted). Appended to the sidecar, one JSON object per line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Checkpoint {
    bytes: u64,
    xxh3: u64,
    records: u64,
    rows: u64,
}

impl Checkpoint {
    /// The empty file: always verified.
    fn start() -> Checkpoint {
        Checkpoint {
            bytes: 0,
            xxh3: Xxh3::new().digest(),
            records: 0,
            rows: 0,
        }
    }
}

/// A sidecar as read back: the run's fingerprint, then its checkpoints in
/// the order they were written. A line that does not parse (the last one,
/// cut by a kill) ends the list: the checkpoints before it still count.
fn read_sidecar(path: &Path) -> anyhow::Result<(Sidecar, Vec<Checkpoint>)> {
    let text = std::fs::read(path)?;
    let mut values = serde_json::Deserializer::from_slice(&text).into_iter::<serde_json::Value>();
    let first = values.next().context("it is empty")??;
    let sidecar: Sidecar = serde_json::from_value(first)?;
    let checkpoints = values
        .map_while(|v| v.ok().and_then(|v| serde_json::from_value(v).ok()))
        .collect();
    Ok((sidecar, checkpoints))
}

/// One option's value as the sidecar of output `path` stored it (e.g.
/// `generate`'s drawn `seed`), if there is such a sidecar.
pub fn stored_option(path: &Path, name: &str) -> Option<String> {
    let (sidecar, _) = read_sidecar(&sidecar_path(path)).ok()?;
    sidecar
        .options
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v)
}

/// The bytes that went into `FILE.partial` so far: their number and
/// running hash.
struct Written {
    bytes: u64,
    hash: Xxh3,
    /// A write or flush failed (a full disk): the file may end inside a
    /// row, past rows the run counts as not yet written, so no checkpoint
    /// may stand for it from then on ([`OutFile::checkpoint`]).
    failed: bool,
}

/// `FILE.partial` as the sink writes it: every byte written is counted
/// and hashed ([`Written`]) for the checkpoints.
struct Tracked {
    file: File,
    written: Arc<Mutex<Written>>,
}

impl Write for Tracked {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let written = self.file.write(buf);
        let mut w = self.written.lock().unwrap_or_else(|e| e.into_inner());
        match written {
            Ok(n) => {
                w.bytes += n as u64;
                w.hash.update(&buf[..n]);
                Ok(n)
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Err(e),
            Err(e) => {
                w.failed = true;
                Err(e)
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let flushed = self.file.flush();
        if flushed.is_err() {
            self.written
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .failed = true;
        }
        flushed
    }
}

/// What verifying a partial file against its checkpoints found.
struct Verified {
    /// The longest verified prefix.
    kept: Checkpoint,
    /// The running hash over it, to go on from.
    hash: Xxh3,
    /// The file's length before it was cut to `kept`.
    len: u64,
    /// The first checkpoint after `kept` that the file does not match
    /// (it was changed after it was written), if any.
    broken: Option<Checkpoint>,
}

/// Reads `partial` from the start through the checkpoints' hash and finds
/// the longest prefix that ends at a checkpoint with the same hash
/// ([`Checkpoint::start`], the empty file, at least).
fn verify(partial: &mut File, checkpoints: &[Checkpoint]) -> std::io::Result<Verified> {
    let len = partial.metadata()?.len();
    let mut marks: Vec<Checkpoint> = checkpoints.to_vec();
    marks.sort_by_key(|c| (c.bytes, c.records));
    partial.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(1 << 16, &*partial);
    let mut hash = Xxh3::new();
    let (mut at, mut kept, mut kept_hash) = (0u64, Checkpoint::start(), Xxh3::new());
    for mark in marks {
        if mark.bytes > len {
            break;
        }
        let mut rest = mark.bytes - at;
        while rest > 0 {
            let buf = reader.fill_buf()?;
            if buf.is_empty() {
                break;
            }
            let n = buf.len().min(rest as usize);
            hash.update(&buf[..n]);
            reader.consume(n);
            rest -= n as u64;
            at += n as u64;
        }
        if at == mark.bytes && hash.digest() == mark.xxh3 {
            kept = mark;
            kept_hash = hash.clone();
        }
    }
    let broken = checkpoints
        .iter()
        .copied()
        .filter(|c| c.bytes > kept.bytes || (c.bytes == kept.bytes && c.records > kept.records))
        .min_by_key(|c| c.bytes);
    Ok(Verified {
        kept,
        hash: kept_hash,
        len,
        broken,
    })
}

/// Refuses an output `path` that is another run's partial file or its
/// sidecar (`-o out.csv.partial` beside a run writing out.csv): this run's
/// rename at its end would replace that run's rows, and that run's rename
/// would then put these rows in its FILE (found by probing: both exited 0,
/// one run's rows lost). A partial file is another run's while a run holds
/// its lock, or while its sidecar lies beside it (an interrupted run's).
///
/// Errors: `path` is such a file; the message says whose.
fn refuse_a_runs_partial(path: &Path) -> anyhow::Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(name) = name else {
        return Ok(());
    };
    // The FILE whose partial file or sidecar `path` would be.
    let stem = name
        .strip_suffix(".partial.json")
        .or_else(|| name.strip_suffix(".partial"));
    let Some(stem) = stem else {
        return Ok(());
    };
    let file = path.with_file_name(stem);
    let (partial, sidecar) = (partial_path(&file), sidecar_path(&file));
    let locked = File::open(&partial)
        .is_ok_and(|f| matches!(f.try_lock_shared(), Err(std::fs::TryLockError::WouldBlock)));
    if locked || (partial.exists() && sidecar.exists()) {
        let whose = if locked {
            "being written by another sudoflow run now"
        } else {
            "holding an interrupted run's rows (its sidecar is beside it)"
        };
        bail!(
            "refusing to write output {}: {} is the partial file of a run to {}, {whose}; \
             writing here would replace its rows: choose another name",
            path.display(),
            partial.display(),
            file.display()
        );
    }
    Ok(())
}

/// Opens `partial` (named `name`) to read and write, created afresh when
/// `create` (never over a file another run has just created), and takes an
/// exclusive lock on it (`flock`, held while the run has it open), so that
/// two runs never write one output: a second run, resumed or not, is
/// refused while the first is writing. A file system without locks
/// (`Unsupported`) is written unlocked.
///
/// Errors: another run holds the lock, or created the file first; the file
/// cannot be opened.
fn open_locked(partial: &Path, name: &str, create: bool) -> anyhow::Result<File> {
    // A link where FILE.partial goes is never written through, whatever it
    // points to (found by probing: a dangling one was said to be another
    // run to wait for, and one to an empty file was written through, the
    // link renamed FILE).
    if is_link(partial) {
        return Err(link_refusal(partial, name));
    }
    let opened = if create {
        OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(partial)
    } else {
        OpenOptions::new().read(true).write(true).open(partial)
    };
    let f = match opened {
        Ok(f) => f,
        // A link made there since the caller looked.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && is_link(partial) => {
            return Err(link_refusal(partial, name))
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
            "{name} is being written by another sudoflow run (it was created as this one \
             started): wait for that run to end"
        ),
        Err(e) if create => return Err(e).with_context(|| format!("cannot create output {name}")),
        Err(e) => return Err(e).with_context(|| format!("cannot open {name}")),
    };
    match f.try_lock() {
        Ok(()) => Ok(f),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{name} is being written by another sudoflow run now: wait for that run to end \
             (or stop it; then --resume continues it)"
        ),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(f)
        }
        Err(std::fs::TryLockError::Error(e)) => {
            // The empty file this call created goes (found by probing: left
            // behind, it refused every later run, --resume included).
            if create {
                let _ = std::fs::remove_file(partial);
            }
            Err(e).with_context(|| format!("cannot lock {name}"))
        }
    }
}

/// Whether `path` is a symbolic link (dangling or not).
fn is_link(path: &Path) -> bool {
    path.symlink_metadata()
        .is_ok_and(|m| m.file_type().is_symlink())
}

/// The refusal of a symbolic link at `partial`'s place (`name`).
fn link_refusal(partial: &Path, name: &str) -> anyhow::Error {
    let target =
        std::fs::read_link(partial).map_or_else(|_| "?".into(), |t| t.display().to_string());
    anyhow::anyhow!(
        "{name} is a symbolic link (to {target}), which the run does not write through: remove it"
    )
}

/// Continues `f`, the partial file, after its longest verified prefix
/// ([`verify`]): what follows is cut off (and the cut fsynced).
fn keep_verified(mut f: File, checkpoints: &[Checkpoint]) -> std::io::Result<(File, Verified)> {
    let verified = verify(&mut f, checkpoints)?;
    if verified.kept.bytes < verified.len {
        f.set_len(verified.kept.bytes)?;
        f.sync_all()?;
    }
    f.seek(SeekFrom::Start(verified.kept.bytes))?;
    Ok((f, verified))
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
    let tmp = atomic_tmp(path);
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(text)?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::Error::new(e).context(format!("cannot write {}", path.display()))
    })
}

/// The file [`write_atomic`] writes `path` to before renaming it there.
fn atomic_tmp(path: &Path) -> PathBuf {
    with_suffix(path, ".tmp")
}

/// Rows of a partial file read back, as the fields the command wrote (a
/// [`csv::ByteRecord`] in header order), whatever the format: CSV through
/// the csv crate (its header checked first), JSON Lines one object a line
/// (each header name a key; numbers as their JSON text, `null` as an empty
/// field).
pub struct RowReader {
    source: RowSource,
    name: String,
    header: Vec<String>,
    line: Vec<u8>,
}

enum RowSource {
    Csv(csv::Reader<std::io::Take<BufReader<File>>>),
    Jsonl(std::io::Take<BufReader<File>>),
}

impl RowReader {
    /// Reads the first `len` bytes of `path`, written in `format` with the
    /// columns `header`; `name` names the file in errors.
    ///
    /// Errors: the file cannot be opened, or its CSV header is not
    /// `header`.
    pub fn open(
        path: &Path,
        format: Format,
        header: &[String],
        len: u64,
    ) -> anyhow::Result<RowReader> {
        let name = path.display().to_string();
        let file =
            BufReader::new(File::open(path).with_context(|| format!("cannot read back {name}"))?)
                .take(len);
        let source = match format {
            Format::Jsonl => RowSource::Jsonl(file),
            _ => {
                let mut rows = csv::ReaderBuilder::new()
                    .has_headers(false)
                    .flexible(true)
                    .from_reader(file);
                if len > 0 {
                    let mut first = csv::StringRecord::new();
                    rows.read_record(&mut first)
                        .with_context(|| format!("{name}: its header cannot be read back"))?;
                    if first.iter().ne(header.iter()) {
                        bail!(
                            "cannot resume {name}: its header is {:?}, this run's {:?}",
                            first.iter().collect::<Vec<_>>().join(","),
                            header.join(",")
                        );
                    }
                }
                RowSource::Csv(rows)
            }
        };
        Ok(RowReader {
            source,
            name,
            header: header.to_vec(),
            line: Vec::new(),
        })
    }

    /// Reads the next row into `row`: `Ok(false)` at the end.
    ///
    /// Errors: the row cannot be read or parsed (`row_no` names it), or a
    /// JSON object lacks a column or has others.
    pub fn read(&mut self, row: &mut csv::ByteRecord, row_no: u64) -> anyhow::Result<bool> {
        let name = &self.name;
        match &mut self.source {
            RowSource::Csv(rows) => rows
                .read_byte_record(row)
                .with_context(|| format!("{name}: row {row_no} cannot be read back")),
            RowSource::Jsonl(lines) => {
                self.line.clear();
                lines
                    .read_until(b'\n', &mut self.line)
                    .with_context(|| format!("{name}: row {row_no} cannot be read back"))?;
                if self.line.is_empty() {
                    return Ok(false);
                }
                let object: serde_json::Map<String, serde_json::Value> =
                    serde_json::from_slice(&self.line).with_context(|| {
                        format!("{name}: row {row_no} is not a JSON object: the file is damaged")
                    })?;
                row.clear();
                for column in &self.header {
                    let text = match object.get(column) {
                        Some(serde_json::Value::Null) => String::new(),
                        Some(serde_json::Value::String(s)) => s.clone(),
                        Some(v) => v.to_string(),
                        None => {
                            bail!("{name}: row {row_no} has no {column:?}: the file is damaged")
                        }
                    };
                    row.push_field(text.as_bytes());
                }
                if object.len() != self.header.len() {
                    bail!(
                        "{name}: row {row_no} has {} keys, the run writes {}: the file is damaged",
                        object.len(),
                        self.header.len()
                    );
                }
                Ok(true)
            }
        }
    }
}

/// The rows an interrupted run left in `FILE.partial` (its verified
/// prefix), read back in step with the inputs by [`KeptRows::check`].
pub struct KeptRows {
    rows: RowReader,
    /// How to read the rows again ([`KeptRows::read_back`]): the partial
    /// file, its format, the header and the verified length.
    again: (PathBuf, Format, Vec<String>, u64),
    name: String,
    row: csv::ByteRecord,
    columns: usize,
    index_col: Option<usize>,
    puzzle_col: Option<usize>,
    status_col: Option<usize>,
    /// `--keep`'s columns: the first this many of a row, each a field of
    /// its record ([`Record::kept`](crate::pipeline::Record)).
    keep_cols: usize,
    /// With `--source`: the columns `source` and `line`, which name each
    /// row's record.
    origin_cols: Option<(usize, usize)>,
    /// Rows read back so far.
    kept: u64,
    /// The records the kept rows account for: records `1..=records` are
    /// skipped.
    records: u64,
    /// The last record checked (skipped) so far.
    last_record: u64,
    /// Whether every kept row has been read.
    exhausted: bool,
    /// Rows per status, in order of first appearance.
    statuses: Vec<(String, u64)>,
    /// Rows may skip records (`canon --distinct`): indices only increase.
    sparse: bool,
    /// Sparse: a row read but not yet matched to its record.
    pending: bool,
    /// The index of the last row read.
    last_index: u64,
}

impl KeptRows {
    /// The next kept row, if any; checks its shape and that its `index`
    /// is above the row before's and within the kept records.
    fn next_row(&mut self) -> anyhow::Result<bool> {
        if self.exhausted {
            return Ok(false);
        }
        let row_no = self.kept + 1;
        if !self.rows.read(&mut self.row, row_no)? {
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
        if let Some(c) = self.index_col {
            let index = std::str::from_utf8(&self.row[c])
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
                .filter(|&i| i > self.last_index && i <= self.records);
            let Some(index) = index else {
                bail!(
                    "{}: row {row_no} has index {:?}, not above the row before's ({}) and at \
                     most {}: the file is damaged",
                    self.name,
                    String::from_utf8_lossy(&self.row[c]),
                    self.last_index,
                    self.records
                );
            };
            if !self.sparse && index != row_no {
                bail!(
                    "{}: row {row_no} has index {index}: the file is damaged",
                    self.name
                );
            }
            self.last_index = index;
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

    /// Whether `record` (the next record of the inputs) already has its
    /// outcome in the file: `Ok(true)` for the records the kept rows
    /// account for, after checking that the row kept for it (if it has
    /// one) is this record's (its `index` and `puzzle` columns);
    /// `Ok(false)` from the first record after them.
    ///
    /// Errors: the row is not this record's (the inputs are not those of
    /// the interrupted run), a record has no row where each has one, or
    /// the file is damaged.
    pub fn check(&mut self, record: &Record) -> anyhow::Result<bool> {
        if record.index > self.records {
            return Ok(false);
        }
        self.last_record = record.index;
        if !self.pending {
            if !self.next_row()? {
                if self.sparse {
                    // Records after the last row that got none (repeats).
                    return Ok(true);
                }
                bail!(
                    "{}: record {} has no row, although the run's checkpoint says it was \
                     written: the file is damaged",
                    self.name,
                    record.index
                );
            }
            self.pending = true;
        }
        let index = if self.index_col.is_some() {
            self.last_index
        } else {
            self.kept
        };
        if record.index < index {
            // Sparse: a record that got no row.
            return Ok(true);
        }
        if record.index > index {
            bail!(
                "{}: row {} has index {index}, but the inputs' records went past it: the file \
                 is damaged",
                self.name,
                self.kept,
            );
        }
        self.pending = false;
        self.check_puzzle(record)?;
        self.check_carried(record)?;
        Ok(true)
    }

    /// Checks the kept row just read against what `record` carries into
    /// its row: `--keep`'s fields and `--source`'s `source` and `line`.
    /// Before, only the puzzle was checked: stdin with an id changed in a
    /// record already written, or a comment line added before the records
    /// (every line number one more), resumed into a file whose first rows
    /// held the old values and the rest the new.
    fn check_carried(&self, record: &Record) -> anyhow::Result<()> {
        let check = |c: usize, now: &str| -> anyhow::Result<()> {
            match self.row.get(c) {
                Some(then) if then != now.as_bytes() => bail!(
                    "cannot resume: row {} of {} has {} {:?}, but record {} of the inputs \
                     ({}:{}) has {:?}: the inputs are not those of the interrupted run",
                    self.kept,
                    self.name,
                    self.header_name(c),
                    String::from_utf8_lossy(then),
                    record.index,
                    record.source,
                    record.line,
                    now
                ),
                _ => Ok(()),
            }
        };
        for c in 0..self.keep_cols {
            check(c, record.kept.get(c).map_or("", String::as_str))?;
        }
        if let Some((source, line)) = self.origin_cols {
            check(source, &record.source)?;
            check(line, &record.line.to_string())?;
        }
        Ok(())
    }

    /// The name of column `c`, for messages.
    fn header_name(&self, c: usize) -> &str {
        self.again.2.get(c).map_or("a column", String::as_str)
    }

    /// Lets rows skip records: their `index` column must only increase
    /// (`canon --distinct` writes no row for a repeated class). Every
    /// record the kept checkpoint accounts for is skipped, with or without
    /// a row.
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
    /// classes `--distinct` has written); returns how many records the
    /// rows account for (where to go on).
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
        if !self.sparse && self.kept != self.records {
            bail!(
                "{}: {} rows kept, but the run's checkpoint says {}: the file is damaged",
                self.name,
                self.kept,
                self.records
            );
        }
        Ok(self.records)
    }

    /// The kept rows once more from the start, apart from the checks (to
    /// take back state they carry, e.g. `canon`'s classes).
    ///
    /// Errors: the file cannot be opened.
    pub fn read_back(&self) -> anyhow::Result<RowReader> {
        let (path, format, header, len) = &self.again;
        RowReader::open(path, *format, header, *len)
    }

    /// Rows kept.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// Records the kept rows account for (skipped on resume).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Checks that the inputs had every record the kept rows account for.
    ///
    /// Errors: the inputs ended first (they are not those of the
    /// interrupted run).
    pub fn finish(&mut self) -> anyhow::Result<()> {
        if self.last_record < self.records || self.pending || self.next_row()? {
            bail!(
                "cannot resume: {} has more rows than the inputs have records: it holds \
                 the outcome of records 1..{}, the inputs have {}: the inputs are not those \
                 of the interrupted run",
                self.name,
                self.records,
                self.last_record
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

/// A run's output: stdout, or `FILE` through `FILE.partial`.
pub struct RunOutput {
    /// `None` for stdout.
    file: Option<OutFile>,
    /// [`RunSpec::resumable`], and not Parquet.
    resumable: bool,
    /// The command line that continues this run (for the signal summary).
    resume_command: String,
    /// When the rows were last pushed out ([`coarse_now`]).
    last_flush: Duration,
    /// Records whose outcome has been written (or resumed), in input
    /// order, and the rows among them.
    records: u64,
    rows: u64,
}

/// A monotonic clock cheap enough to read at every row: Linux's
/// `CLOCK_MONOTONIC_COARSE` (the time at the last timer tick, a few
/// milliseconds coarse, read from the vDSO without the fine clock's
/// counter read), elsewhere [`Instant`]'s. [`RunOutput::tick`] reads it at
/// every row to flush once a second: the fine clock read there cost about
/// 4% of `solve -j 1` on the 17-clue set three times over on the KVM host
/// (BENCHMARKS.md), and reading it only every few rows would let a run
/// that turns slow after fast rows go long without a flush.
fn coarse_now() -> Duration {
    #[cfg(target_os = "linux")]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes only into `ts`, owned here.
        if unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC_COARSE, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// The files behind `-o FILE`.
struct OutFile {
    path: PathBuf,
    partial: PathBuf,
    sidecar: PathBuf,
    /// A second handle on `partial`, for fsync.
    sync: File,
    /// The sidecar, open for appending checkpoints.
    log: File,
    /// The bytes written to `partial`.
    written: Arc<Mutex<Written>>,
    /// The last checkpoint appended.
    last: Checkpoint,
}

impl OutFile {
    /// Appends a checkpoint for what has been written, if it moved on
    /// since the last one. The caller has flushed the sink. None after a
    /// failed write ([`Written::failed`]): the last checkpoint stays the
    /// last that holds, and `--resume` cuts the file back to it.
    fn checkpoint(&mut self, records: u64, rows: u64) -> anyhow::Result<()> {
        let (bytes, xxh3) = {
            let w = self.written.lock().unwrap_or_else(|e| e.into_inner());
            if w.failed {
                return Ok(());
            }
            (w.bytes, w.hash.digest())
        };
        let now = Checkpoint {
            bytes,
            xxh3,
            records,
            rows,
        };
        if now == self.last {
            return Ok(());
        }
        let mut line = serde_json::to_vec(&now)?;
        line.push(b'\n');
        self.log
            .write_all(&line)
            .with_context(|| format!("cannot write {}", self.sidecar.display()))?;
        self.last = now;
        Ok(())
    }
}

impl RunOutput {
    /// Opens the run's output and writes the header (unless resumed):
    /// stdout for `None` or `-`; `path` itself if it is under `/dev` or
    /// `/proc` or exists and is not a regular file (`/dev/null`, a FIFO);
    /// else `path.partial` (see the module doc), beside the file a
    /// symbolic link `path` leads to. The header reaches the file at once
    /// (a partial file is never empty).
    /// With `resume`, continues `path.partial` if it exists, after checking
    /// its sidecar against `spec` and the file against its checkpoints
    /// (the part that does not verify is cut off, to be redone); the
    /// [`KeptRows`] then tell which records to skip. Without `resume`, an
    /// existing `path.partial` is refused (it holds an interrupted run's
    /// rows).
    ///
    /// Errors: `path` is one of the inputs (stdin's file included);
    /// `--resume` without a file, or of a Parquet run; `path.partial`
    /// exists without `resume`; the sidecar is missing, unreadable or
    /// differs from `spec` (the message lists what differs); the header
    /// kept differs; a file cannot be created or written.
    pub fn open(
        path: Option<&Path>,
        spec: &RunSpec,
        resume: bool,
    ) -> anyhow::Result<(RunOutput, CsvSink, Option<KeptRows>)> {
        let resume_command = resume_command();
        let resumable = spec.resumable && spec.format != Format::Parquet;
        // Stdout, files that are not regular files (`/dev/null`, a FIFO)
        // and anything under /dev or /proc (`/dev/stdout` may lead to a
        // regular file, and /dev/stdout itself must never be renamed over)
        // are written directly: they cannot be replaced, nor resumed.
        // A symbolic link stays one: the file it leads to is replaced.
        let replaced = path
            .filter(|p| p.as_os_str() != "-")
            .and_then(replaced_path);
        let direct = match (path, &replaced) {
            (_, Some(_)) => None,
            (Some(p), None) if p.as_os_str() != "-" => Some(p),
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
            let mut sink = CsvSink::create_with_text(
                Some(direct),
                &spec.inputs,
                spec.format,
                &spec.text_columns,
            )?;
            if !spec.header.is_empty() {
                sink.write_record(&spec.header)?;
            }
            let out = RunOutput {
                file: None,
                resumable,
                resume_command,
                last_flush: coarse_now(),
                records: 0,
                rows: 0,
            };
            return Ok((out, sink, None));
        }
        refuse_input_as_output(path.expect("not direct"), &spec.inputs)?;
        let path = replaced.as_deref().expect("not direct");
        refuse_a_runs_partial(path)?;
        let partial = partial_path(path);
        // --resume with no partial file starts the run (a job script can
        // always pass it), whatever the format.
        if resume && !resumable && partial.exists() {
            bail!(
                "--resume: a run writing {} cannot be resumed (a Parquet file is readable \
                 only once its footer is written): write CSV or JSON Lines to resume",
                spec.format.name()
            );
        }
        let sidecar = sidecar_path(path);
        // The run writes, renames and removes these as well: none may be
        // an input.
        refuse_input_as_output(&partial, &spec.inputs)?;
        refuse_input_as_output(&sidecar, &spec.inputs)?;
        refuse_input_as_output(&atomic_tmp(&sidecar), &spec.inputs)?;
        let name = partial.display().to_string();
        let now = Sidecar::of(spec)?;
        if !resumable {
            crate::interrupt::output_cannot_resume();
        }
        let exists = partial.exists();
        // Locked before anything of it is read: another run may be writing
        // it (and its sidecar) now.
        let locked = open_locked(&partial, &name, !exists)?;
        // An empty FILE.partial without a sidecar holds no rows: a run killed
        // between creating it and writing its sidecar left it. It is taken
        // as this run's new one (found by probing: it refused a fresh run as
        // "the rows of an interrupted run", and --resume for its sidecar).
        let exists = exists && (locked.metadata()?.len() > 0 || sidecar.exists());
        if !exists {
            keep_mode(&locked, path);
        }
        if exists && !resume {
            if !resumable {
                // The command's own format (explain's text or json), else
                // the rows' (found by probing: explain's text said "csv").
                let format = spec
                    .options
                    .iter()
                    .find(|(key, _)| *key == "format")
                    .map_or(spec.format.name(), |(_, name)| name.as_str());
                bail!(
                    "{name} exists: it holds the rows of an interrupted run (`sudoflow {}` \
                     writing {format} cannot resume it): delete it to start over",
                    spec.command,
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
        let mut kept = None;
        let (file, hash, start) = if exists {
            let (then, checkpoints) = read_sidecar(&sidecar).with_context(|| {
                format!(
                    "cannot resume {name}: its sidecar {} cannot be read (delete {name} to \
                     start over)",
                    sidecar.display()
                )
            })?;
            let diffs = then.differences(&now);
            if !diffs.is_empty() {
                bail!(
                    "cannot resume {name}: {} (resume with the inputs and options of the \
                     interrupted run, or delete {name} to start over)",
                    diffs.join("; ")
                );
            }
            let (file, verified) = keep_verified(locked, &checkpoints)
                .with_context(|| format!("cannot resume {name}"))?;
            let start = verified.kept;
            if let Some(broken) = verified.broken {
                let what = if verified.len < broken.bytes {
                    format!("the file ends at byte {}", verified.len)
                } else {
                    "they are not what the run wrote there".to_string()
                };
                let kept = match start.rows {
                    0 => "nothing but the header".to_string(),
                    n => format!("rows 1..{n}"),
                };
                // The span's rows; none when it holds only the header (a
                // file emptied: "rows 1..0" was said).
                let rows = if broken.rows > start.rows {
                    format!("rows {}..{}", start.rows + 1, broken.rows)
                } else {
                    "the header".to_string()
                };
                eprintln!(
                    "sudoflow: --resume: {name} was changed after it was written: between bytes \
                     {} and {} ({rows}) {what}; keeping what verifies ({kept}, {} bytes) and \
                     redoing the rest",
                    start.bytes, broken.bytes, start.bytes
                );
            }
            if start.bytes > 0 || start.records > 0 {
                let column = |name: &str| spec.header.iter().position(|h| h == name);
                kept = Some(KeptRows {
                    rows: RowReader::open(&partial, spec.format, &spec.header, start.bytes)?,
                    again: (
                        partial.clone(),
                        spec.format,
                        spec.header.clone(),
                        start.bytes,
                    ),
                    name: name.clone(),
                    row: csv::ByteRecord::new(),
                    columns: spec.header.len(),
                    index_col: column("index"),
                    puzzle_col: column("puzzle"),
                    status_col: column("status"),
                    keep_cols: spec.text_columns.len(),
                    origin_cols: spec
                        .options
                        .iter()
                        .any(|(n, v)| *n == "source" && v == "true")
                        .then(|| {
                            let last = spec.header.len().checked_sub(2)?;
                            Some((last, last + 1))
                        })
                        .flatten(),
                    kept: 0,
                    records: start.records,
                    last_record: 0,
                    exhausted: false,
                    statuses: Vec::new(),
                    sparse: false,
                    pending: false,
                    last_index: 0,
                });
            }
            (file, verified.hash, start)
        } else {
            (locked, Xxh3::new(), Checkpoint::start())
        };
        // The sidecar afresh, with the one checkpoint that stands: a
        // partial file always has one.
        let mut json = serde_json::to_vec_pretty(&now)?;
        json.push(b'\n');
        json.extend(serde_json::to_vec(&start)?);
        json.push(b'\n');
        let log = write_atomic(&sidecar, &json).and_then(|()| {
            OpenOptions::new()
                .append(true)
                .open(&sidecar)
                .with_context(|| format!("cannot write {}", sidecar.display()))
        });
        let log = match log {
            Ok(log) => log,
            Err(e) => {
                // A partial file this run created, without its sidecar,
                // could be neither resumed nor replaced: it goes.
                if !exists {
                    let _ = std::fs::remove_file(&partial);
                }
                return Err(e);
            }
        };
        // A failure from here to the header (no file descriptor left, a
        // full disk) leaves nothing a resume would keep: a partial file this
        // run created goes with its sidecar, which would refuse the next
        // fresh run to FILE.
        let created = (!exists).then(|| (partial.clone(), sidecar.clone()));
        let forget = |e: anyhow::Error| {
            if let Some((partial, sidecar)) = &created {
                let _ = std::fs::remove_file(partial);
                let _ = std::fs::remove_file(sidecar);
            }
            e
        };
        let sync = file
            .try_clone()
            .with_context(|| format!("cannot write {name}"))
            .map_err(forget)?;
        let written = Arc::new(Mutex::new(Written {
            bytes: start.bytes,
            hash,
            failed: false,
        }));
        let tracked = Tracked {
            file,
            written: Arc::clone(&written),
        };
        let mut sink =
            CsvSink::to_writer_with_text(Box::new(tracked), name, spec.format, &spec.text_columns)
                .map_err(forget)?;
        let mut out_file = OutFile {
            path: path.to_path_buf(),
            partial,
            sidecar,
            sync,
            log,
            written,
            last: start,
        };
        if start.bytes == 0 || spec.format != Format::Csv {
            // The header: to a fresh CSV file at once, so that a partial
            // file is never empty; a JSON Lines sink takes its keys from it
            // and writes nothing. A resumed CSV file has its header.
            let header = (|| -> anyhow::Result<()> {
                if !spec.header.is_empty() {
                    sink.write_record(&spec.header)?;
                }
                sink.flush()?;
                out_file.checkpoint(start.records, start.rows)
            })();
            if let Err(e) = header {
                drop(sink);
                return Err(forget(e));
            }
        }
        let out = RunOutput {
            file: Some(out_file),
            resumable,
            resume_command,
            last_flush: coarse_now(),
            records: start.records,
            rows: start.rows,
        };
        Ok((out, sink, kept))
    }

    /// `FILE.partial`, where the rows go (`None` for stdout and files
    /// written directly).
    pub fn partial(&self) -> Option<&Path> {
        self.file.as_ref().map(|f| f.partial.as_path())
    }

    /// Call after each row of a record: counts the record, and pushes the
    /// buffered rows to the file once a second with a checkpoint, so that
    /// a run killed outright (SIGKILL) loses at most about a second of
    /// rows to redo. Costs one clock read per row.
    ///
    /// Errors: the write's.
    pub fn row_written(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        self.rows_written(sink, 1)
    }

    /// [`RunOutput::row_written`] for `n` records' rows at once (rows
    /// formatted elsewhere and written as bytes).
    ///
    /// Errors: the write's.
    pub fn rows_written(&mut self, sink: &mut CsvSink, n: u64) -> anyhow::Result<()> {
        self.records += n;
        self.rows += n;
        self.tick(sink)
    }

    /// Call for a record done without a row (`canon --distinct`'s
    /// repeats): the checkpoints move past it all the same, so a resume
    /// does not work on it again.
    ///
    /// Errors: the write's.
    pub fn record_without_row(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        self.records += 1;
        self.tick(sink)
    }

    /// Flushes (and checkpoints a file) if the last flush was a second ago
    /// or more: call it between rows too when the next row may take long
    /// (it costs a coarse clock read, `coarse_now`). Stdout is flushed too, so that a reader
    /// sees rows as a slow run makes them, and one that has gone (`|
    /// head -1`) ends the run within a second (it ran to its end, its rows
    /// held in the buffer).
    ///
    /// Errors: the write's.
    pub fn tick(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        if coarse_now().saturating_sub(self.last_flush) >= flush_every() {
            self.flush(sink)?;
        }
        Ok(())
    }

    /// Pushes the rows written so far to the output, with a checkpoint
    /// for a file (e.g. when the input waits: a co-process gets its rows).
    ///
    /// Errors: the write's.
    pub fn flush(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        sink.flush()?;
        if let Some(f) = &mut self.file {
            f.checkpoint(self.records, self.rows)?;
        }
        self.last_flush = coarse_now();
        Ok(())
    }

    /// [`RunOutput::finish`] for a command that keeps one record per class
    /// (`--distinct`): `counts` has a slot per status in `statuses`, then
    /// one for the repeats (records without a row of their own), to which
    /// the repeats a resume skipped (between the kept rows) are added, and
    /// the summary names it `repeats`.
    ///
    /// Errors: as [`RunOutput::finish`].
    #[allow(clippy::too_many_arguments)]
    pub fn finish_with_repeats(
        self,
        sink: CsvSink,
        result: anyhow::Result<crate::pipeline::Summary>,
        kept: Option<&mut KeptRows>,
        statuses: &[&str],
        counts: &mut [u64],
        quiet: bool,
        strict: bool,
    ) -> anyhow::Result<std::process::ExitCode> {
        let result = result.inspect(|summary| {
            if let Some(k) = kept.as_deref() {
                counts[statuses.len()] += summary.resumed - k.kept().min(summary.resumed);
            }
        });
        let mut names = statuses.to_vec();
        names.push("repeats");
        self.finish(sink, result, kept, &names, counts, quiet, strict)
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

    /// Ends the rows (a Parquet footer too, so that a stopped run's
    /// partial file reads), flushes them, appends the last checkpoint and
    /// fsyncs the partial file and the sidecar (stdout: flushes).
    fn sync(&mut self, sink: &mut CsvSink) -> anyhow::Result<()> {
        sink.finish()?;
        if let Some(f) = &mut self.file {
            f.checkpoint(self.records, self.rows)?;
            f.sync
                .sync_all()
                .with_context(|| format!("cannot write {}", f.partial.display()))?;
            f.log
                .sync_all()
                .with_context(|| format!("cannot write {}", f.sidecar.display()))?;
        }
        Ok(())
    }

    /// Ends a complete run: flush, fsync, rename `FILE.partial` to `FILE`,
    /// fsync the folder, remove the sidecar. Stdout is only flushed.
    ///
    /// Errors: any of these steps' (the partial file then stays).
    pub fn commit(mut self, mut sink: CsvSink) -> anyhow::Result<()> {
        // The last rows or a Parquet file's footer may not fit (a full
        // disk): said as a failed run's output (what is left, what to do).
        if let Err(e) = self.sync(&mut sink) {
            drop(sink);
            return Err(self.output_failed(e, true));
        }
        drop(sink);
        if let Some(f) = &self.file {
            // The partial file must still be this run's, whole: another
            // program may have replaced, removed or cut it meanwhile, and
            // renaming that would give FILE rows that are not this run's.
            // Read back through its hash: a file cut in place and written
            // on (`echo junk > FILE.partial`) has its length.
            let whole = {
                let w = f.written.lock().unwrap_or_else(|e| e.into_inner());
                Checkpoint {
                    bytes: w.bytes,
                    xxh3: w.hash.digest(),
                    records: self.records,
                    rows: self.rows,
                }
            };
            // A read that fails is said as itself, not as another
            // program's change (found by probing: an EIO was).
            let intact = match same_file(&f.sync, &f.partial) {
                false => Ok(false),
                true => f
                    .sync
                    .try_clone()
                    .and_then(|mut r| verify(&mut r, &[whole]))
                    .map(|v| v.kept == whole && v.len == whole.bytes && v.broken.is_none()),
            };
            let intact = intact.with_context(|| {
                format!(
                    "cannot finish {}: {} cannot be read back to check it, so it was not \
                     renamed and {} is left as it was (--resume checks it again)",
                    f.path.display(),
                    f.partial.display(),
                    f.path.display()
                )
            })?;
            if !intact {
                bail!(
                    "cannot finish {}: {} is no longer this run's file as it wrote it (another \
                     program replaced, removed or cut it during the run), so it was not \
                     renamed and {} is left as it was: --resume redoes the rows that no longer \
                     verify (or delete {} and {} to start over)",
                    f.path.display(),
                    f.partial.display(),
                    f.path.display(),
                    f.partial.display(),
                    f.sidecar.display()
                );
            }
            std::fs::rename(&f.partial, &f.path).with_context(|| {
                format!(
                    "cannot rename {} to {}",
                    f.partial.display(),
                    f.path.display()
                )
            })?;
            // FILE is in place now, whatever the folder's fsync says: this
            // run's sidecar goes either way, and the error says what is
            // true (found by probing: a failed fsync left the sidecar, its
            // message as if no row had reached FILE).
            let synced = sync_dir(&f.path);
            if synced.is_err() && same_file(&f.log, &f.sidecar) {
                let _ = std::fs::remove_file(&f.sidecar);
            }
            synced.with_context(|| {
                format!(
                    "{} is written, whole, but its folder's fsync failed, so a crash of the \
                     system now could still lose the rename",
                    f.path.display()
                )
            })?;
            // For tests only: `SUDOFLOW_TEST_COMMIT_DELAY_MS` holds the run
            // here, so that a test can start another run to FILE meanwhile.
            if let Some(ms) = std::env::var("SUDOFLOW_TEST_COMMIT_DELAY_MS")
                .ok()
                .and_then(|ms| ms.parse().ok())
            {
                std::thread::sleep(Duration::from_millis(ms));
            }
            // A sidecar left behind by a crash here is harmless: the next
            // run without a partial file writes a new one. Only this run's
            // own goes: a run to the same FILE that started once the rename
            // freed FILE.partial has written its own sidecar there, which
            // must stay (its partial file could not be resumed without it).
            if same_file(&f.log, &f.sidecar) {
                let _ = std::fs::remove_file(&f.sidecar);
            }
        }
        Ok(())
    }

    /// Ends a run that failed with `error` (exit 2): keeps the rows written
    /// (flushed and fsynced in `FILE.partial`) and says so in the error. A
    /// run that failed before its first record (an input it could not
    /// open, no file descriptor left) has nothing to keep: its partial file
    /// and sidecar go, so that they do not refuse the next fresh run.
    pub fn fail(mut self, sink: CsvSink, error: anyhow::Error) -> anyhow::Error {
        let mut sink = match self.discard_empty(sink) {
            Ok(_) => return error,
            Err(sink) => *sink,
        };
        // A write to the file that failed (a full disk) is the output's
        // fault even where the flush now goes through (the rows it held
        // were dropped): the message then says what the output needs.
        let write_failed = self
            .file
            .as_ref()
            .is_some_and(|f| f.written.lock().unwrap_or_else(|e| e.into_inner()).failed);
        // The flush mostly fails as the write did (a full disk): then the
        // message is said once, not twice.
        // A run that cannot be resumed gains nothing from a flush after its
        // write failed (a Parquet writer would only say its row group was
        // left open).
        let (error, output_failed) = match self.sync(&mut sink) {
            _ if write_failed && !self.resumable => (error, true),
            Ok(()) => (error, write_failed),
            Err(e) if format!("{e:#}") == format!("{error:#}") => (error, true),
            Err(e) => (error.context(format!("{e:#}")), true),
        };
        self.output_failed(error, output_failed)
    }

    /// Ends a run that its own limits stopped short of what it was asked
    /// (`generate`'s `--max-tries` and `--max-time`): the rows written are
    /// flushed and fsynced and stay in FILE.partial, with its sidecar, and
    /// an older FILE is left as it was (committing would have replaced it
    /// with the fewer rows). A run that wrote no row leaves no partial
    /// file. Returns what to say of the output (`None` for stdout);
    /// `resume` says whether `--resume` can go on (the limit was the run's
    /// time) or only a run with other options (delete the partial first).
    ///
    /// Errors: the flush's or fsync's, said as [`RunOutput::commit`] says them.
    pub fn incomplete(mut self, sink: CsvSink, resume: bool) -> anyhow::Result<Option<String>> {
        // What became of FILE: an older one stays; none was made.
        let left = |path: &Path| match path.exists() {
            true => format!("{} is left as it was", path.display()),
            false => format!("no {} was made", path.display()),
        };
        let mut sink = match self.discard_empty(sink) {
            Ok(path) => return Ok(Some(left(&path))),
            Err(sink) => *sink,
        };
        if let Err(e) = self.sync(&mut sink) {
            drop(sink);
            return Err(self.output_failed(e, true));
        }
        drop(sink);
        Ok(self.file.as_ref().map(|f| {
            let next = if resume && self.resumable {
                format!("continue with: {}", self.resume_command)
            } else {
                format!(
                    "to run again, delete {} and {}",
                    f.partial.display(),
                    f.sidecar.display()
                )
            };
            format!(
                "the rows are in {} and {}; {next}",
                f.partial.display(),
                left(&f.path)
            )
        }))
    }

    /// For a run to FILE that wrote no record: drops `sink` and removes its
    /// partial file and sidecar (nothing to keep, and they would refuse the
    /// next fresh run), giving FILE's path. Otherwise `sink` back (boxed:
    /// it is large, and this is once a run).
    fn discard_empty(&mut self, sink: CsvSink) -> Result<PathBuf, Box<CsvSink>> {
        if self.records > 0 {
            return Err(Box::new(sink));
        }
        let Some(f) = self.file.take() else {
            return Err(Box::new(sink));
        };
        drop(sink);
        let _ = std::fs::remove_file(&f.partial);
        let _ = std::fs::remove_file(&f.sidecar);
        Ok(f.path)
    }

    /// `error`, that ended the run, with what its partial file holds and
    /// what to do, from whether the output failed (a write, the flush) and
    /// whether the run can be resumed.
    fn output_failed(&self, error: anyhow::Error, output_failed: bool) -> anyhow::Error {
        let Some(f) = &self.file else {
            return error;
        };
        match (output_failed, self.resumable) {
            // The partial file stays (a fresh run to FILE is refused while
            // it does): the message says what it holds and what to do (it
            // said nothing when the first write failed).
            (true, true) => error.context(format!(
                "{} keeps the rows up to its last checkpoint: --resume continues the run \
                 once the output can be written (or delete it and {} to start over)",
                f.partial.display(),
                f.sidecar.display()
            )),
            // Not resumable (Parquet, readable only once its footer is
            // written): what to do with what is left.
            (true, false) => error.context(format!(
                "{} is left incomplete and this run cannot be resumed: delete it and {}, then \
                 run again once the output can be written",
                f.partial.display(),
                f.sidecar.display()
            )),
            // A read that failed may go through later; an input damaged
            // itself (a cut gzip) fails again unchanged, and mended it is
            // refused as changed: the advice says both (found by probing).
            (false, true) => error.context(format!(
                "the rows written so far are kept in {} (--resume continues the run once \
                 the inputs read again, unchanged; if an input is itself damaged, mend it, \
                 then delete {} and {} to start over)",
                f.partial.display(),
                f.partial.display(),
                f.sidecar.display()
            )),
            (false, false) => error.context(format!(
                "the rows written so far are kept in {}",
                f.partial.display()
            )),
        }
    }

    /// Ends a run stopped by `signal`: flush and fsync the rows written, then
    /// print one line on stderr: `summary`, where the rows are and the exact
    /// command that continues the run (none for a Parquet run, which cannot
    /// be resumed). Returns the exit status (128 + signal).
    ///
    /// Errors: the flush's or fsync's.
    pub fn interrupted(
        mut self,
        mut sink: CsvSink,
        signal: i32,
        summary: &str,
    ) -> anyhow::Result<std::process::ExitCode> {
        self.sync(&mut sink)?;
        let name = crate::interrupt::name(signal);
        match &self.file {
            Some(f) if !self.resumable => eprintln!(
                "sudoflow: stopped by {name}: {summary}; the rows are in {} (this run cannot \
                 be resumed: delete it to run again)",
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
