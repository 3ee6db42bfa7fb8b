//! `sudoflow print` and `--labels` through the binary, as a user runs
//! them: books from the corpora generate, rate and solve write, read back
//! with poppler (pdftotext -raw for the text layer in reading order,
//! pdfinfo for pages and paper, pdftoppm for the pages' pixels; `make
//! test-tools` installs poppler-utils), chapters, answers, solutions step
//! by step, SVG pages, and records that cannot be printed.

use assert_cmd::Command;
use std::path::Path;

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

fn stdout_of(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
}

/// Runs a poppler tool; its stdout.
fn poppler(tool: &str, args: &[&str], file: &Path) -> String {
    let out = std::process::Command::new(tool)
        .args(args)
        .arg(file)
        .args(if tool == "pdftotext" { &["-"][..] } else { &[][..] })
        .output()
        .unwrap_or_else(|e| {
            panic!("{tool} is needed for the book tests ({e}): `make test-tools` installs poppler-utils")
        });
    assert!(
        out.status.success(),
        "{tool}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A grid's 81 characters as the text layer gives its rows: `8 . . 3 ...`.
fn rows_of(cells: &str) -> Vec<String> {
    cells
        .as_bytes()
        .chunks(9)
        .map(|r| {
            r.iter()
                .map(|&b| if b == b'0' { '.' } else { b as char }.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// A generated corpus of `n` rated, labelled puzzles (seed 7), as CSV.
fn corpus(dir: &Path, n: usize) -> (std::path::PathBuf, Vec<Vec<String>>) {
    let path = dir.join("corpus.csv");
    sudoflow()
        .args([
            "generate",
            "-n",
            &n.to_string(),
            "--seed",
            "7",
            "--se",
            "1.0..",
            "--labels",
            "-o",
        ])
        .arg(&path)
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    let rows = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (path, rows)
}

fn col(header: &[String], name: &str) -> usize {
    header.iter().position(|h| h == name).unwrap()
}

#[test]
fn labels_follow_se_generator_levels() {
    let dir = tempfile::tempdir().unwrap();
    let (_, rows) = corpus(dir.path(), 30);
    let header = &rows[0];
    assert_eq!(header.last().unwrap(), "label", "label is the last column");
    let (er, label) = (col(header, "er"), col(header, "label"));
    let mut seen = std::collections::BTreeSet::new();
    for r in &rows[1..] {
        let x: f64 = r[er].parse().unwrap();
        let want = match (x * 10.0).round() as i64 {
            ..=12 => "Easy",
            13..=15 => "Medium",
            16..=25 => "Hard",
            26..=60 => "Fiendish",
            _ => "Diabolical",
        };
        assert_eq!(r[label], want, "er {x}");
        seen.insert(want);
    }
    assert!(seen.len() >= 3, "the corpus spans levels: {seen:?}");

    // rate --labels: the same labels, empty for a row without a rating.
    let mut input: String = rows[1..].iter().map(|r| r[1].clone() + "\n").collect();
    input.push_str("12345\n");
    let out = stdout_of(
        sudoflow()
            .args(["rate", "--labels", "-q"])
            .write_stdin(input),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "index,puzzle,status,er,ep,ed,technique,steps,error,label"
    );
    for (line, r) in lines[1..].iter().zip(&rows[1..]) {
        assert!(line.ends_with(&format!(",{}", r[label])), "{line}");
    }
    assert!(lines
        .last()
        .unwrap()
        .starts_with(&format!("{},12345,invalid", rows.len())));
    assert!(
        lines.last().unwrap().ends_with("\","),
        "invalid row: empty label"
    );
    // Without --labels, no column.
    let plain = stdout_of(
        sudoflow()
            .args(["rate", "-q"])
            .write_stdin(rows[1][1].clone()),
    );
    assert!(!plain.contains("label"));
    // generate --labels needs --se (the rating it labels).
    sudoflow()
        .args(["generate", "-n", "1", "--labels"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--se"));
}

#[test]
fn pdf_book_reads_in_order_with_captions_rows_and_answers() {
    let dir = tempfile::tempdir().unwrap();
    let (path, rows) = corpus(dir.path(), 14);
    let book = dir.path().join("book.pdf");
    sudoflow()
        .args(["print"])
        .arg(&path)
        .arg("-o")
        .arg(&book)
        .assert()
        .success()
        .stderr(predicates::str::contains("printed 14 puzzles on 4 pages"));
    let info = poppler("pdfinfo", &[], &book);
    assert!(info.contains("Pages:           4"), "{info}");
    assert!(info.contains("595.28 x 841.89 pts (A4)"), "{info}");
    assert!(info.contains("Title:           Sudoku"), "{info}");

    // The text layer in reading order: each puzzle's caption, then its 9
    // rows, blanks as '.'; then the answers, each caption then 9 rows of the
    // solution.
    let text = poppler("pdftotext", &["-raw"], &book);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let header = &rows[0];
    let (er, label, sol) = (
        col(header, "er"),
        col(header, "label"),
        col(header, "solution"),
    );
    let mut at = 0;
    for r in &rows[1..] {
        let caption = format!("#{} ER {} \u{b7} {}", r[0], r[er], r[label]);
        let k = lines[at..]
            .iter()
            .position(|l| *l == caption)
            .unwrap_or_else(|| panic!("no caption {caption:?} after line {at}"))
            + at;
        assert_eq!(
            lines[k + 1..k + 10],
            rows_of(&r[1].replace('.', "0"))[..],
            "puzzle {}",
            r[0]
        );
        at = k + 10;
    }
    let answers = lines
        .iter()
        .position(|l| *l == "Answers Sudoku")
        .expect("answer pages");
    assert!(answers >= at);
    at = answers;
    for r in &rows[1..] {
        let caption = format!("#{}", r[0]);
        let k = lines[at..].iter().position(|l| *l == caption).unwrap() + at;
        assert_eq!(
            lines[k + 1..k + 10],
            rows_of(&r[sol])[..],
            "answer {}",
            r[0]
        );
        at = k + 10;
    }
    assert_eq!(
        lines.iter().filter(|l| l.ends_with(" / 4")).count(),
        4,
        "page numbers"
    );

    // The pages as pixels: page 1 has two columns of grids, mostly paper.
    let prefix = dir.path().join("page");
    let out = std::process::Command::new("pdftoppm")
        .args(["-r", "30", "-gray", "-f", "1", "-l", "1"])
        .arg(&book)
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(out.status.success());
    let pgm = std::fs::read(dir.path().join("page-1.pgm")).unwrap();
    let (w, h, pixels) = parse_pgm(&pgm);
    let dark = |x0: usize, x1: usize| {
        (0..h)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| pixels[y * w + x] < 128)
            .count()
    };
    let (left, right) = (dark(0, w / 2), dark(w / 2, w));
    let total = (w * h) as f64;
    assert!(
        left as f64 / total > 0.01 && right as f64 / total > 0.01,
        "{left} {right}"
    );
    assert!(((left + right) as f64) / total < 0.25);
}

/// Width, height and grey levels of a binary PGM (pdftoppm -gray).
fn parse_pgm(data: &[u8]) -> (usize, usize, &[u8]) {
    let mut fields = Vec::new();
    let mut i = 0;
    while fields.len() < 4 {
        while data[i].is_ascii_whitespace() {
            i += 1;
        }
        let start = i;
        while !data[i].is_ascii_whitespace() {
            i += 1;
        }
        fields.push(std::str::from_utf8(&data[start..i]).unwrap().to_string());
    }
    let (w, h) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    (w, h, &data[i + 1..])
}

#[test]
fn chapters_by_rating_letter_paper_and_solutions_step_by_step() {
    let dir = tempfile::tempdir().unwrap();
    let (path, rows) = corpus(dir.path(), 20);
    let header = &rows[0];
    let er = col(header, "er");
    let book = dir.path().join("book.pdf");
    let hard = rows[1..]
        .iter()
        .find(|r| r[er].parse::<f64>().unwrap() > 2.5)
        .unwrap()[0]
        .clone();
    sudoflow()
        .args(["print"])
        .arg(&path)
        .arg("-o")
        .arg(&book)
        .args([
            "--page",
            "letter",
            "--per-page",
            "4",
            "--chapters",
            "1.0..1.5=Warm-up,1.6..2.5",
            "--explain",
            &hard,
            "--no-answers",
        ])
        .assert()
        .success()
        .stderr(predicates::str::contains("in no --chapters range"));
    assert!(poppler("pdfinfo", &[], &book).contains("612 x 792 pts (letter)"));
    let text = poppler("pdftotext", &["-raw"], &book);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    // The chapters in order, each puzzle in the first whose range holds it.
    let chapter_of = |l: &str| {
        if l.starts_with("Warm-up") {
            Some(1)
        } else if l.starts_with("ER 1.6 to 2.5") {
            Some(2)
        } else if l.starts_with("Other ratings") {
            Some(3)
        } else {
            None
        }
    };
    let mut chapter = 0;
    let mut printed = 0;
    for l in &lines {
        if let Some(c) = chapter_of(l) {
            assert!(c >= chapter, "chapters out of order at {l:?}");
            chapter = c;
        } else if l.starts_with('#') && l.contains(" ER ") {
            let x: f64 = l
                .split(" ER ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            let want = if x <= 1.5 {
                1
            } else if x <= 2.5 {
                2
            } else {
                3
            };
            assert_eq!(chapter, want, "{l}");
            printed += 1;
        }
    }
    assert_eq!(printed, 20);
    assert!(!text.contains("Answers"));
    // The solution pages: every step's picture, titled.
    let solution = lines
        .iter()
        .position(|l| l.starts_with(&format!("Solution of #{hard} (")))
        .expect("solution pages");
    let steps = lines[solution..]
        .iter()
        .filter(|l| l.starts_with("Step ") && l.contains(" of "))
        .count();
    assert!(steps > 10, "{steps} steps");
    assert!(text.contains(&format!("Step {steps} of {steps}")));

    // --explain of an index no record has: refused before anything is written.
    let none = dir.path().join("none.pdf");
    sudoflow()
        .args(["print"])
        .arg(&path)
        .arg("-o")
        .arg(&none)
        .args(["--explain", "999"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--explain 999: no printed puzzle has index 999",
        ));
    assert!(!none.exists());
    // A bad chapter range.
    sudoflow()
        .args(["print"])
        .arg(&path)
        .args(["-o", "x.pdf", "--chapters", "3.0..2.0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "\"3.0..2.0\": MIN 3 is greater than MAX 2",
        ));
}

#[test]
fn any_corpus_reads_and_bad_records_are_named_not_lost() {
    let dir = tempfile::tempdir().unwrap();
    let (_, rows) = corpus(dir.path(), 6);
    let puzzles: Vec<String> = rows[1..].iter().map(|r| r[1].clone()).collect();
    // solve's CSV (no er: rated by print), rate's JSON Lines, a plain list
    // with a bad line and a puzzle with two solutions.
    let list = dir.path().join("list.txt");
    let multiple =
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    std::fs::write(
        &list,
        format!("{}\n12345\n{multiple}\n{}\n", puzzles[0], puzzles[1]),
    )
    .unwrap();
    let solved = dir.path().join("solved.csv");
    sudoflow()
        .arg("solve")
        .arg(&list)
        .arg("-o")
        .arg(&solved)
        .assert()
        .success();
    let rated = dir.path().join("rated.jsonl");
    sudoflow()
        .arg("rate")
        .arg(&list)
        .arg("-o")
        .arg(&rated)
        .arg("--labels")
        .assert()
        .success();
    let ers = stdout_of(sudoflow().args(["rate", "-q"]).arg(&list));
    let er_of = |i: usize| {
        ers.lines()
            .nth(i)
            .unwrap()
            .split(',')
            .nth(3)
            .unwrap()
            .to_string()
    };
    for input in [&list, &solved, &rated] {
        let book = dir.path().join("b.pdf");
        let assert = sudoflow()
            .arg("print")
            .arg(input)
            .arg("-o")
            .arg(&book)
            .assert()
            .success();
        let err = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        let name = input.display().to_string();
        assert!(err.contains(&format!("{name}:")), "{err}");
        assert!(
            err.contains("wrong length") || err.contains("invalid"),
            "{input:?}: {err}"
        );
        assert!(err.contains("more than one solution"), "{input:?}: {err}");
        assert!(
            err.contains("printed 2 puzzles") && err.contains("2 records left out"),
            "{err}"
        );
        let text = poppler("pdftotext", &["-raw"], &book);
        // The records keep their index (1 and 4), rated as rate rates them.
        assert!(
            text.contains(&format!("#1 ER {} \u{b7}", er_of(1))),
            "{input:?}: {text}"
        );
        assert!(
            text.contains(&format!("#4 ER {} \u{b7}", er_of(4))),
            "{input:?}"
        );
    }
    // Nothing printable: exit 1, no book.
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "12345\n").unwrap();
    let book = dir.path().join("nothing.pdf");
    sudoflow()
        .arg("print")
        .arg(&bad)
        .arg("-o")
        .arg(&book)
        .assert()
        .code(1)
        .stderr(predicates::str::contains(format!(
            "sudoflow: {}:1: wrong length: expected 81 cells, found 5: not printed",
            bad.display()
        )))
        .stderr(predicates::str::contains("no puzzle to print"));
    assert!(!book.exists());
    // A missing input: exit 2, naming it.
    sudoflow()
        .args(["print", "missing.csv", "-o"])
        .arg(&book)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("missing.csv"));
}

#[test]
fn svg_pages_one_file_each() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = corpus(dir.path(), 7);
    let out = dir.path().join("pages.svg");
    sudoflow()
        .arg("print")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--per-page", "6"])
        .assert()
        .success();
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with("pages"))
        .collect();
    names.sort();
    assert_eq!(names, ["pages-001.svg", "pages-002.svg", "pages-003.svg"]);
    let first = std::fs::read_to_string(dir.path().join("pages-001.svg")).unwrap();
    assert!(first.contains("width=\"595.28\" height=\"841.89\""));
    assert_eq!(first.matches(">#").count(), 6, "six captions");
    // Every page parses as SVG.
    for n in &names {
        let text = std::fs::read_to_string(dir.path().join(n)).unwrap();
        resvg::usvg::Tree::from_str(&text, &resvg::usvg::Options::default()).unwrap();
    }
    // A shorter book to the same name: the third page, left by the first
    // book, goes (it read as part of this one before).
    sudoflow()
        .arg("print")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--per-page", "6", "--no-answers"])
        .assert()
        .success()
        .stderr(predicates::str::contains("on 2 pages to "))
        .stderr(predicates::str::contains(
            "removed 1 page left by an earlier run",
        ));
    assert!(!dir.path().join("pages-003.svg").exists());
}

/// Two corpora each numbered from 1: the captions name each puzzle's input
/// (`a:1`, `b:1`), `--explain` takes those and refuses an index that names
/// two puzzles, naming both. Before, both were captioned `#1` and
/// `--explain 1` silently explained the first. One corpus repeating an
/// index keeps its captions and says so.
#[test]
fn overlapping_indices_get_captions_naming_their_input() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = corpus(dir.path(), 2);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let (first, second) = (lines.next().unwrap(), lines.next().unwrap());
    let a = dir.path().join("a.csv");
    let b = dir.path().join("b.csv");
    std::fs::write(&a, format!("{header}\n{first}\n")).unwrap();
    // b's puzzle numbered 1 as well.
    let renumbered = second.replacen("2,", "1,", 1);
    std::fs::write(&b, format!("{header}\n{renumbered}\n")).unwrap();
    let out = dir.path().join("book.svg");
    let print = |explain: &str| {
        sudoflow()
            .arg("print")
            .args([&a, &b])
            .arg("-o")
            .arg(&out)
            .args(["--explain", explain])
            .assert()
    };
    let refused = print("1").code(2).get_output().stderr.clone();
    let refused = String::from_utf8_lossy(&refused);
    assert!(
        refused.contains("--explain 1: 2 printed puzzles have index 1")
            && refused.contains("a.csv:2 (caption #a:1)")
            && refused.contains("b.csv:2 (caption #b:1)"),
        "{refused}"
    );
    let done = print("b:1").success().get_output().stderr.clone();
    assert!(
        String::from_utf8_lossy(&done).contains("each caption names its input too (a:1, b:1)"),
        "{}",
        String::from_utf8_lossy(&done)
    );
    let pages: String = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("book-")
        })
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    assert!(pages.contains(">#a:1<") && pages.contains(">#b:1<"));
    assert!(!pages.contains(">#1<"));
    // One input repeating an index: the captions stay, the repeat is said.
    let twice = dir.path().join("twice.csv");
    std::fs::write(&twice, format!("{header}\n{first}\n{renumbered}\n")).unwrap();
    sudoflow()
        .arg("print")
        .arg(&twice)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains("index 1 names 2 records"));
}

/// `print` refuses to write over its input, as the other commands do: the
/// PDF named as the input (or through a link), or an SVG page's name.
/// Before, the puzzle list was replaced by the book.
#[test]
fn print_never_writes_over_its_input() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = corpus(dir.path(), 3);
    let want = std::fs::read(&path).unwrap();
    let link = dir.path().join("link.csv");
    std::os::unix::fs::symlink(&path, &link).unwrap();
    let page = dir.path().join("book-001.svg");
    std::fs::copy(&path, &page).unwrap();
    for (input, output) in [
        (&path, path.clone()),
        (&link, path.clone()),
        (&page, dir.path().join("book.svg")),
    ] {
        sudoflow()
            .arg("print")
            .arg(input)
            .arg("-o")
            .arg(&output)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("refusing to write output"));
        assert_eq!(std::fs::read(input).unwrap(), want);
    }
}

/// A signal while an SVG book's pages are being written left some pages of
/// the new book and the rest of the old one (exit 130, no message). Now no
/// page is replaced until all are written: the old book stays whole.
#[cfg(unix)]
#[test]
fn a_signal_while_svg_pages_are_written_leaves_the_earlier_book_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = corpus(dir.path(), 7);
    let out = dir.path().join("pages.svg");
    let pages = || -> Vec<(String, Vec<u8>)> {
        let mut pages: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().starts_with("pages"))
            .map(|e| {
                let bytes = std::fs::read(e.path()).unwrap();
                (e.file_name().into_string().unwrap(), bytes)
            })
            .collect();
        pages.sort();
        pages
    };
    sudoflow()
        .arg("print")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--per-page", "6"])
        .assert()
        .success();
    let before = pages();
    assert_eq!(before.len(), 3);
    // One puzzle a page, each page written 50 ms after the last (a test
    // hook), stopped once the first is on disk.
    let child = std::process::Command::new("env")
        .arg("--default-signal")
        .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
        .arg("print")
        .arg(&path)
        .arg("-o")
        .arg(&out)
        .args(["--per-page", "1"])
        .env("SUDOFLOW_TEST_WRITE_DELAY_MS", "50")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first page, written beside its name (`.pages-001.svg.XXXXXX.partial`).
    let first = || {
        std::fs::read_dir(dir.path()).unwrap().any(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.starts_with(".pages-001.svg.") && name.ends_with(".partial")
        })
    };
    let waiting = std::time::Instant::now();
    while !first() {
        assert!(waiting.elapsed().as_secs() < 60, "no page written");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: kill(2) on the child started above, not reaped yet.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(143), "{err}");
    assert!(
        err.contains("stopped by SIGTERM before the pages were in place: none written"),
        "{err}"
    );
    assert!(pages() == before, "the earlier pages changed");
}

/// `--chapters` takes ratings of one decimal, as every rating option does:
/// found by probing, `1.05..2` was rounded to "ER 1.1 to 2.0" unsaid. (The
/// message is `generate --se`'s, whose parser `--chapters` shares.)
#[test]
fn a_chapter_bound_of_two_decimals_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.pdf");
    sudoflow()
        .args(["print", "--chapters", "1.05..2", "-o"])
        .arg(&book)
        .write_stdin(format!(
            "{}\n",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."
        ))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "\"1.05..2\": \"1.05\": ratings have one decimal",
        ));
    assert!(!book.exists());
}

/// A JSON Lines record that is no object, or has no puzzle field, is left
/// out saying so: found by probing, both were "wrong length: expected 81
/// cells, found 0".
#[test]
fn a_json_line_without_a_puzzle_says_what_it_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("c.jsonl");
    std::fs::write(
        &input,
        "{\"puzzle\":\"8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..\"}\n[1,2]\n{\"x\":1}\n",
    )
    .unwrap();
    let out = sudoflow()
        .arg("print")
        .arg(&input)
        .arg("-o")
        .arg(dir.path().join("b.pdf"))
        .assert()
        .success()
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let name = input.display();
    assert!(
        stderr.contains(&format!("{name}:2: not a JSON object: not printed")),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "{name}:3: no puzzle or quizzes or quiz field: not printed"
        )),
        "{stderr}"
    );
}

/// Two 17-clue puzzles (puzzles2_17_clue.txt's first): ER 2.6 and 2.0.
const P1: &str =
    ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...";
const P2: &str =
    ".................1.....2.3......3.2...4....5...6.1.....3......6.7..8...952.7.....";

/// The puzzles a PDF book prints (its answers aside), in order: each
/// caption's nine rows as 81 characters, blanks as '.'.
fn printed(book: &Path) -> Vec<String> {
    let text = poppler("pdftotext", &["-raw"], book);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    (0..lines.len())
        .filter(|&k| lines[k].starts_with('#') && lines[k].contains(" ER "))
        .map(|k| lines[k + 1..k + 10].concat().replace(' ', ""))
        .collect()
}

/// gzip of `bytes`.
fn gz(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// `print --column N` reads column N of a CSV as `solve --column N` does,
/// plain or gzipped, with a header or without. Found by probing: print
/// read the header's puzzle column (`quizzes,other`: the first) of a plain
/// or gzip CSV, and of a headerless `a,P1` the first field (nothing
/// printed, exit 1); only a zip archive was read right.
#[test]
fn print_column_number_reads_that_column_of_any_csv() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!("quizzes,other\n{P1},{P2}\n");
    let plain = dir.path().join("k2.csv");
    std::fs::write(&plain, &text).unwrap();
    let gzipped = dir.path().join("k2.csv.gz");
    std::fs::write(&gzipped, gz(text.as_bytes())).unwrap();
    let book = dir.path().join("b.pdf");
    for input in [&plain, &gzipped] {
        sudoflow()
            .args(["print", "--column", "2", "-o"])
            .arg(&book)
            .arg(input)
            .assert()
            .success()
            .stderr(predicates::str::contains("printed 1 puzzle on"));
        assert_eq!(printed(&book), [P2], "{input:?}");
        // As solve reads it.
        let solved = stdout_of(sudoflow().args(["solve", "-q", "--column", "2"]).arg(input));
        assert!(solved.lines().nth(1).unwrap().contains(P2), "{solved}");
    }
    let headerless = dir.path().join("h.csv");
    std::fs::write(&headerless, format!("a,{P1}\nb,{P2}\n")).unwrap();
    sudoflow()
        .args(["print", "--column", "2", "-o"])
        .arg(&book)
        .arg(&headerless)
        .assert()
        .success()
        .stderr(predicates::str::contains("printed 2 puzzles on"));
    assert_eq!(printed(&book), [P1, P2]);
}

/// `print --column NAME` that the header lacks is refused as every
/// command refuses it (exit 2, naming the input and its columns), no book
/// written. Found by probing: print read the file as a list instead.
#[test]
fn print_column_name_the_header_lacks_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("named.csv");
    std::fs::write(&input, format!("puzzle,x\n{P1},1\n")).unwrap();
    let message = format!(
        "input {} has no column named \"nope\" (--column): its first line, read as a CSV \
         header, names \"puzzle\", \"x\"",
        input.display()
    );
    let book = dir.path().join("b.pdf");
    sudoflow()
        .args(["print", "--column", "nope", "-o"])
        .arg(&book)
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(message.clone()));
    assert!(!book.exists());
    sudoflow()
        .args(["solve", "--column", "nope"])
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(message));
    // A name the header has (any case) is read.
    sudoflow()
        .args(["print", "--column", "PUZZLE", "-o"])
        .arg(&book)
        .arg(&input)
        .assert()
        .success();
    assert_eq!(printed(&book), [P1]);
}

/// A zip archive (or gzip) piped to print is read as by name, its CSV
/// member's index, er and label columns too. Found by probing: `print -o
/// z.pdf - < arch.zip` read nothing ("0 records read", exit 1): print had
/// taken stdin's bytes before the reader opened it again.
#[test]
fn a_zip_archive_piped_to_print_is_read() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut zip = zip::ZipWriter::new(&mut bytes);
        let options = zip::write::SimpleFileOptions::default();
        zip.start_file("m.txt", options).unwrap();
        zip.write_all(format!("{P1}\n{P2}\n").as_bytes()).unwrap();
        zip.start_file("c.csv", options).unwrap();
        zip.write_all(format!("index,puzzle,er,label\n7,{P2},3.1,Mine\n").as_bytes())
            .unwrap();
        zip.finish().unwrap();
    }
    let archive = bytes.into_inner();
    let named = dir.path().join("arch.zip");
    std::fs::write(&named, &archive).unwrap();
    let book = dir.path().join("z.pdf");
    let list = format!("{P1}\n{P2}\n").into_bytes();
    for (input, stdin, want) in [
        (Some(&named), None, vec![P1, P2, P2]),
        (None, Some(archive.clone()), vec![P1, P2, P2]),
        (None, Some(gz(&list)), vec![P1, P2]),
    ] {
        let mut cmd = sudoflow();
        cmd.args(["print", "-o"]).arg(&book);
        match (input, stdin) {
            (Some(path), _) => cmd.arg(path),
            (None, Some(bytes)) => cmd.arg("-").write_stdin(bytes),
            (None, None) => unreachable!(),
        };
        cmd.assert()
            .success()
            .stderr(predicates::str::contains(format!(
                "printed {} puzzles on",
                want.len()
            )));
        assert_eq!(printed(&book), want, "{input:?}");
        let text = poppler("pdftotext", &["-raw"], &book);
        assert_eq!(
            text.contains("#7 ER 3.1 \u{b7} Mine"),
            want.len() == 3,
            "{text}"
        );
    }
}

/// `--chapters` takes ranges as `generate --se` does: `MIN..=MAX` is the
/// range MIN to MAX, one rating is a range; titles still follow `=`
/// (`6.1..=Diabolical` titles the open range, as the help writes it).
/// Found by probing: `1.0..=2.0` was split at its `=` (a chapter `1.0..`
/// titled "2.0") and `6.5` was refused.
#[test]
fn chapters_take_ranges_as_generate_se_does() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("c.csv");
    std::fs::write(&input, format!("index,puzzle,er\n1,{P1},2.6\n2,{P2},2.0\n")).unwrap();
    let book = dir.path().join("b.pdf");
    let chapters = |spec: &str| -> (Vec<String>, String) {
        let out = sudoflow()
            .arg("print")
            .arg(&input)
            .arg("-o")
            .arg(&book)
            .args(["--no-answers", "--chapters", spec])
            .assert()
            .success()
            .get_output()
            .clone();
        let text = poppler("pdftotext", &["-raw"], &book);
        let headings = text
            .lines()
            .map(str::trim)
            .filter(|l| l.contains(" in this chapter") || l.starts_with('#'))
            .map(|l| match l.split_once(" 1 puzzles in this chapter") {
                Some((title, _)) => format!("= {title}"),
                None => l.split(" ER ").next().unwrap().to_string(),
            })
            .collect();
        (headings, String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (headings, _) = chapters("1.0..=2.0,2.1..3.0");
    assert_eq!(headings, ["= ER 1.0 to 2.0", "#2", "= ER 2.1 to 3.0", "#1"]);
    let (headings, err) = chapters("2.6=Exact,2.1..=Hard,6.5");
    assert_eq!(headings, ["= Exact", "#1", "= Other ratings", "#2"]);
    assert!(
        err.contains("no puzzle in chapters Hard, ER 6.5: left out"),
        "{err}"
    );
    let (headings, _) = chapters("..=2.0=Gentle,2.6");
    assert_eq!(headings, ["= Gentle", "#2", "= ER 2.6", "#1"]);
    // A range --se refuses is refused the same way.
    sudoflow()
        .arg("print")
        .arg(&input)
        .args(["-o", "x.pdf", "--chapters", "1.0-2.0"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "a range is written MIN..MAX (two dots), e.g. 1.0..2.0",
        ));
}

/// A record of a `--source` CSV (or JSON Lines) is named by its `source`
/// and `line` columns, as rate names it; a `#` comment line in JSON Lines
/// is skipped, as the format's detection skips it. Found by probing: print
/// named the record by its line in the CSV (`cs.csv:4` for `mix.txt:5`),
/// and read the comment as a record ("not JSON").
#[test]
fn print_names_records_by_their_source_columns_and_skips_json_comments() {
    let dir = tempfile::tempdir().unwrap();
    let at = |cmd: &mut Command| -> Command {
        let mut c = std::mem::replace(cmd, sudoflow());
        c.current_dir(dir.path());
        c
    };
    std::fs::write(
        dir.path().join("mix.txt"),
        format!("{P1}\n{P2}\n\n# c\n12345\n"),
    )
    .unwrap();
    let canon = stdout_of(&mut at(
        sudoflow().args(["canon", "-q", "--source", "mix.txt"])
    ));
    std::fs::write(dir.path().join("cs.csv"), &canon).unwrap();
    let rated = stdout_of(&mut at(
        sudoflow().args(["rate", "-q", "--source", "--format", "jsonl", "mix.txt"])
    ));
    std::fs::write(dir.path().join("r.jsonl"), &rated).unwrap();
    // rate names the record so.
    let rerated = stdout_of(&mut at(sudoflow()
        .args(["rate", "-q", "--source", "-"])
        .write_stdin(canon.clone())));
    assert!(rerated.contains("\"mix.txt:5: wrong length"), "{rerated}");
    let want = "sudoflow: mix.txt:5: wrong length: expected 81 cells, found 5: not printed";
    for (args, stdin) in [
        (&["cs.csv"][..], None),
        (&["-"][..], Some(canon.clone())),
        (&["r.jsonl"][..], None),
    ] {
        let mut cmd = at(sudoflow().args(["print", "-o", "b.pdf"]).args(args));
        if let Some(stdin) = stdin {
            cmd.write_stdin(stdin);
        }
        cmd.assert()
            .success()
            .stderr(predicates::str::contains(want))
            .stderr(predicates::str::contains("printed 2 puzzles on"));
        assert_eq!(printed(&dir.path().join("b.pdf")), [P1, P2], "{args:?}");
    }
    // A comment in JSON Lines: skipped, not a record.
    let jsonl = dir.path().join("c.jsonl");
    std::fs::write(&jsonl, format!("# a comment\n{{\"puzzle\":\"{P1}\"}}\n")).unwrap();
    let book = dir.path().join("j.pdf");
    let out = sudoflow()
        .arg("print")
        .arg(&jsonl)
        .arg("-o")
        .arg(&book)
        .assert()
        .success()
        .get_output()
        .clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("printed 1 puzzle on")
            && !err.contains("not printed")
            && !err.contains("left out"),
        "{err}"
    );
    assert_eq!(printed(&book), [P1]);
}
