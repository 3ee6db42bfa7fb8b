//! Forcing chains from both states of a candidate (SE's
//! `getMultipleChainsHintList`): Nishio, multiple, dynamic and nested
//! dynamic forcing chains.
//!
//! For each empty cell (row-major) with more than two candidates (two for
//! dynamic rules), for each candidate: the consequences of assuming it on
//! and off (SE's `doChaining`, below) give contradiction hints (the
//! assumption leads to a potential being both on and off) and double
//! forcing hints (both assumptions lead to the same potential); the
//! consequences of each position of the digit in a region where the cell
//! is the first position give region forcing hints; after the cell's last
//! candidate, the consequences common to all its candidates give cell
//! forcing hints.
//!
//! `doChaining` alternates between the two queues of pending potentials,
//! always taking an "on" one first. A dynamic chain removes each "off"
//! potential from its working grid once processed, so later steps see the
//! smaller grid; the candidates removed between the start and a step become
//! extra ("hidden") parents of that step. With a nesting level, whenever
//! both queues run dry, the techniques of the level below are run on the
//! working grid and their removals join the chain (SE's
//! `getAdvancedPotentials`).

use super::super::board::{bit, indices, Board, Card, CELL_REGIONS, COLUMN};
use super::super::board::{BLOCK, REGION_CELLS, REGION_MASK, ROW};
use super::net::{cell_of, is_on, key, off_to_on, on_to_off, value_of, Cause, Nested};
use super::net::{Net, OnConsequence, Work, KEYS};
use super::sink::{Layout, NestedHint, Sink};
use super::{ChainKind, Rule, Select};

/// Membership and node lookup of the two sets (on, off) of the running
/// `doChaining` at one nesting depth.
struct Tables {
    stamp: Vec<u32>,
    node: Vec<u32>,
    current: u32,
    /// Scratch of the advanced step at this depth.
    hints: HintBuf,
    parents: Vec<u32>,
    advanced: Vec<(u16, u32)>,
    /// A run's queues at this depth, kept for their capacity.
    pending: (Vec<u32>, Vec<u32>),
    /// A run's "off" consequences of one potential, likewise.
    offs: Vec<(u16, Cause)>,
}

/// The hints of a basic technique, flat: removals and rule parents, with
/// each hint's spans in them.
#[derive(Default)]
struct HintBuf {
    removals: Vec<(u8, u16)>,
    parents: Vec<u16>,
    /// Per hint: removals start..end, parents start..end.
    spans: Vec<[u32; 4]>,
}

impl HintBuf {
    fn clear(&mut self) {
        self.removals.clear();
        self.parents.clear();
        self.spans.clear();
    }

    /// Ends a hint whose removals and parents were pushed since the last
    /// one; drops it if it removes nothing.
    fn close(&mut self, removals_at: usize, parents_at: usize) {
        if self.removals.len() == removals_at {
            self.parents.truncate(parents_at);
            return;
        }
        // Removals join the chain by ascending cell (see the module doc).
        self.removals[removals_at..].sort_unstable_by_key(|&(c, _)| c);
        self.spans.push([
            removals_at as u32,
            self.removals.len() as u32,
            parents_at as u32,
            self.parents.len() as u32,
        ]);
    }
}

impl Tables {
    fn new() -> Tables {
        Tables {
            stamp: vec![0; KEYS],
            node: vec![0; KEYS],
            current: 0,
            hints: HintBuf::default(),
            parents: Vec::new(),
            advanced: Vec::new(),
            pending: (Vec::new(), Vec::new()),
            offs: Vec::new(),
        }
    }

    fn reset(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.current = 1;
        }
    }

    #[inline]
    fn get(&self, k: u16) -> Option<u32> {
        (self.stamp[k as usize] == self.current).then(|| self.node[k as usize])
    }

    #[inline]
    fn contains(&self, k: u16) -> bool {
        self.stamp[k as usize] == self.current
    }

    #[inline]
    fn insert(&mut self, k: u16, n: u32) {
        self.stamp[k as usize] = self.current;
        self.node[k as usize] = n;
    }
}

/// A set of potentials as `doChaining` left it: nodes in insertion order,
/// and membership by key.
#[derive(Clone, Default)]
struct Outcome {
    on: Vec<u32>,
    off: Vec<u32>,
    on_bits: [u64; 13],
    off_bits: [u64; 13],
}

impl Outcome {
    /// Empties the outcome, keeping its capacity.
    fn clear(&mut self) {
        self.on.clear();
        self.off.clear();
        self.on_bits = [0; 13];
        self.off_bits = [0; 13];
    }

    #[inline]
    fn has(&self, k: u16) -> bool {
        let b = (k >> 1) as usize;
        let bits = if is_on(k) {
            &self.on_bits
        } else {
            &self.off_bits
        };
        bits[b >> 6] >> (b & 63) & 1 != 0
    }

    fn get(&self, net: &Net, k: u16) -> Option<u32> {
        if !self.has(k) {
            return None;
        }
        let list = if is_on(k) { &self.on } else { &self.off };
        list.iter().copied().find(|&n| net.key(n) == k)
    }

    fn add(&mut self, k: u16, n: u32) {
        let b = (k >> 1) as usize;
        if is_on(k) {
            self.on.push(n);
            self.on_bits[b >> 6] |= 1 << (b & 63);
        } else {
            self.off.push(n);
            self.off_bits[b >> 6] |= 1 << (b & 63);
        }
    }
}

/// One `doChaining` outcome, and the contradiction that ended it, if any.
struct Run {
    out: Outcome,
    absurd: Option<(u32, u32)>,
}

/// The runs of one search, by start key.
struct Runs {
    cache: Vec<u32>,
    runs: Vec<Run>,
}

/// Buffers of the multiple-chain searches, per nesting depth.
#[derive(Default)]
pub struct Multiple {
    tables: Vec<Tables>,
    unary: super::unary::Unary,
    /// Outcomes of finished searches, reused for their capacity.
    spare_outcomes: Vec<Outcome>,
    /// Digits (candidate bits) whose assumptions a top-level Nishio search
    /// skips: they are known to give nothing (see `Chainer::forcing`).
    pub(crate) nishio_skip: u16,
}

/// One search's fixed inputs.
struct Ctx<'a> {
    rule: Rule,
    values: &'a [u8; 81],
    depth: usize,
}

impl Multiple {
    /// Runs `rule` on `board` at the top level; returns `select` with SE's
    /// choice among the hints found.
    /// `reach`: the closure of `board`'s XY graph, if at hand (used by
    /// static rules; built when needed and not given).
    pub fn search(
        &mut self,
        board: &Board,
        rule: Rule,
        net: &mut Net,
        select: Select,
        reach: Option<&super::reach::Reach>,
    ) -> Select {
        let mut sink = Sink::Best(select);
        self.search_into(board, rule, net, &mut sink, 0, reach);
        match sink {
            Sink::Best(s) => s,
            Sink::All { .. } => unreachable!(),
        }
    }

    /// SE's `getMultipleChainsHintList` at nesting depth `depth`.
    fn search_into(
        &mut self,
        board: &Board,
        rule: Rule,
        net: &mut Net,
        sink: &mut Sink,
        depth: usize,
        given: Option<&super::reach::Reach>,
    ) {
        while self.tables.len() <= depth {
            self.tables.push(Tables::new());
        }
        let ctx = Ctx {
            rule,
            values: &board.values,
            depth,
        };
        let mut work = Work::new(&board.cands);
        // `doChaining` from a given start gives the same outcome every time
        // on this grid; region chains ask for the same ones again, so each
        // is run once.
        let mut runs = Runs {
            cache: vec![u32::MAX; KEYS],
            runs: Vec::new(),
        };
        // Static chains (no candidate removed on the way) reach what the
        // implication graph reaches, or less where a contradiction stops
        // them: when the assumptions of a cell (or of a region's positions)
        // reach nothing in common in the graph, they have no cell (region)
        // forcing chain, and their searches can be skipped.
        let built;
        let reach = match (rule.dynamic, given) {
            (true, _) => None,
            (false, Some(r)) => Some(r),
            (false, None) => {
                net.meter.count(super::super::REACH_UNITS);
                built = super::reach::Reach::build(&work, !rule.nishio, true);
                Some(&built)
            }
        };
        let skip = if rule.nishio && depth == 0 {
            self.nishio_skip
        } else {
            0
        };
        for cell in 0..81 {
            let card = board.cands[cell].card();
            if board.values[cell] != 0 || !(card > 2 || (card > 1 && rule.dynamic)) {
                continue;
            }
            if board.cands[cell] & !skip == 0 {
                continue;
            }
            self.cell_hints(
                &ctx, board, &mut work, &mut runs, reach, cell, net, sink, skip,
            );
            // At every depth, so that a cut ends nested searches too.
            if net.meter.stopped() {
                break;
            }
        }
        // The runs' outcomes go back to the pool, for their capacity.
        self.spare_outcomes
            .extend(runs.runs.into_iter().map(|r| r.out));
    }

    /// The outcome of `doChaining` from `start`, run once per search.
    fn run<'r>(
        &mut self,
        ctx: &Ctx,
        work: &mut Work,
        runs: &'r mut Runs,
        start: u16,
        net: &mut Net,
    ) -> &'r Run {
        if runs.cache[start as usize] == u32::MAX {
            let (out, absurd) = self.do_chaining(ctx, work, start, net);
            runs.runs.push(Run { out, absurd });
            runs.cache[start as usize] = (runs.runs.len() - 1) as u32;
        }
        &runs.runs[runs.cache[start as usize] as usize]
    }

    /// The hints of one cell: binary and region chains per candidate, then
    /// cell chains.
    #[allow(clippy::too_many_arguments)]
    fn cell_hints(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        work: &mut Work,
        runs: &mut Runs,
        reach: Option<&super::reach::Reach>,
        cell: usize,
        net: &mut Net,
        sink: &mut Sink,
        skip: u16,
    ) {
        let rule = ctx.rule;
        let cands = board.cands[cell];
        let card = cands.card();
        let cell_chains = !rule.nishio && (card == 2 || (rule.multiple && card > 2));
        let cell_needed = cell_chains
            && reach.is_none_or(|r| {
                r.share_a_consequence(
                    super::super::board::digits(cands).map(|v| key(cell, v, true)),
                )
            });
        let do_double = card >= 3 && !rule.nishio && rule.dynamic;
        let do_contradiction = rule.dynamic || rule.nishio;
        if reach.is_some() && !do_double && !do_contradiction {
            // Static multiple chains: only cell and region chains give hints.
            for v in super::super::board::digits(cands) {
                self.regions(ctx, board, work, runs, reach, cell, v, net, sink);
            }
            if cell_needed {
                let idx: Vec<u32> = super::super::board::digits(cands)
                    .map(|v| {
                        self.run(ctx, work, runs, key(cell, v, true), net);
                        runs.cache[key(cell, v, true) as usize]
                    })
                    .collect();
                let outcomes: Vec<&Outcome> =
                    idx.iter().map(|&i| &runs.runs[i as usize].out).collect();
                self.reductions(ctx, board, &outcomes, None, net, sink);
            }
            return;
        }
        let mut per_value: Vec<u32> = Vec::with_capacity(card as usize);
        // Only Nishio skips digits, and it has no cell chains.
        for v in super::super::board::digits(cands & !skip) {
            self.binary(
                ctx,
                board,
                work,
                runs,
                cell,
                v,
                net,
                sink,
                do_double,
                do_contradiction,
            );
            if !rule.nishio {
                self.regions(ctx, board, work, runs, reach, cell, v, net, sink);
            }
            per_value.push(runs.cache[key(cell, v, true) as usize]);
        }
        if cell_chains {
            let outcomes: Vec<&Outcome> = per_value
                .iter()
                .map(|&i| &runs.runs[i as usize].out)
                .collect();
            self.reductions(ctx, board, &outcomes, None, net, sink);
        }
    }

    /// The flat complexity of chains ending at `targets`, or `None` when a
    /// hint with it cannot replace the best one (checked on the depth
    /// bound first, which is exact for static chains).
    fn flat(
        &self,
        ctx: &Ctx,
        targets: &[u32],
        sort_key: u8,
        net: &mut Net,
        sink: &Sink,
    ) -> Option<u32> {
        let bound: u32 = targets.iter().map(|&t| net.depth(t) + 1).sum();
        if !sink.can_improve(ctx.rule.base_difficulty(), bound, sort_key) {
            return None;
        }
        if !ctx.rule.dynamic && ctx.rule.level == 0 {
            return Some(bound); // one parent per node: depth + 1 is exact
        }
        let flat: u32 = targets.iter().map(|&t| net.ancestor_count(t)).sum();
        sink.can_improve(ctx.rule.base_difficulty(), flat, sort_key)
            .then_some(flat)
    }

    /// SE's `doBinaryChaining` for (`cell`, `v`): contradiction and double
    /// forcing hints. The "on" outcome is left in `runs` for region and
    /// cell chains.
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        work: &mut Work,
        runs: &mut Runs,
        cell: usize,
        v: u8,
        net: &mut Net,
        sink: &mut Sink,
        do_double: bool,
        do_contradiction: bool,
    ) {
        let rule = ctx.rule;
        let base = rule.base_difficulty();
        let on_key = key(cell, v, true);
        let absurd_on = self.run(ctx, work, runs, on_key, net).absurd;
        if do_contradiction {
            if let Some((a_on, a_off)) = absurd_on {
                if let Some(flat) = self.flat(ctx, &[a_on, a_off], 7, net, sink) {
                    let mut removable = [0u16; 81];
                    removable[cell] = bit(v);
                    let targets = [a_on, a_off];
                    sink.offer(
                        net,
                        base,
                        flat,
                        7,
                        Layout::Plain(&targets),
                        &removable,
                        None,
                        ChainKind::Binary,
                        || binary_name(rule, true),
                    );
                }
            }
        }
        if !do_contradiction && !do_double {
            return; // SE runs the "off" assumption too, and uses nothing of it
        }
        let off_run = self.run(ctx, work, runs, key(cell, v, false), net);
        let absurd_off = off_run.absurd;
        if do_contradiction {
            if let Some((a_on, a_off)) = absurd_off {
                let mut removable = [0u16; 81];
                removable[cell] = board.cands[cell] & !bit(v);
                if removable[cell] != 0 {
                    if let Some(flat) = self.flat(ctx, &[a_on, a_off], 7, net, sink) {
                        let targets = [a_on, a_off];
                        sink.offer(
                            net,
                            base,
                            flat,
                            7,
                            Layout::Plain(&targets),
                            &removable,
                            Some((cell, v)),
                            ChainKind::Binary,
                            || binary_name(rule, true),
                        );
                    }
                }
            }
        }
        if !do_double {
            return;
        }
        let on_idx = runs.cache[on_key as usize] as usize;
        let off_idx = runs.cache[(on_key ^ 1) as usize] as usize;
        for on in [true, false] {
            let n = if on {
                runs.runs[on_idx].out.on.len()
            } else {
                runs.runs[on_idx].out.off.len()
            };
            for i in 0..n {
                let (on_out, off_out) = (&runs.runs[on_idx].out, &runs.runs[off_idx].out);
                let from_on = if on { on_out.on[i] } else { on_out.off[i] };
                let k = net.key(from_on);
                let Some(from_off) = off_out.get(net, k) else {
                    continue;
                };
                let (c, value) = (cell_of(k), value_of(k));
                let mut removable = [0u16; 81];
                let placement = if on {
                    removable[c] = board.cands[c] & !bit(value);
                    if removable[c] == 0 {
                        continue;
                    }
                    Some((c, value))
                } else {
                    removable[c] = bit(value);
                    None
                };
                let targets = [from_on, from_off];
                let Some(flat) = self.flat(ctx, &targets, 1, net, sink) else {
                    continue;
                };
                sink.offer(
                    net,
                    base,
                    flat,
                    1,
                    Layout::Plain(&targets),
                    &removable,
                    placement,
                    ChainKind::Binary,
                    || binary_name(rule, false),
                );
            }
        }
    }

    /// SE's `doRegionChainings` for (`cell`, `v`).
    #[allow(clippy::too_many_arguments)]
    fn regions(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        work: &mut Work,
        runs: &mut Runs,
        reach: Option<&super::reach::Reach>,
        cell: usize,
        v: u8,
        net: &mut Net,
        sink: &mut Sink,
    ) {
        let rule = ctx.rule;
        for ty in [BLOCK, ROW, COLUMN] {
            let r = CELL_REGIONS[cell][ty] as usize;
            let pos = work.in_region(r, v);
            let card = pos.count_ones();
            if !(card == 2 || (rule.multiple && card > 2)) {
                continue;
            }
            if pos.trailing_zeros() as usize != cell {
                continue;
            }
            let positions = || {
                let mut m = pos;
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let c = m.trailing_zeros() as usize;
                        m &= m - 1;
                        key(c, v, true)
                    })
                })
            };
            if reach.is_some_and(|r| !r.share_a_consequence(positions())) {
                continue; // no region chain here (see search_into)
            }
            let mut idx: Vec<u32> = Vec::with_capacity(card as usize);
            let mut m = pos;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                self.run(ctx, work, runs, key(c, v, true), net);
                idx.push(runs.cache[key(c, v, true) as usize]);
            }
            let outcomes: Vec<&Outcome> = idx.iter().map(|&i| &runs.runs[i as usize].out).collect();
            self.reductions(ctx, board, &outcomes, Some(ty), net, sink);
        }
    }

    /// Cell (`region` `None`) or region forcing hints: the potentials every
    /// one of `outcomes` (one per candidate of the cell, or per position of
    /// the digit in the region) reaches, in the first outcome's order.
    fn reductions(
        &mut self,
        ctx: &Ctx,
        board: &Board,
        outcomes: &[&Outcome],
        region: Option<usize>,
        net: &mut Net,
        sink: &mut Sink,
    ) {
        let rule = ctx.rule;
        let sort_key = if region.is_some() { 6 } else { 5 };
        for on in [true, false] {
            let first = if on {
                &outcomes[0].on
            } else {
                &outcomes[0].off
            };
            for &n in first.iter() {
                let k = net.key(n);
                if !outcomes[1..].iter().all(|o| o.has(k)) {
                    continue;
                }
                let (c, value) = (cell_of(k), value_of(k));
                let mut removable = [0u16; 81];
                let placement = if on {
                    removable[c] = board.cands[c] & !bit(value);
                    if removable[c] == 0 {
                        continue;
                    }
                    Some((c, value))
                } else {
                    removable[c] = bit(value);
                    None
                };
                let targets: Vec<u32> = outcomes.iter().map(|o| o.get(net, k).unwrap()).collect();
                let Some(flat) = self.flat(ctx, &targets, sort_key, net, sink) else {
                    continue;
                };
                let (layout, kind, what) = match region {
                    Some(ty) => (
                        Layout::Region(&targets, ty),
                        ChainKind::Region,
                        "Region Forcing",
                    ),
                    None => (Layout::Cell(&targets), ChainKind::Cell, "Cell Forcing"),
                };
                let name = || format!("{}{what}{}", rule.name_prefix(), rule.name_suffix());
                sink.offer(
                    net,
                    rule.base_difficulty(),
                    flat,
                    sort_key,
                    layout,
                    &removable,
                    placement,
                    kind,
                    name,
                );
            }
        }
    }

    /// SE's `doChaining`: all consequences of assuming `start`, until a
    /// potential would be both on and off (returned as the pair) or nothing
    /// more follows. `work` is left as it was.
    fn do_chaining(
        &mut self,
        ctx: &Ctx,
        work: &mut Work,
        start: u16,
        net: &mut Net,
    ) -> (Outcome, Option<(u32, u32)>) {
        let rule = ctx.rule;
        let source = work.clone();
        let depth = ctx.depth;
        self.tables[depth].reset();
        let mut out = self.spare_outcomes.pop().unwrap_or_default();
        out.clear();
        let first = net.push(start, Cause::None, &[]);
        self.tables[depth].insert(start, first);
        out.add(start, first);
        let (mut pending_on, mut pending_off) = std::mem::take(&mut self.tables[depth].pending);
        pending_on.clear();
        pending_off.clear();
        if is_on(start) {
            pending_on.push(first);
        } else {
            pending_off.push(first);
        }
        let (mut head_on, mut head_off) = (0, 0);
        let y = !rule.nishio;
        let mut offs = std::mem::take(&mut self.tables[depth].offs);
        let mut ons = [OnConsequence {
            key: 0,
            cause: Cause::None,
            hidden_digits: 0,
            hidden_cells: 0,
        }; 4];
        let mut absurd = None;
        'run: while head_on < pending_on.len() || head_off < pending_off.len() {
            if head_on < pending_on.len() {
                let p = pending_on[head_on];
                head_on += 1;
                let pk = net.key(p);
                offs.clear();
                on_to_off(work, cell_of(pk), value_of(pk), y, |k, c| offs.push((k, c)));
                for &(k, cause) in &offs {
                    let tables = &mut self.tables[depth];
                    if let Some(conj) = tables.get(k | 1) {
                        absurd = Some((conj, net.push(k, cause, &[p])));
                        break 'run;
                    } else if !tables.contains(k) {
                        let n = net.push(k, cause, &[p]);
                        tables.insert(k, n);
                        out.add(k, n);
                        pending_off.push(n);
                    }
                }
            } else {
                let p = pending_off[head_off];
                head_off += 1;
                let pk = net.key(p);
                let (cell, value) = (cell_of(pk), value_of(pk));
                let count = off_to_on(work, &source, cell, value, y, true, &mut ons);
                if rule.dynamic {
                    work.off(cell, value);
                }
                for on in &ons[..count] {
                    let n = self.on_node(depth, on, p, net);
                    let tables = &mut self.tables[depth];
                    if let Some(conj) = tables.get(on.key & !1) {
                        absurd = Some((n, conj));
                        break 'run;
                    } else if !tables.contains(on.key) {
                        tables.insert(on.key, n);
                        out.add(on.key, n);
                        pending_on.push(n);
                    } else {
                        net.truncate(n as usize);
                    }
                }
            }
            if head_on == pending_on.len() && head_off == pending_off.len() && rule.level > 0 {
                self.advanced(ctx, work, &source, net);
                let tables = &mut self.tables[depth];
                for i in 0..tables.advanced.len() {
                    let (k, n) = tables.advanced[i];
                    if !tables.contains(k) {
                        tables.insert(k, n);
                        out.add(k, n);
                        pending_off.push(n);
                    }
                }
            }
        }
        *work = source;
        self.tables[depth].pending = (pending_on, pending_off);
        self.tables[depth].offs = offs;
        (out, absurd)
    }

    /// The node of an "on" consequence of off node `p`: parents `p` and the
    /// hidden parents (SE's `addHiddenParentsOfCell` / `OfRegion`).
    fn on_node(&self, depth: usize, on: &OnConsequence, p: u32, net: &mut Net) -> u32 {
        let tables = &self.tables[depth];
        let mut parents: [u32; 12] = [p; 12];
        let mut n = 1;
        let k = on.key;
        if on.hidden_digits != 0 {
            let cell = cell_of(k);
            for v in super::super::board::digits(on.hidden_digits) {
                if let Some(h) = tables.get(key(cell, v, false)) {
                    parents[n] = h;
                    n += 1;
                }
            }
        } else {
            let value = value_of(k);
            let mut m = on.hidden_cells;
            while m != 0 {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(h) = tables.get(key(c, value, false)) {
                    parents[n] = h;
                    n += 1;
                }
            }
        }
        net.push(k, on.cause, &parents[..n])
    }

    /// SE's `getAdvancedPotentials`: the removals of the first technique of
    /// the level below that finds some needing the chain's removals, as
    /// new off nodes `(key, node)`.
    fn advanced(&mut self, ctx: &Ctx, work: &Work, source: &Work, net: &mut Net) {
        net.meter.count(super::super::ADVANCED_UNITS);
        let grid = Board::from_parts(*ctx.values, work.cands);
        let level = ctx.rule.level;
        let mut rules = [
            Advanced::Locking,
            Advanced::HiddenPair,
            Advanced::NakedPair,
            Advanced::XWing,
            Advanced::XWing,
            Advanced::XWing,
        ];
        let mut count = 4;
        if level < 4 {
            if level >= 2 {
                rules[count] = Advanced::Chains(None);
                count += 1;
            }
            if level >= 3 {
                rules[count] = Advanced::Chains(Some(Rule::MULTIPLE));
                count += 1;
            }
        } else {
            rules[count] = Advanced::Chains(Some(Rule::dynamic(0)));
            count += 1;
            if level >= 5 {
                rules[count] = Advanced::Chains(Some(Rule::dynamic(level - 3)));
                count += 1;
            }
        }
        let depth = ctx.depth;
        self.tables[depth].advanced.clear();
        for &adv in &rules[..count] {
            match adv {
                Advanced::Chains(rule) => {
                    let hints = self.nested_chains(rule, &grid, &source.cands, net, depth + 1);
                    for h in hints {
                        if h.rule_parents.is_empty() {
                            continue;
                        }
                        net.nested.push(Nested {
                            complexity: h.complexity,
                            identity: h.identity,
                        });
                        let nested = (net.nested.len() - 1) as u32;
                        self.push_advanced(depth, &h.rule_parents, &h.removable, nested, net);
                    }
                }
                basic => {
                    let mut buf = std::mem::take(&mut self.tables[depth].hints);
                    buf.clear();
                    basic_hints(basic, &grid, &source.cands, &mut buf);
                    for span in &buf.spans {
                        let parents = &buf.parents[span[2] as usize..span[3] as usize];
                        if parents.is_empty() {
                            continue;
                        }
                        let removals = &buf.removals[span[0] as usize..span[1] as usize];
                        self.push_advanced(depth, parents, removals, super::net::NO_NESTED, net);
                    }
                    self.tables[depth].hints = buf;
                }
            }
            if !self.tables[depth].advanced.is_empty() {
                return;
            }
        }
    }

    /// The off nodes of one advanced hint's removals, each with the hint's
    /// rule parents (as nodes of the running chain) as parents.
    fn push_advanced(
        &mut self,
        depth: usize,
        rule_parents: &[u16],
        removals: &[(u8, u16)],
        nested: u32,
        net: &mut Net,
    ) {
        let tables = &mut self.tables[depth];
        tables.parents.clear();
        for &k in rule_parents {
            if let Some(n) = tables.get(k) {
                tables.parents.push(n);
            }
        }
        for &(cell, mask) in removals {
            for v in super::super::board::digits(mask) {
                let k = key(cell as usize, v, false);
                let n = net.push(k, Cause::Advanced, &tables.parents);
                net.nodes[n as usize].nested = nested;
                tables.advanced.push((k, n));
            }
        }
    }

    /// All hints of a nested chaining rule (`None`: cycles and forcing
    /// chains) on `grid`, sorted and deduplicated as SE's `Chaining.getHints`
    /// hands them out.
    fn nested_chains(
        &mut self,
        rule: Option<Rule>,
        grid: &Board,
        init: &[u16; 81],
        net: &mut Net,
        depth: usize,
    ) -> Vec<NestedHint> {
        let mut sink = Sink::All {
            init: Box::new(*init),
            current: Box::new(grid.cands),
            hints: Vec::new(),
        };
        let (mark, nested_mark) = (net.nodes.len(), net.nested.len());
        match rule {
            None => super::unary::search_into(grid, net, &mut self.unary, &mut sink, None, None),
            Some(rule) => self.search_into(grid, rule, net, &mut sink, depth, None),
        }
        net.truncate(mark);
        net.nested.truncate(nested_mark);
        let Sink::All { mut hints, .. } = sink else {
            unreachable!()
        };
        // Stable sort by (difficulty, complexity, sort key), then drop hints
        // whose removals equal an earlier one's (SE's LinkedHashSet).
        hints.sort_by(|a, b| {
            a.difficulty
                .partial_cmp(&b.difficulty)
                .unwrap()
                .then(a.complexity.cmp(&b.complexity))
                .then(a.sort_key.cmp(&b.sort_key))
        });
        let mut kept: Vec<NestedHint> = Vec::with_capacity(hints.len());
        for h in hints {
            if !kept.iter().any(|k| k.removable == h.removable) {
                kept.push(h);
            }
        }
        kept
    }
}

/// The techniques a nested chain may use.
#[derive(Clone, Copy)]
enum Advanced {
    Locking,
    HiddenPair,
    NakedPair,
    XWing,
    Chains(Option<Rule>),
}

/// SE's name of a binary chaining hint.
fn binary_name(rule: Rule, absurd: bool) -> String {
    let what = if rule.nishio {
        "Forcing"
    } else if absurd {
        "Contradiction Forcing"
    } else {
        "Double Forcing"
    };
    format!("{}{}{}", rule.name_prefix(), what, rule.name_suffix())
}

/// All hints of a basic technique on `grid`, in SE's order, with their
/// rule parents against `init`, into `out` (hints that remove nothing are
/// left out, as SE's `isWorth` does).
fn basic_hints(which: Advanced, grid: &Board, init: &[u16; 81], out: &mut HintBuf) {
    match which {
        Advanced::Locking => {
            for (t1, t2) in [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)] {
                for i1 in 0..9 {
                    for i2 in 0..9 {
                        let (r1, r2) = (t1 * 9 + i1, t2 * 9 + i2);
                        if REGION_MASK[r1] & REGION_MASK[r2] == 0 {
                            continue;
                        }
                        for v in 1..=9u8 {
                            let pos = grid.positions(r1, v);
                            if pos.card() <= 1
                                || pos & !super::super::intersections::INSIDE[r1][r2] != 0
                            {
                                continue;
                            }
                            let (ra, pa) = (out.removals.len(), out.parents.len());
                            for &c in &REGION_CELLS[r2] {
                                let c = c as usize;
                                if REGION_MASK[r1] >> c & 1 == 0 && grid.cands[c] & bit(v) != 0 {
                                    out.removals.push((c as u8, bit(v)));
                                }
                            }
                            for &c in &REGION_CELLS[r1] {
                                let c = c as usize;
                                if init[c] & bit(v) != 0
                                    && grid.cands[c] & bit(v) == 0
                                    && REGION_MASK[r2] >> c & 1 == 0
                                {
                                    out.parents.push(key(c, v, false));
                                }
                            }
                            out.close(ra, pa);
                        }
                    }
                }
            }
        }
        Advanced::HiddenPair => {
            for ty in [BLOCK, COLUMN, ROW] {
                for i in 0..9 {
                    let r = ty * 9 + i;
                    if grid.empty_count(r) <= 4 {
                        continue;
                    }
                    let cells = &REGION_CELLS[r];
                    // SE's combination order for pairs: by second, then first.
                    for (a, b) in (2..=9u8).flat_map(|b| (1..b).map(move |a| (a, b))) {
                        let (pa_, pb_) = (grid.positions(r, a), grid.positions(r, b));
                        if pa_.card() != 2 || pb_ != pa_ {
                            continue; // two digits on the same two cells, or no pair
                        }
                        let common = pa_;
                        let value_set = bit(a) | bit(b);
                        let (ra, pa) = (out.removals.len(), out.parents.len());
                        for k in indices(common) {
                            let c = cells[k] as usize;
                            let m = grid.cands[c] & !value_set;
                            if m != 0 {
                                out.removals.push((c as u8, m));
                            }
                        }
                        for k in (0..9).filter(|k| common >> k & 1 == 0) {
                            let c = cells[k] as usize;
                            for v in [a, b] {
                                if init[c] & bit(v) != 0 {
                                    out.parents.push(key(c, v, false));
                                }
                            }
                        }
                        out.close(ra, pa);
                    }
                }
            }
        }
        Advanced::NakedPair => {
            for ty in [BLOCK, COLUMN, ROW] {
                for i in 0..9 {
                    let r = ty * 9 + i;
                    if grid.empty_count(r) < 4 {
                        continue;
                    }
                    let cells = &REGION_CELLS[r];
                    for (ka, kb) in (1..9usize).flat_map(|b| (0..b).map(move |a| (a, b))) {
                        let (ca, cb) = (cells[ka] as usize, cells[kb] as usize);
                        if grid.cands[ca].card() != 2 || grid.cands[cb] != grid.cands[ca] {
                            continue;
                        }
                        let values = grid.cands[ca];
                        let combo = (1u64 << ka) | (1u64 << kb);
                        let (ra, pa) = (out.removals.len(), out.parents.len());
                        for k in (0..9).filter(|k| combo >> k & 1 == 0) {
                            let c = cells[k] as usize;
                            let m = grid.cands[c] & values;
                            if m != 0 {
                                out.removals.push((c as u8, m));
                            }
                        }
                        for c in [ca, cb] {
                            for v in super::super::board::digits(init[c] & !values) {
                                out.parents.push(key(c, v, false));
                            }
                        }
                        out.close(ra, pa);
                    }
                }
            }
        }
        Advanced::XWing => {
            let mut occurrences = [0u32; 10];
            for v in 1..=9u8 {
                occurrences[v as usize] = grid.occurrences(v);
            }
            for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
                for (la, lb) in (1..9usize).flat_map(|b| (0..b).map(move |a| (a, b))) {
                    let combo = (1u64 << la) | (1u64 << lb);
                    for v in 1..=9u8 {
                        if occurrences[v as usize] + 4 > 9 {
                            continue;
                        }
                        let (sa, sb) = (
                            grid.positions(base * 9 + la, v),
                            grid.positions(base * 9 + lb, v),
                        );
                        if sa.card() != 2 || sb != sa {
                            continue;
                        }
                        let covers = sa;
                        let (ra, pa) = (out.removals.len(), out.parents.len());
                        let mut cover_cells = 0u128;
                        for i in indices(covers) {
                            cover_cells |= REGION_MASK[cover * 9 + i];
                            let line = &REGION_CELLS[cover * 9 + i];
                            for j in indices(grid.positions(cover * 9 + i, v) & !(combo as u16)) {
                                out.removals.push((line[j], bit(v)));
                            }
                        }
                        for k in [la, lb] {
                            for &c in &REGION_CELLS[base * 9 + k] {
                                let c = c as usize;
                                if init[c] & bit(v) != 0
                                    && grid.cands[c] & bit(v) == 0
                                    && cover_cells >> c & 1 == 0
                                {
                                    out.parents.push(key(c, v, false));
                                }
                            }
                        }
                        out.close(ra, pa);
                    }
                }
            }
        }
        Advanced::Chains(_) => {
            unreachable!("chaining rules are searched by Multiple::nested_chains")
        }
    }
}
