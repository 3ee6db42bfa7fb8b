//! Uniqueness techniques: unique rectangles and loops (4.5-5.0 plus a
//! subset's size for type 3) and the bivalue universal grave (BUG, 5.6-6.1).
//!
//! Both assume the puzzle has one solution, as SE does; `rate` checks that
//! before rating.
//!
//! **Unique loops** (SE's `UniqueLoops`): from each cell with two candidates
//! {v1, v2}, row-major, a depth-first search through cells holding both
//! digits, changing region type at every step (block, row, column order),
//! finds closed loops of 4 or more cells; a loop is kept when each region
//! appears at most once among its even cells and once among its odd cells,
//! and both sets are equal. The cells with more candidates ("extra" cells)
//! decide the type: one (type 1), several sharing one extra digit (type 2),
//! two with a naked or hidden subset in a shared region (type 3), two in a
//! region where one of the loop's digits is locked (type 4). Rating: 4.5 for
//! a rectangle (4 cells), 4.6 for 6, 4.7 for 8, 5.0 for 10 or more (SE adds
//! 0.3 and 0.2 there); type 3 adds 0.1 per subset member beyond the first.
//! All hints are collected and the easiest (then lowest type, then first
//! found) is applied.
//!
//! **BUG** (SE's `BivalueUniversalGrave`): when removing one digit from each
//! of a few cells ("BUG cells") would leave every empty cell with two
//! candidates and every digit with two positions in each region, one of the
//! BUG digits must be true. Type 1 (5.6): one BUG cell keeps only its BUG
//! digits. Type 2 (5.7): one BUG digit, removed from the cells that see all
//! BUG cells. Type 3 (5.7 + 0.1 per subset member beyond the first): the BUG
//! digits act as one cell of a naked subset. Type 4 (5.7): two BUG cells in
//! one region sharing a locked digit.

use super::board::subsets_of;
use super::board::CELL_REGIONS;
use super::board::{bit, bit_nums, cells_of, indices, Board, Card, Combinations, CELL_BIT};
use super::board::{BLOCK, COLUMN, HOUSE, INDEX_IN, PEER_MASK, REGION_CELLS, REGION_MASK, ROW};
use super::hint::Hint;
use super::subsets::common_tuple;

/// A unique-loop hint before it becomes a [`Hint`].
struct LoopHint {
    difficulty: f64,
    kind: u8,
    len: usize,
    /// The loop's cells, along the loop from its start (SE's text names
    /// them so).
    cells: Vec<usize>,
    removable: [u16; 81],
}

impl LoopHint {
    fn into_hint(self) -> Hint {
        let shape = if self.len == 4 { "Rectangle" } else { "Loop" };
        let name = if self.len > 6 {
            format!("Unique {shape} {} type {}", self.len, self.kind)
        } else {
            format!("Unique {shape} type {}", self.kind)
        };
        Hint::new(self.difficulty, name, &self.removable, None).with_cells(self.cells)
    }
}

/// SE's `UniqueLoopHint.getDifficulty()` for a loop of `len` cells.
fn loop_difficulty(len: usize) -> f64 {
    let mut result = 4.5;
    if len >= 10 {
        result += 0.3;
    }
    if len >= 8 {
        result += 0.2;
    } else if len >= 6 {
        result += 0.1;
    }
    result
}

/// Which digit pairs are known to close no valid loop, so that a search
/// skips their start cells.
///
/// The loops of a pair {v1, v2} go through the cells holding both digits
/// and read only those cells' candidates; hints come only from valid
/// loops. When every start cell of a pair was searched without a length
/// bound and no valid loop was found, the pair's cells and their
/// candidates are kept: a later search on the same cells with the same
/// candidates finds no loop either, on any board.
///
/// It also keeps, per start cell, the valid loops the last search from it
/// closed (`LoopsFrom`): the same cells with the same candidates close
/// the same loops, so a later search on them reads them instead.
#[derive(Clone)]
pub struct LoopMemo {
    /// Per pair (`pair_index`): the cells holding both digits (81-bit set)
    /// and the candidates of every cell, when the pair closed no loop.
    no_loop: Vec<Option<(u128, [u16; 81])>>,
    /// Per start cell: the last search from it.
    from: Vec<Option<LoopsFrom>>,
}

impl Default for LoopMemo {
    fn default() -> Self {
        LoopMemo {
            no_loop: vec![None; 100],
            from: vec![None; 81],
        }
    }
}

/// The valid loops a search from one start cell closed ([`LoopSearch`]),
/// in the order it closed them, and what they depend on.
///
/// A search from a cell holding the pair {v1, v2} reads only the cells
/// holding both digits (the other cells' candidates only to see that they
/// are not among them): the loops are a function of those cells (`both`),
/// their candidates and the length bound. Cut at `max_len` cells, a search
/// closes the loops of at most `max_len` cells of an unbounded one, in the
/// same order (a cut path closes no shorter loop; the extra digits SE
/// gathers are gathered before the cut), so a search with a bound at most
/// `max_len` reads them too.
#[derive(Clone)]
struct LoopsFrom {
    /// The start cell's candidates (the pair).
    pair: u16,
    /// The cells holding both digits (81-bit set).
    both: u128,
    /// The candidates of each cell (only those of `both` are compared).
    cands: [u16; 81],
    /// The search's bound.
    max_len: usize,
    /// The valid loops, as cells in the order the loop goes.
    loops: Vec<Vec<usize>>,
}

impl LoopsFrom {
    /// Whether a search from the same cell on `cands` (with `both`, the
    /// cells holding its pair) and bound `max_len` closes these loops (of
    /// at most `max_len` cells).
    fn answers(&self, pair: u16, both: u128, cands: &[u16; 81], max_len: usize) -> bool {
        self.pair == pair
            && self.both == both
            && max_len <= self.max_len
            && same_on(both, &self.cands, cands)
    }
}

/// Whether candidates `a` and `b` agree on every cell of `cells` (an
/// 81-bit set): what a loop search on those cells reads is the same.
fn same_on(cells: u128, a: &[u16; 81], b: &[u16; 81]) -> bool {
    cells_of(cells).all(|c| a[c] == b[c])
}

/// Index of the digit pair `v1 < v2` in [`LoopMemo`].
fn pair_index(v1: u8, v2: u8) -> usize {
    usize::from(v1) * 10 + usize::from(v2)
}

/// SE's `UniqueLoops`: the easiest unique rectangle or loop hint. `memo`
/// carries the digit pairs known to close no loop (a fresh one searches
/// every pair).
pub fn unique_loops_with(board: &Board, memo: &mut LoopMemo) -> Option<Hint> {
    let mut cells_with = [0u128; 10];
    for (c, &cands) in board.cands.iter().enumerate() {
        for v in super::board::digits(cands) {
            cells_with[v as usize] |= 1 << c;
        }
    }
    // Per pair: start cells not yet searched, and whether all searched so
    // far ran unbounded and closed no valid loop.
    let mut starts_left = [0u8; 100];
    let mut clean = [true; 100];
    for &cands in &board.cands {
        if cands.card() == 2 {
            let (v1, v2) = (
                cands.trailing_zeros() as u8,
                15 - (cands.leading_zeros() as u8),
            );
            starts_left[pair_index(v1, v2)] += 1;
        }
    }
    let mut best = BestLoop(None);
    for cell in 0..81 {
        let cands = board.cands[cell];
        if cands.card() != 2 {
            continue;
        }
        let v1 = cands.trailing_zeros() as u8;
        let v2 = 15 - (cands.leading_zeros() as u8);
        let pi = pair_index(v1, v2);
        starts_left[pi] -= 1;
        let both = cells_with[v1 as usize] & cells_with[v2 as usize];
        if let Some((cells, seen)) = &memo.no_loop[pi] {
            if *cells == both && same_on(both, seen, &board.cands) {
                continue;
            }
        }
        // A valid loop needs 4 cells holding both digits, each with
        // another of them in each of its regions.
        let core = loop_core(both);
        if core >> cell & 1 == 0 {
            if starts_left[pi] == 0 && clean[pi] {
                memo.no_loop[pi] = Some((both, board.cands));
            }
            continue;
        }
        // Loops longer than this cannot beat the best hint so far: every
        // hint of a loop of `len` cells rates at least loop_difficulty(len).
        let max_len = match &best.0 {
            None => 81,
            Some(b) => (4..=81)
                .take_while(|&len| {
                    let d = loop_difficulty(len);
                    d < b.difficulty || (d == b.difficulty && 1 < b.kind)
                })
                .last()
                .unwrap_or(0),
        };
        if max_len < 81 {
            clean[pi] = false;
        }
        if max_len < 4 {
            continue;
        }
        let from = match memo.from[cell].take() {
            Some(f) if f.answers(cands, both, &board.cands, max_len) => f,
            kept => {
                let mut f = kept.unwrap_or(LoopsFrom {
                    pair: 0,
                    both: 0,
                    cands: [0; 81],
                    max_len: 0,
                    loops: Vec::new(),
                });
                f.loops.clear();
                let mut path = Vec::with_capacity(16);
                let mut search = LoopSearch {
                    parity_regions: [0; 2],
                    board,
                    v1,
                    v2,
                    pair: cands,
                    both,
                    core,
                    max_len,
                    on_path: 0,
                    loops: &mut f.loops,
                };
                search.check(cell, &mut path, 2, 0, usize::MAX);
                (f.pair, f.both, f.cands, f.max_len) = (cands, both, board.cands, max_len);
                f
            }
        };
        let loops = from.loops.iter().filter(|lp| lp.len() <= max_len);
        if loops.clone().next().is_some() {
            clean[pi] = false;
        } else if starts_left[pi] == 0 && clean[pi] {
            memo.no_loop[pi] = Some((both, board.cands));
        }
        let mut done = None;
        for lp in loops {
            let extra: Vec<usize> = lp
                .iter()
                .copied()
                .filter(|&c| board.cands[c].card() > 2)
                .collect();
            let pair = bit(v1) | bit(v2);
            match extra.len() {
                0 => {}
                1 => {
                    let mut removable = [0u16; 81];
                    removable[extra[0]] = pair;
                    best.consider(LoopHint {
                        difficulty: loop_difficulty(lp.len()),
                        kind: 1,
                        len: lp.len(),
                        cells: lp.to_vec(),
                        removable,
                    });
                }
                2 => {
                    let (c1, c2) = (extra[0], extra[1]);
                    let r_pot = (board.cands[c1] | board.cands[c2]) & !pair;
                    if r_pot.card() == 1 {
                        best.consider(type2(board, lp, &extra, pair));
                    } else if r_pot.card() >= 2 {
                        type3(board, lp, c1, c2, v1, v2, &mut best);
                    }
                    if let Some(h) = type4(board, lp, c1, c2, v1, v2) {
                        best.consider(h);
                    }
                }
                _ => best.consider(type2(board, lp, &extra, pair)),
            }
            if let Some(b) = &best.0 {
                if b.difficulty == 4.5 && b.kind == 1 {
                    // Nothing found later can sort before it.
                    done = best.0.take();
                    break;
                }
            }
        }
        memo.from[cell] = Some(from);
        if let Some(h) = done {
            return Some(h.into_hint());
        }
    }
    best.0.map(LoopHint::into_hint)
}

/// The unique-loop hint SE applies among those offered: the first of the
/// lowest (difficulty, type); hints that remove nothing are not offered.
struct BestLoop(Option<LoopHint>);

impl BestLoop {
    fn consider(&mut self, h: LoopHint) {
        let better = match &self.0 {
            None => true,
            Some(b) => {
                h.difficulty < b.difficulty || (h.difficulty == b.difficulty && h.kind < b.kind)
            }
        };
        if better && h.removable.iter().any(|&m| m != 0) {
            self.0 = Some(h);
        }
    }
}

/// SE's `checkForLoops`, depth-first search for closed loops through cells
/// holding both `v1` and `v2`, cut at `max_len` cells.
struct LoopSearch<'a> {
    board: &'a Board,
    v1: u8,
    v2: u8,
    pair: u16,
    /// The cells holding both digits (81-bit set).
    both: u128,
    /// The cells that can lie on a valid loop ([`loop_core`]): the search
    /// goes on only through them.
    core: u128,
    max_len: usize,
    /// The cells of the current path (81-bit set).
    on_path: u128,
    /// The regions (27-bit sets) of the path's even and odd cells.
    parity_regions: [u32; 2],
    /// The valid loops closed, in the order found.
    loops: &'a mut Vec<Vec<usize>>,
}

/// The cells of `cells` (an 81-bit set: those holding a loop's two
/// digits) that can lie on a valid loop through them.
///
/// In a valid loop (SE's `isValidLoop`) the regions of the even cells are
/// those of the odd cells, so each region of a loop cell holds another loop
/// cell (of the other parity). Cells with a region holding no other cell of
/// `cells` are removed until none is left to remove; what stays holds every
/// valid loop (fewer than 4 cells: none). A search through the other cells
/// closes only invalid loops, which give no hint.
fn loop_core(mut cells: u128) -> u128 {
    loop {
        let mut keep = 0u128;
        for c in cells_of(cells) {
            let others = cells & !(1u128 << c);
            if CELL_REGIONS[c]
                .iter()
                .all(|&r| REGION_MASK[r as usize] & others != 0)
            {
                keep |= 1u128 << c;
            }
        }
        if keep == cells {
            return if cells.count_ones() >= 4 { cells } else { 0 };
        }
        cells = keep;
    }
}

/// The three regions of a cell as a 27-bit set.
#[inline]
fn regions_of(cell: usize) -> u32 {
    REGION_SETS[cell]
}

/// [`regions_of`] for every cell: bit `r` for each of its regions `r`.
const REGION_SETS: [u32; 81] = {
    let mut t = [0u32; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 3 {
            t[c] |= 1 << CELL_REGIONS[c][k];
            k += 1;
        }
        c += 1;
    }
    t
};

impl LoopSearch<'_> {
    /// Extends `path` with `cell`. `ex_values` is SE's set of extra digits
    /// seen, which (as in SE) also gathers the extra digits of the siblings
    /// already tried at this depth.
    fn check(
        &mut self,
        cell: usize,
        path: &mut Vec<usize>,
        allowed_ex: i32,
        ex_values: u16,
        last_type: usize,
    ) {
        let parity = path.len() & 1;
        path.push(cell);
        self.on_path |= CELL_BIT[cell];
        self.parity_regions[parity] |= regions_of(cell);
        let mut ex_values = ex_values;
        let pair = self.pair;
        debug_assert_eq!(pair, bit(self.v1) | bit(self.v2));
        let start = path[0];
        for ty in [BLOCK, ROW, COLUMN] {
            if ty == last_type {
                continue;
            }
            let r = CELL_REGIONS[cell][ty] as usize;
            // The region's cells holding the pair, ascending (the order of
            // its cells), off the path but for its first cell.
            let mut nexts = REGION_MASK[r] & self.both & !(self.on_path & !CELL_BIT[start]);
            while nexts != 0 {
                let next = nexts.trailing_zeros() as usize;
                nexts &= nexts - 1;
                if next == start {
                    // Only valid loops give hints (an odd one never is).
                    if path.len() >= 4 && path.len().is_multiple_of(2) && is_valid_loop(path) {
                        self.loops.push(path.clone());
                    }
                } else {
                    // (Off the path: `nexts` holds no other path cell.)
                    let cands = self.board.cands[next];
                    debug_assert_eq!(cands & pair, pair);
                    ex_values |= cands;
                    ex_values &= !pair;
                    let card = cands.card();
                    // A loop is valid only if no region holds two of its
                    // even cells, or two odd ones (SE's isValidLoop): a
                    // path that breaks this closes only invalid loops.
                    if (card == 2 || ex_values.card() == 1 || allowed_ex > 0)
                        && path.len() < self.max_len
                        && self.core & CELL_BIT[next] != 0
                        && self.parity_regions[path.len() & 1] & regions_of(next) == 0
                    {
                        let new_allowed = if card > 2 { allowed_ex - 1 } else { allowed_ex };
                        self.check(next, path, new_allowed, ex_values, ty);
                    }
                }
            }
        }
        path.pop();
        self.on_path &= !CELL_BIT[cell];
        self.parity_regions[parity] &= !regions_of(cell);
    }
}

/// SE's `isValidLoop`: each region at most once among the even cells and
/// once among the odd ones, and the same regions for both.
fn is_valid_loop(lp: &[usize]) -> bool {
    let mut visited = [0u32; 2];
    for (i, &c) in lp.iter().enumerate() {
        for &r in &CELL_REGIONS[c] {
            let b = 1u32 << r;
            if visited[i & 1] & b != 0 {
                return false;
            }
            visited[i & 1] |= b;
        }
    }
    visited[0] == visited[1]
}

/// Type 2: the extra digit of the first extra cell, removed from the cells
/// that see every extra cell.
fn type2(board: &Board, lp: &[usize], extra: &[usize], pair: u16) -> LoopHint {
    let value = (board.cands[extra[0]] & !pair).trailing_zeros() as u8;
    let mut common = !0u128;
    for &c in extra {
        common &= PEER_MASK[c];
    }
    let mut removable = [0u16; 81];
    for (c, r) in removable.iter_mut().enumerate() {
        if common >> c & 1 != 0 && !extra.contains(&c) && board.cands[c] & bit(value) != 0 {
            *r = bit(value);
        }
    }
    LoopHint {
        difficulty: loop_difficulty(lp.len()),
        kind: 2,
        len: lp.len(),
        cells: lp.to_vec(),
        removable,
    }
}

/// Type 3 (SE's `createType3Hints`): the two extra cells' extra digits act
/// as one cell of a naked subset, or the loop's digits plus others form a
/// hidden subset, in a region both extra cells share.
fn type3(board: &Board, lp: &[usize], c1: usize, c2: usize, v1: u8, v2: u8, best: &mut BestLoop) {
    let pair = bit(v1) | bit(v2);
    let extra = (board.cands[c1] | board.cands[c2]) & !pair;
    let base = loop_difficulty(lp.len());
    for degree in extra.card() as usize..=7 {
        for ty in [BLOCK, ROW, COLUMN] {
            let r = CELL_REGIONS[c1][ty] as usize;
            if r != CELL_REGIONS[c2][ty] as usize {
                continue;
            }
            let cells = &REGION_CELLS[r];
            let empty = board.empty_count(r) as usize;
            let (index1, index2) = (INDEX_IN[c1][ty] as usize, INDEX_IN[c2][ty] as usize);
            if degree * 2 <= empty {
                // The subsets holding index1 and not index2, in SE's order
                // (numeric: index1's bit is in all of them). A cell of
                // fewer than two or more than `degree` candidates is in
                // no naked subset, so the rest are made of the others.
                let eligible = (0..9)
                    .filter(|&k| {
                        k != index1
                            && k != index2
                            && (2..=degree as u32).contains(&board.cands[cells[k] as usize].card())
                    })
                    .fold(0u16, |m, k| m | 1 << k);
                for rest in subsets_of(eligible, degree - 1) {
                    let combo = u64::from(rest | 1 << index1);
                    let mut sets = [0u16; 7];
                    let mut naked = extra & board.cands[c1] & board.cands[c2];
                    let mut others = 0u16; // region indices of the other cells
                    for (i, k) in bit_nums(combo).enumerate() {
                        if k == index1 {
                            sets[i] = extra;
                        } else {
                            sets[i] = board.cands[cells[k] as usize];
                            naked |= sets[i];
                            others |= 1 << k;
                        }
                    }
                    if naked.card() as usize != degree {
                        continue;
                    }
                    let Some(common) = common_tuple(&sets[..degree], degree) else {
                        continue;
                    };
                    let mut removable = [0u16; 81];
                    for (k, &c) in cells.iter().enumerate() {
                        let c = c as usize;
                        if others >> k & 1 == 0 && c != c1 && c != c2 {
                            removable[c] = board.cands[c] & common;
                        }
                    }
                    let to_add = (common.card() as i32 - 1) as f64 * 0.1;
                    best.consider(LoopHint {
                        difficulty: base + to_add,
                        kind: 3,
                        len: lp.len(),
                        cells: lp.to_vec(),
                        removable,
                    });
                }
            }
            if degree * 2 < empty {
                let (mut rem_values, mut n_rem) = ([0u8; 9], 0);
                for v in (1..=9u8).filter(|&v| v != v1 && v != v2 && extra & bit(v) == 0) {
                    rem_values[n_rem] = v;
                    n_rem += 1;
                }
                if degree - 2 > n_rem {
                    continue;
                }
                for combo in Combinations::new(degree - 2, n_rem) {
                    let values = bit_nums(combo).map(|i| rem_values[i]).chain([v1, v2]);
                    // SE's searchCommonTupleLight: every set non-empty, union of `degree`.
                    let mut union = 0u16;
                    let mut empty_set = false;
                    let mut hidden = 0u16;
                    for v in values {
                        let p = board.positions(r, v) & !(1 << index2);
                        union |= p;
                        empty_set |= p == 0;
                        hidden |= bit(v);
                    }
                    if empty_set || union.card() as usize != degree {
                        continue;
                    }
                    let idx = union & !(1 << index1) & !(1 << index2);
                    let mut removable = [0u16; 81];
                    for k in indices(idx) {
                        let c = cells[k] as usize;
                        removable[c] = board.cands[c] & !hidden;
                    }
                    let to_add = (idx.card() as i32 - 1) as f64 * 0.1;
                    best.consider(LoopHint {
                        difficulty: base + to_add,
                        kind: 3,
                        len: lp.len(),
                        cells: lp.to_vec(),
                        removable,
                    });
                }
            }
        }
    }
}

/// Type 4 (SE's `createType4Hint`): in a region shared by the two extra
/// cells where one loop digit has no other position, the other loop digit
/// goes from both extra cells. The last matching region type wins, v1 first.
fn type4(board: &Board, lp: &[usize], c1: usize, c2: usize, v1: u8, v2: u8) -> Option<LoopHint> {
    let (mut lock1, mut lock2) = (false, false);
    for ty in [BLOCK, ROW, COLUMN] {
        let r = CELL_REGIONS[c1][ty] as usize;
        if r != CELL_REGIONS[c2][ty] as usize {
            continue;
        }
        let (mut has1, mut has2) = (false, false);
        for &c in &REGION_CELLS[r] {
            let c = c as usize;
            if c != c1 && c != c2 {
                has1 |= board.cands[c] & bit(v1) != 0;
                has2 |= board.cands[c] & bit(v2) != 0;
            }
        }
        lock1 |= !has1;
        lock2 |= !has2;
    }
    let rem = if lock1 {
        v2
    } else if lock2 {
        v1
    } else {
        return None;
    };
    let mut removable = [0u16; 81];
    removable[c1] = bit(rem);
    removable[c2] = bit(rem);
    Some(LoopHint {
        difficulty: loop_difficulty(lp.len()),
        kind: 4,
        len: lp.len(),
        cells: lp.to_vec(),
        removable,
    })
}

/// SE's `BivalueUniversalGrave`: the first BUG hint, in SE's order of types.
pub fn bug(board: &Board) -> Option<Hint> {
    let mut temp = board.cands;
    let mut bug_cells: Vec<usize> = Vec::new();
    let mut bug_values = [0u16; 81];
    let mut all_bug_values = 0u16;
    let mut common: Option<u128> = None;
    for ty in [BLOCK, ROW, COLUMN] {
        for i in 0..9 {
            let r = ty * 9 + i;
            for v in 1..=9u8 {
                let pos = board.positions(r, v);
                let card = pos.card();
                if card == 0 || card == 2 {
                    continue;
                }
                let mut new_bug = indices(pos)
                    .map(|k| REGION_CELLS[r][k] as usize)
                    .filter(|&c| board.cands[c].card() >= 3);
                match (new_bug.next(), new_bug.next()) {
                    (None, _) => return None,
                    (Some(cell), None) => {
                        if !bug_cells.contains(&cell) {
                            bug_cells.push(cell);
                        }
                        bug_values[cell] |= bit(v);
                        all_bug_values |= bit(v);
                        temp[cell] &= !bit(v);
                        let mut cc = common.unwrap_or(PEER_MASK[cell]) & PEER_MASK[cell];
                        for &b in &bug_cells {
                            cc &= !(1u128 << b);
                        }
                        common = Some(cc);
                        if bug_cells.len() > 1 && all_bug_values.card() > 1 && cc == 0 {
                            return None;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    if (0..81).any(|c| board.values[c] == 0 && temp[c].card() != 2) {
        return None;
    }
    for region in &REGION_CELLS {
        for v in 1..=9u8 {
            let card = region
                .iter()
                .filter(|&&c| temp[c as usize] & bit(v) != 0)
                .count();
            if card != 0 && card != 2 {
                return None;
            }
        }
    }
    let common = common.unwrap_or(0);
    if bug_cells.len() == 1 {
        let cell = bug_cells[0];
        let mut removable = [0u16; 81];
        removable[cell] = board.cands[cell] & !all_bug_values;
        return Some(Hint::new(5.6, "BUG type 1", &removable, None).with_cells([cell]));
    }
    if all_bug_values.card() == 1 {
        if common != 0 {
            let value = all_bug_values.trailing_zeros() as u8;
            let mut removable = [0u16; 81];
            let mut any = false;
            for (c, r) in removable.iter_mut().enumerate() {
                if common >> c & 1 != 0 && board.cands[c] & bit(value) != 0 {
                    *r = bit(value);
                    any = true;
                }
            }
            if any {
                return Some(
                    Hint::new(5.7, "BUG type 2", &removable, None)
                        .with_cells(bug_cells.iter().copied()),
                );
            }
        }
        if bug_cells.len() == 2 {
            return bug4(board, &bug_cells, &bug_values, all_bug_values);
        }
    } else if common != 0 {
        if bug_cells.len() == 2 {
            if let Some(h) = bug4(board, &bug_cells, &bug_values, all_bug_values) {
                return Some(h);
            }
        }
        return bug3(board, &bug_cells, all_bug_values, common);
    }
    None
}

/// The region of type `ty` all `cells` share, if any.
fn shared_region(cells: &[usize], ty: usize) -> Option<usize> {
    let r = CELL_REGIONS[cells[0]][ty];
    cells
        .iter()
        .all(|&c| CELL_REGIONS[c][ty] == r)
        .then_some(r as usize)
}

/// BUG type 3: the BUG digits with `degree - 1` cells of a shared region
/// form a naked subset.
fn bug3(board: &Board, bug_cells: &[usize], all_bug_values: u16, common: u128) -> Option<Hint> {
    // SE walks the common cells in the first BUG cell's house order.
    let first = bug_cells[0];
    for ty in [BLOCK, ROW, COLUMN] {
        let Some(r) = shared_region(bug_cells, ty) else {
            continue;
        };
        let region_cells: Vec<usize> = HOUSE[first]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| common >> c & 1 != 0 && CELL_REGIONS[c][ty] as usize == r)
            .collect();
        for degree in 2..=6usize {
            if region_cells.len() < degree {
                continue;
            }
            for combo in Combinations::new(degree - 1, region_cells.len()) {
                let mut sets = [0u16; 6];
                let mut other = 0u16;
                let mut naked_cells = 0u128;
                for (i, k) in bit_nums(combo).enumerate() {
                    let c = region_cells[k];
                    naked_cells |= 1 << c;
                    sets[i] = board.cands[c];
                    other |= sets[i];
                }
                sets[degree - 1] = all_bug_values;
                if other.card() as usize != degree {
                    continue;
                }
                let Some(naked) = common_tuple(&sets[..degree], degree) else {
                    continue;
                };
                let mut removable = [0u16; 81];
                let mut any = false;
                for &c in &region_cells {
                    if naked_cells >> c & 1 == 0 && !bug_cells.contains(&c) {
                        removable[c] = board.cands[c] & naked;
                        any |= removable[c] != 0;
                    }
                }
                if any {
                    let difficulty = 5.7 + (naked.card() as i32 - 1) as f64 * 0.1;
                    return Some(
                        Hint::new(difficulty, "BUG type 3", &removable, None)
                            .with_cells(bug_cells.iter().copied()),
                    );
                }
            }
        }
    }
    None
}

/// BUG type 4: two BUG cells in one region sharing one non-BUG digit.
fn bug4(
    board: &Board,
    bug_cells: &[usize],
    bug_values: &[u16; 81],
    all_bug_values: u16,
) -> Option<Hint> {
    let (c1, c2) = (bug_cells[0], bug_cells[1]);
    let common = board.cands[c1] & board.cands[c2] & !all_bug_values;
    if common.card() != 1 {
        return None;
    }
    [BLOCK, ROW, COLUMN].into_iter().find_map(|ty| {
        shared_region(bug_cells, ty)?;
        let mut removable = [0u16; 81];
        removable[c1] = board.cands[c1] & !bug_values[c1] & !common;
        removable[c2] = board.cands[c2] & !bug_values[c2] & !common;
        Some(Hint::new(5.7, "BUG type 4", &removable, None).with_cells([c1, c2]))
    })
}
