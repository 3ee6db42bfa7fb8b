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
//! searches (from the candidate on, and off) find the chains that end on the
//! candidate's opposite, which proves it false (or true).

use super::super::board::{bit, Board, HOUSE};
use super::net::{key, off_to_on, on_to_off, Cause, Net, OnConsequence, Work};
use super::multiple::{Layout, Sink};
use super::ChainKind;

/// Searches of one pass: which links it uses.
#[derive(Clone, Copy)]
struct Pass {
    y: bool,
    x: bool,
}

/// Buffers reused across searches.
pub struct Unary {
    in_on: Vec<u32>,
    in_off: Vec<u32>,
    stamp: u32,
    /// For each "on" node, the off keys (>> 1) on its first-parent path, as
    /// a 810-bit set: SE's `isParent` test in O(1).
    path_bits: Vec<[u64; 13]>,
}

impl Default for Unary {
    fn default() -> Self {
        Unary {
            in_on: vec![0; super::net::KEYS],
            in_off: vec![0; super::net::KEYS],
            stamp: 0,
            path_bits: Vec::new(),
        }
    }
}

impl Unary {
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.in_on.iter_mut().for_each(|s| *s = 0);
            self.in_off.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        self.stamp
    }
}

/// Runs the three passes on `board`, offering each hint to `sink`.
pub(crate) fn search_into(board: &Board, net: &mut Net, unary: &mut Unary, sink: &mut Sink) {
    let work = Work::new(&board.cands);
    for pass in [Pass { y: false, x: true }, Pass { y: true, x: false }, Pass { y: true, x: true }] {
        for cell in 0..81 {
            let cands = board.cands[cell];
            if board.values[cell] != 0 || cands.count_ones() <= 1 {
                continue;
            }
            if cands.count_ones() > 2 && !pass.x {
                continue;
            }
            for v in super::super::board::digits(cands) {
                let mark = net.nodes.len();
                from_candidate(&work, cell, v, pass, net, unary, sink);
                net.truncate(mark);
                if sink.cancelled() {
                    return;
                }
            }
        }
    }
}

/// SE's `doUnaryChaining` for candidate (`cell`, `v`).
fn from_candidate(work: &Work, cell: usize, v: u8, pass: Pass, net: &mut Net, un: &mut Unary, sink: &mut Sink) {
    let source = key(cell, v, true);
    let mut cycles = Vec::new();
    cycles_from(work, source, pass, net, un, &mut cycles);
    let mut chains: Vec<u32> = Vec::new();
    if pass.x {
        forcing_from(work, source, pass, net, un, &mut chains);
        forcing_from(work, key(cell, v, false), pass, net, un, &mut chains);
    }
    for &dst_on in &cycles {
        cycle_hint(work, dst_on, pass, net, sink);
    }
    for &target in &chains {
        forcing_hint(work, target, pass, net, sink);
    }
}

/// SE's `doCycles`: level-by-level search from `source` (an "on" key);
/// every derivation of `source` itself after at least two off-to-on levels
/// closes a cycle, pushed to `cycles`.
///
/// Off potentials are not deduplicated (as in SE): an off potential is
/// skipped only when it is an ancestor of the on potential it comes from
/// (SE's `isParent`), tested against the set of off keys on that on
/// potential's path.
fn cycles_from(work: &Work, source: u16, pass: Pass, net: &mut Net, un: &mut Unary, cycles: &mut Vec<u32>) {
    let stamp = un.next_stamp();
    un.path_bits.clear();
    let src = net.push(source, Cause::None, &[]);
    un.path_bits.push([0u64; 13]);
    un.in_on[source as usize] = stamp;
    // (node, index of its path in path_bits): on nodes their own path, off
    // nodes the path of the on node they come from.
    let mut pending_on: Vec<(u32, u32)> = vec![(src, 0)];
    let mut pending_off: Vec<(u32, u32)> = Vec::new();
    let mut length = 0;
    let mut out = [OnConsequence { key: 0, cause: Cause::None, hidden_digits: 0, hidden_cells: 0 }; 4];
    while !pending_on.is_empty() || !pending_off.is_empty() {
        length += 1;
        for (p, path) in std::mem::take(&mut pending_on) {
            let pk = net.key(p);
            let (cell, value) = (super::net::cell_of(pk), super::net::value_of(pk));
            let bits = un.path_bits[path as usize];
            on_to_off(work, cell, value, pass.y, |k, cause| {
                let b = (k >> 1) as usize;
                if bits[b >> 6] >> (b & 63) & 1 == 0 {
                    pending_off.push((net.push(k, cause, &[p]), path));
                }
            });
        }
        length += 1;
        for (p, path) in std::mem::take(&mut pending_off) {
            let pk = net.key(p);
            let (cell, value) = (super::net::cell_of(pk), super::net::value_of(pk));
            let count = off_to_on(work, work, cell, value, pass.y, pass.x, &mut out);
            for on in &out[..count] {
                if length >= 4 && on.key == source {
                    cycles.push(net.push(on.key, on.cause, &[p]));
                }
                if un.in_on[on.key as usize] != stamp {
                    un.in_on[on.key as usize] = stamp;
                    let n = net.push(on.key, on.cause, &[p]);
                    let mut bits = un.path_bits[path as usize];
                    let b = (pk >> 1) as usize;
                    bits[b >> 6] |= 1 << (b & 63);
                    un.path_bits.push(bits);
                    pending_on.push((n, (un.path_bits.len() - 1) as u32));
                }
            }
        }
    }
}

/// SE's `doForcingChains` from `source` (on or off): collects the nodes
/// that derive the opposite of `source` (each potential once) into `chains`.
fn forcing_from(work: &Work, source: u16, pass: Pass, net: &mut Net, un: &mut Unary, chains: &mut Vec<u32>) {
    let stamp = un.next_stamp();
    let src = net.push(source, Cause::None, &[]);
    let opposite = source ^ 1;
    let mut pending_on = Vec::new();
    let mut pending_off = Vec::new();
    if source & 1 != 0 {
        un.in_on[source as usize] = stamp;
        pending_on.push(src);
    } else {
        un.in_off[source as usize] = stamp;
        pending_off.push(src);
    }
    let mut out = [OnConsequence { key: 0, cause: Cause::None, hidden_digits: 0, hidden_cells: 0 }; 4];
    let mut head_on = 0;
    let mut head_off = 0;
    while head_on < pending_on.len() || head_off < pending_off.len() {
        while head_on < pending_on.len() {
            let p = pending_on[head_on];
            head_on += 1;
            let pk = net.key(p);
            let (cell, value) = (super::net::cell_of(pk), super::net::value_of(pk));
            on_to_off(work, cell, value, pass.y, |k, cause| {
                if k == opposite && !chains.iter().any(|&c| net.key(c) == k) {
                    chains.push(net.push(k, cause, &[p]));
                }
                // SE also skips ancestors of p here; they are all in toOff.
                if un.in_off[k as usize] != stamp {
                    un.in_off[k as usize] = stamp;
                    pending_off.push(net.push(k, cause, &[p]));
                }
            });
        }
        while head_off < pending_off.len() {
            let p = pending_off[head_off];
            head_off += 1;
            let pk = net.key(p);
            let (cell, value) = (super::net::cell_of(pk), super::net::value_of(pk));
            let count = off_to_on(work, work, cell, value, pass.y, true, &mut out);
            for on in &out[..count] {
                if on.key == opposite && !chains.iter().any(|&c| net.key(c) == on.key) {
                    chains.push(net.push(on.key, on.cause, &[p]));
                }
                if un.in_on[on.key as usize] != stamp {
                    un.in_on[on.key as usize] = stamp;
                    pending_on.push(net.push(on.key, on.cause, &[p]));
                }
            }
        }
    }
}

/// SE's `createCycleHint` for the cycle ending at `dst_on`.
fn cycle_hint(work: &Work, dst_on: u32, pass: Pass, net: &mut Net, sink: &mut Sink) {
    // The cycle's nodes from dst_on back to (not including) the source.
    let mut chain = Vec::new();
    let mut p = dst_on;
    let mut cells = 0u128;
    while let Some(parent) = net.first_parent(p) {
        chain.push(p);
        cells |= 1u128 << super::net::cell_of(net.key(p));
        p = parent;
    }
    let mut forw = [0u16; 81];
    let mut back = [0u16; 81];
    for &n in &chain {
        let k = net.key(n);
        let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
        for &c in &HOUSE[cell] {
            let c = c as usize;
            if cells >> c & 1 == 0 && work.has(c, value) {
                if k & 1 != 0 {
                    forw[c] |= bit(value);
                } else {
                    back[c] |= bit(value);
                }
            }
        }
    }
    let mut removable = [0u16; 81];
    let mut any = false;
    for c in 0..81 {
        removable[c] = forw[c] & back[c];
        any |= removable[c] != 0;
    }
    if !any {
        return;
    }
    let flat = net.ancestor_count(dst_on);
    let base = if pass.x && pass.y { 7.0 } else { 6.5 };
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
    sink.offer(net, base, flat, sort_key(pass), Layout::Cycle(dst_on), &removable, None, ChainKind::Cycle, name);
}

/// SE's `createForcingChainHint` for a chain ending at `target`, the
/// opposite of its start.
fn forcing_hint(work: &Work, target: u32, pass: Pass, net: &mut Net, sink: &mut Sink) {
    let k = net.key(target);
    let (cell, value) = (super::net::cell_of(k), super::net::value_of(k));
    let mut removable = [0u16; 81];
    let placement = if k & 1 == 0 {
        removable[cell] = bit(value);
        None
    } else {
        removable[cell] = work.cands[cell] & !bit(value);
        Some((cell, value))
    };
    let flat = net.ancestor_count(target);
    let base = if pass.x && pass.y { 7.0 } else { 6.6 };
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
    sink.offer(net, base, flat, sort_key(pass), Layout::Plain(&[target]), &removable, placement, ChainKind::Forcing, name);
}

/// SE's `getSortKey` for cycles and forcing chains.
fn sort_key(pass: Pass) -> u8 {
    if pass.x && pass.y {
        4
    } else if pass.y {
        3
    } else {
        2
    }
}
