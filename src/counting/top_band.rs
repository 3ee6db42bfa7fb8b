//! The top band enumerated directly (Felgenhauer & Jarvis 2005, SEEDS.md
//! section 5): its completions given the canonical first box, the
//! lexicographic reduction, and its equivalence classes.
//!
//! Band layout (oriented shape, R rows x C columns per box): R rows x N
//! columns, stack `s` = columns `s·C .. s·C + C`; digits are 0-based here
//! (`0..N`). The canonical first box holds `i·C + j` at row `i`, column `j`.
//! A band is encoded in a `u128`, 4 bits per cell, row-major: cell
//! `(i, k)` at bits `4·(i·N + k)` (so only bands with `R·N <= 32` cells).

// Index loops mirror the notation (digit d, stack s, row i) of the method.
#![allow(clippy::needless_range_loop)]

use super::shape::{Bands, TopBandFigures, UnionFind, MAX_SIDE};
use rayon::prelude::*;
use std::collections::HashMap;

/// Largest number of top-band completions enumerated.
const MAX_TOPS: u128 = 30_000_000;

type Band = [[u8; MAX_SIDE]; MAX_SIDE];

struct Geometry {
    r: usize,
    c: usize,
    n: usize,
}

impl Geometry {
    fn encode(&self, g: &Band) -> u128 {
        let mut code = 0u128;
        for i in 0..self.r {
            for k in 0..self.n {
                code |= (g[i][k] as u128) << (4 * (i * self.n + k));
            }
        }
        code
    }

    fn decode(&self, code: u128) -> Band {
        let mut g = [[0u8; MAX_SIDE]; MAX_SIDE];
        for i in 0..self.r {
            for k in 0..self.n {
                g[i][k] = ((code >> (4 * (i * self.n + k))) & 0xF) as u8;
            }
        }
        g
    }

    /// True when the columns of each stack but the first increase along the
    /// top row and those stacks are ordered by their top row's first digit.
    fn is_reduced(&self, g: &Band) -> bool {
        (1..self.r).all(|s| (1..self.c).all(|j| g[0][s * self.c + j - 1] < g[0][s * self.c + j]))
            && (2..self.r).all(|s| g[0][(s - 1) * self.c] < g[0][s * self.c])
    }

    /// Relabels so the first box is canonical, then reduces: sorts the columns
    /// of each later stack by their top digit, then those stacks by their
    /// first top digit. Returns the encoding.
    fn normalise(&self, g: &Band) -> u128 {
        let (r, c, n) = (self.r, self.c, self.n);
        let mut relabel = [0u8; MAX_SIDE];
        for i in 0..r {
            for j in 0..c {
                relabel[g[i][j] as usize] = (i * c + j) as u8;
            }
        }
        let mut cols: Vec<[u8; MAX_SIDE]> = (0..n)
            .map(|k| {
                let mut col = [0u8; MAX_SIDE];
                for i in 0..r {
                    col[i] = relabel[g[i][k] as usize];
                }
                col
            })
            .collect();
        for s in 1..r {
            cols[s * c..s * c + c].sort_unstable_by_key(|col| col[0]);
        }
        let mut stacks: Vec<&[[u8; MAX_SIDE]]> = (1..r).map(|s| &cols[s * c..s * c + c]).collect();
        stacks.sort_unstable_by_key(|st| st[0][0]);
        let mut out = [[0u8; MAX_SIDE]; MAX_SIDE];
        let ordered = cols[..c].iter().chain(stacks.into_iter().flatten());
        for (k, col) in ordered.enumerate() {
            for i in 0..r {
                out[i][k] = col[i];
            }
        }
        self.encode(&out)
    }
}

/// Enumerates the top band when it is small enough (`tops_expected` is the
/// number of completions the column-set method implies, `R·N <= 32`), and
/// returns its figures plus, per column-set class of `bands`, the number of
/// reduced top bands in it. `None` when the band is too large to enumerate.
pub(crate) fn analyse(bands: &Bands, tops_expected: u128) -> Option<(TopBandFigures, Vec<u64>)> {
    let lay = &bands.lay;
    let geo = Geometry {
        r: lay.r,
        c: lay.c,
        n: lay.n,
    };
    if geo.r * geo.n > 32 || tops_expected > MAX_TOPS {
        return None;
    }
    // Canonical first box, then every completion, stack by stack, row by row.
    let mut g: Band = [[0; MAX_SIDE]; MAX_SIDE];
    let mut row_used = [0u16; MAX_SIDE];
    for i in 0..geo.r {
        for j in 0..geo.c {
            g[i][j] = (i * geo.c + j) as u8;
            row_used[i] |= 1 << (i * geo.c + j);
        }
    }
    let free: Vec<(usize, usize)> = (1..geo.r)
        .flat_map(|s| (0..geo.r).flat_map(move |i| (0..geo.c).map(move |j| (i, s * geo.c + j))))
        .collect();
    // The first few free cells are filled here; the thread pool completes
    // each of those prefixes.
    let mut prefixes = Vec::new();
    let depth = free.len().min(PREFIX_CELLS);
    fill_band(
        &geo,
        &free[..depth],
        0,
        &mut g,
        &mut row_used,
        0,
        &mut |g, rows, box_used| prefixes.push((*g, *rows, box_used)),
    );
    let parts: Vec<(u64, Vec<u128>)> = prefixes
        .into_par_iter()
        .map(|(mut g, mut row_used, box_used)| {
            let (mut completions, mut reduced) = (0u64, Vec::new());
            // Count every completion; keep the reduced ones' encodings.
            fill_band(
                &geo,
                &free,
                depth,
                &mut g,
                &mut row_used,
                box_used,
                &mut |g, _, _| {
                    completions += 1;
                    if geo.is_reduced(g) {
                        reduced.push(geo.encode(g));
                    }
                },
            );
            (completions, reduced)
        })
        .collect();
    let completions: u64 = parts.iter().map(|(n, _)| n).sum();
    let mut reduced: Vec<u128> = parts.into_iter().flat_map(|(_, r)| r).collect();
    reduced.sort_unstable();
    let index: HashMap<u128, usize> = reduced.iter().enumerate().map(|(i, &t)| (t, i)).collect();

    // Classes: stack swaps and column swaps in the first stack; then rows.
    let mut uf = UnionFind::new(reduced.len());
    let apply = |uf: &mut UnionFind, op: &(dyn Fn(&Band) -> Band + Sync)| {
        let images: Vec<Option<usize>> = reduced
            .par_iter()
            .map(|&t| index.get(&geo.normalise(&op(&geo.decode(t)))).copied())
            .collect();
        for (i, image) in images.into_iter().enumerate() {
            if let Some(j) = image {
                uf.union(i, j);
            }
        }
    };
    let (r, c) = (geo.r, geo.c);
    for s in 0..r.saturating_sub(1) {
        apply(&mut uf, &|g: &Band| {
            let mut h = *g;
            for i in 0..r {
                for j in 0..c {
                    h[i].swap(s * c + j, (s + 1) * c + j);
                }
            }
            h
        });
    }
    for j in 0..c.saturating_sub(1) {
        apply(&mut uf, &|g: &Band| {
            let mut h = *g;
            for row in h.iter_mut().take(r) {
                row.swap(j, j + 1);
            }
            h
        });
    }
    let classes_stack_column = uf.classes();
    for i in 0..r.saturating_sub(1) {
        apply(&mut uf, &|g: &Band| {
            let mut h = *g;
            h.swap(i, i + 1);
            h
        });
    }
    let classes_with_rows = uf.classes();

    // Column-set class of each reduced top band.
    let mut per_class = vec![0u64; bands.classes];
    for &t in &reduced {
        let g = geo.decode(t);
        let mut cols = [[0u8; MAX_SIDE]; MAX_SIDE];
        for i in 0..r {
            for k in 0..geo.n {
                cols[k / c][g[i][k] as usize] = (k % c) as u8;
            }
        }
        if let Some(cl) = bands.class_of_key(lay.key_of(&cols)) {
            per_class[cl] += 1;
        }
    }
    let column_set_classes = per_class.iter().filter(|&&x| x > 0).count();
    Some((
        TopBandFigures {
            completions,
            reduced: reduced.len() as u64,
            classes_stack_column,
            classes_with_rows,
            column_set_classes,
        },
        per_class,
    ))
}

/// Free cells filled before the work is split over the thread pool (about
/// 100 prefixes for 9x9).
const PREFIX_CELLS: usize = 3;

/// Every way to fill `free[pos..]` with digits not yet in the row or the
/// box: calls `leaf` with each completed band, its row masks and the box mask
/// of the last stack. Used twice: over a few free cells to make the prefixes
/// the thread pool splits, then by each task to complete its prefix.
fn fill_band<L>(
    geo: &Geometry,
    free: &[(usize, usize)],
    pos: usize,
    g: &mut Band,
    row_used: &mut [u16; MAX_SIDE],
    box_used: u16,
    leaf: &mut L,
) where
    L: FnMut(&Band, &[u16; MAX_SIDE], u16),
{
    if pos == free.len() {
        leaf(g, row_used, box_used);
        return;
    }
    let (i, k) = free[pos];
    // A new stack starts with an empty box.
    let box_used = if k % geo.c == 0 && i == 0 {
        0
    } else {
        box_used
    };
    let all = ((1u32 << geo.n) - 1) as u16;
    let mut cand = all & !row_used[i] & !box_used;
    while cand != 0 {
        let bit = cand & cand.wrapping_neg();
        cand ^= bit;
        g[i][k] = bit.trailing_zeros() as u8;
        row_used[i] |= bit;
        fill_band(geo, free, pos + 1, g, row_used, box_used | bit, leaf);
        row_used[i] ^= bit;
    }
}
