//! Canonical forms: the minlex representative of a puzzle's equivalence
//! class, and its automorphism count.
//!
//! Two puzzles are *equivalent* when a transformation of the group of
//! [`group`] (digit relabelling x transposition x rows permuted within bands
//! x bands permuted x the same for columns; 9! x 3,359,232 elements) maps one
//! to the other. The *minlex* form of a puzzle is the lexicographically
//! smallest 81-character string, blank = `0` (so blanks come first), among
//! all puzzles equivalent to it; equivalent puzzles have the same form and
//! inequivalent ones different forms. An *automorphism* is a transformation
//! mapping the puzzle to itself; they form a subgroup, so their number
//! divides the group's order. The form is defined on the puzzle itself: no
//! solving, so it exists for any 81 cells (clashing givens, several or no
//! solutions), and for a complete grid it is the minlex grid.
//!
//! # Method
//!
//! For a fixed position map the smallest relabelling numbers the digits in
//! order of first appearance, so the form is the minimum over the 3,359,232
//! position maps of that relabelled string. [`Canonicalizer`] finds it the
//! way the fast grid canonicalisers do, row by row with pruning, instead of
//! trying every map ([`group::brute_force`] does, for the tests):
//!
//! 1. *Rows.* Result row 0 can be any of the 9 rows of the puzzle or of its
//!    transpose (18 starts); rows 1 and 2 come from the same band, row 3 from
//!    another band, and so on. Level `k` extends every surviving partial
//!    transformation (a *node*) by every allowed source row and keeps only
//!    the extensions whose row `k` is the smallest seen at that level: the
//!    lexicographic order is decided by the first row that differs, so a
//!    prefix that is not minimal can never become so.
//! 2. *Columns, left open.* A node does not fix the column permutation: a
//!    stack, or a column, that is blank in every row chosen so far can go in
//!    any of the places still open to it without changing the prefix, so it
//!    stays *free*. Blanks sort first, so free stacks and free columns always
//!    sit at the start of the row and of their stack; a new row splits them
//!    into those blank in it (still free, still first) and the others, which
//!    are placed smallest value first. A sparse puzzle's first rows are
//!    mostly blank, so this keeps the nodes few where trying column
//!    permutations would start 1,296 per row.
//! 3. *Labels and pruning.* A value is 0 for a blank, the digit's label if
//!    it has one, else the next label; every new digit thus gets the same
//!    value, and the search branches only on such ties. Each value is
//!    compared with the best row of the level as soon as it is written, and
//!    a branch stops at the first value above it.
//!
//! 4. *Complete grids.* Every column order ties on a complete first row
//!    (it always reads 123456789), so a valid complete grid starts with one
//!    loop over the 18 starts x 1,296 column orders x 2 possible second
//!    rows, and only the orders giving the smallest second row become
//!    nodes. A row whose columns are all placed is written in a plain loop.
//!
//! 5. *Memory.* A level keeps at most [`NODE_CAP`] nodes: a puzzle whose
//!    rows tie that often (81 equal digits tie on all 3,359,232 position
//!    maps) finishes depth first from the last level that fit, with the
//!    same comparisons against a best form kept whole, so the result is the
//!    same and memory stays a few MB.
//!
//! After the ninth row every node gives the form. The automorphism count is
//! the number of position maps the nodes stand for (each free group of `n`
//! columns or stacks counts `n!` arrangements, a free stack's columns 3!
//! more) times the relabellings of the digits the puzzle does not use
//! ((9 - distinct)!), because the maps reaching the form are one coset of
//! the automorphism group.
//!
//! Puzzles given by their candidates (729-character pencilmark lines) have
//! their own form, of the same group: [`PencilmarkCanonicalizer`].
//!
//! Speed: BENCHMARKS.md, "Canonical forms" (against the `sudoku` crate's
//! `canonicalized`, which solves the puzzle and canonicalises its solution
//! grid).

pub mod group;
mod minlex;
mod pencilmark;

pub use minlex::{Canonical, Canonicalizer, NODE_CAP};
pub use pencilmark::{canonical_pencilmarks, PencilmarkCanonical, PencilmarkCanonicalizer};

/// The 128-bit digest (XXH3-128) of a form's line as `canon` writes it
/// (81 characters `0`-`9`, or a pencilmark form's 729): what [`Classes`]
/// keys classes by.
pub fn line_digest(line: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(line)
}

use crate::grid::Grid;

/// The minlex form and automorphism count of `puzzle`; a shortcut for
/// one-off calls ([`Canonicalizer`] reuses its buffers).
///
/// ```
/// use sudoflow::canon::canonical;
/// use sudoflow::grid::Grid;
///
/// let p = Grid::parse(
///     "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
/// )?;
/// let c = canonical(&p);
/// assert_eq!(c.to_line().len(), 81);
/// assert!(c.to_line().starts_with("000000")); // blanks come first
/// assert_eq!(canonical(&c.grid()), c); // the form is its own form
/// # Ok::<(), sudoflow::grid::ParseError>(())
/// ```
pub fn canonical(puzzle: &Grid) -> Canonical {
    Canonicalizer::new().canonicalize(puzzle)
}

/// The classes met so far in a run, each under its form's 128-bit digest
/// ([`Canonical::digest`]) with the index of its first record: what
/// `canon`'s `class_index` and `--distinct` and `generate --distinct` keep.
///
/// Memory grows with the number of distinct classes only (not with the
/// records read): one 24-byte entry (digest and index) and one control byte
/// per slot of a hash table at most 7/8 full that doubles when it fills:
/// 29 to 57 bytes per class, and while the table doubles the old one is
/// still there, up to 86 bytes per class at that moment. Measured
/// (BENCHMARKS.md): 1,000,000 distinct classes, 87 MB maximum resident set
/// for the whole `canon --distinct` process.
#[derive(Debug, Default)]
pub struct Classes {
    first: std::collections::HashMap<[u64; 2], u64>,
}

impl Classes {
    /// An empty set.
    pub fn new() -> Classes {
        Classes::default()
    }

    /// The index of the first record whose form has this digest: `index`
    /// itself (now recorded) if none came before.
    pub fn first_of(&mut self, digest: u128, index: u64) -> u64 {
        let key = [digest as u64, (digest >> 64) as u64];
        *self.first.entry(key).or_insert(index)
    }

    /// Records `index` under this digest if no lower index is recorded
    /// there (records met out of order, [`SharedClasses`]); returns the
    /// lowest index recorded now.
    pub fn claim(&mut self, digest: u128, index: u64) -> u64 {
        let key = [digest as u64, (digest >> 64) as u64];
        let first = self.first.entry(key).or_insert(index);
        *first = (*first).min(index);
        *first
    }

    /// The index recorded under this digest, if any.
    pub fn get(&self, digest: u128) -> Option<u64> {
        self.first
            .get(&[digest as u64, (digest >> 64) as u64])
            .copied()
    }

    /// True when a form with this digest was recorded.
    pub fn contains(&self, digest: u128) -> bool {
        self.first
            .contains_key(&[digest as u64, (digest >> 64) as u64])
    }

    /// Number of distinct classes recorded.
    pub fn len(&self) -> usize {
        self.first.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty()
    }
}

/// [`Classes`] that the workers of a run share: each class under the
/// lowest record index that claimed it so far ([`SharedClasses::claim`]),
/// for `solve`, `rate` and `count --distinct`, whose workers meet records
/// out of order. Once every record below `i` has claimed its class (the
/// pipeline emits record `i` only then), whether `i` is its class's first
/// record is settled: [`SharedClasses::first`] tells.
///
/// Sharded by the digest's low bits, each shard under its own lock, so
/// that workers seldom wait on one another; memory as [`Classes`].
#[derive(Debug)]
pub struct SharedClasses {
    shards: Vec<std::sync::Mutex<Classes>>,
}

/// Shards of a [`SharedClasses`] (a power of two).
const SHARDS: usize = 64;

impl Default for SharedClasses {
    fn default() -> Self {
        SharedClasses {
            shards: (0..SHARDS).map(|_| Default::default()).collect(),
        }
    }
}

impl SharedClasses {
    /// An empty set.
    pub fn new() -> SharedClasses {
        SharedClasses::default()
    }

    fn shard(&self, digest: u128) -> std::sync::MutexGuard<'_, Classes> {
        self.shards[digest as usize & (SHARDS - 1)]
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Record `index` claims the class with this digest: true when no
    /// lower index has claimed it (so far), false when one has (the record
    /// is a repeat, whatever comes later).
    pub fn claim(&self, digest: u128, index: u64) -> bool {
        self.shard(digest).claim(digest, index) == index
    }

    /// The lowest index that claimed this class, if any.
    pub fn first(&self, digest: u128) -> Option<u64> {
        self.shard(digest).get(digest)
    }

    /// Number of classes claimed.
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                s.lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .len()
            })
            .sum()
    }

    /// True when nothing was claimed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_lowest_claim_wins_whatever_the_order() {
        let classes = SharedClasses::new();
        assert!(classes.claim(7, 5));
        assert!(!classes.claim(7, 9), "a later record is a repeat");
        assert!(classes.claim(7, 3), "an earlier record met late wins");
        assert!(!classes.claim(7, 5), "and the one before is a repeat now");
        assert_eq!(classes.first(7), Some(3));
        assert!(classes.claim(1 << 64 | 7, 4), "another class");
        assert_eq!((classes.first(8), classes.len()), (None, 2));
    }
    use proptest::strategy::ValueTree;
    use rand::SeedableRng;

    /// A valid complete grid (the solution of the README's puzzle 2).
    const GRID: &str =
        "812753649943682175675491283154237896369845721287169534521974368438526917796318452";

    /// A grid with the most automorphisms there are, 648 (Russell and
    /// Jarvis 2006, "Mathematics of Sudoku II"): each band's boxes cycle
    /// the same three minirows, each band's minirows are cycled.
    const SYMMETRIC: &str =
        "123456789456789123789123456231564897564897231897231564312645978645978312978312645";

    /// A pattern grid (each row a shift of the first) with fewer: 54.
    const SHIFTED: &str =
        "123456789456789123789123456234567891567891234891234567345678912678912345912345678";

    fn grid(s: &str) -> Grid {
        Grid::parse(s).unwrap()
    }

    /// Puzzles: random subsets of a complete grid's cells, with a density
    /// drawn first so that sparse, medium and dense puzzles all come up.
    fn puzzles() -> impl Strategy<Value = Grid> {
        (0u32..100, any::<u64>()).prop_map(|(density, seed)| {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let full = grid(GRID);
            let mut cells = [0u8; 81];
            for (c, v) in cells.iter_mut().enumerate() {
                if rand::Rng::gen_range(&mut rng, 0..100) < density {
                    *v = full.get(c);
                }
            }
            Grid::from_cells(cells).unwrap()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// A random element of the group changes nothing: same form, same
        /// automorphism count.
        #[test]
        fn transformed_puzzles_have_the_same_form(p in puzzles(), seed in any::<u64>()) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let t = group::random(&mut rng);
            let mut c = Canonicalizer::new();
            let a = c.canonicalize(&p);
            let b = c.canonicalize(&t.apply(&p));
            prop_assert_eq!(a, b);
        }

        /// Complete grids (their own first step, `grid_rows_0_1`): a random
        /// transformation keeps form and count, and the form is a fixed
        /// point starting 123456789.
        #[test]
        fn transformed_grids_have_the_same_form(which in 0usize..3, seed in any::<u64>()) {
            let g = grid([GRID, SYMMETRIC, SHIFTED][which]);
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let t = group::random(&mut rng);
            let a = canonical(&g);
            prop_assert_eq!(canonical(&t.apply(&g)), a);
            prop_assert_eq!(canonical(&a.grid()), a);
            prop_assert_eq!(&a.cells[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }

        /// The form is a fixed point, is equivalent to the puzzle (same
        /// givens, same digit counts up to relabelling), is no greater than
        /// the puzzle relabelled, and its count divides the group's order.
        #[test]
        fn the_form_is_a_fixed_point_and_a_divisor(p in puzzles()) {
            let a = canonical(&p);
            prop_assert_eq!(canonical(&a.grid()), a);
            prop_assert_eq!(a.grid().clues(), p.clues());
            prop_assert!(a.automorphisms >= 1);
            prop_assert_eq!(group::GROUP_ORDER % a.automorphisms, 0);
            let counts = |g: &Grid| {
                let mut n = [0usize; 10];
                g.cells().iter().for_each(|&v| n[usize::from(v)] += 1);
                n[1..].sort_unstable();
                n
            };
            prop_assert_eq!(counts(&a.grid()), counts(&p));
            // No greater than the identity map with its best relabelling.
            let mut label = [0u8; 10];
            let mut next = 1;
            let relabelled: Vec<u8> = p.cells().iter().map(|&d| {
                if d != 0 && label[usize::from(d)] == 0 {
                    label[usize::from(d)] = next;
                    next += 1;
                }
                label[usize::from(d)]
            }).collect();
            prop_assert!(a.cells[..] <= relabelled[..]);
        }
    }

    /// Fast and brute force agree on form and count, on puzzles with known
    /// symmetry and on random ones (a few: the brute force walks all
    /// 3,359,232 position maps).
    #[test]
    fn search_agrees_with_brute_force() {
        let mut cases = vec![
            grid(SYMMETRIC),
            grid(GRID),
            Grid::EMPTY,
            // One given: every map keeping r1c1's row, column and box.
            grid(&format!("5{}", ".".repeat(80))),
            // A 17-clue puzzle (the README's).
            grid(
                ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            ),
        ];
        // A clash (two 5s in row 1) and a puzzle with a rotational pattern.
        cases.push(grid(&format!("5....5...{}", ".".repeat(72))));
        let mut sym = grid(SYMMETRIC);
        for c in 0..81 {
            if (c * 7) % 5 != 0 {
                sym.set(c, 0);
            }
        }
        cases.push(sym);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for _ in 0..3 {
            let p = puzzles().new_tree(&mut runner).unwrap().current();
            cases.push(group::random(&mut rng).apply(&p));
        }
        for p in cases {
            let (cells, count) = group::brute_force(&p);
            let fast = canonical(&p);
            assert_eq!(fast.cells, cells, "form of {p}");
            assert_eq!(fast.automorphisms, count, "automorphisms of {p}");
        }
    }

    /// Past the node cap the search goes depth first: forced at every
    /// level (caps 1, 7, 200), it gives what breadth first gives, on sparse
    /// and dense puzzles, grids and the most symmetric inputs.
    #[test]
    fn depth_first_agrees_with_breadth_first() {
        let mut cases = vec![
            grid(SYMMETRIC),
            grid(SHIFTED),
            grid(GRID),
            Grid::EMPTY,
            grid(&format!("5{}", ".".repeat(80))),
            grid(
                ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            ),
            grid(&"1".repeat(81)),
        ];
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        for _ in 0..12 {
            cases.push(puzzles().new_tree(&mut runner).unwrap().current());
        }
        let mut bfs = Canonicalizer::new();
        for cap in [1, 7, 200] {
            let mut dfs = Canonicalizer::with_cap(cap);
            for p in &cases {
                assert_eq!(dfs.canonicalize(p), bfs.canonicalize(p), "cap {cap}: {p}");
            }
        }
    }

    /// 81 equal digits: every position map fixes it, with the relabellings
    /// of the eight digits it does not use (breadth first this kept all
    /// 3,359,232 maps as nodes, 320 MB; now the node cap bounds it).
    #[test]
    fn equal_digits_have_every_position_map() {
        let c = canonical(&grid(&"7".repeat(81)));
        assert_eq!(c.cells, [1; 81]);
        assert_eq!(c.automorphisms, group::POSITION_MAPS * group::factorial(8));
    }

    #[test]
    fn known_counts() {
        // The empty grid: every element of the group.
        assert_eq!(canonical(&Grid::EMPTY).automorphisms, group::GROUP_ORDER);
        assert_eq!(canonical(&Grid::EMPTY).cells, [0; 81]);
        // The most symmetric grids: 648 maps, each with its own relabelling.
        assert_eq!(canonical(&grid(SYMMETRIC)).automorphisms, 648);
        assert_eq!(canonical(&grid(SHIFTED)).automorphisms, 54);
        // A grid's form starts with 123456789 (its first row relabelled).
        assert!(canonical(&grid(GRID)).to_line().starts_with("123456789"));
    }

    /// Puzzles from different classes differ, and the same class gives one
    /// form: two givens in every relation (same or different digit; same
    /// row, box, band or nothing), classes told apart by brute force.
    #[test]
    fn inequivalent_puzzles_have_different_forms() {
        let mut brute_classes = std::collections::HashMap::new();
        let mut forms = std::collections::HashSet::new();
        for (a, b, d) in [
            (0, 1, 2),  // same row, same box
            (0, 9, 2),  // same column, same box: the transpose of the above
            (0, 1, 1),  // the same with one digit (a clash)
            (0, 10, 2), // same box only
            (0, 10, 1),
            (0, 4, 2),  // same row, another box
            (0, 36, 2), // same column, another box: the transpose
            (0, 4, 1),
            (0, 40, 2), // nothing shared
            (0, 80, 2), // nothing shared either
            (0, 40, 1),
            (4, 36, 1), // nothing shared, the same digit
        ] {
            let mut g = Grid::EMPTY;
            g.set(a, 1);
            g.set(b, d);
            let (brute, _) = group::brute_force(&g);
            let fast = canonical(&g).cells;
            // One form per brute-force class, and a different one per class.
            assert_eq!(*brute_classes.entry(brute).or_insert(fast), fast, "{g}");
            forms.insert(fast);
        }
        assert_eq!(brute_classes.len(), 8);
        assert_eq!(forms.len(), 8);
    }
}
