//! The README's console examples, run and compared (issue 33: the README
//! showed guesses and a rating the binary no longer printed).
//!
//! Every ```` ```console ```` block of README.md is read as a session:
//! lines starting with `$ ` are commands (a trailing `# comment` is not part
//! of them), the lines up to the next command are what it prints, stdout
//! then stderr. Each command whose output the README shows is run from the
//! repository's root (`sudoflow` and `target/release/sudoflow` are the
//! binary under test) and its output compared line by line, with two
//! allowances: a line `...` stands for any number of lines, and in the
//! summary line (`sudoflow: ... in 0.40 s, 10 records/s`) the time and the
//! rate are not compared. `cat FILE` of a file that is not in the
//! repository defines it: the lines shown become FILE's text for the
//! commands after it. Commands shown without output (a long run, a
//! `^C`) are not run; the test lists them on failure.

use std::path::{Path, PathBuf};

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("sudoflow")
}

/// A command of a console block and the lines it is shown to print.
struct Example {
    line: usize,
    command: String,
    output: Vec<String>,
}

fn examples(readme: &str) -> Vec<Example> {
    let mut out = Vec::new();
    let mut in_block = false;
    for (n, line) in readme.lines().enumerate() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_block = false;
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            let command = match command.split_once(" #") {
                Some((c, _)) => c,
                None => command,
            };
            out.push(Example {
                line: n + 1,
                command: command.trim().to_string(),
                output: Vec::new(),
            });
        } else if let Some(last) = out.last_mut() {
            last.output.push(line.trim_end().to_string());
        }
    }
    out
}

/// `line` with the summary line's time and rate left out.
fn normalised(line: &str) -> String {
    let Some(rest) = line.strip_prefix("sudoflow: ") else {
        return line.to_string();
    };
    match rest.rsplit_once(" in ") {
        Some((head, tail)) if tail.ends_with("records/s") => {
            format!("sudoflow: {head} in _ s, _ records/s")
        }
        _ => line.to_string(),
    }
}

/// Whether `got` matches `want`, where a `want` line `...` matches any
/// number of lines.
fn matches(want: &[String], got: &[String]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((w, rest)) if w.trim() == "..." => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => {
            !got.is_empty() && normalised(w) == normalised(&got[0]) && matches(rest, &got[1..])
        }
    }
}

#[test]
fn the_readme_console_examples_print_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut defined: Vec<(String, PathBuf)> = Vec::new();
    let (mut ran, mut not_run, mut failures) = (0, Vec::new(), Vec::new());
    for ex in examples(&readme) {
        let words = shlex::split(&ex.command).expect("a command shlex can split");
        if words[0] == "cat" && words.len() == 2 && !root.join(&words[1]).exists() {
            let path = dir.path().join(&words[1]);
            std::fs::write(&path, ex.output.join("\n") + "\n").unwrap();
            defined.push((words[1].clone(), path));
            continue;
        }
        if ex.output.is_empty() || ex.output.iter().any(|l| l.contains("^C")) {
            not_run.push(format!("README.md:{}: {}", ex.line, ex.command));
            continue;
        }
        let program = match words[0].as_str() {
            "sudoflow" | "target/release/sudoflow" => bin(),
            other => PathBuf::from(other),
        };
        let args: Vec<PathBuf> = words[1..]
            .iter()
            .map(|w| match defined.iter().find(|(name, _)| name == w) {
                Some((_, path)) => path.clone(),
                None => PathBuf::from(w),
            })
            .collect();
        let done = std::process::Command::new(&program)
            .args(&args)
            .current_dir(root)
            .output()
            .unwrap_or_else(|e| panic!("README.md:{}: {}: {e}", ex.line, ex.command));
        ran += 1;
        let got: Vec<String> = String::from_utf8_lossy(&done.stdout)
            .lines()
            .chain(String::from_utf8_lossy(&done.stderr).lines())
            .map(|l| l.trim_end().to_string())
            .collect();
        if !matches(&ex.output, &got) {
            failures.push(format!(
                "README.md:{}: `{}` shows\n{}\nbut prints\n{}",
                ex.line,
                ex.command,
                ex.output.join("\n"),
                got.join("\n")
            ));
        }
    }
    assert!(ran >= 5, "only {ran} examples ran (not run: {not_run:?})");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_comparison_allows_only_what_it_says() {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let want = s(&[
        "a",
        "...",
        "c",
        "sudoflow: 4 records (4 unique) in 0.00 s, 10 records/s",
    ]);
    assert!(matches(
        &want,
        &s(&[
            "a",
            "b",
            "b",
            "c",
            "sudoflow: 4 records (4 unique) in 1.50 s, 3 records/s"
        ])
    ));
    assert!(matches(
        &want,
        &s(&[
            "a",
            "c",
            "sudoflow: 4 records (4 unique) in 9 s, 1 records/s"
        ])
    ));
    // The counts are compared; so is every other line.
    assert!(!matches(
        &want,
        &s(&[
            "a",
            "c",
            "sudoflow: 4 records (3 unique) in 0.00 s, 10 records/s"
        ])
    ));
    assert!(!matches(
        &want,
        &s(&[
            "a",
            "b",
            "sudoflow: 4 records (4 unique) in 0.00 s, 10 records/s"
        ])
    ));
    assert!(!matches(&s(&["x"]), &s(&["x", "y"])));
}
