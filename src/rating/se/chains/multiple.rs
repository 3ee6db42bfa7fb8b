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

use super::super::board::{bit, indices, Board, Card, CELL_BIT, CELL_REGIONS, COLUMN, PEER_MASK};
use super::super::board::{BLOCK, REGION_CELLS, REGION_MASK, ROW};
use super::net::{cell_of, is_on, key, off_to_on, off_to_on_then_off, on_to_off_into, value_of};
use super::net::{Cause, Nested};
use super::net::{Net, OnConsequence, Work, KEYS, MAX_OFFS};
use super::reach::Shares;
use super::sink::{Layout, Sink};
use super::{ChainKind, Rule, Select};

/// Scratch of the running `doChaining` at one nesting depth.
struct Tables {
    /// The run's outcome while its advanced step runs (the rule parents
    /// of the hints found are its nodes).
    current: Option<Outcome>,
    /// Scratch of the advanced step at this depth.
    hints: HintBuf,
    parents: Vec<u32>,
    advanced: Vec<(u16, u32)>,
    /// The runs of the search at this depth (kept for their capacity
    /// between searches).
    runs: Runs,
    /// The off keys the advanced step under way gave the chain, a bit
    /// per key (see [`Multiple::push_advanced`]).
    provided: [u64; KEYS.div_ceil(64)],
}

/// The hints of a basic technique, flat: removals and rule parents, with
/// each hint's spans in them.
#[derive(Default)]
struct HintBuf {
    removals: Vec<(u8, u16)>,
    parents: Vec<u16>,
    /// Per hint: removals start..end, parents start..end, and the
    /// technique ([`super::net::Node::rule`]).
    spans: Vec<[u32; 5]>,
    /// The technique of the hints closed next.
    rule: u32,
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
            self.rule,
        ]);
    }
}

impl Tables {
    fn new() -> Tables {
        Tables {
            current: None,
            hints: HintBuf::default(),
            parents: Vec::new(),
            advanced: Vec::new(),
            provided: [0; KEYS.div_ceil(64)],
            runs: Runs::default(),
        }
    }

    /// The node of potential `k` in the run under way, if it has one.
    #[inline]
    fn get(&self, k: u16) -> Option<u32> {
        self.current.as_ref().and_then(|o| o.get(k))
    }

    #[inline]
    fn is_provided(&self, k: u16) -> bool {
        self.provided[k as usize / 64] >> (k % 64) & 1 != 0
    }

    #[inline]
    fn provide(&mut self, k: u16) {
        self.provided[k as usize / 64] |= 1 << (k % 64);
    }
}

/// A set of potentials as `doChaining` left it: nodes in insertion order
/// (while the run goes, its two queues), membership by key, and the node
/// of each potential.
#[derive(Clone)]
struct Outcome {
    on: Vec<u32>,
    off: Vec<u32>,
    /// Membership, a bit per key (boxed, so that moving an outcome, as
    /// a run does around its advanced steps, copies a pointer, not 208
    /// bytes through a `memcpy` call).
    bits: Box<[u64; KEYS.div_ceil(64)]>,
    /// Per key: its node (valid where its bit is set).
    node: Vec<u32>,
}

impl Default for Outcome {
    fn default() -> Self {
        Outcome {
            on: Vec::new(),
            off: Vec::new(),
            bits: Box::new([0; KEYS.div_ceil(64)]),
            node: vec![0; KEYS],
        }
    }
}

impl Outcome {
    /// Empties the outcome, keeping its capacity.
    fn clear(&mut self) {
        self.on.clear();
        self.off.clear();
        *self.bits = [0; KEYS.div_ceil(64)];
    }

    #[inline]
    fn has(&self, k: u16) -> bool {
        self.bits[k as usize / 64] >> (k % 64) & 1 != 0
    }

    /// The node of potential `k`, if the outcome has it.
    #[inline]
    fn get(&self, k: u16) -> Option<u32> {
        if !self.has(k) {
            return None;
        }
        Some(self.node[k as usize])
    }

    /// The potentials every one of `outcomes` (one or more) has, as a
    /// bit per key, and how many they are.
    #[inline]
    fn common(outcomes: &[&Outcome]) -> ([u64; KEYS.div_ceil(64)], u32) {
        let mut common = *outcomes[0].bits;
        for o in &outcomes[1..] {
            for (c, b) in common.iter_mut().zip(o.bits.iter()) {
                *c &= b;
            }
        }
        // (Most words are empty; without a popcount instruction, counting
        // costs a dozen instructions a word.)
        let count = common
            .iter()
            .filter(|&&w| w != 0)
            .map(|w| w.count_ones())
            .sum();
        (common, count)
    }

    /// Whether the outcome has "off" potential `k`, and its "on" twin
    /// `k | 1`: two neighbouring bits of one word.
    #[inline]
    fn has_both(&self, k: u16) -> (bool, bool) {
        debug_assert!(!is_on(k));
        let two = self.bits[k as usize / 64] >> (k % 64);
        (two & 1 != 0, two & 2 != 0)
    }

    /// [`Outcome::add`] of an "off" potential.
    #[inline]
    fn add_off(&mut self, k: u16, n: u32) {
        debug_assert!(!is_on(k));
        self.off.push(n);
        self.node[k as usize] = n;
        self.bits[k as usize / 64] |= 1 << (k % 64);
    }

    /// Adds potential `k` (not in the outcome) with node `n`.
    #[inline]
    fn add(&mut self, k: u16, n: u32) {
        let list = if is_on(k) {
            &mut self.on
        } else {
            &mut self.off
        };
        list.push(n);
        self.node[k as usize] = n;
        self.bits[k as usize / 64] |= 1 << (k % 64);
    }
}

/// One `doChaining` outcome, and the contradiction that ended it, if any.
struct Run {
    out: Outcome,
    absurd: Option<(u32, u32)>,
}

/// The runs of one search, by start key.
#[derive(Default)]
struct Runs {
    cache: Vec<u32>,
    runs: Vec<Run>,
}

impl Runs {
    /// The outcomes of runs `idx` (at most 9: one per candidate of a cell
    /// or position of a digit in a region), first `idx.len()` in order.
    fn outcomes(&self, idx: &[u32]) -> [&Outcome; 9] {
        let first = &self.runs[idx[0] as usize].out;
        let mut out = [first; 9];
        for (o, &i) in out.iter_mut().zip(idx) {
            *o = &self.runs[i as usize].out;
        }
        out
    }
}

/// Whether a Nishio run (SE's `doChaining` with `isNishio`: one digit's
/// potentials only) can meet a contradiction, from the assumption that the
/// digit is placed in the cells of `on` and absent from those of `off`
/// (81-bit sets; one cell in all), where `cells` (81-bit set) holds the
/// digit's candidates on the searched grid. `false` proves that the run
/// finds none, so that it need not be made.
///
/// The run's rules: a placed cell ("on") removes the digit from its peers
/// ("off"), and a region left with one position of the digit (on the grid
/// the run has updated) places it there. This propagates both rules as far
/// as they go on whole sets at once: every potential the run derives lies
/// in the sets found here (by induction on the run's steps: where the run
/// finds a region with one position left, this finds that one or none).
/// The run meets a contradiction (a potential both on and off) only in a
/// region whose positions are then all removed: two cells placed in one
/// region remove every position of it, and a region the run empties one
/// position at a time has its last one placed and then removed. So where
/// no region that held the digit is left without a position here, the run
/// meets none.
fn nishio_may_contradict(cells: u128, mut on: u128, mut off: u128) -> bool {
    let mut spread = 0u128; // the "on" cells whose peers are removed
    loop {
        let mut fresh = on & !spread;
        while fresh != 0 {
            let c = fresh.trailing_zeros() as usize;
            fresh &= fresh - 1;
            off |= PEER_MASK[c] & cells;
        }
        spread = on;
        let left = cells & !off;
        for mask in REGION_MASK {
            let had = mask & cells;
            let has = had & left;
            if has == 0 {
                if had != 0 {
                    return true;
                }
            } else if has & (has - 1) == 0 {
                on |= has;
            }
        }
        if on == spread {
            return false;
        }
    }
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
    /// A nested search's hints, kept for their capacity.
    found_pool: super::sink::Found,
    /// What nested searches gave their outer chains, by search (see
    /// [`NestedMemo`]).
    memo: NestedMemo,
}

/// What one nested search ([`Multiple::nested_chains`]) gave the outer
/// chain: whether some hint had rule parents (the look ends there), and the
/// hints that gave it potentials, in order.
struct NestedGift {
    any: bool,
    used: Vec<UsedHint>,
}

/// A nested hint that gave an outer chain potentials: its complexity and
/// `FullChain` identity (the outer node's [`Nested`]), its rule parents (off
/// keys of the outer chain) and its removals; its name and chains when the
/// net explains ([`Net::explain`]), else empty.
struct UsedHint {
    complexity: u32,
    flat: u32,
    identity: Vec<u16>,
    parents: Vec<u16>,
    removals: Vec<(u8, u16)>,
    name: String,
    chains: Vec<crate::rating::se::explain::chain::Chain>,
}

/// The nested searches' gifts, by what decides them: the nested rule, the
/// outer chain's grid at its start (rule parents are the candidates it had
/// and the searched grid lacks) and the searched grid; the placed values
/// are those of the top-level board, the same in every search of one board
/// ([`NestedMemo::board`]), on which the memo is kept.
///
/// SE's dynamic chains run the nested rule whenever their queues run dry,
/// and chains run dry on the same grids again: an assumption and its
/// equivalents (the two candidates of a bivalue cell) reach the same
/// closure, and the producers of levels 2 and 3 both nest cycles and
/// forcing chains in the same runs. On hardest_1106's record 55 (ER 11.6),
/// 6,726 of the 13,767 nested cycle searches and 1,037 of the 11,069 nested
/// multiple forcing chain searches were on grids searched before on the
/// same board.
#[derive(Default)]
struct NestedMemo {
    /// The top-level board (values, candidates) the gifts were found on.
    board: Option<([u8; 81], [u16; 81])>,
    gifts: std::collections::HashMap<NestedKey, std::rc::Rc<NestedGift>>,
    /// The closures' answers for static multiple chains ([`Shares`]) on the
    /// grids where level 2 ran nested cycle searches, by grid (candidates).
    /// Level 3 runs nested cycle searches and then nested multiple chains
    /// on the same grids: the first are mostly level 2's again (gifts),
    /// and the second would otherwise build each closure again (on
    /// hardest_1106's record 109, 7,602 of level 3's 8,969 closures).
    shares: std::collections::HashMap<[u16; 81], Shares>,
}

/// (rule: 0 for cycles and forcing chains, else 1 + level, +16 when
/// dynamic; the outer chain's starting candidates; the searched grid's).
type NestedKey = (u8, [u16; 81], [u16; 81]);

/// Gifts kept per board at most; beyond, the memo starts again (about 30
/// MB at the largest, on the hardest puzzles known).
const NESTED_MEMO_MAX: usize = 20_000;

impl NestedMemo {
    /// Forgets the gifts of another board than (`values`, `cands`).
    fn keep_for(&mut self, values: &[u8; 81], cands: &[u16; 81]) {
        if self
            .board
            .as_ref()
            .is_none_or(|(v, c)| v != values || c != cands)
        {
            self.gifts.clear();
            self.shares.clear();
            self.board = Some((*values, *cands));
        }
    }
}

/// One search's fixed inputs.
struct Ctx<'a> {
    rule: Rule,
    values: &'a [u8; 81],
    depth: usize,
    /// The searched grid: where every run starts.
    source: &'a Work,
    /// Empty cells per region and placed digits per value, of `values`
    /// (what the basic techniques of an advanced step read besides the
    /// candidates, [`Board::empty_count`] and [`Board::occurrences`]).
    empty: [u8; 27],
    placed: [u8; 10],
}

impl Multiple {
    /// Forgets what the searches kept of earlier boards (see
    /// [`super::Chainer::forget`]).
    pub fn forget(&mut self) {
        self.memo = NestedMemo::default();
    }

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
        self.memo.keep_for(&board.values, &board.cands);
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
        let source = Work::of_board(board);
        let mut work = source.clone();
        let ctx = Ctx {
            rule,
            values: &board.values,
            depth,
            source: &source,
            empty: std::array::from_fn(|r| board.empty_count(r) as u8),
            placed: std::array::from_fn(|v| board.occurrences(v as u8) as u8),
        };
        // `doChaining` from a given start gives the same outcome every time
        // on this grid; region chains ask for the same ones again, so each
        // is run once.
        let mut runs = std::mem::take(&mut self.tables[depth].runs);
        runs.cache.clear();
        runs.cache.resize(KEYS, u32::MAX);
        // Static chains (no candidate removed on the way) reach what the
        // implication graph reaches, or less where a contradiction stops
        // them: when the assumptions of a cell (or of a region's positions)
        // reach nothing in common in the graph, they have no cell (region)
        // forcing chain, and their searches can be skipped. The answers
        // ([`Shares`]) come from the closure given, else from what level 2
        // kept for this grid, else from the closure of both link kinds that
        // nested cycle searches on this grid take (static rules are never
        // Nishio's).
        let shares = match (rule.dynamic, given) {
            (true, _) => None,
            (false, Some(r)) => Some(Shares::of(r, &source)),
            (false, None) => Some(match self.memo.shares.get(&board.cands) {
                Some(&s) => s,
                None => {
                    debug_assert!(!rule.nishio && rule.level == 0);
                    let reach = self.unary.take_reach(&source, &mut net.meter);
                    let s = Shares::of(&reach, &source);
                    self.unary.put_reach(&source, reach);
                    s
                }
            }),
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
                &ctx,
                board,
                &mut work,
                &mut runs,
                shares.as_ref(),
                cell,
                net,
                sink,
                skip,
            );
            // At every depth, so that a cut ends nested searches too.
            if net.meter.stopped() {
                break;
            }
        }
        // The runs' outcomes go back to the pool, for their capacity.
        self.spare_outcomes
            .extend(runs.runs.drain(..).map(|r| r.out));
        self.tables[depth].runs = runs;
    }

    /// The outcome of `doChaining` from `start`, run once per search.
    fn run<'r>(
        &mut self,
        ctx: &Ctx,
        work: &mut Work,
        runs: &'r mut Runs,
        start: u16,
        net: &mut Net,
        sink: &Sink,
    ) -> &'r Run {
        if runs.cache[start as usize] == u32::MAX {
            let (out, absurd) = self.do_chaining(ctx, work, start, net, sink);
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
        shares: Option<&Shares>,
        cell: usize,
        net: &mut Net,
        sink: &mut Sink,
        skip: u16,
    ) {
        let rule = ctx.rule;
        let cands = board.cands[cell];
        let card = cands.card();
        let cell_chains = !rule.nishio && (card == 2 || (rule.multiple && card > 2));
        let cell_needed = cell_chains && shares.is_none_or(|s| s.cell(cell));
        let do_double = card >= 3 && !rule.nishio && rule.dynamic;
        let do_contradiction = rule.dynamic || rule.nishio;
        if shares.is_some() && !do_double && !do_contradiction {
            // Static multiple chains: only cell and region chains give hints.
            for v in super::super::board::digits(cands) {
                self.regions(ctx, board, work, runs, shares, cell, v, net, sink);
            }
            if cell_needed {
                let mut idx = [0u32; 9];
                for (i, v) in idx.iter_mut().zip(super::super::board::digits(cands)) {
                    self.run(ctx, work, runs, key(cell, v, true), net, sink);
                    *i = runs.cache[key(cell, v, true) as usize];
                }
                let outcomes = runs.outcomes(&idx[..card as usize]);
                self.reductions(ctx, board, &outcomes[..card as usize], None, net, sink);
            }
            return;
        }
        let (mut per_value, mut n) = ([0u32; 9], 0);
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
                self.regions(ctx, board, work, runs, shares, cell, v, net, sink);
            }
            per_value[n] = runs.cache[key(cell, v, true) as usize];
            n += 1;
        }
        if cell_chains {
            let outcomes = runs.outcomes(&per_value[..n]);
            self.reductions(ctx, board, &outcomes[..n], None, net, sink);
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
        // A Nishio run whose digit's propagation cannot meet a
        // contradiction gives nothing: it is not run (see
        // [`nishio_may_contradict`]).
        let digit_cells = ctx.source.cells[v as usize];
        let may_run = |on, off| !rule.nishio || nishio_may_contradict(digit_cells, on, off);
        let absurd_on = if may_run(CELL_BIT[cell], 0) {
            self.run(ctx, work, runs, on_key, net, sink).absurd
        } else {
            None
        };
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
        if !may_run(0, CELL_BIT[cell]) {
            return; // (Nishio has no double forcing chains)
        }
        let off_run = self.run(ctx, work, runs, key(cell, v, false), net, sink);
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
        // The potentials both runs have, which alone give hints (taken in
        // the "on" run's order), and how many of them are left.
        let (common, mut left) =
            Outcome::common(&[&runs.runs[on_idx].out, &runs.runs[off_idx].out]);
        for on in [true, false] {
            let n = if on {
                runs.runs[on_idx].out.on.len()
            } else {
                runs.runs[on_idx].out.off.len()
            };
            for i in 0..n {
                if left == 0 {
                    return;
                }
                let (on_out, off_out) = (&runs.runs[on_idx].out, &runs.runs[off_idx].out);
                let from_on = if on { on_out.on[i] } else { on_out.off[i] };
                let k = net.key(from_on);
                if common[k as usize / 64] >> (k % 64) & 1 == 0 {
                    continue;
                }
                left -= 1;
                let from_off = off_out.get(k).expect("a potential both runs have");
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
        shares: Option<&Shares>,
        cell: usize,
        v: u8,
        net: &mut Net,
        sink: &mut Sink,
    ) {
        let rule = ctx.rule;
        for ty in [BLOCK, ROW, COLUMN] {
            let r = CELL_REGIONS[cell][ty] as usize;
            let pos = work.in_region(r, v);
            // (The same positions as a 9-bit mask: counted by table.)
            let card = work.pos[r][v as usize].card();
            debug_assert_eq!(card, pos.count_ones(), "runs give the grid back");
            if !(card == 2 || (rule.multiple && card > 2)) {
                continue;
            }
            if pos.trailing_zeros() as usize != cell {
                continue;
            }
            if shares.is_some_and(|s| !s.region(r, v)) {
                continue; // no region chain here (see search_into)
            }
            let mut idx = [0u32; 9];
            let mut m = pos;
            for i in idx.iter_mut().take(card as usize) {
                let c = m.trailing_zeros() as usize;
                m &= m - 1;
                self.run(ctx, work, runs, key(c, v, true), net, sink);
                *i = runs.cache[key(c, v, true) as usize];
            }
            let outcomes = runs.outcomes(&idx[..card as usize]);
            self.reductions(ctx, board, &outcomes[..card as usize], Some(ty), net, sink);
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
        // The potentials every outcome has, which alone give hints (taken
        // in the first outcome's order), and how many of them are left.
        let (common, mut left) = Outcome::common(outcomes);
        for on in [true, false] {
            let first = if on {
                &outcomes[0].on
            } else {
                &outcomes[0].off
            };
            for &n in first.iter() {
                if left == 0 {
                    return;
                }
                let k = net.key(n);
                if common[k as usize / 64] >> (k % 64) & 1 == 0 {
                    continue;
                }
                left -= 1;
                let (c, value) = (cell_of(k), value_of(k));
                let (removed, placement) = if on {
                    let removed = board.cands[c] & !bit(value);
                    if removed == 0 {
                        continue;
                    }
                    (removed, Some((c, value)))
                } else {
                    (bit(value), None)
                };
                // One outcome per candidate or position: at most 9.
                let mut at = [0u32; 9];
                for (t, o) in at.iter_mut().zip(outcomes) {
                    *t = o.get(k).expect("a potential every outcome has");
                }
                let targets = &at[..outcomes.len()];
                let Some(flat) = self.flat(ctx, targets, sort_key, net, sink) else {
                    continue;
                };
                let mut removable = [0u16; 81];
                removable[c] = removed;
                let (layout, kind, what) = match region {
                    Some(ty) => (
                        Layout::Region(targets, ty),
                        ChainKind::Region,
                        "Region Forcing",
                    ),
                    None => (Layout::Cell(targets), ChainKind::Cell, "Cell Forcing"),
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
    ///
    /// With a nesting level, the run also ends when every potential still
    /// to come would be too complex for a hint of `sink` (see
    /// [`Multiple::beyond_reach`]): the outcome then lacks only potentials
    /// no hint it makes could use.
    fn do_chaining(
        &mut self,
        ctx: &Ctx,
        work: &mut Work,
        start: u16,
        net: &mut Net,
        sink: &Sink,
    ) -> (Outcome, Option<(u32, u32)>) {
        let rule = ctx.rule;
        let source = ctx.source;
        debug_assert!(
            work.cands == source.cands,
            "a run starts on the search's grid"
        );
        let depth = ctx.depth;
        let mut out = self.spare_outcomes.pop().unwrap_or_default();
        out.clear();
        let first = net.push(start, Cause::None, &[]);
        out.add(start, first);
        // The outcome's lists are the run's queues.
        let (mut head_on, mut head_off) = (0, 0);
        let y = !rule.nishio;
        let mut ons = [OnConsequence::NONE; 4];
        let mut absurd = None;
        let mut offs = [(0, Cause::None); MAX_OFFS];
        'run: while head_on < out.on.len() || head_off < out.off.len() {
            if head_on < out.on.len() {
                let p = out.on[head_on];
                head_on += 1;
                let pk = net.key(p);
                let depth = net.depth(p);
                // Straight into the outcome; past a contradiction, the
                // rest of the consequences are dropped.
                let count = on_to_off_into(work, cell_of(pk), value_of(pk), y, &mut offs);
                for &(k, cause) in &offs[..count] {
                    let (off, on) = out.has_both(k);
                    if on {
                        let conj = out.node[(k | 1) as usize];
                        absurd = Some((conj, net.push_child(k, cause, p, depth)));
                        break 'run;
                    } else if !off {
                        let n = net.push_child(k, cause, p, depth);
                        out.add_off(k, n);
                    }
                }
            } else {
                let p = out.off[head_off];
                head_off += 1;
                let pk = net.key(p);
                let (cell, value) = (cell_of(pk), value_of(pk));
                let count = if rule.dynamic {
                    off_to_on_then_off(work, source, cell, value, y, &mut ons)
                } else {
                    off_to_on(work, source, cell, value, y, true, &mut ons)
                };
                for on in &ons[..count] {
                    let conj = out.get(on.key & !1);
                    if conj.is_none() && out.has(on.key) {
                        continue; // derived before: no node
                    }
                    let n = Self::on_node(&out, on, p, net);
                    if let Some(conj) = conj {
                        absurd = Some((n, conj));
                        break 'run;
                    }
                    out.add(on.key, n);
                }
            }
            if rule.level > 0 && head_on == out.on.len() && head_off == out.off.len() {
                self.tables[depth].current = Some(out);
                self.advanced(ctx, work, source, net);
                let tables = &mut self.tables[depth];
                out = tables.current.take().expect("the run's outcome");
                for &(k, n) in &tables.advanced {
                    if !out.has(k) {
                        out.add(k, n);
                    }
                }
                if Self::beyond_reach(ctx, &out.off[head_off..], net, sink) {
                    break 'run;
                }
            }
        }
        if rule.dynamic {
            // The run started on the search's grid: give back what it
            // removed in one copy.
            work.restore_from(source);
        }
        (out, absurd)
    }

    /// Whether no hint of `sink` can use a potential that a run derives
    /// from here on, when `fresh` are its only pending potentials (the
    /// potentials an advanced step just gave it).
    ///
    /// Every later potential descends from one of them, so its ancestors
    /// include that one's and the nested chains among them: a hint using
    /// it has at least that one's [`Net::complexity_floor`] plus one (its
    /// other chains have a potential at least). When that cannot beat
    /// the best hint found (in the sink's order, at the lowest sort key),
    /// nothing to come can, and the run may end: its outcome is used only
    /// by hints made from its potentials. SE runs on, finds those hints
    /// and drops them for the better one.
    fn beyond_reach(ctx: &Ctx, fresh: &[u32], net: &mut Net, sink: &Sink) -> bool {
        let base = ctx.rule.base_difficulty();
        if fresh.is_empty() || !sink.has_best() {
            return false;
        }
        fresh
            .iter()
            .all(|&n| !sink.can_improve(base, net.complexity_floor(n) + 1, 1))
    }

    /// The node of an "on" consequence of off node `p`: parents `p` and the
    /// hidden parents (SE's `addHiddenParentsOfCell` / `OfRegion`).
    fn on_node(out: &Outcome, on: &OnConsequence, p: u32, net: &mut Net) -> u32 {
        let mut parents: [u32; 12] = [p; 12];
        let mut n = 1;
        let k = on.key;
        if on.cause == Cause::NakedSingle {
            let cell = cell_of(k);
            for v in super::super::board::digits(on.hidden) {
                if let Some(h) = out.get(key(cell, v, false)) {
                    parents[n] = h;
                    n += 1;
                }
            }
        } else {
            let value = value_of(k);
            let cells = &REGION_CELLS[on.region as usize];
            let mut m = on.hidden;
            while m != 0 {
                let c = cells[m.trailing_zeros() as usize] as usize;
                m &= m - 1;
                if let Some(h) = out.get(key(c, value, false)) {
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
        // The nested chains' grid, made when a level runs them.
        let mut grid: Option<Board> = None;
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
        self.tables[depth].provided = [0; KEYS.div_ceil(64)];
        // The basic techniques' look at where the chain removed anything,
        // worked out once for all of them.
        let changed = changed_digits(source, work);
        for &adv in &rules[..count] {
            // Whether some hint needs the chain's removals (SE's rule
            // parents): then the rules after this one are not tried, even
            // when its hints remove nothing new.
            let found = match adv {
                Advanced::Chains(rule) => {
                    let grid =
                        grid.get_or_insert_with(|| Board::from_parts(*ctx.values, work.cands));
                    let found = self.nested_chains(rule, grid, &source.cands, net, depth);
                    // Level 3 runs nested multiple chains on the grids of
                    // level 2's nested cycle searches (see NestedMemo),
                    // where those found nothing for the chain.
                    if rule.is_none() && level == 2 && !found {
                        self.keep_shares(&grid.cands);
                    }
                    found
                }
                basic => {
                    let mut buf = std::mem::take(&mut self.tables[depth].hints);
                    buf.clear();
                    basic_hints(basic, ctx, work, &changed, &mut buf);
                    let mut found = false;
                    for span in &buf.spans {
                        let parents = &buf.parents[span[2] as usize..span[3] as usize];
                        if parents.is_empty() {
                            continue;
                        }
                        found = true;
                        let removals = &buf.removals[span[0] as usize..span[1] as usize];
                        let rule = span[4] as u8;
                        self.push_advanced(
                            depth,
                            parents,
                            removals,
                            super::net::NO_NESTED,
                            rule,
                            net,
                        );
                    }
                    self.tables[depth].hints = buf;
                    found
                }
            };
            if found {
                return;
            }
        }
    }

    /// The off nodes of one advanced hint's removals, each with the hint's
    /// rule parents (as nodes of the running chain) as parents; `nested`
    /// the nested chain's index, or `rule` the basic technique's
    /// ([`super::net::Node::rule`]). A removal the chain holds already, or
    /// an earlier hint of the same look gave, gets no node: the chain takes
    /// a potential from the first hint that gives it.
    fn push_advanced(
        &mut self,
        depth: usize,
        rule_parents: &[u16],
        removals: &[(u8, u16)],
        nested: u32,
        rule: u8,
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
                if tables.is_provided(k) {
                    continue;
                }
                tables.provide(k);
                let n = net.push(k, Cause::Advanced, &tables.parents);
                net.nodes[n as usize].nested = nested;
                net.nodes[n as usize].rule = rule;
                tables.advanced.push((k, n));
            }
        }
    }

    /// Keeps the [`Shares`] of grid `cands` when the closure of a nested
    /// search on it is at hand (see [`NestedMemo::shares`]).
    fn keep_shares(&mut self, cands: &[u16; 81]) {
        if self.memo.shares.contains_key(cands) {
            return;
        }
        if let Some(reach) = self.unary.spare_for(cands) {
            if self.memo.shares.len() >= NESTED_MEMO_MAX {
                self.memo.shares.clear();
            }
            let shares = Shares::of(reach, &Work::new(cands));
            self.memo.shares.insert(*cands, shares);
        }
    }

    /// Runs a nested chaining rule (`None`: cycles and forcing chains) on
    /// `grid`, and gives the chain at `depth` the removals of its hints
    /// taken in the order SE's `Chaining.getHints` hands them out (sorted
    /// by difficulty, complexity and sort key, stable, without repeated
    /// removal sets), each with the hint's rule parents and nested chain.
    /// Whether some hint had rule parents (see [`Multiple::advanced`]).
    /// A search already made on the same grids gives the same (see
    /// [`NestedMemo`]).
    fn nested_chains(
        &mut self,
        rule: Option<Rule>,
        grid: &Board,
        init: &[u16; 81],
        net: &mut Net,
        depth: usize,
    ) -> bool {
        let code = rule.map_or(0, |r| 1 + r.level + 16 * u8::from(r.dynamic));
        let memo_key = (code, *init, grid.cands);
        let gift = match self.memo.gifts.get(&memo_key) {
            Some(g) => g.clone(),
            None => {
                let Some(gift) = self.nested_gift(rule, grid, init, net, depth) else {
                    return false; // cut short by the meter: nothing is used
                };
                let gift = std::rc::Rc::new(gift);
                if self.memo.gifts.len() >= NESTED_MEMO_MAX {
                    self.memo.gifts.clear();
                }
                self.memo.gifts.insert(memo_key, gift.clone());
                gift
            }
        };
        debug_assert!(
            self.tables[depth].provided == [0; KEYS.div_ceil(64)]
                && gift.used.iter().all(|h| h.removals.iter().all(|&(c, m)| {
                    super::super::board::digits(m)
                        .all(|v| self.tables[depth].get(key(c as usize, v, false)).is_none())
                })),
            "a nested search's gift depends only on its grids"
        );
        for h in &gift.used {
            net.nested.push(Nested {
                complexity: h.complexity,
                flat: h.flat,
                identity: h.identity.clone(),
                name: h.name.clone(),
                chains: h.chains.clone(),
            });
            let nested = (net.nested.len() - 1) as u32;
            self.push_advanced(depth, &h.parents, &h.removals, nested, 0, net);
        }
        gift.any
    }

    /// The search of [`Multiple::nested_chains`]: the hints that give the
    /// outer chain potentials (the first to give each), with what the chain
    /// needs of them; `None` when the meter cut it short.
    ///
    /// Only the first hint to give a potential matters (see
    /// [`Multiple::push_advanced`]), so the rule parents and identity of a
    /// hint are worked out only when it gives one.
    fn nested_gift(
        &mut self,
        rule: Option<Rule>,
        grid: &Board,
        init: &[u16; 81],
        net: &mut Net,
        depth: usize,
    ) -> Option<NestedGift> {
        let mut sink = Sink::All {
            init: Box::new(*init),
            current: Box::new(grid.cands),
            found: std::mem::take(&mut self.found_pool),
        };
        if let Sink::All { found, .. } = &mut sink {
            found.clear();
        }
        let (mark, nested_mark) = (net.nodes.len(), net.nested.len());
        // The nested search's nodes reference only the nested chains it
        // makes itself.
        let floor = std::mem::replace(&mut net.nested_floor, nested_mark);
        match rule {
            None => super::unary::search_into(grid, net, &mut self.unary, &mut sink, None, None),
            Some(rule) => self.search_into(grid, rule, net, &mut sink, depth + 1, None),
        }
        net.nested_floor = floor;
        let Sink::All { found: hints, .. } = &sink else {
            unreachable!()
        };
        let mut order: Vec<u32> = (0..hints.hints.len() as u32).collect();
        order.sort_by(|&a, &b| {
            let (a, b) = (&hints.hints[a as usize], &hints.hints[b as usize]);
            a.difficulty
                .partial_cmp(&b.difficulty)
                .unwrap()
                .then(a.complexity.cmp(&b.complexity))
                .then(a.sort_key.cmp(&b.sort_key))
        });
        let mut gift = NestedGift {
            any: false,
            used: Vec::new(),
        };
        // Removal sets of hints without rule parents: a later hint with
        // the same set is dropped as a repeat (SE's LinkedHashSet).
        let mut parentless: Vec<(u32, u32)> = Vec::new();
        // The off keys given so far. (No earlier technique of this look
        // gave any: it would have ended the look. And the chain holds no
        // removal of a hint: they are candidates of the grid, from which
        // the chain removed its off potentials.)
        let mut given = [0u64; KEYS.div_ceil(64)];
        for &i in &order {
            let h = &hints.hints[i as usize];
            let removals = hints.removals_of(h);
            let gives = removals.iter().any(|&(c, m)| {
                super::super::board::digits(m).any(|v| {
                    let k = key(c as usize, v, false);
                    given[k as usize / 64] >> (k % 64) & 1 == 0
                })
            });
            if parentless
                .iter()
                .any(|&(a, b)| hints.removals[a as usize..b as usize] == *removals)
            {
                continue;
            }
            if !gives {
                // Whether the hint has rule parents still decides if the
                // look ends here.
                if !gift.any {
                    let (parents, _) = sink.rule_parents_and_identity(net, h);
                    if parents.is_empty() {
                        parentless.push(h.removals);
                    } else {
                        gift.any = true;
                    }
                }
                continue;
            }
            let (parents, identity) = sink.rule_parents_and_identity(net, h);
            if parents.is_empty() {
                parentless.push(h.removals);
                continue;
            }
            gift.any = true;
            for &(c, m) in removals {
                for v in super::super::board::digits(m) {
                    let k = key(c as usize, v, false);
                    given[k as usize / 64] |= 1 << (k % 64);
                }
            }
            // What explain shows of it (SE's name and chains), read off
            // the net only for the hints the outer chain uses.
            let chains = if net.explain {
                sink.chains_of(net, h)
            } else {
                Vec::new()
            };
            gift.used.push(UsedHint {
                complexity: h.complexity,
                flat: h.flat,
                identity,
                parents,
                removals: removals.to_vec(),
                name: h.name.clone(),
                chains,
            });
        }
        net.truncate(mark);
        net.nested.truncate(nested_mark);
        let Sink::All { found: hints, .. } = sink else {
            unreachable!()
        };
        self.found_pool = hints;
        (!net.meter.stopped()).then_some(gift)
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

/// Per region, the digits (bit `v`) with a position in `init` that `grid`
/// lacks: where a chain from `init` to `grid` removed something.
fn changed_digits(init: &Work, grid: &Work) -> [u16; 27] {
    std::array::from_fn(|r| {
        let mut m = 0;
        for v in 1..=9usize {
            if init.pos[r][v] != grid.pos[r][v] {
                m |= 1 << v;
            }
        }
        m
    })
}

/// All hints of a basic technique on `grid`, in SE's order, with their
/// rule parents against the chain's start (`ctx.source`), into `out` (hints
/// that remove nothing are left out, as SE's `isWorth` does). `changed`:
/// where the chain removed anything ([`changed_digits`]).
fn basic_hints(which: Advanced, ctx: &Ctx, grid: &Work, changed: &[u16; 27], out: &mut HintBuf) {
    // Only hints with rule parents (candidates of the chain's starting grid
    // `init` that `grid` lacks, in the places each technique names) give
    // the chain anything (see [`Multiple::advanced`]): each search below
    // skips the others before looking further, in the same order.
    let init = ctx.source;
    match which {
        Advanced::Locking => {
            for (t1, t2) in [(BLOCK, COLUMN), (BLOCK, ROW), (COLUMN, BLOCK), (ROW, BLOCK)] {
                // Pointing (a block's digit in one line), else claiming.
                out.rule = if t1 == BLOCK { 1 } else { 2 };
                for i1 in 0..9 {
                    let r1 = t1 * 9 + i1;
                    if changed[r1] == 0 {
                        continue;
                    }
                    for i2 in 0..9 {
                        let r2 = t2 * 9 + i2;
                        if REGION_MASK[r1] & REGION_MASK[r2] == 0 {
                            continue;
                        }
                        let inside = super::super::intersections::INSIDE[r1][r2];
                        for v in super::super::board::digits(changed[r1]) {
                            // Rule parents: r1's positions outside r2 the
                            // chain removed.
                            if init.pos[r1][v as usize] & !grid.pos[r1][v as usize] & !inside == 0 {
                                continue;
                            }
                            let pos = grid.pos[r1][v as usize];
                            if pos.card() <= 1 || pos & !inside != 0 {
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
                                if init.cands[c] & bit(v) != 0
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
            out.rule = 3;
            for ty in [BLOCK, COLUMN, ROW] {
                for i in 0..9 {
                    let r = ty * 9 + i;
                    if ctx.empty[r] <= 4 || changed[r] == 0 {
                        continue;
                    }
                    let cells = &REGION_CELLS[r];
                    // SE's combination order for pairs: by second, then first.
                    for (a, b) in (2..=9u8).flat_map(|b| (1..b).map(move |a| (a, b))) {
                        let value_set = bit(a) | bit(b);
                        // Rule parents: the region's other places of a or b
                        // (which the chain removed).
                        if changed[r] & value_set == 0 {
                            continue;
                        }
                        let (pa_, pb_) = (grid.pos[r][a as usize], grid.pos[r][b as usize]);
                        if pa_.card() != 2 || pb_ != pa_ {
                            continue; // two digits on the same two cells, or no pair
                        }
                        let common = pa_;
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
                                if init.cands[c] & bit(v) != 0 {
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
            out.rule = 4;
            for ty in [BLOCK, COLUMN, ROW] {
                for i in 0..9 {
                    let r = ty * 9 + i;
                    if ctx.empty[r] < 4 || changed[r] == 0 {
                        continue;
                    }
                    let cells = &REGION_CELLS[r];
                    for (ka, kb) in (1..9usize).flat_map(|b| (0..b).map(move |a| (a, b))) {
                        let (ca, cb) = (cells[ka] as usize, cells[kb] as usize);
                        if grid.cands[ca].card() != 2 || grid.cands[cb] != grid.cands[ca] {
                            continue;
                        }
                        let values = grid.cands[ca];
                        // Rule parents: the pair's other candidates.
                        if (init.cands[ca] | init.cands[cb]) & !values == 0 {
                            continue;
                        }
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
                            for v in super::super::board::digits(init.cands[c] & !values) {
                                out.parents.push(key(c, v, false));
                            }
                        }
                        out.close(ra, pa);
                    }
                }
            }
        }
        Advanced::XWing => {
            out.rule = 5;
            for (base, cover) in [(COLUMN, ROW), (ROW, COLUMN)] {
                for (la, lb) in (1..9usize).flat_map(|b| (0..b).map(move |a| (a, b))) {
                    let combo = (1u64 << la) | (1u64 << lb);
                    let (ba, bb) = (base * 9 + la, base * 9 + lb);
                    for v in super::super::board::digits(changed[ba] | changed[bb]) {
                        if ctx.placed[v as usize] + 4 > 9 {
                            continue;
                        }
                        let (sa, sb) = (grid.pos[ba][v as usize], grid.pos[bb][v as usize]);
                        if sa.card() != 2 || sb != sa {
                            continue;
                        }
                        let covers = sa;
                        // Rule parents: the base lines' places of v outside
                        // the covers (which the chain removed).
                        if (init.pos[ba][v as usize] | init.pos[bb][v as usize]) & !covers == 0 {
                            continue;
                        }
                        let (ra, pa) = (out.removals.len(), out.parents.len());
                        let mut cover_cells = 0u128;
                        for i in indices(covers) {
                            cover_cells |= REGION_MASK[cover * 9 + i];
                            let line = &REGION_CELLS[cover * 9 + i];
                            for j in indices(grid.pos[cover * 9 + i][v as usize] & !(combo as u16))
                            {
                                out.removals.push((line[j], bit(v)));
                            }
                        }
                        for k in [la, lb] {
                            for &c in &REGION_CELLS[base * 9 + k] {
                                let c = c as usize;
                                if init.cands[c] & bit(v) != 0
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// `nishio_may_contradict` turns down no Nishio run that meets a
    /// contradiction: on random candidate grids (each digit in a cell with
    /// probability 1/4 or 1/2, so that regions hold a digit 0 to 9 times,
    /// singles too), every run from a random candidate, "on" and "off",
    /// that `do_chaining` finds absurd is one the filter lets through; and
    /// the filter turns down many runs (it is of use) while many runs meet
    /// a contradiction (the check is not empty).
    #[test]
    fn nishio_filter_keeps_every_run_with_a_contradiction() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x4e15_410f);
        let mut multiple = Multiple::default();
        multiple.tables.push(Tables::new());
        let values = [0u8; 81];
        let (mut runs, mut turned_down, mut absurd) = (0, 0, 0);
        for _ in 0..300 {
            let mut cands = [0u16; 81];
            for c in &mut cands {
                let sparse = if rng.gen::<bool>() {
                    rng.gen::<u16>()
                } else {
                    !0
                };
                *c = rng.gen::<u16>() & sparse & 0x3fe;
            }
            let source = Work::new(&cands);
            let ctx = Ctx {
                rule: Rule::NISHIO,
                values: &values,
                depth: 0,
                source: &source,
                empty: [9; 27],
                placed: [0; 10],
            };
            for _ in 0..20 {
                let (c, v) = (rng.gen_range(0..81), rng.gen_range(1..=9u8));
                if cands[c] & bit(v) == 0 {
                    continue;
                }
                for on in [true, false] {
                    let (set_on, set_off) = if on {
                        (CELL_BIT[c], 0)
                    } else {
                        (0, CELL_BIT[c])
                    };
                    let may = nishio_may_contradict(source.cells[v as usize], set_on, set_off);
                    let mut work = source.clone();
                    let mut net = Net::default();
                    let sink = Sink::Best(Select::new());
                    let (_, found) =
                        multiple.do_chaining(&ctx, &mut work, key(c, v, on), &mut net, &sink);
                    runs += 1;
                    turned_down += usize::from(!may);
                    if found.is_some() {
                        absurd += 1;
                        assert!(
                            may,
                            "cell {c} digit {v} on {on}: a contradiction turned down"
                        );
                    }
                }
            }
        }
        assert!(
            turned_down * 4 > runs,
            "{turned_down} of {runs} runs turned down"
        );
        assert!(absurd * 10 > runs, "{absurd} of {runs} runs absurd");
    }
}
