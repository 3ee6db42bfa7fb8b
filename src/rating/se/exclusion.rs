//! Aligned exclusion: Aligned Pair Exclusion (6.2) and Aligned Triplet
//! Exclusion (7.5).
//!
//! For a set of base cells, every combination of their candidates is tried:
//! a combination is impossible when two base cells that see each other get
//! the same digit, or when it takes every candidate of an "excluder" cell that
//! sees all the base cells (an excluder has 2 candidates for pairs, 2 or 3 for
//! triplets). A candidate of a base cell used by no possible combination is
//! removed.
//!
//! SE's choice of base cells, kept here because the first hint found is the
//! one applied: the candidate cells are the empty cells (row-major) with two
//! or more candidates, at least one excluder, and no peer with a single
//! candidate. Pairs are any two candidate cells (in SE's combination order)
//! with at least two common excluders; a triplet adds to a pair a candidate
//! cell among the first two cells' excluders.

use super::board::{bit, bit_nums, digits, Board, Combinations, HOUSE, PEER_MASK};
use super::hint::Hint;

/// The candidate base cells and, for each, its excluders as an 81-bit set.
fn base_cells(board: &Board, max_excluder: u32) -> (Vec<usize>, Vec<u128>, Vec<Vec<usize>>) {
    let mut cells = Vec::new();
    let mut masks = Vec::new();
    let mut lists = Vec::new();
    for c in 0..81 {
        if board.cands[c].count_ones() < 2 {
            continue;
        }
        let mut naked_single = false;
        let mut mask = 0u128;
        let mut list = Vec::new();
        for &e in &HOUSE[c] {
            let n = board.cands[e as usize].count_ones();
            if n == 1 {
                naked_single = true;
            } else if (2..=max_excluder).contains(&n) {
                mask |= 1 << e;
                list.push(e as usize);
            }
        }
        if !naked_single && mask != 0 {
            cells.push(c);
            masks.push(mask);
            lists.push(list);
        }
    }
    (cells, masks, lists)
}

/// The removals aligned exclusion finds on `cells` with the excluders
/// `excluders` (candidate masks), or `None`.
fn exclude(board: &Board, cells: &[usize], excluders: &[u16]) -> Option<[u16; 81]> {
    let n = cells.len();
    let mut allowed = [0u16; 3];
    let cand: Vec<Vec<u8>> = cells.iter().map(|&c| digits(board.cands[c]).collect()).collect();
    let sees: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| PEER_MASK[cells[i]] >> cells[j] & 1 != 0).collect())
        .collect();
    let mut idx = [0usize; 3];
    'combos: loop {
        let p: [u8; 3] = std::array::from_fn(|i| if i < n { cand[i][idx[i]] } else { 0 });
        let mut ok = true;
        'pairs: for i in 0..n {
            for j in i + 1..n {
                if p[i] == p[j] && sees[i][j] {
                    ok = false;
                    break 'pairs;
                }
            }
        }
        if ok {
            let used: u16 = p[..n].iter().fold(0, |m, &v| m | bit(v));
            ok = !excluders.iter().any(|&e| e & !used == 0);
        }
        if ok {
            for i in 0..n {
                allowed[i] |= bit(p[i]);
            }
        }
        // Next combination (odometer).
        for i in 0..n {
            idx[i] += 1;
            if idx[i] < cand[i].len() {
                continue 'combos;
            }
            idx[i] = 0;
        }
        break;
    }
    let mut removable = [0u16; 81];
    let mut any = false;
    for i in 0..n {
        let r = board.cands[cells[i]] & !allowed[i];
        removable[cells[i]] = r;
        any |= r != 0;
    }
    any.then_some(removable)
}

/// The candidate masks of the cells of `set`.
fn masks_of(board: &Board, set: u128) -> Vec<u16> {
    (0..81).filter(|&c| set >> c & 1 != 0).map(|c| board.cands[c]).collect()
}

/// SE's `AlignedPairExclusion`: the first pair exclusion that removes
/// something (6.2).
pub fn aligned_pair(board: &Board) -> Option<Hint> {
    let (cells, masks, _) = base_cells(board, 2);
    if cells.len() < 2 {
        return None;
    }
    for combo in Combinations::new(2, cells.len()) {
        let mut it = bit_nums(combo);
        let (i0, i1) = (it.next().unwrap(), it.next().unwrap());
        let common = masks[i0] & masks[i1];
        if common.count_ones() < 2 {
            continue;
        }
        let excluders = masks_of(board, common);
        if let Some(removable) = exclude(board, &[cells[i0], cells[i1]], &excluders) {
            return Some(Hint::new(6.2, "Aligned Pair Exclusion", &removable, None));
        }
    }
    None
}

/// SE's `AlignedExclusion(3)`: the first triplet exclusion that removes
/// something (7.5).
pub fn aligned_triplet(board: &Board) -> Option<Hint> {
    let (cells, masks, lists) = base_cells(board, 3);
    if cells.len() < 3 {
        return None;
    }
    let mut is_candidate = 0u128;
    let mut position = [usize::MAX; 81];
    for (i, &c) in cells.iter().enumerate() {
        is_candidate |= 1 << c;
        position[c] = i;
    }
    for combo in Combinations::new(2, cells.len()) {
        let mut it = bit_nums(combo);
        let (i0, i1) = (it.next().unwrap(), it.next().unwrap());
        let (c0, c1) = (cells[i0], cells[i1]);
        // SE's twin area: the first two cells' excluders (c0's, then c1's
        // new ones) that are candidate cells themselves.
        let mut tail = Vec::new();
        let mut seen = 0u128;
        for &e in lists[i0].iter().chain(&lists[i1]) {
            if seen >> e & 1 == 0 && is_candidate >> e & 1 != 0 && e != c0 && e != c1 {
                tail.push(e);
            }
            seen |= 1 << e;
        }
        for &c2 in &tail {
            let common = masks[i0] & masks[i1] & masks[position[c2]];
            if common.count_ones() < 2 {
                continue;
            }
            let excluders = masks_of(board, common);
            if let Some(removable) = exclude(board, &[c0, c1, c2], &excluders) {
                return Some(Hint::new(7.5, "Aligned Triplet Exclusion", &removable, None));
            }
        }
    }
    None
}
