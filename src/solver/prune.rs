//! The seam between the band-digit search and unit-level pruning: converts
//! the band masks to per-cell candidate masks (`u16`, bit `d - 1` = digit
//! `d`), filters the units whose candidates changed since the last pass, and
//! writes removals back.

use super::core::{Dead, State};
use crate::grid::UNITS;

/// Cells (bit `i` = cell `i`, 0..81) whose candidates differ between the
/// state now and its last matching pass.
fn changed_cells(st: &State) -> u128 {
    let mut changed = 0u128;
    for b in 0..3 {
        let mut band = 0u32;
        for d in 0..9 {
            band |= st.cands[3 * d + b] ^ st.matched[3 * d + b];
        }
        changed |= (band as u128) << (27 * b);
    }
    changed
}

/// Runs the forbidden-edge filter over every unit with a changed cell;
/// true if it removed a candidate.
pub(super) fn matching_pass(st: &mut State) -> Result<bool, Dead> {
    let changed = changed_cells(st);
    if changed == 0 {
        return Ok(false);
    }
    st.matched = st.cands;
    let mut cands = [0u16; 81];
    for d in 0..9 {
        for b in 0..3 {
            let mut m = st.cands[3 * d + b];
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

/// Interim forbidden-edge filter until `matching::filter_unit` lands: keeps
/// edge (cell, digit) iff the unit minus that cell and digit still has a
/// perfect matching (Kuhn's augmenting paths on bitmasks).
fn filter_unit(cands: [u16; 9]) -> Option<[u16; 9]> {
    fn perfect(cands: &[u16; 9], skip_cell: usize, skip_digit: u16) -> bool {
        let mut owner = [usize::MAX; 9];
        fn augment(
            c: usize,
            cands: &[u16; 9],
            skip: u16,
            owner: &mut [usize; 9],
            seen: &mut u16,
        ) -> bool {
            let mut m = cands[c] & !skip & !*seen;
            while m != 0 {
                let d = m.trailing_zeros() as usize;
                m &= m - 1;
                *seen |= 1 << d;
                if owner[d] == usize::MAX || augment(owner[d], cands, skip, owner, seen) {
                    owner[d] = c;
                    return true;
                }
            }
            false
        }
        (0..9).filter(|&c| c != skip_cell).all(|c| {
            let mut seen = 0;
            augment(c, cands, skip_digit, &mut owner, &mut seen)
        })
    }
    if !perfect(&cands, 9, 0) {
        return None;
    }
    let mut out = [0u16; 9];
    for c in 0..9 {
        let mut m = cands[c];
        while m != 0 {
            let bit = m & m.wrapping_neg();
            m &= m - 1;
            if perfect(&cands, c, bit) {
                out[c] |= bit;
            }
        }
    }
    Some(out)
}
