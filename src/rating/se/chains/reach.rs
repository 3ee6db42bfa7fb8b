//! Which potentials can imply which, on a grid that does not change: the
//! transitive closure of the implication graph, through its strongly
//! connected components (Tarjan) and one reach set per component.
//!
//! A forcing-chain search from a candidate ends on the candidate's opposite
//! exactly when the opposite is reachable, so a search whose conclusion is
//! unreachable can be skipped: it would explore everything it reaches and
//! find nothing. Most candidates can be proved neither false nor true.

use super::super::board::{cells_of, digits, Card, CELL_REGIONS, PEER_MASK};
use super::net::{
    cell_of, key, off_to_on, on_to_off, value_of, Cause, OnConsequence, Work, KEYS, MAX_OFFS,
};

/// Words of the largest reach set: one bit per potential.
const MAX_WORDS: usize = KEYS.div_ceil(64);

/// Whether a cycle of the potentials `keys` (one strongly connected
/// component) could remove a candidate: whether some cell holding a digit
/// sees an on and an off potential of that digit among them (`cells`: the
/// cells holding each digit). A cycle has at least four potentials.
pub(super) fn cycle_may_remove(keys: impl Iterator<Item = u16>, cells: &[u128; 10]) -> bool {
    // Per digit, the peers of the component's on and of its off potentials.
    let (mut on, mut off) = ([0u128; 10], [0u128; 10]);
    let mut count = 0;
    for k in keys {
        let (cell, v) = (cell_of(k), value_of(k) as usize);
        let side = if k & 1 != 0 { &mut on } else { &mut off };
        side[v] |= PEER_MASK[cell];
        count += 1;
    }
    count >= 4 && (1..10).any(|v| on[v] & off[v] & cells[v] != 0)
}

/// A link of the implication graph: the potential it leads to and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Link {
    /// The potential implied.
    pub key: u16,
    /// SE's cause of the implication: [`Cause::NakedSingle`] for a cell
    /// link (one value per cell: SE's "Y" links), else a region link.
    pub cause: super::net::Cause,
    /// The compact index of `key` in the graph that holds the link.
    to: u32,
}

/// The closure of the implication graph of one link set, and the graph
/// itself: each potential's links in SE's order ([`on_to_off`],
/// [`off_to_on`]), so that searches on a fixed grid read them instead of
/// working them out again. [`Reach::rebuild`] reuses the buffers.
#[derive(Default)]
pub struct Reach {
    /// Compact index of each key present, or `u32::MAX`.
    index: Vec<u32>,
    /// How many compact nodes have links: they are numbered first (`0 ..
    /// linked`), and the nodes without links (most off potentials: a cell
    /// of three candidates or more whose digit has three positions or more
    /// in each of its regions) after them, so that "has no links" is one
    /// comparison.
    linked: usize,
    /// Start of each linked node's links in `links`, plus the end.
    start: Vec<u32>,
    /// Per linked node, the end of its cell links in `links`: a node's
    /// cell links come first ([`on_to_off`] and [`off_to_on`] give them
    /// first), then its region links, so that a search using one kind
    /// reads a slice instead of testing each link.
    cell_end: Vec<u32>,
    /// The links, grouped by node: the graph's edges (the first
    /// `start[linked]`; the rest is room for the next build).
    links: Vec<Link>,
    /// Component of each node; `linked` (no component's number) for the
    /// nodes without links.
    comp: Vec<u32>,
    /// Reach sets, `words` words each (bit `i % 64` of word `i / 64`: compact
    /// node `i`), of the components of linked nodes: a node without links
    /// reaches only itself, and a set that reaches it takes it as one bit.
    sets: Vec<u64>,
    words: usize,
    /// Per component: the offset of its reach set in `sets`.
    set_at: Vec<u32>,
    /// Per linked node: the offset of its component's reach set in `sets`
    /// (`set_at` of its `comp`, read in one load by [`Reach::reaches`]).
    node_set: Vec<u32>,
    /// Per component: whether a cycle inside it could remove a candidate
    /// (see [`Reach::may_cycle_remove`]).
    cycle_removes: Vec<bool>,
    // Scratch of the build.
    /// The keys present, in compact order: linked ones, then the others.
    keys: Vec<u16>,
    /// The keys without links, before they join `keys`.
    linkless_keys: Vec<u16>,
    order: Vec<u32>,
    low: Vec<u32>,
    taken: Vec<u32>,
    stack: Vec<u32>,
    call: Vec<(u32, u32)>,
}

impl Reach {
    /// The closure of the graph whose edges are [`on_to_off`] (with `y`)
    /// and [`off_to_on`] (with `y`, `x`) on `work`.
    pub fn build(work: &Work, y: bool, x: bool) -> Reach {
        let mut r = Reach::default();
        r.rebuild(work, y, x);
        r
    }

    /// [`Reach::build`], into this value's buffers.
    pub fn rebuild(&mut self, work: &Work, y: bool, x: bool) {
        // Only the previous build's keys are in the index.
        if self.index.len() == KEYS {
            for &k in &self.keys {
                self.index[k as usize] = u32::MAX;
            }
        } else {
            self.index.clear();
            self.index.resize(KEYS, u32::MAX);
        }
        self.keys.clear();
        self.linkless_keys.clear();
        // Which potentials have links: an "on" one where the cell has
        // another candidate (with `y`) or a peer holds its digit
        // ([`on_to_off`]); an "off" one where the cell has two candidates
        // (with `y`) or one of its regions two positions of its digit (with
        // `x`: [`off_to_on`]).
        for c in 0..81 {
            let card = work.cands[c].card();
            for v in digits(work.cands[c]) {
                let two = |r: &u8| work.pos[*r as usize][v as usize].card() == 2;
                let off_linked = (y && card == 2) || (x && CELL_REGIONS[c].iter().any(two));
                let on_linked = (y && card >= 2) || PEER_MASK[c] & work.cells[v as usize] != 0;
                for (on, linked) in [(false, off_linked), (true, on_linked)] {
                    let k = key(c, v, on);
                    if linked {
                        self.index[k as usize] = self.keys.len() as u32;
                        self.keys.push(k);
                    } else {
                        self.linkless_keys.push(k);
                    }
                }
            }
        }
        self.linked = self.keys.len();
        for &k in &self.linkless_keys {
            self.index[k as usize] = self.keys.len() as u32;
            self.keys.push(k);
        }
        let n = self.keys.len();
        self.build_links(work, y, x);
        self.close(n, &work.cells);
    }

    /// The graph in CSR form: each linked node's links, with their targets'
    /// compact indices, in SE's order.
    fn build_links(&mut self, work: &Work, y: bool, x: bool) {
        self.start.clear();
        // Room for the most links the linked nodes can have (an "on"
        // potential has at most `MAX_OFFS`), written by index: a push per
        // link reloads and stores the vector's length each time.
        let room = self.linked * MAX_OFFS;
        if self.links.len() < room {
            self.links.resize(
                room,
                Link {
                    key: 0,
                    cause: Cause::None,
                    to: 0,
                },
            );
        }
        let mut out = [OnConsequence::NONE; 4];
        let (index, links) = (&self.index, &mut self.links[..]);
        let link = |key: u16, cause: Cause| Link {
            key,
            cause,
            to: index[key as usize],
        };
        self.cell_end.clear();
        let mut n = 0;
        for &k in &self.keys[..self.linked] {
            self.start.push(n as u32);
            let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
            // The cell links: the cell's other candidates from an on
            // potential (with `y`), its other candidate from an off one
            // in a bivalue cell.
            let cells = if !y {
                0
            } else if k & 1 != 0 {
                work.cands[cell].card() - 1
            } else {
                u32::from(work.cands[cell].card() == 2)
            };
            self.cell_end.push((n as u32) + cells);
            if k & 1 != 0 {
                on_to_off(work, cell, value, y, |t, cause| {
                    links[n] = link(t, cause);
                    n += 1;
                });
            } else {
                let count = off_to_on(work, work, cell, value, y, x, &mut out);
                for o in &out[..count] {
                    links[n] = link(o.key, o.cause);
                    n += 1;
                }
            }
        }
        self.start.push(n as u32);
        // Cell links first, then region links, as `cell_end` says.
        debug_assert!((0..self.linked).all(|i| {
            let (s, m, e) = (self.start[i], self.cell_end[i], self.start[i + 1]);
            s <= m
                && m <= e
                && self.links[s as usize..e as usize]
                    .iter()
                    .enumerate()
                    .all(|(j, l)| (l.cause == Cause::NakedSingle) == (s as usize + j < m as usize))
        }));
        // The test of links above is the rules' own: a potential it finds
        // without links has none.
        debug_assert!(self.keys[self.linked..].iter().all(|&k| {
            let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
            if k & 1 != 0 {
                let mut any = false;
                on_to_off(work, cell, value, y, |_, _| any = true);
                !any
            } else {
                off_to_on(work, work, cell, value, y, x, &mut out) == 0
            }
        }));
    }

    /// Tarjan's strongly connected components of the linked nodes (of the
    /// `n` compact nodes), iteratively, and each component's reach set and
    /// [`Reach::may_cycle_remove`] flag (`cells`: the cells holding each
    /// digit). Components come out sinks first, so each one's successors
    /// are done before it. A node without links is a component of its own,
    /// reaching only itself: the search passes it by, and a set that
    /// reaches it takes its bit.
    fn close(&mut self, n: usize, cells: &[u128; 10]) {
        const UNSEEN: u32 = u32::MAX;
        let words = n.div_ceil(64).max(1);
        self.words = words;
        let linked = self.linked;
        // `order` is the visit number, `comp` the component (UNSEEN while
        // the node is on the stack: a visited node is on the stack exactly
        // until its component is popped). The nodes without links look
        // visited and done (order 0, component `linked`), so that the
        // search passes them by without a test of its own: whether a link
        // leads to one follows no pattern.
        let no_comp = linked as u32;
        for (v, linkless) in [(&mut self.order, 0), (&mut self.comp, no_comp)] {
            v.clear();
            v.resize(linked, UNSEEN);
            v.resize(n, linkless);
        }
        for v in [&mut self.low, &mut self.node_set] {
            v.clear();
            v.resize(linked, UNSEEN);
        }
        self.stack.clear();
        self.call.clear();
        self.sets.clear();
        self.set_at.clear();
        self.cycle_removes.clear();
        // The component whose set last took each component's (to take it
        // once per component however many links lead there); `taken[no_comp]`
        // is always the component being built, so that a link to a node
        // without links takes no set.
        self.taken.clear();
        self.taken.resize(linked + 1, UNSEEN);
        let (start, links) = (&self.start[..], &self.links[..]);
        let (order, low, comp) = (&mut self.order[..], &mut self.low[..], &mut self.comp[..]);
        let (stack, call, sets, taken, set_at) = (
            &mut self.stack,
            &mut self.call,
            &mut self.sets,
            &mut self.taken[..],
            &mut self.set_at,
        );
        let (keys, cycle_removes) = (&self.keys[..], &mut self.cycle_removes);
        let node_set = &mut self.node_set[..];
        let mut ncomp = 0u32;
        let mut counter = 0u32;
        for root in 0..linked as u32 {
            if order[root as usize] != UNSEEN {
                continue;
            }
            call.push((root, start[root as usize]));
            order[root as usize] = counter;
            low[root as usize] = counter;
            counter += 1;
            stack.push(root);
            while let Some(&mut (v, ref mut next)) = call.last_mut() {
                let end = start[v as usize + 1];
                let mut descended = false;
                while *next < end {
                    let w = links[*next as usize].to;
                    *next += 1;
                    let ow = order[w as usize];
                    if ow == UNSEEN {
                        order[w as usize] = counter;
                        low[w as usize] = counter;
                        counter += 1;
                        stack.push(w);
                        call.push((w, start[w as usize]));
                        descended = true;
                        break;
                    } else if comp[w as usize] == UNSEEN && ow < low[v as usize] {
                        low[v as usize] = ow;
                    }
                }
                if descended {
                    continue;
                }
                call.pop();
                let lv = low[v as usize];
                if let Some(&(parent, _)) = call.last() {
                    if lv < low[parent as usize] {
                        low[parent as usize] = lv;
                    }
                }
                if lv == order[v as usize] {
                    // Pop the component and build its reach set.
                    let first = stack.len();
                    let mut at = first;
                    loop {
                        at -= 1;
                        let w = stack[at];
                        comp[w as usize] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    let base = sets.len();
                    sets.resize(base + words, 0);
                    let (done, this) = sets.split_at_mut(base);
                    taken[no_comp as usize] = ncomp;
                    for &w in &stack[at..first] {
                        node_set[w as usize] = base as u32;
                        this[w as usize / 64] |= 1 << (w % 64);
                        for l in &links[start[w as usize] as usize..start[w as usize + 1] as usize]
                        {
                            // Each target's own bit (a node without links
                            // reaches only itself; another component's set
                            // holds its nodes anyway), and its component's
                            // set once.
                            let t = l.to;
                            this[t as usize / 64] |= 1 << (t % 64);
                            let tc = comp[t as usize];
                            if tc != ncomp && taken[tc as usize] != ncomp {
                                taken[tc as usize] = ncomp;
                                let other = &done[set_at[tc as usize] as usize..][..words];
                                for (x, y) in this.iter_mut().zip(other) {
                                    *x |= y;
                                }
                            }
                        }
                    }
                    set_at.push(base as u32);
                    // (Most components are single potentials: no cycle.)
                    cycle_removes.push(
                        first - at >= 4
                            && cycle_may_remove(
                                stack[at..first].iter().map(|&w| keys[w as usize]),
                                cells,
                            ),
                    );
                    stack.truncate(at);
                    ncomp += 1;
                }
            }
        }
    }

    /// The reach set of compact node `f`, a node with links.
    #[inline]
    fn set_of(&self, f: usize) -> &[u64] {
        let at = self.node_set[f] as usize;
        &self.sets[at..at + self.words]
    }

    /// Whether compact node `f` has no links (and reaches only itself).
    #[inline]
    fn linkless(&self, f: usize) -> bool {
        f >= self.linked
    }

    /// The links from potential `from` (none if it is not a candidate).
    #[cfg(test)]
    pub fn links(&self, from: u16) -> &[Link] {
        self.links_of(from, true, true)
    }

    /// The links from potential `from` of the kinds asked: its cell links
    /// with `cell`, its region links with `region`, in SE's order
    /// ([`on_to_off`], [`off_to_on`]; none if it is not a candidate).
    #[inline]
    pub fn links_of(&self, from: u16, cell: bool, region: bool) -> &[Link] {
        let f = self.index[from as usize] as usize;
        if f >= self.linked {
            return &[]; // not a candidate, or without links
        }
        let mid = self.cell_end[f] as usize;
        let lo = if cell { self.start[f] as usize } else { mid };
        let hi = if region {
            self.start[f + 1] as usize
        } else {
            mid
        };
        &self.links[lo..hi]
    }

    /// Whether some potential follows from every one of `froms` (a key
    /// absent from the graph follows from nothing but itself).
    pub fn share_a_consequence(&self, froms: impl IntoIterator<Item = u16>) -> bool {
        // The intersection so far, from the first set on.
        let mut all = [0u64; MAX_WORDS];
        let acc = &mut all[..self.words];
        for (i, from) in froms.into_iter().enumerate() {
            let f = self.index[from as usize];
            if f == u32::MAX {
                return false;
            }
            let f = f as usize;
            if self.linkless(f) {
                // Its set is itself.
                if i > 0 && acc[f / 64] >> (f % 64) & 1 == 0 {
                    return false;
                }
                acc.fill(0);
                acc[f / 64] = 1 << (f % 64);
            } else if i == 0 {
                acc.copy_from_slice(self.set_of(f));
            } else {
                let mut any = 0;
                for (x, y) in acc.iter_mut().zip(self.set_of(f)) {
                    *x &= y;
                    any |= *x;
                }
                if any == 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether a cycle through potential `k` (with links of this graph or
    /// fewer) could remove a candidate. False when `k` is not a candidate.
    ///
    /// Every potential of a cycle through `k` reaches `k` and is reached
    /// from it: the cycle lies in `k`'s strongly connected component. A
    /// cycle removes a candidate of digit `d` in cell `x` only where `x`
    /// holds `d` and sees an on potential and an off potential of `d` on
    /// the cycle ([`super::unary`]'s `cycle_hint`), so where no cell sees
    /// both among the component's potentials, no cycle through `k`
    /// removes anything and its search can be skipped.
    pub fn may_cycle_remove(&self, k: u16) -> bool {
        let i = self.index[k as usize] as usize;
        i < self.linked && self.cycle_removes[self.comp[i] as usize]
    }

    /// Whether potential `to` can follow from potential `from`.
    #[inline]
    pub fn reaches(&self, from: u16, to: u16) -> bool {
        let (f, t) = (self.index[from as usize], self.index[to as usize]);
        if f == u32::MAX || t == u32::MAX {
            return false;
        }
        let (f, t) = (f as usize, t as usize);
        if f >= self.linked {
            return f == t; // no links: it reaches itself only
        }
        let at = self.node_set[f] as usize;
        self.sets[at + t / 64] >> (t % 64) & 1 != 0
    }
}

/// What a static multiple-chain search asks of the closure
/// ([`super::multiple`]): whether the assumptions of a cell's candidates,
/// or of a region's positions of a digit, share a consequence
/// ([`Reach::share_a_consequence`]); where they share none, the cell (region)
/// has no forcing chain. Such a search starts from the cells of three
/// candidates or more, and a region's digit from its first position, so
/// only those are asked: cells of three candidates or more, and regions'
/// digits of two positions or more whose first position is such a cell.
/// It depends only on the grid's candidates, so it can outlive the closure
/// it was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shares {
    /// Bit `c`: cell `c` is asked, and its candidates share a consequence.
    cells: u128,
    /// Bit `v` of region `r`: the region's digit `v` is asked, and its
    /// positions share a consequence.
    regions: [u16; 27],
}

impl Shares {
    /// The answers of `reach`, the closure of `work`'s graph (both link
    /// kinds).
    pub fn of(reach: &Reach, work: &Work) -> Shares {
        let mut shares = Shares {
            cells: 0,
            regions: [0; 27],
        };
        let mut asked = 0u128;
        for (c, &cands) in work.cands.iter().enumerate() {
            if cands.card() >= 3 {
                asked |= 1 << c;
                if reach.share_a_consequence(digits(cands).map(|v| key(c, v, true))) {
                    shares.cells |= 1 << c;
                }
            }
        }
        for (r, bits) in shares.regions.iter_mut().enumerate() {
            for v in 1..=9u8 {
                let pos = work.in_region(r, v);
                if pos & pos.wrapping_sub(1) != 0
                    && asked >> pos.trailing_zeros() & 1 != 0
                    && reach.share_a_consequence(cells_of(pos).map(|c| key(c, v, true)))
                {
                    *bits |= 1 << v;
                }
            }
        }
        shares
    }

    /// Whether the candidates of `cell` (three or more) share a
    /// consequence.
    pub fn cell(&self, cell: usize) -> bool {
        self.cells >> cell & 1 != 0
    }

    /// Whether the positions of `v` in region `r` (two or more, the first
    /// in a cell of three candidates or more) share a consequence.
    pub fn region(&self, r: usize, v: u8) -> bool {
        self.regions[r] >> v & 1 != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random candidate grids, sparse enough that many cells are bivalue
    /// and many regions hold a digit twice (so the graph has off-to-on
    /// links and cycles).
    fn grids() -> impl Iterator<Item = [u16; 81]> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        (0..60).map(move |g| {
            let mut cands = [0u16; 81];
            for c in &mut cands {
                for v in 1..=9 {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Keep a digit with probability 1/4 .. 3/4.
                    if (seed >> 33) % 8 < 2 + (g % 5) {
                        *c |= 1 << v;
                    }
                }
            }
            cands
        })
    }

    /// The potentials reached from `from` through [`Reach::links`], by a
    /// breadth-first walk (`from` included).
    fn walk(reach: &Reach, from: u16) -> Vec<bool> {
        let mut seen = vec![false; KEYS];
        let mut queue = vec![from];
        seen[from as usize] = true;
        while let Some(k) = queue.pop() {
            for l in reach.links(k) {
                if !seen[l.key as usize] {
                    seen[l.key as usize] = true;
                    queue.push(l.key);
                }
            }
        }
        seen
    }

    /// [`Reach::links_of`] gives, in order, the links of the kinds asked:
    /// those [`on_to_off`] and [`off_to_on`] give, kept by their cause (a
    /// cell link's is [`Cause::NakedSingle`]), for graphs of each link set.
    #[test]
    fn links_of_a_kind_are_the_rules_links_of_that_kind() {
        let mut kinds = [0usize; 2];
        for cands in grids() {
            let work = Work::new(&cands);
            for (y, x) in [(true, true), (false, true), (true, false)] {
                let reach = Reach::build(&work, y, x);
                for (c, &m) in cands.iter().enumerate() {
                    for v in digits(m) {
                        for on in [false, true] {
                            let mut all = Vec::new();
                            if on {
                                on_to_off(&work, c, v, y, |k, cause| all.push((k, cause)));
                            } else {
                                let mut out = [OnConsequence::NONE; 4];
                                let count = off_to_on(&work, &work, c, v, y, x, &mut out);
                                all.extend(out[..count].iter().map(|o| (o.key, o.cause)));
                            }
                            for (cell, region) in [(true, true), (true, false), (false, true)] {
                                let want: Vec<(u16, Cause)> = all
                                    .iter()
                                    .copied()
                                    .filter(|&(_, cause)| {
                                        if cause == Cause::NakedSingle {
                                            cell
                                        } else {
                                            region
                                        }
                                    })
                                    .collect();
                                let got: Vec<(u16, Cause)> = reach
                                    .links_of(key(c, v, on), cell, region)
                                    .iter()
                                    .map(|l| (l.key, l.cause))
                                    .collect();
                                assert_eq!(got, want, "cell {c} digit {v} on {on} y {y} x {x}");
                            }
                            for &(_, cause) in &all {
                                kinds[usize::from(cause == Cause::NakedSingle)] += 1;
                            }
                        }
                    }
                }
            }
        }
        // Both kinds of link were met.
        assert!(kinds[0] > 1000 && kinds[1] > 1000, "{kinds:?}");
    }

    #[test]
    fn closure_answers_as_a_walk_of_the_links() {
        // How many potentials have a cycle that may remove something, and
        // how many not: the grids must show both.
        let mut outcomes = [0; 2];
        for cands in grids() {
            let work = Work::new(&cands);
            let reach = Reach::build(&work, true, true);
            let keys: Vec<u16> = (0..81)
                .flat_map(|c| {
                    digits(cands[c]).flat_map(move |v| [key(c, v, false), key(c, v, true)])
                })
                .collect();
            let walks: Vec<Vec<bool>> = keys.iter().map(|&k| walk(&reach, k)).collect();
            for (i, &a) in keys.iter().enumerate() {
                for &b in &keys {
                    assert_eq!(reach.reaches(a, b), walks[i][b as usize], "{a} -> {b}");
                }
                // A cycle through `a`: the potentials that reach `a` among
                // those it reaches.
                let cycle = (0..keys.len())
                    .filter(|&j| walks[i][keys[j] as usize] && walks[j][a as usize])
                    .map(|j| keys[j]);
                let removes = cycle_may_remove(cycle, &work.cells);
                assert_eq!(reach.may_cycle_remove(a), removes, "cycle through {a}");
                outcomes[usize::from(removes)] += 1;
            }
            // Two and three potentials sharing a consequence.
            for (i, j) in (0..keys.len()).zip((0..keys.len()).rev()).step_by(3) {
                let k = (i * 7 + 3) % keys.len();
                let shared2 = keys
                    .iter()
                    .any(|&b| walks[i][b as usize] && walks[j][b as usize]);
                let shared3 = keys
                    .iter()
                    .any(|&b| walks[i][b as usize] && walks[j][b as usize] && walks[k][b as usize]);
                assert_eq!(reach.share_a_consequence([keys[i], keys[j]]), shared2);
                assert_eq!(
                    reach.share_a_consequence([keys[i], keys[j], keys[k]]),
                    shared3
                );
            }
            // The answers a static multiple-chain search reads.
            let shares = Shares::of(&reach, &work);
            let walk_of = |k: u16| &walks[keys.iter().position(|&x| x == k).unwrap()];
            let common = |froms: &[u16]| {
                keys.iter()
                    .any(|&b| froms.iter().all(|&f| walk_of(f)[b as usize]))
            };
            let asked = |c: usize| cands[c].card() >= 3;
            for (c, &m) in cands.iter().enumerate() {
                let froms: Vec<u16> = digits(m).map(|v| key(c, v, true)).collect();
                assert_eq!(shares.cell(c), asked(c) && common(&froms), "cell {c}");
            }
            for r in 0..27 {
                for v in 1..=9u8 {
                    let pos = work.in_region(r, v);
                    let froms: Vec<u16> = cells_of(pos).map(|c| key(c, v, true)).collect();
                    let first_asked = pos != 0 && asked(pos.trailing_zeros() as usize);
                    assert_eq!(
                        shares.region(r, v),
                        froms.len() >= 2 && first_asked && common(&froms),
                        "region {r}, digit {v}"
                    );
                }
            }
            // Not a candidate: reaches nothing, shares nothing.
            if let Some(c) = (0..81).find(|&c| cands[c] != 0x3fe) {
                let v = (1..=9).find(|&v| cands[c] & 1 << v == 0).unwrap();
                let absent = key(c, v, true);
                assert!(!reach.reaches(absent, absent));
                assert!(!reach.may_cycle_remove(absent));
                assert!(!reach.share_a_consequence([absent]));
                assert!(reach.links(absent).is_empty());
            }
        }
        assert!(outcomes[0] > 100 && outcomes[1] > 100, "{outcomes:?}");
    }
}
