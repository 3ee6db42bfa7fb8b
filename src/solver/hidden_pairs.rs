//! Hidden pairs at the search root, on the band masks.
//!
//! # Definition
//! Two digits `d` and `e` form a *hidden pair* in a unit when the unit's
//! cells where `d` can go are exactly two, and the same two cells are all
//! the places of `e` there: those two cells must hold `d` and `e`, so every
//! other candidate leaves them. Basic propagation ([`super::state`]: naked
//! and hidden singles, pointing and claiming) does not see it; the matching
//! levels ([`super::matching`]) do, with every other naked and hidden subset,
//! at about a hundred times the cost.
//!
//! # Where and why
//! The search runs [`pass`] at its root, between basic propagations, to a
//! fixed point, where at least [`MIN_OPEN`] cells are unsolved after the
//! first propagation. Measured (issue 33, `bench -s sudoflow --permute=1`,
//! BENCHMARKS.md), guesses per puzzle with the bound: top1465 8.82 -> 7.17,
//! 17-clue 0.64 -> 0.46 (0.33 without it), hardest_1106 84.2 -> 83.7, serg
//! 7.14 unchanged. Pairs at the root cut top1465's guesses by most of what the
//! whole forbidden-edge filter does there (6.40 with naked and hidden subsets
//! of all sizes, 6.98 with naked and hidden pairs, 7.16 with hidden pairs,
//! all without the bound), and hidden pairs are the
//! subsets the band masks show without a transpose. At depths 0 and 1
//! (50+ open cells) top1465 guesses 6.88 times and ran 5% faster than with
//! the root alone in one run, but 17-clue and serg ran slower; measured
//! again at cfc7713 (5 rounds alternated), depths 0-1 and 0-2 (6.86 and
//! 6.70 guesses) ran top1465 and hardest_1106 even with the root alone. So
//! the root alone it is.
//! With few cells open (serg's puzzles hold 35 givens) pairs save nothing and
//! the pass cost serg 0.13 µs a puzzle (7%): hence the bound.
//!
//! # Method
//! A unit's places of digit `d` are the AND of `d`'s band masks with the
//! unit's band words ([`UNIT_WORDS`]); rows and boxes lie in one band, a
//! column's three band words are packed into one word (band `b`'s bits
//! shifted up `b`, the column's bits being 9 apart). A pair is kept only if
//! one of its cells is neither solved nor bivalue (so that it strips
//! something). With AVX-512 ([`pass_avx512`]) a unit's nine digits are the
//! lanes of one vector: the digits with exactly two such places are keyed by
//! their places, the others by their lane number with the top bit set, and
//! `vpconflictd` names for each lane the earlier lanes with the same key.
//! With AVX2 ([`pass_avx2`]) digits 1-8 are the lanes and digit 9 a scalar
//! beside them, and four rotations of the keys find the equal lanes; with
//! SSE2 ([`pass_sse2`], the x86_64 baseline) two vectors of four. The
//! scalar [`pass`] (other architectures) reads 27 band words a unit: on
//! the AVX2 and SSE2 paths it cost more than the guesses it saved (top1465
//! 10% and 22% slower than with no pass), the vector passes less (9% and 5%
//! faster; `bench -s sudoflow --permute=R`, issue 33, BENCHMARKS.md).
//! Every version strips the same pairs to the same fixed point (the rules only
//! remove candidates, so the fixed point does not depend on their order).

use super::state::{State, LANES};
use crate::grid::UNITS;

/// The fewest unsolved cells, after the root's first propagation, for which
/// the search looks for hidden pairs there (module doc).
pub(super) const MIN_OPEN: u32 = 50;

/// `UNIT_WORDS[k]`: unit `k` of [`crate::grid::UNITS`] (rows, columns,
/// boxes) as three band words, bit `9r + c` of word `b` for the cell in band
/// row `r` of band `b`, column `c`.
const UNIT_WORDS: [[u32; 3]; 27] = {
    let mut u = [[0u32; 3]; 27];
    let mut k = 0;
    while k < 27 {
        let mut i = 0;
        while i < 9 {
            let cell = UNITS[k][i] as usize;
            u[k][cell / 27] |= 1 << (cell % 27);
            i += 1;
        }
        k += 1;
    }
    u
};

/// The unsolved cells of the state (its open cells).
#[inline(always)]
pub(super) fn open_cells(st: &State) -> u32 {
    (0..3).map(|b| st.unsolved(b).count_ones()).sum()
}

/// The unsolved cells of each band that are not bivalue: a hidden pair
/// strips something iff one of its cells is among them.
#[inline(always)]
fn wide_cells(st: &State) -> [u32; 3] {
    [0, 1, 2].map(|b| st.unsolved(b) & !st.pairs(b))
}

/// Removes every digit but `d` and `e` from `cells` (three band words);
/// true if it removed a candidate. (The pass reports only real removals:
/// a pair found but already stripped, as the bivalue lane may be stale,
/// must not make the search repeat the pass for ever.)
#[inline(always)]
fn strip(st: &mut State, d: usize, e: usize, cells: [u32; 3]) -> bool {
    let mut removed = false;
    for f in 0..9 {
        if f != d && f != e {
            for (b, &w) in cells.iter().enumerate() {
                if st.cands[(LANES * b + f) & 63] & w != 0 {
                    st.remove(f, b, w);
                    removed = true;
                }
            }
        }
    }
    removed
}

/// One pass over the 27 units of a state at a fixed point of basic
/// propagation: strips every hidden pair with a cell that is neither solved
/// nor bivalue; true if it stripped one (the changed masks are dirty, so
/// basic propagation runs next).
#[inline(always)]
pub(super) fn pass(st: &mut State) -> bool {
    let wide = wide_cells(st);
    let mut stripped = false;
    for unit in &UNIT_WORDS {
        // Digits with exactly two places in the unit, one of them wide.
        let places = std::array::from_fn::<_, 9, _>(|d| {
            [0, 1, 2].map(|b| st.cands[(LANES * b + d) & 63] & unit[b])
        });
        let mut two = 0u16;
        for (d, p) in places.iter().enumerate() {
            let n: u32 = p.iter().map(|w| w.count_ones()).sum();
            if n == 2 && (0..3).any(|b| p[b] & wide[b] != 0) {
                two |= 1 << d;
            }
        }
        let mut t = two;
        while t != 0 {
            let d = t.trailing_zeros() as usize;
            t &= t - 1;
            let mut rest = t;
            while rest != 0 {
                let e = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if places[d] == places[e] {
                    stripped |= strip(st, d, e, places[d]);
                }
            }
        }
    }
    stripped
}

/// Rows and boxes of a band as band words (the same in every band): band 0's
/// rows and boxes in [`UNIT_WORDS`], bits `9r..9r + 9` for band row `r`, and
/// columns `3k..3k + 3` of each band row for box `k`.
const BAND_UNITS: [u32; 6] = {
    let u = UNIT_WORDS;
    [u[0][0], u[1][0], u[2][0], u[18][0], u[19][0], u[20][0]]
};

/// Column 0 in a band word (bits 0, 9, 18; [`UNIT_WORDS`]); column `c` is
/// this shifted up `c`.
const COLUMN: u32 = UNIT_WORDS[9][0];

/// Key of lanes that hold no pair: the lane (digit) number with the top bit
/// set, which no set of places has.
const NO_PAIR: u32 = 1 << 31;

/// Digit 9's key in a unit where its places are `x9` and the wide cells
/// `wide` (same packing): the places if they are two, one of them wide;
/// else [`NO_PAIR`] with its digit number.
#[inline(always)]
fn key9(x9: u32, wide: u32) -> u32 {
    let y = x9 & x9.wrapping_sub(1);
    if y != 0 && y & (y - 1) == 0 && x9 & wide != 0 {
        x9
    } else {
        NO_PAIR | 8
    }
}

/// The unit loop of the vector passes: for each row and box of each band,
/// then each column, `find(band, w, wide)` gives the unit's nine digit keys
/// (places, or [`NO_PAIR`] with the digit: see [`pass_avx2`]) when two are
/// equal, from the state the pass began with; `band` is the unit's band
/// (`w` a band word) or `None` for a column (`w` a column word, [`COLUMN`],
/// and the keys and `wide` packed with band `b`'s bits shifted up `b`).
/// Each two digits with equal keys are stripped as found now.
#[inline(always)]
fn strip_units(
    st: &mut State,
    mut find: impl FnMut(Option<usize>, u32, u32) -> Option<[u32; 9]>,
) -> bool {
    let wide = wide_cells(st);
    let mut stripped = false;
    let mut strip_equal =
        |st: &mut State, key: [u32; 9], cells: &dyn Fn(&State, usize) -> [u32; 3]| {
            for d in 0..9 {
                for e in d + 1..9 {
                    if key[d] == key[e] && key[d] & NO_PAIR == 0 {
                        let places = cells(st, e);
                        stripped |= strip(st, d, e, places);
                    }
                }
            }
        };
    for (b, &wide_b) in wide.iter().enumerate() {
        for w in BAND_UNITS {
            if let Some(key) = find(Some(b), w, wide_b) {
                strip_equal(st, key, &|s: &State, e: usize| {
                    let mut cells = [0; 3];
                    cells[b] = s.cands[(LANES * b + e) & 63] & w;
                    cells
                });
            }
        }
    }
    for c in 0..9 {
        let w = COLUMN << c;
        let packed = (wide[0] & w) | (wide[1] & w) << 1 | (wide[2] & w) << 2;
        if let Some(key) = find(None, w, packed) {
            strip_equal(st, key, &|s: &State, e: usize| {
                [0, 1, 2].map(|b| s.cands[(LANES * b + e) & 63] & w)
            });
        }
    }
    stripped
}

/// [`pass`] with the detection in AVX-512 (module doc): the same pairs
/// stripped, so the same fixed point.
///
/// A band's nine digits are the lanes of one vector; per unit, the lanes
/// whose places are two, one of them wide, are keyed by the places, the
/// others as [`NO_PAIR`], and `vpconflictd` finds equal keys.
///
/// # Safety
/// The CPU must have AVX-512 F, VL, BW, DQ and CD.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,avx2,avx512f,avx512vl,avx512bw,avx512dq,avx512cd")]
pub(super) unsafe fn pass_avx512(st: &mut State) -> bool {
    use std::arch::x86_64::*;
    // Lanes 0..9 of a band: its nine digits.
    const DIGITS: __mmask16 = 0x1ff;
    // SAFETY: `cands` has 64 lanes, so the 16 from `LANES * b` (b < 3) are in
    // bounds; unaligned loads need no alignment.
    let lanes = |b: usize| unsafe {
        _mm512_maskz_loadu_epi32(DIGITS, st.cands.as_ptr().add(LANES * b) as *const i32)
    };
    let cand = [lanes(0), lanes(1), lanes(2)];
    let unique = _mm512_or_si512(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
        _mm512_set1_epi32(NO_PAIR as i32),
    );
    let one = _mm512_set1_epi32(1);
    strip_units(st, |band, w, wide| {
        let unit = _mm512_set1_epi32(w as i32);
        let x = match band {
            Some(b) => _mm512_and_si512(cand[b], unit),
            None => _mm512_or_si512(
                _mm512_or_si512(
                    _mm512_and_si512(cand[0], unit),
                    _mm512_slli_epi32::<1>(_mm512_and_si512(cand[1], unit)),
                ),
                _mm512_slli_epi32::<2>(_mm512_and_si512(cand[2], unit)),
            ),
        };
        let y = _mm512_and_si512(x, _mm512_sub_epi32(x, one));
        let z = _mm512_and_si512(y, _mm512_sub_epi32(y, one));
        let two = _mm512_test_epi32_mask(y, y)
            & _mm512_test_epi32_mask(x, _mm512_set1_epi32(wide as i32))
            & !_mm512_test_epi32_mask(z, z);
        let k = _mm512_mask_blend_epi32(two, unique, x);
        let conflicts = _mm512_conflict_epi32(k);
        if _mm512_mask_test_epi32_mask(two, conflicts, conflicts) == 0 {
            return None;
        }
        let mut key = [0u32; 16];
        // SAFETY: 16 lanes into 16 words.
        unsafe { _mm512_storeu_si512(key.as_mut_ptr() as *mut _, k) };
        Some(std::array::from_fn(|d| key[d]))
    })
}

/// [`pass`] with the detection in AVX2 (module doc): the same pairs
/// stripped, so the same fixed point.
///
/// A band's digits 1-8 are the eight lanes of one vector, digit 9 a scalar
/// beside it ([`key9`]). For each unit, the lanes whose places are exactly
/// two, one of them wide, are keyed by those places and the others as
/// [`NO_PAIR`]; four rotations of the keys and a compare each find every
/// two equal lanes. Only a unit where two digits share their places (rare)
/// is read again lane by lane.
///
/// # Safety
/// The CPU must have AVX2, BMI1 and POPCNT.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,avx2")]
pub(super) unsafe fn pass_avx2(st: &mut State) -> bool {
    use std::arch::x86_64::*;
    // SAFETY: `cands` has 64 lanes, so the 8 from `LANES * b` (b < 3) are in
    // bounds; unaligned loads need no alignment.
    let lanes = |b: usize| unsafe {
        _mm256_loadu_si256(st.cands.as_ptr().add(LANES * b) as *const __m256i)
    };
    let cand = [lanes(0), lanes(1), lanes(2)];
    let nine = [0, 1, 2].map(|b| st.cands[(LANES * b + 8) & 63]);
    let unique = _mm256_or_si256(
        _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
        _mm256_set1_epi32(NO_PAIR as i32),
    );
    let rotations = [
        _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0),
        _mm256_setr_epi32(2, 3, 4, 5, 6, 7, 0, 1),
        _mm256_setr_epi32(3, 4, 5, 6, 7, 0, 1, 2),
        _mm256_setr_epi32(4, 5, 6, 7, 0, 1, 2, 3),
    ];
    let one = _mm256_set1_epi32(1);
    let zero = _mm256_setzero_si256();
    strip_units(st, |band, w, wide| {
        let unit = _mm256_set1_epi32(w as i32);
        let (x, x9) = match band {
            Some(b) => (_mm256_and_si256(cand[b], unit), nine[b] & w),
            None => (
                _mm256_or_si256(
                    _mm256_or_si256(
                        _mm256_and_si256(cand[0], unit),
                        _mm256_slli_epi32::<1>(_mm256_and_si256(cand[1], unit)),
                    ),
                    _mm256_slli_epi32::<2>(_mm256_and_si256(cand[2], unit)),
                ),
                (nine[0] & w) | (nine[1] & w) << 1 | (nine[2] & w) << 2,
            ),
        };
        let y = _mm256_and_si256(x, _mm256_sub_epi32(x, one));
        let z = _mm256_and_si256(y, _mm256_sub_epi32(y, one));
        let narrow = _mm256_cmpeq_epi32(_mm256_and_si256(x, _mm256_set1_epi32(wide as i32)), zero);
        let two = _mm256_andnot_si256(
            _mm256_or_si256(_mm256_cmpeq_epi32(y, zero), narrow),
            _mm256_cmpeq_epi32(z, zero),
        );
        let k = _mm256_blendv_epi8(unique, x, two);
        let k9 = key9(x9, wide);
        let mut equal = _mm256_cmpeq_epi32(k, _mm256_set1_epi32(k9 as i32));
        for r in rotations {
            equal = _mm256_or_si256(
                equal,
                _mm256_cmpeq_epi32(k, _mm256_permutevar8x32_epi32(k, r)),
            );
        }
        if _mm256_testz_si256(equal, equal) != 0 {
            return None;
        }
        let mut key = [k9; 9];
        // SAFETY: 8 lanes into the first 8 words.
        unsafe { _mm256_storeu_si256(key.as_mut_ptr() as *mut __m256i, k) };
        Some(key)
    })
}

/// [`pass`] with the detection in SSE2, the x86_64 baseline: [`pass_avx2`]
/// with digits 1-4 and 5-8 in two vectors, whose equal lanes two rotations
/// of each and four of one against the other find. The same pairs stripped,
/// so the same fixed point.
#[cfg(target_arch = "x86_64")]
pub(super) fn pass_sse2(st: &mut State) -> bool {
    use std::arch::x86_64::*;
    // SAFETY (the intrinsics): SSE2 is part of x86_64. The loads: `cands`
    // has 64 lanes, so the 8 from `LANES * b` (b < 3) are in bounds;
    // unaligned loads need no alignment.
    unsafe {
        let lanes = |i: usize| _mm_loadu_si128(st.cands.as_ptr().add(i) as *const __m128i);
        let cand = [0, 1, 2].map(|b| [lanes(LANES * b), lanes(LANES * b + 4)]);
        let nine = [0, 1, 2].map(|b| st.cands[(LANES * b + 8) & 63]);
        let unique = [_mm_setr_epi32(0, 1, 2, 3), _mm_setr_epi32(4, 5, 6, 7)]
            .map(|u| _mm_or_si128(u, _mm_set1_epi32(NO_PAIR as i32)));
        let one = _mm_set1_epi32(1);
        let zero = _mm_setzero_si128();
        strip_units(st, |band, w, wide| {
            let unit = _mm_set1_epi32(w as i32);
            let widev = _mm_set1_epi32(wide as i32);
            let (x9, k) = match band {
                Some(b) => (nine[b] & w, [0, 1].map(|h| _mm_and_si128(cand[b][h], unit))),
                None => (
                    (nine[0] & w) | (nine[1] & w) << 1 | (nine[2] & w) << 2,
                    [0, 1].map(|h| {
                        _mm_or_si128(
                            _mm_or_si128(
                                _mm_and_si128(cand[0][h], unit),
                                _mm_slli_epi32::<1>(_mm_and_si128(cand[1][h], unit)),
                            ),
                            _mm_slli_epi32::<2>(_mm_and_si128(cand[2][h], unit)),
                        )
                    }),
                ),
            };
            let k = [0, 1].map(|h| {
                let x = k[h];
                let y = _mm_and_si128(x, _mm_sub_epi32(x, one));
                let z = _mm_and_si128(y, _mm_sub_epi32(y, one));
                let narrow = _mm_cmpeq_epi32(_mm_and_si128(x, widev), zero);
                let two = _mm_andnot_si128(
                    _mm_or_si128(_mm_cmpeq_epi32(y, zero), narrow),
                    _mm_cmpeq_epi32(z, zero),
                );
                _mm_or_si128(_mm_and_si128(two, x), _mm_andnot_si128(two, unique[h]))
            });
            let k9 = key9(x9, wide);
            let nine_key = _mm_set1_epi32(k9 as i32);
            let [a, b] = k;
            let equal = [
                _mm_cmpeq_epi32(a, nine_key),
                _mm_cmpeq_epi32(b, nine_key),
                _mm_cmpeq_epi32(a, _mm_shuffle_epi32::<0x39>(a)),
                _mm_cmpeq_epi32(a, _mm_shuffle_epi32::<0x4e>(a)),
                _mm_cmpeq_epi32(b, _mm_shuffle_epi32::<0x39>(b)),
                _mm_cmpeq_epi32(b, _mm_shuffle_epi32::<0x4e>(b)),
                _mm_cmpeq_epi32(a, b),
                _mm_cmpeq_epi32(a, _mm_shuffle_epi32::<0x39>(b)),
                _mm_cmpeq_epi32(a, _mm_shuffle_epi32::<0x4e>(b)),
                _mm_cmpeq_epi32(a, _mm_shuffle_epi32::<0x93>(b)),
            ]
            .into_iter()
            .fold(zero, |acc, e| _mm_or_si128(acc, e));
            if _mm_movemask_epi8(equal) == 0 {
                return None;
            }
            let mut key = [k9; 9];
            _mm_storeu_si128(key.as_mut_ptr() as *mut __m128i, a);
            _mm_storeu_si128(key.as_mut_ptr().add(4) as *mut __m128i, b);
            Some(key)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::solver::{SolveOptions, Solver};
    use rand::{Rng, SeedableRng};

    /// Per-cell candidate masks (bit `d` = digit `d + 1`) of a state.
    fn cell_masks(st: &State) -> [u16; 81] {
        std::array::from_fn(|c| {
            (0..9)
                .filter(|&d| st.cands[LANES * (c / 27) + d] >> (c % 27) & 1 == 1)
                .fold(0, |m, d| m | 1 << d)
        })
    }

    /// Whether a hidden pair of `cands` (per-cell masks, bit `d` = digit
    /// `d + 1`) strips a candidate, by the diagnosis's rule over 81 per-cell
    /// masks (the definition, with no given to protect).
    fn strippable(cands: &[u16; 81]) -> bool {
        let mut shifted = cands.map(|m| m << 1);
        crate::solver::diagnose::hidden_pairs(&mut shifted, &[0; 81])
    }

    /// Random puzzles cut from random grids: `givens` cells kept.
    fn puzzles(seed: u64, n: usize, givens: std::ops::Range<usize>) -> Vec<(Grid, Grid)> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut solver = Solver::new(SolveOptions::default());
        (0..n)
            .map(|_| {
                let grid = solver
                    .solve_random(&Grid::EMPTY, &mut rng)
                    .solution
                    .unwrap();
                let keep = rng.gen_range(givens.clone());
                let mut cells: Vec<usize> = (0..81).collect();
                for i in 0..keep {
                    let j = rng.gen_range(i..81);
                    cells.swap(i, j);
                }
                let mut puzzle = Grid::EMPTY;
                for &c in &cells[..keep] {
                    puzzle.set(c, grid.get(c));
                }
                (puzzle, grid)
            })
            .collect()
    }

    /// Runs `pass` and basic propagation to their fixed point; the number of
    /// passes that stripped, or None at a dead end.
    fn settle(st: &mut State, pass: &mut dyn FnMut(&mut State) -> bool) -> Option<usize> {
        let mut strips = 0;
        while pass(st) {
            strips += 1;
            st.propagate().ok()?;
        }
        Some(strips)
    }

    /// At the fixed point no hidden pair strips anything (checked by the
    /// definition), no digit of the puzzle's solution was removed, and the
    /// AVX-512 pass (where the CPU has it) reaches the same candidates.
    #[test]
    fn strips_every_hidden_pair_and_keeps_the_solution() {
        let mut stripped = 0;
        for (puzzle, solution) in puzzles(33, 1500, 20..30) {
            let mut st = State::from_grid(&puzzle);
            if st.propagate().is_err() {
                panic!(
                    "a puzzle cut from a grid has a solution: {}",
                    puzzle.to_line()
                );
            }
            let before = cell_masks(&st);
            let mut scalar = st;
            let strips = settle(&mut scalar, &mut pass).expect("the solution survives");
            let after = cell_masks(&scalar);
            assert!(!strippable(&after), "{}", puzzle.to_line());
            for c in 0..81 {
                let digit = 1 << (solution.get(c) - 1);
                assert!(
                    after[c] & digit != 0,
                    "{} lost its solution at cell {c}",
                    puzzle.to_line()
                );
                assert_eq!(after[c] & !before[c], 0, "candidates only leave");
            }
            if strips > 0 {
                assert!(strippable(&before));
                stripped += 1;
            }
            #[cfg(target_arch = "x86_64")]
            {
                let mut vector = st;
                settle(&mut vector, &mut pass_sse2).unwrap();
                assert_eq!(cell_masks(&vector), after, "{}", puzzle.to_line());
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2")
                && std::is_x86_feature_detected!("bmi1")
                && std::is_x86_feature_detected!("popcnt")
            {
                let mut vector = st;
                // SAFETY: the CPU has the features, checked above.
                settle(&mut vector, &mut |s| unsafe { pass_avx2(s) }).unwrap();
                assert_eq!(cell_masks(&vector), after, "{}", puzzle.to_line());
            }
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512bw")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512cd")
            {
                let mut vector = st;
                // SAFETY: the CPU has the features, checked above.
                settle(&mut vector, &mut |s| unsafe { pass_avx512(s) }).unwrap();
                assert_eq!(cell_masks(&vector), after, "{}", puzzle.to_line());
            }
        }
        // Enough puzzles where pairs strip something for the test to bite.
        assert!(stripped > 100, "{stripped} puzzles stripped");
    }

    /// A pair of digits whose places in a row are two cells, one of them
    /// with a third digit: the third digit leaves that cell, and nothing
    /// else changes.
    #[test]
    fn strips_the_other_digits_from_a_pair_s_cells() {
        let mut st = State::from_grid(&Grid::EMPTY);
        // Row 0: digits 1 and 2 only at columns 0 and 1; column 0 also
        // holds 3. Remove 1 and 2 from columns 2..9 of row 0.
        for d in 0..2 {
            st.remove(d, 0, 0x1fc);
        }
        for c in 0..2 {
            for d in 3..9 {
                st.remove(d, 0, 1 << c);
            }
        }
        st.remove(2, 0, 1 << 1);
        let before = cell_masks(&st);
        assert_eq!((before[0], before[1]), (0b111, 0b011));
        let mut scalar = st;
        assert!(pass(&mut scalar));
        let after = cell_masks(&scalar);
        assert_eq!(after[0], 0b011);
        for c in 1..81 {
            assert_eq!(after[c], before[c], "cell {c}");
        }
        // Nothing left to strip.
        assert!(!pass(&mut scalar));
    }
}
