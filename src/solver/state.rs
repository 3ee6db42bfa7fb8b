//! The search state and its propagation: band-digit bitmasks, propagated
//! to a fixed point; [`super::core`] searches over it (branching on a
//! bivalue cell, state copied on guess), [`super::branch`] and
//! [`super::prune`] read and trim it.
//!
//! Design (ALGORITHMS.md section 1, after JCZSolve; written from that
//! description): the state is 27 band masks, one per (digit, band), each
//! holding the cells of that band where the digit can still go (bit layout in
//! [`super::masks`]: bit `9r + c` = band row `r`, column `c`).
//!
//! ```text
//!   cands[16 * b + d]   b = band (0..3), d = digit - 1 (0..9); a band's
//!                       nine masks are contiguous so that clearing a solved
//!                       cell from all of them compiles to a few SIMD
//!                       operations, and b = i >> 4, d = i & 15 cost one
//!                       instruction each
//!   cands[16 * b + 12]  the band's unsolved cells; 16 * b + 13 its bivalue
//!                       cells; the other lanes from 16 * b + 9 on, and all
//!                       of band 3, are 0 (see [`State`])
//!
//!   grid cell i (row-major, 0..81)  ->  band i / 27, bit i % 27
//!
//!         c0 ........ c8
//!   r0 |  0  1 ...  8 |  band 0: cells  0..27, bits 0..27
//!   r1 |  9 10 ... 17 |
//!   r2 | 18 19 ... 26 |
//!   r3 | 27 28 ... 35 |  band 1: cells 27..54, bits 0..27
//!   ..                   band 2: cells 54..81, bits 0..27
//! ```
//!
//! A cell is *solved* once its digit is fixed: it stays in that digit's band
//! mask and leaves every other digit's; the band's unsolved lane holds its
//! other cells. The givens are placed before the first propagation, from
//! SSE2 byte compares over each band (no per-cell branch): each alone in its
//! row, box and column of its digit, gone from the other digits.
//! One propagation step (`update`) works on one (digit, band) mask:
//!
//! 1. [`MINIROWS_IL`] keeps the cells lying on some placement of the digit with
//!    one minirow per band row and per box: locked candidates inside the band,
//!    hidden singles in the band's rows and boxes, dead ends.
//! 2. [`ALONE_BAND`]: a box where the digit is down to one column removes
//!    that column from the digit's other two bands (pointing along a column;
//!    this also covers a digit placed in the band), without a branch.
//! 3. A band row where the digit has one cell left
//!    ([`LONE`](super::masks::LONE)) solves that cell: the cell leaves the
//!    other eight digits' masks at once (three SSE2 steps over the band's
//!    lanes).
//!
//! Only changed masks are updated (a dirty bit per mask), in sweeps: the
//! masks dirty at the start of a sweep, lowest first; masks they dirty wait
//! for the next sweep. When none is dirty, bit-sliced counters across the
//! nine digits of a band find dead cells (no candidate), naked singles and
//! the bivalue cells; a column pass over each digit's three bands finds
//! columns the digit has left (dead) and columns it can only take in one
//! band ([`CLAIM_BAND`]: locked candidates from a column, which includes
//! the hidden singles in columns); it skips a digit that some band holds in
//! one column alone in every stack, which can claim nothing (each update
//! records its pointing mask in the digit's [`POINTED`] lane). At the fixed point the search branches on a
//! cell chosen by [`super::branch`] (a bivalue cell whose candidates have the
//! most peers), copying the state (256 bytes) for every candidate but the
//! last.
//!
//! The hot path has no per-cell loop: cells are only visited one by one in
//! the matching stage (the givens are read 16 cells at a time, the solution
//! is written eight cells at a time).
//!
//! Wall clock follows mispredicted branches and stalled loads more than
//! instruction counts here: branch-free pointing costs 9-14% more
//! instructions and runs 2-16% faster (serg least); see the commit
//! messages for each step's measurements. Vector loads of the candidates must not follow
//! scalar stores to the same lanes closely (the store cannot be forwarded),
//! hence the order of stores in [`State::update`].

#[cfg(any(not(target_arch = "x86_64"), test))]
use super::masks::spread_cols;
use super::masks::{
    fold_cols, interleaved, rows_touched, single_rows, single_rows_table, ALONE_BAND, BAND,
    CLAIM_BAND, MINIROWS_IL,
};
#[cfg(target_arch = "x86_64")]
use super::masks::{pext_pattern, MINIROWS};
use crate::grid::Grid;

/// A contradiction: the current branch has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Dead;

/// Lanes per band in `cands` (9 digits, 7 padding lanes).
pub(super) const LANES: usize = 16;
/// Length of `cands`: three bands of [`LANES`] and a fourth of padding, so
/// that any index below 64 (a bit of a `u64` dirty set, or `LANES * b + d`
/// for `b < 4`, `d < 16`) is in bounds and the compiler drops the checks.
pub(super) const MASKS: usize = 4 * LANES;

/// `OTHERS[LANES * b + d]`: the lanes of digit `d` in the two bands other
/// than `b` (for `b < 3`; padding lanes map to themselves).
const OTHERS: [[u8; 2]; MASKS] = {
    let mut t = [[0u8; 2]; MASKS];
    let mut i = 0;
    while i < MASKS {
        t[i] = if i < 3 * LANES {
            [
                ((i + LANES) % (3 * LANES)) as u8,
                ((i + 2 * LANES) % (3 * LANES)) as u8,
            ]
        } else {
            [i as u8, i as u8]
        };
        i += 1;
    }
    t
};

/// `cands` of the empty grid: every band mask full, every cell unsolved,
/// padding lanes 0.
#[cfg(test)]
const EMPTY_CANDS: [u32; MASKS] = {
    let mut c = [0u32; MASKS];
    let mut i = 0;
    while i < MASKS {
        if (i % LANES < 9 || i % LANES == UNSOLVED) && i < 3 * LANES {
            c[i] = BAND;
        }
        i += 1;
    }
    c
};

/// Lane `LANES * b + UNSOLVED` of `cands`: band mask of the cells of band
/// `b` whose digit is not fixed yet.
pub(super) const UNSOLVED: usize = 12;
/// Lane `LANES * b + PAIRS` of `cands`: the cells of band `b` that had
/// exactly two candidates when the band's counters were last computed
/// ([`State::naked_singles`]); at a fixed point that is the current state
/// (`& unsolved` drops cells solved since), so [`super::branch::branch`] need
/// not count again.
pub(super) const PAIRS: usize = 13;
/// Lane `POINTED + d` (`d` < 9) of `cands`: the OR of the pointing masks
/// ([`ALONE_BAND`]) that the updates of digit `d`'s three masks have
/// produced since the search root: bit `9r + c` set (for every band row
/// `r`) once some band's mask of the digit has held column `c` alone in its
/// box. A box stays confined to its column (or empties, a dead end), so
/// the lane only grows, and a guess's child inherits it. The column pass
/// skips a digit whose lane covers all three stacks ([`State::column_claims`]).
pub(super) const POINTED: usize = 48;

// The root passes' lane-wise constants ([`State::root_pass_avx512`],
// [`State::root_pass_lanes`]; band words as in [`super::masks`]).

/// The 27 cells of a band word.
const BAND_CELLS: u32 = 0x7ff_ffff;
/// The first cell of each minirow (bit `9r + 3k`): a minirow's three bits
/// ORed down to it give the minirows where the digit can go.
const MINIROW_FIRST: u32 = 0x124_9249;
/// A row's minirows turned one box to the right: the bits kept after a
/// shift up by 3 and after a shift down by 6.
const TURN_ONE: [u32; 2] = [0x120_9048, 0x4_0201];
/// A row's minirows turned two boxes to the right: the bits kept after a
/// shift up by 6 and after a shift down by 3.
const TURN_TWO: [u32; 2] = [0x100_8040, 0x24_1209];
/// A 9-bit column set's columns turned one place within their stack: the
/// bits kept after a shift up by 1 and after a shift down by 2.
const STACK_ONE: [u32; 2] = [0o666, 0o111];
/// The same turned two places: after a shift up by 2 and down by 1.
const STACK_TWO: [u32; 2] = [0o444, 0o333];

/// One search node's candidates.
///
/// ```text
///   cands[16b + 0..9]   digit masks of band b (d = 0..9)
///   cands[16b + 9..12]  0 (read and written by the SSE2 steps)
///   cands[16b + 12]     unsolved cells of band b   (UNSOLVED)
///   cands[16b + 13]     bivalue cells of band b    (PAIRS)
///   cands[48 + d]       columns where digit d has been alone in its box
///                       in some band                (POINTED)
///   cands[16b + 14..16], cands[57..64]  0
/// ```
/// The per-band words live in padding lanes so that a guess copies 256
/// bytes (the candidates, not the dirty set) instead of 296 for separate
/// fields: `memcpy` takes ~29 instructions instead of ~64 (callgrind; the
/// copy is still a call, too large to inline without AVX).
#[derive(Clone, Copy, Debug)]
pub(super) struct State {
    /// `cands[LANES * b + d]`: band mask of the cells of band `b` where digit
    /// `d + 1` can go, solved cells included; the per-band words above.
    pub(super) cands: [u32; MASKS],
    /// Bit `i` set: `cands[i]` changed since its last update. Always 0 at a
    /// fixed point, so a guess does not copy it.
    pub(super) dirty: u64,
}

impl State {
    /// The state of an empty grid: every digit possible everywhere.
    #[cfg(test)]
    pub(super) fn empty() -> State {
        State {
            cands: EMPTY_CANDS,
            // A full mask has nothing to propagate: only placements dirty masks.
            dirty: 0,
        }
    }

    /// The state of `puzzle` before propagation ([`State::set_grid`] on
    /// a zeroed state), for tests.
    #[cfg(test)]
    pub(super) fn from_grid(puzzle: &Grid) -> State {
        let mut st = State {
            cands: [0; MASKS],
            dirty: 0,
        };
        st.set_grid(puzzle);
        st
    }

    /// Sets a state whose lanes are all 0 to that of `puzzle` before
    /// propagation, its givens placed: each
    /// given is solved, alone in its row, box and column of its digit's
    /// masks, and gone from the other digits' masks; every mask of a band
    /// with a given is dirty (the first propagation does the rest). A band
    /// without givens only loses, per digit, the at most two columns given
    /// in the other bands: no minirow empties, no row is left with one
    /// cell, and a box left with one column points only where the givens'
    /// boxes already cleared, so its masks need no update; and each of its
    /// cells keeps three or more candidates (six at most are given in its
    /// column), so its naked-singles pass and bivalue cells can wait.
    ///
    /// Givens that clash (a digit twice in a unit) are not checked here:
    /// propagation finds most clashes at once, and a search from the others
    /// checks them once it has met [`CHECK_GIVENS_AFTER`](super::core) dead ends
    /// (`Run::givens_clash` in [`super::core`]).
    ///
    /// Branch-free: the givens of each (digit, band) come from
    /// [`given_masks`], so a puzzle's clue layout costs no mispredicted
    /// branch, and placing them here saves the first propagation one
    /// clearing of solved cells per mask and the updates that follow it.
    ///
    /// In place, so that the search root is built where the search reads
    /// it: returned by value, the state was copied (a `memcpy` call whose
    /// 32-byte loads, over the 16-byte stores just made, wait for those
    /// stores to commit).
    #[inline]
    pub(super) fn set_grid(&mut self, puzzle: &Grid) {
        let st = self;
        // givens[b][0]: blank cells of band b; givens[b][d + 1]: its cells
        // given digit d + 1; givens[b][10..13]: 0.
        let givens = band_givens(puzzle.cells());
        digit_masks(&mut st.cands, &givens);
        for (b, band) in givens.iter().enumerate() {
            let open = band[0];
            st.cands[LANES * b + UNSOLVED] = open;
            // All nine masks when the band has a given, else none.
            let any = ((open ^ BAND) != 0) as u64;
            st.dirty |= (0o777 * any) << (LANES * b);
        }
    }

    /// Removes from the digit masks every candidate `masks` eliminates
    /// (bit `d` of `masks[cell]` clear: digit `d` is not possible there;
    /// see [`Pencilmarks`]) and marks every mask dirty, so that the first
    /// propagation starts from them. Called after [`State::set_grid`] with
    /// the pencilmarks' single-candidate cells as givens, so solved cells
    /// keep their own digit. A cell left without a candidate is found dead
    /// by the first propagation's counters.
    pub(super) fn restrict(&mut self, masks: &[u16; 81]) {
        for (cell, &m) in masks.iter().enumerate() {
            let (b, bit) = (cell / 27, cell % 27);
            for d in 0..9 {
                if m & 1 << (d + 1) == 0 {
                    self.cands[LANES * b + d] &= !(1 << bit);
                }
            }
        }
        for b in 0..3 {
            self.dirty |= 0o777 << (LANES * b);
        }
    }

    /// WNF's `C_n` (SEEDS.md section 2): `counts[n]` is the number of blank
    /// cells with exactly `n` candidates (`n` in 0..=9), each blank cell's
    /// candidates being the digits not given among its peers. Meaningful
    /// right after [`State::set_grid`], whose masks are exactly that on the
    /// blank cells (the unsolved lanes), whether or not the givens clash.
    ///
    /// Bit-sliced: a 4-bit counter per cell (planes `s0..s3`) summed over the
    /// nine digit masks, bands 0 and 1 packed into one `u64` (bits 0..27 and
    /// 27..54) and band 2 in another; then per count `n` one mask of the
    /// cells whose counter reads `n`, and its popcount. No per-cell loop.
    ///
    /// The x86_64 baseline has no popcount instruction and the software
    /// one costs ~12 instructions a word, half of this function: where the
    /// CPU has `popcnt` (std's cached runtime check), the same code is
    /// compiled with it.
    #[inline]
    pub(super) fn candidate_counts(&self) -> [u32; 10] {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has popcnt, checked just above.
            return unsafe { self.candidate_counts_popcnt() };
        }
        self.candidate_counts_plain()
    }

    /// [`State::candidate_counts`] compiled with the `popcnt` instruction.
    ///
    /// # Safety
    /// The CPU must support `popcnt`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn candidate_counts_popcnt(&self) -> [u32; 10] {
        self.candidate_counts_plain()
    }

    /// The body of [`State::candidate_counts`], for any CPU.
    #[inline(always)]
    fn candidate_counts_plain(&self) -> [u32; 10] {
        let pack = |lane: usize| -> [u64; 2] {
            [
                u64::from(self.cands[lane] & self.unsolved(0))
                    | u64::from(self.cands[LANES + lane] & self.unsolved(1)) << 27,
                u64::from(self.cands[2 * LANES + lane] & self.unsolved(2)),
            ]
        };
        let open = [
            u64::from(self.unsolved(0)) | u64::from(self.unsolved(1)) << 27,
            u64::from(self.unsolved(2)),
        ];
        let mut counts = [0u32; 10];
        for (w, &open) in open.iter().enumerate() {
            let (mut s0, mut s1, mut s2, mut s3) = (0u64, 0u64, 0u64, 0u64);
            for d in 0..9 {
                let x = pack(d)[w];
                let c0 = s0 & x;
                s0 ^= x;
                let c1 = s1 & c0;
                s1 ^= c0;
                let c2 = s2 & c1;
                s2 ^= c1;
                // At most 9: the fourth plane never carries.
                s3 |= c2;
            }
            for (n, count) in counts.iter_mut().enumerate() {
                let plane = |s: u64, bit: usize| if n >> bit & 1 == 1 { s } else { !s };
                let cells = open & plane(s0, 0) & plane(s1, 1) & plane(s2, 2) & plane(s3, 3);
                *count += cells.count_ones();
            }
        }
        counts
    }

    /// The cells of band `b` (below 4; band 3 is empty) whose digit is not
    /// fixed yet.
    #[inline]
    pub(super) fn unsolved(&self, b: usize) -> u32 {
        self.cands[(LANES * b + UNSOLVED) & 63]
    }

    /// The cells of band `b` (below 4) kept in lane [`PAIRS`]: bivalue when
    /// the band's counters last ran (solved cells included).
    #[inline]
    pub(super) fn pairs(&self, b: usize) -> u32 {
        self.cands[(LANES * b + PAIRS) & 63]
    }

    /// A guess's child: the candidates without the (empty) dirty set.
    #[inline]
    pub(super) fn child(&self) -> State {
        debug_assert_eq!(self.dirty, 0, "guess off a fixed point");
        State {
            cands: self.cands,
            dirty: 0,
        }
    }

    /// Fixes digit `d` (0-based) in `cells` of band `b` (at most one cell
    /// per band row): trims those rows of the digit's mask to the cells; the
    /// next update does the rest. `Err` if a cell lost the digit or two cells
    /// share a row.
    #[inline]
    pub(super) fn place(&mut self, d: usize, b: usize, cells: u32) -> Result<(), Dead> {
        let i = LANES * b + d;
        let cur = self.cands[i];
        if cur & cells != cells || single_rows_table(cells) != cells {
            return Err(Dead);
        }
        self.cands[i] = cur & (cells | !rows_touched(cells));
        self.dirty |= 1u64 << i;
        Ok(())
    }

    /// [`State::place`] for the one cell at bit `bit` (0..27) of band `b`.
    #[inline]
    pub(super) fn place_one(&mut self, d: usize, b: usize, bit: usize) -> Result<(), Dead> {
        let i = (LANES * b + d) & 63;
        let cell = 1u32 << bit;
        let cur = self.cands[i];
        if cur & cell == 0 {
            return Err(Dead);
        }
        self.cands[i] = cur & (cell | !(0o777 << (9 * (bit / 9))));
        self.dirty |= 1u64 << i;
        Ok(())
    }

    /// Removes digit `d` from `cells` of band `b`; marks the mask dirty if it
    /// changed.
    #[inline]
    pub(super) fn remove(&mut self, d: usize, b: usize, cells: u32) {
        let mut dirty = self.dirty;
        self.remove_at(LANES * b + d, cells, &mut dirty);
        self.dirty = dirty;
    }

    /// [`State::remove`] on mask `i = LANES * b + d` (below 64), marking it
    /// in `dirty` (the propagation's dirty set, kept in a register while it
    /// runs).
    #[inline]
    fn remove_at(&mut self, i: usize, cells: u32, dirty: &mut u64) {
        let i = i & 63;
        let old = self.cands[i];
        let new = old & !cells;
        if new != old {
            self.cands[i] = new;
            *dirty |= 1u64 << i;
        }
    }

    /// Removes the cells `solved` (just fixed to digit `d`) from the other
    /// eight digits of band `b`, and sets the owner's lane to `own` (its new
    /// mask, holding `solved`).
    ///
    /// The update stores the owner's new mask here, after the vector loads,
    /// not before: a 16-byte load over a 4-byte store still in flight
    /// cannot take its data from the store and waits for it to commit.
    ///
    /// On x86_64 this is three SSE2 steps over lanes `16b..16b+12` (lanes
    /// 9..12 are padding, always 0, so they never change): AND-NOT, then a
    /// signed compare with zero (greater, so that the mask needs no
    /// inverting), two saturating packs and `pmovmskb` give the changed
    /// lanes.
    /// The portable loop below it compiled to ~50 instructions per call;
    /// this is ~25 (callgrind, 17-clue: ~70 calls per puzzle).
    #[inline]
    #[cfg(target_arch = "x86_64")]
    fn clear_solved(&mut self, b: usize, d: usize, solved: u32, own: u32, dirty: &mut u64) {
        use std::arch::x86_64::*;
        let base = LANES * (b & 3);
        let lanes: &mut [u32; 12] = (&mut self.cands[base..base + 12])
            .try_into()
            .expect("12 lanes");
        let ptr = lanes.as_mut_ptr() as *mut __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline; `lanes` is 12 u32 =
        // three 16-byte vectors, borrowed mutably, and unaligned loads and
        // stores need no alignment.
        let changed = unsafe {
            let s = _mm_set1_epi32(solved as i32);
            let zero = _mm_setzero_si128();
            let mut hit = [zero; 3];
            for (k, h) in hit.iter_mut().enumerate() {
                let v = _mm_loadu_si128(ptr.add(k));
                *h = _mm_and_si128(v, s);
                _mm_storeu_si128(ptr.add(k), _mm_xor_si128(v, *h));
            }
            // Lane k touched (hit > 0: band masks are below 2^27, so
            // positive) -> all-ones; saturating packs keep that, so one
            // byte mask gives bit k for lane k, and 0 past lane 12.
            let touched = _mm_packs_epi16(
                _mm_packs_epi32(_mm_cmpgt_epi32(hit[0], zero), _mm_cmpgt_epi32(hit[1], zero)),
                _mm_packs_epi32(_mm_cmpgt_epi32(hit[2], zero), zero),
            );
            _mm_movemask_epi8(touched) as u32
        };
        self.cands[(base + d) & 63] = own;
        let changed = (changed & !(1 << d)) as u64;
        *dirty |= changed << (LANES * b);
    }

    /// [`State::clear_solved`] where there is no SSE2.
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    fn clear_solved(&mut self, b: usize, d: usize, solved: u32, own: u32, dirty: &mut u64) {
        self.clear_solved_portable(b, d, solved, own, dirty)
    }

    /// Portable [`State::clear_solved`]: lane-wise over the band's lanes.
    /// Also built in tests on x86_64, where a test holds the SSE2 version to it.
    #[inline]
    #[cfg(any(not(target_arch = "x86_64"), test))]
    fn clear_solved_portable(
        &mut self,
        b: usize,
        d: usize,
        solved: u32,
        own: u32,
        dirty: &mut u64,
    ) {
        let lanes = &mut self.cands[LANES * b..LANES * b + 9];
        let mut changed = 0u64;
        for (k, lane) in lanes.iter_mut().enumerate() {
            let hit = *lane & solved;
            *lane ^= hit;
            changed |= ((hit != 0) as u64) << k;
        }
        lanes[d] = own;
        changed &= !(1 << d);
        *dirty |= changed << (LANES * b);
    }

    /// One propagation step on mask `i = LANES * b + d` (see the module doc).
    ///
    /// `PEXT`: read the row-by-box pattern with `pext` into [`MINIROWS`]
    /// (set only in copies compiled with BMI2, [`super::simd::Simd::Avx2Pext`]
    /// and [`super::simd::Simd::Avx512`]), and compute the lone rows with
    /// `blsr` ([`single_rows`]); otherwise the ten ALU instructions of
    /// [`interleaved`] into [`MINIROWS_IL`], and [`single_rows_table`].
    ///
    /// Always inlined: left to the compiler, a small change elsewhere in
    /// the update once made it an out-of-line function compiled for the
    /// baseline, where `pext` is a call, and that build ran every set 27-42%
    /// slower; the same change inlined cost 7-11% (BENCHMARKS.md).
    #[inline(always)]
    fn update<const PEXT: bool>(&mut self, i: usize, dirty: &mut u64) -> Result<(), Dead> {
        let b = (i >> 4) & 3;
        let m = self.cands[i];
        #[cfg(target_arch = "x86_64")]
        let band = if PEXT {
            // SAFETY: PEXT is only set by the copies compiled with BMI2.
            m & MINIROWS[unsafe { pext_pattern(m) } & 511]
        } else {
            m & MINIROWS_IL[interleaved(m)]
        };
        #[cfg(not(target_arch = "x86_64"))]
        let band = m & MINIROWS_IL[interleaved(m)];
        if band == 0 {
            return Err(Dead);
        }
        let point = ALONE_BAND[fold_cols(band) as usize];
        // `i | POINTED` is lane POINTED + d for i = LANES * b + d, b < 3.
        self.cands[(i | POINTED) & 63] |= point;
        // The same digit's lanes in the other two bands (a table: two loads
        // cost fewer instructions than computing them).
        let [i1, i2] = OTHERS[i & 63];
        let (i1, i2) = (i1 as usize & 63, i2 as usize & 63);
        // Branch-free: whether the other bands still hold these columns is
        // close to a coin toss (44% on serg), and the test mispredicted
        // often enough to cost more than the stores and flags it saves.
        let (old1, old2) = (self.cands[i1], self.cands[i2]);
        self.cands[i1] = old1 & !point;
        self.cands[i2] = old2 & !point;
        *dirty |= (((old1 & point) != 0) as u64) << i1 | (((old2 & point) != 0) as u64) << i2;
        let u = (LANES * b + UNSOLVED) & 63;
        // The copies with BMI compute the lone rows (`blsr`, `cmov`); the
        // others look them up (see `single_rows`).
        let lone_rows = if PEXT {
            single_rows(band)
        } else {
            single_rows_table(band)
        };
        let solved = lone_rows & self.cands[u];
        if solved != 0 {
            self.cands[u] &= !solved;
            self.clear_solved(b, i & 15, solved, band, dirty);
        } else {
            self.cands[i] = band;
        }
        Ok(())
    }

    /// Bit-sliced counters over the nine digit masks of band `b`: the cells
    /// with at least 1, 2 and 3 candidates.
    ///
    /// On x86_64, SSE2 over the band's lanes as three vectors of four
    /// (lanes 9..12 are 0): saturating counters lane-wise, then two halving
    /// steps across lanes, merging counters `a`, `c` as `>=1: a1|c1`,
    /// `>=2: a2|c2|a1&c1`, `>=3: a3|c3|a2&c1|a1&c2` (~38 instructions against
    /// ~60 for the scalar loop).
    #[inline]
    #[cfg(target_arch = "x86_64")]
    fn counters(&self, b: usize) -> [u32; 3] {
        use std::arch::x86_64::*;
        let base = LANES * (b & 3);
        let lanes: &[u32; 12] = (&self.cands[base..base + 12]).try_into().expect("12 lanes");
        let ptr = lanes.as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline; `lanes` is 12 u32 =
        // three 16-byte vectors, and unaligned loads need no alignment.
        unsafe {
            let (v0, v1, v2) = (
                _mm_loadu_si128(ptr),
                _mm_loadu_si128(ptr.add(1)),
                _mm_loadu_si128(ptr.add(2)),
            );
            let v01 = _mm_or_si128(v0, v1);
            let mut a1 = _mm_or_si128(v01, v2);
            let both = _mm_and_si128(v0, v1);
            let mut a2 = _mm_or_si128(both, _mm_and_si128(v2, v01));
            let mut a3 = _mm_and_si128(both, v2);
            macro_rules! halve {
                ($imm:expr) => {
                    let (c1, c2, c3) = (
                        _mm_shuffle_epi32::<$imm>(a1),
                        _mm_shuffle_epi32::<$imm>(a2),
                        _mm_shuffle_epi32::<$imm>(a3),
                    );
                    a3 = _mm_or_si128(
                        _mm_or_si128(a3, c3),
                        _mm_or_si128(_mm_and_si128(a2, c1), _mm_and_si128(a1, c2)),
                    );
                    a2 = _mm_or_si128(_mm_or_si128(a2, c2), _mm_and_si128(a1, c1));
                    a1 = _mm_or_si128(a1, c1);
                };
            }
            halve!(0b1110);
            halve!(0b0001);
            [
                _mm_cvtsi128_si32(a1) as u32,
                _mm_cvtsi128_si32(a2) as u32,
                _mm_cvtsi128_si32(a3) as u32,
            ]
        }
    }

    /// [`State::counters`] where there is no SSE2.
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    fn counters(&self, b: usize) -> [u32; 3] {
        self.counters_portable(b)
    }

    /// Portable [`State::counters`]: one digit mask at a time. Also built in
    /// tests on x86_64, where a test holds the SSE2 version to it.
    #[inline]
    #[cfg(any(not(target_arch = "x86_64"), test))]
    fn counters_portable(&self, b: usize) -> [u32; 3] {
        let (mut at_least_1, mut at_least_2, mut at_least_3) = (0u32, 0u32, 0u32);
        for d in 0..9 {
            let cells = self.cands[LANES * b + d];
            at_least_3 |= at_least_2 & cells;
            at_least_2 |= at_least_1 & cells;
            at_least_1 |= cells;
        }
        [at_least_1, at_least_2, at_least_3]
    }

    /// The digits (bit `d`, 0..9) whose mask in band `b` holds one of
    /// `cells`.
    ///
    /// On x86_64, SSE2 over the band's lanes as three vectors (lanes 9..12
    /// are 0): AND, a greater-than compare with zero (band masks are
    /// positive), two saturating packs and `pmovmskb`, as in
    /// [`State::clear_solved`]; ~16 instructions against ~55 for a test per
    /// digit, with no branch per digit.
    #[inline]
    #[cfg(target_arch = "x86_64")]
    fn digits_in(&self, b: usize, cells: u32) -> u32 {
        use std::arch::x86_64::*;
        let base = LANES * (b & 3);
        let lanes: &[u32; 12] = (&self.cands[base..base + 12]).try_into().expect("12 lanes");
        let ptr = lanes.as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline; `lanes` is 12 u32 =
        // three 16-byte vectors, and unaligned loads need no alignment.
        unsafe {
            let want = _mm_set1_epi32(cells as i32);
            let zero = _mm_setzero_si128();
            let hit =
                |k: usize| _mm_cmpgt_epi32(_mm_and_si128(_mm_loadu_si128(ptr.add(k)), want), zero);
            let packed = _mm_packs_epi16(
                _mm_packs_epi32(hit(0), hit(1)),
                _mm_packs_epi32(hit(2), zero),
            );
            _mm_movemask_epi8(packed) as u32
        }
    }

    /// [`State::digits_in`] where there is no SSE2.
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    fn digits_in(&self, b: usize, cells: u32) -> u32 {
        self.digits_in_portable(b, cells)
    }

    /// Portable [`State::digits_in`]: one digit at a time. Also built in
    /// tests on x86_64, where a test holds the SSE2 version to it.
    #[inline]
    #[cfg(any(not(target_arch = "x86_64"), test))]
    fn digits_in_portable(&self, b: usize, cells: u32) -> u32 {
        (0..9).fold(0, |set, d| {
            set | ((self.cands[LANES * b + d] & cells != 0) as u32) << d
        })
    }

    /// Naked singles and dead cells from bit-sliced counters; true if some
    /// naked single was placed.
    ///
    /// Always inlined, so that each copy of [`State::propagate`] holds its
    /// own: left to the compiler it stayed one out-of-line function,
    /// compiled for the baseline and called from the AVX2 copy too (inlined:
    /// -2.8% instructions on hardest_1106, callgrind).
    #[inline(always)]
    fn naked_singles(&mut self, touched: u64) -> Result<bool, Dead> {
        let mut found = false;
        for b in 0..3 {
            let unsolved = self.unsolved(b);
            if unsolved == 0 || (touched >> (LANES * b)) & 0o777 == 0 {
                continue;
            }
            // at_least_k: cells with >= k candidates.
            let [at_least_1, at_least_2, at_least_3] = self.counters(b);
            self.cands[LANES * b + PAIRS] = unsolved & at_least_2 & !at_least_3;
            if unsolved & !at_least_1 != 0 {
                return Err(Dead);
            }
            let singles = unsolved & !at_least_2;
            if singles != 0 {
                found = true;
                // Placing digit d changes only its own lane, so the digits
                // found up front are the ones a lane-by-lane walk would see.
                let mut digits = self.digits_in(b, singles);
                while digits != 0 {
                    let d = digits.trailing_zeros() as usize & 15;
                    digits &= digits - 1;
                    self.place(d, b, self.cands[(LANES * b + d) & 63] & singles)?;
                }
            }
        }
        Ok(found)
    }

    /// True when digit `d`'s [`POINTED`] lane covers all three stacks (one
    /// digit of [`State::pointed_digits`]).
    #[inline]
    #[cfg(any(not(target_arch = "x86_64"), test))]
    fn stacks_pointed(&self, d: usize) -> bool {
        let pointed = self.cands[(POINTED + d) & 63];
        (pointed | pointed >> 1 | pointed >> 2) & 0o111 == 0o111
    }

    /// The digits (bit `d`, 0..9) whose [`POINTED`] lane covers all three
    /// stacks: at a fixed point of the updates, the column pass can neither
    /// claim nor find a dead column for them ([`State::column_claims`]).
    ///
    /// On x86_64, SSE2 over lanes `POINTED..POINTED + 12` as three vectors
    /// (lanes past the ninth digit are 0, so never covered): the stack test
    /// lane-wise, a compare, then two saturating packs and `pmovmskb` give
    /// one bit per lane, as in [`State::clear_solved`] (~30 instructions a
    /// pass against ~10 per digit tested one at a time, ~5 digits a pass
    /// on serg).
    #[inline]
    #[cfg(target_arch = "x86_64")]
    fn pointed_digits(&self) -> u32 {
        use std::arch::x86_64::*;
        let lanes: &[u32; 12] = (&self.cands[POINTED..POINTED + 12])
            .try_into()
            .expect("12 lanes");
        let ptr = lanes.as_ptr() as *const __m128i;
        // SAFETY: SSE2 is part of the x86_64 baseline; `lanes` is 12 u32 =
        // three 16-byte vectors, and unaligned loads need no alignment.
        unsafe {
            let stacks = _mm_set1_epi32(0o111);
            let covered = |k: usize| {
                let v = _mm_loadu_si128(ptr.add(k));
                let any = _mm_or_si128(
                    v,
                    _mm_or_si128(_mm_srli_epi32::<1>(v), _mm_srli_epi32::<2>(v)),
                );
                _mm_cmpeq_epi32(_mm_and_si128(any, stacks), stacks)
            };
            let packed = _mm_packs_epi16(
                _mm_packs_epi32(covered(0), covered(1)),
                _mm_packs_epi32(covered(2), _mm_setzero_si128()),
            );
            _mm_movemask_epi8(packed) as u32 & 0o777
        }
    }

    /// [`State::pointed_digits`] where there is no SSE2.
    #[inline]
    #[cfg(not(target_arch = "x86_64"))]
    fn pointed_digits(&self) -> u32 {
        self.pointed_digits_portable()
    }

    /// Portable [`State::pointed_digits`]: one digit at a time. Also built
    /// in tests on x86_64, where a test holds the SSE2 version to it.
    #[inline]
    #[cfg(any(not(target_arch = "x86_64"), test))]
    fn pointed_digits_portable(&self) -> u32 {
        (0..9).fold(0, |set, d| set | (self.stacks_pointed(d) as u32) << d)
    }

    /// The column claims of digit `d` (0-based): per band, the band mask
    /// that band's mask of the digit may keep; `Err` if a column has lost
    /// the digit in all three bands.
    #[inline]
    fn claim_keep(&self, d: usize) -> Result<[u32; 3], Dead> {
        let d = d & 15;
        let cols = [
            fold_cols(self.cands[d]),
            fold_cols(self.cands[LANES + d]),
            fold_cols(self.cands[2 * LANES + d]),
        ];
        let twice = (cols[0] & cols[1]) | (cols[0] & cols[2]) | (cols[1] & cols[2]);
        if cols[0] | cols[1] | cols[2] != 0o777 {
            return Err(Dead);
        }
        Ok([
            CLAIM_BAND[(cols[0] & !twice) as usize],
            CLAIM_BAND[(cols[1] & !twice) as usize],
            CLAIM_BAND[(cols[2] & !twice) as usize],
        ])
    }

    /// True when the column pass would leave digit `d` as it is: no dead
    /// column, nothing claimed. For the checks on [`State::pointed_digits`].
    fn claims_nothing(&self, d: usize) -> bool {
        self.claim_keep(d)
            .is_ok_and(|keep| (0..3).all(|b| self.cands[LANES * b + d] & !keep[b] == 0))
    }

    /// Column pass: for each digit, every column must keep the digit in some
    /// band, and a column where it is left in one band only claims it there
    /// ([`CLAIM_BAND`]). True if a mask changed.
    ///
    /// Called at a fixed point of the updates, where every box's pointing
    /// has been applied. There, a stack (three boxes of one column of
    /// boxes) in which some band holds the digit in one column alone can
    /// neither claim nor have an empty column: that column has left the
    /// other two bands, each of which keeps the digit in the stack's other
    /// two columns; if one of them is down to one column, pointing left the
    /// third band the last one, so every band holds one column of its own;
    /// if neither is, both hold both, and each column is in two bands. So a
    /// digit whose [`POINTED`] lane covers the three stacks is skipped
    /// (exact: the same claims and dead ends), all nine found at once by
    /// [`State::pointed_digits`]. On serg 88% of the digits changed are
    /// skipped this way (47.7k of 414.8k go through the pass).
    #[inline]
    fn column_claims(&mut self, touched: u64) -> Result<bool, Dead> {
        let mut changed = false;
        let mut digits = (touched | touched >> LANES | touched >> (2 * LANES)) & 0o777;
        let skipped = digits & self.pointed_digits() as u64;
        // Exact only from givens that do not clash: clashing givens (two of
        // a digit in a row of one band) leave the band's masks inconsistent,
        // where a skipped digit may claim; such a search can only end in
        // dead ends and no solution all the same (fuzz/regressions/solver/).
        debug_assert!(
            GIVENS_CLASH.with(std::cell::Cell::get)
                || (0..9).all(|d| skipped >> d & 1 == 0 || self.claims_nothing(d)),
            "skipped digits {skipped:#o} but some claims"
        );
        digits &= !skipped;
        while digits != 0 {
            let d = digits.trailing_zeros() as usize & 15;
            digits &= digits - 1;
            let keep = self.claim_keep(d)?;
            // Branch-free: CLAIM[0] keeps every column, so a band with no
            // column of its own costs no test; one test for the digit.
            let lose = [
                self.cands[d] & !keep[0],
                self.cands[LANES + d] & !keep[1],
                self.cands[2 * LANES + d] & !keep[2],
            ];
            if lose[0] | lose[1] | lose[2] != 0 {
                for (b, (&lost, &kept)) in lose.iter().zip(&keep).enumerate() {
                    if lost != 0 {
                        let i = LANES * b + d;
                        self.cands[i] &= kept;
                        self.dirty |= 1u64 << i;
                    }
                }
                changed = true;
            }
        }
        Ok(changed)
    }

    /// Basic propagation to a fixed point: updates, naked singles, column
    /// claims.
    ///
    /// Naked singles and column claims only look at the bands and digits
    /// whose masks changed (`touched`) since they last ran: at the previous
    /// fixed point every band and digit was checked, and their results depend
    /// only on those masks. This halved the column pass's cost on serg.
    ///
    /// Measured and left out (serg): giving naked singles only the bands
    /// changed since its own last pass (+0.2% instructions); skipping bands
    /// whose unsolved cells lost no candidate (only 7.5% of the band
    /// counts); not dirtying a mask that loses a solved cell when no
    /// minirow or column empties and no row is left with one cell (12% of
    /// those marks). About half the updates change nothing on serg.
    ///
    /// Runs the copy compiled for the path [`super::simd::current`] gives:
    /// the same code, with AVX2 and BMI where the CPU has them.
    #[inline]
    pub(super) fn propagate(&mut self) -> Result<(), Dead> {
        #[cfg(target_arch = "x86_64")]
        match super::simd::current() {
            // SAFETY: a path is only chosen (or forced) where the CPU has
            // every feature its copy is compiled with.
            super::simd::Simd::Avx512 => return unsafe { self.propagate_avx512() },
            super::simd::Simd::Avx2Pext => return unsafe { self.propagate_avx2::<true>() },
            super::simd::Simd::Avx2 => return unsafe { self.propagate_avx2::<false>() },
            super::simd::Simd::Sse2 => {}
        }
        self.propagate_baseline()
    }

    /// [`State::propagate`] for the x86_64 baseline (or any architecture).
    #[inline(never)]
    fn propagate_baseline(&mut self) -> Result<(), Dead> {
        self.propagate_body::<false>()
    }

    /// [`State::propagate`] compiled with AVX2, BMI1, BMI2, POPCNT, LZCNT;
    /// with `PEXT`, the minirow pattern is read by `pext` ([`State::update`]).
    ///
    /// # Safety
    /// The CPU must have those features ([`super::simd::avx2_available`]);
    /// with `PEXT`, `pext` should be fast ([`super::simd::fast_pext_available`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
    #[inline(never)]
    unsafe fn propagate_avx2<const PEXT: bool>(&mut self) -> Result<(), Dead> {
        self.propagate_body::<PEXT>()
    }

    /// [`State::propagate`] compiled with AVX-512 (F, VL, BW, DQ, CD) on top
    /// of [`State::propagate_avx2`]'s features, `pext` included.
    ///
    /// # Safety
    /// The CPU must have those features ([`super::simd::avx512_available`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(
        enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd"
    )]
    #[inline(never)]
    unsafe fn propagate_avx512(&mut self) -> Result<(), Dead> {
        self.propagate_body::<true>()
    }

    /// The body of [`State::propagate`], inlined into each copy (and into
    /// each copy of the search); `PEXT` as in [`State::update`].
    #[inline(always)]
    pub(super) fn propagate_body<const PEXT: bool>(&mut self) -> Result<(), Dead> {
        self.propagate_from::<PEXT>(0)
    }

    /// [`State::propagate_body`] after a pass that already updated the masks
    /// in `touched` ([`State::root_pass_avx512`]): their bands and digits
    /// still get the naked-singles and column passes.
    #[inline(always)]
    pub(super) fn propagate_from<const PEXT: bool>(
        &mut self,
        mut touched: u64,
    ) -> Result<(), Dead> {
        loop {
            // The dirty set lives in a register while the updates run; the
            // naked-singles and column passes mark masks in `self.dirty`.
            let mut dirty = std::mem::take(&mut self.dirty);
            while dirty != 0 {
                // Sweeps: the masks dirty now, lowest first; masks they dirty
                // wait for the next sweep, so each update sees more changes
                // at once. Measured against round robin (taking a mask dirtied
                // ahead of the cursor in the same pass): -18% instructions on
                // 17-clue, -7% serg, -11% top1465 and hardest_1106; highest
                // first within a sweep: +5% on 17-clue. One loop for all
                // sweeps, the next sweep taken branch-free when one runs out,
                // cut simulated mispredicts by a fifth but ran serg ~17%
                // slower: the next mask then depends on the update's dirty
                // set, so consecutive updates no longer overlap.
                let mut sweep = dirty;
                touched |= sweep;
                while sweep != 0 {
                    let i = sweep.trailing_zeros() as usize & 63;
                    sweep &= sweep - 1;
                    dirty &= !(1u64 << i);
                    self.update::<PEXT>(i, &mut dirty)?;
                }
            }
            if self.naked_singles(touched)? {
                continue;
            }
            let claimed = self.column_claims(touched)?;
            touched = 0;
            if !claimed {
                return Ok(());
            }
        }
    }

    /// One update ([`State::update`]) of all 27 digit masks at once, each
    /// band's nine masks the lanes of one 512-bit vector, for the search
    /// root, where every mask of a band with a given is dirty; returns the
    /// masks it updated (for [`State::propagate_from`]) and leaves dirty
    /// the masks that still need a scalar update.
    ///
    /// Per mask `m`, as lane-wise logic in place of the tables: the
    /// minirows `x` (bit `9r + 3k` set where band row `r` holds the digit
    /// in box `k`), kept where some placement of one minirow per row and
    /// per box goes through them: `x(r, k)` and either `x(r+1, k+1) &
    /// x(r+2, k+2)` or `x(r+1, k+2) & x(r+2, k+1)` (rows and boxes mod 3;
    /// [`MINIROWS`]); the columns alone in their box ([`ALONE_BAND`]),
    /// removed from the digit's other two bands. All 27 updates read the
    /// masks as they were (a Jacobi step, where the scalar sweep is
    /// Gauss-Seidel): the fixed point, and so the search, is the same.
    /// Rows left with one unsolved cell are not placed here: their masks
    /// stay dirty, as do masks the other bands' pointing changed.
    ///
    /// About 150 vector instructions against the 27 dependent chains of
    /// table loads of the first sweep. Measured (Zen 4, `solve -j 1
    /// --no-guess`, counted updates): the root's scalar updates per puzzle
    /// 32.9 -> 6.0 on serg, 99.6 -> 82.8 on 17-clue; `bench -s sudoflow
    /// --permute=R` alternated, medians of two runs (5 and 7 rounds): serg
    /// +6.5% and +2.7%, 17-clue +1.3% and +2.2%, top1465 +1%,
    /// hardest_1106 within noise (BENCHMARKS.md). The same
    /// fixed point, so the same guesses, counts and solutions (the test
    /// below, and `tests/solver_simd.rs` across the paths).
    ///
    /// # Safety
    /// The CPU must have AVX-512 F, VL, BW and DQ.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512vl,avx512bw,avx512dq")]
    #[inline]
    pub(super) unsafe fn root_pass_avx512(&mut self) -> Result<u64, Dead> {
        use std::arch::x86_64::*;
        const K: __mmask16 = 0x1ff;
        let c = |x: u32| _mm512_set1_epi32(x as i32);
        let or = |a, b| _mm512_or_si512(a, b);
        let and = |a, b| _mm512_and_si512(a, b);
        let r1 = |y| {
            and(
                or(_mm512_slli_epi32::<9>(y), _mm512_srli_epi32::<18>(y)),
                c(BAND_CELLS),
            )
        };
        let r2 = |y| {
            and(
                or(_mm512_slli_epi32::<18>(y), _mm512_srli_epi32::<9>(y)),
                c(BAND_CELLS),
            )
        };
        let base = self.cands.as_mut_ptr();
        let mut band = [_mm512_setzero_si512(); 3];
        let mut point = [_mm512_setzero_si512(); 3];
        let mut touched = 0u64;
        for b in 0..3 {
            let m = _mm512_maskz_loadu_epi32(K, base.add(LANES * b) as *const i32);
            let x = and(
                or(or(m, _mm512_srli_epi32::<1>(m)), _mm512_srli_epi32::<2>(m)),
                c(MINIROW_FIRST),
            );
            // Boxes turned one and two places within each row.
            let b1 = or(
                and(_mm512_slli_epi32::<3>(x), c(TURN_ONE[0])),
                and(_mm512_srli_epi32::<6>(x), c(TURN_ONE[1])),
            );
            let b2 = or(
                and(_mm512_slli_epi32::<6>(x), c(TURN_TWO[0])),
                and(_mm512_srli_epi32::<3>(x), c(TURN_TWO[1])),
            );
            let s = and(x, or(and(r1(b1), r2(b2)), and(r1(b2), r2(b1))));
            let bd = and(
                m,
                or(s, or(_mm512_slli_epi32::<1>(s), _mm512_slli_epi32::<2>(s))),
            );
            if _mm512_mask_testn_epi32_mask(K, bd, bd) != 0 {
                return Err(Dead);
            }
            let f = and(
                or(
                    bd,
                    or(_mm512_srli_epi32::<9>(bd), _mm512_srli_epi32::<18>(bd)),
                ),
                c(0o777),
            );
            let g1 = or(
                and(_mm512_slli_epi32::<1>(f), c(STACK_ONE[0])),
                and(_mm512_srli_epi32::<2>(f), c(STACK_ONE[1])),
            );
            let g2 = or(
                and(_mm512_slli_epi32::<2>(f), c(STACK_TWO[0])),
                and(_mm512_srli_epi32::<1>(f), c(STACK_TWO[1])),
            );
            let alone = _mm512_andnot_si512(or(g1, g2), f);
            point[b] = or(
                alone,
                or(
                    _mm512_slli_epi32::<9>(alone),
                    _mm512_slli_epi32::<18>(alone),
                ),
            );
            band[b] = bd;
        }
        let pl = base.add(POINTED) as *mut i32;
        let old = _mm512_loadu_si512(pl as *const _);
        _mm512_storeu_si512(
            pl as *mut _,
            _mm512_mask_or_epi32(old, K, old, or(point[0], or(point[1], point[2]))),
        );
        let mut dirty = 0u64;
        for b in 0..3 {
            let lanes = base.add(LANES * b) as *mut i32;
            let old = _mm512_loadu_si512(lanes as *const _);
            let nb = _mm512_andnot_si512(or(point[(b + 1) % 3], point[(b + 2) % 3]), band[b]);
            let unsolved = c(self.cands[LANES * b + UNSOLVED]);
            let mut lone = _mm512_setzero_si512();
            for r in 0..3 {
                let f = and(_mm512_srlv_epi32(nb, c(9 * r)), c(0o777));
                let t = and(f, _mm512_sub_epi32(f, c(1)));
                let one = _mm512_mask_testn_epi32_mask(_mm512_test_epi32_mask(f, f), t, t);
                lone = _mm512_mask_or_epi32(lone, one, lone, _mm512_sllv_epi32(f, c(9 * r)));
            }
            let pending = _mm512_mask_test_epi32_mask(K, lone, unsolved);
            let pointed = _mm512_mask_cmpneq_epi32_mask(K, nb, band[b]);
            let changed = _mm512_mask_cmpneq_epi32_mask(K, nb, old);
            _mm512_storeu_si512(lanes as *mut _, _mm512_mask_mov_epi32(old, K, nb));
            dirty |= ((pending | pointed) as u64) << (LANES * b);
            touched |= ((changed as u64) | (self.dirty >> (LANES * b) & 0o777)) << (LANES * b);
        }
        self.dirty = dirty;
        Ok(touched)
    }

    /// [`State::root_pass_avx512`]'s update of all 27 masks, written lane
    /// by lane in plain code (16 lanes a band, the padding lanes 0) for the
    /// compiler to vectorise: the root's pass on the AVX2 paths, where it
    /// compiles to two 256-bit vectors a band. The same logic and the same
    /// result: the masks updated, the pointing recorded in [`POINTED`], the
    /// masks still needing a scalar update left dirty, and the masks it
    /// updated returned (for [`State::propagate_from`]); `Err` where a mask
    /// of a band loses its last placement.
    ///
    /// Measured (issue 33, `bench -s sudoflow --permute=R` alternated with
    /// main, core 1, medians; BENCHMARKS.md): on the AVX2 path with `pext`,
    /// serg +5.5% (5 rounds), +6.1% (7), +6.7% (7) and +10.3% (5),
    /// top1465 -2% and +9%, hardest_1106 +1% and +2%, 17-clue -5% and
    /// +5.5% (its spread); without `pext`, serg +4.6% and 17-clue +2.3%
    /// (5 rounds, every round faster). Compiled
    /// for the baseline (SSE2) it is 18-23% slower than no pass on serg and
    /// 17-clue, and for the AVX-512 path 7-13% slower than the intrinsics of
    /// [`State::root_pass_avx512`]: those paths keep theirs.
    #[inline(always)]
    pub(super) fn root_pass_lanes(&mut self) -> Result<u64, Dead> {
        // A band word's rows turned one and two places (row r to r + 1,
        // r + 2, mod 3).
        #[inline(always)]
        fn r1(y: u32) -> u32 {
            ((y << 9) | (y >> 18)) & BAND_CELLS
        }
        #[inline(always)]
        fn r2(y: u32) -> u32 {
            ((y << 18) | (y >> 9)) & BAND_CELLS
        }
        let mut band = [[0u32; LANES]; 3];
        let mut point = [[0u32; LANES]; 3];
        for b in 0..3 {
            let mut dead = 0u32;
            for d in 0..LANES {
                let m = if d < 9 { self.cands[LANES * b + d] } else { 0 };
                // Minirows (bit 9r + 3k) and the boxes turned one and two
                // places within each row.
                let x = (m | m >> 1 | m >> 2) & MINIROW_FIRST;
                let b1 = (x << 3 & TURN_ONE[0]) | (x >> 6 & TURN_ONE[1]);
                let b2 = (x << 6 & TURN_TWO[0]) | (x >> 3 & TURN_TWO[1]);
                let s = x & ((r1(b1) & r2(b2)) | (r1(b2) & r2(b1)));
                let bd = m & (s | s << 1 | s << 2);
                dead |= ((d < 9) & (bd == 0)) as u32;
                // Columns alone in their box, in all three rows.
                let f = fold_cols(bd);
                let g1 = (f << 1 & STACK_ONE[0]) | (f >> 2 & STACK_ONE[1]);
                let g2 = (f << 2 & STACK_TWO[0]) | (f >> 1 & STACK_TWO[1]);
                let alone = f & !(g1 | g2);
                point[b][d] = alone | alone << 9 | alone << 18;
                band[b][d] = bd;
            }
            if dead != 0 {
                return Err(Dead);
            }
        }
        for (d, lane) in self.cands[POINTED..POINTED + 9].iter_mut().enumerate() {
            *lane |= point[0][d] | point[1][d] | point[2][d];
        }
        let mut dirty = 0u64;
        let mut touched = 0u64;
        for b in 0..3 {
            let unsolved = self.cands[LANES * b + UNSOLVED];
            let (mut pending, mut pointed, mut changed) = (0u64, 0u64, 0u64);
            for d in 0..9 {
                let old = self.cands[LANES * b + d];
                let nb = band[b][d] & !(point[(b + 1) % 3][d] | point[(b + 2) % 3][d]);
                // Rows left with one cell, placed by the scalar update.
                let lone = single_rows(nb);
                pending |= u64::from(lone & unsolved != 0) << d;
                pointed |= u64::from(nb != band[b][d]) << d;
                changed |= u64::from(nb != old) << d;
                self.cands[LANES * b + d] = nb;
            }
            dirty |= (pending | pointed) << (LANES * b);
            touched |= (changed | self.dirty >> (LANES * b) & 0o777) << (LANES * b);
        }
        self.dirty = dirty;
        Ok(touched)
    }

    /// True when every cell is solved (meaningful at a fixed point).
    #[inline]
    pub(super) fn solved(&self) -> bool {
        self.unsolved(0) | self.unsolved(1) | self.unsolved(2) == 0
    }

    /// The digits still possible in the cell at bit `bit` (0..27) of band
    /// `b`, as a 9-bit set (bit `d` = digit `d + 1`): [`State::digits_in`]
    /// of the one cell, branch-free (~16 SSE2 instructions against ~45 for
    /// a shift per digit), so that the branching rule can ask it of every
    /// cell it scores.
    #[inline]
    pub(super) fn digit_set(&self, b: usize, bit: usize) -> u32 {
        self.digits_in(b, 1 << (bit & 31))
    }

    /// The grid of a solved state.
    ///
    /// Bit-sliced, no per-cell loop: per band, four planes hold bit `j` of
    /// each cell's digit (an OR of the digit masks with that bit), and each
    /// plane's eight-cell chunks are spread to bytes by [`SPREAD`] and ORed
    /// into one `u64` per chunk (about 300 instructions against 550 for
    /// walking each digit's cells; callgrind, 17-clue).
    pub(super) fn solution_grid(&self) -> Option<Grid> {
        // 3 bands x 27 cells, plus room for the last chunk's spill.
        let mut buf = [0u8; 88];
        for b in 0..3 {
            let lane = |d: usize| self.cands[(LANES * b + d) & 63];
            let planes = [
                lane(0) | lane(2) | lane(4) | lane(6) | lane(8),
                lane(1) | lane(2) | lane(5) | lane(6),
                lane(3) | lane(4) | lane(5) | lane(6),
                lane(7) | lane(8),
            ];
            // Chunks at 0, 8, 16, 24: the last writes five bytes past the
            // band, which the next band's first chunk overwrites.
            for at in [0, 8, 16, 24] {
                let word = planes.iter().enumerate().fold(0u64, |w, (j, &p)| {
                    w | SPREAD[((p >> at) & 0xff) as usize] << j
                });
                let start = 27 * b + at;
                buf[start..start + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
        let mut cells = [0u8; 81];
        cells.copy_from_slice(&buf[..81]);
        Grid::from_cells(cells)
    }
}

/// The digit masks of [`State::set_grid`] from the givens, written to
/// `cands` lanes `16b + d` (`d` < 9; lanes `16b + 9..12` get 0): per
/// (digit, band), the blank cells minus those in a row, box or column of a
/// given of the digit, plus the givens themselves. `givens` is as
/// [`given_masks`] returns it, per band.
///
/// On x86_64, SSE2 over four digits at a time (~40 vector steps per four
/// masks against ~50 scalar instructions per mask).
#[inline]
#[cfg(target_arch = "x86_64")]
fn digit_masks(cands: &mut [u32; MASKS], givens: &[[u32; 13]; 3]) {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline. Loads read lanes
    // 1 + 4k .. 5 + 4k (k < 3) of a 13-lane array; stores write lanes
    // 16b + 4k .. 16b + 4k + 4 (b, k < 3) of the 64 lanes; unaligned loads
    // and stores need no alignment.
    unsafe {
        let nine = _mm_set1_epi32(0o777);
        let boxes = _mm_set1_epi32(0o111);
        let fold = |v: __m128i| {
            _mm_and_si128(
                _mm_or_si128(
                    v,
                    _mm_or_si128(_mm_srli_epi32::<9>(v), _mm_srli_epi32::<18>(v)),
                ),
                nine,
            )
        };
        let row = [
            _mm_set1_epi32(0o777),
            _mm_set1_epi32(0o777 << 9),
            _mm_set1_epi32(0o777 << 18),
        ];
        let carry = [
            _mm_set1_epi32(1 << 9),
            _mm_set1_epi32(1 << 18),
            _mm_set1_epi32(1 << 27),
        ];
        let out = cands.as_mut_ptr() as *mut __m128i;
        for b in 0..3 {
            let open = _mm_set1_epi32(givens[b][0] as i32);
            for k in 0..3 {
                let at = |band: usize| {
                    _mm_loadu_si128(givens[band][1 + 4 * k..5 + 4 * k].as_ptr() as *const __m128i)
                };
                let g = at(b);
                let other = _mm_or_si128(at((b + 1) % 3), at((b + 2) % 3));
                let cols = fold(g);
                let given_boxes = _mm_and_si128(
                    _mm_or_si128(
                        cols,
                        _mm_or_si128(_mm_srli_epi32::<1>(cols), _mm_srli_epi32::<2>(cols)),
                    ),
                    boxes,
                );
                let gone_cols = _mm_or_si128(
                    _mm_or_si128(given_boxes, fold(other)),
                    _mm_or_si128(
                        _mm_slli_epi32::<1>(given_boxes),
                        _mm_slli_epi32::<2>(given_boxes),
                    ),
                );
                // rows_touched: a row's carry out of `row + (g & row)`.
                let mut carries = _mm_setzero_si128();
                for r in 0..3 {
                    let sum = _mm_add_epi32(_mm_and_si128(g, row[r]), row[r]);
                    carries = _mm_or_si128(carries, _mm_and_si128(sum, carry[r]));
                }
                let rows = _mm_sub_epi32(carries, _mm_srli_epi32::<9>(carries));
                let gone = _mm_or_si128(
                    rows,
                    _mm_or_si128(
                        gone_cols,
                        _mm_or_si128(
                            _mm_slli_epi32::<9>(gone_cols),
                            _mm_slli_epi32::<18>(gone_cols),
                        ),
                    ),
                );
                let mut masks = _mm_or_si128(_mm_andnot_si128(gone, open), g);
                if k == 2 {
                    // Lanes 9..12 are padding: keep them 0.
                    masks = _mm_and_si128(masks, _mm_set_epi32(0, 0, 0, -1));
                }
                _mm_storeu_si128(out.add(4 * b + k), masks);
            }
        }
    }
}

/// [`digit_masks`] where there is no SSE2.
#[inline]
#[cfg(not(target_arch = "x86_64"))]
fn digit_masks(cands: &mut [u32; MASKS], givens: &[[u32; 13]; 3]) {
    digit_masks_portable(cands, givens)
}

/// Portable [`digit_masks`]: one mask at a time. Also built in tests on
/// x86_64, where a test holds the SSE2 version to it.
#[inline]
#[cfg(any(not(target_arch = "x86_64"), test))]
fn digit_masks_portable(cands: &mut [u32; MASKS], givens: &[[u32; 13]; 3]) {
    for b in 0..3 {
        let open = givens[b][0];
        for d in 0..9 {
            let g = givens[b][d + 1];
            let cols = fold_cols(g);
            let other_cols = fold_cols(givens[(b + 1) % 3][d + 1] | givens[(b + 2) % 3][d + 1]);
            let boxes = (cols | cols >> 1 | cols >> 2) & 0o111;
            let gone = rows_touched(g) | spread_cols((boxes * 7) | other_cols);
            cands[LANES * b + d] = (open & !gone) | g;
        }
        for d in 9..12 {
            cands[LANES * b + d] = 0;
        }
    }
}

/// True when the givens clash: some digit twice in a row, a column or a box.
/// `givens` is as [`given_masks`] returns it, per band.
///
/// Per digit and band, with `x`, `y`, `z` the band's three rows of the
/// digit's givens (9 column bits each): two in a row is `r & (r - 1) != 0`
/// for a row `r`; two in a box in different rows (which includes two in a
/// column of the band) is a box (its minirow folded to one bit) in two of
/// the rows; two in a column across bands is a column bit in two bands'
/// unions of rows. On x86_64, SSE2 over four digits at a time.
#[inline]
#[cfg(target_arch = "x86_64")]
pub(super) fn givens_clash(givens: &[[u32; 13]; 3]) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of the x86_64 baseline. Loads read lanes
    // 1 + 4k .. 5 + 4k (k < 3) of 13-lane arrays; unaligned loads need no
    // alignment.
    unsafe {
        let nine = _mm_set1_epi32(0o777);
        let boxes = _mm_set1_epi32(0o111);
        let one = _mm_set1_epi32(1);
        // A row's minirows, one bit each at the minirow's first column
        // (masked with `boxes` after `two_of`, which commutes with it).
        let spread = |r: __m128i| {
            _mm_or_si128(
                r,
                _mm_or_si128(_mm_srli_epi32::<1>(r), _mm_srli_epi32::<2>(r)),
            )
        };
        let two_of = |a: __m128i, b: __m128i, c: __m128i| {
            _mm_or_si128(_mm_and_si128(a, b), _mm_and_si128(c, _mm_or_si128(a, b)))
        };
        let mut twice = _mm_setzero_si128();
        for k in 0..3 {
            let mut seen = _mm_setzero_si128();
            for band in givens {
                let g = _mm_loadu_si128(band[1 + 4 * k..5 + 4 * k].as_ptr() as *const __m128i);
                let x = _mm_and_si128(g, nine);
                let y = _mm_and_si128(_mm_srli_epi32::<9>(g), nine);
                let z = _mm_srli_epi32::<18>(g);
                let in_row = _mm_or_si128(
                    _mm_or_si128(
                        _mm_and_si128(x, _mm_sub_epi32(x, one)),
                        _mm_and_si128(y, _mm_sub_epi32(y, one)),
                    ),
                    _mm_and_si128(z, _mm_sub_epi32(z, one)),
                );
                // Two in a column of the band are two in its box: no test.
                let in_box = _mm_and_si128(two_of(spread(x), spread(y), spread(z)), boxes);
                let cols = _mm_or_si128(x, _mm_or_si128(y, z));
                twice = _mm_or_si128(
                    twice,
                    _mm_or_si128(_mm_or_si128(in_row, in_box), _mm_and_si128(seen, cols)),
                );
                seen = _mm_or_si128(seen, cols);
            }
        }
        _mm_movemask_epi8(_mm_cmpeq_epi32(twice, _mm_setzero_si128())) != 0xffff
    }
}

/// [`givens_clash`] where there is no SSE2.
#[inline]
#[cfg(not(target_arch = "x86_64"))]
pub(super) fn givens_clash(givens: &[[u32; 13]; 3]) -> bool {
    givens_clash_portable(givens)
}

/// Portable [`givens_clash`]: one digit and band at a time. Also built in
/// tests on x86_64, where a test holds the SSE2 version to it.
#[inline]
#[cfg(any(not(target_arch = "x86_64"), test))]
fn givens_clash_portable(givens: &[[u32; 13]; 3]) -> bool {
    let box_bits = |r: u32| (r | r >> 1 | r >> 2) & 0o111;
    let two_of = |a: u32, b: u32, c: u32| a & b | c & (a | b);
    let mut twice = 0;
    for d in 1..10 {
        let mut seen = 0;
        for band in givens {
            let g = band[d];
            let (x, y, z) = (g & 0o777, g >> 9 & 0o777, g >> 18 & 0o777);
            twice |= x & x.wrapping_sub(1) | y & y.wrapping_sub(1) | z & z.wrapping_sub(1);
            twice |= two_of(x, y, z) | two_of(box_bits(x), box_bits(y), box_bits(z));
            let cols = x | y | z;
            twice |= seen & cols;
            seen |= cols;
        }
    }
    twice != 0
}

/// [`given_masks`] of all three bands: `givens[b][0]` the blank cells of
/// band `b`, `givens[b][d]` its cells given digit `d`, lanes 10..13 zero.
#[inline]
pub(super) fn band_givens(cells: &[u8; 81]) -> [[u32; 13]; 3] {
    let mut givens = [[0u32; 13]; 3];
    for (b, band) in givens.iter_mut().enumerate() {
        given_masks(cells, b, band);
    }
    givens
}

/// The cells of band `b` (0..3) holding each value, as band masks:
/// `[blanks, cells of 1, ..., cells of 9, 0, 0, 0]` (the three zeros let
/// [`digit_masks`] load digits four at a time).
///
/// On x86_64, SSE2: the band's 27 bytes as two 16-byte vectors (the second
/// overlapping the next band, or for band 2 shifted down from the grid's
/// last 16 bytes); one `pmovmskb` per vector and bit of the values (0..=9,
/// four bits) gives four bit planes, 27 bits each; then the cells of each
/// value are an AND of the four planes, each taken as is or inverted as the
/// value's bits say, four values a vector. Bits past 27 are masked off.
/// About 60 instructions per band (a compare per value: ~100), against
/// ~190 for the portable loop.
#[inline]
#[cfg(target_arch = "x86_64")]
fn given_masks(cells: &[u8; 81], b: usize, out: &mut [u32; 13]) {
    use std::arch::x86_64::*;
    let at = 27 * b.min(2);
    let first: &[u8; 16] = cells[at..at + 16].try_into().expect("16 cells");
    let second: &[u8; 16] = if b < 2 {
        cells[at + 16..at + 32].try_into().expect("16 cells")
    } else {
        cells[65..81].try_into().expect("16 cells")
    };
    /// -1 where bit `j` of value `v` is clear (that plane is taken inverted).
    const fn flip(v: i32, j: i32) -> i32 {
        if (v >> j) & 1 == 0 {
            -1
        } else {
            0
        }
    }
    // SAFETY: SSE2 is part of the x86_64 baseline; both arrays are 16
    // bytes; the stores write lanes 1..13 of `out`; unaligned loads and
    // stores need no alignment.
    unsafe {
        let lo = _mm_loadu_si128(first.as_ptr() as *const __m128i);
        let mut hi = _mm_loadu_si128(second.as_ptr() as *const __m128i);
        if b >= 2 {
            // Bytes 65..81 -> 70..81 at the bottom; the 5 zero bytes on top
            // land past bit 27.
            hi = _mm_srli_si128::<5>(hi);
        }
        // Bit j of each value to its byte's top bit (16-bit shifts: a byte's
        // top bit comes from its own bit j), then one movemask per vector.
        macro_rules! plane {
            ($shift:literal) => {
                (_mm_movemask_epi8(_mm_slli_epi16::<$shift>(lo))
                    | _mm_movemask_epi8(_mm_slli_epi16::<$shift>(hi)) << 16)
                    & BAND as i32
            };
        }
        let planes = [plane!(7), plane!(6), plane!(5), plane!(4)];
        out[0] = !(planes[0] | planes[1] | planes[2] | planes[3]) as u32 & BAND;
        let wide = planes.map(|p| _mm_set1_epi32(p));
        // The digits' masks leave as three 16-byte stores, the shape in
        // which digit_masks loads them: a 16-byte load over four separate
        // 4-byte stores still in flight could not take its data from them.
        // Values 10..12 (lanes past digit 9) match no cell: 0.
        let to = out[1..].as_mut_ptr() as *mut __m128i;
        for k in 0..3 {
            let v = 1 + 4 * k as i32;
            let term = |j: usize| {
                let j32 = j as i32;
                _mm_xor_si128(
                    wide[j],
                    _mm_setr_epi32(
                        flip(v, j32),
                        flip(v + 1, j32),
                        flip(v + 2, j32),
                        flip(v + 3, j32),
                    ),
                )
            };
            let masks = _mm_and_si128(
                _mm_and_si128(term(0), term(1)),
                _mm_and_si128(term(2), term(3)),
            );
            _mm_storeu_si128(to.add(k), masks);
        }
    }
}

/// [`given_masks`] where there is no SSE2.
#[inline]
#[cfg(not(target_arch = "x86_64"))]
fn given_masks(cells: &[u8; 81], b: usize, out: &mut [u32; 13]) {
    *out = given_masks_portable(cells, b)
}

/// Portable [`given_masks`]: one cell at a time. Also built in tests on
/// x86_64, where a test holds the SSE2 version to it.
#[inline]
#[cfg(any(not(target_arch = "x86_64"), test))]
fn given_masks_portable(cells: &[u8; 81], b: usize) -> [u32; 13] {
    let mut out = [0u32; 13];
    for (k, &v) in cells[27 * b..27 * b + 27].iter().enumerate() {
        out[v as usize % 10] |= 1 << k;
    }
    out
}

/// `SPREAD[x]`: byte `k` of the result is bit `k` of `x` (0 or 1).
static SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut x = 0;
    while x < 256 {
        let mut k = 0;
        while k < 8 {
            t[x] |= ((x as u64 >> k) & 1) << (8 * k);
            k += 1;
        }
        x += 1;
    }
    t
};

/// `cands` as a branch's last matching pass saw it (all zero before the
/// first), so the next pass filters only the units whose candidates changed.
pub(super) type Snapshot = [u32; MASKS];

thread_local! {
    /// Debug builds only (set by `Search::run` when debug assertions are
    /// on): the givens of the puzzle being solved clash, so the debug check
    /// of [`State::column_claims`]'s skip does not apply.
    pub(super) static GIVENS_CLASH: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A state whose nine digit masks per band are random and sparse (each
    /// cell in about a quarter of them), so that every candidate count from
    /// 0 to 4 occurs and some digits miss any given cells.
    fn sparse_state(rng: &mut ChaCha8Rng) -> State {
        let mut st = State::empty();
        for b in 0..3 {
            for d in 0..9 {
                st.cands[LANES * b + d] = rng.next_u32() & rng.next_u32() & BAND;
            }
        }
        st
    }

    /// The root passes ([`State::root_pass_lanes`] on any CPU,
    /// [`State::root_pass_avx512`] where this CPU has AVX-512) then the
    /// scalar propagation reach the fixed point (or the dead end) the scalar
    /// propagation alone reaches, from givens taken from random solution
    /// grids (17 to 50 of them) and from random givens that may clash.
    #[test]
    fn root_passes_reach_the_scalar_fixed_point() {
        #[cfg(target_arch = "x86_64")]
        let avx512 = crate::solver::simd::avx512_available();
        #[cfg(not(target_arch = "x86_64"))]
        let avx512 = false;
        if !avx512 {
            eprintln!("note: no AVX-512 on this CPU, only the lane-wise root pass is run");
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        let mut solver = crate::solver::Solver::new(crate::solver::SolveOptions {
            limit: 1,
            ..Default::default()
        });
        let empty = Grid::from_cells([0; 81]).expect("the empty grid");
        let (mut live, mut dead) = (0, 0);
        for n in 0..4_000 {
            let solution = solver
                .solve_random(&empty, &mut rng)
                .solution
                .expect("the empty grid has solutions");
            let keep = 17 + rng.next_u32() % 34;
            let mut cells = [0u8; 81];
            for (i, cell) in cells.iter_mut().enumerate() {
                if rng.next_u32() % 81 < keep {
                    *cell = if n % 4 == 0 {
                        1 + (rng.next_u32() % 9) as u8
                    } else {
                        solution.get(i)
                    };
                }
            }
            let puzzle = Grid::from_cells(cells).expect("digits 0 to 9");
            GIVENS_CLASH.with(|c| c.set(givens_clash(&band_givens(puzzle.cells()))));
            let mut scalar = State::from_grid(&puzzle);
            let start = scalar;
            let want = scalar.propagate_body::<false>();
            let mut passes = vec![];
            let mut lanes = start;
            let got = lanes
                .root_pass_lanes()
                .and_then(|touched| lanes.propagate_from::<false>(touched));
            passes.push(("lanes", got, lanes));
            #[cfg(target_arch = "x86_64")]
            if avx512 {
                let mut pass = start;
                // SAFETY: AVX-512 F, VL, BW and DQ checked above.
                let got = unsafe { pass.root_pass_avx512() }
                    .and_then(|touched| pass.propagate_from::<false>(touched));
                passes.push(("avx512", got, pass));
            }
            for (name, got, pass) in passes {
                assert_eq!(want.is_ok(), got.is_ok(), "{name}: {}", puzzle.to_line());
                if want.is_ok() {
                    // Lanes of bands 0..3: the digit masks, unsolved and
                    // bivalue cells (band 3 holds the pointing history, which
                    // depends on the order of the updates).
                    assert_eq!(
                        scalar.cands[..3 * LANES],
                        pass.cands[..3 * LANES],
                        "{name}: {}",
                        puzzle.to_line()
                    );
                }
            }
            if want.is_ok() {
                live += 1;
            } else {
                dead += 1;
            }
        }
        GIVENS_CLASH.with(|c| c.set(false));
        assert!(live > 1_000 && dead > 500, "live {live}, dead {dead}");
    }

    #[test]
    fn counters_match_a_per_cell_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2_000 {
            let st = sparse_state(&mut rng);
            for b in 0..3 {
                let mut want = [0u32; 3];
                for bit in 0..27 {
                    let n = (0..9)
                        .filter(|&d| st.cands[LANES * b + d] >> bit & 1 == 1)
                        .count();
                    for (k, w) in want.iter_mut().enumerate() {
                        if n > k {
                            *w |= 1 << bit;
                        }
                    }
                }
                assert_eq!(st.counters(b), want, "band {b}");
                assert_eq!(st.counters_portable(b), want, "band {b}, portable");
            }
        }
    }

    #[test]
    fn digits_in_match_their_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0xa54f_f53a_5f1d_36f1);
        for _ in 0..2_000 {
            let st = sparse_state(&mut rng);
            let (b, cells) = (
                (rng.next_u32() % 3) as usize,
                rng.next_u32() & rng.next_u32() & BAND,
            );
            let want = st.digits_in_portable(b, cells);
            assert_eq!(st.digits_in(b, cells), want, "band {b} cells {cells:#o}");
            for d in 0..9 {
                assert_eq!(want >> d & 1 == 1, st.cands[LANES * b + d] & cells != 0);
            }
        }
    }

    #[test]
    fn pointed_digits_match_their_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x3c6e_f372_fe94_f82b);
        for _ in 0..2_000 {
            let mut st = State::empty();
            for d in 0..9 {
                // Unions of a few pointing masks (alone columns, spread).
                let (a, b) = (rng.next_u32() as usize & 511, rng.next_u32() as usize & 511);
                st.cands[POINTED + d] = ALONE_BAND[a] | ALONE_BAND[b];
            }
            let want = st.pointed_digits_portable();
            assert_eq!(st.pointed_digits(), want, "{:?}", &st.cands[POINTED..]);
            for d in 0..9 {
                let stacks = (0..3).filter(|&k| st.cands[POINTED + d] >> (3 * k) & 7 != 0);
                assert_eq!(want >> d & 1 == 1, stacks.count() == 3, "digit {d}");
            }
        }
    }

    #[test]
    fn clear_solved_matches_its_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let mut next = || rng.next_u64();
        for _ in 0..2_000 {
            let mut st = State::empty();
            for b in 0..3 {
                for d in 0..9 {
                    st.cands[LANES * b + d] = next() as u32 & BAND;
                }
            }
            let (b, d) = ((next() % 3) as usize, (next() % 9) as usize);
            // A few solved cells of digit d in band b, as the update finds them.
            let solved = (next() & next() & next()) as u32 & st.cands[LANES * b + d];
            let mut portable = st;
            let (mut dirty, mut portable_dirty) = (next(), 0);
            portable_dirty ^= dirty;
            // The owner's new mask: its old one, a few cells fewer.
            let own = st.cands[LANES * b + d] & !(next() as u32 & next() as u32) | solved;
            st.clear_solved(b, d, solved, own, &mut dirty);
            portable.clear_solved_portable(b, d, solved, own, &mut portable_dirty);
            assert_eq!(
                st.cands, portable.cands,
                "band {b} digit {d} solved {solved:#x}"
            );
            assert_eq!(
                dirty, portable_dirty,
                "band {b} digit {d} solved {solved:#x}"
            );
        }
    }

    /// Walks the first search nodes of puzzles from every public set (the
    /// basic search's order, every alternative) and, at each fixed point,
    /// checks every digit the column pass would skip against the full pass.
    #[test]
    fn column_pass_skips_only_digits_that_claim_nothing() {
        fn walk(st: &mut State, nodes: &mut usize, skipped: &mut usize) {
            *nodes += 1;
            if *nodes > 300 || st.propagate().is_err() || st.solved() {
                return;
            }
            for d in 0..9 {
                if st.stacks_pointed(d) {
                    *skipped += 1;
                    assert!(st.claims_nothing(d), "digit {d}: {:?}", st.cands);
                }
            }
            let (b, cell) = crate::solver::branch::branch_cell(st, 0, 0);
            let bit = cell.trailing_zeros() as usize;
            let mut set = st.digit_set(b, bit);
            while set != 0 {
                let d = set.trailing_zeros() as usize;
                set &= set - 1;
                let mut next = st.child();
                if next.place_one(d, b, bit).is_ok() {
                    walk(&mut next, nodes, skipped);
                }
            }
        }
        let mut skipped = 0;
        for name in crate::datasets::PUBLIC {
            let Some(puzzles) = crate::datasets::load_public_or_skip(name) else {
                continue;
            };
            for p in puzzles.iter().take(100) {
                let mut st = State::from_grid(p);
                walk(&mut st, &mut 0, &mut skipped);
            }
        }
        let mut st = State::empty();
        walk(&mut st, &mut 0, &mut skipped);
        assert!(skipped > 1_000, "only {skipped} skips checked");
    }

    #[test]
    fn tables_match_a_plain_rebuild() {
        for b in 0..3 {
            for d in 0..9 {
                let mut want: Vec<u8> = (0..3)
                    .filter(|&o| o != b)
                    .map(|o| (LANES * o + d) as u8)
                    .collect();
                let mut got = OTHERS[LANES * b + d].to_vec();
                want.sort();
                got.sort();
                assert_eq!(got, want, "band {b} digit {d}");
            }
        }
        for (x, &spread) in SPREAD.iter().enumerate() {
            let bytes = spread.to_le_bytes();
            for (k, &byte) in bytes.iter().enumerate() {
                assert_eq!(byte as usize, x >> k & 1, "x {x:#x} byte {k}");
            }
        }
    }

    #[test]
    fn given_masks_match_their_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2_000 {
            let mut cells = [0u8; 81];
            for c in cells.iter_mut() {
                let seed = rng.next_u64();
                // Half blanks, half digits 1..=9.
                *c = if seed & 1 == 0 {
                    0
                } else {
                    (seed >> 8) as u8 % 9 + 1
                };
            }
            for b in 0..3 {
                let mut got = [u32::MAX; 13];
                given_masks(&cells, b, &mut got);
                // Lanes 10..13 too: digit_masks and givens_clash read them.
                assert_eq!(got, given_masks_portable(&cells, b), "band {b}");
                for (k, &v) in cells[27 * b..27 * b + 27].iter().enumerate() {
                    assert_eq!(got[v as usize] >> k & 1, 1, "band {b} cell {k}");
                }
                assert_eq!(got.iter().fold(0, |m, g| m | g), BAND);
                assert_eq!(got.iter().map(|g| g.count_ones()).sum::<u32>(), 27);
            }
        }
    }

    #[test]
    fn digit_masks_match_their_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x6a09_e667_f3bc_c908);
        let mut next = || rng.next_u64();
        for _ in 0..2_000 {
            // Sparse givens (about one cell in four), clashes allowed: the
            // masks are a function of the givens either way.
            let mut cells = [0u8; 81];
            for c in cells.iter_mut() {
                let r = next();
                if r % 4 == 0 {
                    *c = (r >> 8) as u8 % 9 + 1;
                }
            }
            let givens = band_givens(&cells);
            // Both start from the same garbage: lanes 16b..16b+12 must be
            // written, the others left alone.
            let mut got = [0u32; MASKS];
            got.iter_mut().for_each(|m| *m = next() as u32);
            let mut want = got;
            digit_masks(&mut got, &givens);
            digit_masks_portable(&mut want, &givens);
            assert_eq!(got, want, "{cells:?}");
        }
    }

    #[test]
    fn givens_clash_is_check_givens_and_its_portable_twin() {
        let mut rng = ChaCha8Rng::seed_from_u64(0xbb67_ae85_84ca_a73b);
        let mut next = || rng.next_u64();
        let mut clashes = 0;
        for n in 0..20_000 {
            // From 1 to 20 random givens: clashes and clash-free grids both
            // common.
            let mut grid = Grid::EMPTY;
            for _ in 0..=n % 20 {
                let r = next();
                grid.set((r % 81) as usize, (r >> 8) as u8 % 9 + 1);
            }
            let givens = band_givens(grid.cells());
            let want = grid.check_givens().is_err();
            clashes += usize::from(want);
            assert_eq!(givens_clash(&givens), want, "{}", grid.to_line());
            assert_eq!(givens_clash_portable(&givens), want, "{}", grid.to_line());
        }
        assert!((5_000..15_000).contains(&clashes), "{clashes} clashes");
    }
}
