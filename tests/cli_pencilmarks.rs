//! Pencilmark input (729 characters, tdoku's `-p` format) through the
//! binary: `solve` and `count` against the same puzzles as 81 cells and a
//! brute-force counter over candidates written here; `canon` and `rate`
//! give error rows.

use assert_cmd::Command;
use rand::{Rng, SeedableRng};
use sudoflow::datasets;
use sudoflow::grid::{Grid, Pencilmarks};

/// Many solutions (872 as a puzzle).
const SERG: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";

fn run(cmd: &str, input: String) -> Vec<Vec<String>> {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args([cmd, "-q"])
        .write_stdin(input)
        .assert()
        .success();
    csv::Reader::from_reader(&out.get_output().stdout[..])
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// Counts the grids that obey the rules and put a candidate of `masks`
/// (bit `d` = digit `d`) in every cell: first open cell, each candidate
/// not already in its row, column or box.
fn brute_count(cells: &mut [u8; 81], masks: &[u16; 81]) -> u64 {
    let Some(cell) = cells.iter().position(|&v| v == 0) else {
        return 1;
    };
    let (r, c) = (cell / 9, cell % 9);
    let (br, bc) = (r / 3 * 3, c / 3 * 3);
    let mut total = 0;
    for d in 1..=9u8 {
        if masks[cell] & 1 << d == 0 {
            continue;
        }
        let clash = (0..9).any(|k| {
            cells[r * 9 + k] == d
                || cells[k * 9 + c] == d
                || cells[(br + k / 3) * 9 + bc + k % 3] == d
        });
        if !clash {
            cells[cell] = d;
            total += brute_count(cells, masks);
            cells[cell] = 0;
        }
    }
    total
}

/// The pencilmarks of `masks` as a line.
fn line(masks: &[u16; 81]) -> String {
    masks
        .iter()
        .flat_map(|&m| {
            (1..=9u8).map(move |d| {
                if m & 1 << d != 0 {
                    char::from(b'0' + d)
                } else {
                    '.'
                }
            })
        })
        .collect()
}

#[test]
fn a_puzzle_as_pencilmarks_solves_as_the_puzzle() {
    let puzzles = datasets::load_public(datasets::TOP1465).unwrap();
    let sample: Vec<Grid> = puzzles.iter().step_by(15).copied().collect();
    let as_cells: String = sample.iter().map(|p| p.to_line() + "\n").collect();
    let as_marks: String = sample
        .iter()
        .map(|p| Pencilmarks::of_grid(p).to_line() + "\n")
        .collect();
    let a = run("solve", as_cells);
    let b = run("solve", as_marks);
    assert_eq!(a.len(), sample.len());
    for ((x, y), p) in a.iter().zip(&b).zip(&sample) {
        assert_eq!(y[1], Pencilmarks::of_grid(p).to_line());
        // status, solutions, solution, clues equal; wnf too (same candidates).
        assert_eq!(x[2..8], y[2..8], "{p}");
    }
}

#[test]
fn eliminations_are_respected_and_counted_exactly() {
    // SERG's candidates with random eliminations (never of the first
    // solution's digit in a cell, so some stay solvable, and sometimes of
    // it, so some do not): count equals the brute force.
    let serg = Grid::parse(SERG).unwrap();
    let base = Pencilmarks::of_grid(&serg);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(729);
    let mut lines = String::new();
    let mut expect = Vec::new();
    for _ in 0..24 {
        let mut masks = *base.masks();
        for _ in 0..rng.gen_range(0..40) {
            let cell = rng.gen_range(0..81);
            if serg.get(cell) == 0 {
                masks[cell] &= !(1 << rng.gen_range(1..=9));
            }
        }
        lines += &(line(&masks) + "\n");
        expect.push(brute_count(&mut { *serg.cells() }, &masks));
    }
    let rows = run("count", lines.clone());
    let counts: Vec<u64> = rows.iter().map(|r| r[3].parse().unwrap()).collect();
    assert_eq!(counts, expect);
    assert!(expect.contains(&0) && expect.iter().any(|&n| n > 1));
    // solve: each solution found keeps to the candidates.
    for (row, text) in run("solve", lines).iter().zip(expect.iter()) {
        if *text == 0 {
            assert_eq!(row[2], "unsolvable");
            continue;
        }
        let pm = Pencilmarks::parse(row[1].as_bytes()).unwrap().unwrap();
        let solution = Grid::parse(&row[4]).unwrap();
        assert!(solution.is_solution_of(&Grid::EMPTY));
        for c in 0..81 {
            assert_ne!(
                pm.masks()[c] & 1 << solution.get(c),
                0,
                "r{}c{}",
                c / 9 + 1,
                c % 9 + 1
            );
        }
    }
}

#[test]
fn canon_and_rate_refuse_them_with_an_error_row_and_bad_marks_are_named() {
    let good = Pencilmarks::of_grid(&Grid::parse(SERG).unwrap()).to_line();
    let mut bad = good.clone().into_bytes();
    bad[100] = b'x';
    let input = format!("{good}\n{}\n", String::from_utf8(bad).unwrap());
    for cmd in ["canon", "rate"] {
        let rows = run(cmd, input.clone());
        let error = rows[0].last().unwrap();
        assert_eq!(
            error,
            "<stdin>:1: a pencilmark puzzle (729 characters): this command reads 81-cell puzzles \
             only",
            "{cmd}"
        );
        assert_eq!(rows[0][1], good);
    }
    let rows = run("solve", input);
    assert_eq!(rows[0][2], "multiple");
    assert_eq!(rows[1][2], "invalid");
    assert_eq!(
        rows[1][10],
        "<stdin>:2: bad character 'x' at position 101 (r2c3, candidate 2) of a pencilmark \
         puzzle: expected '2' or '.'"
    );
}
