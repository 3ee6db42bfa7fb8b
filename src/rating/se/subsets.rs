//! Naked and hidden subsets within one region.
//!
//! | degree | naked | hidden | direct hidden |
//! |---|---|---|---|
//! | 2 (pair) | 3.0 | 3.4 | 2.0 |
//! | 3 (triplet) | 3.6 | 4.0 | 2.5 |
//! | 4 (quad) | 5.0 | 5.4 | - |
//!
//! A direct hidden subset counts only when removing the subset's other
//! candidates leaves a hidden single in the same region, which the hint
//! places. Regions are tried blocks first, then columns, then rows; subsets
//! in SE's combination order.

use super::board::{bit, subsets_of, Board, Card, BLOCK, COLUMN, REGION_CELLS, ROW};
use super::board::{bit_nums, indices};
use super::hint::Hint;

const REGION_ORDER: [usize; 3] = [BLOCK, COLUMN, ROW];
const GROUP: [&str; 3] = ["Pair", "Triplet", "Quad"];

/// SE's `CommonTuples.searchCommonTuple`: the union of `sets` when every set
/// has at least two members and the union has exactly `degree`.
#[inline]
pub(crate) fn common_tuple(sets: &[u16], degree: usize) -> Option<u16> {
    let mut union = 0u16;
    for &s in sets {
        if s.card() <= 1 {
            return None;
        }
        union |= s;
    }
    (union.card() as usize == degree).then_some(union)
}

/// SE's `NakedSet(degree)`: `degree` cells of a region whose candidates
/// together are `degree` digits remove those digits from the region's other
/// cells.
pub fn naked_set(board: &Board, degree: usize) -> Option<Hint> {
    naked_set_in(board, degree, ALL_REGIONS)
}

/// Every region, as a region set of [`naked_set_in`] and [`hidden_set_in`].
pub const ALL_REGIONS: u32 = (1 << 27) - 1;

/// [`naked_set`] searched only in `regions` (bit `r` for region `r`).
///
/// What either search finds in a region depends only on that region's
/// cells (their values and candidates), so where another board of the
/// same path gave no hint, searching the regions whose cells changed
/// since then finds the first hint SE's full search would.
pub fn naked_set_in(board: &Board, degree: usize, regions: u32) -> Option<Hint> {
    for ty in REGION_ORDER {
        for i in 0..9 {
            let r = ty * 9 + i;
            if regions >> r & 1 == 0 || (board.empty_count(r) as usize) < degree * 2 {
                continue;
            }
            let cells = &REGION_CELLS[r];
            // Only cells with 2..=degree candidates can be in the subset.
            let eligible = (0..9)
                .filter(|&k| (2..=degree as u32).contains(&board.cands[cells[k] as usize].card()))
                .fold(0u16, |m, k| m | 1 << k);
            for combo in subsets_of(eligible, degree) {
                let mut sets = [0u16; 4];
                for (s, k) in sets.iter_mut().zip(bit_nums(u64::from(combo))) {
                    *s = board.cands[cells[k] as usize];
                }
                let Some(values) = common_tuple(&sets[..degree], degree) else {
                    continue;
                };
                let mut removable = [0u16; 81];
                let mut any = false;
                for k in (0..9).filter(|k| combo >> k & 1 == 0) {
                    let c = cells[k] as usize;
                    removable[c] = board.cands[c] & values;
                    any |= removable[c] != 0;
                }
                if any {
                    let name = format!("Naked {}", GROUP[degree - 2]);
                    let difficulty = [3.0, 3.6, 5.0][degree - 2];
                    let set = bit_nums(u64::from(combo)).map(|k| cells[k] as usize);
                    return Some(Hint::new(difficulty, name, &removable, None).with_cells(set));
                }
            }
        }
    }
    None
}

/// SE's `HiddenSet(degree, direct)`: `degree` digits confined to `degree`
/// cells of a region remove the other candidates of those cells.
pub fn hidden_set(board: &Board, degree: usize, direct: bool) -> Option<Hint> {
    hidden_set_in(board, degree, direct, ALL_REGIONS)
}

/// [`hidden_set`] searched only in `regions` (bit `r` for region `r`; see
/// [`naked_set_in`]).
pub fn hidden_set_in(board: &Board, degree: usize, direct: bool, regions: u32) -> Option<Hint> {
    for ty in REGION_ORDER {
        for i in 0..9 {
            let r = ty * 9 + i;
            let empty = board.empty_count(r) as usize;
            if regions >> r & 1 == 0 || !(empty > degree * 2 || (direct && empty > degree)) {
                continue;
            }
            let mut positions = [0u16; 10];
            let mut eligible = 0u16; // digits with 2..=degree positions
            for v in 1..=9u8 {
                positions[v as usize] = board.positions(r, v);
                if (2..=degree as u32).contains(&positions[v as usize].card()) {
                    eligible |= 1 << (v - 1);
                }
            }
            for combo in subsets_of(eligible, degree) {
                let mut sets = [0u16; 4];
                let mut value_set = 0u16;
                for (s, k) in sets.iter_mut().zip(bit_nums(u64::from(combo))) {
                    *s = positions[k + 1];
                    value_set |= bit(k as u8 + 1);
                }
                let Some(common) = common_tuple(&sets[..degree], degree) else {
                    continue;
                };
                if let Some(h) =
                    hidden_hint(board, r, degree, direct, value_set, common, &positions)
                {
                    return Some(h);
                }
            }
        }
    }
    None
}

/// SE's `createHiddenSetHint`, `None` where SE's hint would be null or not
/// worth applying.
fn hidden_hint(
    board: &Board,
    r: usize,
    degree: usize,
    direct: bool,
    value_set: u16,
    common: u16,
    positions: &[u16; 10],
) -> Option<Hint> {
    let cells = &REGION_CELLS[r];
    let set = indices(common).map(|k| cells[k] as usize);
    let mut removable = [0u16; 81];
    let mut any = false;
    for k in indices(common) {
        let c = cells[k] as usize;
        removable[c] = board.cands[c] & !value_set;
        any |= removable[c] != 0;
    }
    if direct {
        for v in (1..=9u8).filter(|&v| value_set & bit(v) == 0) {
            let pos = positions[v as usize];
            if pos.card() > 1 {
                let rest = pos & !common;
                if rest.card() == 1 {
                    let cell = cells[rest.trailing_zeros() as usize] as usize;
                    let name = format!("Direct Hidden {}", GROUP[degree - 2]);
                    let difficulty = if degree == 2 { 2.0 } else { 2.5 };
                    // SE's direct hint only places the single: the subset's
                    // removals are shown, not applied.
                    return Some(
                        Hint::new(difficulty, name, &[0; 81], Some((cell, v))).with_cells(set),
                    );
                }
            }
        }
        None
    } else if any {
        let name = format!("Hidden {}", GROUP[degree - 2]);
        let difficulty = [3.4, 4.0, 5.4][degree - 2];
        Some(Hint::new(difficulty, name, &removable, None).with_cells(set))
    } else {
        None
    }
}
