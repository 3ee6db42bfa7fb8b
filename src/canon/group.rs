//! The transformation group of Sudoku, as a list one can walk: every one of
//! its 3,359,232 position maps by number, a random element, its order, and
//! the brute-force canonical form and automorphism count that test the fast
//! ones of [`super::Canonicalizer`].
//!
//! An element is a [`Transform`] ([`crate::grid::transform`]): a position map
//! (transpose or not, then rows permuted within bands and bands permuted,
//! columns within stacks and stacks) and a relabelling of the digits. The
//! position maps number 2 x 6^4 x 6^4 = [`POSITION_MAPS`] = 3,359,232, all
//! distinct as permutations of the 81 cells; with the 9! relabellings the
//! group has [`GROUP_ORDER`] = 1,218,998,108,160 elements.

use crate::grid::transform::Transform;
use crate::grid::Grid;

/// Number of position maps: 2 (transpose or not) x 6^4 (bands, and rows in
/// each band) x 6^4 (stacks, and columns in each stack).
pub const POSITION_MAPS: u64 = 3_359_232;

/// Number of relabellings of the digits 1..=9: 9!.
pub const RELABELLINGS: u64 = 362_880;

/// Order of the whole group: [`POSITION_MAPS`] x [`RELABELLINGS`] =
/// 1,218,998,108,160.
pub const GROUP_ORDER: u64 = POSITION_MAPS * RELABELLINGS;

/// The six permutations of 0..3, in lexicographic order.
pub const PERMS3: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Position map number `index` (0..[`POSITION_MAPS`]) with the identity
/// relabelling. Every number gives a different map; 0 is the identity.
///
/// The number's mixed-radix digits, least significant first: the column
/// order in each of the three stacks (base 6 each), the stack order (6), the
/// row order in each band (6 each), the band order (6), transposition (2).
///
/// Panics if `index >= POSITION_MAPS`.
pub fn position_map(index: u64) -> Transform {
    assert!(index < POSITION_MAPS, "position map {index} out of range");
    let mut n = index;
    let mut take6 = || {
        let d = (n % 6) as usize;
        n /= 6;
        PERMS3[d]
    };
    let col_orders = [take6(), take6(), take6()];
    let stack_order = take6();
    let row_orders = [take6(), take6(), take6()];
    let band_order = take6();
    let transpose = n == 1;
    Transform::new(
        transpose,
        band_order,
        row_orders,
        stack_order,
        col_orders,
        [1, 2, 3, 4, 5, 6, 7, 8, 9],
    )
}

/// A uniformly random element of the group (position map and relabelling).
pub fn random(rng: &mut impl rand::Rng) -> Transform {
    use rand::seq::SliceRandom;
    let mut t = position_map(rng.gen_range(0..POSITION_MAPS));
    let mut labels = [1u8, 2, 3, 4, 5, 6, 7, 8, 9];
    labels.shuffle(rng);
    t.digits[1..].copy_from_slice(&labels);
    t
}

/// `n!` for `n` in 0..=9.
pub const fn factorial(n: u32) -> u64 {
    let mut f = 1u64;
    let mut k = 2u64;
    while k <= n as u64 {
        f *= k;
        k += 1;
    }
    f
}

/// The minlex form and automorphism count by brute force: every position map
/// in turn, each with the relabelling that numbers digits in order of first
/// appearance (the smallest string that position map can give), keeping the
/// smallest string and counting the maps that reach it.
///
/// Returns the canonical cells (row-major, 0 blank) and the number of group
/// elements mapping `puzzle` to itself: the maps reaching the minimum times
/// the relabellings of the digits absent from `puzzle` ((9 - distinct)!).
/// About 3.4 million maps x 81 cells: a fraction of a second optimised; for
/// tests on a few puzzles only.
pub fn brute_force(puzzle: &Grid) -> ([u8; 81], u64) {
    let src = puzzle.cells();
    // The 1,296 orders of 9 lines keeping the three blocks of three
    // together (the same numbering as in `position_map`).
    let orders: Vec<[u8; 9]> = (0..1296)
        .map(|mut n: usize| {
            let mut take6 = || {
                let d = n % 6;
                n /= 6;
                PERMS3[d]
            };
            let within = [take6(), take6(), take6()];
            let blocks = take6();
            std::array::from_fn(|k| 3 * blocks[k / 3] + within[k / 3][k % 3])
        })
        .collect();
    let mut best = [u8::MAX; 81];
    let mut count = 0u64;
    let mut cells = [0u8; 81];
    for transpose in [false, true] {
        let at = |r: u8, c: u8| {
            let (r, c) = (usize::from(r), usize::from(c));
            if transpose {
                src[9 * c + r]
            } else {
                src[9 * r + c]
            }
        };
        for rows in &orders {
            for cols in &orders {
                let mut label = [0u8; 10];
                let mut next = 1;
                // Build and compare at once, stopping at the first cell
                // above `best`.
                let mut order = std::cmp::Ordering::Equal;
                for cell in 0..81 {
                    let d = usize::from(at(rows[cell / 9], cols[cell % 9]));
                    let v = if d == 0 {
                        0
                    } else {
                        if label[d] == 0 {
                            label[d] = next;
                            next += 1;
                        }
                        label[d]
                    };
                    cells[cell] = v;
                    if order == std::cmp::Ordering::Equal {
                        order = v.cmp(&best[cell]);
                        if order == std::cmp::Ordering::Greater {
                            break;
                        }
                    }
                }
                match order {
                    std::cmp::Ordering::Less => {
                        best = cells;
                        count = 1;
                    }
                    std::cmp::Ordering::Equal => count += 1,
                    std::cmp::Ordering::Greater => {}
                }
            }
        }
    }
    let distinct = (1..=9u8).filter(|d| src.contains(d)).count() as u32;
    (best, count * factorial(9 - distinct))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_maps_are_distinct_permutations_of_the_cells() {
        // A sample of numbers, spread over the range: distinct cell maps.
        let mut seen = std::collections::HashSet::new();
        for i in (0..POSITION_MAPS).step_by(997).chain([POSITION_MAPS - 1]) {
            let t = position_map(i);
            let map: Vec<usize> = (0..81).map(|c| t.source_cell(c)).collect();
            let mut sorted = map.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..81).collect::<Vec<_>>(), "map {i}");
            assert!(seen.insert(map), "map {i} repeats an earlier one");
        }
        assert_eq!(position_map(0), Transform::IDENTITY);
        assert!(position_map(POSITION_MAPS - 1).transpose);
        assert!(!position_map(POSITION_MAPS / 2 - 1).transpose);
    }

    /// The brute force walks the same maps as `position_map`: its count
    /// for the empty grid is all of them, and a one-given puzzle's form
    /// puts the given last.
    #[test]
    fn brute_force_walks_every_map() {
        assert_eq!(brute_force(&Grid::EMPTY), ([0; 81], GROUP_ORDER));
        let mut g = Grid::EMPTY;
        g.set(40, 7);
        let (cells, count) = brute_force(&g);
        assert_eq!(cells[80], 1);
        assert_eq!(cells.iter().filter(|&&v| v != 0).count(), 1);
        // The maps sending r5c5 to r9c9, counted over `position_map`,
        // times the 8! relabellings of the digits not used.
        let to_last = (0..POSITION_MAPS)
            .filter(|&i| position_map(i).source_cell(80) == 40)
            .count() as u64;
        assert_eq!(count, to_last * factorial(8));
    }

    #[test]
    fn group_order_and_factorials() {
        assert_eq!(GROUP_ORDER, 1_218_998_108_160);
        assert_eq!(factorial(0), 1);
        assert_eq!(factorial(9), RELABELLINGS);
    }
}
