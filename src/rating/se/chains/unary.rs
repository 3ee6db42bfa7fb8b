//! Single chains from one assumption (SE's `Chaining(false, false, false,
//! 0)`, "Forcing Chains & Cycles"): bidirectional cycles (X 6.5, Y 6.5, XY
//! 7.0) and forcing chains (X 6.6, Y 6.6, XY 7.0), each plus the length
//! penalty.
//!
//! Three passes over every candidate of every cell with two or more (cells
//! row-major, digits ascending): X-links only (one position left in a
//! region), Y-links only (one value left in a cell; bivalue cells only, and
//! no forcing chains), both. From each candidate assumed on, a level-by-level
//! search finds the cycles that return to it; with X-links, two more
//! searches (from the candidate on, and off) find the chain that ends on
//! the candidate's opposite, which proves it false (or true).
//!
//! The grid does not change during these searches, so a chain's complexity
//! is its length: a forcing chain found from a potential at depth `d` has
//! `d + 2` potentials, a cycle closed at depth `L` has `L` (its start
//! counted once). That lets each search stop as soon as it can no longer
//! beat the best hint found so far, and a forcing-chain search stop at its
//! (only) conclusion, without changing which hint SE would pick. Arena nodes
//! are built only for a chain that is offered.

use super::super::board::{bit, cells_of, digits, Board, Card, PEER_MASK};
use super::net::{cell_of, key, value_of, Cause, Net, Work, KEYS};
use super::reach::{Link, Reach};
use super::sink::{Layout, Sink};
use super::ChainKind;
use super::{Candidate, Select};

/// Searches of one pass: which links it uses.
#[derive(Clone, Copy)]
struct Pass {
    y: bool,
    x: bool,
}

impl Pass {
    /// The links of this pass from on potential `k` (to off ones): region
    /// links, and cell links with Y.
    #[inline]
    fn on_links(self, reach: &Reach, k: u16) -> impl Iterator<Item = &Link> {
        reach.links_of(k, self.y, true).iter()
    }

    /// The links of this pass from off potential `k` (to on ones): cell
    /// links with Y, region links with X.
    #[inline]
    fn off_links(self, reach: &Reach, k: u16) -> impl Iterator<Item = &Link> {
        reach.links_of(k, self.y, self.x).iter()
    }

    /// The links of SE's forcing-chain searches from potential `k`, on or
    /// off: region links always, cell links with Y. From an on potential
    /// these are [`Pass::on_links`]; from an off one, the same choice,
    /// unlike the cycles' [`Pass::off_links`].
    #[inline]
    fn forcing_links(self, reach: &Reach, k: u16) -> impl Iterator<Item = &Link> {
        self.on_links(reach, k)
    }

    /// SE's `getSortKey` for cycles and forcing chains.
    fn sort_key(self) -> u8 {
        if self.x && self.y {
            4
        } else if self.y {
            3
        } else {
            2
        }
    }

    fn cycle_base(self) -> f64 {
        if self.x && self.y {
            7.0
        } else {
            6.5
        }
    }

    fn chain_base(self) -> f64 {
        if self.x && self.y {
            7.0
        } else {
            6.6
        }
    }
}

/// A potential reached by a search: its key, the rule that gave it, and the
/// entry it came from (`NONE` for the start).
#[derive(Clone, Copy)]
struct Entry {
    key: u16,
    cause: Cause,
    parent: u32,
    /// Cycle search: which of the source's closers (bit `i` for
    /// `closers[i]`) lie on the entry's path (an off entry: on its parent's).
    path: u32,
}

const NONE: u32 = u32::MAX;

/// Buffers reused across searches.
pub struct Unary {
    /// Stamp per key: reached ("on" and "off" keys differ, so one table).
    reached: Vec<u32>,
    /// Stamp per off key: expanded once already (cycle search).
    expanded: Vec<u32>,
    /// Stamp per on key: it links to one of the source's closers and is
    /// not yet expanded (cycle search).
    feeds_closer: Vec<u32>,
    /// Distance from the start per key (forcing-chain distances), valid
    /// where `reached` has the current stamp.
    depth: Vec<u8>,
    stamp: u32,
    entries: Vec<Entry>,
    pending_on: Vec<u32>,
    pending_off: Vec<u32>,
    /// [`forcing_distance`]'s two levels, `KEYS + 1` entries each (each
    /// potential enters a level once a search), so that a potential is
    /// written at the level's end and counted only if new, without a
    /// branch.
    levels: [Vec<u32>; 2],
    scratch: Vec<u32>,
    /// The closure ([`Reach::build`] with both link kinds) that the last
    /// nested search to build one built, of grid `spare_grid` (candidates),
    /// or its buffers alone where `spare_grid` is `None`. At nesting level
    /// 3, a nested search of cycles and forcing chains and, where it gave
    /// nothing, a nested static multiple-chain search run on each grid, one
    /// after the other: the second takes the first's closure.
    spare_reach: Reach,
    spare_grid: Option<[u16; 81]>,
    /// Potentials expanded by the searches since the last charge to the
    /// net's meter ([`from_candidate`] charges them).
    expanded_count: u64,
}

impl Default for Unary {
    fn default() -> Self {
        Unary {
            reached: vec![0; KEYS],
            expanded: vec![0; KEYS],
            feeds_closer: vec![0; KEYS],
            depth: vec![0; KEYS],
            stamp: 0,
            entries: Vec::new(),
            pending_on: Vec::new(),
            pending_off: Vec::new(),
            levels: [vec![0; KEYS + 1], vec![0; KEYS + 1]],
            scratch: Vec::new(),
            spare_reach: Reach::default(),
            spare_grid: None,
            expanded_count: 0,
        }
    }
}

impl Unary {
    /// The closure of `work`'s graph with both link kinds: the spare one
    /// where it is of the same grid, else built in its buffers (charging
    /// [`super::super::REACH_UNITS`] to `meter`). Give it back with
    /// [`Unary::put_reach`] once done with it.
    pub(super) fn take_reach(&mut self, work: &Work, meter: &mut crate::work::Meter) -> Reach {
        let mut reach = std::mem::take(&mut self.spare_reach);
        if self.spare_grid.take() != Some(work.cands) {
            meter.count(super::super::REACH_UNITS);
            reach.rebuild(work, true, true);
        }
        reach
    }

    /// Keeps `reach`, the closure of `work` from [`Unary::take_reach`],
    /// for the next search on the same grid.
    pub(super) fn put_reach(&mut self, work: &Work, reach: Reach) {
        self.spare_reach = reach;
        self.spare_grid = Some(work.cands);
    }

    /// The spare closure ([`Unary::put_reach`]) when it is of grid `cands`.
    pub(super) fn spare_for(&self, cands: &[u16; 81]) -> Option<&Reach> {
        (self.spare_grid.as_ref() == Some(cands)).then_some(&self.spare_reach)
    }

    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.reached.iter_mut().for_each(|s| *s = 0);
            self.expanded.iter_mut().for_each(|s| *s = 0);
            self.feeds_closer.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Builds arena nodes for the path ending at entry `e` (start first);
    /// returns the node of `e`.
    fn materialize(&self, e: u32, net: &mut Net) -> u32 {
        let mut path = Vec::new();
        let mut i = e;
        while i != NONE {
            path.push(i);
            i = self.entries[i as usize].parent;
        }
        let mut node = u32::MAX;
        for &i in path.iter().rev() {
            let entry = self.entries[i as usize];
            node = if node == u32::MAX {
                net.push(entry.key, entry.cause, &[])
            } else {
                net.push(entry.key, entry.cause, &[node])
            };
        }
        node
    }
}

/// Per digit, the best hint of the X pass from that digit's assumptions,
/// with the state it was found in.
///
/// X cycles and X forcing chains use region links only, so they stay on
/// one digit: what the X pass finds from the assumptions of digit `v`
/// depends only on the cells holding `v` and on which of them are searched
/// (those with two candidates or more). The filters on the XY graph's
/// closure only skip searches that would find nothing, which stays true
/// while the digit's cells do not change. Between two searches a few steps
/// of the path change a few digits (two thirds of the digits are unchanged
/// on puzzles rated 7.x), so the X pass searches only the changed ones,
/// each on its own, and the best of all digits is SE's best of the pass:
/// the lowest (difficulty, complexity), ties to the first in SE's order of
/// search (cell, then digit).
#[derive(Default)]
pub struct XCache {
    /// Per digit: the cells holding it, those searched (81-bit sets), and
    /// the best hint found from them.
    entries: [Option<(u128, u128, Option<Candidate>)>; 10],
}

/// Runs the three passes on `board`, offering each hint to `sink`. With
/// `x_cache` (and a sink keeping the best hint), the X pass runs per digit
/// and reuses the results of digits whose cells did not change.
///
/// `reach` is the closure of `board`'s XY graph ([`Reach::build`] with both
/// link kinds), built here when not given. The X and Y passes' graphs are
/// parts of it (fewer links), so what they reach it reaches: its answers are
/// supersets, enough to skip searches that cannot find anything.
pub(crate) fn search_into(
    board: &Board,
    net: &mut Net,
    unary: &mut Unary,
    sink: &mut Sink,
    reach: Option<&Reach>,
    mut x_cache: Option<&mut XCache>,
) {
    let work = Work::of_board(board);
    let mut own = None;
    let reach = match reach {
        Some(r) => r,
        None => &*own.insert(unary.take_reach(&work, &mut net.meter)),
    };
    let mut cycles_possible = None;
    for pass in [
        Pass { y: false, x: true },
        Pass { y: true, x: false },
        Pass { y: true, x: true },
    ] {
        // The shortest cycle has 4 potentials, the shortest forcing chain 3.
        if !sink.can_improve(pass.cycle_base().min(pass.chain_base()), 3, pass.sort_key()) {
            continue;
        }
        // Forcing chains exist only where a candidate's opposite is
        // reachable from it.
        // A cycle that removes a candidate x passes by an on potential a and
        // an off potential b of x's digit in cells x sees, so x on => a off
        // => (the cycle, read backwards and negated) => b on => x off: x
        // reaches its own removal. Where no candidate does (even in the XY
        // graph), no cycle of this pass removes anything, and none is
        // searched.
        // (The same for every pass: worked out once, where a pass runs.)
        let cycles_possible = *cycles_possible.get_or_insert_with(|| {
            (0..81).any(|c| {
                board.values[c] == 0
                    && digits(board.cands[c])
                        .any(|v| reach.reaches(key(c, v, true), key(c, v, false)))
            })
        });
        if let (false, Some(cache), Sink::Best(select)) =
            (pass.y, x_cache.as_deref_mut(), &mut *sink)
        {
            let ctx = (&work, reach, cycles_possible);
            if !x_pass_by_digit(board, ctx, cache, select, net, unary) {
                return; // cut short by the meter
            }
            continue;
        }
        // Y-cycles lie in the Y graph's components, finer than the XY
        // graph's.
        let y_sources = (pass.y && !pass.x && cycles_possible).then(|| y_cycle_sources(&work));
        for cell in 0..81 {
            let cands = board.cands[cell];
            if board.values[cell] != 0 || cands.card() <= 1 {
                continue;
            }
            if cands.card() > 2 && !pass.x {
                continue;
            }
            for v in digits(cands) {
                let mark = net.nodes.len();
                let search_cycles = cycles_possible
                    && reach.may_cycle_remove(key(cell, v, true))
                    && y_sources.as_ref().is_none_or(|s| s[cell] & bit(v) != 0);
                from_candidate(&work, cell, v, pass, reach, search_cycles, net, unary, sink);
                // A sink keeping all hints keeps their chains in the net
                // until the outer chain has read them.
                if !sink.keeps_all() {
                    net.truncate(mark);
                }
                if net.meter.stopped() {
                    return;
                }
            }
        }
    }
    if let Some(r) = own {
        unary.put_reach(&work, r);
    }
}

/// The X pass, digit by digit with `cache` (see [`XCache`]); its best hint
/// goes to `select`. `ctx`: the work grid, the XY graph's closure, and
/// whether cycles can remove anything. Returns false when cut short by the
/// net's meter.
fn x_pass_by_digit(
    board: &Board,
    (work, reach, cycles_possible): (&Work, &Reach, bool),
    cache: &mut XCache,
    select: &mut Select,
    net: &mut Net,
    un: &mut Unary,
) -> bool {
    let pass = Pass { y: false, x: true };
    let mut best: Option<Candidate> = None;
    let (all_cells, all_searched) = super::digit_cells(board);
    for v in 1..=9u8 {
        let (cells, searched) = (all_cells[v as usize], all_searched[v as usize]);
        let found = match &cache.entries[v as usize] {
            // Nothing from some cells is nothing from fewer.
            Some((c, s, found))
                if *c == cells && (*s == searched || (found.is_none() && searched & !*s == 0)) =>
            {
                found.clone()
            }
            _ => {
                let mut sink = Sink::Best(Select::new());
                for cell in cells_of(searched) {
                    sink.set_order(cell as u64 * 10 + u64::from(v));
                    let mark = net.nodes.len();
                    from_candidate(
                        work,
                        cell,
                        v,
                        pass,
                        reach,
                        cycles_possible && reach.may_cycle_remove(key(cell, v, true)),
                        net,
                        un,
                        &mut sink,
                    );
                    net.truncate(mark);
                    if net.meter.stopped() {
                        return false;
                    }
                }
                let Sink::Best(s) = sink else { unreachable!() };
                let found = s.into_best();
                cache.entries[v as usize] = Some((cells, searched, found.clone()));
                found
            }
        };
        if let Some(c) = found {
            let better = best.as_ref().is_none_or(|b| {
                (c.difficulty, c.complexity, c.order) < (b.difficulty, b.complexity, b.order)
            });
            if better {
                best = Some(c);
            }
        }
    }
    if let Some(mut c) = best {
        // A chain concluding "on" removes the cell's other candidates,
        // which the digit's cells do not fix: take them from this board.
        if let Some((cell, v)) = c.placement {
            c.removable[cell] = board.cands[cell] & !bit(v);
        }
        select.offer(c);
    }
    true
}

/// SE's `doUnaryChaining` for candidate (`cell`, `v`); its cycles only
/// with `search_cycles` (false where none could remove anything).
#[allow(clippy::too_many_arguments)]
fn from_candidate(
    work: &Work,
    cell: usize,
    v: u8,
    pass: Pass,
    reach: &Reach,
    search_cycles: bool,
    net: &mut Net,
    un: &mut Unary,
    sink: &mut Sink,
) {
    let source = key(cell, v, true);
    if search_cycles {
        for dst_on in cycles_from(work, reach, source, pass, un, sink) {
            cycle_hint(work, dst_on, pass, net, un, sink);
        }
    }
    if pass.x {
        for start in [source, source ^ 1] {
            if !reach.reaches(start, start ^ 1) {
                continue; // the search would find nothing
            }
            if sink.keeps_all() {
                // A nested rule needs the chain itself (its causes).
                if let Some((target, depth)) = forcing_from(reach, start, pass, un, sink) {
                    forcing_hint(work, target, Some(depth), pass, net, un, sink);
                }
            } else if let Some(depth) = forcing_distance(reach, start, pass, un, sink) {
                if net.explain && sink.can_improve(pass.chain_base(), depth + 1, pass.sort_key()) {
                    // An explanation needs the chain SE found: searched
                    // again from `start` as SE searches, off the meter, so
                    // that explaining a puzzle charges rate's work (and runs
                    // out of a budget where rating it does).
                    let (meter, counted) = (net.meter.clone(), un.expanded_count);
                    if let Some((target, d)) = forcing_from(reach, start, pass, un, sink) {
                        debug_assert_eq!(d, depth);
                        forcing_hint(work, target, Some(d), pass, net, un, sink);
                    }
                    (net.meter, un.expanded_count) = (meter, counted);
                    // What the measured chain costs below: its conclusion's
                    // node.
                    net.meter.count(1);
                    continue;
                }
                let target = un.entries.len() as u32;
                un.entries.push(Entry {
                    key: start ^ 1,
                    cause: Cause::None,
                    parent: NONE,
                    path: 0,
                });
                forcing_hint(work, target, Some(depth), pass, net, un, sink);
            }
        }
    }
    net.meter.count(std::mem::take(&mut un.expanded_count));
}

/// Per cell, the digits `v` from which a Y-cycle (the Y pass: region
/// links from on potentials, cell links from off ones) could remove a
/// candidate.
///
/// Off potentials lead on only in bivalue cells, so a Y-cycle goes from
/// bivalue cell to bivalue cell: `on(c, a)`, then `off(c', a)` in a peer
/// `c'` holding `a`, then `on(c', b)`, `b` the other digit of `c'`. Its on
/// potentials are nodes of the graph `on(c, a) -> on(c', b)` over the
/// bivalue cells' candidates, and the cycle is a cycle of that graph, in
/// one strongly connected component (Tarjan), each node `on(c', b)`
/// bringing `off(c', a)` along. As in [`Reach::may_cycle_remove`], a
/// component where no cell holding a digit sees an on and an off potential
/// of it has no cycle that removes anything.
fn y_cycle_sources(work: &Work) -> [u16; 81] {
    const UNSEEN: u8 = u8::MAX;
    let mut out = [0u16; 81];
    // Nodes: (cell, digit) of bivalue cells, numbered in cell order.
    let mut nodes: Vec<(u8, u8)> = Vec::with_capacity(162);
    let mut id = [[UNSEEN; 10]; 81];
    let mut bivalue_with = [0u128; 10];
    for (c, &cands) in work.cands.iter().enumerate() {
        if cands.card() == 2 {
            for v in digits(cands) {
                id[c][v as usize] = nodes.len() as u8;
                nodes.push((c as u8, v));
                bivalue_with[v as usize] |= 1u128 << c;
            }
        }
    }
    let n = nodes.len();
    if n < 4 {
        return out;
    }
    // Iterative Tarjan (successors of `on(c, a)`: `on(c', b)` for the
    // bivalue peers `c'` holding `a`); `done[i]` once node `i`'s component
    // is popped.
    let (mut order, mut low, mut done) = (vec![UNSEEN; n], vec![0u8; n], vec![false; n]);
    let (mut stack, mut call): (Vec<u8>, Vec<(u8, u128)>) = (Vec::new(), Vec::new());
    let mut counter = 0u8;
    for root in 0..n {
        if order[root] != UNSEEN {
            continue;
        }
        // Each frame: its node and the peer cells not yet followed.
        let frame = |i: usize| {
            let (c, a) = nodes[i];
            (i as u8, PEER_MASK[c as usize] & bivalue_with[a as usize])
        };
        order[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root as u8);
        call.push(frame(root));
        while let Some(&mut (v, ref mut left)) = call.last_mut() {
            let v = v as usize;
            let mut descended = false;
            while *left != 0 {
                let c2 = left.trailing_zeros() as usize;
                *left &= *left - 1;
                let b = (work.cands[c2] & !bit(nodes[v].1)).trailing_zeros() as usize;
                let w = id[c2][b] as usize;
                if order[w] == UNSEEN {
                    order[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w as u8);
                    call.push(frame(w));
                    descended = true;
                    break;
                } else if !done[w] && order[w] < low[v] {
                    low[v] = order[w];
                }
            }
            if descended {
                continue;
            }
            call.pop();
            if let Some(&(parent, _)) = call.last() {
                low[parent as usize] = low[parent as usize].min(low[v]);
            }
            if low[v] == order[v] {
                let at = stack
                    .iter()
                    .rposition(|&w| w as usize == v)
                    .expect("on the stack");
                let members = &stack[at..];
                let removes = super::reach::cycle_may_remove(
                    members.iter().flat_map(|&w| {
                        let (c, y) = nodes[w as usize];
                        let x = (work.cands[c as usize] & !bit(y)).trailing_zeros() as u8;
                        [key(c as usize, y, true), key(c as usize, x, false)]
                    }),
                    &work.cells,
                );
                for &w in members {
                    done[w as usize] = true;
                    if removes {
                        let (c, y) = nodes[w as usize];
                        out[c as usize] |= bit(y);
                    }
                }
                stack.truncate(at);
            }
        }
    }
    out
}

/// The off keys whose "on" consequences include `source`: SE's cycles end
/// on one of these.
fn closers(work: &Work, source: u16, pass: Pass) -> [u16; 4] {
    let (cell, value) = (cell_of(source), value_of(source));
    let mut out = [u16::MAX; 4];
    let mut n = 0;
    if pass.y && work.cands[cell].card() == 2 {
        let other = (work.cands[cell] & !bit(value)).trailing_zeros() as u8;
        out[n] = key(cell, other, false);
        n += 1;
    }
    if pass.x {
        for &r in &super::super::board::CELL_REGIONS[cell] {
            let pos = work.in_region(r as usize, value);
            if super::super::board::is_two(pos) {
                let other = (pos & !(1u128 << cell)).trailing_zeros() as usize;
                let k = key(other, value, false);
                if !out[..n].contains(&k) {
                    out[n] = k;
                    n += 1;
                }
            }
        }
    }
    out
}

/// SE's `doCycles`: level-by-level search from `source` (an "on" key);
/// every derivation of `source` after at least two off-to-on levels closes
/// a cycle. Returns the entries ending the cycles, in the order found.
///
/// SE keeps every derivation of an off potential that is not an ancestor
/// of the on potential it comes from (`isParent`), duplicates included.
/// A duplicate adds nothing (its on consequences are already reached)
/// unless it closes a cycle, so only first derivations and those of the
/// few closing keys are kept here. That also makes `isParent` cheap: an
/// ancestor was derived before, so only the closers on a path need
/// tracking, one bit each.
fn cycles_from(
    work: &Work,
    reach: &Reach,
    source: u16,
    pass: Pass,
    un: &mut Unary,
    sink: &Sink,
) -> Vec<u32> {
    let mut cycles = Vec::new();
    let closers = closers(work, source, pass);
    if closers[0] == u16::MAX {
        return cycles;
    }
    let stamp = un.next_stamp();
    un.entries.clear();
    un.entries.push(Entry {
        key: source,
        cause: Cause::None,
        parent: NONE,
        path: 0,
    });
    un.reached[source as usize] = stamp;
    let mut pending_on = std::mem::take(&mut un.pending_on);
    let mut pending_off = std::mem::take(&mut un.pending_off);
    pending_on.clear();
    pending_off.clear();
    pending_on.push(0);
    let mut next = std::mem::take(&mut un.scratch);
    next.clear();
    // Only closers close cycles, and a closer is derived only when an on
    // potential linking to it is expanded. Once every such potential the
    // source may reach has been, no cycle is left to find: the search
    // ends after the next off level, of closers only. (Links read
    // backwards are links: those into closer `c` come from the opposites
    // of those out of `c`'s opposite.)
    let mut feeding = 0u32;
    for &c in closers.iter().filter(|&&c| c != u16::MAX) {
        for link in pass.on_links(reach, c ^ 1) {
            let q = link.key ^ 1;
            if un.feeds_closer[q as usize] != stamp && reach.reaches(source, q) {
                un.feeds_closer[q as usize] = stamp;
                feeding += 1;
            }
        }
    }
    let mut length = 0u32;
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        // The next off level closes cycles of `length + 1` potentials,
        // later levels longer ones.
        if !sink.can_improve(pass.cycle_base(), (length + 1).max(4), pass.sort_key()) {
            break;
        }
        next.clear();
        un.expanded_count += (pending_on.len() + pending_off.len()) as u64;
        for &p in &pending_on {
            if feeding == 0 {
                break;
            }
            let entry = un.entries[p as usize];
            if un.feeds_closer[entry.key as usize] == stamp {
                un.feeds_closer[entry.key as usize] = 0;
                feeding -= 1;
            }
            for &link in pass.on_links(reach, entry.key) {
                let k = link.key;
                if let Some(i) = closers.iter().position(|&c| c == k) {
                    if entry.path >> i & 1 != 0 {
                        continue; // an ancestor of p
                    }
                } else if un.expanded[k as usize] == stamp {
                    // An ancestor of p (every potential on the path was
                    // expanded), or a duplicate that adds nothing.
                    continue;
                } else if pass.off_links(reach, k).next().is_none() {
                    // Leads nowhere, and closes nothing (not a closer).
                    continue;
                }
                un.expanded[k as usize] = stamp;
                un.entries.push(Entry {
                    key: k,
                    cause: link.cause,
                    parent: p,
                    path: entry.path,
                });
                next.push((un.entries.len() - 1) as u32);
            }
        }
        std::mem::swap(&mut pending_off, &mut next);
        length += 1;
        next.clear();
        for &p in &pending_off {
            let entry = un.entries[p as usize];
            if feeding == 0 && !closers.contains(&entry.key) {
                continue;
            }
            for on in pass.off_links(reach, entry.key) {
                if length >= 4 && on.key == source {
                    un.entries.push(Entry {
                        key: on.key,
                        cause: on.cause,
                        parent: p,
                        path: 0,
                    });
                    cycles.push((un.entries.len() - 1) as u32);
                }
                if un.reached[on.key as usize] != stamp {
                    un.reached[on.key as usize] = stamp;
                    let via = closers
                        .iter()
                        .position(|&c| c == entry.key)
                        .map_or(0, |i| 1 << i);
                    let path = entry.path | via;
                    un.entries.push(Entry {
                        key: on.key,
                        cause: on.cause,
                        parent: p,
                        path,
                    });
                    next.push((un.entries.len() - 1) as u32);
                }
            }
        }
        std::mem::swap(&mut pending_on, &mut next);
        pending_off.clear();
        if feeding == 0 {
            break;
        }
    }
    un.pending_on = pending_on;
    un.pending_off = pending_off;
    un.scratch = next;
    cycles
}

/// SE's `doForcingChains` from `start` (on or off), stopped at the first
/// derivation of its opposite (the only conclusion SE draws from it):
/// returns that entry and its depth.
fn forcing_from(
    reach: &Reach,
    start: u16,
    pass: Pass,
    un: &mut Unary,
    sink: &Sink,
) -> Option<(u32, u32)> {
    let stamp = un.next_stamp();
    let opposite = start ^ 1;
    un.entries.clear();
    un.entries.push(Entry {
        key: start,
        cause: Cause::None,
        parent: NONE,
        path: 0,
    });
    un.reached[start as usize] = stamp;
    let mut layer = std::mem::take(&mut un.pending_on);
    let mut next = std::mem::take(&mut un.pending_off);
    layer.clear();
    layer.push(0);
    let mut depth = 0u32;
    let mut found = None;
    'search: while !layer.is_empty() {
        // A conclusion drawn from this level has depth + 2 potentials.
        if !sink.can_improve(pass.chain_base(), depth + 2, pass.sort_key()) {
            break;
        }
        next.clear();
        un.expanded_count += layer.len() as u64;
        for &p in &layer {
            let pk = un.entries[p as usize].key;
            for link in pass.forcing_links(reach, pk) {
                let k = link.key;
                if un.reached[k as usize] != stamp || k == opposite {
                    un.reached[k as usize] = stamp;
                    un.entries.push(Entry {
                        key: k,
                        cause: link.cause,
                        parent: p,
                        path: 0,
                    });
                    let e = (un.entries.len() - 1) as u32;
                    if k == opposite {
                        found = Some((e, depth + 1));
                        break 'search;
                    }
                    next.push(e);
                }
            }
        }
        std::mem::swap(&mut layer, &mut next);
        depth += 1;
    }
    un.pending_on = layer;
    un.pending_off = next;
    found
}

/// The depth at which SE's `doForcingChains` from `start` derives the
/// opposite of `start`, found in about half the search: the implication
/// graph is skew-symmetric (`a => b` exactly when `not b => not a`: a peer
/// or cell link read backwards is again one, and so is a conjugate pair),
/// so a chain `start => x => opposite` of length `a + b` exists exactly when
/// `start` reaches `x` in `a` steps and `not x` in `b`. Searching level by
/// level, the shortest chain is known once its midpoint is reached. `None`
/// when no chain of a length that could beat the best hint exists.
fn forcing_distance(
    reach: &Reach,
    start: u16,
    pass: Pass,
    un: &mut Unary,
    sink: &Sink,
) -> Option<u32> {
    let stamp = un.next_stamp();
    un.reached[start as usize] = stamp;
    un.depth[start as usize] = 0;
    let [mut layer, mut next] = std::mem::take(&mut un.levels);
    layer[0] = u32::from(start);
    let mut layer_len = 1;
    let mut best = u32::MAX;
    let mut depth = 0u32;
    let result = loop {
        // Every chain of at most 2 * depth steps has been seen by now.
        if best <= 2 * depth {
            break Some(best);
        }
        // A chain not yet seen has more than 2 * depth steps (and at least
        // `best` if one was seen): its complexity is at least that + 1.
        if layer_len == 0 {
            // Everything reachable is reached: every chain has been seen.
            break (best != u32::MAX).then_some(best);
        }
        let shortest_left = (2 * depth + 1).min(best);
        if !sink.can_improve(pass.chain_base(), shortest_left + 1, pass.sort_key()) {
            break None;
        }
        un.expanded_count += layer_len as u64;
        let d = depth + 1;
        let mut next_len = 0;
        let (reached, dist) = (&mut un.reached[..], &mut un.depth[..]);
        for &p in &layer[..layer_len] {
            for link in pass.forcing_links(reach, p as u16) {
                // A potential reached for the first time joins the next
                // level at this depth; where its opposite is reached too,
                // the two make a chain. (Selects rather than branches:
                // whether a potential is new follows no pattern.)
                let k = usize::from(link.key);
                let new = reached[k] != stamp;
                reached[k] = stamp;
                let kept = dist[k];
                dist[k] = if new { d as u8 } else { kept };
                next[next_len] = u32::from(link.key);
                next_len += usize::from(new);
                let not = k ^ 1;
                let meets = new & (reached[not] == stamp);
                let through = d + u32::from(dist[not]);
                best = best.min(if meets { through } else { u32::MAX });
            }
        }
        std::mem::swap(&mut layer, &mut next);
        layer_len = next_len;
        depth = d;
    };
    un.levels = [layer, next];
    result
}

/// SE's `createCycleHint` for the cycle ending at entry `dst_on`.
fn cycle_hint(work: &Work, dst_on: u32, pass: Pass, net: &mut Net, un: &Unary, sink: &mut Sink) {
    // A candidate outside the cycle's cells is removed when it sees an on
    // and an off potential of its digit: per digit, the peers of the on
    // potentials' cells meet those of the off potentials' cells. The
    // cycle's potentials: from dst_on back to (not including) the start.
    let mut cells = 0u128;
    let mut forw = [0u128; 10];
    let mut back = [0u128; 10];
    let mut len = 0u32;
    let mut e = dst_on;
    while un.entries[e as usize].parent != NONE {
        let k = un.entries[e as usize].key;
        e = un.entries[e as usize].parent;
        len += 1;
        let (cell, value) = (cell_of(k), value_of(k) as usize);
        cells |= 1u128 << cell;
        if k & 1 != 0 {
            forw[value] |= PEER_MASK[cell];
        } else {
            back[value] |= PEER_MASK[cell];
        }
    }
    let mut removable = [0u16; 81];
    let mut any = false;
    for value in 1..10 {
        let mut m = forw[value] & back[value] & work.cells[value] & !cells;
        any |= m != 0;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            removable[c] |= bit(value as u8);
        }
    }
    if !any {
        return;
    }
    // Every potential of the path is distinct but the two ends.
    let flat = len;
    if !sink.can_improve(pass.cycle_base(), flat, pass.sort_key()) {
        return;
    }
    let node = un.materialize(dst_on, net);
    let name = || {
        if pass.x && pass.y {
            "Bidirectional Cycle"
        } else if pass.y {
            "Bidirectional Y-Cycle"
        } else if cells.count_ones() == 4 {
            "Generalized X-Wing"
        } else {
            "Bidirectional X-Cycle"
        }
        .to_owned()
    };
    sink.offer(
        net,
        pass.cycle_base(),
        flat,
        pass.sort_key(),
        Layout::Cycle(node),
        &removable,
        None,
        ChainKind::Cycle,
        name,
    );
}

/// SE's `createForcingChainHint` for the chain ending at entry `target`
/// (the opposite of its start), found at `depth`.
fn forcing_hint(
    work: &Work,
    target: u32,
    depth: Option<u32>,
    pass: Pass,
    net: &mut Net,
    un: &Unary,
    sink: &mut Sink,
) {
    let k = un.entries[target as usize].key;
    let (cell, value) = (cell_of(k), value_of(k));
    let mut removable = [0u16; 81];
    let placement = if k & 1 == 0 {
        removable[cell] = bit(value);
        None
    } else {
        removable[cell] = work.cands[cell] & !bit(value);
        Some((cell, value))
    };
    // The path's potentials are all distinct: depth + 1 of them.
    let flat = depth.expect("the chain's depth") + 1;
    if !sink.can_improve(pass.chain_base(), flat, pass.sort_key()) {
        return;
    }
    let node = un.materialize(target, net);
    let name = || {
        if pass.x && pass.y {
            "Forcing Chain"
        } else if pass.y {
            "Forcing Y-Chain"
        } else if flat == 6 {
            "Turbot Fish"
        } else {
            "Forcing X-Chain"
        }
        .to_owned()
    };
    sink.offer(
        net,
        pass.chain_base(),
        flat,
        pass.sort_key(),
        Layout::Plain(&[node]),
        &removable,
        placement,
        ChainKind::Forcing,
        name,
    );
}
