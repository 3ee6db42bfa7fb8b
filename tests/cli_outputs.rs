//! Output paths under attack, through the binary: a FIFO or a link where
//! a book or a picture goes, a link planted where its file is written
//! first, a FIFO nobody reads while a stop signal comes, a file size limit
//! (`ulimit -f`), too few file descriptors, a directory in a picture set's
//! place, a stop while `print` rates. Nothing may be replaced that is not
//! the output, written through, lost, or left to refuse the next run.

use assert_cmd::Command;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const INKALA: &str =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const EASY: &str =
    "530070000600195000098000060800060003400803001700020006060000280000419005000080079";

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoflow")
}

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap()
        .success();
    assert!(ok, "mkfifo {}", path.display());
}

fn is_fifo(path: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_fifo())
}

/// A small corpus `print` reads fast (ratings given).
fn corpus(dir: &Path) -> PathBuf {
    let path = dir.join("c.csv");
    sudoflow()
        .args([
            "generate", "-q", "-n", "6", "--seed", "2", "--se", "1.0..", "-o",
        ])
        .arg(&path)
        .assert()
        .success();
    path
}

/// Files in `dir` whose names hold `part`.
fn named(dir: &Path, part: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(part))
        .collect();
    names.sort();
    names
}

/// `print -o FIFO` and `explain --format html -o FIFO` write into the FIFO
/// (its reader gets the bytes) and leave it a FIFO; `-o LINK` replaces the
/// file the link leads to and leaves the link. Before, each was replaced
/// by a regular file (and `-o /dev/null` as root would have replaced the
/// device).
#[test]
fn a_fifo_or_a_link_given_as_the_book_stays_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus(dir.path());
    let fifo = dir.path().join("book.pdf");
    mkfifo(&fifo);
    for args in [
        vec!["print".to_string(), input.display().to_string()],
        vec![
            "explain".to_string(),
            EASY.to_string(),
            "--format".to_string(),
            "html".to_string(),
        ],
    ] {
        let reader = std::thread::spawn({
            let fifo = fifo.clone();
            move || {
                let mut bytes = Vec::new();
                std::fs::File::open(&fifo)
                    .unwrap()
                    .read_to_end(&mut bytes)
                    .unwrap();
                bytes
            }
        });
        sudoflow()
            .args(&args)
            .arg("-o")
            .arg(&fifo)
            .assert()
            .success();
        let bytes = reader.join().unwrap();
        let head = if args[0] == "print" {
            &b"%PDF"[..]
        } else {
            &b"<!DOCTYPE html>"[..]
        };
        assert!(bytes.starts_with(head), "{args:?}");
        assert!(is_fifo(&fifo), "{args:?}: the FIFO was replaced");
    }
    let target = dir.path().join("real.pdf");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.pdf");
    std::os::unix::fs::symlink("real.pdf", &link).unwrap();
    sudoflow()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(&link)
        .assert()
        .success();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read(&target).unwrap().starts_with(b"%PDF"));
}

/// A link planted where the book used to be written first
/// (`book.pdf.partial`, `page-001.svg.partial`) is never written through:
/// the file it leads to stays as it was. Before, it became the book.
#[test]
fn a_link_planted_beside_the_output_is_not_written_through() {
    let dir = tempfile::tempdir().unwrap();
    let input = corpus(dir.path());
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "important data").unwrap();
    for (out, planted) in [
        ("book.pdf", "book.pdf.partial"),
        ("page.svg", "page-001.svg.partial"),
    ] {
        std::os::unix::fs::symlink(&victim, dir.path().join(planted)).unwrap();
        sudoflow()
            .arg("print")
            .arg(&input)
            .arg("-o")
            .arg(dir.path().join(out))
            .assert()
            .success();
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "important data",
            "{out}"
        );
    }
    let book = dir.path().join("book.pdf");
    assert!(!std::fs::symlink_metadata(&book)
        .unwrap()
        .file_type()
        .is_symlink());
    assert!(std::fs::read(&book).unwrap().starts_with(b"%PDF"));
    // Nothing of the run is left beside the names.
    assert!(named(dir.path(), ".partial")
        .iter()
        .all(|n| !n.starts_with('.')));
}

/// A directory where one picture of a set goes is refused before any is
/// written: the earlier set stays whole. Before, the pictures up to it
/// were replaced, the rest left as `.partial` files, and the set was a mix.
#[test]
fn a_directory_in_a_picture_sets_place_is_refused_before_any_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps");
    sudoflow()
        .args(["explain", EASY, "--format", "svg", "-o"])
        .arg(&steps)
        .assert()
        .success();
    let before: Vec<(String, Vec<u8>)> = named(&steps, "step-")
        .into_iter()
        .map(|n| (n.clone(), std::fs::read(steps.join(&n)).unwrap()))
        .collect();
    assert!(before.len() > 5);
    std::fs::remove_file(steps.join("step-003.svg")).unwrap();
    std::fs::create_dir_all(steps.join("step-003.svg").join("x")).unwrap();
    let err = sudoflow()
        .args(["explain", INKALA, "--format", "svg", "-o"])
        .arg(&steps)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&err);
    assert!(err.contains("step-003.svg is not a regular file"), "{err}");
    for (name, bytes) in &before {
        if name != "step-003.svg" {
            assert_eq!(&std::fs::read(steps.join(name)).unwrap(), bytes, "{name}");
        }
    }
    assert!(named(&steps, ".partial").is_empty());
}

/// A run writing to a FIFO nobody reads stops at one signal (exit 143),
/// saying so. Before, the open blocked through the first signal.
#[test]
fn a_fifo_nobody_reads_does_not_hold_a_run_past_its_stop_signal() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("out.csv");
    mkfifo(&fifo);
    for args in [
        &["rate", "-p", INKALA][..],
        &["generate", "-n", "5"],
        &["explain", "-p", EASY, "--format", "jsonl"],
    ] {
        let child = std::process::Command::new(bin())
            .args(args)
            .arg("-o")
            .arg(&fifo)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(300));
        let ok = std::process::Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .unwrap()
            .success();
        assert!(ok);
        let start = Instant::now();
        let out = child.wait_with_output().unwrap();
        assert!(start.elapsed() < Duration::from_secs(5), "{args:?}");
        assert_eq!(out.status.code(), Some(143), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("stopped by SIGTERM while waiting for a reader"),
            "{args:?}: {err}"
        );
        assert!(is_fifo(&fifo));
    }
}

/// Under a file size limit (`ulimit -f`), a write past it fails naming the
/// file and keeps the rows, and --resume then writes what an uninterrupted
/// run writes. Before, SIGXFSZ killed the run with no word (exit 153).
#[test]
fn a_file_size_limit_is_an_error_naming_the_file_and_the_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g.csv");
    let args = format!(
        "ulimit -f 100; exec {} generate -q -n 3000 --seed 5 -o {}",
        bin().display(),
        out.display()
    );
    let failed = std::process::Command::new("sh")
        .args(["-c", &args])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&failed.stderr);
    assert_eq!(failed.status.code(), Some(2), "{err}");
    assert!(
        err.contains("cannot write") && err.contains("g.csv.partial"),
        "{err}"
    );
    assert!(err.contains("File too large"), "{err}");
    sudoflow()
        .args([
            "generate", "-q", "-n", "3000", "--seed", "5", "--resume", "-o",
        ])
        .arg(&out)
        .assert()
        .success();
    let want = dir.path().join("want.csv");
    sudoflow()
        .args(["generate", "-q", "-n", "3000", "--seed", "5", "-o"])
        .arg(&want)
        .assert()
        .success();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&want).unwrap());
}

/// A run that fails for want of file descriptors before its first row
/// leaves no partial file that would refuse the next run. Before, an empty
/// FILE.partial and its sidecar stayed, and the next fresh run was refused
/// ("it holds the rows of an interrupted run").
#[test]
fn a_run_short_of_file_descriptors_leaves_nothing_that_blocks_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{EASY}\n{INKALA}\n")).unwrap();
    let out = dir.path().join("r.csv");
    for fds in 4..12 {
        let args = format!(
            "ulimit -n {fds}; exec {} rate -q -j 2 {} -o {}",
            bin().display(),
            input.display(),
            out.display()
        );
        let run = std::process::Command::new("sh")
            .args(["-c", &args])
            .output()
            .unwrap();
        if run.status.success() {
            break;
        }
        // Whatever failed, the next run may start afresh.
        assert!(
            !dir.path().join("r.csv.partial").exists(),
            "ulimit -n {fds}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
    }
    sudoflow()
        .args(["rate", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
}

/// The mode of what a run writes: a new book, picture or CSV gets 0666 less
/// the umask, as any new file; one replaced keeps its file's mode, through
/// a link too. Found by probing: books and pictures were made 0600 (the
/// temporary file's mode), and a 0644 book replaced became 0600.
#[test]
fn outputs_get_the_umasks_mode_or_keep_the_replaced_files() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let input = dir.path().join("in.txt");
    std::fs::write(&input, format!("{EASY}\n{INKALA}\n")).unwrap();
    let run = |umask: &str, args: &str| {
        let line = format!("umask {umask}; exec {} {args}", bin().display());
        let out = std::process::Command::new("sh")
            .args(["-c", &line])
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let commands = [
        ("book.pdf", "print -q in.txt -o book.pdf"),
        ("page.html", "explain -q in.txt --format html -o page.html"),
        ("rows.csv", "count -q in.txt -o rows.csv"),
    ];
    for (file, args) in commands {
        let path = dir.path().join(file);
        run("002", args);
        assert_eq!(mode(&path), 0o664, "{file}, new, umask 002");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        run("022", args);
        assert_eq!(mode(&path), 0o640, "{file}, replaced");
        // Through a link: the file it leads to keeps its mode.
        let link = dir.path().join(format!("link-{file}"));
        std::os::unix::fs::symlink(&path, &link).unwrap();
        run("077", &args.replace(file, &format!("link-{file}")));
        assert_eq!(mode(&path), 0o640, "{file}, replaced through a link");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
    let pictures = dir.path().join("pictures");
    run("022", "explain -q in.txt --format svg -o pictures/");
    for picture in std::fs::read_dir(&pictures).unwrap() {
        assert_eq!(mode(&picture.unwrap().path()), 0o644);
    }
}

/// `--resume` with no partial file starts the run, for Parquet too (a job
/// script can always pass it). Before, a Parquet run refused it.
#[test]
fn resume_without_a_partial_file_starts_a_parquet_run_too() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.parquet");
    sudoflow()
        .args(["solve", "-q", "-p", INKALA, "--resume", "-o"])
        .arg(&out)
        .assert()
        .success();
    assert!(std::fs::read(&out).unwrap().starts_with(b"PAR1"));
}

/// A stop signal while `print` rates its puzzles ends the run before
/// anything is written (exit 130), the earlier book whole. Before, print
/// had no handler: SIGTERM killed it silently, and SIGINT, ignored by a
/// script's background job, went unheeded.
#[test]
fn a_stop_while_print_rates_leaves_the_earlier_book_whole() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pdf");
    std::fs::write(&book, "the earlier book").unwrap();
    let input = dir.path().join("hard.txt");
    // Slow to rate: about half a second or more each on one thread.
    let hard = [
        "........6..5..18...9...8.7....8.2.....3.1.2..4..5.3....6.....9...83..1..7.......4",
        "2.......6.5..8..1...4...9...7.3.1......82.......7.5.3...9...4...8..1..5.6.......2",
        "..6..1....5..3....9..4....7..1....2..3..9....4..5....13.....68....3..2....2..8..3",
        "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8",
    ];
    std::fs::write(&input, hard.join("\n")).unwrap();
    let mut child = std::process::Command::new(bin())
        .args(["print", "-j", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&book)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let ok = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("stopped by SIGINT before the pages were in place"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&book).unwrap(), "the earlier book");
}

/// A reader that closes stdout early (`| head -c 100`) ends the run quietly
/// with exit 0 in every format (found by probing: Parquet exited 2, "Broken
/// pipe", its I/O error wrapped as text by the Parquet writer).
#[test]
fn a_closed_stdout_ends_the_run_quietly_in_every_format() {
    let easy = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let input = format!("{easy}\n").repeat(200_000);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.txt");
    std::fs::write(&path, input).unwrap();
    for format in ["csv", "jsonl", "parquet"] {
        let mut child = std::process::Command::new(bin())
            .args(["solve", "-j", "1", "--format", format])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe's reading end is closed here.
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("error"), "{format}: {err}");
    }
}

/// A stop signal while the run's write waits on a full pipe, then the pipe
/// closed: the signal's status, said (found by probing: the closed pipe's
/// quiet exit 0 hid the signal).
#[test]
fn a_signal_then_a_closed_stdout_exits_with_the_signals_status() {
    let easy = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.txt");
    std::fs::write(&path, format!("{easy}\n").repeat(200_000)).unwrap();
    let mut child = std::process::Command::new(bin())
        .args(["canon", "-j", "1"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    // Nobody reads: the run fills the pipe and waits in its write.
    std::thread::sleep(Duration::from_millis(500));
    let pid = child.id().to_string();
    assert!(std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    std::thread::sleep(Duration::from_millis(200));
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.contains("stopped by SIGINT"), "{err}");
}

/// A file of `n` copies of an easy puzzle in `dir`.
fn easy_copies(dir: &Path, n: usize) -> PathBuf {
    let easy = "530070000600195000098000060800060003400803001700020006060000280000419005000080079";
    let path = dir.join("easy.txt");
    std::fs::write(&path, format!("{easy}\n").repeat(n)).unwrap();
    path
}

/// Sends `signal` (`-TERM`) to `child`.
fn send(child: &std::process::Child, signal: &str) {
    assert!(std::process::Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap()
        .success());
}

/// `child`'s exit code and stderr, once it has ended: within 30 s of the
/// call, else it is killed and the test fails (`what` says which run).
fn ended_within_30_s(child: &mut std::process::Child, what: &str) -> (Option<i32>, String) {
    let since = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if since.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{what}: still running 30 s after the signal");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.code(), err)
}

/// A stop signal while the run's write waits on a pipe whose reader no
/// longer reads: the run ends within a few seconds with the signal's status
/// and says that the rows not yet written are lost (found by probing: it
/// waited for a second signal, for ever if none came).
#[test]
fn a_signal_ends_a_run_whose_stdout_is_no_longer_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = easy_copies(dir.path(), 200_000);
    for format in ["csv", "jsonl"] {
        let mut child = std::process::Command::new(bin())
            .args(["canon", "-j", "1", "--format", format])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Held open and never read: the run fills the pipe and waits.
        let stdout = child.stdout.take().unwrap();
        std::thread::sleep(Duration::from_millis(500));
        send(&child, "-TERM");
        let (code, err) = ended_within_30_s(&mut child, format);
        drop(stdout);
        assert_eq!(code, Some(143), "{format}: {err}");
        assert!(
            err.contains("stopped by SIGTERM: a write to the output waited 2 s"),
            "{format}: {err}"
        );
        assert!(
            err.contains("rows not yet written are lost"),
            "{format}: {err}"
        );
    }
}

/// A reader that still reads after a stop signal, however slowly, gets every
/// row of the records finished before it, whole (found by probing: a reader
/// taking 20 KB/s lost rows and once a row's end, the run ended as stalled
/// while a 64 KiB write lasted over 2 s).
#[test]
fn a_slow_reader_after_a_signal_gets_every_finished_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = easy_copies(dir.path(), 1500);
    let mut child = std::process::Command::new(bin())
        .args(["solve", "-j", "1"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    // About 13 KB/s: a 64 KiB write (solve's chunk) takes 5 s.
    let reader = std::thread::spawn(move || {
        let mut all = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            match stdout.read(&mut chunk).unwrap() {
                0 => return all,
                n => all.extend_from_slice(&chunk[..n]),
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    });
    std::thread::sleep(Duration::from_millis(1000));
    send(&child, "-TERM");
    let (code, err) = ended_within_30_s(&mut child, "solve");
    let got = String::from_utf8(reader.join().unwrap()).unwrap();
    assert_eq!(code, Some(143), "{err}");
    let records: usize = err
        .split("stopped by SIGTERM: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{err}"));
    assert!(!err.contains("no longer reads"), "{err}");
    assert!(got.ends_with('\n'));
    assert_eq!(got.lines().count(), records + 1, "{err}");
}

/// `-o FIFO` whose reader no longer reads ends after a stop signal as
/// stdout does (found by probing: it waited for a second signal).
#[test]
fn a_signal_ends_a_run_whose_fifo_output_is_no_longer_read() {
    let dir = tempfile::tempdir().unwrap();
    let path = easy_copies(dir.path(), 200_000);
    let fifo = dir.path().join("out.fifo");
    mkfifo(&fifo);
    let mut child = std::process::Command::new(bin())
        .args(["canon", "-j", "1", "-o"])
        .arg(&fifo)
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Opened and never read.
    let held = std::fs::File::open(&fifo).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    send(&child, "-TERM");
    let (code, err) = ended_within_30_s(&mut child, "-o FIFO");
    drop(held);
    assert_eq!(code, Some(143), "{err}");
    assert!(err.contains("a write to the output waited 2 s"), "{err}");
}
