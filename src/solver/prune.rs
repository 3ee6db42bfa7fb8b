//! The seam between the band-digit search and unit-level pruning: converts
//! the band masks to per-cell candidate masks (`u16`, bit `d - 1` = digit
//! `d`), filters the units whose candidates changed since the last pass, and
//! writes removals back.
//!
//! ```text
//!   band masks (state)                    per-cell masks (matching)
//!   cands[16 * b + d], bit 9r + c   <->  cands81[27 * b + 9r + c], bit d
//!   b = band 0..3, r = band row 0..3,    cell index row-major 0..81,
//!   c = column 0..9, d = digit - 1       as in crate::grid::UNITS
//!
//!   changed cells: u128, bit i = cell i (0..81), from XOR against the
//!   branch's snapshot of cands taken at its last matching pass
//! ```

use super::matching::filter_unit;
use super::state::{Dead, Snapshot, State, LANES};
use crate::grid::UNITS;

/// Cells (bit `i` = cell `i`, 0..81) whose candidates differ between the
/// state now and its last matching pass.
fn changed_cells(st: &State, seen: &Snapshot) -> u128 {
    let mut changed = 0u128;
    for b in 0..3 {
        let mut band = 0u32;
        for d in 0..9 {
            band |= st.cands[LANES * b + d] ^ seen[LANES * b + d];
        }
        changed |= (band as u128) << (27 * b);
    }
    changed
}

/// Runs the forbidden-edge filter over every unit with a changed cell;
/// true if it removed a candidate.
pub(super) fn matching_pass(st: &mut State, seen: &mut Snapshot) -> Result<bool, Dead> {
    let changed = changed_cells(st, seen);
    if changed == 0 {
        return Ok(false);
    }
    *seen = st.cands;
    let mut cands = [0u16; 81];
    for d in 0..9 {
        for b in 0..3 {
            let mut m = st.cands[LANES * b + d];
            while m != 0 {
                cands[27 * b + m.trailing_zeros() as usize] |= 1 << d;
                m &= m - 1;
            }
        }
    }
    let mut removed_any = false;
    for unit in &UNITS {
        if unit.iter().all(|&c| changed >> c & 1 == 0) {
            continue;
        }
        let before: [u16; 9] = std::array::from_fn(|k| cands[unit[k] as usize]);
        let after = filter_unit(before).ok_or(Dead)?;
        for k in 0..9 {
            let gone = before[k] & !after[k];
            if gone != 0 {
                let cell = unit[k] as usize;
                cands[cell] = after[k];
                removed_any = true;
                let mut g = gone;
                while g != 0 {
                    st.remove(g.trailing_zeros() as usize, cell / 27, 1 << (cell % 27));
                    g &= g - 1;
                }
            }
        }
    }
    Ok(removed_any)
}
