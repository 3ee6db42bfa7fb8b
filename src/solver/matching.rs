//! Deletion of forbidden edges: Régin's all-different filtering on one unit,
//! on 9-bit candidate masks.
//!
//! # Definition
//! A unit's 9 cells and the 9 digits form a bipartite graph whose edges are the
//! remaining candidates, edge (cell, d) meaning "d is still a candidate of the
//! cell". In a solved grid every unit's graph is a perfect matching. An edge that
//! lies in **no** perfect matching of its unit's graph is a *forbidden edge*
//! (SEEDS.md section 1, from the 2016 matching paper): its candidate can be
//! removed. Per unit this removes everything naked and hidden singles, pairs,
//! triples and quads would (they are Hall sets of the graph), and nothing more;
//! locked candidates span two units and are out of its reach. A unit with no
//! perfect matching is a contradiction.
//!
//! # Method
//! Régin (1994), as presented by van Hoeve (2001, arXiv cs/0105015, section 3):
//! 1. Cells that are *fixed* (a single candidate that no other cell of the
//!    unit has) are isolated in the graph below and are left as they are; the
//!    other cells are *active*. A unit with no active cell is returned at once.
//! 2. A maximum matching by augmenting paths (Kuhn): a greedy pass gives each
//!    cell its lowest free candidate, then each cell left over searches for an
//!    augmenting path by depth-first search with a bitmask of visited digits.
//!    Fewer than 9 matched cells: no perfect matching, [`filter_unit`] gives
//!    `None`. `mate(i)` is the digit matched to cell `i`, `owner(d)` the cell
//!    matched to digit `d`.
//! 3. With the matching perfect, merge each digit `d` with `owner(d)` into one
//!    node `d`, and draw `d -> e` iff `e` is a candidate of `owner(d)`: the
//!    alternating path "if `owner(d)` took `e`, `owner(e)` would need another
//!    digit". Row `d` of this graph is simply the candidate mask of `owner(d)`,
//!    so no bit permutation is needed. An unmatched edge `(i, e)` lies in some
//!    perfect matching iff it closes an alternating cycle, i.e. iff `mate(i)`
//!    and `e` are in the same strongly connected component.
//! 4. The reachability is the transitive closure by Warshall's algorithm on
//!    nine 9-bit rows (only active digits can be intermediate nodes); `e` is
//!    in `d`'s component iff `reach[d]` has `e` and `reach[e]` has `d`. Cell
//!    `i` keeps exactly the candidates in the component of `mate(i)`.
//!
//! Cost: the matching is O(9 · edges) in the worst case and usually a single
//! greedy pass with at most one short augmenting path; the closure is at most
//! 81 mask operations; no allocation, no division, no table. On top1465's
//! units, ~670-800 instructions and 80-100 ns per unit on a quiet Zen 3 core
//! (criterion on the loaded 2-core build machine: 200-350 ns; BENCHMARKS.md,
//! `cargo bench --bench matching`). ALGORITHMS.md section 2 reports 0.6 µs per unit for an
//! unoptimised version of the same method, against 4.4 µs for the seed's brute
//! force (drop each edge and its ends, test for a perfect matching).
//!
//! Tried and dropped (callgrind instruction counts on top1465's units): closure
//! rows padded to 16 lanes so LLVM could vectorise Warshall's inner loop (+8%
//! instructions, no vector code for the per-step shift), and a greedy pass
//! over cells with one or two candidates first (+10%: the extra pass costs
//! more than the ~0.5 augmenting path per unit it saves). The closure in cell
//! space, with each row's candidates permuted to owner cells, cost +14% over
//! the digit-space rows used here.
//!
//! # Bit layouts
//! - A candidate mask is a `u16` whose bit `d - 1` is set iff digit `d` (1..=9)
//!   is a candidate: `0o777` (0x1FF) is "any digit", `1 << 4` is "only 5". Bits
//!   9..16 are ignored on input and clear on output.
//! - A unit is `[u16; 9]`: the masks of its cells in the order of
//!   [`crate::grid::UNITS`] (row and column order left to right / top to
//!   bottom, boxes row-major).
//! - A grid of candidates is `[u16; 81]`, row-major like [`Grid`].
//! - Inside [`filter_unit`], the graph's rows (`reach`) and components are
//!   9-bit `u16`s in the same digit layout: bit `e - 1` is the node of digit
//!   `e` (merged with its owner cell). Cell sets (`active`, `unmatched`) are
//!   9-bit `u16`s over the unit's cell positions: bit `i` is the `i`-th cell.

use crate::grid::{Grid, PEERS, UNITS};

/// A unit has no perfect matching / the grid has a unit with no perfect
/// matching: the candidates admit no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Contradiction;

/// Every digit: bits 0..9 set.
const ALL_DIGITS: u16 = 0o777;

/// Marks "no cell" in [`Matching::owner`].
const NO_CELL: u8 = 0xFF;

/// A matching under construction between the unit's cells and digits.
struct Matching {
    /// Candidate masks of the 9 cells (bit `d - 1` = digit `d`).
    cands: [u16; 9],
    /// `mate[i]`: the digit matched to cell `i`, as a one-bit mask; 0 if none.
    mate: [u16; 9],
    /// `owner[d - 1]`: the cell (0..9) matched to digit `d`, or [`NO_CELL`].
    owner: [u8; 9],
    /// Digits matched to some cell (bit `d - 1`).
    used: u16,
}

impl Matching {
    /// Matches `cell` to the one-bit digit mask `bit`. The previous holder of
    /// `bit`, if any, has already been given another digit.
    #[inline]
    fn assign(&mut self, cell: usize, bit: u16) {
        self.mate[cell] = bit;
        self.owner[bit.trailing_zeros() as usize] = cell as u8;
        self.used |= bit;
    }

    /// Kuhn's augmenting path search from cell `cell`: tries to give it a digit,
    /// re-seating matched cells along an alternating path. `visited` holds the
    /// digits already explored in this search (bit `d - 1`). True on success,
    /// with `mate`, `owner` and `used` updated along the path. Recursion depth
    /// is at most 9 (each level visits a new digit).
    fn augment(&mut self, cell: usize, visited: &mut u16) -> bool {
        // A free digit first: it ends the path at once.
        let free = self.cands[cell] & !*visited & !self.used;
        if free != 0 {
            self.assign(cell, free & free.wrapping_neg());
            return true;
        }
        let mut todo = self.cands[cell] & !*visited;
        while todo != 0 {
            let bit = todo & todo.wrapping_neg();
            *visited |= bit;
            let holder = self.owner[bit.trailing_zeros() as usize] as usize;
            if self.augment(holder, visited) {
                self.assign(cell, bit);
                return true;
            }
            todo = self.cands[cell] & !*visited;
        }
        false
    }
}

/// Deletes every forbidden edge of one unit (Régin 1994; SEEDS.md section 1).
///
/// `cands`: the 9 cells of one unit, each a 9-bit candidate mask (bit `d - 1` =
/// digit `d`, 1..=9; higher bits are ignored). Returns the masks with every
/// forbidden edge removed: it keeps exactly the (cell, digit) edges that lie in
/// some perfect matching of the unit's cell-digit bipartite graph. `None` when
/// the unit has no perfect matching (a contradiction). Each returned mask is a
/// non-empty subset of the input mask; the function is idempotent. See the
/// module documentation for the method and its cost.
pub fn filter_unit(cands: [u16; 9]) -> Option<[u16; 9]> {
    let cands = cands.map(|c| c & ALL_DIGITS);

    // Every cell needs a digit and every digit a cell. `twice` collects the
    // digits that are candidates of two or more cells.
    let mut once = 0u16;
    let mut twice = 0u16;
    let mut empty_cell = false;
    for &c in &cands {
        twice |= once & c;
        once |= c;
        empty_cell |= c == 0;
    }
    if empty_cell || once != ALL_DIGITS {
        return None;
    }

    // 1. Fixed cells (a single candidate no other cell has) are isolated;
    //    when all nine are fixed the unit is one perfect matching of singles.
    let mut active = 0u16;
    for (i, &c) in cands.iter().enumerate() {
        let fixed = c & (c - 1) == 0 && c & twice == 0;
        active |= u16::from(!fixed) << i;
    }
    if active == 0 {
        return Some(cands);
    }

    // 2. Maximum matching: greedy, then augmenting paths for the cells left.
    let mut m = Matching {
        cands,
        mate: [0; 9],
        owner: [NO_CELL; 9],
        used: 0,
    };
    let mut unmatched = 0u16;
    for (i, &c) in cands.iter().enumerate() {
        let free = c & !m.used;
        if free != 0 {
            m.assign(i, free & free.wrapping_neg());
        } else {
            unmatched |= 1 << i;
        }
    }
    while unmatched != 0 {
        let cell = unmatched.trailing_zeros() as usize;
        unmatched &= unmatched - 1;
        let mut visited = 0u16;
        if !m.augment(cell, &mut visited) {
            return None;
        }
    }

    // 3. The digit graph: reach[d] = candidates of owner(d), d -> e for each.
    //    It holds d itself (owner(d) has its own mate as a candidate).
    let reach_init: [u16; 9] = std::array::from_fn(|d| cands[m.owner[d] as usize]);
    let mut reach = reach_init;
    let mut active_digits = 0u16;
    let mut cells = active;
    while cells != 0 {
        active_digits |= m.mate[cells.trailing_zeros() as usize];
        cells &= cells - 1;
    }

    // 4. Transitive closure (Warshall): after step k, reach[d] holds every e
    //    reachable from d through intermediate nodes among the steps so far.
    //    A fixed digit has no in-edge, so it is never an intermediate node.
    let mut steps = active_digits;
    while steps != 0 {
        let k = steps.trailing_zeros();
        steps &= steps - 1;
        let via = reach[k as usize];
        for r in reach.iter_mut() {
            // All ones when r reaches k, else zero: no branch.
            let has_k = 0u16.wrapping_sub((*r >> k) & 1);
            *r |= via & has_k;
        }
    }

    // Components, one at a time: {e in reach[d] : reach[e] has d}. Each cell
    // owning a digit of the component keeps its candidates in the component.
    let mut out = cands;
    let mut todo = active_digits;
    while todo != 0 {
        let d = todo.trailing_zeros();
        let mut reached = reach[d as usize];
        let mut component = 0u16;
        while reached != 0 {
            let e = reached.trailing_zeros() as usize;
            reached &= reached - 1;
            component |= (1 << e) & 0u16.wrapping_sub((reach[e] >> d) & 1);
        }
        todo &= !component;
        let mut members = component;
        while members != 0 {
            let e = members.trailing_zeros() as usize;
            members &= members - 1;
            out[m.owner[e] as usize] = reach_init[e] & component;
        }
    }
    Some(out)
}

/// Bit `u` set for the three units (0..27, [`UNITS`] order) holding each cell.
const UNITS_OF_CELL: [u32; 81] = build_units_of_cell();

const fn build_units_of_cell() -> [u32; 81] {
    let mut out = [0u32; 81];
    let mut u = 0;
    while u < 27 {
        let mut k = 0;
        while k < 9 {
            out[UNITS[u][k] as usize] |= 1 << u;
            k += 1;
        }
        u += 1;
    }
    out
}

/// The seed's pure method (SEEDS.md section 1): applies [`filter_unit`] to the
/// 27 units of an 81-cell candidate array (row-major, bit `d - 1` = digit `d`)
/// until nothing changes, re-filtering only units with a changed cell.
///
/// Returns `Ok(true)` when every cell has one candidate: since every unit then
/// has a perfect matching of singles, the digits form a valid grid. `Ok(false)`
/// when stuck at a fixed point with some cell still holding two or more
/// candidates. `Err(Contradiction)` when some unit has no perfect matching;
/// `cands` is then partly filtered and meaningless.
pub fn propagate_matching(cands: &mut [u16; 81]) -> Result<bool, Contradiction> {
    let mut dirty: u32 = (1 << 27) - 1;
    while dirty != 0 {
        let u = dirty.trailing_zeros() as usize;
        dirty &= dirty - 1;
        let unit = &UNITS[u];
        let before = unit.map(|c| cands[c as usize]);
        let after = filter_unit(before).ok_or(Contradiction)?;
        for k in 0..9 {
            if after[k] != before[k] {
                let cell = unit[k] as usize;
                cands[cell] = after[k];
                // filter_unit is idempotent: unit u itself need not be redone.
                dirty |= UNITS_OF_CELL[cell] & !(1 << u);
            }
        }
    }
    Ok(cands.iter().all(|&c| c & (c - 1) == 0))
}

/// Candidate masks (bit `d - 1` = digit `d`, 81 cells row-major) from a
/// puzzle's givens, the seed's starting graph: a given keeps only its own
/// digit; a blank cell keeps every digit not given in one of its 20 peers.
/// Clashing givens are left as they are (two equal singles in one unit), and
/// [`propagate_matching`] then reports a [`Contradiction`].
pub fn candidates_from_givens(puzzle: &Grid) -> [u16; 81] {
    let values = puzzle.cells();
    let mut cands = [0u16; 81];
    for (cell, c) in cands.iter_mut().enumerate() {
        *c = match values[cell] {
            0 => {
                let seen = PEERS[cell]
                    .iter()
                    .fold(0u16, |acc, &p| acc | digit_bit(values[p as usize]));
                ALL_DIGITS & !seen
            }
            v => digit_bit(v),
        };
    }
    cands
}

/// The one-bit mask of digit `v` (1..=9), or 0 for a blank (0).
#[inline]
fn digit_bit(v: u8) -> u16 {
    (1u16 << v) >> 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mask from a list of digits 1..=9.
    fn ds(digits: &[u16]) -> u16 {
        digits.iter().fold(0, |acc, &d| acc | 1 << (d - 1))
    }

    #[test]
    fn all_singles_distinct_is_kept_and_repeated_single_is_contradiction() {
        let solved: [u16; 9] = std::array::from_fn(|i| 1 << ((i * 4) % 9));
        assert_eq!(filter_unit(solved), Some(solved));
        let mut clash = solved;
        clash[3] = clash[5]; // two cells want the same digit, one digit unused
        assert_eq!(filter_unit(clash), None);
    }

    #[test]
    fn empty_cell_or_missing_digit_is_contradiction() {
        let mut cands = [ALL_DIGITS; 9];
        cands[4] = 0;
        assert_eq!(filter_unit(cands), None);
        // Digit 9 is a candidate nowhere: no perfect matching.
        assert_eq!(filter_unit([ds(&[1, 2, 3, 4, 5, 6, 7, 8]); 9]), None);
    }

    #[test]
    fn hall_violation_is_contradiction() {
        // Three cells share only digits {1, 2}: three cells, two digits.
        let mut cands = [ALL_DIGITS; 9];
        cands[0] = ds(&[1, 2]);
        cands[4] = ds(&[1, 2]);
        cands[8] = ds(&[1, 2]);
        assert_eq!(filter_unit(cands), None);
    }

    #[test]
    fn naked_single_is_removed_from_the_other_cells() {
        // Cell 2 holds only 7, so 7 leaves the eight other cells, nothing else.
        let mut cands = [ALL_DIGITS; 9];
        cands[2] = ds(&[7]);
        let mut want = [ALL_DIGITS & !ds(&[7]); 9];
        want[2] = ds(&[7]);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn hidden_single_keeps_only_its_digit() {
        // Digit 3 is a candidate of cell 6 only: cell 6 must take 3, so its
        // other candidates go; the other cells (already without 3) keep theirs.
        let mut cands = [ALL_DIGITS & !ds(&[3]); 9];
        cands[6] = ALL_DIGITS;
        let mut want = cands;
        want[6] = ds(&[3]);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn naked_pair_removes_its_digits_elsewhere() {
        // Cells 1 and 5 hold exactly {4, 8}: those two digits are used up by
        // them, so 4 and 8 leave the seven other cells.
        let mut cands = [ALL_DIGITS; 9];
        cands[1] = ds(&[4, 8]);
        cands[5] = ds(&[4, 8]);
        let mut want = [ALL_DIGITS & !ds(&[4, 8]); 9];
        want[1] = ds(&[4, 8]);
        want[5] = ds(&[4, 8]);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn naked_triple_without_a_full_cell() {
        // Cells 0, 3, 7 hold {1,2}, {2,9}, {1,9}: no cell has all three, yet
        // the three cells need the three digits, so 1, 2, 9 leave the others.
        let mut cands = [ALL_DIGITS; 9];
        cands[0] = ds(&[1, 2]);
        cands[3] = ds(&[2, 9]);
        cands[7] = ds(&[1, 9]);
        let mut want = [ALL_DIGITS & !ds(&[1, 2, 9]); 9];
        want[0] = cands[0];
        want[3] = cands[3];
        want[7] = cands[7];
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn hidden_pair_strips_its_cells() {
        // Digits 5 and 6 appear only in cells 2 and 8: those cells must take
        // 5 and 6 between them, so their other candidates go.
        let mut cands = [ALL_DIGITS & !ds(&[5, 6]); 9];
        cands[2] = ALL_DIGITS;
        cands[8] = ds(&[1, 5, 6, 9]);
        let mut want = cands;
        want[2] = ds(&[5, 6]);
        want[8] = ds(&[5, 6]);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn hidden_triple_strips_its_cells() {
        // Digits 1, 4, 7 appear only in cells 0, 4, 5 (each digit in two of
        // them): the three cells must take exactly those three digits.
        let mut cands = [ALL_DIGITS & !ds(&[1, 4, 7]); 9];
        cands[0] = ds(&[1, 4, 2, 3]);
        cands[4] = ds(&[4, 7, 8]);
        cands[5] = ds(&[1, 7, 9, 5]);
        let mut want = cands;
        want[0] = ds(&[1, 4]);
        want[4] = ds(&[4, 7]);
        want[5] = ds(&[1, 7]);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn nothing_to_remove_when_every_edge_is_in_a_matching() {
        // Nine cells, each with two candidates on a 9-cycle (i, i+1): two
        // perfect matchings (all "left", all "right") cover every edge.
        let cands: [u16; 9] = std::array::from_fn(|i| (1 << i) | (1 << ((i + 1) % 9)));
        assert_eq!(filter_unit(cands), Some(cands));
    }

    #[test]
    fn augmenting_path_needed_after_greedy() {
        // Greedy gives cell 0 digit 1 and leaves cell 1 ({1}) unmatched; the
        // augmenting path moves cell 0 to 2. Cell 1 is a naked single 1, so
        // cell 0 must lose 1.
        let mut cands = [ALL_DIGITS & !ds(&[1, 2]); 9];
        cands[0] = ds(&[1, 2]);
        cands[1] = ds(&[1]);
        cands[2] = ds(&[2, 3]);
        let got = filter_unit(cands).unwrap();
        // Cell 1 takes 1, so cell 0 takes 2, so cell 2 takes 3: three naked
        // singles in a chain, and 3 leaves every other cell.
        assert_eq!(got[0], ds(&[2]));
        assert_eq!(got[1], ds(&[1]));
        assert_eq!(got[2], ds(&[3]));
        for g in &got[3..] {
            assert_eq!(*g, ALL_DIGITS & !ds(&[1, 2, 3]));
        }
    }

    #[test]
    fn high_bits_are_ignored() {
        let cands: [u16; 9] = std::array::from_fn(|i| (1 << i) | 0xFE00);
        let want: [u16; 9] = std::array::from_fn(|i| 1 << i);
        assert_eq!(filter_unit(cands), Some(want));
    }

    #[test]
    fn units_of_cell_has_three_units_each() {
        for (cell, &units) in UNITS_OF_CELL.iter().enumerate() {
            assert_eq!(units.count_ones(), 3, "cell {cell}");
            for (u, unit) in UNITS.iter().enumerate() {
                let holds = unit.contains(&(cell as u8));
                assert_eq!(units >> u & 1 == 1, holds, "cell {cell} unit {u}");
            }
        }
    }

    #[test]
    fn candidates_from_givens_removes_peer_digits() {
        let puzzle = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let cands = candidates_from_givens(&puzzle);
        // r1c1 is the given 8.
        assert_eq!(cands[0], ds(&[8]));
        // r1c2: row 1 has 8; column 2 has 7, 5, 9; box 1 has 8, 3, 7.
        assert_eq!(cands[1], ALL_DIGITS & !ds(&[8, 3, 7, 5, 9]));
    }
}
