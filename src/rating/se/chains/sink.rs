//! Where a chaining search sends its hints ([`Sink`]): the top level keeps
//! SE's choice, a nested rule keeps every hint with what the outer chain
//! needs of it (its rule parents and identity, SE's `getRuleParents` and
//! `FullChain`). Shared by the unary ([`super::unary`]) and multiple
//! ([`super::multiple`]) chain searches, which both offer hints here.

use super::super::board::{bit, CELL_REGIONS, COLUMN};
use super::super::board::{BLOCK, REGION_CELLS, ROW};
use super::explain;
use super::net::{cell_of, is_on, key, length_difficulty, value_of, Cause};
use super::net::{Net, REGION_CAUSE};
use super::{Candidate, ChainKind, Select};
use crate::rating::se::explain::chain::Chain;

/// A hint of a nested rule as found: what sorts it, and where its removals
/// and the chains behind it are kept in [`Sink::All`]. What the outer chain
/// needs of it beyond that (its rule parents and identity, SE's
/// `getRuleParents` and `FullChain`) is worked out only for the hints it
/// uses ([`Sink::rule_parents_and_identity`]): most hints of a nested
/// search remove only candidates an earlier hint removes too.
pub(crate) struct NestedHint {
    pub(super) difficulty: f64,
    pub(super) complexity: u32,
    /// The complexity without nested chains.
    pub(super) flat: u32,
    pub(super) sort_key: u8,
    /// Its candidates removed, ascending by cell: a span of
    /// [`Found::removals`].
    pub(super) removals: (u32, u32),
    /// Its chains' last nodes: a span of [`Found::targets`].
    targets: (u32, u32),
    layout: LayoutKind,
    /// SE's name of the hint's technique when the net explains
    /// ([`Net::explain`]), else empty (its chains are read off the net
    /// only for the hints the outer chain uses, [`Sink::chains_of`]).
    pub(super) name: String,
}

/// The hints a nested search found, flat.
#[derive(Default)]
pub(crate) struct Found {
    pub(super) hints: Vec<NestedHint>,
    /// Candidates removed (cell, digit mask), hint after hint.
    pub(super) removals: Vec<(u8, u16)>,
    /// Chain ends, hint after hint.
    targets: Vec<u32>,
}

impl Found {
    /// The candidates `hint` removes, ascending by cell.
    pub(super) fn removals_of(&self, hint: &NestedHint) -> &[(u8, u16)] {
        &self.removals[hint.removals.0 as usize..hint.removals.1 as usize]
    }

    /// How `hint`'s chains are laid out.
    fn layout_of(&self, hint: &NestedHint) -> Layout<'_> {
        let targets = &self.targets[hint.targets.0 as usize..hint.targets.1 as usize];
        match hint.layout {
            LayoutKind::Plain => Layout::Plain(targets),
            LayoutKind::Cell => Layout::Cell(targets),
            LayoutKind::Region(ty) => Layout::Region(targets, ty),
            LayoutKind::Cycle => Layout::Cycle(targets[0]),
        }
    }

    /// Empties the lists, keeping their capacity.
    pub(super) fn clear(&mut self) {
        self.hints.clear();
        self.removals.clear();
        self.targets.clear();
    }
}

/// [`Layout`] without its targets (kept apart in [`Found`]).
#[derive(Clone, Copy)]
enum LayoutKind {
    Plain,
    Cell,
    Region(usize),
    Cycle,
}

/// Where a chaining search sends its hints: the top level keeps the best,
/// a nested rule keeps all of them with what the outer chain needs.
// One per search, passed by reference: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Sink {
    /// Keep SE's choice.
    Best(Select),
    /// Keep every hint (nested rules), with the grids to compute rule
    /// parents against. The hints' chains stay in the net until the outer
    /// chain has taken what it needs of them.
    All {
        /// The outer chain's grid at its start.
        init: Box<[u16; 81]>,
        /// The outer chain's current grid (the one searched).
        current: Box<[u16; 81]>,
        /// Hints found so far.
        found: Found,
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

    /// Whether this sink keeps the best hint and has one (a hint must beat
    /// it).
    pub fn has_best(&self) -> bool {
        matches!(self, Sink::Best(s) if s.has_best())
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
        let (targets, kind_of_layout) = match &layout {
            Layout::Plain(t) => (*t, LayoutKind::Plain),
            Layout::Cell(t) => (*t, LayoutKind::Cell),
            Layout::Region(t, ty) => (*t, LayoutKind::Region(*ty)),
            Layout::Cycle(n) => (std::slice::from_ref(n), LayoutKind::Cycle),
        };
        let complexity = flat + net.nested_complexity(targets);
        let difficulty = base + length_difficulty(complexity);
        match self {
            Sink::Best(select) => {
                if select.improves(difficulty, complexity, sort_key) {
                    let (cells, chains) = facts(net, &layout, kind, net.explain);
                    select.offer(Candidate {
                        difficulty,
                        complexity,
                        sort_key,
                        name: name(),
                        removable: *removable,
                        placement,
                        kind,
                        order: u64::MAX,
                        cells,
                        chains,
                    });
                }
            }
            Sink::All { found, .. } => {
                let at = found.removals.len() as u32;
                for (c, &m) in removable.iter().enumerate() {
                    if m != 0 {
                        found.removals.push((c as u8, m));
                    }
                }
                let t_at = found.targets.len() as u32;
                found.targets.extend_from_slice(targets);
                found.hints.push(NestedHint {
                    difficulty,
                    complexity,
                    flat,
                    sort_key,
                    removals: (at, found.removals.len() as u32),
                    targets: (t_at, found.targets.len() as u32),
                    layout: kind_of_layout,
                    name: if net.explain { name() } else { String::new() },
                });
            }
        }
    }

    /// SE's `getRuleParents` (the off potentials of the outer chain that
    /// `hint` needs) and `FullChain` identity, for a hint this sink kept
    /// (its chains must still be in `net`).
    pub fn rule_parents_and_identity(
        &self,
        net: &mut Net,
        hint: &NestedHint,
    ) -> (Vec<u16>, Vec<u16>) {
        let Sink::All {
            init,
            current,
            found,
        } = self
        else {
            unreachable!("only a sink keeping all hints keeps their chains")
        };
        rule_parents_and_identity(net, &found.layout_of(hint), init, current)
    }

    /// The chains of a hint this sink kept, for `explain` (its chains must
    /// still be in `net`): read only for the hints the outer chain uses.
    pub fn chains_of(&self, net: &Net, hint: &NestedHint) -> Vec<Chain> {
        let Sink::All { found, .. } = self else {
            unreachable!("only a sink keeping all hints keeps their chains")
        };
        chains(net, &found.layout_of(hint))
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
    let mut parents: Vec<u16> = Vec::with_capacity(32);
    let mut identity: Vec<u16> = Vec::with_capacity(256);
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
            let mut chain = Vec::with_capacity(256);
            for &t in targets.iter() {
                net.chain_into(t, &mut chain);
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

/// The cells and chains of a chaining hint laid out as `layout`, of kind
/// `kind`; chains only when `with_chains` (cells are cheap).
pub(crate) fn facts(
    net: &Net,
    layout: &Layout,
    kind: ChainKind,
    with_chains: bool,
) -> (Vec<u8>, Vec<Chain>) {
    let cell = |n: u32| cell_of(net.key(n)) as u8;
    match *layout {
        Layout::Cycle(dst_on) => {
            // SE's getSelectedCells: the reversed cycle's cells from its
            // end, i.e. the forward path from the start's child to dst_on.
            let path = explain::cycle_path(net, dst_on);
            let mut cells = Vec::new();
            for &n in path[..path.len() - 1].iter().rev() {
                if !cells.contains(&cell(n)) {
                    cells.push(cell(n));
                }
            }
            let chains = if with_chains {
                self::chains(net, layout)
            } else {
                Vec::new()
            };
            (cells, chains)
        }
        Layout::Plain(targets) | Layout::Cell(targets) | Layout::Region(targets, _) => {
            let t0 = targets[0];
            let cells = match (kind, layout) {
                // `Forcing Chain: B4.1 on`, `Region Forcing Chains: 5 in
                // block ==> B4.1 on`: the target.
                (ChainKind::Forcing, _) | (_, Layout::Region(..)) => vec![cell(t0)],
                // `Cell Forcing Chains: C1 ==> I1.8 off`, `Contradiction
                // Forcing Chain: B4.1 on ==> C5.2 both on & off`, `Double
                // Forcing Chain: B4.1 on & off ==> C5.2 off`: the cell
                // assumed, then the target.
                _ => vec![cell(explain::source(net, t0)), cell(t0)],
            };
            let chains = if with_chains {
                self::chains(net, layout)
            } else {
                Vec::new()
            };
            (cells, chains)
        }
    }
}

/// The chains of a chaining hint laid out as `layout` (a cycle's forward
/// and reversed chains; else each target's chain, then the nested hints'
/// chains they use).
fn chains(net: &Net, layout: &Layout) -> Vec<Chain> {
    match *layout {
        Layout::Cycle(dst_on) => [
            explain::chain(net, dst_on),
            explain::reversed_cycle(net, dst_on),
        ]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect(),
        Layout::Plain(targets) | Layout::Cell(targets) | Layout::Region(targets, _) => {
            let mut own: Vec<Chain> = targets
                .iter()
                .map(|&t| explain::chain(net, t))
                .filter(|c| !c.is_empty())
                .collect();
            own.extend(nested_chains(net, targets));
            own
        }
    }
}

/// SE's `appendNestedChainsDetails`: the chains of the nested hints the
/// chains ending at `targets` use, each nested hint once (by SE's
/// `FullChain`), in the order met (targets in order, each chain's
/// potentials breadth-first). (A nested hint's own nested hints, from level
/// 5 on, are not listed.)
fn nested_chains(net: &Net, targets: &[u32]) -> Vec<Chain> {
    let mut out = Vec::new();
    if net.nested.is_empty() {
        return out;
    }
    let mut seen: Vec<u32> = Vec::new();
    for &t in targets {
        for n in explain::breadth_first(net, t) {
            let nested = net.nodes[n as usize].nested;
            if nested == super::net::NO_NESTED {
                continue;
            }
            let identity = &net.nested[nested as usize].identity;
            if seen
                .iter()
                .any(|&s| s == nested || net.nested[s as usize].identity == *identity)
            {
                continue;
            }
            seen.push(nested);
            out.extend(
                net.nested[nested as usize]
                    .chains
                    .iter()
                    .filter(|c| !c.is_empty())
                    .cloned(),
            );
        }
    }
    out
}
