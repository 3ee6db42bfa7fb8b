//! The reference for `sudoflow solve`'s whole-process CPU time (issue 2,
//! "Speed"): a plain program that reads a puzzle file and classifies each
//! puzzle with the `sudoku` crate 0.8 (a dev-dependency, AGPL, used only for
//! comparisons), counting up to 2 solutions and keeping the first one found,
//! the same work `sudoflow solve --limit 2` does per record.
//!
//! `sudoku` 0.8 has no `count_at_most`; `solutions_up_to_buffer(&mut [one
//! slot], 2)` is its "count up to 2, keep the first solution" call.
//!
//! ```text
//! cargo run --release --example sudoku_crate_classify -- datasets/puzzles2_17_clue.txt
//! ```
//!
//! Skips `#` comment lines and blank lines; prints one line of counts per
//! status (`unique`, `multiple`, `unsolvable`, `invalid`) to stdout.

use std::io::{BufRead, BufReader};
use sudoku::Sudoku;

fn main() -> std::io::Result<()> {
    let path = std::env::args_os()
        .nth(1)
        .expect("usage: sudoku_crate_classify FILE");
    let file = BufReader::with_capacity(64 * 1024, std::fs::File::open(path)?);
    let (mut unique, mut multiple, mut unsolvable, mut invalid) = (0u64, 0u64, 0u64, 0u64);
    let mut solution = [[0u8; 81]];
    for line in file.lines() {
        let line = line?;
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match Sudoku::from_str_line(&line) {
            Ok(sudoku) => match sudoku.solutions_up_to_buffer(&mut solution, 2) {
                0 => unsolvable += 1,
                1 => unique += 1,
                _ => multiple += 1,
            },
            Err(_) => invalid += 1,
        }
    }
    println!("unique {unique} multiple {multiple} unsolvable {unsolvable} invalid {invalid}");
    Ok(())
}
