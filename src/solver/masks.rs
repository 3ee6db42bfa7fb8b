//! Lookup tables and small mask helpers for the band-digit solver in `state`.
//!
//! A *band mask* is a `u32` holding one bit per cell of a band (three rows):
//! bit `9 * r + c` is band row `r` (0..3), column `c` (0..9). Bits 27..32 are
//! always zero. Grid cell `i` (0..81, row-major) is band `i / 27`, bit `i % 27`.
//!
//! ```text
//!   band mask bit:   c0 c1 c2   c3 c4 c5   c6 c7 c8
//!      band row 0 |   0  1  2 |  3  4  5 |  6  7  8 |
//!      band row 1 |   9 10 11 | 12 13 14 | 15 16 17 |
//!      band row 2 |  18 19 20 | 21 22 23 | 24 25 26 |
//!                    box 0      box 1      box 2      (boxes within the band)
//! ```
//!
//! A *row-by-box pattern* is a 9-bit value with bit `3 * r + k` set when the
//! minirow where band row `r` meets box `k` still holds a candidate.
//! A *column set* is a 9-bit value, bit `c` = column `c`; boxes group it as
//! bits 0-2, 3-5, 6-8.
//!
//! Every table is built by a `const fn` at compile time and rebuilt by a
//! different method in the tests below.

/// All 27 cells of a band.
pub const BAND: u32 = 0o777_777_777;

/// The band mask of band row `r`: cells `9r..9r+9`.
pub const ROW: [u32; 3] = [0o777, 0o777 << 9, 0o777 << 18];

/// Spreads a column set (9 bits) to the band mask of those columns in all
/// three band rows: bit `c` goes to bits `c`, `c + 9`, `c + 18`.
#[inline]
pub const fn spread_cols(cols: u32) -> u32 {
    cols * 0x40201
}

/// The column set of a band mask: bit `c` set iff some band row has bit `c`.
#[inline]
pub const fn fold_cols(band: u32) -> u32 {
    (band | (band >> 9) | (band >> 18)) & 0o777
}

/// The band mask of the rows that hold exactly one bit of `band`, restricted
/// to those bits (the cells a digit occupies in rows where it has one place).
///
/// Per row, `row & (row - 1) == 0` (one bit or none): with BMI1 a `blsr` and
/// a `cmov`, no branch and no table. The search's copies compiled with BMI2
/// and fast `pext` (`State::update` with `PEXT`) use this: its three short
/// chains run beside the other work of the update, where
/// [`single_rows_table`]'s loads sat on the path to the update's one
/// unpredictable branch (whether a row was left with one cell): +3-5% on
/// every public set on the `avx512` path, +1.5-4% on `avx2+pext` (seventh
/// session of issue 15, BENCHMARKS.md). Without BMI1 (`blsr`) the table is
/// as fast or faster (sse2 path -1%, avx2 without `pext` mixed), so those
/// copies keep it. Also the tests' reference for [`single_rows_table`].
#[inline(always)]
pub fn single_rows(band: u32) -> u32 {
    let lone = |row: u32| {
        if row & row.wrapping_sub(1) == 0 {
            row
        } else {
            0
        }
    };
    lone(band & ROW[0]) | lone(band & ROW[1]) | lone(band & ROW[2])
}

/// [`single_rows`] by table, three lookups in [`LONE`]: fewer instructions
/// than the arithmetic version (callgrind, 17-clue: ~11 against ~18
/// instructions per call, one call per mask update), for the copies
/// without BMI.
#[inline]
pub fn single_rows_table(band: u32) -> u32 {
    LONE_ROWS[0][(band & 0o777) as usize]
        | LONE_ROWS[1][((band >> 9) & 0o777) as usize]
        | LONE_ROWS[2][((band >> 18) & 0o777) as usize]
}

/// `LONE_ROWS[r][row]`: [`LONE`] placed at band row `r` (shifted by `9r`),
/// so that [`single_rows_table`] needs no shifts back.
pub static LONE_ROWS: [[u32; 512]; 3] = {
    let mut t = [[0u32; 512]; 3];
    let mut x = 0;
    while x < 512 {
        let mut r = 0;
        while r < 3 {
            t[r][x] = (LONE[x] as u32) << (9 * r);
            r += 1;
        }
        x += 1;
    }
    t
};

/// `LONE[row]`: input the 9 column bits of one band row; output the row
/// itself when it holds exactly one bit, else 0.
pub const LONE: [u16; 512] = build_lone();

const fn build_lone() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut x = 1;
    while x < 512 {
        if x & (x - 1) == 0 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
}

/// Band mask of every band row that holds a bit of `cells`.
///
/// Branch-free: adding `0o777` to a non-empty row carries into the next
/// row's first bit (bit `9r + 9`); those carries `k` give the rows as
/// `k - (k >> 9)` (each carry minus its row's first bit is the row).
#[inline]
pub fn rows_touched(cells: u32) -> u32 {
    let carries = (((cells & ROW[0]) + ROW[0]) & 1 << 9)
        | (((cells & ROW[1]) + ROW[1]) & 1 << 18)
        | (((cells & ROW[2]) + ROW[2]) & 1 << 27);
    carries - (carries >> 9)
}

/// `SHRINK[row]`: input the 9 column bits of one band row; output 3 bits,
/// bit `k` set iff the row has a bit in box `k` (columns `3k..3k+3`).
#[cfg(test)]
pub static SHRINK: [u8; 512] = build_shrink();

#[cfg(test)]
const fn build_shrink() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 7 != 0) as u8)
            | (((x >> 3) & 7 != 0) as u8) << 1
            | (((x >> 6) & 7 != 0) as u8) << 2;
        x += 1;
    }
    t
}

/// The row-by-box pattern (bit `3r + k`) of a band mask (by table; the
/// tests' reference for [`interleaved`]).
#[cfg(test)]
pub fn pattern(band: u32) -> usize {
    SHRINK[(band & 0o777) as usize] as usize
        | (SHRINK[((band >> 9) & 0o777) as usize] as usize) << 3
        | (SHRINK[(band >> 18) as usize] as usize) << 6
}

/// The row-by-box pattern of a band mask in *interleaved* order, without a
/// table: bit `3k + 2r` set when minirow (band row `r`, box `k`) holds a
/// bit. Bits 1 and 9 repeat minirows (1, 2) and (1, 0) and are ignored by
/// [`MINIROWS_IL`].
///
/// ```text
///   y = band | band >> 1 | band >> 2, keeping bits 0o111_111_111:
///       one bit per minirow, at 9r + 3k
///   y | y >> 7 | y >> 14, low 11 bits:
///       row 0 -> bits 0, 3, 6;  row 1 -> 2, 5, 8;  row 2 -> 4, 7, 10
/// ```
/// Ten ALU instructions against three [`SHRINK`]-style lookups with their
/// shifts (16; callgrind, one call per mask update).
#[inline]
pub fn interleaved(band: u32) -> usize {
    let y = (band | band >> 1 | band >> 2) & 0o111_111_111;
    ((y | y >> 7 | y >> 14) & 0x7ff) as usize
}

/// The row-by-box pattern of a band mask in [`MINIROWS`]' own order (bit
/// `3r + k`, as [`pattern`]), read by one `pext` of the minirow bits that
/// [`interleaved`] gathers with shifts: the avx2+pext path's index.
///
/// # Safety
/// The CPU must have BMI2. Inlined into code compiled with it, this is one
/// `pext` (with the three shifts and ORs before it).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn pext_pattern(band: u32) -> usize {
    // SAFETY: the caller guarantees BMI2.
    unsafe { std::arch::x86_64::_pext_u32(band | band >> 1 | band >> 2, 0o111_111_111) as usize }
}

/// `MINIROWS` (below) indexed by the [`interleaved`] pattern (2,048
/// entries; the 512-entry table itself serves the `pext` path, which reads
/// the pattern in its own order).
pub static MINIROWS_IL: [u32; 2048] = build_minirows_il();

const fn build_minirows_il() -> [u32; 2048] {
    let base = build_minirows();
    let mut t = [0u32; 2048];
    let mut q = 0;
    while q < 2048 {
        let mut p = 0;
        let mut r = 0;
        while r < 3 {
            let mut k = 0;
            while k < 3 {
                if q >> (3 * k + 2 * r) & 1 == 1 {
                    p |= 1 << (3 * r + k);
                }
                k += 1;
            }
            r += 1;
        }
        t[q] = base[p];
        q += 1;
    }
    t
}

/// `MINIROWS[p]`: input a row-by-box pattern `p` of one digit in one band;
/// output the band mask of every cell in a minirow `(r, k)` that lies on some
/// permutation within `p` (a choice of one box per band row, each box once,
/// every chosen minirow in `p`), or 0 when `p` holds no permutation.
///
/// The digit sits in exactly one minirow per band row and per box, so ANDing a
/// band mask with this keeps exactly the cells consistent with that: it
/// applies locked candidates inside the band (pointing along a row, claiming
/// from a row) and the band-local hidden singles, and finds the dead ends.
pub static MINIROWS: [u32; 512] = build_minirows();

/// The six permutations of three boxes, as box-of-row triples.
const PERMS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

const fn build_minirows() -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut p = 0;
    while p < 512 {
        let mut keep = 0u32;
        let mut i = 0;
        while i < 6 {
            let perm = PERMS[i];
            let used = (1 << perm[0]) | (1 << (3 + perm[1])) | (1 << (6 + perm[2]));
            if p & used == used {
                let mut r = 0;
                while r < 3 {
                    keep |= 0o7 << (9 * r + 3 * perm[r]);
                    r += 1;
                }
            }
            i += 1;
        }
        t[p] = keep;
        p += 1;
    }
    t
}

/// `ALONE[cols]`: input the column set of one digit in one band; output the
/// columns that are the only column of their box in `cols` (a digit confined
/// to one minicolumn of a box: pointing along that column into the other
/// two bands).
pub const ALONE: [u16; 512] = build_alone();

const fn build_alone() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut out = 0u16;
        let mut k = 0;
        while k < 3 {
            let g = (x >> (3 * k)) & 7;
            if g != 0 && g & (g - 1) == 0 {
                out |= (g << (3 * k)) as u16;
            }
            k += 1;
        }
        t[x] = out;
        x += 1;
    }
    t
}

/// [`ALONE`] spread to band masks (`spread_cols(ALONE[cols])`), so that
/// an update saves the multiply.
pub static ALONE_BAND: [u32; 512] = spread_table(ALONE);

/// [`CLAIM`] spread to band masks (`spread_cols(CLAIM[only])`).
pub static CLAIM_BAND: [u32; 512] = spread_table(CLAIM);

const fn spread_table(cols: [u16; 512]) -> [u32; 512] {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = spread_cols(cols[x] as u32);
        x += 1;
    }
    t
}

/// `CLAIM[only]`: input the columns where a digit can only go in this band
/// (it is absent from them in the other two bands); output the column set the
/// digit may keep in this band: a box holding one such column keeps only that
/// column (locked candidates, claiming from a column), a box holding two or
/// three keeps none (a contradiction the next step detects as an empty box),
/// a box holding none keeps all three.
pub const CLAIM: [u16; 512] = build_claim();

const fn build_claim() -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut x = 0;
    while x < 512 {
        let mut out = 0u16;
        let mut k = 0;
        while k < 3 {
            let g = (x >> (3 * k)) & 7;
            let keep = if g == 0 {
                7
            } else if g & (g - 1) == 0 {
                g
            } else {
                0
            };
            out |= (keep << (3 * k)) as u16;
            k += 1;
        }
        t[x] = out;
        x += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Cells (band row, column) of a band mask, plainly.
    fn cells(band: u32) -> Vec<(usize, usize)> {
        (0..27)
            .filter(|&i| band >> i & 1 == 1)
            .map(|i| (i / 9, i % 9))
            .collect()
    }

    #[test]
    fn shrink_matches_a_per_column_scan() {
        for (x, &got) in SHRINK.iter().enumerate() {
            let mut want = 0u8;
            for c in 0..9 {
                if x >> c & 1 == 1 {
                    want |= 1 << (c / 3);
                }
            }
            assert_eq!(got, want, "row {x:09b}");
        }
    }

    /// Rebuilds MINIROWS by Hall's theorem instead of listing permutations:
    /// minirow (r, k) survives iff it is in `p` and the 2x2 pattern left after
    /// deleting row r and box k has a perfect matching.
    #[test]
    fn minirows_match_a_matching_check() {
        for (p, &got) in MINIROWS.iter().enumerate() {
            let has = |r: usize, k: usize| p >> (3 * r + k) & 1 == 1;
            let mut want = 0u32;
            for r in 0..3 {
                for k in 0..3 {
                    if !has(r, k) {
                        continue;
                    }
                    let rows: Vec<usize> = (0..3).filter(|&x| x != r).collect();
                    let boxes: Vec<usize> = (0..3).filter(|&x| x != k).collect();
                    let ok = (has(rows[0], boxes[0]) && has(rows[1], boxes[1]))
                        || (has(rows[0], boxes[1]) && has(rows[1], boxes[0]));
                    if ok {
                        for c in 3 * k..3 * k + 3 {
                            want |= 1 << (9 * r + c);
                        }
                    }
                }
            }
            assert_eq!(got, want, "pattern {p:09b}");
        }
    }

    #[test]
    fn alone_and_claim_match_per_box_counts() {
        for x in 0..512u32 {
            let (mut alone, mut claim) = (0u16, 0u16);
            for k in 0..3 {
                let cols: Vec<u32> = (3 * k..3 * k + 3).filter(|&c| x >> c & 1 == 1).collect();
                if cols.len() == 1 {
                    alone |= 1 << cols[0];
                    claim |= 1 << cols[0];
                } else if cols.is_empty() {
                    claim |= 0o7 << (3 * k);
                }
            }
            assert_eq!(ALONE[x as usize], alone, "cols {x:09b}");
            assert_eq!(CLAIM[x as usize], claim, "cols {x:09b}");
            assert_eq!(ALONE_BAND[x as usize], spread_cols(alone as u32));
            assert_eq!(CLAIM_BAND[x as usize], spread_cols(claim as u32));
        }
    }

    #[test]
    fn helpers_agree_with_cell_lists() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let seed = rng.next_u64();
            let band = (seed as u32) & BAND;
            let list = cells(band);
            let cols: u32 = list.iter().fold(0, |m, &(_, c)| m | 1 << c);
            assert_eq!(fold_cols(band), cols);
            assert_eq!(fold_cols(spread_cols(cols)), cols);
            let mut rows = 0u32;
            let mut singles = 0u32;
            for r in 0..3 {
                let in_row: Vec<_> = list.iter().filter(|&&(rr, _)| rr == r).collect();
                if !in_row.is_empty() {
                    rows |= 0o777 << (9 * r);
                }
                if in_row.len() == 1 {
                    singles |= 1 << (9 * r + in_row[0].1);
                }
            }
            assert_eq!(rows_touched(band), rows);
            assert_eq!(single_rows(band), singles);
            assert_eq!(single_rows_table(band), singles);
            let mut p = 0;
            for &(r, c) in &list {
                p |= 1 << (3 * r + c / 3);
            }
            assert_eq!(pattern(band), p);
            assert_eq!(MINIROWS_IL[interleaved(band)], MINIROWS[p]);
            // The avx2+pext path's index (`State::update`) is the same
            // pattern, read by one pext.
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: the CPU has BMI2, checked just above.
                assert_eq!(unsafe { pext_pattern(band) }, p);
            }
        }
    }
}
