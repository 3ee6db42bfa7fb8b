//! The number of complete grids with boxes of R rows x C columns (grid side
//! N = R·C), by the column-set ("gangster") method.
//!
//! # Method
//!
//! Sources: B. Felgenhauer and F. Jarvis, *Enumerating possible Sudoku grids*
//! (2005) and *Mathematics of Sudoku I* (2006), retold in SEEDS.md section 5;
//! the column-set method ("gang of 44", dukuso and others, Enjoy Sudoku forum,
//! "Su-Doku's maths" thread), ALGORITHMS.md section 5, Algorithm A.
//!
//! Transposing a grid turns boxes of R x C into boxes of C x R, so both shapes
//! have the same count; the method works on the orientation with at least as
//! many rows per box as columns (`2x4` is counted as `4x2`), which has the
//! fewest bands. In that orientation there are C bands of R rows and R stacks
//! of C columns.
//!
//! 1. **Column sets.** Rows and boxes lie inside one band, so bands interact only
//!    through columns: a band's *column-set vector* gives, for every column,
//!    the set of R digits in that column's minicolumn. A grid is a choice of one
//!    band per band position whose column sets partition the N digits in every
//!    column. So `total = Σ Π_i N_b(X_i)` over column-set vectors `X_1..X_C`
//!    that partition every column, where `N_b(X)` is the number of bands with
//!    column-set vector `X`.
//! 2. **Keys.** Digit d of a band sits in one column of each stack: the tuple
//!    `(j_0, .., j_{R-1})`, `j_s` in `0..C`. The multiset of the N tuples
//!    determines `X` up to relabelling the digits, and relabelling changes
//!    neither `N_b` nor the number of completions, so it is the memo key. It
//!    is packed into a `u128` as a count per tuple (see `Layout`). All keys are
//!    enumerated (each stack column must hold exactly R digits); a key stands
//!    for `N! / Π m_t!` column-set vectors (`m_t` = digits with tuple `t`).
//! 3. **N_b.** For a key, the rows of each minicolumn's R digits are a
//!    bijection onto the band's R rows, and each digit's rows across the R
//!    stacks must be a permutation (it appears once per row). A depth-first
//!    search assigns the minicolumns of stacks `0..R-1`; the last stack is
//!    forced (each digit has one row left) and only checked. Permuting the
//!    band's rows maps bands with column sets `X` onto each other, so the first
//!    minicolumn is fixed and the count multiplied by `R!`.
//! 4. **Classes.** Permuting the stacks and the columns inside a stack changes
//!    neither `N_b` nor the completions, so keys fall into classes (44 for
//!    9x9, the "gang of 44"); the completions of bands `2..C` are computed once
//!    per class: `F(X_1) = Σ_{X_2} N_b(X_2) · F'(..)`, enumerating per stack
//!    every way to give each digit one of its still-free columns with R
//!    digits per column (56 per stack for 9x9), the last band being forced.
//! 5. **Total** `= Σ_class W_class · F(class)`, with `W_class` = the number of
//!    bands whose column sets are in the class `= Σ_key N!/Π m_t! · N_b(key)`.
//!
//! For small shapes (private module `top_band`) the top band is also
//! enumerated directly: completions of the canonical first box (2,612,736 for
//! 9x9), the lexicographically reduced ones (36,288), their classes under
//! stack/column permutations (2,051) and with row permutations added (416),
//! and the column-set classes they fall in (44); the class weights of step 5
//! are checked against these counts.

// Index loops mirror the notation (digit d, stack s, row i) of the method.
#![allow(clippy::needless_range_loop)]

pub(crate) use super::shape::factorial;
use super::shape::{BandMemo, Bands, Layout, UnionFind};
pub use super::shape::{BoxShape, CountGridsError, TopBandFigures, MAX_SIDE};
use super::top_band;
use rayon::prelude::*;
use std::collections::HashMap;

/// The figures of one [`count_grids`] run: the intermediate counts of the
/// method and the total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCount {
    /// The shape asked for.
    pub shape: BoxShape,
    /// The orientation the method used (rows >= cols; the transpose of
    /// `shape` when `shape.cols > shape.rows`).
    pub counted_as: BoxShape,
    /// Column-set keys (column-set vectors of one band up to relabelling the
    /// digits) that satisfy the column counts.
    pub keys: usize,
    /// Of those, the keys with at least one band.
    pub keys_with_bands: usize,
    /// Number of distinct bands (R x N, rows and boxes valid): `N!` times
    /// [`GridCount::top_band_completions`].
    pub bands: u128,
    /// Bands whose first box is the canonical `1..N` in row-major order.
    pub top_band_completions: u128,
    /// Column-set classes of bands under stack and column permutations (44
    /// for 9x9): the number of completion sums computed.
    pub column_set_classes: usize,
    /// Smallest and largest number of ways to complete the other bands for
    /// one top band, over the classes.
    pub completions_range: (u128, u128),
    /// `L_h`: column permutations inside the stacks other than the first,
    /// times permutations of those stacks (72 for 9x9).
    pub lex_factor_top: u128,
    /// `L_v`: the same for rows and bands in the first stack (72 for 9x9).
    pub lex_factor_side: u128,
    /// The direct top-band enumeration, when the shape is small enough.
    pub top_band: Option<TopBandFigures>,
    /// `total / (N! · L_h · L_v)` (3,546,146,300,288 for 9x9); the group of
    /// relabellings and those permutations acts freely, so it divides.
    pub reduced_total: u128,
    /// Number of complete grids.
    pub total: u128,
}

/// Every key whose tuples put exactly R digits in each column of each stack:
/// a depth-first search over non-decreasing tuples with per-(stack, column)
/// counters.
fn enumerate_keys(lay: &Layout) -> Vec<u128> {
    fn rec(
        lay: &Layout,
        start: usize,
        placed: usize,
        key: u128,
        marg: &mut [[u8; MAX_SIDE]; MAX_SIDE],
        out: &mut Vec<u128>,
    ) {
        if placed == lay.n {
            out.push(key);
            return;
        }
        for cell in start..lay.cells {
            let cols = &lay.cell_cols[cell];
            if (0..lay.r).all(|s| (marg[s][cols[s] as usize] as usize) < lay.r) {
                for s in 0..lay.r {
                    marg[s][cols[s] as usize] += 1;
                }
                rec(
                    lay,
                    cell,
                    placed + 1,
                    key + (1u128 << (lay.bits as usize * cell)),
                    marg,
                    out,
                );
                for s in 0..lay.r {
                    marg[s][cols[s] as usize] -= 1;
                }
            }
        }
    }
    let mut out = Vec::new();
    rec(lay, 0, 0, 0, &mut [[0; MAX_SIDE]; MAX_SIDE], &mut out);
    out
}

/// `N_b(key)`: the number of bands whose column-set vector is the key's
/// representative (step 3 of the module doc).
fn band_count(lay: &Layout, key: u128) -> u128 {
    let cols = lay.representative(key);
    // mini[s * C + j] = the R digits of stack s, column j.
    let mut mini = [[0u8; MAX_SIDE]; MAX_SIDE];
    let mut fill = [0usize; MAX_SIDE];
    for s in 0..lay.r {
        for d in 0..lay.n {
            let m = s * lay.c + cols[s][d] as usize;
            mini[m][fill[m]] = d as u8;
            fill[m] += 1;
        }
    }
    let mut search = BandSearch {
        r: lay.r,
        c: lay.c,
        full: ((1u32 << lay.r) - 1) as u16,
        mini,
        used: [0; MAX_SIDE],
    };
    if lay.r == 1 {
        // One row, one stack: the band is the row, fixed by its column sets.
        return 1;
    }
    // Fix the first minicolumn: digit i on row i (times R! row orders).
    for i in 0..lay.r {
        search.used[mini[0][i] as usize] = 1 << i;
    }
    search.dfs(1, 0, 0) as u128 * factorial(lay.r)
}

/// Depth-first search state of [`band_count`]; row masks are bit `i` = row `i`
/// of the band (0-based).
struct BandSearch {
    r: usize,
    c: usize,
    full: u16,
    mini: [[u8; MAX_SIDE]; MAX_SIDE],
    /// `used[d]`: rows digit d already occupies (one per stack done).
    used: [u16; MAX_SIDE],
}

impl BandSearch {
    /// Counts assignments of minicolumn `m` from its `i`-th digit on, rows in
    /// `taken` being already used by that minicolumn.
    fn dfs(&mut self, m: usize, i: usize, taken: u16) -> u64 {
        if m == (self.r - 1) * self.c {
            return self.last_stack_fits() as u64;
        }
        if i == self.r {
            return self.dfs(m + 1, 0, 0);
        }
        let d = self.mini[m][i] as usize;
        let mut free = self.full & !taken & !self.used[d];
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            self.used[d] |= bit;
            total += self.dfs(m, i + 1, taken | bit);
            self.used[d] ^= bit;
        }
        total
    }

    /// In the last stack each digit has one row left; each minicolumn's digits
    /// must then cover all R rows.
    fn last_stack_fits(&self) -> bool {
        let base = (self.r - 1) * self.c;
        (base..base + self.c).all(|m| {
            self.mini[m][..self.r]
                .iter()
                .fold(0u16, |acc, &d| acc | (self.full & !self.used[d as usize]))
                == self.full
        })
    }
}

/// Tuple relabellings that generate the stack/column permutation group:
/// swaps of adjacent stacks and swaps of adjacent columns inside stack 0.
fn class_generators(lay: &Layout) -> Vec<Vec<usize>> {
    let encode = |cols: &[u8; MAX_SIDE]| (0..lay.r).map(|s| cols[s] as usize * lay.pow[s]).sum();
    let mut gens = Vec::new();
    for s in 0..lay.r.saturating_sub(1) {
        gens.push(
            (0..lay.cells)
                .map(|cell| {
                    let mut cols = lay.cell_cols[cell];
                    cols.swap(s, s + 1);
                    encode(&cols)
                })
                .collect(),
        );
    }
    for j in 0..lay.c.saturating_sub(1) as u8 {
        gens.push(
            (0..lay.cells)
                .map(|cell| {
                    let mut cols = lay.cell_cols[cell];
                    cols[0] = match cols[0] {
                        x if x == j => j + 1,
                        x if x == j + 1 => j,
                        x => x,
                    };
                    encode(&cols)
                })
                .collect(),
        );
    }
    gens
}

/// Whether the count of `shape` finishes in seconds: grid side 6 or less
/// (1x6 takes a tenth of a second), or boxes of at least 2x2 up to side 9
/// (2x4, 4x2, 3x3). Measured (BENCHMARKS.md, count-grids): 1x7 did not
/// finish in 5 minutes, 2x5 not in 90 s.
pub fn finishes(shape: BoxShape) -> bool {
    let side = shape.side();
    side <= 6 || (shape.rows >= 2 && shape.cols >= 2 && side <= 9)
}

/// Counts the complete grids of `shape` (see the module doc for the method),
/// using the current rayon thread pool (wrap the call in
/// `ThreadPool::install` to choose the number of threads).
///
/// Practical limits (AMD Zen 3, one core): 2x2, 2x3 and 3x2 take
/// milliseconds, 3x3 about a second, 2x4 and 4x2 seconds, 1x6 a tenth of
/// a second; the work grows so fast past them (1x7 did not finish in 5
/// minutes, 2x5 in 90 s) that other shapes are refused ([`finishes`]).
///
/// Errors: [`CountGridsError::Unsupported`] for grid sides above
/// [`MAX_SIDE`], keys above 128 bits (e.g. 3x4, 4x4), or a shape whose
/// count would not finish (e.g. 1x9, 2x5),
/// [`CountGridsError::Overflow`] if the total exceeds `u128`,
/// [`CountGridsError::Check`] if the top-band enumeration disagrees with the
/// column-set weights (a bug).
pub fn count_grids(shape: BoxShape) -> Result<GridCount, CountGridsError> {
    let lay = Layout::new(shape)?;
    if !finishes(shape) {
        return Err(CountGridsError::Unsupported {
            shape,
            reason: "the count would not finish (the work grows too fast past 2x4 and 3x3): \
                     the shapes counted are those of grid side 6 or less, 2x4, 4x2 and 3x3"
                .to_string(),
        });
    }
    let overflow = || CountGridsError::Overflow(shape);
    let all_keys = enumerate_keys(&lay);
    let counted: Vec<(u128, u128)> = all_keys
        .par_iter()
        .map(|&k| (k, band_count(&lay, k)))
        .filter(|&(_, nb)| nb > 0)
        .collect();
    let mut keys: Vec<u128> = counted.iter().map(|&(k, _)| k).collect();
    keys.sort_unstable();
    let nb: BandMemo = counted.into_iter().collect();

    // Classes under stack/column permutations.
    let index: HashMap<u128, usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut uf = UnionFind::new(keys.len());
    for gen in class_generators(&lay) {
        for (i, &k) in keys.iter().enumerate() {
            if let Some(&j) = index.get(&lay.map_key(k, &gen)) {
                uf.union(i, j);
            }
        }
    }
    let mut root_class = HashMap::new();
    let class_of: Vec<usize> = (0..keys.len())
        .map(|i| {
            let root = uf.find(i);
            let next = root_class.len();
            *root_class.entry(root).or_insert(next)
        })
        .collect();
    let classes = root_class.len();
    let bands_info = Bands {
        lay: lay.clone(),
        nb,
        keys,
        class_of,
        classes,
    };

    // Class weights W = Σ multiplicity · N_b, and one representative each.
    let mut weight = vec![0u128; classes];
    let mut rep = vec![None; classes];
    let mut bands = 0u128;
    for (i, &k) in bands_info.keys.iter().enumerate() {
        let w = lay
            .multiplicity(k)
            .checked_mul(bands_info.nb[&k])
            .ok_or_else(overflow)?;
        let cl = bands_info.class_of[i];
        weight[cl] = weight[cl].checked_add(w).ok_or_else(overflow)?;
        bands = bands.checked_add(w).ok_or_else(overflow)?;
        rep[cl].get_or_insert(k);
    }
    let n_fact = factorial(lay.n);
    let lex_top = factorial(lay.c).pow(lay.r as u32 - 1) * factorial(lay.r - 1);
    let lex_side = factorial(lay.r).pow(lay.c as u32 - 1) * factorial(lay.c - 1);

    // The top band enumerated directly, checked against the class weights.
    let top = top_band::analyse(&bands_info, bands / n_fact);
    if let Some((figures, per_class)) = &top {
        for (cl, &w) in weight.iter().enumerate() {
            let expect = (per_class[cl] as u128)
                .checked_mul(lex_top * n_fact)
                .ok_or_else(overflow)?;
            if expect != w {
                return Err(CountGridsError::Check {
                    shape,
                    what: format!(
                        "column-set class {cl}: {} reduced top bands x {lex_top} x {}! \
                         = {expect}, but the class weight is {w}",
                        per_class[cl], lay.n
                    ),
                });
            }
        }
        debug_assert_eq!(figures.column_set_classes, classes);
    }

    // Completions of bands 2..C, once per class, split over stack 0's choices.
    let reps: Vec<[[u8; MAX_SIDE]; MAX_SIDE]> = rep
        .iter()
        .map(|k| lay.representative(k.expect("every class has a key")))
        .collect();
    let completions = per_class_completions(&bands_info, &reps).ok_or_else(overflow)?;
    let mut total = 0u128;
    for (w, f) in weight.iter().zip(&completions) {
        total = w
            .checked_mul(*f)
            .and_then(|x| x.checked_add(total))
            .ok_or_else(overflow)?;
    }
    let range = (
        completions.iter().copied().min().unwrap_or(0),
        completions.iter().copied().max().unwrap_or(0),
    );
    let divisor = n_fact * lex_top * lex_side;
    if !total.is_multiple_of(divisor) {
        return Err(CountGridsError::Check {
            shape,
            what: format!("the total {total} is not a multiple of N! L_h L_v = {divisor}"),
        });
    }
    Ok(GridCount {
        shape,
        counted_as: lay.shape(),
        keys: all_keys.len(),
        keys_with_bands: bands_info.keys.len(),
        bands,
        top_band_completions: bands / n_fact,
        column_set_classes: classes,
        completions_range: range,
        lex_factor_top: lex_top,
        lex_factor_side: lex_side,
        top_band: top.map(|(f, _)| f),
        reduced_total: total / divisor,
        total,
    })
}

/// `F(X)` for each class representative `X` (given as `cols[s][d]`): the
/// number of ways to fill bands `2..C` whose column sets complete `X`.
/// `None` on overflow.
fn per_class_completions(bands: &Bands, reps: &[[[u8; MAX_SIDE]; MAX_SIDE]]) -> Option<Vec<u128>> {
    let lay = &bands.lay;
    let full_cols = ((1u32 << lay.c) - 1) as u16;
    // allowed[s][d]: columns of stack s still free for digit d.
    let allowed: Vec<[[u16; MAX_SIDE]; MAX_SIDE]> = reps
        .iter()
        .map(|cols| {
            let mut a = [[0u16; MAX_SIDE]; MAX_SIDE];
            for s in 0..lay.r {
                for d in 0..lay.n {
                    a[s][d] = full_cols & !(1 << cols[s][d]);
                }
            }
            a
        })
        .collect();
    let bands_left = lay.c - 1;
    if bands_left < 2 {
        return allowed
            .iter()
            .map(|a| Some(completions(bands, a, bands_left)))
            .collect();
    }
    // Split the outermost loop (stack 0's choices) over the thread pool.
    let tasks: Vec<(usize, [u8; MAX_SIDE])> = allowed
        .iter()
        .enumerate()
        .flat_map(|(cl, a)| {
            stack_choices(lay, &a[0])
                .into_iter()
                .map(move |ch| (cl, ch))
        })
        .collect();
    let partial: Vec<(usize, Option<u128>)> = tasks
        .par_iter()
        .map(|(cl, first)| {
            let a = &allowed[*cl];
            if bands_left == 2 {
                let lists: Vec<Vec<PairChoice>> =
                    (0..lay.r).map(|s| pair_choices(lay, &a[s], s)).collect();
                let first = pair_choice(lay, &a[0], 0, first);
                return (*cl, pair_sum(bands, &lists, 1, &first.a, &first.b));
            }
            let lists: Vec<Vec<[u8; MAX_SIDE]>> =
                (1..lay.r).map(|s| stack_choices(lay, &a[s])).collect();
            let mut chosen = [[0u8; MAX_SIDE]; MAX_SIDE];
            chosen[0] = *first;
            (*cl, product(bands, a, bands_left, &lists, 1, &mut chosen))
        })
        .collect();
    let mut out = vec![0u128; reps.len()];
    for (cl, f) in partial {
        out[cl] = out[cl].checked_add(f?)?;
    }
    Some(out)
}

/// Every way to give each digit one of its `allowed` columns (bit j = column
/// j of the stack) so that each column gets exactly R digits; entry `[d]` is
/// digit d's column.
fn stack_choices(lay: &Layout, allowed: &[u16; MAX_SIDE]) -> Vec<[u8; MAX_SIDE]> {
    fn rec(
        lay: &Layout,
        allowed: &[u16; MAX_SIDE],
        d: usize,
        fill: &mut [usize; MAX_SIDE],
        cur: &mut [u8; MAX_SIDE],
        out: &mut Vec<[u8; MAX_SIDE]>,
    ) {
        if d == lay.n {
            out.push(*cur);
            return;
        }
        let mut free = allowed[d];
        while free != 0 {
            let j = free.trailing_zeros() as usize;
            free &= free - 1;
            if fill[j] < lay.r {
                fill[j] += 1;
                cur[d] = j as u8;
                rec(lay, allowed, d + 1, fill, cur, out);
                fill[j] -= 1;
            }
        }
    }
    let mut out = Vec::new();
    rec(
        lay,
        allowed,
        0,
        &mut [0; MAX_SIDE],
        &mut [0; MAX_SIDE],
        &mut out,
    );
    out
}

/// One stack's choice when exactly two bands are left: per digit, the tuple
/// offsets `column · C^s` of its column in the next band (`a`) and, forced,
/// in the last band (`b`).
struct PairChoice {
    a: [u8; MAX_SIDE],
    b: [u8; MAX_SIDE],
}

/// The [`PairChoice`] of one [`stack_choices`] entry of stack `s`.
fn pair_choice(
    lay: &Layout,
    allowed: &[u16; MAX_SIDE],
    s: usize,
    cols: &[u8; MAX_SIDE],
) -> PairChoice {
    let mut ch = PairChoice {
        a: [0; MAX_SIDE],
        b: [0; MAX_SIDE],
    };
    for d in 0..lay.n {
        let last = (allowed[d] & !(1 << cols[d])).trailing_zeros() as usize;
        ch.a[d] = (cols[d] as usize * lay.pow[s]) as u8;
        ch.b[d] = (last * lay.pow[s]) as u8;
    }
    ch
}

/// Every [`PairChoice`] of stack `s`.
fn pair_choices(lay: &Layout, allowed: &[u16; MAX_SIDE], s: usize) -> Vec<PairChoice> {
    stack_choices(lay, allowed)
        .iter()
        .map(|cols| pair_choice(lay, allowed, s, cols))
        .collect()
}

/// The two-band case of [`product`] (all of 9x9's work): Σ over the choices
/// of stacks `s..R` of `N_b(A) · N_b(B)`, where `a`/`b` hold each digit's
/// tuple so far in the next band and in the last one. `None` on overflow.
fn pair_sum(
    bands: &Bands,
    lists: &[Vec<PairChoice>],
    s: usize,
    a: &[u8; MAX_SIDE],
    b: &[u8; MAX_SIDE],
) -> Option<u128> {
    let lay = &bands.lay;
    let bits = lay.bits as usize;
    let mut sum = 0u128;
    if s + 1 == lay.r {
        for ch in &lists[s] {
            let mut key_a = 0u128;
            for d in 0..lay.n {
                key_a += 1u128 << (bits * (a[d] + ch.a[d]) as usize);
            }
            let Some(&nb_a) = bands.nb.get(&key_a) else {
                continue;
            };
            let mut key_b = 0u128;
            for d in 0..lay.n {
                key_b += 1u128 << (bits * (b[d] + ch.b[d]) as usize);
            }
            let Some(&nb_b) = bands.nb.get(&key_b) else {
                continue;
            };
            sum = sum.checked_add(nb_a.checked_mul(nb_b)?)?;
        }
        return Some(sum);
    }
    for ch in &lists[s] {
        let (mut a2, mut b2) = (*a, *b);
        for d in 0..lay.n {
            a2[d] += ch.a[d];
            b2[d] += ch.b[d];
        }
        sum = sum.checked_add(pair_sum(bands, lists, s + 1, &a2, &b2)?)?;
    }
    Some(sum)
}

/// Σ over the choices of stacks `s..R` (`lists[s - 1]`), stacks before `s`
/// fixed in `chosen`, of `N_b(next band) · F(rest)`. `None` on overflow.
fn product(
    bands: &Bands,
    allowed: &[[u16; MAX_SIDE]; MAX_SIDE],
    bands_left: usize,
    lists: &[Vec<[u8; MAX_SIDE]>],
    s: usize,
    chosen: &mut [[u8; MAX_SIDE]; MAX_SIDE],
) -> Option<u128> {
    let lay = &bands.lay;
    if s == lay.r {
        let Some(&nb) = bands.nb.get(&lay.key_of(chosen)) else {
            return Some(0);
        };
        let mut rest = *allowed;
        for t in 0..lay.r {
            for d in 0..lay.n {
                rest[t][d] &= !(1 << chosen[t][d]);
            }
        }
        return nb.checked_mul(completions(bands, &rest, bands_left - 1));
    }
    let mut sum = 0u128;
    for ch in &lists[s - 1] {
        chosen[s] = *ch;
        sum = sum.checked_add(product(bands, allowed, bands_left, lists, s + 1, chosen)?)?;
    }
    Some(sum)
}

/// `F`: ways to fill `bands_left` more bands given each digit's free columns
/// per stack. With one band left the columns are forced. Overflow saturates
/// (the callers' checked sums then fail); it cannot occur for shapes that
/// fit the key.
fn completions(bands: &Bands, allowed: &[[u16; MAX_SIDE]; MAX_SIDE], bands_left: usize) -> u128 {
    let lay = &bands.lay;
    match bands_left {
        0 => 1,
        1 => {
            let mut cols = [[0u8; MAX_SIDE]; MAX_SIDE];
            for s in 0..lay.r {
                for d in 0..lay.n {
                    cols[s][d] = allowed[s][d].trailing_zeros() as u8;
                }
            }
            bands.nb.get(&lay.key_of(&cols)).copied().unwrap_or(0)
        }
        _ => {
            let lists: Vec<Vec<[u8; MAX_SIDE]>> = (0..lay.r)
                .map(|s| stack_choices(lay, &allowed[s]))
                .collect();
            let mut chosen = [[0u8; MAX_SIDE]; MAX_SIDE];
            let mut sum = 0u128;
            for first in &lists[0] {
                chosen[0] = *first;
                match product(bands, allowed, bands_left, &lists[1..], 1, &mut chosen)
                    .and_then(|x| x.checked_add(sum))
                {
                    Some(x) => sum = x,
                    None => return u128::MAX,
                }
            }
            sum
        }
    }
}

/// The prime factorisation of `x` by trial division, as `(prime, exponent)`
/// pairs in increasing order; `x = 0` or `1` gives an empty list.
pub fn factorize(mut x: u128) -> Vec<(u128, u32)> {
    let mut out = Vec::new();
    if x < 2 {
        return out;
    }
    let mut p = 2u128;
    while p * p <= x {
        if x.is_multiple_of(p) {
            let mut e = 0;
            while x.is_multiple_of(p) {
                x /= p;
                e += 1;
            }
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if x > 1 {
        out.push((x, 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_parsing() {
        assert_eq!("2x4".parse(), Ok(BoxShape { rows: 2, cols: 4 }));
        assert_eq!("3X3".parse(), Ok(BoxShape::CLASSIC));
        assert!("3".parse::<BoxShape>().is_err());
        assert!("0x3".parse::<BoxShape>().is_err());
        assert!("axb".parse::<BoxShape>().is_err());
    }

    #[test]
    fn keys_round_trip_through_representatives() {
        let lay = Layout::new(BoxShape::CLASSIC).unwrap();
        for &k in enumerate_keys(&lay).iter().take(500) {
            assert_eq!(lay.key_of(&lay.representative(k)), k);
        }
    }

    #[test]
    fn factorization_of_the_reduced_9x9_count() {
        assert_eq!(
            factorize(3_546_146_300_288),
            vec![(2, 7), (27_704_267_971, 1)]
        );
        assert_eq!(factorize(1), vec![]);
        assert_eq!(factorize(97), vec![(97, 1)]);
    }

    #[test]
    fn latin_squares_as_one_column_boxes() {
        // Boxes of 1 x N are rows: the grids are the Latin squares of order N
        // (1, 2, 12, 576 for N = 1..4), counted as one band of N x 1 boxes.
        for (n, squares) in [(1, 1), (2, 2), (3, 12), (4, 576)] {
            let shape = BoxShape { rows: 1, cols: n };
            assert_eq!(count_grids(shape).unwrap().total, squares, "order {n}");
        }
    }
}
