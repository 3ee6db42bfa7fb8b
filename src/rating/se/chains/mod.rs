//! Chaining techniques: cycles, forcing chains, Nishio, multiple and dynamic
//! forcing chains, and the nested ("+") levels.
//!
//! Every chaining producer collects all its hints and SE applies the one
//! that sorts first by (difficulty, complexity, sort key), ties kept in the
//! order found. [`Select`] keeps that one. Difficulty is the rule's base
//! plus the length penalty of the complexity; complexity is the
//! number of distinct potentials behind the conclusion (summed over a
//! hint's chains), plus the complexity of any nested chain used.
//!
//! | producer | SE class | base | sort keys |
//! |---|---|---|---|
//! | cycles and forcing chains | `Chaining(false,false,false,0)` | 6.5 X/Y cycle, 6.6 X/Y chain, 7.0 XY | X 2, Y 3, XY 4 |
//! | Nishio | `Chaining(false,true,true,0)` | 7.5 | contradiction 7 |
//! | multiple forcing chains | `Chaining(true,false,false,0)` | 8.0 | double 1, cell 5, region 6 |
//! | dynamic forcing chains | `Chaining(true,true,false,0)` | 8.5 | as above, contradiction 7 |
//! | dynamic (+) | `Chaining(true,true,false,1)` | 9.0 | as above |
//! | nested levels 2-5 | `Chaining(true,true,false,n)` | 9.5, 10.0, 10.5, 11.0 | as above |

pub(crate) mod explain;
pub(crate) mod multiple;
pub(crate) mod net;
pub(crate) mod reach;
pub(crate) mod sink;
pub(crate) mod unary;

use super::board::Board;
use super::hint::Hint;
use crate::work::Meter;

/// What kind of chain a candidate hint is (for naming and explanation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChainKind {
    /// A bidirectional cycle.
    Cycle,
    /// A forcing chain from one assumption to its opposite.
    Forcing,
    /// A binary (contradiction or double) forcing chain.
    Binary,
    /// A cell forcing chain (one chain per candidate of a cell).
    Cell,
    /// A region forcing chain (one chain per position of a digit).
    Region,
}

/// A chaining hint offered to [`Select`].
#[derive(Debug, Clone)]
pub struct Candidate {
    /// Base plus length penalty, in SE's doubles.
    pub difficulty: f64,
    /// Flat plus nested complexity.
    pub complexity: u32,
    /// SE's `getSortKey()`.
    pub sort_key: u8,
    /// SE's name of the hint.
    pub name: String,
    /// Candidates removed, by cell.
    pub removable: [u16; 81],
    /// The value placed, if the conclusion is "on".
    pub placement: Option<(usize, u8)>,
    /// The kind of chain.
    pub kind: ChainKind,
    /// Its place in SE's order of search when the search runs in another
    /// order (see [`Select::set_order`]); `u64::MAX` otherwise.
    pub order: u64,
    /// The cells SE's text of the hint names (see
    /// [`super::explain`](mod@super::explain)).
    pub cells: Vec<u8>,
    /// Its chains of implications, when the net explains
    /// (`Net::explain` in `net`); else empty.
    pub chains: Vec<super::explain::chain::Chain>,
}

/// Keeps the hint SE would apply: the first of those that sort lowest.
///
/// "First" is in SE's order of search. A search that runs in another order
/// places each hint in SE's order with [`Select::set_order`]: ties on
/// (difficulty, complexity, sort key) go to the lower place, then to the
/// first offered.
pub struct Select {
    best: Option<Candidate>,
    /// The place in SE's order of the hints offered next.
    order: u64,
    /// Only hints rated at most this are considered.
    cap: f64,
}

impl Default for Select {
    fn default() -> Self {
        Select::new()
    }
}

impl Select {
    /// An empty selection.
    pub fn new() -> Select {
        Select {
            best: None,
            order: u64::MAX,
            cap: f64::INFINITY,
        }
    }

    /// Whether a hint with these keys would replace the current best.
    #[inline]
    pub fn improves(&self, difficulty: f64, complexity: u32, sort_key: u8) -> bool {
        if difficulty > self.cap {
            return false;
        }
        match &self.best {
            None => true,
            Some(b) => {
                difficulty < b.difficulty
                    || (difficulty == b.difficulty
                        && (complexity < b.complexity
                            || (complexity == b.complexity
                                && (sort_key < b.sort_key
                                    || (sort_key == b.sort_key && self.order < b.order)))))
            }
        }
    }

    /// Whether a hint was kept.
    pub fn has_best(&self) -> bool {
        self.best.is_some()
    }

    /// Sets the place in SE's order of search of the hints offered next.
    pub fn set_order(&mut self, order: u64) {
        self.order = order;
    }

    /// Offers a hint; it replaces the best if it sorts strictly lower. Its
    /// `order` becomes the one set with [`Select::set_order`].
    pub fn offer(&mut self, mut c: Candidate) {
        if self.improves(c.difficulty, c.complexity, c.sort_key) {
            c.order = self.order;
            self.best = Some(c);
        }
    }

    /// The selected hint, as offered.
    pub fn into_best(self) -> Option<Candidate> {
        self.best
    }

    /// The selected hint.
    pub fn into_hint(self) -> Option<Hint> {
        self.best.map(|c| {
            let mut hint = Hint::new(c.difficulty, c.name, &c.removable, c.placement);
            hint.cells = c.cells;
            hint.chains = c.chains;
            hint
        })
    }
}

/// A chaining rule: SE's `Chaining(isMultipleEnabled, isDynamic, isNishio,
/// level)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// Cell and region forcing chains, and cells with more than two candidates.
    pub multiple: bool,
    /// Chains see the candidates their own earlier steps removed.
    pub dynamic: bool,
    /// Nishio: one digit at a time (no cell links), contradictions only.
    pub nishio: bool,
    /// Nesting level: 0 none, 1 "(+)" (basic techniques inside chains),
    /// 2-5 forcing chains of the levels below inside chains.
    pub level: u8,
}

impl Rule {
    /// Nishio forcing chains (7.5).
    pub const NISHIO: Rule = Rule {
        multiple: false,
        dynamic: true,
        nishio: true,
        level: 0,
    };
    /// Multiple forcing chains (8.0).
    pub const MULTIPLE: Rule = Rule {
        multiple: true,
        dynamic: false,
        nishio: false,
        level: 0,
    };
    /// Dynamic forcing chains (8.5), and with `level` the nested ones.
    pub const fn dynamic(level: u8) -> Rule {
        Rule {
            multiple: true,
            dynamic: true,
            nishio: false,
            level,
        }
    }

    /// SE's `Chaining.getDifficulty()`: the rule's base rating.
    pub fn base_difficulty(&self) -> f64 {
        if self.level >= 2 {
            9.5 + 0.5 * (self.level - 2) as f64
        } else if self.level > 0 {
            8.5 + 0.5 * self.level as f64
        } else if self.nishio {
            7.5
        } else if self.dynamic {
            8.5
        } else {
            8.0
        }
    }

    /// SE's name prefix (`getNamePrefix`).
    pub fn name_prefix(&self) -> &'static str {
        if self.level > 0 || (self.dynamic && !self.nishio) {
            "Dynamic "
        } else if self.nishio {
            "Nishio "
        } else {
            ""
        }
    }

    /// SE's name suffix (`getNameSuffix`).
    pub fn name_suffix(&self) -> String {
        if self.level >= 1 {
            format!(" Chains{}", nested_suffix(self.level))
        } else {
            " Chains".to_owned()
        }
    }
}

/// SE's `getNestedSuffix`.
fn nested_suffix(level: u8) -> String {
    match level {
        1 => " (+)".into(),
        2 => " (+ Forcing Chains)".into(),
        3 => " (+ Multiple Forcing Chains)".into(),
        4 => " (+ Dynamic Forcing Chains)".into(),
        l if l >= 5 => format!(" (+ Dynamic Forcing Chains{})", nested_suffix(l - 3)),
        _ => String::new(),
    }
}

/// Reusable buffers of the chaining searches.
#[derive(Default)]
pub struct Chainer {
    net: net::Net,
    unary: unary::Unary,
    multiple: multiple::Multiple,
    /// The closure of the XY graph of the board it was built for (the
    /// cycles-and-forcing and the multiple producers see the same board
    /// when the first finds nothing).
    xy_reach: Option<([u16; 81], reach::Reach)>,
    /// The X pass's best hint per digit.
    x_cache: unary::XCache,
    /// The digits whose Nishio chains are known to give nothing.
    nishio_nothing: DigitMemo,
}

/// Which digits' assumptions are known to give no hint, for a search whose
/// chains use one digit: Nishio chains ("on" turns off the digit's other
/// positions in the cell's regions, "off" turns on a region's last position
/// of the digit, a contradiction is a potential of the digit both on and
/// off). (The X pass of cycles and forcing chains keeps more: its best hint
/// per digit, [`unary::XCache`].)
///
/// What such a search from an assumption of digit `v` finds depends only on
/// the cells holding `v`, and which assumptions are made on which of them
/// are searched: those with two candidates or more. When a search found no
/// hint at all, each digit's state is kept; a later search skips a digit
/// whose cells are the same and whose searched cells are among those
/// searched then, on any board. (When it found one, the digits it searched
/// are forgotten: they were searched with a hint to beat.)
#[derive(Default)]
struct DigitMemo {
    /// Per digit: (the cells holding it, those with two candidates or more),
    /// 81-bit sets, when its assumptions gave nothing.
    nothing: [Option<(u128, u128)>; 10],
}

/// Per digit, the cells holding it and those of them with two candidates
/// or more (81-bit sets; index 0 unused).
pub(crate) type DigitCells = ([u128; 10], [u128; 10]);

/// The [`DigitCells`] of `board`: what a one-digit chain search from the
/// digit's assumptions depends on.
pub(crate) fn digit_cells(board: &Board) -> DigitCells {
    let (mut cells, mut searched) = ([0u128; 10], [0u128; 10]);
    for (c, &cands) in board.candidates().iter().enumerate() {
        let multi = cands & cands.wrapping_sub(1) != 0;
        for v in super::board::digits(cands) {
            cells[v as usize] |= 1 << c;
            if multi {
                searched[v as usize] |= 1 << c;
            }
        }
    }
    (cells, searched)
}

impl DigitMemo {
    /// The digits (candidate bits) known to give nothing on `board`, and
    /// the board's digit cells to pass to [`DigitMemo::record`].
    fn skip(&self, board: &Board) -> (u16, DigitCells) {
        let (cells, searched) = digit_cells(board);
        let mut skip = 0u16;
        for v in 1..10 {
            if let Some((c, s)) = self.nothing[v] {
                if c == cells[v] && searched[v] & !s == 0 {
                    skip |= 1 << v;
                }
            }
        }
        (skip, (cells, searched))
    }

    /// Notes the outcome of a search (not cut short) that skipped `skip`.
    fn record(&mut self, found: bool, skip: u16, (cells, searched): DigitCells) {
        for v in 1..10 {
            if !found {
                self.nothing[v] = Some((cells[v], searched[v]));
            } else if skip >> v & 1 == 0 {
                self.nothing[v] = None;
            }
        }
    }
}

impl Chainer {
    /// The closure of `board`'s XY graph, built once per board; give it
    /// back with [`Chainer::keep_xy_reach`].
    fn take_xy_reach(&mut self, board: &Board) -> ([u16; 81], reach::Reach) {
        match self.xy_reach.take() {
            Some((c, r)) if &c == board.candidates() => (c, r),
            kept => {
                self.net.meter.count(super::REACH_UNITS);
                let work = net::Work::of_board(board);
                let r = match kept {
                    // The last board's closure lends its buffers.
                    Some((_, mut r)) => {
                        r.rebuild(&work, true, true);
                        r
                    }
                    None => reach::Reach::build(&work, true, true),
                };
                (*board.candidates(), r)
            }
        }
    }

    fn keep_xy_reach(&mut self, kept: ([u16; 81], reach::Reach)) {
        self.xy_reach = Some(kept);
    }

    /// Forgets what the searches kept of earlier boards (the X pass's
    /// hints per digit, the digits whose Nishio chains gave nothing, the
    /// closure of the last board's implication graph, what nested searches
    /// gave), so
    /// that the work a search charges depends only on the puzzle being
    /// rated, not on the puzzles this chainer rated before.
    pub fn forget(&mut self) {
        self.x_cache = unary::XCache::default();
        self.nishio_nothing = DigitMemo::default();
        self.xy_reach = None;
        self.multiple.forget();
    }

    /// Whether the hints found carry their chains of implications (for
    /// `explain`; see `Net::explain` in `net`). The X pass's kept hints and
    /// what nested searches gave (their hints' names and chains are kept
    /// only when explaining) are forgotten when this changes.
    pub fn set_explain(&mut self, explain: bool) {
        if self.net.explain != explain {
            self.net.explain = explain;
            self.x_cache = unary::XCache::default();
            self.multiple.forget();
        }
    }

    /// Runs `search` with `meter` in the net (where every search charges
    /// its work and looks whether to stop): its result, and whether the
    /// meter cut it short (the result is then unusable).
    fn metered<R>(&mut self, meter: &mut Meter, search: impl FnOnce(&mut Self) -> R) -> (R, bool) {
        std::mem::swap(meter, &mut self.net.meter);
        let result = search(self);
        std::mem::swap(meter, &mut self.net.meter);
        (result, meter.cut().is_some())
    }

    /// SE's "Forcing Chains & Cycles" producer on `board`: its hint, and
    /// whether `meter` cut the search short (no hint then).
    pub fn cycles_and_forcing(&mut self, board: &Board, meter: &mut Meter) -> (Option<Hint>, bool) {
        let (hint, cut) = self.metered(meter, |c| c.cycles_and_forcing_in(board));
        (hint.filter(|_| !cut), cut)
    }

    fn cycles_and_forcing_in(&mut self, board: &Board) -> Option<Hint> {
        let mut sink = sink::Sink::Best(Select::new());
        self.net.truncate(0);
        self.net.nested.clear();
        self.net.nested_floor = 0;
        let reach = self.take_xy_reach(board);
        unary::search_into(
            board,
            &mut self.net,
            &mut self.unary,
            &mut sink,
            Some(&reach.1),
            Some(&mut self.x_cache),
        );
        self.keep_xy_reach(reach);
        let sink::Sink::Best(select) = sink else {
            unreachable!()
        };
        select.into_hint()
    }

    /// A multiple, dynamic or Nishio producer on `board`: its hint, and
    /// whether `meter` cut the search short (no hint then).
    pub fn forcing(
        &mut self,
        board: &Board,
        rule: Rule,
        meter: &mut Meter,
    ) -> (Option<Hint>, bool) {
        let (hint, cut) = self.metered(meter, |c| c.forcing_in(board, rule));
        (hint.filter(|_| !cut), cut)
    }

    fn forcing_in(&mut self, board: &Board, rule: Rule) -> Option<Hint> {
        if rule == Rule::NISHIO {
            return self.nishio(board);
        }
        self.net.truncate(0);
        self.net.nested.clear();
        self.net.nested_floor = 0;
        let reach = (!rule.dynamic).then(|| self.take_xy_reach(board));
        let select = self.multiple.search(
            board,
            rule,
            &mut self.net,
            Select::new(),
            reach.as_ref().map(|r| &r.1),
        );
        if let Some(r) = reach {
            self.keep_xy_reach(r);
        }
        select.into_hint()
    }

    /// The Nishio producer, skipping the digits known to give nothing
    /// (see [`DigitMemo`]).
    fn nishio(&mut self, board: &Board) -> Option<Hint> {
        let (skip, cells) = self.nishio_nothing.skip(board);
        if skip == 0x3fe {
            return None;
        }
        self.net.truncate(0);
        self.net.nested.clear();
        self.net.nested_floor = 0;
        self.multiple.nishio_skip = skip;
        let select = self
            .multiple
            .search(board, Rule::NISHIO, &mut self.net, Select::new(), None);
        self.multiple.nishio_skip = 0;
        let hint = select.into_hint();
        if self.net.meter.cut().is_none() {
            self.nishio_nothing.record(hint.is_some(), skip, cells);
        }
        hint
    }
}
