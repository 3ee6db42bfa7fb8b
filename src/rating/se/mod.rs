//! Sudoku Explainer's rating (ER/EP/ED), computed the way Sudoku Explainer
//! 1.2.1.3 (`serate`) computes it, step for step.
//!
//! # The method
//!
//! SE solves the puzzle as a person would. At each step it tries its
//! techniques in a fixed order and applies the first hint found (for
//! uniqueness loops and chains: the easiest of all hints that technique
//! finds, then the shortest, then the first found). The rating of a step is
//! the rating of its hint; then
//!
//! - **ER** (rating) is the highest step rating on the way to the solution;
//! - **EP** (pearl) is the highest step rating up to and including the first
//!   step that places a value;
//! - **ED** (diamond) is the rating of the first step.
//!
//! A puzzle no technique finishes gets ER 20.0. The numbers are printed with
//! one decimal as SE does: `(int)((x + 0.05) * 10)` tenths. Ratings are
//! doubles summed in SE's order (a chain of base 6.6 with a 0.1 penalty
//! rates 6.699999999999999, which sorts below 6.7), so ties between hints
//! break exactly as in SE.
//!
//! # Techniques, in SE's order of search, with their ratings
//!
//! | order | technique (SE's names) | rating | module |
//! |---|---|---|---|
//! | 1 | Hidden Single: last cell of a region / block / row or column | 1.0 / 1.2 / 1.5 | [`singles`] |
//! | 2 | Direct Pointing / Direct Claiming | 1.7 / 1.9 | [`intersections`] |
//! | 3 | Direct Hidden Pair | 2.0 | [`subsets`] |
//! | 4 | Naked Single | 2.3 | [`singles`] |
//! | 5 | Direct Hidden Triplet | 2.5 | [`subsets`] |
//! | 6 | Pointing / Claiming | 2.6 / 2.8 | [`intersections`] |
//! | 7 | Naked Pair | 3.0 | [`subsets`] |
//! | 8 | X-Wing | 3.2 | [`fish`] |
//! | 9 | Hidden Pair | 3.4 | [`subsets`] |
//! | 10 | Naked Triplet | 3.6 | [`subsets`] |
//! | 11 | Swordfish | 3.8 | [`fish`] |
//! | 12 | Hidden Triplet | 4.0 | [`subsets`] |
//! | 13 | XY-Wing | 4.2 | [`wings`] |
//! | 14 | XYZ-Wing | 4.4 | [`wings`] |
//! | 15 | Unique Rectangle / Loop, types 1-4 | 4.5-5.0 (+0.1-0.6 type 3) | [`uniqueness`] |
//! | 16 | Naked Quad | 5.0 | [`subsets`] |
//! | 17 | Jellyfish | 5.2 | [`fish`] |
//! | 18 | Hidden Quad | 5.4 | [`subsets`] |
//! | 19 | BUG types 1-4 | 5.6-6.1 | [`uniqueness`] |
//! | 20 | Aligned Pair Exclusion | 6.2 | [`exclusion`] |
//! | 21 | Bidirectional X/Y-Cycle, Forcing X/Y-Chain, Turbot Fish; XY cycles and chains | 6.5 / 6.6 / 7.0 + length | [`chains`] |
//! | 22 | Aligned Triplet Exclusion | 7.5 | [`exclusion`] |
//! | 23 | Nishio Forcing Chains | 7.5 + length | [`chains`] |
//! | 24 | Multiple (cell, region) Forcing Chains | 8.0 + length | [`chains`] |
//! | 25 | Dynamic Forcing Chains | 8.5 + length | [`chains`] |
//! | 26 | Dynamic Forcing Chains (+) | 9.0 + length | [`chains`] |
//! | 27-30 | Nested Forcing Chains, levels 2-5 | 9.5 / 10.0 / 10.5 / 11.0 + length | [`chains`] |
//!
//! The length penalty is 0.1 for each of 4, 6, 8, 12, 16, 24, 32, 48, ...
//! that the chain's complexity minus 2 exceeds; the complexity is the number
//! of distinct potentials (candidate on or off) a conclusion depends on.
//!
//! Each technique is written from its definition; SE's source
//! (1to9only/SudokuExplainer at 729c00e) was read only for the order in
//! which it searches and breaks ties, which this module follows so that the
//! same hint comes first. The one order SE leaves to the JVM (the
//! iteration order of a `HashMap` keyed by cell object, which decides in
//! which order a nested rule's removals join a dynamic chain) is taken here
//! as ascending cell and digit.
//!
//! # Where the speed comes from
//!
//! The answer is SE's, the work is not. A [`Board`] keeps each region's
//! positions of each digit in step with its candidates, so the basic
//! techniques read masks instead of scanning cells. Chain searches stop as
//! soon as nothing left could beat the best hint found (SE's order of
//! preference is known in advance: difficulty, complexity, sort key, order
//! found), and skip starts the closure of the implication graph proves
//! fruitless. And a [`Rater`] keeps, from one search to the next, what
//! searches found, keyed by exactly the candidates each depends on, so
//! that a kept result holds on any board with those candidates: locked
//! candidates per (digit, chute), unique loops per digit pair, aligned
//! exclusions per set of base cells (these three from one puzzle to the
//! next too), and the one-digit chains (X cycles and chains, Nishio) per
//! digit (within a puzzle: the chains' work is counted against the budget,
//! [`Options::budget`], and must not depend on the puzzles rated before).
//! A few steps of the path change few candidates, so most of a search is
//! skipped. The
//! speed beside SE (100-200 times its puzzles per CPU-second) is in
//! BENCHMARKS.md.

pub mod board;
pub mod chains;
pub mod exclusion;
pub mod explain;
pub mod fish;
pub mod hint;
pub mod intersections;
pub mod singles;
pub mod subsets;
pub mod uniqueness;
pub mod wings;

pub use board::Board;
pub use hint::Hint;

/// Units of work a nested dynamic chain charges each time it looks for a
/// technique of the level below ([`Options::budget`]): a new board and the
/// four basic techniques over it (a nested chain search charges its own
/// work). It costs about as much as this many derived potentials
/// (BENCHMARKS.md, "Work budgets").
pub const ADVANCED_UNITS: u64 = 64;

/// Units of work charged for each closure of an implication graph a chain
/// search builds ([`chains`]' `Reach`): about as much as this many derived
/// potentials (BENCHMARKS.md, "Work budgets").
pub const REACH_UNITS: u64 = 640;

use crate::grid::Grid;
use crate::work::{Budget, Cut, Meter};
use chains::{Chainer, Rule};
use std::time::{Duration, Instant};

/// SE's three numbers for a puzzle, and the path that gave them.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    /// ER: the hardest step (20.0 when the techniques do not finish).
    pub er: f64,
    /// EP: the hardest step up to the first placement.
    pub ep: f64,
    /// ED: the first step.
    pub ed: f64,
    /// Index in `steps` of the step that set ER (the first one rated ER).
    pub hardest: usize,
    /// The steps taken, in order (empty unless asked for with
    /// [`Options::keep_steps`]; `step_count` counts them either way).
    pub steps: Vec<Hint>,
    /// Number of steps of the path.
    pub step_count: usize,
    /// Name of the technique of the step that set ER.
    pub technique: String,
    /// Whether the techniques finished the puzzle (false: ER 20.0).
    pub solved: bool,
    /// The work the rating took, in the units its budget counts
    /// ([`Options::budget`]).
    pub work: u64,
}

impl Rating {
    /// `x` in tenths as SE prints it: `(int)((x + 0.05) * 10)`.
    pub fn tenths(x: f64) -> i64 {
        ((x + 0.05) * 10.0) as i64
    }

    /// `x` formatted as SE prints it, one decimal (`7.1`).
    pub fn format(x: f64) -> String {
        let t = Self::tenths(x);
        format!("{}.{}", t / 10, t % 10)
    }
}

/// How to rate.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Give up past this budget ([`RateError::Timeout`]). Its work is
    /// counted in units of the chaining techniques' work, where nearly all
    /// of a slow rating's time goes: one per potential a chain derives
    /// (a node of the implication net), one per potential a cycle or
    /// forcing-chain search expands, [`ADVANCED_UNITS`] per look for a
    /// nested technique inside a dynamic chain and [`REACH_UNITS`] per
    /// closure of an implication graph; the other techniques take
    /// microseconds a step and are not counted. About 10 million
    /// units make a second on the reference host
    /// ([`crate::work::RATER_UNITS_PER_SEC`], [`crate::work::rater_units`]).
    /// A rating stops at the first look past its budget (the searches look
    /// every few thousand units), which is the same point of the same
    /// search on any machine under any load. The optional wall-clock
    /// limit counts from the rating's first look at the clock.
    ///
    /// Whatever the budget, a stop request ([`crate::interrupt`]) ends
    /// the rating within a few thousand units.
    pub budget: Budget,
    /// Keep every step in [`Rating::steps`], each with the cells and
    /// chains SE explains it with ([`explain::Step`]), for `explain`.
    pub keep_steps: bool,
    /// Stop as soon as a step is rated above this (SE's generator does the
    /// same): the puzzle's ER is then known to exceed it, and
    /// [`RateError::AboveCeiling`] says so. Producers whose easiest hint
    /// already exceeds it are not run.
    pub ceiling: Option<f64>,
}

/// Why a rating did not finish.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RateError {
    /// A step was rated above [`Options::ceiling`].
    #[error("rated above {ceiling} (a step rated {difficulty} after {steps} steps)")]
    AboveCeiling {
        /// The ceiling.
        ceiling: f64,
        /// The rating of the step that exceeded it (a lower bound of ER),
        /// or the easiest rating the remaining techniques could give.
        difficulty: f64,
        /// Steps applied before.
        steps: usize,
    },
    /// The budget ran out, or a stop was requested, after `steps` steps.
    #[error("rating {} (stopped after {steps} steps)", match cut {
        Cut::Work => "ran out of its work budget",
        Cut::Wall => "took longer than its wall-clock limit",
        Cut::Stop => "was stopped by a signal",
    })]
    Timeout {
        /// What cut the rating short.
        cut: Cut,
        /// Steps applied before it was cut.
        steps: usize,
    },
}

/// A rater: SE's solver with buffers reused from puzzle to puzzle.
pub struct Rater {
    chainer: Chainer,
    pairs: exclusion::ExclusionMemo,
    triplets: exclusion::ExclusionMemo,
    /// `Locking(false)` and `Locking(true)`'s last search.
    locking: [intersections::LockingMemo; 2],
    /// The digit pairs known to close no unique loop.
    loops: uniqueness::LoopMemo,
    /// The boards the region-, digit- and cell-local producers last found
    /// nothing on.
    quiet: Quiet,
    /// Time spent and hints found per producer, when profiling.
    profile: Option<Vec<(Duration, u64)>>,
}

/// Where a rater's time went, per technique producer (see
/// [`Rater::profile`]).
#[derive(Debug, Clone)]
pub struct ProducerProfile {
    /// The producer, by SE's class and arguments (`HiddenSet(2, direct)`).
    pub producer: String,
    /// Wall time spent searching.
    pub time: Duration,
    /// Hints it supplied (steps it decided).
    pub hints: u64,
}

/// One producer of SE's list.
#[derive(Debug, Clone, Copy)]
enum Producer {
    HiddenSingle,
    Locking(bool),
    HiddenSet(usize, bool),
    NakedSingle,
    NakedSet(usize),
    Fish(usize),
    XyWing(bool),
    UniqueLoops,
    Bug,
    AlignedPair,
    CyclesAndForcing,
    AlignedTriplet,
    Forcing(Rule),
}

/// SE's producers in SE's order (`Solver`'s direct, indirect, chaining,
/// chaining (+), advanced and experimental lists, as `getDifficulty` runs
/// them).
const PRODUCERS: [Producer; 30] = [
    Producer::HiddenSingle,
    Producer::Locking(true),
    Producer::HiddenSet(2, true),
    Producer::NakedSingle,
    Producer::HiddenSet(3, true),
    Producer::Locking(false),
    Producer::NakedSet(2),
    Producer::Fish(2),
    Producer::HiddenSet(2, false),
    Producer::NakedSet(3),
    Producer::Fish(3),
    Producer::HiddenSet(3, false),
    Producer::XyWing(false),
    Producer::XyWing(true),
    Producer::UniqueLoops,
    Producer::NakedSet(4),
    Producer::Fish(4),
    Producer::HiddenSet(4, false),
    Producer::Bug,
    Producer::AlignedPair,
    Producer::CyclesAndForcing,
    Producer::AlignedTriplet,
    Producer::Forcing(Rule::NISHIO),
    Producer::Forcing(Rule::MULTIPLE),
    Producer::Forcing(Rule::dynamic(0)),
    Producer::Forcing(Rule::dynamic(1)),
    Producer::Forcing(Rule::dynamic(2)),
    Producer::Forcing(Rule::dynamic(3)),
    Producer::Forcing(Rule::dynamic(4)),
    Producer::Forcing(Rule::dynamic(5)),
];

impl Producer {
    /// The lowest rating a hint of this producer can have.
    fn base(self) -> f64 {
        match self {
            Producer::AlignedPair => 6.2,
            Producer::CyclesAndForcing => 6.5,
            Producer::AlignedTriplet => 7.5,
            Producer::Forcing(rule) => rule.base_difficulty(),
            _ => 0.0, // the basic techniques, all rated below 6.2
        }
    }
}

impl Default for Rater {
    fn default() -> Self {
        Rater {
            chainer: Chainer::default(),
            pairs: exclusion::ExclusionMemo::new(2),
            triplets: exclusion::ExclusionMemo::new(3),
            locking: Default::default(),
            loops: Default::default(),
            quiet: Quiet::default(),
            profile: None,
        }
    }
}

/// The boards on which the subset, fish and wing producers last found
/// nothing, so that the next search looks only where the board changed
/// since.
///
/// What these producers find depends on parts of the board: a naked or
/// hidden subset on one region's cells, a fish on the cells holding its
/// digit, an XY- or XYZ-Wing on its three cells as long as the board is
/// one the kept board leads to (the cells it removes from only lose
/// candidates along a path; on any other board every wing is searched). A
/// producer that found nothing on a board finds nothing in a part that has
/// not changed since, so it searches
/// the changed parts only ([`subsets::naked_set_in`],
/// [`subsets::hidden_set_in`], [`fish::fish_in`], [`wings::xy_wing_in`]),
/// in its own order: the first hint is the one its full search finds
/// first. For subsets and fish this holds whatever the two boards are (the
/// parts are compared, not the path), so the boards are kept from one
/// puzzle to the next.
#[derive(Default)]
struct Quiet {
    /// Per producer (index in [`PRODUCERS`]), the id of the board it last
    /// found nothing on; 0: none.
    last: [u32; PRODUCERS.len()],
    /// Those boards, by id: values and candidates.
    boards: Vec<(u32, Box<KeptBoard>)>,
    /// The last id given.
    id: u32,
}

/// A board [`Quiet`] keeps: its values and candidates.
type KeptBoard = ([u8; 81], [u16; 81]);

/// What changed between a kept board and the current one.
#[derive(Clone, Copy)]
struct Changed {
    /// Cells whose value or candidates differ (81-bit set).
    cells: u128,
    /// Regions holding such a cell (bit `r` for region `r`).
    regions: u32,
    /// Digits whose cells differ (bit `v` for digit `v`).
    digits: u16,
}

impl Changed {
    const ALL: Changed = Changed {
        cells: (1 << 81) - 1,
        regions: subsets::ALL_REGIONS,
        digits: 0x3fe,
    };

    fn between(kept: &KeptBoard, board: &Board) -> Changed {
        let mut ch = Changed {
            cells: 0,
            regions: 0,
            digits: 0,
        };
        // Whether the board is not one the kept board leads to (a cell
        // gained a candidate or lost its value): then a wing's removals,
        // which lie outside its cells, may be new too.
        let mut grew = false;
        for c in 0..81 {
            let (v, m) = (board.values[c], board.cands[c]);
            let (kv, km) = (kept.0[c], kept.1[c]);
            if v != kv || m != km {
                grew |= m & !km != 0 || (kv != 0 && v != kv);
                ch.cells |= 1 << c;
                for &r in &board::CELL_REGIONS[c] {
                    ch.regions |= 1 << r;
                }
                ch.digits |= (m ^ km) | (board::bit(v) | board::bit(kv)) & 0x3fe;
            }
        }
        if grew {
            ch.cells = Changed::ALL.cells;
        }
        ch
    }
}

impl Quiet {
    /// Whether `producer` is searched only where the board changed.
    fn local(producer: Producer) -> bool {
        matches!(
            producer,
            Producer::HiddenSet(..)
                | Producer::NakedSet(_)
                | Producer::Fish(_)
                | Producer::XyWing(_)
        )
    }

    /// What changed for producer `i` since the board it last found nothing
    /// on (`cache`: the changes worked out so far in this step, by id).
    fn changed(&self, i: usize, board: &Board, cache: &mut Vec<(u32, Changed)>) -> Changed {
        let id = self.last[i];
        if id == 0 {
            return Changed::ALL;
        }
        if let Some(&(_, ch)) = cache.iter().find(|(k, _)| *k == id) {
            return ch;
        }
        let kept = &self
            .boards
            .iter()
            .find(|(k, _)| *k == id)
            .expect("kept board")
            .1;
        let ch = Changed::between(kept, board);
        cache.push((id, ch));
        ch
    }

    /// Notes that producer `i` found nothing on `board` (`current`: this
    /// board's id once kept).
    fn nothing(&mut self, i: usize, board: &Board, current: &mut u32) {
        if *current == 0 {
            self.id = self.id.wrapping_add(1).max(1);
            *current = self.id;
            self.boards
                .push((self.id, Box::new((board.values, board.cands))));
        }
        self.last[i] = *current;
    }

    /// Drops the boards no producer refers to any more.
    fn prune(&mut self) {
        let last = self.last;
        self.boards.retain(|(id, _)| last.contains(id));
    }
}

/// Why [`Rater::next_hint`] found no hint.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NoHint {
    /// The meter cut the search short (see [`Options::budget`]).
    Cut(Cut),
    /// Every remaining producer rates above the ceiling (its base is given).
    AboveCeiling(f64),
}

impl Rater {
    /// A rater with empty buffers.
    pub fn new() -> Rater {
        Rater::default()
    }

    /// Starts timing each producer (a clock read per producer call).
    pub fn enable_profile(&mut self) {
        self.profile = Some(vec![(Duration::ZERO, 0); PRODUCERS.len()]);
    }

    /// Time and hints per producer since [`Rater::enable_profile`], in SE's
    /// order; empty when not profiling.
    pub fn profile(&self) -> Vec<ProducerProfile> {
        let Some(p) = &self.profile else {
            return Vec::new();
        };
        PRODUCERS
            .iter()
            .zip(p)
            .map(|(producer, &(time, hints))| ProducerProfile {
                producer: format!("{producer:?}"),
                time,
                hints,
            })
            .collect()
    }

    /// SE's next hint on `board`: the first producer's hint, or `None` when
    /// no technique applies. Producers rated above `ceiling` are not run.
    /// The chaining producers charge their work to `meter` and stop when
    /// it says so (`&mut Meter::default()`: no budget).
    ///
    /// # Errors
    /// [`NoHint`] when the meter cut a search short (or was spent before
    /// the next one) or only producers above the ceiling remain.
    pub fn next_hint(
        &mut self,
        board: &Board,
        meter: &mut Meter,
        ceiling: Option<f64>,
    ) -> Result<Option<Hint>, NoHint> {
        let mut changes = Vec::new();
        let mut current = 0u32;
        let result = self.next_hint_in(board, meter, ceiling, &mut changes, &mut current);
        if current != 0 {
            self.quiet.prune();
        }
        result
    }

    fn next_hint_in(
        &mut self,
        board: &Board,
        meter: &mut Meter,
        ceiling: Option<f64>,
        changes: &mut Vec<(u32, Changed)>,
        current: &mut u32,
    ) -> Result<Option<Hint>, NoHint> {
        for (i, producer) in PRODUCERS.into_iter().enumerate() {
            if let Some(c) = ceiling {
                if producer.base() > c {
                    return Err(NoHint::AboveCeiling(producer.base()));
                }
            }
            let start = self.profile.as_ref().map(|_| Instant::now());
            let ch = if Quiet::local(producer) {
                self.quiet.changed(i, board, changes)
            } else {
                Changed::ALL
            };
            let (hint, cancelled) = match producer {
                Producer::HiddenSingle => (singles::hidden_single(board), false),
                Producer::Locking(direct) => {
                    let memo = &mut self.locking[usize::from(direct)];
                    (intersections::locking_with(board, direct, memo), false)
                }
                Producer::HiddenSet(degree, direct) => (
                    subsets::hidden_set_in(board, degree, direct, ch.regions),
                    false,
                ),
                Producer::NakedSingle => (singles::naked_single(board), false),
                Producer::NakedSet(degree) => {
                    (subsets::naked_set_in(board, degree, ch.regions), false)
                }
                Producer::Fish(degree) => (fish::fish_in(board, degree, ch.digits), false),
                Producer::XyWing(xyz) => (wings::xy_wing_in(board, xyz, ch.cells), false),
                Producer::UniqueLoops => {
                    (uniqueness::unique_loops_with(board, &mut self.loops), false)
                }
                Producer::Bug => (uniqueness::bug(board), false),
                Producer::AlignedPair => (exclusion::aligned_pair(board, &mut self.pairs), false),
                Producer::CyclesAndForcing => self.chainer.cycles_and_forcing(board, meter),
                Producer::AlignedTriplet => {
                    (exclusion::aligned_triplet(board, &mut self.triplets), false)
                }
                Producer::Forcing(rule) => self.chainer.forcing(board, rule, meter),
            };
            if let (Some(p), Some(start)) = (&mut self.profile, start) {
                p[i].0 += start.elapsed();
                p[i].1 += u64::from(hint.is_some());
            }
            if cancelled {
                return Err(NoHint::Cut(meter.cut().unwrap_or(Cut::Work)));
            }
            if hint.is_some() {
                return Ok(hint);
            }
            if Quiet::local(producer) {
                self.quiet.nothing(i, board, current);
            }
            if meter.stopped() {
                return Err(NoHint::Cut(meter.cut().unwrap_or(Cut::Work)));
            }
        }
        Ok(None)
    }

    /// Rates `puzzle` as SE's `Solver.getDifficulty()` does. The puzzle
    /// should have one solution (uniqueness techniques assume it; `rate`
    /// checks it first); clashing givens give meaningless ratings.
    ///
    /// # Errors
    /// [`RateError::Timeout`] when `options.budget` runs out or a stop is
    /// requested; [`RateError::AboveCeiling`] past `options.ceiling`.
    pub fn rate(&mut self, puzzle: &Grid, options: &Options) -> Result<Rating, RateError> {
        self.rate_board(Board::new(puzzle), options)
    }

    /// Rates the puzzle `board` stands for, from its candidates as they are
    /// (e.g. [`Board::from_pencilmarks`]), as [`Rater::rate`] rates a
    /// puzzle's board: SE's steps from that state on. Like a puzzle, the
    /// board should have one solution.
    ///
    /// # Errors
    /// [`RateError::Timeout`] when `options.budget` runs out or a stop is
    /// requested; [`RateError::AboveCeiling`] past `options.ceiling`.
    ///
    /// The work it charges ([`Rating::work`], [`Options::budget`]) depends
    /// only on the board: what the searches keep from one board to the
    /// next that would spare work is forgotten first
    /// ([`Chainer::forget`]).
    pub fn rate_board(&mut self, board: Board, options: &Options) -> Result<Rating, RateError> {
        self.chainer.forget();
        self.chainer.set_explain(options.keep_steps);
        let mut meter = Meter::new(options.budget);
        let mut board = board;
        let mut rating = Rating {
            er: 0.0,
            ep: 0.0,
            ed: 0.0,
            hardest: 0,
            steps: Vec::new(),
            step_count: 0,
            technique: String::new(),
            solved: true,
            work: 0,
        };
        let mut difficulty = f64::NEG_INFINITY;
        let (mut pearl, mut diamond) = (0.0f64, 0.0f64);
        while !board.is_solved() {
            let hint = match self.next_hint(&board, &mut meter, options.ceiling) {
                Ok(Some(h)) => h,
                Ok(None) => {
                    difficulty = 20.0;
                    rating.solved = false;
                    rating.technique = "(none: no technique applies)".into();
                    break;
                }
                Err(NoHint::Cut(cut)) => {
                    return Err(RateError::Timeout {
                        cut,
                        steps: rating.step_count,
                    })
                }
                Err(NoHint::AboveCeiling(difficulty)) => {
                    return Err(RateError::AboveCeiling {
                        ceiling: options.ceiling.unwrap_or_default(),
                        difficulty,
                        steps: rating.step_count,
                    })
                }
            };
            if options.ceiling.is_some_and(|c| hint.difficulty > c) {
                return Err(RateError::AboveCeiling {
                    ceiling: options.ceiling.unwrap_or_default(),
                    difficulty: hint.difficulty,
                    steps: rating.step_count,
                });
            }
            if hint.difficulty > difficulty {
                difficulty = hint.difficulty;
                rating.hardest = rating.step_count;
                rating.technique.clear();
                rating.technique.push_str(&hint.name);
            }
            let changed = hint.apply(&mut board);
            if pearl == 0.0 {
                if diamond == 0.0 {
                    diamond = difficulty;
                }
                if hint.placement.is_some() {
                    pearl = difficulty;
                }
            }
            rating.step_count += 1;
            if options.keep_steps {
                rating.steps.push(hint);
            }
            if !changed {
                // SE would apply this hint forever; stop as if stuck.
                difficulty = 20.0;
                rating.solved = false;
                rating.technique = "(none: a hint changed nothing)".into();
                break;
            }
        }
        rating.er = if difficulty == f64::NEG_INFINITY {
            0.0
        } else {
            difficulty
        };
        rating.ep = pearl;
        rating.ed = diamond;
        rating.work = meter.used();
        Ok(rating)
    }
}

/// Rates one puzzle with a fresh [`Rater`] and no budget (see
/// [`Rater::rate`]).
pub fn rate(puzzle: &Grid) -> Rating {
    Rater::new()
        .rate(puzzle, &Options::default())
        .expect("no budget, no timeout")
}
