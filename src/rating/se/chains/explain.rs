//! A chaining hint's facts for `explain` ([`super::super::explain`]): the
//! cells its one-line text names and its chains of implications, read off
//! the implication net the search built, the way SE's hint classes read
//! them off their `Potential` objects (`getSelectedCells`, `toString`,
//! `ChainingHint.getHtmlChain`, `Chaining.getReversedCycle`).
//!
//! Only the hint a search keeps is explained (when the rating keeps its
//! steps, [`super::net::Net::explain`]): the net still holds its nodes then
//! ([`super::sink::Sink::offer`] reads the facts off it).

use super::super::explain::chain::{Chain, Implication, Potential, Why};
use super::net::{cell_of, is_on, value_of, Cause, Net, NO_NESTED};

/// A node's key as a [`Potential`].
fn potential(k: u16) -> Potential {
    Potential::new(cell_of(k), value_of(k), is_on(k))
}

/// The rule of a node's cause (SE prints the rule's explanation; an
/// advanced potential's is the other technique's hint).
fn why(net: &Net, n: u32) -> Why {
    let node = &net.nodes[n as usize];
    match node.cause {
        Cause::NakedSingle => Why::Cell,
        Cause::HiddenBlock => Why::Block,
        Cause::HiddenRow => Why::Row,
        Cause::HiddenColumn => Why::Column,
        Cause::None => Why::Technique(String::new()),
        Cause::Advanced => {
            let name = if node.nested != NO_NESTED {
                net.nested[node.nested as usize].name.clone()
            } else {
                ADVANCED_NAMES
                    .get(node.rule as usize)
                    .copied()
                    .unwrap_or("")
                    .to_owned()
            };
            Why::Technique(name)
        }
    }
}

/// The names of the basic techniques a dynamic "(+)" chain uses, by
/// [`super::net::Node::rule`] (0: none).
pub(crate) const ADVANCED_NAMES: [&str; 6] = [
    "",
    "Pointing",
    "Claiming",
    "Hidden Pair",
    "Naked Pair",
    "X-Wing",
];

/// SE's `getHtmlChain(target)`: every node with parents among `target` and
/// its ancestors, once per potential, parents first (a depth-first walk,
/// parents in their order), each with its parents reversed.
pub(crate) fn chain(net: &Net, target: u32) -> Chain {
    let mut out = Chain::new();
    // Nodes walked already (a second walk adds nothing: everything below
    // was walked the first time), and potentials listed.
    let mut walked = std::collections::HashSet::new();
    let mut listed = std::collections::HashSet::new();
    // Iterative post-order: (node, next parent to walk).
    let mut stack: Vec<(u32, usize)> = vec![(target, 0)];
    walked.insert(target);
    while let Some(&mut (n, ref mut next)) = stack.last_mut() {
        let parents = net.parents_of(n);
        if *next < parents.len() {
            let p = parents[*next];
            *next += 1;
            if walked.insert(p) {
                stack.push((p, 0));
            }
            continue;
        }
        stack.pop();
        let key = net.key(n);
        if !parents.is_empty() && listed.insert(key) {
            out.push(Implication {
                given: parents
                    .iter()
                    .rev()
                    .map(|&p| potential(net.key(p)))
                    .collect(),
                then: potential(key),
                why: why(net, n),
            });
        }
    }
    out
}

/// The forward path of a cycle ending at `dst_on`, from it back to the
/// start (`dst_on` first, the start, which has no parent, last).
pub(crate) fn cycle_path(net: &Net, dst_on: u32) -> Vec<u32> {
    let mut path = vec![dst_on];
    let mut p = dst_on;
    while let Some(parent) = net.first_parent(p) {
        path.push(parent);
        p = parent;
    }
    path
}

/// SE's reversed cycle (`getReversedCycle`) as a chain: each potential of
/// the forward path negated, linked the other way, each link keeping the
/// rule of the forward link it reverses.
pub(crate) fn reversed_cycle(net: &Net, dst_on: u32) -> Chain {
    // Forward path o_0 = dst_on, o_1, ..., o_n = the start. Reversed: r_i
    // = not o_i, r_0 the start of the reversed chain; r_i follows from
    // r_(i-1) by o_(i-1)'s rule.
    let path = cycle_path(net, dst_on);
    let mut out = Chain::new();
    let mut listed = std::collections::HashSet::new();
    for i in 1..path.len() {
        let then = net.key(path[i]) ^ 1;
        if !listed.insert(then) {
            continue;
        }
        out.push(Implication {
            given: vec![potential(net.key(path[i - 1]) ^ 1)],
            then: potential(then),
            why: why(net, path[i - 1]),
        });
    }
    out
}

/// The start of the chain ending at `n`: its first-parent ancestor with no
/// parent (SE's `getSrcPotential`).
pub(crate) fn source(net: &Net, n: u32) -> u32 {
    let mut p = n;
    while let Some(parent) = net.first_parent(p) {
        p = parent;
    }
    p
}

/// SE's `getChain(target)`: `target` and its ancestors breadth-first, each
/// potential once (the first node met for it).
pub(crate) fn breadth_first(net: &Net, target: u32) -> Vec<u32> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut todo = vec![target];
    while !todo.is_empty() {
        let mut next = Vec::new();
        for &n in &todo {
            if seen.insert(net.key(n)) {
                out.push(n);
                next.extend_from_slice(net.parents_of(n));
            }
        }
        todo = next;
    }
    out
}
