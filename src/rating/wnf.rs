//! The WNF function of the modelling paper (../shared/docs/SEEDS.md section
//! 2): how few candidates the givens leave, from the givens alone. The paper
//! calls it a difficulty; it is not one: on 2,000 random minimal puzzles its
//! rank correlation with Sudoku Explainer's rating is -0.18 (the solver's
//! `guesses`: +0.83; issue 13). Difficulty is [`crate::rating::se`].
//!
//! For each empty cell `p`, `c(p)` is its number of candidates after removing the
//! digits of its row, column and box (givens only, no further reasoning).
//! `C_n` is the number of empty cells with `n` candidates, `W(n) = 2^n`,
//! `WF = Σ W(n)·C_n` and `WNF = WF / (W(9)·|E|)` with `|E|` the number of empty
//! cells. Inkala's "world's hardest" puzzle gives WF = 1388 and
//! WNF = 1388/30720 = 0.0451823, level 4 (the paper prints 1392; its own table
//! gives 1388).

#[cfg(test)]
use crate::grid::PEERS;
use crate::grid::{Grid, UnitGivens};

/// The WNF score and its band for one puzzle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wnf {
    /// `WF = Σ 2^c(p)` over the empty cells `p`.
    pub wf: u64,
    /// Number of empty cells `|E|`.
    pub empty: u32,
    /// `WF / (512·|E|)`, in `[0, 1]`; 0 for a complete grid.
    pub value: f64,
    /// The paper's band, 1 to 4 (the paper's "easy" to "very hard"; many
    /// candidates per empty cell give a high band); see [`wnf_level`].
    pub level: u8,
}

/// `WEIGHT[m] = 2^(9 - popcount(m))` for a 9-bit mask `m` of digits seen
/// (bit d-1 = digit d): the weight `W(c) = 2^c` of a cell with `c = 9 -
/// popcount(m)` candidates. A table, because without `-C target-cpu` there is
/// no popcount instruction and the software one costs more than the lookup.
const WEIGHT: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = 1 << (9 - (m as u32).count_ones());
        m += 1;
    }
    t
};

/// Computes WNF for a puzzle whose givens are read as they are (clashes are not
/// checked; a cell with no candidate contributes `2^0 = 1`).
pub fn wnf(puzzle: &Grid) -> Wnf {
    wnf_from_units(puzzle, &UnitGivens::of(puzzle.cells()))
}

/// [`wnf`] from the puzzle's unit masks (`units` = [`UnitGivens::of`] its
/// cells). `solve` rates its records without them, from the solver's root
/// state ([`crate::solver::Solver::solve_rated`], [`wnf_from_counts`]).
fn wnf_from_units(puzzle: &Grid, units: &UnitGivens) -> Wnf {
    let cells = puzzle.cells();
    // A cell's peers are exactly the other cells of its three units, so for
    // an empty cell the union of its units' givens is the set of digits among
    // its peers (one pass over the grid instead of 20 peer loads per empty
    // cell: this runs for every record `solve` writes).
    let UnitGivens {
        rows, cols, boxes, ..
    } = *units;
    // Every cell is weighed and givens count zero times: no branch on "given
    // or empty", which random givens would mispredict dozens of times.
    let mut wf = 0u32;
    let mut empty = 0u32;
    for band in 0..3 {
        // What the columns and boxes of this band see, per column.
        let seen_cb: [u16; 9] = std::array::from_fn(|c| cols[c] | boxes[3 * band + c / 3]);
        for r in 3 * band..3 * band + 3 {
            for c in 0..9 {
                let seen = rows[r] | seen_cb[c];
                let is_empty = u32::from(cells[9 * r + c] == 0);
                wf += u32::from(WEIGHT[usize::from(seen >> 1) & 511]) & is_empty.wrapping_neg();
                empty += is_empty;
            }
        }
    }
    let wf = u64::from(wf);
    let value = if empty == 0 {
        0.0
    } else {
        wf as f64 / (512.0 * empty as f64)
    };
    Wnf {
        wf,
        empty,
        value,
        level: wnf_level(value),
    }
}

/// WNF from the candidate counts of the blank cells: `counts[n]` is `C_n`,
/// the number of blank cells with `n` candidates (`n` in 0..=9; a blank cell
/// with none weighs `2^0 = 1`, as in [`wnf`]). `|E|` is their sum.
/// [`crate::solver::Solver::solve_rated`] gets the counts from the solver's
/// root state.
pub fn wnf_from_counts(counts: &[u32; 10]) -> Wnf {
    let wf: u64 = counts
        .iter()
        .enumerate()
        .map(|(n, &c)| u64::from(c) << n)
        .sum();
    let empty: u32 = counts.iter().sum();
    let value = if empty == 0 {
        0.0
    } else {
        wf as f64 / (512.0 * f64::from(empty))
    };
    Wnf {
        wf,
        empty,
        value,
        level: wnf_level(value),
    }
}

/// The paper's bands: `[0, 0.012)` 1, `[0.012, 0.035)` 2, `[0.035, 0.045)`
/// 3, `[0.045, 1]` 4 (the paper's "easy", "medium", "hard", "very hard";
/// not a difficulty, see the module documentation).
pub fn wnf_level(value: f64) -> u8 {
    if value < 0.012 {
        1
    } else if value < 0.035 {
        2
    } else if value < 0.045 {
        3
    } else {
        4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INKALA: &str =
        "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";

    #[test]
    fn inkala_matches_the_seed_arithmetic() {
        let w = wnf(&Grid::parse(INKALA).unwrap());
        assert_eq!(w.empty, 60);
        assert_eq!(w.wf, 1388);
        assert_eq!(w.value, 1388.0 / 30720.0);
        assert!((w.value - 0.0451823).abs() < 5e-8);
        assert_eq!(w.level, 4);
    }

    /// The definition read literally: candidates from the 20 peers of each
    /// empty cell.
    fn wf_from_peers(puzzle: &Grid) -> u64 {
        let cells = puzzle.cells();
        (0..81)
            .filter(|&c| cells[c] == 0)
            .map(|c| {
                let seen = PEERS[c]
                    .iter()
                    .fold(0u16, |m, &p| m | 1 << cells[p as usize]);
                1u64 << (9 - (seen >> 1).count_ones())
            })
            .sum()
    }

    #[test]
    fn unit_masks_agree_with_peers() {
        let mut grids = vec![Grid::EMPTY, Grid::parse(INKALA).unwrap()];
        // Clashing givens too: WNF reads the givens as they are.
        let mut clash = Grid::parse(INKALA).unwrap();
        clash.set(1, 8);
        clash.set(2, 9);
        grids.push(clash);
        for name in [crate::datasets::TOP1465, crate::datasets::SERG] {
            if let Some(set) = crate::datasets::load_public_or_skip(name) {
                grids.extend(set.into_iter().take(200));
            }
        }
        for g in &grids {
            assert_eq!(wnf(g).wf, wf_from_peers(g), "{g:?}");
        }
    }

    #[test]
    fn weight_table_rebuilt() {
        for (m, &weight) in WEIGHT.iter().enumerate() {
            let seen = (0..9).filter(|d| m >> d & 1 == 1).count() as u32;
            assert_eq!(u32::from(weight), 1 << (9 - seen), "mask {m:#011b}");
        }
    }

    #[test]
    fn band_edges() {
        assert_eq!(wnf_level(0.0), 1);
        assert_eq!(wnf_level(0.0119999), 1);
        assert_eq!(wnf_level(0.012), 2);
        assert_eq!(wnf_level(0.035), 3);
        assert_eq!(wnf_level(0.045), 4);
        assert_eq!(wnf_level(1.0), 4);
    }

    #[test]
    fn empty_and_full_grids() {
        // Every cell of the empty grid has 9 candidates: WF = 81·512, WNF = 1.
        let w = wnf(&Grid::EMPTY);
        assert_eq!((w.wf, w.empty, w.value, w.level), (81 * 512, 81, 1.0, 4));
        let solved = Grid::parse(
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452",
        )
        .unwrap();
        assert_eq!(wnf(&solved).value, 0.0);
    }
}
