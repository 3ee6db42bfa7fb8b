//! Where a chaining search sends its hints ([`Sink`]): the top level keeps
//! SE's choice, a nested rule keeps every hint with what the outer chain
//! needs of it (its rule parents and identity, SE's `getRuleParents` and
//! `FullChain`). Shared by the unary ([`super::unary`]) and multiple
//! ([`super::multiple`]) chain searches, which both offer hints here.

use super::super::board::{bit, CELL_REGIONS, COLUMN};
use super::super::board::{BLOCK, REGION_CELLS, ROW};
use super::net::{cell_of, is_on, key, length_difficulty, value_of, Cause};
use super::net::{Net, REGION_CAUSE};
use super::{Candidate, ChainKind, Select};

/// A hint of a nested rule, as the outer chain uses it.
pub(crate) struct NestedHint {
    pub(super) difficulty: f64,
    pub(super) complexity: u32,
    pub(super) sort_key: u8,
    /// Candidates removed, ascending by cell.
    pub(super) removable: Vec<(u8, u16)>,
    /// Off keys that the hint needs removed (SE's `getRuleParents`).
    pub(super) rule_parents: Vec<u16>,
    /// SE's `FullChain` identity (chaining hints only).
    pub(super) identity: Vec<u16>,
}

/// Where a chaining search sends its hints: the top level keeps the best,
/// a nested rule keeps all of them with what the outer chain needs.
// One per search, passed by reference: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Sink {
    /// Keep SE's choice.
    Best(Select),
    /// Keep every hint (nested rules), with the grids to compute rule
    /// parents against.
    All {
        /// The outer chain's grid at its start.
        init: Box<[u16; 81]>,
        /// The outer chain's current grid (the one searched).
        current: Box<[u16; 81]>,
        /// Hints found so far.
        hints: Vec<NestedHint>,
    },
}

/// How a chaining hint's chains are laid out, for rule parents.
pub(crate) enum Layout<'a> {
    /// Chains ending at these nodes; an unparented start has no cause.
    Plain(&'a [u32]),
    /// Cell forcing chains: the start of each chain is a naked-single cause.
    Cell(&'a [u32]),
    /// Region forcing chains: the start is a hidden single of this region type.
    Region(&'a [u32], usize),
    /// A cycle ending at this node (SE builds the reversed copy too).
    Cycle(u32),
}

impl Sink {
    /// Whether a hint of this base, with at least `min_complexity`, could
    /// still replace the best one (always, when collecting all).
    pub fn can_improve(&self, base: f64, min_complexity: u32, sort_key: u8) -> bool {
        match self {
            Sink::Best(s) => s.improves(
                base + length_difficulty(min_complexity),
                min_complexity,
                sort_key,
            ),
            Sink::All { .. } => true,
        }
    }

    /// Sets the place in SE's order of search of the hints offered next
    /// (see [`Select::set_order`]); a sink keeping all hints keeps them in
    /// the order offered.
    pub fn set_order(&mut self, order: u64) {
        if let Sink::Best(s) = self {
            s.set_order(order);
        }
    }

    /// Whether this sink keeps every hint (a nested rule), which needs the
    /// exact chains behind them.
    pub fn keeps_all(&self) -> bool {
        matches!(self, Sink::All { .. })
    }

    /// Offers a chaining hint. `flat` is its flat complexity; `layout`
    /// its chains (nested complexity and rule parents come from them).
    #[allow(clippy::too_many_arguments)]
    pub fn offer(
        &mut self,
        net: &mut Net,
        base: f64,
        flat: u32,
        sort_key: u8,
        layout: Layout,
        removable: &[u16; 81],
        placement: Option<(usize, u8)>,
        kind: ChainKind,
        name: impl FnOnce() -> String,
    ) {
        let targets: Vec<u32> = match &layout {
            Layout::Plain(t) | Layout::Cell(t) | Layout::Region(t, _) => t.to_vec(),
            Layout::Cycle(n) => vec![*n],
        };
        let complexity = if net.nested.is_empty() {
            flat
        } else {
            flat + net.nested_complexity(&targets)
        };
        let difficulty = base + length_difficulty(complexity);
        match self {
            Sink::Best(select) => {
                if select.improves(difficulty, complexity, sort_key) {
                    select.offer(Candidate {
                        difficulty,
                        complexity,
                        sort_key,
                        name: name(),
                        removable: *removable,
                        placement,
                        kind,
                        order: u64::MAX,
                    });
                }
            }
            Sink::All {
                init,
                current,
                hints,
            } => {
                let (rule_parents, identity) =
                    rule_parents_and_identity(net, &layout, init, current);
                hints.push(NestedHint {
                    difficulty,
                    complexity,
                    sort_key,
                    removable: super::super::hint::removals_of(removable),
                    rule_parents,
                    identity,
                });
            }
        }
    }
}

/// SE's `getRuleParents` (the off potentials of the outer chain that the
/// hint needs) and `FullChain` identity of a chaining hint.
fn rule_parents_and_identity(
    net: &mut Net,
    layout: &Layout,
    init: &[u16; 81],
    current: &[u16; 81],
) -> (Vec<u16>, Vec<u16>) {
    // (node, cause override for unparented starts) per target.
    let mut parents: Vec<u16> = Vec::new();
    let mut identity: Vec<u16> = Vec::new();
    let add = |parents: &mut Vec<u16>, k: u16| {
        if !parents.contains(&k) {
            parents.push(k);
        }
    };
    let on_parents = |parents: &mut Vec<u16>, k: u16, cause: Cause| {
        if !is_on(k) {
            return;
        }
        let (cell, value) = (cell_of(k), value_of(k));
        match cause {
            Cause::None | Cause::Advanced => {}
            Cause::NakedSingle => {
                let gone = init[cell] & !current[cell];
                for v in super::super::board::digits(gone) {
                    add(parents, key(cell, v, false));
                }
            }
            hidden => {
                let ty = match hidden {
                    Cause::HiddenBlock => BLOCK,
                    Cause::HiddenRow => ROW,
                    _ => COLUMN,
                };
                let r = CELL_REGIONS[cell][ty] as usize;
                for &c in &REGION_CELLS[r] {
                    let c = c as usize;
                    if init[c] & bit(value) != 0 && current[c] & bit(value) == 0 {
                        add(parents, key(c, value, false));
                    }
                }
            }
        }
    };
    match layout {
        Layout::Cycle(dst_on) => {
            // Forward chain o_0 (dst_on) .. o_{k-1}; o_k is the start, same
            // key as o_0. The reversed copy runs o_k, o_{k-1}, .., o_1 with
            // every potential flipped and the same causes.
            let mut path = Vec::new();
            let mut p = *dst_on;
            while let Some(parent) = net.first_parent(p) {
                path.push(p);
                p = parent;
            }
            identity.push(path.len() as u16);
            for &n in &path {
                identity.push(net.key(n));
            }
            for &n in &path {
                let node = net.nodes[n as usize];
                on_parents(&mut parents, node.key, node.cause);
            }
            identity.push(path.len() as u16);
            identity.push(net.key(*dst_on) ^ 1);
            for &n in path[1..].iter().rev() {
                identity.push(net.key(n) ^ 1);
            }
            for &n in path[1..].iter().rev() {
                let node = net.nodes[n as usize];
                on_parents(&mut parents, node.key ^ 1, node.cause);
            }
        }
        Layout::Plain(targets) | Layout::Cell(targets) | Layout::Region(targets, _) => {
            let start_cause = match layout {
                Layout::Cell(_) => Cause::NakedSingle,
                Layout::Region(_, ty) => REGION_CAUSE[*ty],
                _ => Cause::None,
            };
            for &t in targets.iter() {
                let chain = net.chain(t);
                identity.push(chain.len() as u16);
                for &n in &chain {
                    let node = net.nodes[n as usize];
                    identity.push(node.key);
                    let cause = if node.cause == Cause::None {
                        start_cause
                    } else {
                        node.cause
                    };
                    on_parents(&mut parents, node.key, cause);
                }
            }
        }
    }
    (parents, identity)
}
