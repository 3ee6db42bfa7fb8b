//! The minlex search: row by row, keeping every partial transformation that
//! ties for the smallest prefix (the method is described in [`super`]).

use super::group::factorial;
use crate::grid::Grid;

/// The 1,296 orders of the nine columns that keep stacks together:
/// `COLUMN_ORDERS[n][p]` is the source column of result column `p`.
pub(super) static COLUMN_ORDERS: std::sync::LazyLock<Vec<[u8; 9]>> =
    std::sync::LazyLock::new(|| {
        use super::group::PERMS3;
        let mut orders = Vec::with_capacity(1296);
        for stacks in PERMS3 {
            for a in PERMS3 {
                for b in PERMS3 {
                    for c in PERMS3 {
                        let within = [a, b, c];
                        orders.push(std::array::from_fn(|p| {
                            let s = stacks[p / 3];
                            3 * s + within[usize::from(s)][p % 3]
                        }));
                    }
                }
            }
        }
        orders
    });

/// A position not yet tied to one source column (see [`Node::pos_col`]).
const FREE: u8 = u8::MAX;

/// One partial transformation whose first rows give the smallest prefix
/// found so far, with everything still undecided kept open.
///
/// Columns: result column `p` (0..9) lies in slot `p / 3` (the result's
/// stack). Slots `0..free_slots` are *free*: their source stacks are any
/// order of the stacks in `free_stacks`, each with its columns in any order;
/// every cell of those stacks in the rows chosen so far is blank, so every
/// such arrangement gives the same prefix. In a placed slot `i`
/// (`slot_stack[i]` its source stack), the first `free_pos[i]` positions are
/// free in the same way (the stack's columns not in `pos_col`, all blank so
/// far, in any order) and the others hold the source column `pos_col[p]`.
#[derive(Debug, Clone, Copy)]
struct Node {
    /// 0: rows are the puzzle's rows; 1: rows are its columns (transposed).
    view: u8,
    /// Bit `b`: source band `b` (0..3) is not used yet.
    bands_left: u8,
    /// Bit `r`: source row `r` (0..9) of the current band is not used yet.
    rows_left: u16,
    /// Slots `0..free_slots` are free.
    free_slots: u8,
    /// Bit `s`: source stack `s` (0..3) is not placed in a slot.
    free_stacks: u8,
    /// Source stack of each placed slot.
    slot_stack: [u8; 3],
    /// Number of free positions at the start of each placed slot.
    free_pos: [u8; 3],
    /// Source column of each result column, [`FREE`] while free.
    pos_col: [u8; 9],
    /// Label (1..=9) given to each source digit (index 1..=9), 0 if none yet.
    label: [u8; 10],
    /// The next label to give (labels go in order of first appearance).
    next: u8,
}

impl Node {
    /// The start: nothing chosen, in the given view.
    fn root(view: u8) -> Node {
        Node {
            view,
            bands_left: 0b111,
            rows_left: 0,
            free_slots: 3,
            free_stacks: 0b111,
            slot_stack: [0; 3],
            free_pos: [0; 3],
            pos_col: [FREE; 9],
            label: [0; 10],
            next: 1,
        }
    }

    /// What source digit `d` (0 blank) would be written as next: 0, its
    /// label, or the next label if it has none yet.
    #[inline]
    fn peek(&self, d: u8) -> u8 {
        if d == 0 {
            0
        } else if self.label[usize::from(d)] != 0 {
            self.label[usize::from(d)]
        } else {
            self.next
        }
    }

    /// [`Node::peek`], giving `d` its label if it had none.
    #[inline]
    fn write(&mut self, d: u8) -> u8 {
        let v = self.peek(d);
        if d != 0 && self.label[usize::from(d)] == 0 {
            self.label[usize::from(d)] = v;
            self.next += 1;
        }
        v
    }

    /// Number of column arrangements this node stands for: the free slots'
    /// stacks in any order, each with its columns in any order, and the free
    /// positions of each placed slot in any order.
    fn arrangements(&self) -> u64 {
        let free = u32::from(self.free_slots);
        let mut n = factorial(free) * 6u64.pow(free);
        for i in usize::from(self.free_slots)..3 {
            n *= factorial(u32::from(self.free_pos[i]));
        }
        n
    }
}

/// The canonical (minlex) form of a puzzle and its automorphism count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Canonical {
    /// The canonical puzzle: 81 cells row-major, 0 blank, 1..=9 given.
    pub cells: [u8; 81],
    /// Number of group elements (position map and relabelling) mapping the
    /// puzzle to itself, 1 to 1,218,998,108,160 (the empty grid); divides
    /// [`super::group::GROUP_ORDER`]. Relabellings of digits the puzzle does
    /// not use count: a puzzle using 8 digits and no other symmetry has 2.
    pub automorphisms: u64,
}

impl Canonical {
    /// The canonical puzzle as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.cells).expect("labels are 1..=9")
    }

    /// The canonical form's 81 characters, `0` for blanks (so that blanks
    /// sort first, the form's own order).
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| char::from(b'0' + v)).collect()
    }

    /// A 128-bit digest (XXH3-128) of the form's line
    /// ([`Canonical::to_line`]): equal forms have equal digests, and two
    /// different forms share one with probability about 2^-128, so a set of
    /// digests stands for a set of classes (`canon --distinct`, `generate
    /// --distinct`). Hashing the line, not the cells, lets a resumed run
    /// rebuild its set from the `canonical` column it wrote.
    pub fn digest(&self) -> u128 {
        super::line_digest(&self.cells.map(|v| b'0' + v))
    }
}

/// Computes minlex forms, reusing its buffers across puzzles (one per
/// thread). [`super::canonical`] is the one-off shortcut.
#[derive(Debug)]
pub struct Canonicalizer {
    /// The puzzle's rows in each view: `views[0][r][c]` is cell `(r, c)`,
    /// `views[1][r][c]` cell `(c, r)`.
    views: [[[u8; 9]; 9]; 2],
    /// Nonblank columns of each row of each view (bit `c`).
    nonblank: [[u16; 9]; 2],
    /// Nodes tying for the best prefix of the rows done so far.
    nodes: Vec<Node>,
    /// Nodes tying for the best prefix one row further.
    children: Vec<Node>,
    /// The smallest rows found so far: rows before the current level are
    /// final; in the current row (and, depth first, every later one), after
    /// a position where a candidate went below it, `u8::MAX` (anything goes).
    best: [u8; 81],
    /// The level (result row, 0..9) being filled.
    k: usize,
    /// Depth first: set once a level would keep more than
    /// [`Canonicalizer::cap`] nodes (see [`Canonicalizer::canonicalize`]).
    dfs: bool,
    /// Depth first: position maps counted so far for the best form.
    maps: u64,
    /// Breadth first: the level's children went over the cap.
    overflow: bool,
    /// Most nodes a level keeps before the search goes depth first; 0 means
    /// [`NODE_CAP`].
    cap: usize,
}

/// Most nodes kept at one level (about 40 bytes each, so about 2.6 MB per
/// buffer) before the search of a very symmetric puzzle goes depth first.
/// An ordinary puzzle keeps a few nodes; a grid up to 46,656 after its first
/// two rows; 81 equal digits would keep all 3,359,232 position maps (about
/// 320 MB) breadth first.
pub const NODE_CAP: usize = 1 << 16;

impl Default for Canonicalizer {
    fn default() -> Canonicalizer {
        Canonicalizer {
            views: [[[0; 9]; 9]; 2],
            nonblank: [[0; 9]; 2],
            nodes: Vec::new(),
            children: Vec::new(),
            best: [u8::MAX; 81],
            k: 0,
            dfs: false,
            maps: 0,
            overflow: false,
            cap: 0,
        }
    }
}

impl Canonicalizer {
    /// A canonicalizer with empty buffers.
    pub fn new() -> Canonicalizer {
        Canonicalizer::default()
    }

    /// The minlex form of `puzzle` and its automorphism count. Any grid is
    /// accepted: clashing givens, several or no solutions, a complete grid
    /// (whose form is its minlex grid); the form is that of the cells as
    /// given, no solving involved.
    ///
    /// Memory is bounded: the search goes level by level (breadth first)
    /// while a level keeps at most [`NODE_CAP`] nodes; past that (a puzzle
    /// with a huge automorphism group, e.g. 81 equal digits), it finishes
    /// from the last level depth first, with the same comparisons and the
    /// same result, holding one node per level.
    pub fn canonicalize(&mut self, puzzle: &Grid) -> Canonical {
        let cells = puzzle.cells();
        for r in 0..9 {
            for c in 0..9 {
                self.views[0][r][c] = cells[9 * r + c];
                self.views[1][r][c] = cells[9 * c + r];
            }
        }
        for v in 0..2 {
            for r in 0..9 {
                self.nonblank[v][r] = (0..9)
                    .filter(|&c| self.views[v][r][c] != 0)
                    .fold(0, |m, c| m | 1 << c);
            }
        }
        self.nodes.clear();
        self.best = [u8::MAX; 81];
        self.dfs = false;
        self.maps = 0;
        // Every row and column of each view holds the nine digits: a valid
        // complete grid, whose first two rows are found in one tight loop.
        let grid = (0..2).all(|v| {
            (0..9).all(|r| self.views[v][r].iter().fold(0u16, |m, &d| m | 1 << d) == 0x3fe)
        });
        let first = if grid {
            self.best[..9].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8, 9]);
            self.k = 1;
            self.grid_rows_0_1();
            2
        } else {
            self.nodes.push(Node::root(0));
            self.nodes.push(Node::root(1));
            0
        };
        for k in first..9 {
            self.k = k;
            if !self.level() {
                // Too many ties: the rest depth first from this level's
                // parents (the cut level's children are dropped).
                self.dfs = true;
                self.best[9 * k..].fill(u8::MAX);
                let nodes = std::mem::take(&mut self.nodes);
                for &node in &nodes {
                    self.extend(node);
                }
                self.nodes = nodes;
                self.nodes.clear();
                break;
            }
        }
        let maps = if self.dfs {
            self.maps
        } else {
            self.nodes.iter().map(Node::arrangements).sum()
        };
        let distinct = (cells.iter().fold(0u16, |m, &d| m | 1 << d) & 0x3fe).count_ones();
        Canonical {
            cells: self.best,
            automorphisms: maps * factorial(9 - distinct),
        }
    }

    /// The node cap in force ([`NODE_CAP`] unless a test lowered it).
    fn cap(&self) -> usize {
        if self.cap == 0 {
            NODE_CAP
        } else {
            self.cap
        }
    }

    /// A canonicalizer that goes depth first past `cap` nodes per level
    /// (tests: both ways must agree).
    #[cfg(test)]
    pub(crate) fn with_cap(cap: usize) -> Canonicalizer {
        Canonicalizer {
            cap,
            ..Canonicalizer::default()
        }
    }

    /// A node that ties for the best prefix through row `k`: a child for
    /// the next level, or (depth first) searched on at once.
    #[inline]
    fn emit(&mut self, st: Node) {
        if !self.dfs {
            self.children.push(st);
            if self.children.len() > self.cap() {
                self.overflow = true;
            }
            return;
        }
        if self.k == 8 {
            self.maps += st.arrangements();
            return;
        }
        self.k += 1;
        self.extend(st);
        self.k -= 1;
    }

    /// Levels 0 and 1 of a valid complete grid: its first row is always
    /// 123456789 (each of the 18 starts, each of the 1,296 column orders),
    /// so instead of carrying 23,328 tying nodes into row 1, each column
    /// order is scored on the two rows of the start's band that can follow,
    /// in a plain loop, and only the orders giving the smallest second row
    /// become nodes (columns all placed, labels those of the first row).
    fn grid_rows_0_1(&mut self) {
        self.children.clear();
        for view in 0..2u8 {
            for band in 0..3 {
                for r0 in 3 * band..3 * band + 3 {
                    let row0 = self.views[usize::from(view)][r0];
                    for order in COLUMN_ORDERS.iter() {
                        let mut label = [0u8; 10];
                        for (p, &c) in order.iter().enumerate() {
                            label[usize::from(row0[usize::from(c)])] = p as u8 + 1;
                        }
                        for r1 in (3 * band..3 * band + 3).filter(|&r| r != r0) {
                            let row1 = self.views[usize::from(view)][r1];
                            if (0..9).all(|p| {
                                self.at(p, label[usize::from(row1[usize::from(order[p])])])
                            }) {
                                let mut slot_stack = [0; 3];
                                for (i, s) in slot_stack.iter_mut().enumerate() {
                                    *s = order[3 * i] / 3;
                                }
                                self.children.push(Node {
                                    view,
                                    bands_left: 0b111 & !(1 << band),
                                    rows_left: (0b111 << (3 * band)) & !(1 << r0) & !(1 << r1),
                                    free_slots: 0,
                                    free_stacks: 0,
                                    slot_stack,
                                    free_pos: [0; 3],
                                    pos_col: *order,
                                    label,
                                    next: 10,
                                });
                            }
                        }
                    }
                }
            }
        }
        std::mem::swap(&mut self.nodes, &mut self.children);
    }

    /// Extends every node by one row (result row `self.k`), keeping the
    /// children that give the smallest row. False, with the nodes left as
    /// they were, when the children would be more than the cap.
    fn level(&mut self) -> bool {
        let k = self.k;
        self.best[9 * k..9 * k + 9].fill(u8::MAX);
        self.children.clear();
        self.overflow = false;
        let nodes = std::mem::take(&mut self.nodes);
        for &node in &nodes {
            self.extend(node);
            if self.overflow {
                self.nodes = nodes;
                self.children.clear();
                return false;
            }
        }
        self.nodes = nodes;
        std::mem::swap(&mut self.nodes, &mut self.children);
        true
    }

    /// Extends `node` by every source row allowed as result row `self.k`.
    fn extend(&mut self, node: Node) {
        if self.k.is_multiple_of(3) {
            for b in 0..3 {
                if node.bands_left & 1 << b == 0 {
                    continue;
                }
                for r in 3 * b..3 * b + 3 {
                    let mut st = node;
                    st.bands_left &= !(1 << b);
                    st.rows_left = (0b111 << (3 * b)) & !(1 << r);
                    self.row(st, r);
                }
            }
        } else {
            let mut left = node.rows_left;
            while left != 0 {
                let r = left.trailing_zeros() as usize;
                left &= left - 1;
                let mut st = node;
                st.rows_left &= !(1 << r);
                self.row(st, r);
            }
        }
    }

    /// Compares value `v` at position `p` of row `self.k` with the best:
    /// false when above (prune); when below, it becomes the best and what
    /// was found with the old one is dropped (the level's children, or
    /// depth first the later rows and the maps counted).
    #[inline]
    fn at(&mut self, p: usize, v: u8) -> bool {
        let i = 9 * self.k + p;
        let b = self.best[i];
        if v > b {
            return false;
        }
        if v < b {
            self.best[i] = v;
            if self.dfs {
                self.best[i + 1..].fill(u8::MAX);
                self.maps = 0;
            } else {
                self.best[i + 1..9 * self.k + 9].fill(u8::MAX);
                self.children.clear();
            }
        }
        true
    }

    /// Source row `r` (in `st`'s view) as the next result row.
    fn row(&mut self, mut st: Node, r: usize) {
        let view = usize::from(st.view);
        if st.free_slots == 0 && st.free_pos == [0; 3] {
            // Every column placed (a dense puzzle's or a grid's later rows):
            // the row is forced, one value per position, no branching.
            let row = self.views[view][r];
            for p in 0..9 {
                let v = st.write(row[usize::from(st.pos_col[p])]);
                if !self.at(p, v) {
                    return;
                }
            }
            self.emit(st);
            return;
        }
        let nb = self.nonblank[view][r];
        let old_free = usize::from(st.free_slots);
        // Free stacks blank in this row stay free and come first.
        let z = (0..3)
            .filter(|&s| st.free_stacks & 1 << s != 0 && (nb >> (3 * s)) & 0b111 == 0)
            .count();
        for p in 0..3 * z {
            if !self.at(p, 0) {
                return;
            }
        }
        st.free_slots = z as u8;
        self.slot(st, z, old_free, r);
    }

    /// Fills slot `i` onwards; slots `i..old_free` were free before this row
    /// and take the free stacks that are not blank in it.
    fn slot(&mut self, st: Node, i: usize, old_free: usize, r: usize) {
        if i == 3 {
            self.emit(st);
            return;
        }
        let nb = self.nonblank[usize::from(st.view)][r];
        if i < old_free {
            for s in 0..3u8 {
                let cols = 0b111u16 << (3 * s);
                if st.free_stacks & 1 << s == 0 || nb & cols == 0 {
                    continue;
                }
                let mut c = st;
                c.free_stacks &= !(1 << s);
                c.slot_stack[i] = s;
                self.arrange(c, i, cols, 3, old_free, r);
            }
        } else {
            let f = usize::from(st.free_pos[i]);
            let mut free = 0b111u16 << (3 * st.slot_stack[i]);
            for q in f..3 {
                free &= !(1 << st.pos_col[3 * i + q]);
            }
            self.arrange(st, i, free, f, old_free, r);
        }
    }

    /// Slot `i`'s first `f` positions take the columns `free` (all blank so
    /// far): those blank in this row first (staying free), then the others
    /// in each order that gives the smallest values.
    fn arrange(&mut self, mut st: Node, i: usize, free: u16, f: usize, old_free: usize, r: usize) {
        let nb = self.nonblank[usize::from(st.view)][r];
        let zb = (free & !nb).count_ones() as usize;
        for q in 0..zb {
            if !self.at(3 * i + q, 0) {
                return;
            }
        }
        st.free_pos[i] = zb as u8;
        self.order(st, i, 3 * i + zb, free & nb, f, old_free, r);
    }

    /// Places the columns `left` (not blank in this row) from position `p`,
    /// smallest value first, branching on ties; then the slot's columns
    /// placed by earlier rows (from position `3i + f`), then the next slot.
    #[allow(clippy::too_many_arguments)]
    fn order(
        &mut self,
        mut st: Node,
        i: usize,
        p: usize,
        left: u16,
        f: usize,
        old_free: usize,
        r: usize,
    ) {
        let row = self.views[usize::from(st.view)][r];
        if left == 0 {
            for q in f..3 {
                let p = 3 * i + q;
                let v = st.write(row[usize::from(st.pos_col[p])]);
                if !self.at(p, v) {
                    return;
                }
            }
            self.slot(st, i + 1, old_free, r);
            return;
        }
        let mut min = u8::MAX;
        let mut m = left;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            min = min.min(st.peek(row[c]));
        }
        if !self.at(p, min) {
            return;
        }
        let mut m = left;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            if st.peek(row[c]) != min {
                continue;
            }
            let mut child = st;
            child.write(row[c]);
            child.pos_col[p] = c as u8;
            self.order(child, i, p + 1, left & !(1 << c), f, old_free, r);
        }
    }
}
