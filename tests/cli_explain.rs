//! `sudoflow explain` through the binary, as a user runs it (issue 32,
//! points 1 and 2): each step with Sudoku Explainer's facts (cells, value
//! placed, candidates removed, chains) and told in words; files in batch
//! as `rate` reads them, one JSON object per record in input order, the
//! same bytes for any -j, with -o and --resume.
//!
//! Puzzles: tests/data/se_rated.txt (rated by SE 1.2.1.3, ER 1.2 to 8.9);
//! SE's own steps, when `../shared/datasets/se/steps` is at hand, for the
//! facts themselves (tests/se_explain.rs compares all of them).

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;

const RATED: &str = include_str!("data/se_rated.txt");
/// A puzzle with two solutions (from datasets/sample.txt).
const MULTIPLE: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
/// A well-formed puzzle with no solution.
const UNSOLVABLE: &str =
    ".123456789.......................................................................";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_sudoflow"))
}

/// The reference lines: (puzzle, "er/ep/ed").
fn references() -> Vec<(String, String)> {
    RATED
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            (
                l[..81].to_owned(),
                l.split("ED=").nth(1).unwrap().to_owned(),
            )
        })
        .collect()
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// The stdout of a run that exits 1 (a puzzle argument not explained).
fn failed_stdout(cmd: &mut Command) -> String {
    let out = cmd.assert().code(1).get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// Every JSON value of a stream (JSON Lines or pretty objects one after
/// another).
fn values(text: &str) -> Vec<Value> {
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .map(|v| v.unwrap())
        .collect()
}

/// The puzzle of the reference rated `er`.
fn puzzle_rated(er: &str) -> String {
    references()
        .into_iter()
        .find(|(_, e)| e.starts_with(er))
        .unwrap()
        .0
}

const KEYS: [&str; 10] = [
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

/// A cell name `r1c2`.
fn is_cell(v: &Value) -> bool {
    let s = v.as_str().unwrap_or("");
    let b = s.as_bytes();
    b.len() == 4
        && b[0] == b'r'
        && b[2] == b'c'
        && (b'1'..=b'9').contains(&b[1])
        && (b'1'..=b'9').contains(&b[3])
}

/// `["r1c2", 3, true]`.
fn is_potential(v: &Value) -> bool {
    let a = v.as_array().unwrap();
    a.len() == 3 && is_cell(&a[0]) && (1..=9).contains(&a[1].as_u64().unwrap()) && a[2].is_boolean()
}

/// `r1c2=3` / `r1c2<>3` of a potential.
fn name(p: &Value) -> String {
    let a = p.as_array().unwrap();
    let op = if a[2].as_bool().unwrap() { "=" } else { "<>" };
    format!("{}{op}{}", a[0].as_str().unwrap(), a[1])
}

#[test]
fn every_step_carries_the_hints_facts_and_the_text_tells_each_implication() {
    // ER 8.9: singles, locked candidates, subsets, forcing chains, cell,
    // region and dynamic chains on one path.
    let puzzle = puzzle_rated("8.9");
    let json = stdout_of(sudoflow().args(["explain", &puzzle, "--format", "json"]));
    assert!(json.starts_with("{\n  \"index\": 1,"), "{json}");
    let v = &values(&json)[0];
    assert_keys_in_order(&json, &KEYS);
    assert_eq!(v["status"], "rated");
    assert_eq!(
        format!("{}/{}/{}", v["er"], v["ep"], v["ed"]),
        "8.9/1.2/1.2"
    );
    let steps = v["steps"].as_array().unwrap();
    let hardest = &steps[v["hardest_step"].as_u64().unwrap() as usize - 1];
    assert_eq!(hardest["technique"], v["technique"]);
    assert_eq!(format!("{:.1}", hardest["rating"].as_f64().unwrap()), "8.9");
    let (mut chained, mut implications) = (0, Vec::new());
    // Each step's keys, in order.
    let line = stdout_of(sudoflow().args(["explain", &puzzle, "--format", "jsonl"]));
    let pieces: Vec<&str> = line.split("{\"rating\":").skip(1).collect();
    assert_eq!(pieces.len(), steps.len());
    for piece in pieces {
        assert_keys_in_order(
            piece,
            &["technique", "cells", "placed", "removed", "chains"],
        );
    }
    for step in steps {
        let cells = step["cells"].as_array().unwrap();
        assert!(!cells.is_empty() && cells.iter().all(is_cell), "{step}");
        let technique = step["technique"].as_str().unwrap();
        let chains = step["chains"].as_array().unwrap();
        let is_chain = technique.contains("Chain")
            || technique.contains("Cycle")
            || technique == "Turbot Fish";
        assert_eq!(!chains.is_empty(), is_chain, "{step}");
        // A single names the cell it fills.
        if technique.ends_with("Single") {
            assert_eq!(
                step["placed"].as_str().unwrap()[..4],
                *cells[0].as_str().unwrap()
            );
        }
        for chain in chains {
            chained += 1;
            let chain = chain.as_array().unwrap();
            assert!(!chain.is_empty());
            let mut derived: Vec<String> = Vec::new();
            for (k, i) in chain.iter().enumerate() {
                let given = i["if"].as_array().unwrap();
                assert!(!given.is_empty() && given.iter().all(is_potential), "{i}");
                assert!(is_potential(&i["then"]), "{i}");
                let why = i["why"].as_str().unwrap();
                assert!(["cell", "row", "column", "block", ""].contains(&why), "{i}");
                // Parents come first: every premise but the assumption was
                // derived above (the first implication follows from it).
                if k > 0 {
                    for g in given {
                        let g = name(g);
                        assert!(
                            derived.contains(&g) || g == name(given_first(chain)),
                            "{g} used before it is derived"
                        );
                    }
                }
                derived.push(name(&i["then"]));
                implications.push(format!(
                    "{} -> {}",
                    given.iter().map(name).collect::<Vec<_>>().join(", "),
                    name(&i["then"])
                ));
            }
        }
    }
    assert!(chained >= 4, "a path rated 8.9 has chains");
    // The text names each implication, in the project's words.
    let text = stdout_of(sudoflow().args(["explain", &puzzle]));
    for i in &implications {
        assert!(text.contains(i), "the text lacks {i}");
    }
    for word in [
        "the only place left for",
        "is once in",
        "a cell holds one digit",
    ] {
        assert!(text.contains(word), "{word}");
    }
    // Not SE's sentences.
    assert!(!text.contains("contain the value"));
    assert!(!text.contains("can occur only once"));
}

/// Whether the first occurrences of `"key":` in `text` follow `keys`'
/// order (serde_json's values sort their keys, so the text is read).
fn assert_keys_in_order(text: &str, keys: &[&str]) {
    let at: Vec<usize> = keys
        .iter()
        .map(|k| {
            text.find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("no {k} in {text}"))
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "keys {keys:?} out of order in {text}"
    );
}

/// The assumption a chain starts from: the first premise of its first
/// implication.
fn given_first(chain: &[Value]) -> &Value {
    &chain[0]["if"][0]
}

/// SE's own steps for the first puzzles of the reference set, when it is
/// here: `explain`'s JSON is SE's, fact for fact.
#[test]
fn json_steps_are_ses_own() {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let file = [
        std::env::var_os("SUDOFLOW_SE_STEPS").map(PathBuf::from),
        Some(manifest.join("../shared/datasets/se/steps")),
        Some(manifest.join("../../shared/datasets/se/steps")),
    ]
    .into_iter()
    .flatten()
    .map(|d| d.join("dev_hard_100.jsonl.gz"))
    .find(|f| f.is_file());
    let Some(file) = file else {
        sudoflow::datasets::skip_missing("../shared/datasets/se/steps not found");
        return;
    };
    let mut text = String::new();
    use std::io::Read;
    flate2::read::GzDecoder::new(std::fs::File::open(file).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let refs: Vec<Value> = text
        .lines()
        .take(5)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let input: String = refs
        .iter()
        .map(|r| format!("{}\n", r["puzzle"].as_str().unwrap()))
        .collect();
    let out = stdout_of(
        sudoflow()
            .args(["explain", "-q", "--format", "jsonl"])
            .write_stdin(input),
    );
    let ours = values(&out);
    assert_eq!(ours.len(), refs.len());
    for (o, r) in ours.iter().zip(&refs) {
        let (os, rs) = (
            o["steps"].as_array().unwrap(),
            r["steps"].as_array().unwrap(),
        );
        assert_eq!(os.len(), rs.len());
        for (a, b) in os.iter().zip(rs) {
            // SE's file joins the removals with spaces and writes "" for no
            // value placed.
            let mut a = a.clone();
            let removed: Vec<&str> = a["removed"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap())
                .collect();
            a["removed"] = Value::from(removed.join(" "));
            if a["placed"].is_null() {
                a["placed"] = Value::from("");
            }
            assert_eq!(a, *b);
        }
    }
}

/// An input with every kind of record: rated puzzles, comments and blank
/// lines, a bad one, one with two solutions, one with none.
fn mixed_input(dir: &Path) -> (PathBuf, usize) {
    let refs = references();
    let mut text = String::from("# puzzles to explain\n");
    let mut records = 0;
    for (i, (p, e)) in refs.iter().enumerate() {
        text += &format!("{p} ED={e}\n");
        records += 1;
        if i == 3 {
            text += "\n12345\n";
            text += &format!("{MULTIPLE}\n{UNSOLVABLE}\n");
            records += 3;
        }
    }
    let path = dir.join("mixed.txt");
    std::fs::write(&path, text).unwrap();
    (path, records)
}

#[test]
fn files_give_one_object_per_record_in_order_the_same_for_any_j() {
    let dir = tempfile::tempdir().unwrap();
    let (input, records) = mixed_input(dir.path());
    let input = input.to_str().unwrap();
    let one = stdout_of(sudoflow().args(["explain", "-q", "-j", "1", "--format", "jsonl", input]));
    let two = stdout_of(sudoflow().args([
        "explain",
        "-q",
        "-j",
        "2",
        "--batch-size",
        "1",
        "--format",
        "jsonl",
        input,
    ]));
    assert_eq!(one, two, "-j 1 and -j 2 differ");
    assert_eq!(one.lines().count(), records);
    let rows = values(&one);
    let rate = stdout_of(sudoflow().args(["rate", "-q", input]));
    for (i, (row, rate_line)) in rows.iter().zip(rate.lines().skip(1)).enumerate() {
        assert_eq!(row.as_object().unwrap().len(), KEYS.len());
        assert_eq!(row["index"], i as u64 + 1);
        // rate's row, column for column.
        let f: Vec<&str> = rate_line.split(',').collect();
        assert_eq!(row["puzzle"], f[1]);
        assert_eq!(row["status"], f[2]);
        if f[2] == "rated" {
            assert_eq!(
                format!("{}/{}/{}", row["er"], row["ep"], row["ed"]),
                format!("{}/{}/{}", f[3], f[4], f[5])
            );
            assert_eq!(row["technique"], f[6]);
            assert_eq!(
                row["steps"].as_array().unwrap().len(),
                f[7].parse::<usize>().unwrap()
            );
            assert!(row["error"].is_null());
        } else {
            assert!(row["steps"].is_null() && row["er"].is_null(), "{row}");
        }
    }
    for line in one.lines() {
        assert_keys_in_order(line, &KEYS);
    }
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(&statuses[4..7], ["invalid", "multiple", "unsolvable"]);
    assert!(
        rows[4]["error"]
            .as_str()
            .unwrap()
            .contains("mixed.txt:7: wrong length"),
        "{}",
        rows[4]
    );
    // --format json: the same objects, pretty-printed one after another.
    let pretty = stdout_of(sudoflow().args(["explain", "-q", "--format", "json", input]));
    assert_eq!(values(&pretty), rows);
    // Text: one block per record, set apart by a blank line.
    let text = stdout_of(sudoflow().args(["explain", "-q", input]));
    assert_eq!(text.matches("\npuzzle   ").count(), records);
    for k in 1..=records {
        assert!(text.contains(&format!("index    {k}\n")), "record {k}");
    }
    assert!(text.contains("status   invalid: "));
    assert!(text.contains("status   multiple: the puzzle has more than one solution"));
    assert!(text.contains("status   unsolvable: ") && text.contains(": no solution"));
    // --strict: everything written, then exit 1.
    sudoflow()
        .args(["explain", "-q", "--strict", "--format", "jsonl", input])
        .assert()
        .code(1)
        .stdout(one.clone());
    // stdin, a CSV column and a gzip file read as rate reads them.
    let again = stdout_of(
        sudoflow()
            .args(["explain", "-q", "--format", "jsonl", "-"])
            .write_stdin(std::fs::read(input).unwrap()),
    );
    assert_eq!(
        again.replace("<stdin>", "mixed.txt"),
        one.replace(input, "mixed.txt")
    );
}

#[test]
fn o_picks_the_format_by_extension_and_writes_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let (input, records) = mixed_input(dir.path());
    let jsonl = dir.path().join("out.jsonl");
    sudoflow()
        .args(["explain", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&jsonl)
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&jsonl).unwrap();
    assert_eq!(text.lines().count(), records);
    assert!(!dir.path().join("out.jsonl.partial").exists());
    let txt = dir.path().join("out.txt");
    sudoflow()
        .args(["explain", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&txt)
        .assert()
        .success();
    assert!(std::fs::read_to_string(&txt)
        .unwrap()
        .starts_with("index    1\npuzzle   "));
    // The output may not be the input.
    sudoflow()
        .args(["explain", "-q"])
        .arg(&input)
        .arg("-o")
        .arg(&input)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("it is the input"));
    // Only JSON Lines runs resume.
    sudoflow()
        .args(["explain", "-q", "--resume"])
        .arg(&input)
        .arg("-o")
        .arg(&txt)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--format jsonl"));
    // An interrupted text or json run's partial file names its format, not
    // the rows' csv (found by probing).
    for (name, format) in [("stale.txt", "text"), ("stale.json", "json")] {
        let out = dir.path().join(name);
        std::fs::write(dir.path().join(format!("{name}.partial")), "rows\n").unwrap();
        sudoflow()
            .args(["explain", "-q", "--format", format])
            .arg(&input)
            .arg("-o")
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains(format!(
                "(`sudoflow explain` writing {format} cannot resume it)"
            )));
    }
}

#[test]
fn puzzles_on_the_command_line_keep_their_exit_codes() {
    let refs = references();
    let (p1, p2) = (&refs[9].0, &refs[10].0);
    // One puzzle: text; '-' reads stdin as a file.
    let text = stdout_of(sudoflow().args(["explain", p1]));
    assert!(text.starts_with(&format!(
        "index    1\npuzzle   {}\nrating   ER ",
        p1.replace('0', ".")
    )));
    let piped = stdout_of(
        sudoflow()
            .args(["explain", "-q", "-"])
            .write_stdin(format!("{p1}\n")),
    );
    assert_eq!(piped, text);
    // Two: two blocks, in order.
    let both = stdout_of(sudoflow().args(["explain", p1, p2]));
    // (The second is record 2 of the run.)
    let second =
        stdout_of(sudoflow().args(["explain", p2])).replacen("index    1\n", "index    2\n", 1);
    assert!(
        both == format!("{text}\n{second}"),
        "two puzzles' text differs"
    );
    // Text after the puzzle is ignored, as in files.
    let with_rating = stdout_of(sudoflow().args(["explain", &format!("{p1} ED=6.6/1.2/1.2")]));
    assert_eq!(with_rating, text);
    sudoflow()
        .args(["explain", MULTIPLE])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicates::str::contains("more than one solution"));
    sudoflow()
        .args(["explain", UNSOLVABLE])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("no solution"));
    // In JSON Lines the row says it, and the exit code as in text (found
    // by probing: jsonl exited 0).
    let row = failed_stdout(sudoflow().args(["explain", MULTIPLE, "--format", "jsonl"]));
    assert_eq!(values(&row)[0]["status"], "multiple");
    // An argument that is not a puzzle is a record as in a file (found by
    // probing: it ended the run before any puzzle, exit 2, where -p and
    // files give it its row): said on stderr with the others explained,
    // exit 1; in JSON Lines its row.
    sudoflow()
        .args(["explain", "123"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains(
            "the puzzle is not valid: wrong length",
        ));
    let clash = "11...............................................................................";
    sudoflow()
        .args(["explain", clash])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("not valid"));
    let out = sudoflow()
        .args(["explain", p1, "123", clash, p1])
        .assert()
        .code(1)
        .get_output()
        .clone();
    // Records 1 and 4 explained.
    let fourth = text.replacen("index    1\n", "index    4\n", 1);
    assert!(
        String::from_utf8_lossy(&out.stdout) == format!("{text}\n{fourth}"),
        "records 1 and 4"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("puzzle 2: ") && stderr.contains("puzzle 3: "),
        "{stderr}"
    );
    let rows = values(&failed_stdout(
        sudoflow().args(["explain", p1, "123", clash, "--format", "jsonl"]),
    ));
    let statuses: Vec<&str> = rows.iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["rated", "invalid", "invalid"]);
    assert_eq!(
        rows[1]["error"],
        "argument 2:1: wrong length: expected 81 cells, found 3"
    );
    // Named as the clash is: argument N:LINE both (found by probing:
    // `argument 3:` beside `argument 2:1:`).
    assert!(
        rows[2]["error"]
            .as_str()
            .unwrap()
            .starts_with("argument 3:1: "),
        "{}",
        rows[2]["error"]
    );
    // An argument of two lines names the line of its bad one; one of blanks
    // is a record too (found by probing: the line was not said, and the
    // blank argument got no row, exit 0).
    let two_lines = format!("{p1}\n{}", &p1[..80]);
    let rows = values(&failed_stdout(
        sudoflow().args(["explain", &two_lines, "   ", "--format", "jsonl"]),
    ));
    let errors: Vec<&str> = rows
        .iter()
        .map(|r| r["error"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        errors,
        [
            "",
            "argument 1:2: wrong length: expected 81 cells, found 80",
            "argument 2:1: holds no puzzle"
        ]
    );
    // Pasted cells and a grid on 9 lines, as -p takes them.
    let pasted: String = p1.chars().flat_map(|c| [c, ' ']).collect();
    let lines: String = p1
        .as_bytes()
        .chunks(9)
        .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
        .collect();
    for arg in [&pasted, &lines] {
        assert_eq!(
            stdout_of(sudoflow().args(["explain", arg])),
            text,
            "{arg:?}"
        );
    }
    sudoflow()
        .args(["explain", p1, "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "\"no-such-file.txt\" is neither a puzzle (its cells are 1-9 and . 0 _ - * x X) \
             nor a file there is",
        ));
    sudoflow()
        .args(["explain", "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no-such-file.txt"));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("one.txt");
    std::fs::write(&file, format!("{p1}\n")).unwrap();
    sudoflow()
        .args(["explain", p1])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("puzzles or files, not both"));
    // A tiny budget: the reason, exit 1.
    sudoflow()
        .args(["explain", &puzzle_rated("8.9"), "--time-budget", "1ms"])
        .assert()
        .code(1)
        .stderr(predicates::str::contains("time budget"));
}

/// A JSON Lines run stopped by SIGTERM once rows are written, then
/// resumed: the bytes of an uninterrupted run.
#[test]
fn a_stopped_jsonl_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // Many copies of the rated puzzles: a run of a few seconds.
    let refs = references();
    let text: String = (0..60)
        .flat_map(|_| refs.iter().map(|(p, _)| format!("{p}\n")))
        .collect();
    let input = dir.path().join("many.txt");
    std::fs::write(&input, text).unwrap();
    let want = dir.path().join("want.jsonl");
    sudoflow()
        .args(["explain", "-q", "-j", "1"])
        .arg(&input)
        .arg("-o")
        .arg(&want)
        .assert()
        .success();
    let out = dir.path().join("out.jsonl");
    let args = |resume: bool| {
        let mut a: Vec<String> = ["explain", "-q", "-j", "2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        a.push(input.display().to_string());
        a.push("-o".into());
        a.push(out.display().to_string());
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let partial = dir.path().join("out.jsonl.partial");
    let mut child = std::process::Command::new(bin())
        .args(args(false))
        .env("SUDOFLOW_TEST_FLUSH_MS", "20")
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Stop it once some rows are in the partial file.
    let started = std::time::Instant::now();
    loop {
        let lines = std::fs::read(&partial)
            .map(|t| t.iter().filter(|&&b| b == b'\n').count())
            .unwrap_or(0);
        if lines >= 3 || child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(started.elapsed().as_secs() < 60, "no rows written");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    let status = child.wait().unwrap();
    if status.code() == Some(143) {
        assert!(!out.exists());
        let kept = std::fs::read(&partial).unwrap();
        assert_eq!(kept.last(), Some(&b'\n'), "whole rows only");
        sudoflow().args(args(true)).assert().success();
    }
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&want).unwrap());
}

#[test]
fn help_describes_the_facts_and_formats() {
    let help = stdout_of(sudoflow().args(["explain", "--help"]));
    for word in [
        "PUZZLE|INPUT",
        "jsonl",
        "hardest_step",
        "chains",
        "\"why\"",
        "--resume",
        "-j, --threads",
        "--time-budget",
    ] {
        assert!(help.contains(word), "--help lacks {word}");
    }
    // The options explain shares with rate read the same (one vocabulary).
    let rate = stdout_of(sudoflow().args(["rate", "--help"]));
    for option in [
        "--column",
        "--blank",
        "--strict",
        "-o, --output",
        "--resume",
        "-q, --quiet",
        "-j, --threads",
        "--batch-size",
        "--time-budget",
        "--wall-limit",
    ] {
        assert_eq!(
            option_block(&help, option),
            option_block(&rate, option),
            "{option}"
        );
    }
}

/// The block of `help` that documents `option` (its line and the indented
/// lines under it, up to the next option).
fn option_block<'a>(help: &'a str, option: &str) -> Option<&'a str> {
    // The option's own line: indented at most six spaces.
    let mut start = None;
    let mut at = 0;
    for line in help.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        if indent <= 6 && line.trim_start().starts_with(option) {
            start = Some(at);
            break;
        }
        at += line.len();
    }
    let rest = &help[start?..];
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        let indent = line.len() - line.trim_start().len();
        if offset > 0 && indent <= 6 && line.trim_start().starts_with(['-', '[', '<']) {
            return Some(&rest[..offset]);
        }
        offset += line.len();
    }
    Some(rest)
}

/// A solved grid has no step and so no technique: `null` in JSON as in
/// JSON Lines (found by probing: JSON said `""`).
#[test]
fn a_solved_grid_has_a_null_technique_in_json_and_jsonl() {
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let json = stdout_of(sudoflow().args(["explain", solved, "--format", "json"]));
    let jsonl = stdout_of(
        sudoflow()
            .args(["explain", "--format", "jsonl", "-q"])
            .write_stdin(format!("{solved}\n")),
    );
    for text in [json, jsonl] {
        let row = &values(&text)[0];
        assert_eq!(row["status"], "rated", "{text}");
        assert!(row["technique"].is_null(), "{text}");
    }
}

/// The exit codes the help gives: a puzzle given as an argument that
/// cannot be explained or read exits 1; `-p`'s puzzle is
/// a record with its row, as in `rate -p`, and the run exits 0. The help
/// said "puzzles on the command line" for the first kind only, though
/// `-p` is on the command line too (found by probing).
#[test]
fn exit_codes_of_argument_puzzles_and_of_p_are_the_helps() {
    let empty = ".".repeat(81);
    let run = |args: &[&str]| {
        let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
            .arg("explain")
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    assert_eq!(run(&[&empty]).0, Some(1));
    assert_eq!(run(&["12345....1"]).0, Some(1));
    // In jsonl too, the row saying why (found by probing: it exited 0).
    for args in [
        [&*empty, "--format", "jsonl"],
        ["12345....1", "--format", "jsonl"],
    ] {
        let (code, text) = run(&args);
        assert_eq!(code, Some(1), "{args:?}");
        assert!(!text.contains("\"rated\""), "{text}");
        assert_eq!(values(&text).len(), 1, "its row: {text}");
    }
    let (code, text) = run(&["-p", &empty]);
    assert_eq!(code, Some(0));
    assert!(text.contains("status   multiple: "), "{text}");
    let (code, text) = run(&["-p", "xyz"]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("status   invalid: <puzzle>:1: wrong length"),
        "{text}"
    );
    let (_, help) = run(&["--help"]);
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("Exit codes, puzzles given as arguments: 0 explained;")
            && help.contains("Files, stdin and -p (a record with its row, as in `rate -p`)"),
        "{help}"
    );
}
