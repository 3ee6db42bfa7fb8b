//! The implication net shared by every chaining technique: potentials,
//! their parents, and the candidate grid a dynamic chain edits as it goes.
//!
//! A *potential* is a candidate assumed true ("on") or false ("off"). Its key
//! packs the three parts into 0..1620:
//!
//! ```text
//! key = ((cell * 10 + digit) << 1) | on      cell 0..81, digit 1..=9
//! ```
//!
//! Chains are built breadth-first exactly in SE's order, because a chain's
//! rating grows with its *complexity* (the number of distinct potentials
//! among a conclusion's ancestors) and the ancestors are those of the first
//! derivation SE finds. Each derived potential is a [`Node`] in an
//! append-only arena; its parents are node indices.

use super::super::board::{bit, Card, CELL_REGIONS, INDEX_IN, REGION_CELLS, REGION_MASK, ROW};

/// Number of potential keys (see the module doc).
pub const KEYS: usize = 1620;

/// Key of a potential.
#[inline]
pub const fn key(cell: usize, value: u8, on: bool) -> u16 {
    (((cell * 10 + value as usize) << 1) | on as usize) as u16
}

/// Cell and digit of every key below 2048 (`KEY_PARTS[k] = [cell,
/// digit]`; entries from [`KEYS`] on are unused): a chain's inner loop
/// reads both of each potential it takes, and one load beats dividing by
/// ten. 2048 entries, so that a key masked to 11 bits needs no bounds
/// check.
static KEY_PARTS: [[u8; 2]; 2048] = {
    let mut t = [[0u8; 2]; 2048];
    let mut k = 0;
    while k < KEYS {
        t[k] = [((k >> 1) / 10) as u8, ((k >> 1) % 10) as u8];
        k += 1;
    }
    t
};

/// Cell (0..81) of a key.
#[inline]
pub fn cell_of(k: u16) -> usize {
    KEY_PARTS[k as usize & 2047][0] as usize
}

/// Digit (1..=9) of a key.
#[inline]
pub fn value_of(k: u16) -> u8 {
    KEY_PARTS[k as usize & 2047][1]
}

/// Whether a key is "on".
#[inline]
pub const fn is_on(k: u16) -> bool {
    k & 1 != 0
}

/// Why a potential follows from its first parent (SE's `Potential.Cause`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Cause {
    /// The assumption a chain starts from.
    None,
    /// One value per cell.
    NakedSingle,
    /// One position per block.
    HiddenBlock,
    /// One position per row.
    HiddenRow,
    /// One position per column.
    HiddenColumn,
    /// A non-chaining rule applied inside a dynamic chain.
    Advanced,
}

/// The cause of a region rule, by region type (block, row, column).
pub const REGION_CAUSE: [Cause; 3] = [Cause::HiddenBlock, Cause::HiddenRow, Cause::HiddenColumn];

/// No nested chain.
pub const NO_NESTED: u32 = u32::MAX;

/// One derived potential.
#[derive(Debug, Clone, Copy)]
pub struct Node {
    /// The potential's key.
    pub key: u16,
    /// Why it follows from its first parent.
    pub cause: Cause,
    /// Number of parents.
    pub nparents: u16,
    /// Index of the first parent in [`Net::parents`].
    pub parents_at: u32,
    /// The nested chain (index into [`Net::nested`]) an advanced potential
    /// comes from, or [`NO_NESTED`].
    pub nested: u32,
    /// For an advanced potential from a basic technique, which one
    /// ([`super::explain::ADVANCED_NAMES`]); 0 otherwise.
    pub rule: u8,
    /// Number of first-parent steps back to the chain's start: the node and
    /// its first-parent ancestors are `depth + 1` distinct potentials, a
    /// lower bound of its ancestor count (exact when no node has a second
    /// parent).
    pub depth: u32,
    /// [`Net::ancestor_count`] of the node once computed, 0 before (a
    /// node's ancestors never change, and it counts itself).
    pub ancestors: u32,
}

/// What an outer chain needs of a nested chain: its complexity, and the
/// sequence of keys SE's `FullChain` compares to tell two nested chains
/// apart.
#[derive(Debug, Clone)]
pub struct Nested {
    /// The nested hint's complexity (its own nested chains included).
    pub complexity: u32,
    /// Its flat complexity (without its own nested chains): the number of
    /// potentials of its chains, which its identity determines.
    pub flat: u32,
    /// Its targets and their ancestors in SE's breadth-first order.
    pub identity: Vec<u16>,
    /// SE's name of the nested hint's technique, when the net explains
    /// ([`Net::explain`]); empty otherwise.
    pub name: String,
    /// The nested hint's chains, when the net explains; empty otherwise.
    pub chains: Vec<crate::rating::se::explain::chain::Chain>,
}

/// The arena of nodes, with scratch tables for walking it.
pub struct Net {
    /// All nodes derived so far.
    pub nodes: Vec<Node>,
    /// Parent lists, referenced by [`Node::parents_at`].
    pub parents: Vec<u32>,
    /// Nested chains referenced by advanced potentials.
    pub nested: Vec<Nested>,
    /// The first entry of [`Net::nested`] the running search's nodes may
    /// reference: those below belong to the chains of outer searches (see
    /// [`Net::nested_complexity`]).
    pub nested_floor: usize,
    seen: Vec<u32>,
    /// Scratch queue of the ancestor walks.
    queue: Vec<u32>,
    /// Scratch chain of [`Net::complexity_floor`].
    chain_scratch: Vec<u32>,
    stamp: u32,
    /// The rating's meter while a chaining producer runs (see
    /// [`super::Chainer`]): [`Net::push`] charges one unit per node, the
    /// searches charge their other work, and every search loop looks at
    /// it ([`crate::work::Meter::stopped`]) to stop when it says so.
    pub meter: crate::work::Meter,
    /// Whether the hint kept at the top level carries its cells' chains of
    /// implications ([`super::explain`]), for `explain`; a search may then
    /// build a chain it would otherwise only measure.
    pub explain: bool,
}

impl Default for Net {
    fn default() -> Self {
        Net {
            nodes: Vec::with_capacity(1 << 14),
            parents: Vec::with_capacity(1 << 14),
            nested: Vec::new(),
            nested_floor: 0,
            seen: vec![0; KEYS],
            queue: Vec::new(),
            chain_scratch: Vec::new(),
            stamp: 0,
            meter: crate::work::Meter::default(),
            explain: false,
        }
    }
}

impl Net {
    /// Adds a node whose parents are `parents`.
    #[inline]
    pub fn push(&mut self, key: u16, cause: Cause, parents: &[u32]) -> u32 {
        self.meter.count(1);
        let at = self.parents.len() as u32;
        // One push per parent: lists are short (at most a dozen), and a
        // `memcpy` call per node cost more than the copy.
        for &p in parents {
            self.parents.push(p);
        }
        let depth = parents
            .first()
            .map_or(0, |&p| self.nodes[p as usize].depth + 1);
        self.nodes.push(Node {
            key,
            cause,
            nparents: parents.len() as u16,
            parents_at: at,
            nested: NO_NESTED,
            rule: 0,
            depth,
            ancestors: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// [`Net::push`] of a node with one parent, `parent`, whose
    /// [`Net::depth`] is `parent_depth`: a run's "off" consequences of one
    /// "on" node all have that node as their only parent.
    #[inline]
    pub fn push_child(&mut self, key: u16, cause: Cause, parent: u32, parent_depth: u32) -> u32 {
        debug_assert_eq!(parent_depth, self.nodes[parent as usize].depth);
        self.meter.count(1);
        let at = self.parents.len() as u32;
        self.parents.push(parent);
        self.nodes.push(Node {
            key,
            cause,
            nparents: 1,
            parents_at: at,
            nested: NO_NESTED,
            rule: 0,
            depth: parent_depth + 1,
            ancestors: 0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The parents of node `n`.
    #[inline]
    pub fn parents_of(&self, n: u32) -> &[u32] {
        let node = &self.nodes[n as usize];
        &self.parents[node.parents_at as usize..node.parents_at as usize + node.nparents as usize]
    }

    /// The first parent of node `n`, if any.
    #[inline]
    pub fn first_parent(&self, n: u32) -> Option<u32> {
        let node = &self.nodes[n as usize];
        (node.nparents > 0).then(|| self.parents[node.parents_at as usize])
    }

    /// Depth of node `n` (see [`Node::depth`]).
    #[inline]
    pub fn depth(&self, n: u32) -> u32 {
        self.nodes[n as usize].depth
    }

    /// Key of node `n`.
    #[inline]
    pub fn key(&self, n: u32) -> u16 {
        self.nodes[n as usize].key
    }

    /// Drops every node from index `len` on (nodes of finished searches).
    pub fn truncate(&mut self, len: usize) {
        if len < self.nodes.len() {
            let at = self.nodes[len].parents_at as usize;
            self.nodes.truncate(len);
            self.parents.truncate(at);
        }
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// SE's `getAncestorCount`: the number of distinct potentials among `n`
    /// and its ancestors, walked breadth-first with each potential expanded
    /// once (the first node met for it). Computed once per node.
    pub fn ancestor_count(&mut self, n: u32) -> u32 {
        let known = self.nodes[n as usize].ancestors;
        if known != 0 {
            return known;
        }
        let mut count = 0;
        self.walk(n, |_| count += 1);
        self.nodes[n as usize].ancestors = count;
        count
    }

    /// SE's `getChain`: `n` and its ancestors in breadth-first order, each
    /// potential once (as nodes: the first met), into `out` (cleared first).
    pub fn chain_into(&mut self, n: u32, out: &mut Vec<u32>) {
        out.clear();
        self.walk(n, |p| out.push(p));
    }

    /// Calls `f` on `n` and its ancestors breadth-first, each potential
    /// once (the first node met for it). One FIFO queue visits the nodes
    /// level by level, as SE's walk with a list per level does.
    #[inline]
    fn walk(&mut self, n: u32, mut f: impl FnMut(u32)) {
        let stamp = self.next_stamp();
        let mut queue = std::mem::take(&mut self.queue);
        queue.clear();
        queue.push(n);
        let mut head = 0;
        while head < queue.len() {
            let p = queue[head];
            head += 1;
            let node = &self.nodes[p as usize];
            let k = node.key as usize;
            if self.seen[k] != stamp {
                self.seen[k] = stamp;
                f(p);
                let at = node.parents_at as usize;
                // Pushed one by one (see [`Net::push`]).
                for &q in &self.parents[at..at + node.nparents as usize] {
                    queue.push(q);
                }
            }
        }
        self.queue = queue;
    }

    /// A lower bound of the complexity of any chain through node `n` in
    /// the run that made it: `n` and its ancestors (each potential once: a
    /// run has one node per potential, so a descendant's ancestors include
    /// them all), plus the flat complexities of the distinct nested chains
    /// among them (a chain counts each distinct nested chain's whole
    /// complexity, at least its flat one, which its identity determines).
    pub fn complexity_floor(&mut self, n: u32) -> u32 {
        let count = self.ancestor_count(n);
        if self.nested.len() <= self.nested_floor {
            return count;
        }
        let mut seen: Vec<u32> = Vec::new();
        let mut total = count;
        let mut chain = std::mem::take(&mut self.chain_scratch);
        self.chain_into(n, &mut chain);
        total += self.distinct_nested(&chain, &mut seen, |n| n.flat);
        self.chain_scratch = chain;
        total
    }

    /// SE's `getNestedComplexity` for the chains ending at `targets`: the
    /// complexities of the distinct nested chains among their ancestors.
    /// Only entries from [`Net::nested_floor`] on can be among them: when
    /// the running search made none, it is 0 without a walk.
    pub fn nested_complexity(&mut self, targets: &[u32]) -> u32 {
        if self.nested.len() <= self.nested_floor {
            return 0;
        }
        let mut seen: Vec<u32> = Vec::new();
        let mut total = 0;
        let mut chain = std::mem::take(&mut self.chain_scratch);
        for &t in targets {
            self.chain_into(t, &mut chain);
            total += self.distinct_nested(&chain, &mut seen, |n| n.complexity);
        }
        self.chain_scratch = chain;
        total
    }

    /// `value` summed over the nested chains of the nodes `chain` that
    /// are not in `seen` (by index or identity), each once; they join
    /// `seen`.
    fn distinct_nested(
        &self,
        chain: &[u32],
        seen: &mut Vec<u32>,
        value: impl Fn(&Nested) -> u32,
    ) -> u32 {
        let mut total = 0;
        for &p in chain {
            let nested = self.nodes[p as usize].nested;
            if nested == NO_NESTED {
                continue;
            }
            let identity = &self.nested[nested as usize].identity;
            if !seen
                .iter()
                .any(|&s| s == nested || self.nested[s as usize].identity == *identity)
            {
                seen.push(nested);
                total += value(&self.nested[nested as usize]);
            }
        }
        total
    }
}

/// SE's `getLengthDifficulty`: 0.1 per step of the sequence 4, 6, 8, 12,
/// 16, 24, 32, 48, ... that `complexity - 2` exceeds, summed in doubles.
pub fn length_difficulty(complexity: u32) -> f64 {
    let mut added = 0.0;
    let mut ceil = 4i64;
    let length = complexity as i64 - 2;
    let mut odd = false;
    while length > ceil {
        added += 0.1;
        ceil = if !odd { ceil * 3 / 2 } else { ceil * 4 / 3 };
        odd = !odd;
    }
    added
}

/// The candidate grid a chain works on: per-cell candidates, per-digit
/// cell sets (bit `c` of `cells[v]` when cell `c` has candidate `v`) and
/// per-region positions of each digit, so that both "one value per cell"
/// and "one position per region" read in a few instructions.
#[derive(Clone)]
pub struct Work {
    /// Candidates per cell (bit `v` for digit `v`).
    pub cands: [u16; 81],
    /// Cells per digit, 81-bit sets; index 0 unused. Those of the grid a
    /// dynamic run starts from: [`off_to_on_then_off`] leaves them.
    pub cells: [u128; 10],
    /// `pos[r][v]`: positions of digit `v` in region `r`, bit `k` for the
    /// region's cell `REGION_CELLS[r][k]`.
    pub pos: [[u16; 10]; 27],
}

impl Work {
    /// The work grid for candidates `cands`.
    pub fn new(cands: &[u16; 81]) -> Work {
        let mut cells = [0u128; 10];
        let mut pos = [[0u16; 10]; 27];
        for (c, &m) in cands.iter().enumerate() {
            for v in super::super::board::digits(m) {
                cells[v as usize] |= 1 << c;
                for (t, &r) in CELL_REGIONS[c].iter().enumerate() {
                    pos[r as usize][v as usize] |= 1 << INDEX_IN[c][t];
                }
            }
        }
        Work {
            cands: *cands,
            cells,
            pos,
        }
    }

    /// [`Work::new`] of `board`'s candidates, from the positions the board
    /// keeps (the same table; each digit's cells are its rows' positions).
    pub fn of_board(board: &super::super::board::Board) -> Work {
        let pos = *board.all_positions();
        let mut cells = [0u128; 10];
        for (v, cells) in cells.iter_mut().enumerate().skip(1) {
            for i in 0..9 {
                *cells |= u128::from(pos[ROW * 9 + i][v]) << (9 * i);
            }
        }
        Work {
            cands: board.cands,
            cells,
            pos,
        }
    }

    /// The removal [`off_to_on_then_off`] makes, alone: the tests'
    /// reference.
    #[cfg(test)]
    pub fn off(&mut self, cell: usize, value: u8) {
        self.cands[cell] &= !bit(value);
        for (t, &r) in CELL_REGIONS[cell].iter().enumerate() {
            self.pos[r as usize][value as usize] &= !(1 << INDEX_IN[cell][t]);
        }
    }

    /// Gives back every candidate removed with [`off_to_on_then_off`] since this
    /// grid was `source` (its `cells` are left as they were, so they still
    /// are `source`'s).
    #[inline]
    pub fn restore_from(&mut self, source: &Work) {
        debug_assert!(self.cells == source.cells);
        self.cands = source.cands;
        self.pos = source.pos;
    }

    /// Positions of `value` in region `r`, as an 81-bit set of cells.
    #[inline]
    pub fn in_region(&self, r: usize, value: u8) -> u128 {
        self.cells[value as usize] & REGION_MASK[r]
    }
}

/// The "off" consequences of assuming potential (`cell`, `value`) on, in
/// SE's order (`getOnToOff`): with `y`, the cell's other candidates
/// ascending; then the digit's other positions in the cell's block, row and
/// column, in that order, each cell once. Calls `f(key, cause)`.
#[inline]
pub fn on_to_off(work: &Work, cell: usize, value: u8, y: bool, mut f: impl FnMut(u16, Cause)) {
    if y {
        let mut others = work.cands[cell] & !bit(value);
        while others != 0 {
            let v = others.trailing_zeros() as u8;
            others &= others - 1;
            f(key(cell, v, false), Cause::NakedSingle);
        }
    }
    // The block without the cell; the row and the column without the
    // block's cells (a row meets the block in three consecutive
    // positions, a column too).
    let [b, row, col] = CELL_REGIONS[cell];
    let [ib, ix, iy] = INDEX_IN[cell];
    let (bx, by) = (ix / 3, iy / 3);
    for (ty, r, skip) in [
        (0, b, 1u16 << ib),
        (1, row, 7 << (3 * bx)),
        (2, col, 7 << (3 * by)),
    ] {
        let mut m = work.pos[r as usize][value as usize] & !skip;
        while m != 0 {
            let k = m.trailing_zeros() as usize;
            m &= m - 1;
            f(
                key(REGION_CELLS[r as usize][k] as usize, value, false),
                REGION_CAUSE[ty],
            );
        }
    }
}

/// The most "off" consequences an "on" potential has: the cell's 8 other
/// digits, 8 other block cells, 6 row and 6 column cells outside the block.
pub const MAX_OFFS: usize = 28;

/// [`on_to_off`] into `out`, in the same order; returns how many. For
/// callers whose work per consequence is too large for the closure to be
/// inlined: one call instead of one per consequence.
#[inline]
pub fn on_to_off_into(
    work: &Work,
    cell: usize,
    value: u8,
    y: bool,
    out: &mut [(u16, Cause); MAX_OFFS],
) -> usize {
    let mut n = 0;
    on_to_off(work, cell, value, y, |k, cause| {
        out[n] = (k, cause);
        n += 1;
    });
    n
}

/// An "on" consequence of assuming a potential off, before it becomes a
/// node: its key, cause, and where its hidden parents are (see
/// [`off_to_on`]).
#[derive(Clone, Copy)]
pub struct OnConsequence {
    /// The potential that must be on.
    pub key: u16,
    /// The rule that forces it.
    pub cause: Cause,
    /// The region of a region rule (unused for the cell rule).
    pub region: u8,
    /// Hidden parents: for the cell rule, the cell's digits removed since
    /// the chain started (a digit mask); for a region rule, the positions
    /// of the region (bit `k` for `REGION_CELLS[region][k]`) that lost the
    /// digit.
    pub hidden: u16,
}

impl OnConsequence {
    /// A blank entry, for the arrays [`off_to_on`] fills.
    pub const NONE: OnConsequence = OnConsequence {
        key: 0,
        cause: Cause::None,
        region: 0,
        hidden: 0,
    };
}

/// The "on" consequences of assuming potential (`cell`, `value`) off, in
/// SE's order (`getOffToOn`), written to `out` (at most 4): with `y`, the
/// other candidate of a cell left with two; with `x`, the other position of
/// the digit in a block, row or column left with two (block first, each cell
/// once). `source` is the grid when the chain started; what it had and
/// `work` lacks is the hidden parents of each consequence.
#[inline]
pub fn off_to_on(
    work: &Work,
    source: &Work,
    cell: usize,
    value: u8,
    y: bool,
    x: bool,
    out: &mut [OnConsequence; 4],
) -> usize {
    let mut n = 0;
    if y {
        let cands = work.cands[cell];
        if cands.card() == 2 {
            let other = (cands & !bit(value)).trailing_zeros() as u8;
            out[n] = OnConsequence {
                key: key(cell, other, true),
                cause: Cause::NakedSingle,
                region: 0,
                hidden: source.cands[cell] & !cands,
            };
            n += 1;
        }
    }
    if x {
        // The other position, when the region has two: each cell once.
        let mut done = [u8::MAX; 3];
        for (ty, &r) in CELL_REGIONS[cell].iter().enumerate() {
            let pos = work.pos[r as usize][value as usize];
            let rest = pos & pos.wrapping_sub(1);
            if rest != 0 && rest & rest.wrapping_sub(1) == 0 {
                let k = (pos & !(1 << INDEX_IN[cell][ty])).trailing_zeros() as usize;
                let other = REGION_CELLS[r as usize][k];
                if !done[..ty].contains(&other) {
                    done[ty] = other;
                    out[n] = OnConsequence {
                        key: key(other as usize, value, true),
                        cause: REGION_CAUSE[ty],
                        region: r,
                        hidden: source.pos[r as usize][value as usize] & !pos,
                    };
                    n += 1;
                }
            }
        }
    }
    n
}

/// [`off_to_on`] with `x`, then the removal of candidate `value` of `cell`
/// (SE's `Potential.off()`), in one pass over the cell's three regions: a
/// dynamic run takes each off potential's consequences on the grid as it
/// was, then removes it. The consequences are [`off_to_on`]'s (same order,
/// same hidden parents). The candidate leaves the candidates and the region
/// positions, which are all that [`on_to_off`] and [`off_to_on`] read:
/// `cells` is left as it was (a dynamic run removes candidates as it goes
/// and gives them all back at its end, [`Work::restore_from`]).
#[inline]
pub fn off_to_on_then_off(
    work: &mut Work,
    source: &Work,
    cell: usize,
    value: u8,
    y: bool,
    out: &mut [OnConsequence; 4],
) -> usize {
    let mut n = 0;
    let cands = work.cands[cell];
    work.cands[cell] = cands & !bit(value);
    if y && cands.card() == 2 {
        let other = (cands & !bit(value)).trailing_zeros() as u8;
        out[n] = OnConsequence {
            key: key(cell, other, true),
            cause: Cause::NakedSingle,
            region: 0,
            hidden: source.cands[cell] & !cands,
        };
        n += 1;
    }
    // The other position, when the region has two: each cell once.
    let mut done = [u8::MAX; 3];
    for (ty, &r) in CELL_REGIONS[cell].iter().enumerate() {
        let slot = &mut work.pos[r as usize][value as usize];
        let pos = *slot;
        let without = pos & !(1 << INDEX_IN[cell][ty]);
        *slot = without;
        let rest = pos & pos.wrapping_sub(1);
        if rest != 0 && rest & rest.wrapping_sub(1) == 0 {
            let other = REGION_CELLS[r as usize][without.trailing_zeros() as usize];
            if !done[..ty].contains(&other) {
                done[ty] = other;
                out[n] = OnConsequence {
                    key: key(other as usize, value, true),
                    cause: REGION_CAUSE[ty],
                    region: r,
                    hidden: source.pos[r as usize][value as usize] & !pos,
                };
                n += 1;
            }
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_difficulty_steps() {
        // complexity - 2 must exceed 4, 6, 8, 12, 16, 24, ...
        assert_eq!(length_difficulty(6), 0.0);
        assert_eq!(length_difficulty(7), 0.1);
        assert_eq!(length_difficulty(9), 0.2);
        assert_eq!(length_difficulty(11), 0.30000000000000004);
        assert_eq!(length_difficulty(15), 0.4);
        assert_eq!(length_difficulty(19), 0.5);
        assert_eq!(length_difficulty(27), 0.6);
    }

    /// A board's work grid is the one made from its candidates, for
    /// puzzles' boards and boards that lost candidates since.
    #[test]
    fn work_of_a_board_is_work_of_its_candidates() {
        use super::super::super::board::Board;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let puzzle = crate::grid::Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let mut board = Board::new(&puzzle);
        for _ in 0..60 {
            let (a, b) = (Work::of_board(&board), Work::new(&board.cands));
            assert_eq!((a.cands, a.cells, a.pos), (b.cands, b.cells, b.pos));
            let (c, v) = (rng.gen_range(0..81), rng.gen_range(1..=9u8));
            board.remove(c, bit(v));
        }
    }

    /// `off_to_on` gives the consequences the rules give, and the fused run
    /// step gives `off_to_on`'s and leaves `Work::off`'s grid, on grids
    /// where regions and cells hold a digit once, twice or more, with and
    /// without cell links.
    #[test]
    fn off_to_on_then_off_is_off_to_on_then_off() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // Consequences found; other positions that were another region's too.
        let (mut found, mut checked, mut twice) = (0, 0, 0);
        for _ in 0..200 {
            let mut cands = [0u16; 81];
            for c in &mut cands {
                // Each digit with probability 1/4 or 1/2.
                let sparse = if next() & 1 != 0 { next() as u16 } else { !0 };
                *c = (next() as u16) & sparse & 0x3fe;
            }
            let source = Work::new(&cands);
            let mut work = source.clone();
            // Remove a few candidates first, so that hidden parents show.
            for _ in 0..20 {
                let (c, v) = ((next() % 81) as usize, (next() % 9 + 1) as u8);
                if work.cands[c] >> v & 1 != 0 {
                    work.off(c, v);
                }
            }
            for _ in 0..30 {
                let (c, v) = ((next() % 81) as usize, (next() % 9 + 1) as u8);
                if work.cands[c] >> v & 1 == 0 {
                    continue;
                }
                let y = next() & 1 != 0;
                let none = OnConsequence::NONE;
                let (mut a, mut b) = ([none; 4], [none; 4]);
                let na = off_to_on(&work, &source, c, v, y, true, &mut a);
                // By the rules, from the candidates: the cell's other
                // candidate where it has two (with `y`), then each region's
                // other position where it has two, each cell once.
                let mut want = Vec::new();
                let cell_cands = work.cands[c];
                if y && cell_cands.count_ones() == 2 {
                    let other = (cell_cands & !bit(v)).trailing_zeros() as u8;
                    want.push((key(c, other, true), Cause::NakedSingle));
                }
                for (ty, &r) in CELL_REGIONS[c].iter().enumerate() {
                    let holding: Vec<usize> = REGION_CELLS[r as usize]
                        .iter()
                        .map(|&e| e as usize)
                        .filter(|&e| work.cands[e] & bit(v) != 0)
                        .collect();
                    if holding.len() == 2 {
                        let other = holding[usize::from(holding[0] == c)];
                        if want.iter().all(|&(k, _)| k != key(other, v, true)) {
                            want.push((key(other, v, true), REGION_CAUSE[ty]));
                        } else {
                            twice += 1;
                        }
                    }
                }
                let got: Vec<(u16, Cause)> = a[..na].iter().map(|o| (o.key, o.cause)).collect();
                assert_eq!(got, want, "cell {c}, digit {v}, y {y}");
                let mut expected = work.clone();
                expected.off(c, v);
                let nb = off_to_on_then_off(&mut work, &source, c, v, y, &mut b);
                assert_eq!(na, nb);
                for (p, q) in a[..na].iter().zip(&b[..nb]) {
                    assert_eq!(
                        (p.key, p.cause, p.region, p.hidden),
                        (q.key, q.cause, q.region, q.hidden)
                    );
                }
                assert_eq!(work.cands, expected.cands);
                assert_eq!(work.pos, expected.pos);
                found += na;
                checked += 1;
            }
        }
        assert!(
            checked > 1000 && found > 500 && twice >= 5,
            "{checked} {found} {twice}"
        );
    }

    #[test]
    fn keys_round_trip() {
        for c in 0..81 {
            for v in 1..=9 {
                for on in [false, true] {
                    let k = key(c, v, on);
                    assert!((k as usize) < KEYS);
                    assert_eq!((cell_of(k), value_of(k), is_on(k)), (c, v, on));
                }
            }
        }
    }
}
