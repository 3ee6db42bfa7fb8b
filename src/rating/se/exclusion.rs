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

use super::board::{bit, cells_of, digits, Board, Card, CELL_BIT, HOUSE, PEER_MASK};
use super::hint::Hint;

/// A candidate base cell and its excluders (81-bit set).
struct Base {
    cell: usize,
    /// The cell as an 81-bit set (a 128-bit shift by a variable costs
    /// several instructions; the searches need it per pair and triplet).
    bit: u128,
    mask: u128,
}

/// `HOUSE_POS[c][e]`: the position of cell `e` in `HOUSE[c]` (SE's order
/// of a cell's peers), 20 for a cell that is not a peer.
const HOUSE_POS: [[u8; 81]; 81] = {
    let mut t = [[20u8; 81]; 81];
    let mut c = 0;
    while c < 81 {
        let mut k = 0;
        while k < 20 {
            t[c][HOUSE[c][k] as usize] = k as u8;
            k += 1;
        }
        c += 1;
    }
    t
};

/// Whether cells `a` and `b` see each other (share a region).
#[inline]
fn sees(a: usize, b: usize) -> bool {
    HOUSE_POS[a][b] < 20
}

/// The peers of `cell` in `cells` (81-bit set), in SE's house order.
fn in_house_order(cell: usize, cells: u128) -> impl Iterator<Item = usize> {
    let mut positions = cells_of(cells).fold(0u32, |m, e| m | 1 << HOUSE_POS[cell][e]);
    std::iter::from_fn(move || {
        (positions != 0).then(|| {
            let p = positions.trailing_zeros() as usize;
            positions &= positions - 1;
            HOUSE[cell][p] as usize
        })
    })
}

/// The candidate base cells, row-major.
fn base_cells(board: &Board, max_excluder: u32) -> Vec<Base> {
    // The cells of one candidate, and those of 2 to `max_excluder`.
    let (mut single, mut shaped) = (0u128, 0u128);
    for (c, m) in board.cands.iter().enumerate() {
        let n = m.card();
        if n == 1 {
            single |= 1 << c;
        } else if (2..=max_excluder).contains(&n) {
            shaped |= 1 << c;
        }
    }
    let mut bases = Vec::with_capacity(64);
    for (c, &peers) in PEER_MASK.iter().enumerate() {
        if board.cands[c].card() >= 2 && peers & single == 0 && peers & shaped != 0 {
            bases.push(Base {
                cell: c,
                bit: CELL_BIT[c],
                mask: peers & shaped,
            });
        }
    }
    bases
}

/// The excluders among `common` made of digits of `union` (the base
/// cells' digits: only those can be covered): those of two digits as
/// `partner[x]`, the digits y of the excluders {x, y}; those of three as a
/// list (`threes`, left alone where there are none), and how many.
#[inline]
fn excluders(
    board: &Board,
    common: u128,
    union: u16,
    threes: &mut [u16; 20],
) -> ([u16; 10], usize) {
    let mut partner = [0u16; 10];
    let mut nt = 0;
    let mut m = common;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        let e = board.cands[c];
        if e & !union != 0 {
            continue;
        }
        if e.card() == 2 {
            let (x, y) = (e.trailing_zeros() as usize, 15 - e.leading_zeros() as usize);
            partner[x] |= 1 << y;
            partner[y] |= 1 << x;
        } else {
            threes[nt] = e;
            nt += 1;
        }
    }
    (partner, nt)
}

/// The removals aligned pair exclusion finds on base cells `c0`, `c1`
/// with the excluder cells `common` (cells of two candidates that see
/// both), or `None`.
fn exclude_pair(board: &Board, c0: usize, c1: usize, common: u128) -> Option<[u16; 81]> {
    let wanted = [board.cands[c0], board.cands[c1]];
    let (partner, nt) = excluders(board, common, wanted[0] | wanted[1], &mut [0; 20]);
    debug_assert_eq!(nt, 0, "a pair's excluders have two digits");
    let s01 = sees(c0, c1);
    if partner == [0; 10] && !(s01 && wanted[0] & wanted[1] != 0) {
        return None; // nothing can rule any combination out
    }
    // (a, b) is ruled out by the excluder {a, b}, and by a = b where the
    // cells see each other.
    let mut allowed = [0u16; 2];
    for a in digits(wanted[0]) {
        let mut bs = wanted[1] & !partner[a as usize];
        if s01 {
            bs &= !bit(a);
        }
        if bs != 0 {
            allowed[0] |= bit(a);
            allowed[1] |= bs;
        }
    }
    if allowed == wanted {
        return None;
    }
    let mut removable = [0u16; 81];
    removable[c0] = wanted[0] & !allowed[0];
    removable[c1] = wanted[1] & !allowed[1];
    Some(removable)
}

/// The removals aligned triplet exclusion finds on base cells `cells` with
/// the excluder cells `common` (cells of two or three candidates that see
/// all three), or `None`.
fn exclude(board: &Board, cells: &[usize; 3], common: u128) -> Option<[u16; 81]> {
    let wanted = cells.map(|c| board.cands[c]);
    let mut threes = [0u16; 20];
    let (partner, nt) = excluders(
        board,
        common,
        wanted[0] | wanted[1] | wanted[2],
        &mut threes,
    );
    let threes = &threes[..nt];
    let [c0, c1, c2] = *cells;
    let (s01, s02, s12) = (sees(c0, c1), sees(c0, c2), sees(c1, c2));
    if partner == [0; 10]
        && nt == 0
        && !(s01 && wanted[0] & wanted[1] != 0)
        && !(s02 && wanted[0] & wanted[2] != 0)
        && !(s12 && wanted[1] & wanted[2] != 0)
    {
        return None; // nothing can rule any combination out
    }
    // A combination is ruled out by an excluder of two digits it takes (y
    // in partner[x]), by one of three when it takes all three, and by two
    // cells that see each other taking the same digit.
    let mut allowed = [0u16; 3];
    // Cells 1 and 2 taking the same digit, where they see each other.
    let same12 = if s12 { !0u16 } else { 0 };
    let mut with_threes: [u16; 10];
    for a in digits(wanted[0]) {
        let mut c_base = wanted[2] & !partner[a as usize];
        let mut b_set = wanted[1] & !partner[a as usize];
        if s02 {
            c_base &= !bit(a);
        }
        if s01 {
            b_set &= !bit(a);
        }
        if c_base == 0 {
            continue;
        }
        // The digits c each b rules out beside `a`: the partners of b,
        // and with an excluder {a, x, y} of three digits, y for b = x
        // and x for b = y.
        let ruled = if nt == 0 {
            &partner
        } else {
            with_threes = partner;
            for &t in threes {
                if t & bit(a) != 0 {
                    let rest = t & !bit(a);
                    let (x, y) = (rest.trailing_zeros(), 15 - rest.leading_zeros());
                    with_threes[x as usize] |= 1 << y;
                    with_threes[y as usize] |= 1 << x;
                }
            }
            &with_threes
        };
        for b in digits(b_set) {
            let cs = c_base & !ruled[b as usize] & !(bit(b) & same12);
            if cs != 0 {
                allowed[0] |= bit(a);
                allowed[1] |= bit(b);
                allowed[2] |= cs;
                // `a` is allowed, and so is every digit of the other two
                // cells: `a`'s other combinations allow nothing new.
                if allowed[1] == wanted[1] && allowed[2] == wanted[2] {
                    break;
                }
            }
        }
    }
    if allowed == wanted {
        return None;
    }
    let mut removable = [0u16; 81];
    for i in 0..3 {
        removable[cells[i]] = wanted[i] & !allowed[i];
    }
    Some(removable)
}

/// Whether an 81-bit set has two cells or more.
#[inline]
fn two_or_more(m: u128) -> bool {
    m & m.wrapping_sub(1) != 0
}

/// How many recent searches [`ExclusionMemo`] keeps the changed cells of,
/// to tell at once whether any cell of a set changed since a search.
const WINDOW: usize = 64;

/// What earlier searches of one aligned exclusion found nothing on, so
/// that later ones skip it. The exclusion on a set of base cells depends
/// only on the candidates of those cells and on the excluders among the
/// cells they all see (cells of 2 to `degree` candidates): where the base
/// cells did not change since it last gave nothing and no cell they all
/// see became an excluder (changed to 2 to `degree` candidates), it gives
/// nothing again, on any board: every combination it allowed is still
/// there, and fewer excluders rule out fewer combinations. Between two
/// searches a few steps of the path change some cells (most often placing
/// values: a solved cell is no excluder), so many sets are skipped.
pub struct ExclusionMemo {
    /// Base cells per set, and the most candidates of an excluder: 2 or 3.
    degree: u32,
    /// Searches so far (a clock).
    call: u32,
    /// The candidates at the last search, per cell.
    seen: [u16; 81],
    /// The search at which each cell's candidates last differed from `seen`.
    changed_at: [u32; 81],
    /// The search at which each cell last changed into an excluder.
    shaped_at: [u32; 81],
    /// `changed_after[d]`: the cells (81-bit set) whose candidates changed
    /// in one of the last `d` searches, this one included (none for `d =
    /// 0`): the cells changed after search `call - d`, for `d < WINDOW`.
    changed_after: [u128; WINDOW],
    /// As `changed_after`, the cells that changed into an excluder.
    shaped_after: [u128; WINDOW],
    /// The cells changed at each of the last `WINDOW` searches, by `call %
    /// WINDOW`, and those of them that became excluders.
    changed_in: [(u128, u128); WINDOW],
    /// Per set of base cells (`index`), the search at which it last gave
    /// nothing (0: never): 81^degree u32 (2 MiB for triplets), made on the
    /// first search.
    nothing_at: Vec<u32>,
    /// Triplets only, per pair of first two base cells (`81 * first +
    /// second`): the search at which every triplet of the pair last gave
    /// nothing (0: never), and the pair's area then (the third cells tried,
    /// an 81-bit set), made on the first search.
    pair_nothing_at: Vec<(u32, u128)>,
}

impl ExclusionMemo {
    /// An empty memo for sets of `degree` (2 or 3) base cells.
    pub fn new(degree: u32) -> ExclusionMemo {
        ExclusionMemo {
            degree,
            call: 0,
            seen: [0; 81],
            changed_at: [0; 81],
            shaped_at: [0; 81],
            changed_after: [0; WINDOW],
            shaped_after: [0; WINDOW],
            changed_in: [(0, 0); WINDOW],
            nothing_at: Vec::new(),
            pair_nothing_at: Vec::new(),
        }
    }

    /// The index of base cells `cells` (`degree` of them).
    #[inline]
    fn index(cells: &[usize]) -> usize {
        cells.iter().fold(0, |i, &c| i * 81 + c)
    }

    /// Starts a search on `board`: notes the cells that changed.
    fn start(&mut self, board: &Board) {
        if self.nothing_at.is_empty() {
            self.nothing_at = vec![0; 81usize.pow(self.degree)];
            if self.degree == 3 {
                self.pair_nothing_at = vec![(0, 0); 81 * 81];
            }
        }
        self.call += 1;
        if self.call == u32::MAX {
            // Forget everything rather than let the clock wrap.
            self.nothing_at.iter_mut().for_each(|t| *t = 0);
            self.pair_nothing_at.iter_mut().for_each(|t| *t = (0, 0));
            self.call = 1;
        }
        let (mut changed, mut shaped) = (0u128, 0u128);
        for c in 0..81 {
            if board.cands[c] != self.seen[c] {
                self.seen[c] = board.cands[c];
                self.changed_at[c] = self.call;
                changed |= 1u128 << c;
                if (2..=self.degree).contains(&board.cands[c].card()) {
                    self.shaped_at[c] = self.call;
                    shaped |= 1u128 << c;
                }
            }
        }
        self.changed_in[self.call as usize % WINDOW] = (changed, shaped);
        let (mut after, mut after_shaped) = (0u128, 0u128);
        for d in 0..WINDOW {
            self.changed_after[d] = after;
            self.shaped_after[d] = after_shaped;
            // Searches before the first changed nothing.
            if let Some(at) = self.call.checked_sub(d as u32) {
                let (c, s) = self.changed_in[at as usize % WINDOW];
                after |= c;
                after_shaped |= s;
            }
        }
    }

    /// Whether the exclusion on base cells `cells` (81-bit set: `bases`)
    /// gave nothing after every change of the cells it depends on.
    /// `seeing_all`: the cells that see all of `cells` (81-bit set).
    #[inline]
    fn known_nothing(&self, cells: &[usize], bases: u128, seeing_all: u128) -> bool {
        let at = self.nothing_at[Self::index(cells)];
        if at == 0 {
            return false;
        }
        let d = (self.call - at) as usize;
        if d < WINDOW {
            return bases & self.changed_after[d] == 0 && seeing_all & self.shaped_after[d] == 0;
        }
        cells.iter().all(|&c| self.changed_at[c] <= at)
            && cells_of(seeing_all).all(|c| self.shaped_at[c] <= at)
    }

    /// Whether every triplet of first two base cells `pair` (2 cells; as an
    /// 81-bit set `pair_cells`), with third cells among `area` (an 81-bit
    /// set), gives nothing, as they all did at a recent search (of the last
    /// `WINDOW`) whose area held `area`: where none of the pair's cells and
    /// of `area` changed and no cell that sees the pair (`seeing_pair`,
    /// which holds the cells that see any triplet of it) became an excluder
    /// since, each triplet is one [`ExclusionMemo::known_nothing`] would
    /// skip (a third cell needs two common excluders, and the pair's gained
    /// none). An area that gained a cell (one whose single-candidate peer
    /// was placed) has a triplet never searched: no skip.
    #[inline]
    fn pair_known_nothing(
        &self,
        pair: [usize; 2],
        pair_cells: u128,
        area: u128,
        seeing_pair: u128,
    ) -> bool {
        let (at, area_then) = self.pair_nothing_at[pair[0] * 81 + pair[1]];
        if at == 0 || area & !area_then != 0 {
            return false;
        }
        let d = (self.call - at) as usize;
        let cells = area | pair_cells;
        d < WINDOW && cells & self.changed_after[d] == 0 && seeing_pair & self.shaped_after[d] == 0
    }

    /// Notes that every triplet of first two base cells `pair`, with third
    /// cells among `area`, gave nothing in this search.
    #[inline]
    fn pair_gave_nothing(&mut self, pair: [usize; 2], area: u128) {
        self.pair_nothing_at[pair[0] * 81 + pair[1]] = (self.call, area);
    }

    /// Notes that the exclusion on `cells` gave nothing in this search.
    #[inline]
    fn gave_nothing(&mut self, cells: &[usize]) {
        self.nothing_at[Self::index(cells)] = self.call;
    }
}

/// The cells that see two or more of `cells` (81-bit sets).
fn seeing_two(cells: u128) -> u128 {
    let (mut one, mut two) = (0u128, 0u128);
    let mut m = cells;
    while m != 0 {
        let peers = PEER_MASK[m.trailing_zeros() as usize];
        m &= m - 1;
        two |= one & peers;
        one |= peers;
    }
    two
}

/// The candidate base cells, with a lookup by cell.
struct Bases {
    list: Vec<Base>,
    /// The cells of `list` (81-bit set).
    cells: u128,
    /// Per cell, its index in `list` (where it is one; fewer than 81).
    position: [u8; 81],
}

impl Bases {
    fn new(list: Vec<Base>) -> Bases {
        let mut position = [u8::MAX; 81];
        let mut cells = 0u128;
        for (i, b) in list.iter().enumerate() {
            cells |= b.bit;
            position[b.cell] = i as u8;
        }
        Bases {
            list,
            cells,
            position,
        }
    }

    /// The base cell at `cell` (one of `cells`).
    fn at(&self, cell: usize) -> &Base {
        &self.list[usize::from(self.position[cell])]
    }
}

/// Calls `f(first, second, common excluders)` on the pairs of `bases` with
/// two or more common excluders, in SE's order (its `Permutations(2, n)`
/// over the base cells: by the second cell, then the first), until it
/// returns something. The first cell of such a pair sees two of the second's
/// excluders, so only those cells are tried.
fn pairs_with_common_excluders<T>(
    bases: &Bases,
    mut f: impl FnMut(&Base, &Base, u128) -> Option<T>,
) -> Option<T> {
    for b1 in &bases.list {
        let mut m = seeing_two(b1.mask) & bases.cells & (b1.bit - 1);
        while m != 0 {
            let b0 = bases.at(m.trailing_zeros() as usize);
            m &= m - 1;
            let common = b0.mask & b1.mask;
            if two_or_more(common) {
                if let Some(found) = f(b0, b1, common) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// SE's `AlignedPairExclusion`: the first pair exclusion that removes
/// something (6.2). `memo` (degree 2) carries what earlier searches (of
/// any board) found nothing on.
pub fn aligned_pair(board: &Board, memo: &mut ExclusionMemo) -> Option<Hint> {
    memo.start(board);
    let bases = Bases::new(base_cells(board, 2));
    pairs_with_common_excluders(&bases, |b0, b1, common| {
        let cells = [b0.cell, b1.cell];
        let bases = b0.bit | b1.bit;
        if memo.known_nothing(&cells, bases, PEER_MASK[b0.cell] & PEER_MASK[b1.cell]) {
            return None;
        }
        let found = exclude_pair(board, b0.cell, b1.cell, common);
        if found.is_none() {
            memo.gave_nothing(&cells);
        }
        found.map(|removable| (removable, cells))
    })
    .map(|(removable, cells)| {
        Hint::new(6.2, "Aligned Pair Exclusion", &removable, None).with_cells(cells)
    })
}

/// SE's `AlignedExclusion(3)`: the first triplet exclusion that removes
/// something (7.5). `memo` (degree 3) carries what earlier searches (of
/// any board) found nothing on.
pub fn aligned_triplet(board: &Board, memo: &mut ExclusionMemo) -> Option<Hint> {
    memo.start(board);
    let bases = Bases::new(base_cells(board, 3));
    pairs_with_common_excluders(&bases, |b0, b1, pair_common| {
        // SE's twin area: the first two cells' excluders (b0's, then b1's
        // new ones) that are base cells themselves; a third cell needs two
        // common excluders, two of the pair's that it sees (every
        // triplet's common excluders are among the pair's).
        let area = (b0.mask | b1.mask) & bases.cells & !b0.bit & !b1.bit & seeing_two(pair_common);
        // The cells of `area` in that order: b0's excluders in SE's house
        // order of b0's peers, then b1's others in that of b1's.
        let seeing_pair = PEER_MASK[b0.cell] & PEER_MASK[b1.cell];
        let pair = [b0.cell, b1.cell];
        let pair_cells = b0.bit | b1.bit;
        if memo.pair_known_nothing(pair, pair_cells, area, seeing_pair) {
            return None;
        }
        let thirds =
            in_house_order(b0.cell, area & b0.mask).chain(in_house_order(b1.cell, area & !b0.mask));
        for e in thirds {
            let third = bases.at(e);
            let common = pair_common & third.mask;
            if !two_or_more(common) {
                continue;
            }
            let cells = [b0.cell, b1.cell, e];
            let bases = pair_cells | third.bit;
            if memo.known_nothing(&cells, bases, seeing_pair & PEER_MASK[e]) {
                continue;
            }
            if let Some(removable) = exclude(board, &cells, common) {
                return Some((removable, cells));
            }
            memo.gave_nothing(&cells);
        }
        memo.pair_gave_nothing(pair, area);
        None
    })
    .map(|(removable, cells)| {
        Hint::new(7.5, "Aligned Triplet Exclusion", &removable, None).with_cells(cells)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `exclude` removes what trying every combination of the base cells'
    /// candidates leaves unused: on random candidates of five digits (so
    /// that excluders often cover a combination), for random pairs and
    /// triplets of cells, with the excluders a search would pass (the cells
    /// of 2 or 3 candidates, for pairs 2, that see every base cell).
    #[test]
    fn exclude_removes_what_no_combination_uses() {
        let mut rng = ChaCha8Rng::seed_from_u64(62);
        let (mut tried, mut removing) = (0, 0);
        for _ in 0..4000 {
            let cands: [u16; 81] = std::array::from_fn(|_| loop {
                let m = rng.gen_range(0u16..32) << 1;
                if (2..=3).contains(&m.card()) {
                    break m;
                }
            });
            let board = Board::from_parts([0; 81], cands);
            let n = rng.gen_range(2..=3);
            let mut cells = Vec::new();
            // Cells near each other (the others see the first), which
            // share more excluders.
            while cells.len() < n {
                let c = rng.gen_range(0..81);
                let near = cells.first().is_none_or(|&f| PEER_MASK[f] >> c & 1 != 0);
                if near && !cells.contains(&c) {
                    cells.push(c);
                }
            }
            let max = if n == 2 { 2 } else { 3 };
            let common = (0..81)
                .filter(|&e| {
                    !cells.contains(&e)
                        && (2..=max).contains(&cands[e].card())
                        && cells.iter().all(|&c| PEER_MASK[c] >> e & 1 != 0)
                })
                .fold(0u128, |m, e| m | 1 << e);
            // Every combination, tried (a third digit 0 stands for no third
            // cell).
            let mut used = [0u16; 3];
            let lists: Vec<Vec<u8>> = cells.iter().map(|&c| digits(cands[c]).collect()).collect();
            let thirds = if n == 3 { lists[2].clone() } else { vec![0] };
            for &a in &lists[0] {
                for &b in &lists[1] {
                    for &c in &thirds {
                        let combination = [a, b, c];
                        let taken = combination[..n].iter().fold(0u16, |m, &v| m | bit(v));
                        let clash = (0..n).any(|i| {
                            (i + 1..n).any(|j| {
                                combination[i] == combination[j]
                                    && PEER_MASK[cells[i]] >> cells[j] & 1 != 0
                            })
                        });
                        if !clash && cells_of(common).all(|e| cands[e] & !taken != 0) {
                            for i in 0..n {
                                used[i] |= bit(combination[i]);
                            }
                        }
                    }
                }
            }
            let expected = (0..n).any(|i| used[i] != cands[cells[i]]).then(|| {
                let mut removable = [0u16; 81];
                for i in 0..n {
                    removable[cells[i]] = cands[cells[i]] & !used[i];
                }
                removable
            });
            let found = match cells[..] {
                [c0, c1] => exclude_pair(&board, c0, c1, common),
                [c0, c1, c2] => exclude(&board, &[c0, c1, c2], common),
                _ => unreachable!(),
            };
            assert_eq!(found, expected, "{cells:?}");
            tried += 1;
            removing += usize::from(expected.is_some());
        }
        // Both outcomes, many times.
        assert!(
            removing > 200 && removing < tried - 200,
            "{removing} of {tried}"
        );
    }

    /// Along boards that lose a candidate or get a value at a time (as a
    /// rating path does), and from one puzzle's boards to the next
    /// (candidates come back), the searches with memos kept from board to
    /// board (per set of base cells, and per pair of a triplet's first two
    /// cells) give the hints of searches with fresh memos.
    #[test]
    fn kept_memos_give_the_hints_of_fresh_ones() {
        // ER 8.3 puzzles of se_hard_300 (SE's ratings: aligned exclusion
        // is tried at many of their steps).
        let puzzles = [
            ".65...9..9.375.4....4..2.....837...5.......14.....58..47.........96....1..6.3...9",
            "..9..4...6..8....2.5.....1...........361...7..7...85.6..3.7..94...6....5.8.4.1..7",
            ".1..6..3...83..9...29.1......68....18.4.3...7...6498.........78.....5.....2...4..",
            "38.......5....1..8679...43......6.43.3..94...7.....2...9.8...5.2.7.45........9...",
            ".5.7....3.1...8.5.98....4......2.8......4.9.25............76...2.........3.5...16",
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let (mut pairs, mut triplets) = (ExclusionMemo::new(2), ExclusionMemo::new(3));
        let (mut boards, mut pair_hints, mut triplet_hints) = (0, 0, 0);
        for _ in 0..20 {
            for puzzle in puzzles {
                let mut board = Board::new(&Grid::parse(puzzle).unwrap());
                for _ in 0..40 {
                    let pair = aligned_pair(&board, &mut pairs);
                    assert_eq!(pair, aligned_pair(&board, &mut ExclusionMemo::new(2)));
                    let triplet = aligned_triplet(&board, &mut triplets);
                    assert_eq!(triplet, aligned_triplet(&board, &mut ExclusionMemo::new(3)));
                    boards += 1;
                    pair_hints += usize::from(pair.is_some());
                    triplet_hints += usize::from(triplet.is_some());
                    // An empty cell loses a candidate or, one time in four,
                    // gets one placed (its peers lose the digit): cells
                    // become singles, and singles stop being candidates.
                    let c = rng.gen_range(0..81);
                    let digits: Vec<u8> = digits(board.cands[c]).collect();
                    if board.values[c] == 0 && !digits.is_empty() {
                        let v = digits[rng.gen_range(0..digits.len())];
                        if rng.gen_range(0..4) == 0 {
                            board.place(c, v);
                        } else if digits.len() >= 2 {
                            board.remove(c, bit(v));
                        }
                    }
                }
            }
        }
        // The boards give hints and nothing alike, so both paths are tried.
        assert!(
            pair_hints > 0 && pair_hints < boards,
            "{pair_hints} of {boards}"
        );
        assert!(
            triplet_hints > 0 && triplet_hints < boards,
            "{triplet_hints} of {boards}"
        );
    }
}
