//! Pencilmark input (729 characters, tdoku's `-p` format) through the
//! binary: `solve` and `count` against the same puzzles as 81 cells and a
//! brute-force counter over candidates written here; `rate` against Sudoku
//! Explainer's ratings of the same puzzles; `canon` against the forms of
//! the puzzles' givens.

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

/// Single candidates that clash (every cell holding only 1) leave a
/// pencilmark puzzle no solution: `unsolvable` with the same reason in
/// every command (`rate` said `invalid`, a duplicate given, before).
#[test]
fn clashing_single_candidates_are_unsolvable_in_every_command() {
    let ones = "1........".repeat(81);
    let solved = run("solve", format!("{ones}\n"));
    assert_eq!(solved[0][2], "unsolvable");
    let why = solved[0].last().unwrap().clone();
    assert!(
        why.ends_with(": no solution: 2 has no place in row 1"),
        "{why}"
    );
    assert_eq!(run("count", format!("{ones}\n"))[0][2], "unsolvable");
    let rated = run("rate", format!("{ones}\n"));
    assert_eq!(rated[0][2], "unsolvable", "{:?}", rated[0]);
    assert_eq!(rated[0].last().unwrap(), &why);
}

/// The pencilmarks of a puzzle's givens (full blanks) rate as the puzzle,
/// so as Sudoku Explainer 1.2.1.3 rates it (the reference file's ED=).
#[test]
fn rate_rates_a_puzzles_pencilmarks_as_the_puzzle_and_as_se() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/datasets/se/se_random_minimal_400.txt");
    let text =
        std::fs::read_to_string(&path).expect("the SE reference set (../shared/datasets/se)");
    let lines: Vec<(&str, &str)> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .step_by(20)
        .map(|l| {
            let (p, ed) = l.split_once(" ED=").unwrap();
            (p, ed)
        })
        .collect();
    let marks: String = lines
        .iter()
        .map(|(p, _)| Pencilmarks::of_grid(&Grid::parse(p).unwrap()).to_line() + "\n")
        .collect();
    let rows = run("rate", marks);
    assert_eq!(rows.len(), lines.len());
    for (row, (p, ed)) in rows.iter().zip(&lines) {
        assert_eq!(row[2], "rated", "{p}");
        assert_eq!(format!("{}/{}/{}", row[3], row[4], row[5]), *ed, "{p}");
    }
}

/// Eliminations change what is left to do: a puzzle whose candidates
/// already lack what its hardest step removes rates lower; a single
/// candidate is a given; clashing singles, no candidates and several
/// solutions give the rows a puzzle would.
#[test]
fn rate_starts_from_the_candidates_given() {
    // Inkala's puzzle with every candidate but the solution's removed from
    // each cell: all singles, all givens, nothing left to rate.
    let inkala = Grid::parse(
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
    )
    .unwrap();
    let solution = Grid::parse(
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
    )
    .unwrap();
    let mut solved = [0u16; 81];
    for (c, m) in solved.iter_mut().enumerate() {
        *m = 1 << solution.get(c);
    }
    // Inkala's candidates with the solution's digit kept everywhere and the
    // others removed from the first 60 empty cells: singles only, easy.
    let mut easier = *Pencilmarks::of_grid(&inkala).masks();
    for (c, m) in easier
        .iter_mut()
        .enumerate()
        .filter(|&(c, _)| inkala.get(c) == 0)
        .take(60)
    {
        *m = 1 << solution.get(c);
    }
    let mut clash = *Pencilmarks::of_grid(&inkala).masks();
    clash[1] = 1 << 8; // r1c2 = 8 beside r1c1's 8
    let mut empty = *Pencilmarks::of_grid(&inkala).masks();
    empty[1] = 0;
    let serg = *Pencilmarks::of_grid(&Grid::parse(SERG).unwrap()).masks();
    let input: String = [
        *Pencilmarks::of_grid(&inkala).masks(),
        solved,
        easier,
        clash,
        empty,
        serg,
    ]
    .iter()
    .map(|m| line(m) + "\n")
    .collect();
    let rows = run("rate", input);
    let er = |r: &Vec<String>| r[3].parse::<f64>().unwrap();
    assert_eq!(rows[0][2], "rated");
    assert!(er(&rows[0]) >= 10.0, "Inkala's puzzle: {:?}", rows[0]);
    assert_eq!((rows[1][2].as_str(), rows[1][7].as_str()), ("rated", "0"));
    assert_eq!(rows[2][2], "rated");
    assert!(er(&rows[2]) <= 2.3, "{:?}", rows[2]);
    // Clashing singles: no solution, as `solve` says.
    assert_eq!(rows[3][2], "unsolvable");
    assert!(
        rows[3][8].starts_with("<stdin>:4: no solution: "),
        "{:?}",
        rows[3]
    );
    assert_eq!(rows[4][2], "unsolvable");
    assert_eq!(rows[5][2], "multiple");
}

/// `canon` gives a pencilmark line its own minlex form (729 characters):
/// transformed copies share it and point back to the first; the pencilmarks
/// of a puzzle's givens have the puzzle's automorphism count.
#[test]
fn canon_gives_pencilmarks_a_form_and_a_class() {
    let p = Grid::parse(SERG).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let t = sudoflow::canon::group::random(&mut rng);
    let q = t.apply(&p);
    let mut masks = *Pencilmarks::of_grid(&p).masks();
    let blank = (0..81).find(|&c| p.get(c) == 0).unwrap();
    masks[blank] &= !(1 << 4);
    let other = line(&masks);
    let input = format!(
        "{}\n{}\n{other}\n{}\n",
        Pencilmarks::of_grid(&p).to_line(),
        Pencilmarks::of_grid(&q).to_line(),
        p.to_line()
    );
    let rows = run("canon", input);
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0][2].len(), 729);
    assert_eq!(rows[0][2], rows[1][2]);
    assert_eq!((rows[0][4].as_str(), rows[1][4].as_str()), ("1", "1"));
    let form = Pencilmarks::parse(rows[0][2].as_bytes()).unwrap().unwrap();
    assert_eq!(run("canon", form.to_line() + "\n")[0][2], rows[0][2]);
    assert_eq!(
        rows[0][3],
        sudoflow::canon::canonical(&p).automorphisms.to_string()
    );
    assert_ne!(rows[2][2], rows[0][2]);
    assert_eq!(rows[2][4], "3");
    // The puzzle's own line: an 81-character form, another class.
    assert_eq!(rows[3][2].len(), 81);
    assert_eq!(rows[3][4], "4");
}

#[test]
fn bad_marks_are_named() {
    let good = Pencilmarks::of_grid(&Grid::parse(SERG).unwrap()).to_line();
    let mut bad = good.clone().into_bytes();
    bad[100] = b'x';
    let input = format!("{good}\n{}\n", String::from_utf8(bad).unwrap());
    let expected = "<stdin>:2: bad character 'x' at position 101 (r2c3, candidate 2) of a \
                    pencilmark puzzle: expected '2' or '.'";
    for cmd in ["canon", "rate"] {
        let rows = run(cmd, input.clone());
        assert_eq!(rows[1].last().unwrap(), expected, "{cmd}");
    }
    let rows = run("solve", input);
    assert_eq!(rows[0][2], "multiple");
    assert_eq!(rows[1][2], "invalid");
    assert_eq!(rows[1][10], expected);
}
