//! The branching rule: which cell the search guesses on at a fixed point.
//!
//! **Rule: the bivalue cell whose candidates have the most peers.** Among
//! the unsolved cells with exactly two candidates, take the one with the
//! highest *score*
//!
//! ```text
//!   score(c) = sum over the two candidates d of c,
//!              over the unsolved peers p of c that have d as a candidate:
//!                  1, or 3 if p is itself a bivalue cell
//! ```
//!
//! that is, the candidate removals that either guess makes at once, where a
//! removal from a bivalue peer (which then becomes a naked single) counts
//! three times; **plus two per hidden single** either guess makes at once
//! in the units that cross the cell's band and stack without holding the
//! cell: the two other columns of its stack (which lose the digit in the
//! cell's box) and the stack's boxes in the other two bands (which lose it
//! in the cell's column), where the digit is left with one place
//! ([`cross_singles`]). A single forced at once, naked or hidden, thus adds
//! two. Ties go to the first cell in row-major order. With no bivalue
//! cell, the same score picks among the cells with the fewest candidates.
//! Both pruning levels use this rule.
//!
//! **Row pairs** (issue 33): where the scored rule's best bivalue cell
//! scores at most [`ROW_PAIR_MAX_SCORE`], the search may guess instead on a
//! digit's last two places in a band row ("d at A or at B", also a binary
//! branch), scored alike, when one scores more ([`branch`], [`row_pair`]).
//! hardest_1106 100.04 -> 84.23 guesses per puzzle and +9-10%, the other
//! public sets even.
//!
//! The hidden-single term (fifth session of issue 15; BENCHMARKS.md):
//! guesses per puzzle 114.15 -> 99.95 on puzzles6_forum_hardest_1106 and
//! 115.3 -> 100.7 on three random transformations of it (a check that the
//! gain is not the file's), 11.44 -> 11.23 on top1465, at the basic level;
//! weight 1 gives 102.6 and 103.9, weight 3 101.6 and 103.4. Counting the
//! hidden singles in all eight units that cross the cell's box (adding the
//! band's other rows and boxes) guesses fewer (99.0 at weight 1) but costs
//! more than it saves.

//! **For the first [`SCORE_AFTER`] (4) backtracks** the search uses the
//! cheaper earlier rule instead: the first bivalue cell of the band with
//! the most of them. A puzzle whose search rarely dies (most of 17-clue and
//! serg) gains little from a better branch choice, and the score costs about
//! as much as half a search node (~1,400 instructions with ~10 bivalue cells);
//! once branches keep dying, the tree is worth shaping. (8 until the sixth
//! session of issue 15, when the score became 13% cheaper: at 4, top1465
//! guesses 11.23 -> 10.22 per puzzle and runs 3% faster, hardest_1106
//! 99.95 -> 98.50, serg, 17-clue and the SE-rated sets within noise; at 3
//! serg loses ~1%. BENCHMARKS.md.)
//!
//! **Except near the root of a tight state**: at depths below
//! [`SCORE_DEPTH`] (3: the root and the two levels under it) the scored rule
//! is used from the start when the state has at most [`SCORE_MAX_PAIRS`] (8)
//! bivalue cells. Those first choices shape the whole tree of a puzzle whose
//! search will die often, and they are made before any dead end has said so:
//! scoring every node from the start takes top1465 from 10.22 to 7.48
//! guesses per puzzle, the root alone to 9.43, the first two levels to
//! 8.66, the first four to 7.68.
//! Few bivalue cells is where that pays: a state with many (serg's, with 34
//! or 35 givens, has ~13 at the root) is loosely bound, its guesses rarely
//! die, and the first bivalue cell does as well (scoring serg's root guesses
//! more, 6.64 against 6.56), while the score's cost grows with the cells it
//! scores. Measured (seventh session of issue 15, `bench`, BENCHMARKS.md):
//! top1465 10.22 -> 9.09 guesses and +7%, and +4-5% on three random
//! transformations of it (9.8-10.0 -> 9.1); 17-clue 0.75 -> 0.70 and +1%;
//! serg, hardest_1106 and the SE-rated sets within noise. The cost: puzzles
//! with several solutions and many open cells, whose guesses rarely die,
//! pay for the score and gain nothing: 1-7% slower on 17-clue puzzles with
//! one given removed, top1465 with one given removed, and serg cut to 26
//! givens.
//!
//! This is the "most constrained variable, then most constraining" idea of
//! constraint programming (Brélaz's tie-break for graph colouring: most
//! edges into the uncoloured rest), weighted towards removals that force a
//! naked single. Measured against the earlier rule alone (BENCHMARKS.md,
//! "Branching rule", which also lists every rule tried, at both levels, and
//! the sweep of [`SCORE_AFTER`]): guesses per puzzle on
//! puzzles6_forum_hardest_1106 213 -> 114 at the basic level and 170 -> 92
//! at the matching level; instructions per puzzle (callgrind, basic)
//! -20.5% on hardest_1106, -7.1% on top1465, -1.6% on 17-clue, +0.1% on
//! serg. Scoring from the first guess on guesses a little less (112 and 89)
//! but costs +62% instructions on serg.
//!
//! # Bit layout
//! The scores are summed from the band masks of `state` (bit `9r + c` of band
//! `b` = cell `27b + 9r + c`): the peers of a cell at bit `i` are
//! [`NEAR`]`[i]` inside its own band (its row and its box, the cell itself
//! excluded) and the three cells of its column, [`COLUMN`]`[i]`, in each of
//! the other two bands.

use super::masks::{spread_cols, ROW};
use super::state::{State, LANES};

/// `NEAR[i]`: the peers of band bit `i` (0..27) inside its band: the other
/// cells of its band row and of its box (which holds its column's other
/// cells in the band).
const NEAR: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        let (r, c) = (i / 9, i % 9);
        let box_cols = spread_cols(0b111 << (3 * (c / 3)));
        t[i] = (ROW[r] | box_cols) & !(1 << i);
        i += 1;
    }
    t
};

/// `COLUMN[i]`: the three cells of band bit `i`'s column in a band (bits
/// `c`, `c + 9`, `c + 18` for column `c = i % 9`).
const COLUMN: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        t[i] = spread_cols(1 << (i % 9));
        i += 1;
    }
    t
};

/// The low half of a packed word (bits 0..32).
const LOW: u64 = 0xffff_ffff;

/// Each entry of `t` in both halves of a `u64` (bits 0..27 and 32..59),
/// for words that pack two band masks side by side.
const fn both_halves(t: [u32; 32]) -> [u64; 32] {
    let mut out = [0u64; 32];
    let mut i = 0;
    while i < 32 {
        out[i] = t[i] as u64 | (t[i] as u64) << 32;
        i += 1;
    }
    out
}

/// `NEAR2[i]`: [`NEAR`]`[i]` in both halves of a `u64` ([`both_halves`]).
const NEAR2: [u64; 32] = both_halves(NEAR);

/// `COLUMN2[i]`: [`COLUMN`]`[i]` in both halves of a `u64` ([`both_halves`]).
const COLUMN2: [u64; 32] = both_halves(COLUMN);

/// `CROSS[i]`: for band bit `i` in column `c`, the bits of a
/// [`cross_singles`] word for a placement there: the other two columns of
/// its stack (bits 0..9) and column `c` at bits 9..18 and 18..27.
const CROSS: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 0;
    while i < 27 {
        let c = i % 9;
        t[i] = (0o7 << (3 * (c / 3)) & !(1 << c)) | 1 << (9 + c) | 1 << (18 + c);
        i += 1;
    }
    t
};

/// Backtracks a search makes with the cheap rule before it switches to the
/// scored rule everywhere (module doc).
pub(super) const SCORE_AFTER: u64 = 4;

/// Search depths (0 = the root) at which the scored rule is used from the
/// start when the state has at most [`SCORE_MAX_PAIRS`] bivalue cells
/// (module doc).
pub(super) const SCORE_DEPTH: usize = 3;

/// The most bivalue cells a state below [`SCORE_DEPTH`] may have for the
/// scored rule to be used there before [`SCORE_AFTER`] backtracks.
pub(super) const SCORE_MAX_PAIRS: u32 = 8;

/// The cell to branch on, as (band, one-bit band mask), at search depth
/// `depth` (0 = the root) of a search that has met `backtracks` dead ends
/// so far. The scored rule (module doc): the bivalue cell with the highest
/// score; with no bivalue cell, the cell with the highest score among those
/// with the fewest candidates. It is used from [`SCORE_AFTER`] backtracks
/// on, and before that at depths below [`SCORE_DEPTH`] when the state has
/// at most [`SCORE_MAX_PAIRS`] bivalue cells. Otherwise the cheap rule: the
/// first bivalue cell of the band with the most of them (the lowest band on
/// a tie), or the scored rule if there is none. Call at a fixed point of an
/// unsolved state (where `State::pairs` is current: the last naked-singles
/// pass saw every band that changed). The search asks [`branch`], which
/// may take a row pair instead; this is its cell rule alone, for tests.
#[cfg(test)]
pub(super) fn branch_cell(st: &State, backtracks: u64, depth: usize) -> (usize, u32) {
    match choose(st, backtracks, depth, false) {
        Guess::Cell { band, cell } => (band, cell),
        Guess::RowPair { .. } => unreachable!("row pairs not asked for"),
    }
}

/// The most a scored cell may score for [`branch`] to look for a better
/// row pair ([`row_pair`]): above it the cell is taken at once. Row pairs
/// win where no bivalue cell scores well, and scoring them costs about as
/// much as scoring the cells (BENCHMARKS.md, "Branches on a digit's two
/// places in a band row").
pub(super) const ROW_PAIR_MAX_SCORE: u32 = 20;

/// A guess: the alternatives the search tries, each a (digit, cell).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Guess {
    /// Each candidate of the cell at one-bit band mask `cell` of band
    /// `band`.
    Cell { band: usize, cell: u32 },
    /// Digit `digit` (0-based) at `a` or at `b`, each (band, band bit): the
    /// digit's only two places in a band row.
    RowPair {
        digit: usize,
        a: (usize, usize),
        b: (usize, usize),
    },
}

/// What the search guesses on: [`branch_cell`]'s cell, or, where that cell
/// came from the scored rule, scored at most [`ROW_PAIR_MAX_SCORE`], and the
/// state has bivalue cells, the row pair ([`row_pair`]) that scores more than
/// it if one does.
///
/// A row pair "digit d at A or at B", A and B the digit's last two places
/// in a band row, is a binary branch like a bivalue cell's, and is scored
/// alike (1 plus [`placement_score`] of each alternative). Measured (issue
/// 33; BENCHMARKS.md, "Branches on a digit's two places in a band row"):
/// guesses per puzzle under `bench --permute=1` 100.04 -> 84.23 on
/// hardest_1106, 9.08 -> 8.82 on top1465, 17-clue and serg within 0.03;
/// hardest_1106 +9-10% puzzles/s (5 rounds alternated with the rule
/// without row pairs), top1465, 17-clue and serg even. Boxes and columns as units
/// cut few guesses here (98.7 and 97.7 on hardest_1106 on their own), and
/// scoring the row pairs at every scored node costs about what the fewer
/// guesses save; hence the score bound.
///
/// Always inlined, so that each instruction-set copy of the search holds
/// its own (with POPCNT where the path has it): left to the compiler it
/// stayed one function compiled for the baseline, whose counts cost ~15
/// instructions each (2.4% of a serg run in perf).
#[inline(always)]
pub(super) fn branch(st: &State, backtracks: u64, depth: usize) -> Guess {
    choose(st, backtracks, depth, true)
}

/// [`branch`], with row pairs looked for only if `row_pairs`.
#[inline(always)]
fn choose(st: &State, backtracks: u64, depth: usize, row_pairs: bool) -> Guess {
    let pairs = [
        st.pairs(0) & st.unsolved(0),
        st.pairs(1) & st.unsolved(1),
        st.pairs(2) & st.unsolved(2),
    ];
    let n = pairs.map(u32::count_ones);
    let shallow = depth < SCORE_DEPTH && n[0] + n[1] + n[2] <= SCORE_MAX_PAIRS;
    if backtracks < SCORE_AFTER && !shallow {
        let b = (0..3).fold(0, |b, k| if n[k] > n[b] { k } else { b });
        if n[b] > 0 {
            return Guess::Cell {
                band: b,
                cell: pairs[b] & pairs[b].wrapping_neg(),
            };
        }
    }
    scored_cell(st, pairs, row_pairs && n[0] + n[1] + n[2] > 0)
}

/// The first row pair, in order of band, band row and digit, whose score
/// (1 plus [`placement_score`] of its two cells) is the highest and above
/// `top`, if any; `own` and `singles` are [`best`]'s words ([`own_words`],
/// [`cross_singles`]). A row pair is a digit's two unsolved cells in a band
/// row where it has no other. One band row and digit at a time;
/// [`best_vpopcnt`] does the nine digits of a band row at once.
#[inline(always)]
fn row_pair(own: &[u64; 3 * LANES], singles: &[u32; 3 * LANES], mut top: u32) -> Option<Guess> {
    let mut found = None;
    for b in 0..3 {
        for row in ROW {
            for d in 0..9 {
                let x = own[LANES * b + d] as u32 & row;
                if x.count_ones() != 2 {
                    continue;
                }
                let (i, j) = (x.trailing_zeros() as usize, 31 - x.leading_zeros() as usize);
                let score = 1
                    + placement_score(own, singles, b, i, d)
                    + placement_score(own, singles, b, j, d);
                if score > top {
                    top = score;
                    found = Some(Guess::RowPair {
                        digit: d,
                        a: (b, i),
                        b: (b, j),
                    });
                }
            }
        }
    }
    found
}

/// The scored rule of [`branch`]; `pairs` are the unsolved bivalue cells
/// per band; with `rows`, a row pair may be taken over the best cell
/// ([`ROW_PAIR_MAX_SCORE`], [`row_pair`]). Kept out of line: the cheap rule
/// inlines into the search.
#[inline(never)]
fn scored_cell(st: &State, pairs: [u32; 3], rows: bool) -> Guess {
    let chosen = if pairs[0] | pairs[1] | pairs[2] != 0 {
        pairs
    } else {
        fewest(st)
    };
    #[cfg(target_arch = "x86_64")]
    if super::simd::current() == super::simd::Simd::Avx512 {
        if super::simd::vpopcnt_available() {
            // SAFETY: the AVX-512 path is only chosen where the CPU has its
            // features; VPOPCNTDQ is checked just above.
            return unsafe { best_vpopcnt(st, pairs, chosen, rows) };
        }
        // SAFETY: the AVX-512 path is only chosen where the CPU has its
        // features.
        return unsafe { best_avx512(st, pairs, chosen, rows) };
    }
    #[cfg(target_arch = "x86_64")]
    if super::simd::current() != super::simd::Simd::Sse2 {
        // SAFETY: the AVX2 paths (with or without pext) are only chosen
        // where the CPU has their features.
        return unsafe { best_avx2(st, pairs, chosen, rows) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the CPU has POPCNT, checked just above.
        return unsafe { best_popcnt(st, pairs, chosen, rows) };
    }
    best(st, pairs, chosen, rows)
}

/// [`best`] compiled for the AVX2 path ([`super::simd`]).
///
/// # Safety
/// The CPU must have AVX2, BMI1, BMI2, POPCNT and LZCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,popcnt,lzcnt")]
unsafe fn best_avx2(st: &State, pairs: [u32; 3], chosen: [u32; 3], rows: bool) -> Guess {
    best(st, pairs, chosen, rows)
}

/// [`best`] compiled for the AVX-512 path ([`super::simd`]).
///
/// # Safety
/// The CPU must have what [`super::simd::avx512_available`] checks.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd"
)]
unsafe fn best_avx512(st: &State, pairs: [u32; 3], chosen: [u32; 3], rows: bool) -> Guess {
    best(st, pairs, chosen, rows)
}

/// [`best`] with AVX-512 and VPOPCNTDQ, for the [`super::simd::Simd::Avx512`]
/// path where the CPU also has VPOPCNTDQ (Intel since Ice Lake, AMD since
/// Zen 4): the same score, so the same choice, at about a third of the cost
/// per cell.
///
/// Per chosen cell, the counts of all nine digits at once: one 32-bit lane
/// per digit of a 512-bit vector holding the band's lanes of `cands`
/// (lanes 9..16 masked to 0 on load), so that the unsolved, bivalue and
/// hidden-single words of every digit are three vectors per band, built
/// once per call. For cell bit `i`, five ANDs and five `vpopcntd` give each
/// digit's unsolved and bivalue peers in the band ([`NEAR`]), its unsolved
/// and bivalue peers in the cell's column of the other two bands ([`COLUMN`],
/// the band after's shifted one bit up as in [`best`]) and its hidden
/// singles ([`CROSS`]); the lanes are weighted 1, 2, 2 as in [`best`],
/// `vptestmd` keeps the cell's candidates and one horizontal add sums them.
/// [`best`] spends ~78 scalar instructions per bivalue cell plus
/// [`State::digit_set`] (~16); this, ~30 vector ones for any number of
/// candidates.
///
/// With `rows`, where the best cell scores at most [`ROW_PAIR_MAX_SCORE`],
/// the row pairs ([`row_pair`]) follow, the nine digits of a band row at
/// once, reusing the band vectors: per band and band row, `vpopcntd` and a
/// compare find the digits with two cells in the row, whose row words are
/// compressed with their lane numbers into two buffers (`vpcompressd` into
/// a register, then stored: compressing straight into memory is microcoded
/// on Zen 4 and made the run 30% slower). Sixteen row pairs at a time, the
/// two cells' bit numbers come from `vplzcntd`, their in-band peers, column
/// and crossing-unit words from [`NEAR`], [`COLUMN`] and [`CROSS`] by
/// `vpermt2d` (32-entry tables), and each lane's words of its band and of
/// the other two from the band vectors by lane number; the scores are
/// [`placement_score`]'s, lane-wise.
///
/// Measured (Zen 4, `bench -t 2`, max of 3, seventh session of issue 15,
/// BENCHMARKS.md): hardest_1106 20,342 -> 21,422 puzzles/s (+5.3%),
/// top1465 +2.2%, 17-clue +1%, serg within noise; the scores, hence
/// guesses and `solve`'s output on the four public sets, identical to
/// [`best`]'s.
///
/// # Safety
/// The CPU must have what [`super::simd::avx512_available`] checks and
/// AVX512-VPOPCNTDQ.
#[cfg(target_arch = "x86_64")]
#[target_feature(
    enable = "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512bw,avx512dq,avx512cd,avx512vpopcntdq"
)]
unsafe fn best_vpopcnt(st: &State, pairs: [u32; 3], chosen: [u32; 3], rows: bool) -> Guess {
    use std::arch::x86_64::*;
    let singles = cross_singles(st);
    // Lanes 0..9 of a band: its nine digits.
    const DIGITS: __mmask16 = 0x1ff;
    // SAFETY (all loads): `cands` has 64 lanes and `singles` 48, so the 16
    // lanes from `LANES * b` (b < 3) are in bounds; unaligned loads need no
    // alignment.
    let lanes = |b: usize| unsafe {
        _mm512_maskz_loadu_epi32(DIGITS, st.cands.as_ptr().add(LANES * b) as *const i32)
    };
    let cand = [lanes(0), lanes(1), lanes(2)];
    let with = |words: [u32; 3]| {
        [0, 1, 2].map(|b| _mm512_and_si512(cand[b], _mm512_set1_epi32(words[b] as i32)))
    };
    let unsolved = with([st.unsolved(0), st.unsolved(1), st.unsolved(2)]);
    let bivalue = with(pairs);
    let single = [0, 1, 2].map(|b| unsafe {
        _mm512_maskz_loadu_epi32(DIGITS, singles.as_ptr().add(LANES * b) as *const i32)
    });
    // Per lane (digit), the score of placing it at a cell ([`placement_score`]'s
    // terms): `u` and `p` are the unsolved and bivalue words of the cell's
    // band, the band after and the one after that, `sg` the cell band's
    // cross singles, `at` the cell's NEAR, COLUMN and CROSS words. The other
    // bands' cells in the cell's column are counted in one word, the band
    // after that's one bit up (as in `best`).
    let place = |u: [__m512i; 3], p: [__m512i; 3], sg: __m512i, at: [__m512i; 3]| {
        let [near, col, cross] = at;
        let far = |w: [__m512i; 3]| {
            _mm512_or_si512(
                _mm512_and_si512(w[1], col),
                _mm512_slli_epi32::<1>(_mm512_and_si512(w[2], col)),
            )
        };
        let ones = _mm512_add_epi32(
            _mm512_popcnt_epi32(_mm512_and_si512(u[0], near)),
            _mm512_popcnt_epi32(far(u)),
        );
        let twos = _mm512_add_epi32(
            _mm512_add_epi32(
                _mm512_popcnt_epi32(_mm512_and_si512(p[0], near)),
                _mm512_popcnt_epi32(far(p)),
            ),
            _mm512_popcnt_epi32(_mm512_and_si512(sg, cross)),
        );
        _mm512_add_epi32(ones, _mm512_add_epi32(twos, twos))
    };
    // (band, cell bit, score + 1): 0 until the first chosen cell is seen.
    let mut best = (0usize, 0u32, 0u32);
    for (b, &band) in chosen.iter().enumerate() {
        let (b1, b2) = ((b + 1) % 3, (b + 2) % 3);
        let mut cells = band;
        while cells != 0 {
            let i = cells.trailing_zeros() as usize & 31;
            cells &= cells - 1;
            let per_digit = place(
                [unsolved[b], unsolved[b1], unsolved[b2]],
                [bivalue[b], bivalue[b1], bivalue[b2]],
                single[b],
                [NEAR[i], COLUMN[i], CROSS[i]].map(|t| _mm512_set1_epi32(t as i32)),
            );
            let has = _mm512_test_epi32_mask(cand[b], _mm512_set1_epi32(1 << i));
            let score = 1 + _mm512_reduce_add_epi32(_mm512_maskz_mov_epi32(has, per_digit)) as u32;
            if score > best.2 {
                best = (b, 1 << i, score);
            }
        }
    }
    let cell = Guess::Cell {
        band: best.0,
        cell: best.1,
    };
    if !rows || best.2 > ROW_PAIR_MAX_SCORE {
        return cell;
    }
    let mut top = best.2;
    // Row words and lane numbers (16b + d) of the row pairs, in order of
    // band, row and digit; 16 lanes of slack for the last full store.
    let mut words = [0u32; 9 * 9 + 16];
    let mut ids = [0u32; 9 * 9 + 16];
    let mut n = 0usize;
    let iota = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    let two = _mm512_set1_epi32(2);
    for (b, &band) in unsolved.iter().enumerate() {
        let id = _mm512_add_epi32(iota, _mm512_set1_epi32((LANES * b) as i32));
        for row in ROW {
            let x = _mm512_and_si512(band, _mm512_set1_epi32(row as i32));
            let k = _mm512_cmpeq_epi32_mask(_mm512_popcnt_epi32(x), two);
            // SAFETY: n <= 9 * 8 before the last row, so n + 16 lanes fit.
            unsafe {
                _mm512_storeu_si512(
                    words.as_mut_ptr().add(n) as *mut _,
                    _mm512_maskz_compress_epi32(k, x),
                );
                _mm512_storeu_si512(
                    ids.as_mut_ptr().add(n) as *mut _,
                    _mm512_maskz_compress_epi32(k, id),
                );
            }
            n += k.count_ones() as usize;
        }
    }
    let table = |t: &[u32; 32]| unsafe {
        [
            _mm512_loadu_si512(t.as_ptr() as *const _),
            _mm512_loadu_si512(t.as_ptr().add(16) as *const _),
        ]
    };
    let (near_t, col_t, cross_t) = (table(&NEAR), table(&COLUMN), table(&CROSS));
    let by_bit = |t: &[__m512i; 2], i: __m512i| _mm512_permutex2var_epi32(t[0], i, t[1]);
    // Lane l of bands 0..3's vectors, for lane numbers 0..48.
    let by_lane = |t: &[__m512i; 3], l: __m512i| {
        let low = _mm512_permutex2var_epi32(t[0], l, t[1]);
        let high = _mm512_permutexvar_epi32(l, t[2]);
        _mm512_mask_blend_epi32(_mm512_cmpge_epu32_mask(l, _mm512_set1_epi32(32)), low, high)
    };
    let (c16, c31, c48) = (
        _mm512_set1_epi32(16),
        _mm512_set1_epi32(31),
        _mm512_set1_epi32(48),
    );
    // The same digit's lane in the next band.
    let next = |l: __m512i| {
        let l = _mm512_add_epi32(l, c16);
        _mm512_mask_sub_epi32(l, _mm512_cmpge_epu32_mask(l, c48), l, c48)
    };
    let mut found = None;
    let mut at = 0;
    while at < n {
        let valid: __mmask16 = if n - at >= 16 {
            0xffff
        } else {
            (1u16 << (n - at)) - 1
        };
        // SAFETY: at < n <= 81 and both buffers hold 97 lanes.
        let (x, l) = unsafe {
            (
                _mm512_maskz_loadu_epi32(valid, words.as_ptr().add(at) as *const i32),
                _mm512_maskz_loadu_epi32(valid, ids.as_ptr().add(at) as *const i32),
            )
        };
        let (l1, l2) = (next(l), next(next(l)));
        let (u, p, sg) = (
            by_lane(&unsolved, l),
            by_lane(&bivalue, l),
            by_lane(&single, l),
        );
        let (u1, u2) = (by_lane(&unsolved, l1), by_lane(&unsolved, l2));
        let (p1, p2) = (by_lane(&bivalue, l1), by_lane(&bivalue, l2));
        let lowest = _mm512_and_si512(x, _mm512_sub_epi32(_mm512_setzero_si512(), x));
        let score = |i: __m512i| {
            let at = [&near_t, &col_t, &cross_t].map(|t| by_bit(t, i));
            place([u, u1, u2], [p, p1, p2], sg, at)
        };
        let (ia, ib) = (
            _mm512_sub_epi32(c31, _mm512_lzcnt_epi32(lowest)),
            _mm512_sub_epi32(c31, _mm512_lzcnt_epi32(x)),
        );
        let total = _mm512_maskz_add_epi32(
            valid,
            _mm512_add_epi32(score(ia), score(ib)),
            _mm512_set1_epi32(1),
        );
        let max = _mm512_reduce_max_epu32(total);
        if max > top {
            top = max;
            let lane =
                _mm512_cmpeq_epi32_mask(total, _mm512_set1_epi32(max as i32)).trailing_zeros();
            let k = (at + lane as usize).min(9 * 9 - 1);
            let (id, word) = (ids[k] as usize, words[k]);
            let b = (id / LANES).min(2);
            found = Some(Guess::RowPair {
                digit: id % LANES,
                a: (b, word.trailing_zeros() as usize),
                b: (b, 31 - word.leading_zeros() as usize),
            });
        }
        at += 16;
    }
    found.unwrap_or(cell)
}

/// [`best`] compiled with the POPCNT instruction (one instruction per count
/// against about fifteen for the x86_64 baseline's bit tricks).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn best_popcnt(st: &State, pairs: [u32; 3], chosen: [u32; 3], rows: bool) -> Guess {
    best(st, pairs, chosen, rows)
}

/// The unsolved cells with the fewest candidates, per band, for a state
/// with no bivalue cell (so the fewest is three or more).
fn fewest(st: &State) -> [u32; 3] {
    // Per band: (candidate count, cells with exactly that many).
    let mut per_band = [(10usize, 0u32); 3];
    for (b, slot) in per_band.iter_mut().enumerate() {
        let unsolved = st.unsolved(b);
        // at_least[k]: cells with more than k candidates.
        let mut at_least = [0u32; 10];
        for d in 0..9 {
            let digit = st.cands[LANES * b + d];
            for k in (1..9).rev() {
                at_least[k] |= at_least[k - 1] & digit;
            }
            at_least[0] |= digit;
        }
        if let Some(k) = (2..10).find(|&k| unsolved & at_least[k - 1] & !at_least[k] != 0) {
            *slot = (k, unsolved & at_least[k - 1] & !at_least[k]);
        }
    }
    let min = per_band.iter().map(|p| p.0).min().unwrap_or(10);
    per_band.map(|(k, cells)| if k == min { cells } else { 0 })
}

/// The first cell of `chosen` (per band; not all empty) with the highest
/// score, where `pairs` are the unsolved bivalue cells.
///
/// Cell by cell, in row-major order: each chosen cell's digits
/// ([`State::digit_set`]) and, per digit, its peers holding that digit,
/// summed in a register, the best kept as it goes. (Summing digit by digit
/// into a per-cell table first, as this did before, ran 27 short loops of
/// 0-3 cells whose exits the branch predictor misses; here one loop runs
/// once per chosen cell and the inner one twice for a bivalue cell.)
///
/// The words each (cell, digit) pair is counted from are packed once per
/// call, lane-wise over the 48 (band, digit) lanes: `own` holds the band's
/// unsolved and bivalue cells of the digit side by side (bits 0..27 and
/// 32..59), so that one AND + POPCNT with the cell's in-band peers in both
/// halves counts unsolved and bivalue peers, and one with the high half
/// alone counts the bivalue ones again. The other two bands' words are
/// read from `own` per pair, masked to the cell's column and merged into
/// one word (the band after shifted up one bit, onto column bits the mask
/// left free), counted the same way: two AND + POPCNT. A fifth counts the
/// hidden singles ([`cross_singles`], also computed once per call).
///
/// Measured (sixth session of issue 15; callgrind, 198 hardest_1106
/// puzzles, 15,841 calls): 25.9M instructions in this function before,
/// 22.5M after (-13%: separate `far_u`/`far_p` arrays and a `p` array,
/// 144 more 64-bit lanes stored per call, cost more than the shift and OR
/// per pair; `cross_singles` in 16-bit lanes, half the vectors); the whole
/// `solve -j 1` -5% on hardest_1106 and -3% on top1465 (perf task-clock).
#[inline(always)]
fn best(st: &State, pairs: [u32; 3], chosen: [u32; 3], rows: bool) -> Guess {
    let own = own_words(st, pairs);
    let singles = cross_singles(st);
    // (band, cell bit, score + 1): 0 until the first chosen cell is seen.
    let mut best = (0usize, 0u32, 0u32);
    for (b, &band) in chosen.iter().enumerate() {
        let mut cells = band;
        while cells != 0 {
            let i = cells.trailing_zeros() as usize & 31;
            cells &= cells - 1;
            let mut digits = st.digit_set(b, i);
            let mut score = 1;
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                score += placement_score(&own, &singles, b, i, d);
            }
            if score > best.2 {
                best = (b, 1 << i, score);
            }
        }
    }
    let cell = Guess::Cell {
        band: best.0,
        cell: best.1,
    };
    if !rows || best.2 > ROW_PAIR_MAX_SCORE {
        return cell;
    }
    row_pair(&own, &singles, best.2).unwrap_or(cell)
}

/// Per (band, digit), index `LANES * b + d`: the digit's unsolved cells of
/// the band (bits 0..27) and its bivalue cells (bits 32..59), for
/// [`placement_score`]. Every lane is written (padding lanes hold values no
/// one reads), lane-wise, so that the compiler vectorises it and zeroes
/// nothing first.
#[inline(always)]
fn own_words(st: &State, pairs: [u32; 3]) -> [u64; 3 * LANES] {
    let mut own = [0u64; 3 * LANES];
    for b in 0..3 {
        let (unsolved, pairs) = (st.unsolved(b), pairs[b]);
        for d in 0..LANES {
            let m = st.cands[LANES * b + d];
            own[LANES * b + d] = (m & unsolved) as u64 | ((m & pairs) as u64) << 32;
        }
    }
    own
}

/// The score of placing digit `d` at band bit `i` of band `b`: its unsolved
/// peers holding `d` once, the bivalue ones among them twice more, and twice
/// the hidden singles it makes in the units crossing the band
/// ([`cross_singles`]); `own` from [`own_words`]. A cell's score (module
/// doc) is 1 plus this over its candidates; a row pair's ([`row_pair`]) is
/// 1 plus this over its two cells.
#[inline(always)]
fn placement_score(
    own: &[u64; 3 * LANES],
    singles: &[u32; 3 * LANES],
    b: usize,
    i: usize,
    d: usize,
) -> u32 {
    let (b1, b2) = (LANES * ((b + 1) % 3), LANES * ((b + 2) % 3));
    let (near, near_p, col, cross) = (
        NEAR2[i & 31],
        NEAR2[i & 31] & !LOW,
        COLUMN2[i & 31],
        CROSS[i & 31],
    );
    let k = (LANES * b + d) & 63;
    // The digit's cells in the cell's column in the other two bands,
    // unsolved ones at bits 0..27, bivalue ones at 32..59; the band after's
    // shifted one up (its bits c + 1, c + 10, c + 19 are free, since `col`
    // keeps only column c's).
    let far = (own[(b1 + d) & 63] & col) | (own[(b2 + d) & 63] & col) << 1;
    // Unsolved peers once, bivalue ones twice more.
    (own[k] & near).count_ones()
        + (own[k] & near_p).count_ones()
        + far.count_ones()
        + (far & !LOW).count_ones()
        // Hidden singles made in the units crossing the band, twice (as a
        // bivalue peer's removal counts twice more).
        + 2 * (singles[k] & cross).count_ones()
}

/// Per (band, digit), index `LANES * b + d`: the units crossing band `b`
/// where placing digit `d` in the band makes a hidden single at once, as a
/// word that [`CROSS`]`[i]` reads for the cell at band bit `i`:
///
/// ```text
///   bits  0..9   column c: the digit is in column c of band b (removed by
///                a placement in the box of c) and once in the other two
///                bands' parts of column c
///   bits  9..18  column c: the next band's box in column c's stack holds
///                the digit in column c (removed by a placement in column
///                c) and once in the box's other two columns
///   bits 18..27  column c: the same for the band after that
/// ```
///
/// A placement of `d` at a cell of column `c` removes `d` from the cell's
/// box, so from the other two columns of its stack in band `b`, and from
/// column `c` in the other bands: [`CROSS`]`[i]` selects those units.
///
/// From the digit masks, solved cells included (at a fixed point a solved
/// digit is no peer of a cell that still has it, so it is never
/// "removed"). Lane-wise over all 48 lanes (padding lanes give values no
/// one reads), so that the compiler vectorises it: per band and digit, each
/// column's "holds the digit" and "holds it once" from the three band rows,
/// rotations inside each stack for the boxes, and the two other bands'
/// columns for the columns.
#[inline(always)]
fn cross_singles(st: &State) -> [u32; 3 * LANES] {
    // nec: columns holding the digit in the band; onec: holding it once.
    // In 16-bit lanes (9 bits used), sixteen to a 256-bit vector.
    let mut nec = [0u16; 3 * LANES];
    let mut onec = [0u16; 3 * LANES];
    for k in 0..3 * LANES {
        let m = st.cands[k];
        let (r0, r1, r2) = (
            m as u16 & 0o777,
            (m >> 9) as u16 & 0o777,
            (m >> 18) as u16 & 0o777,
        );
        nec[k] = r0 | r1 | r2;
        onec[k] = (r0 ^ r1 ^ r2) & !(r0 & r1 & r2);
    }
    // Bit c: the box of column c holds the digit in column c and exactly
    // once in its other two columns (one holds it once, the other not).
    // `next`/`after`: the value of the stack's next/after-next column.
    let next = |v: u16| ((v >> 1) & 0o333) | ((v << 2) & 0o444);
    let after = |v: u16| ((v >> 2) & 0o111) | ((v << 1) & 0o666);
    let mut boxes = [0u16; 3 * LANES];
    for k in 0..3 * LANES {
        let (held, once) = (nec[k], onec[k]);
        let none = !held;
        boxes[k] = held & ((next(once) & after(none)) | (next(none) & after(once)));
    }
    let mut out = [0u32; 3 * LANES];
    for b in 0..3 {
        let (b1, b2) = (LANES * ((b + 1) % 3), LANES * ((b + 2) % 3));
        for d in 0..LANES {
            let k = LANES * b + d;
            let (k1, k2) = (b1 + d, b2 + d);
            let columns = nec[k] & ((onec[k1] & !nec[k2]) | (!nec[k1] & onec[k2]));
            out[k] = columns as u32 | (boxes[k1] as u32) << 9 | (boxes[k2] as u32) << 18;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::PEERS;
    use crate::solver::state::{PAIRS, UNSOLVED};
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// The hidden singles placing digit `d` at cell `c` makes in the units
    /// crossing its band and stack (the module doc), by the definition over
    /// 81 per-cell masks: units whose cells holding `d` include a peer of
    /// `c` and are one once those are gone.
    fn plain_cross_singles(cands: &[u16; 81], c: usize, d: usize) -> u32 {
        let (r, k) = (c / 9, c % 9);
        let (band, stack) = (r / 3, k / 3);
        let mut units: Vec<Vec<usize>> = Vec::new();
        for col in (3 * stack..3 * stack + 3).filter(|&col| col != k) {
            units.push((0..9).map(|row| 9 * row + col).collect());
        }
        for other in (0..3).filter(|&other| other != band) {
            units.push(
                (0..9)
                    .map(|j| 9 * (3 * other + j / 3) + 3 * stack + j % 3)
                    .collect(),
            );
        }
        let peer = |p: usize| PEERS[c].contains(&(p as u8));
        units
            .iter()
            .filter(|unit| {
                let held: Vec<usize> = unit
                    .iter()
                    .copied()
                    .filter(|&p| cands[p] >> d & 1 == 1)
                    .collect();
                let removed = held.iter().filter(|&&p| peer(p)).count();
                removed > 0 && held.len() - removed == 1
            })
            .count() as u32
    }

    /// The score of placing digit `d` at cell `c`, by the definition over 81
    /// per-cell masks: its unsolved peers holding `d`, three for a bivalue
    /// one, plus two per hidden single it makes in the crossing units.
    fn plain_placement(cands: &[u16; 81], solved: &[bool; 81], c: usize, d: usize) -> u32 {
        let bivalue = |p: usize| !solved[p] && cands[p].count_ones() == 2;
        let peers: u32 = PEERS[c]
            .iter()
            .map(|&p| p as usize)
            .filter(|&p| !solved[p] && cands[p] >> d & 1 == 1)
            .map(|p| if bivalue(p) { 3 } else { 1 })
            .sum();
        peers + 2 * plain_cross_singles(cands, c, d)
    }

    /// The score of every cell, by the definition over 81 per-cell masks.
    fn plain_scores(cands: &[u16; 81], solved: &[bool; 81]) -> [u32; 81] {
        let mut out = [0u32; 81];
        for c in (0..81).filter(|&c| !solved[c] && cands[c].count_ones() == 2) {
            out[c] = (0..9)
                .filter(|&d| cands[c] >> d & 1 == 1)
                .map(|d| plain_placement(cands, solved, c, d))
                .sum();
        }
        out
    }

    /// A random state (sparse masks, with solved cells), the `pairs` field
    /// as the counters leave it, with its per-cell candidates and solved
    /// flags; at most `max_pairs` cells have two candidates (the others
    /// drawn with two get a third).
    fn random_state(
        next: &mut impl FnMut() -> u64,
        max_pairs: usize,
    ) -> (State, [u16; 81], [bool; 81]) {
        let mut st = State::empty();
        let mut cands = [0u16; 81];
        let mut solved = [false; 81];
        let mut pairs = 0;
        for (cell, mask) in cands.iter_mut().enumerate() {
            // Mostly 2-4 candidates, sometimes 1 (solved or not).
            *mask = (next() as u16 | 1 << (next() % 9)) & (next() as u16) & 0o777;
            if *mask == 0 {
                *mask = 1 << (next() % 9);
            }
            while mask.count_ones() == 2 && pairs == max_pairs {
                *mask |= 1 << (next() % 9);
            }
            pairs += (mask.count_ones() == 2) as usize;
            solved[cell] = mask.count_ones() == 1 && next().is_multiple_of(2);
        }
        st.cands = [0; super::super::state::MASKS];
        for cell in 0..81 {
            let (b, bit) = (cell / 27, 1u32 << (cell % 27));
            for d in 0..9 {
                if cands[cell] >> d & 1 == 1 {
                    st.cands[LANES * b + d] |= bit;
                }
            }
            if !solved[cell] {
                st.cands[LANES * b + UNSOLVED] |= bit;
            }
            if cands[cell].count_ones() == 2 {
                // As the counters do: solved cells are masked off later.
                st.cands[LANES * b + PAIRS] |= bit;
            }
        }
        (st, cands, solved)
    }

    /// Random states; the chosen cell must be the first cell with the
    /// highest plain score.
    #[test]
    fn picks_the_first_bivalue_cell_with_the_highest_score() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x853c_49e6_748f_ea9b);
        let mut next = || rng.next_u64();
        let (mut tested, mut shallow) = (0, 0);
        for round in 0..3_000 {
            // Every other state with at most 3..=12 bivalue cells, around
            // SCORE_MAX_PAIRS.
            let max_pairs = if round % 2 == 0 { 81 } else { 3 + round % 10 };
            let (st, cands, solved) = random_state(&mut next, max_pairs);
            let plain = plain_scores(&cands, &solved);
            let want = (0..81)
                .filter(|&c| !solved[c] && cands[c].count_ones() == 2)
                .max_by_key(|&c| (plain[c], std::cmp::Reverse(c)));
            let Some(want) = want else { continue };
            tested += 1;
            // Scored from SCORE_AFTER backtracks on, at any depth.
            for depth in [0, SCORE_DEPTH, 40] {
                let (b, bit) = branch_cell(&st, SCORE_AFTER, depth);
                assert_eq!(
                    27 * b + bit.trailing_zeros() as usize,
                    want,
                    "scores {:?}",
                    &plain[..]
                );
            }
            // Unscored: the first bivalue cell of the band with the most.
            let count = |b: usize| {
                (27 * b..27 * b + 27)
                    .filter(|&c| !solved[c] && cands[c].count_ones() == 2)
                    .count()
            };
            let band = (0..3).rev().max_by_key(|&b| count(b)).unwrap();
            let first = (27 * band..27 * band + 27)
                .find(|&c| !solved[c] && cands[c].count_ones() == 2)
                .unwrap();
            let (b, bit) = branch_cell(&st, SCORE_AFTER - 1, SCORE_DEPTH);
            assert_eq!(27 * b + bit.trailing_zeros() as usize, first);
            // Above SCORE_DEPTH, scored where the state has at most
            // SCORE_MAX_PAIRS bivalue cells, else unscored.
            let n = (0..3).map(count).sum::<usize>();
            let scored = n <= SCORE_MAX_PAIRS as usize;
            shallow += scored as usize;
            for depth in 0..SCORE_DEPTH {
                let (b, bit) = branch_cell(&st, 0, depth);
                let got = 27 * b + bit.trailing_zeros() as usize;
                assert_eq!(got, if scored { want } else { first }, "{n} bivalue cells");
            }
        }
        assert!(tested > 2_000, "only {tested} states had a bivalue cell");
        assert!(shallow > 500, "only {shallow} states had few bivalue cells");
    }

    /// The AVX-512 score picks what the scalar one picks, on random states
    /// and random sets of chosen cells (any number of candidates, solved
    /// ones too), where this CPU can run it.
    #[test]
    #[cfg(target_arch = "x86_64")]
    fn vpopcnt_score_picks_what_the_scalar_score_picks() {
        if !(crate::solver::simd::avx512_available() && crate::solver::simd::vpopcnt_available()) {
            eprintln!("note: no AVX-512 VPOPCNTDQ on this CPU, best_vpopcnt not run");
            return;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        let mut next = || rng.next_u64();
        for _ in 0..3_000 {
            let (st, _, _) = random_state(&mut next, 81);
            let pairs = [0, 1, 2].map(|b| st.pairs(b) & st.unsolved(b));
            let chosen = [0, 1, 2].map(|_| next() as u32 & next() as u32 & 0o777_777_777);
            for chosen in [pairs, chosen] {
                if chosen == [0; 3] {
                    continue;
                }
                for rows in [false, true] {
                    // SAFETY: the CPU has the features, checked above.
                    let vector = unsafe { best_vpopcnt(&st, pairs, chosen, rows) };
                    let scalar = best(&st, pairs, chosen, rows);
                    assert_eq!(vector, scalar, "chosen {chosen:?}, row pairs {rows}");
                }
            }
        }
    }

    /// `branch` takes the row pair with the highest score, by the definition
    /// over 81 per-cell masks, where the best cell scores at most
    /// ROW_PAIR_MAX_SCORE and the pair scores more; else the cell.
    #[test]
    fn takes_a_row_pair_that_outscores_a_weak_best_cell() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        let (mut cells, mut row_pairs) = (0, 0);
        for round in 0..3_000 {
            let (st, cands, solved) = random_state(&mut next, 2 + round % 12);
            let plain = plain_scores(&cands, &solved);
            let has = |c: usize, d: usize| !solved[c] && cands[c] >> d & 1 == 1;
            let bivalue = |p: usize| !solved[p] && cands[p].count_ones() == 2;
            let place = |c: usize, d: usize| plain_placement(&cands, &solved, c, d);
            let Some(cell) = (0..81)
                .filter(|&c| bivalue(c))
                .max_by_key(|&c| (plain[c], std::cmp::Reverse(c)))
            else {
                continue;
            };
            let mut want = Guess::Cell {
                band: cell / 27,
                cell: 1 << (cell % 27),
            };
            let mut top = plain[cell] + 1;
            if top <= ROW_PAIR_MAX_SCORE {
                for row in 0..9 {
                    for d in 0..9 {
                        let at: Vec<usize> =
                            (9 * row..9 * row + 9).filter(|&c| has(c, d)).collect();
                        if at.len() != 2 {
                            continue;
                        }
                        let score = 1 + place(at[0], d) + place(at[1], d);
                        if score > top {
                            top = score;
                            want = Guess::RowPair {
                                digit: d,
                                a: (at[0] / 27, at[0] % 27),
                                b: (at[1] / 27, at[1] % 27),
                            };
                        }
                    }
                }
            }
            match want {
                Guess::Cell { .. } => cells += 1,
                Guess::RowPair { .. } => row_pairs += 1,
            }
            assert_eq!(branch(&st, SCORE_AFTER, 40), want, "round {round}");
        }
        assert!(
            row_pairs > 200 && cells > 200,
            "{row_pairs} row pairs, {cells} cells"
        );
    }

    #[test]
    fn near_and_column_are_the_peers() {
        for (cell, peers) in PEERS.iter().enumerate() {
            let (b, i) = (cell / 27, cell % 27);
            let mut from_tables: Vec<usize> = (0..27)
                .filter(|&j| NEAR[i] >> j & 1 == 1)
                .map(|j| 27 * b + j)
                .collect();
            for other in (0..3).filter(|&o| o != b) {
                from_tables.extend(
                    (0..27)
                        .filter(|&j| COLUMN[i] >> j & 1 == 1)
                        .map(|j| 27 * other + j),
                );
            }
            from_tables.sort_unstable();
            let mut peers: Vec<usize> = peers.iter().map(|&p| p as usize).collect();
            peers.sort_unstable();
            assert_eq!(from_tables, peers, "cell {}", crate::grid::cell_name(cell));
        }
    }
}
