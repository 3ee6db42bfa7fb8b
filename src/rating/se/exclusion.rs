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

use super::board::{bit, digits, Board, Card, HOUSE, PEER_MASK};
use super::hint::Hint;

/// A candidate base cell: its excluders as an 81-bit set and as a list in
/// SE's house order.
struct Base {
    cell: usize,
    mask: u128,
    list: [u8; 20],
    len: usize,
}

/// The candidate base cells, row-major.
fn base_cells(board: &Board, max_excluder: u32) -> Vec<Base> {
    let mut bases = Vec::with_capacity(64);
    for (c, house) in HOUSE.iter().enumerate() {
        if board.cands[c].card() < 2 {
            continue;
        }
        let mut naked_single = false;
        let mut base = Base {
            cell: c,
            mask: 0,
            list: [0; 20],
            len: 0,
        };
        for &e in house {
            let n = board.cands[e as usize].card();
            if n == 1 {
                naked_single = true;
                break;
            } else if (2..=max_excluder).contains(&n) {
                base.mask |= 1 << e;
                base.list[base.len] = e;
                base.len += 1;
            }
        }
        if !naked_single && base.mask != 0 {
            bases.push(base);
        }
    }
    bases
}

/// The removals aligned exclusion finds on `cells` (2 or 3) with the
/// excluder cells `common`, or `None`.
fn exclude(board: &Board, cells: &[usize], common: u128) -> Option<[u16; 81]> {
    let n = cells.len();
    let wanted: [u16; 3] = std::array::from_fn(|i| if i < n { board.cands[cells[i]] } else { 0 });
    let union = wanted[0] | wanted[1] | wanted[2];
    // Only excluders made of the base cells' digits can be covered.
    let mut excluders = [0u16; 20];
    let mut ne = 0;
    let mut m = common;
    while m != 0 {
        let c = m.trailing_zeros() as usize;
        m &= m - 1;
        if board.cands[c] & !union == 0 {
            excluders[ne] = board.cands[c];
            ne += 1;
        }
    }
    let excluders = &excluders[..ne];
    let sees = |i: usize, j: usize| PEER_MASK[cells[i]] >> cells[j] & 1 != 0;
    let (s01, s02, s12) = (sees(0, 1), n == 3 && sees(0, 2), n == 3 && sees(1, 2));
    if ne == 0
        && !(s01 && wanted[0] & wanted[1] != 0)
        && !(s02 && wanted[0] & wanted[2] != 0)
        && !(s12 && wanted[1] & wanted[2] != 0)
    {
        return None; // nothing can rule any combination out
    }
    let mut allowed = [0u16; 3];
    if n == 2 {
        for a in digits(wanted[0]) {
            for b in digits(wanted[1]) {
                let used = bit(a) | bit(b);
                if (a != b || !s01) && !excluders.iter().any(|&e| e & !used == 0) {
                    allowed[0] |= bit(a);
                    allowed[1] |= bit(b);
                }
            }
        }
    } else {
        // For each digit a of the first cell, the digits c of the third cell
        // that complete (a, b) for each b, as masks: an excluder {a, x}
        // rules out b = x and c = x, an excluder {x, y} (or {a, x, y}) rules
        // out {b, c} = {x, y}; cells that see each other take different
        // digits.
        for a in digits(wanted[0]) {
            let (mut no_bc, mut pairs, mut np) = (0u16, [0u16; 20], 0);
            for &e in excluders {
                let rest = e & !bit(a);
                if e & bit(a) != 0 && rest.card() == 1 {
                    no_bc |= rest;
                } else if rest.card() == 2 {
                    pairs[np] = rest;
                    np += 1;
                }
            }
            let mut c_base = wanted[2] & !no_bc;
            if s02 {
                c_base &= !bit(a);
            }
            let mut b_set = wanted[1] & !no_bc;
            if s01 {
                b_set &= !bit(a);
            }
            for b in digits(b_set) {
                let mut cs = c_base;
                if s12 {
                    cs &= !bit(b);
                }
                for &pair in &pairs[..np] {
                    if pair & bit(b) != 0 {
                        cs &= !(pair & !bit(b));
                    }
                }
                if cs != 0 {
                    allowed[0] |= bit(a);
                    allowed[1] |= bit(b);
                    allowed[2] |= cs;
                }
            }
        }
    }
    if allowed == wanted {
        return None;
    }
    let mut removable = [0u16; 81];
    for i in 0..n {
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
/// only on the candidates of those cells and of the cells they all see (its
/// possible excluders): where none of those changed since it last gave
/// nothing, it gives nothing again, on any board. Between two searches a
/// few steps of the path change some cells, so many sets are skipped.
pub struct ExclusionMemo {
    /// Base cells per set: 2 or 3.
    degree: u32,
    /// Searches so far (a clock).
    call: u32,
    /// The candidates at the last search, per cell.
    seen: [u16; 81],
    /// The search at which each cell's candidates last differed from `seen`.
    changed_at: [u32; 81],
    /// `changed_after[d]`: the cells (81-bit set) whose candidates changed
    /// in one of the last `d` searches, this one included (none for `d =
    /// 0`): the cells changed after search `call - d`, for `d < WINDOW`.
    changed_after: [u128; WINDOW],
    /// The cells changed at each of the last `WINDOW` searches, by `call %
    /// WINDOW`.
    changed_in: [u128; WINDOW],
    /// Per set of base cells (`index`), the search at which it last gave
    /// nothing (0: never): 81^degree u32 (2 MiB for triplets), made on the
    /// first search.
    nothing_at: Vec<u32>,
}

impl ExclusionMemo {
    /// An empty memo for sets of `degree` (2 or 3) base cells.
    pub fn new(degree: u32) -> ExclusionMemo {
        ExclusionMemo {
            degree,
            call: 0,
            seen: [0; 81],
            changed_at: [0; 81],
            changed_after: [0; WINDOW],
            changed_in: [0; WINDOW],
            nothing_at: Vec::new(),
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
        }
        self.call += 1;
        if self.call == u32::MAX {
            // Forget everything rather than let the clock wrap.
            self.nothing_at.iter_mut().for_each(|t| *t = 0);
            self.call = 1;
        }
        let mut changed = 0u128;
        for c in 0..81 {
            if board.cands[c] != self.seen[c] {
                self.seen[c] = board.cands[c];
                self.changed_at[c] = self.call;
                changed |= 1u128 << c;
            }
        }
        self.changed_in[self.call as usize % WINDOW] = changed;
        let mut after = 0u128;
        for d in 0..WINDOW {
            self.changed_after[d] = after;
            // Searches before the first changed nothing.
            if let Some(at) = self.call.checked_sub(d as u32) {
                after |= self.changed_in[at as usize % WINDOW];
            }
        }
    }

    /// Whether the exclusion on base cells `cells` gave nothing after every
    /// change of the cells it depends on.
    #[inline]
    fn known_nothing(&self, cells: &[usize]) -> bool {
        let at = self.nothing_at[Self::index(cells)];
        if at == 0 {
            return false;
        }
        let mut depends = cells.iter().fold(!0u128 >> 47, |m, &c| m & PEER_MASK[c]);
        for &c in cells {
            depends |= 1u128 << c;
        }
        if let Some(&after) = self.changed_after.get((self.call - at) as usize) {
            return depends & after == 0;
        }
        while depends != 0 {
            let c = depends.trailing_zeros() as usize;
            depends &= depends - 1;
            if self.changed_at[c] > at {
                return false;
            }
        }
        true
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
    /// Per cell, its index in `list` (where it is one).
    position: [usize; 81],
}

impl Bases {
    fn new(list: Vec<Base>) -> Bases {
        let mut position = [usize::MAX; 81];
        let mut cells = 0u128;
        for (i, b) in list.iter().enumerate() {
            cells |= 1 << b.cell;
            position[b.cell] = i;
        }
        Bases {
            list,
            cells,
            position,
        }
    }

    /// The base cell at `cell` (one of `cells`).
    fn at(&self, cell: usize) -> &Base {
        &self.list[self.position[cell]]
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
        let mut m = seeing_two(b1.mask) & bases.cells & ((1u128 << b1.cell) - 1);
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
        if memo.known_nothing(&cells) {
            return None;
        }
        let found = exclude(board, &cells, common);
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
        let area = (b0.mask | b1.mask)
            & bases.cells
            & !(1u128 << b0.cell)
            & !(1u128 << b1.cell)
            & seeing_two(pair_common);
        // The cells of `area` in that order, each once: the walk ends when
        // none is left.
        let mut left = area;
        for &e in b0.list[..b0.len].iter().chain(&b1.list[..b1.len]) {
            if left == 0 {
                break;
            }
            let e = e as usize;
            if left >> e & 1 == 0 {
                continue;
            }
            left &= !(1 << e);
            let common = pair_common & bases.at(e).mask;
            if !two_or_more(common) {
                continue;
            }
            let cells = [b0.cell, b1.cell, e];
            if memo.known_nothing(&cells) {
                continue;
            }
            if let Some(removable) = exclude(board, &cells, common) {
                return Some((removable, cells));
            }
            memo.gave_nothing(&cells);
        }
        None
    })
    .map(|(removable, cells)| {
        Hint::new(7.5, "Aligned Triplet Exclusion", &removable, None).with_cells(cells)
    })
}
