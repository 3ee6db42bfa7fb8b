//! Why a puzzle has no solution: the cell or unit where propagation from
//! the givens finds the contradiction, for the rows of unsolvable puzzles
//! (`no solution: r4c5 has no candidate left after propagation`).
//!
//! The search (`solver::core`) stops at its first dead end without saying
//! where it was, and keeping track of that would cost every search. So the
//! diagnosis is a separate, plain propagation, run only once a search has
//! reported no solution: per-cell candidate sets (a `u16` each), naked and
//! hidden singles, and locked candidates (a box's digit confined to one row
//! or column, a row's or column's digit confined to one box), to a fixed
//! point, then, where that leaves at least `hidden_pairs::MIN_OPEN` cells
//! open, hidden pairs with them. These are the eliminations the search's
//! root propagation makes (its band masks find the same singles and locked
//! candidates, see `state`'s documentation, and the same hidden pairs, see
//! `hidden_pairs`), and each rule only ever removes candidates, so
//! both reach a contradiction from the same givens or neither does: the
//! diagnosis names one exactly when the search died before its first guess
//! (a property test holds it to that). Which one it names is fixed by its
//! order: after each pass of the rules, the first cell (row-major) left
//! without a candidate, else the first unit (rows, columns, boxes) and
//! digit (1-9) with no place left. The givens keep their digits, so a
//! cell whose last candidate a given takes is named, never the given.
//!
//! A puzzle whose contradiction lies deeper (propagation stalls, and every
//! guess from there fails) gets [`Contradiction::EveryGuess`], with the
//! search's guess count.

use super::Outcome;
use crate::grid::{cell_name, Grid, Pencilmarks, UnitKind, PEERS, UNITS};
use std::fmt;

/// Where a puzzle without a solution fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Contradiction {
    /// Propagation from the givens leaves this cell (0..81) no candidate:
    /// `r4c5 has no candidate left after propagation`.
    NoCandidate {
        /// The cell, row-major.
        cell: usize,
    },
    /// Propagation leaves this digit no place in this unit: `7 has no
    /// place in row 3`.
    NoPlace {
        /// The digit, 1..=9.
        digit: u8,
        /// Row, column or box.
        kind: UnitKind,
        /// The unit's 1-based number (boxes row-major).
        unit: usize,
    },
    /// Propagation finds no contradiction; the search's every branch does,
    /// after this many guesses.
    EveryGuess {
        /// The search's guesses ([`Outcome::guesses`]).
        guesses: u64,
    },
}

impl fmt::Display for Contradiction {
    /// `no solution: ...`, the `error` column of an unsolvable row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Contradiction::NoCandidate { cell } => write!(
                f,
                "no solution: {} has no candidate left after propagation",
                cell_name(cell)
            ),
            Contradiction::NoPlace { digit, kind, unit } => {
                write!(f, "no solution: {digit} has no place in {kind} {unit}")
            }
            Contradiction::EveryGuess { guesses: 0 } => f.write_str(
                "no solution: the search's propagation finds a contradiction before any guess",
            ),
            Contradiction::EveryGuess { guesses } => {
                let s = if guesses == 1 { "" } else { "es" };
                write!(
                    f,
                    "no solution: every guess leads to a contradiction ({guesses} guess{s})"
                )
            }
        }
    }
}

/// All nine digits as a candidate set (bit `d` for digit `d`).
const ALL: u16 = 0x3fe;

/// The contradiction propagation finds from `puzzle`'s givens (and, for a
/// puzzle given by its candidates, within `pencilmarks`), or `None` when it
/// reaches a fixed point without one. See the module documentation.
pub fn root_contradiction(
    puzzle: &Grid,
    pencilmarks: Option<&Pencilmarks>,
) -> Option<Contradiction> {
    let mut cands = [ALL; 81];
    if let Some(pm) = pencilmarks {
        for (c, &m) in cands.iter_mut().zip(pm.masks()) {
            *c &= m;
        }
    }
    for (c, &v) in cands.iter_mut().zip(puzzle.cells()) {
        if v != 0 {
            *c &= 1 << v;
        }
    }
    // The givens keep their digit: a contradiction with a given is named
    // where the given takes a cell's last candidate, not at the given.
    let mut protect = [0u16; 81];
    for (p, &v) in protect.iter_mut().zip(puzzle.cells()) {
        if v != 0 {
            *p = 1 << v;
        }
    }
    // The search looks for hidden pairs once basic propagation stalls with
    // enough cells open (`super::hidden_pairs`); so does the diagnosis.
    let mut pairs = None;
    loop {
        let mut changed = pass(&mut cands, &protect);
        if !changed && contradiction(&cands).is_none() {
            let open = cands.iter().filter(|c| c.count_ones() > 1).count() as u32;
            if *pairs.get_or_insert(open >= super::hidden_pairs::MIN_OPEN) {
                changed = hidden_pairs(&mut cands, &protect);
            }
        }
        if let Some(found) = contradiction(&cands) {
            return Some(found);
        }
        if !changed {
            return None;
        }
    }
}

/// Hidden pairs: two digits with the same two places in a unit leave those
/// cells no other candidate (the givens keep theirs, as in [`pass`]);
/// whether it removed a candidate. (Also the definition the search's
/// hidden pairs are tested against, `super::hidden_pairs`.)
pub(super) fn hidden_pairs(cands: &mut [u16; 81], protect: &[u16; 81]) -> bool {
    let before = *cands;
    for unit in &UNITS {
        let places = |cands: &[u16; 81], d: usize| {
            unit.iter()
                .filter(|&&c| cands[usize::from(c)] >> d & 1 == 1)
                .fold(0u128, |m, &c| m | 1 << c)
        };
        for d in 1..=9 {
            for e in d + 1..=9 {
                let (p, q) = (places(cands, d), places(cands, e));
                if p == q && p.count_ones() == 2 {
                    for &c in unit.iter().filter(|&&c| p >> c & 1 == 1) {
                        let c = usize::from(c);
                        cands[c] &= (1 << d | 1 << e) | protect[c];
                    }
                }
            }
        }
    }
    *cands != before
}

/// Why `puzzle` (given by its candidates when `pencilmarks` is some), which
/// the search found without a solution in `outcome`, has none: the root
/// propagation's contradiction, else [`Contradiction::EveryGuess`].
pub fn why_unsolvable(
    puzzle: &Grid,
    pencilmarks: Option<&Pencilmarks>,
    outcome: &Outcome,
) -> Contradiction {
    root_contradiction(puzzle, pencilmarks).unwrap_or(Contradiction::EveryGuess {
        guesses: outcome.guesses,
    })
}

/// The first contradiction in `cands`: a cell without a candidate, else a
/// unit and digit without a place.
fn contradiction(cands: &[u16; 81]) -> Option<Contradiction> {
    if let Some(cell) = cands.iter().position(|&c| c == 0) {
        return Some(Contradiction::NoCandidate { cell });
    }
    for (u, unit) in UNITS.iter().enumerate() {
        let seen = unit.iter().fold(0, |m, &c| m | cands[usize::from(c)]);
        if seen != ALL {
            let digit = (ALL & !seen).trailing_zeros() as u8;
            let kind = [UnitKind::Row, UnitKind::Column, UnitKind::Box][u / 9];
            return Some(Contradiction::NoPlace {
                digit,
                kind,
                unit: u % 9 + 1,
            });
        }
    }
    None
}

/// One pass of every rule over `cands`, never removing a given's digit
/// (`protect`: its bit for a given, 0 elsewhere; a given conflicting with
/// a derived single empties the other cell); whether it removed a
/// candidate.
fn pass(cands: &mut [u16; 81], protect: &[u16; 81]) -> bool {
    let before = *cands;
    // Naked singles: a cell's one candidate leaves its peers.
    for c in 0..81 {
        let m = cands[c];
        if m.count_ones() == 1 {
            for &p in &PEERS[c] {
                let p = usize::from(p);
                cands[p] &= !m | protect[p];
            }
        }
    }
    // Hidden singles: a digit with one place in a unit takes it.
    for unit in &UNITS {
        for d in 1..=9 {
            let bit = 1u16 << d;
            let mut places = unit.iter().filter(|&&c| cands[usize::from(c)] & bit != 0);
            if let (Some(&only), None) = (places.next(), places.next()) {
                let only = usize::from(only);
                cands[only] &= bit | protect[only];
            }
        }
    }
    // Locked candidates: a unit's digit confined to where it meets another
    // unit leaves the rest of that other unit (boxes against rows and
    // columns, both ways).
    for boxed in &UNITS[18..27] {
        for other in &UNITS[..18] {
            let shared = |c: &u8| other.contains(c);
            if !boxed.iter().any(shared) {
                continue;
            }
            for d in 1..=9 {
                let bit = 1u16 << d;
                let has = |c: &u8| cands[usize::from(*c)] & bit != 0;
                // Pointing: the box's places of d all lie on the line.
                let pointing = boxed.iter().any(has) && boxed.iter().filter(|c| has(c)).all(shared);
                // Claiming: the line's places of d all lie in the box.
                let claiming = other.iter().any(has)
                    && other.iter().filter(|c| has(c)).all(|c| boxed.contains(c));
                if pointing {
                    for &c in other.iter().filter(|c| !boxed.contains(c)) {
                        let c = usize::from(c);
                        cands[c] &= !bit | protect[c];
                    }
                }
                if claiming {
                    for &c in boxed.iter().filter(|c| !other.contains(c)) {
                        let c = usize::from(c);
                        cands[c] &= !bit | protect[c];
                    }
                }
            }
        }
    }
    *cands != before
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{SolveOptions, Solver};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    fn grid(s: &str) -> Grid {
        Grid::parse(s).unwrap()
    }

    #[test]
    fn a_cell_whose_row_column_and_box_take_every_digit_has_none_left() {
        // r1c1 sees 1-4 in its row, 5-7 in its column, 8 and 9 in its box.
        let mut g = Grid::EMPTY;
        for (c, v) in [(1, 1), (2, 8), (3, 2), (4, 3), (5, 4)] {
            g.set(c, v);
        }
        for (c, v) in [(9 * 3, 5), (9 * 4, 6), (9 * 5, 7), (9 + 1, 9)] {
            g.set(c, v);
        }
        assert!(g.check_givens().is_ok());
        assert_eq!(
            root_contradiction(&g, None),
            Some(Contradiction::NoCandidate { cell: 0 })
        );
        assert_eq!(
            Contradiction::NoCandidate { cell: 40 }.to_string(),
            "no solution: r5c5 has no candidate left after propagation"
        );
    }

    #[test]
    fn a_digit_every_cell_of_a_unit_refuses_has_no_place() {
        // Row 1's blanks r1c1-r1c3 cannot take 7: box 1 has it at r2c1.
        let mut g = Grid::EMPTY;
        for (c, v) in [(3, 1), (4, 2), (5, 3), (6, 4), (7, 5), (8, 6), (9, 7)] {
            g.set(c, v);
        }
        assert!(g.check_givens().is_ok());
        let found = root_contradiction(&g, None).expect("a contradiction");
        assert_eq!(
            found,
            Contradiction::NoPlace {
                digit: 7,
                kind: UnitKind::Row,
                unit: 1
            }
        );
        assert_eq!(found.to_string(), "no solution: 7 has no place in row 1");
        let outcome = Solver::new(SolveOptions::default()).solve(&g);
        assert_eq!((outcome.solutions, outcome.guesses), (0, 0));
    }

    #[test]
    fn a_cell_losing_its_last_candidate_to_a_given_is_named_not_the_given() {
        // Row 1 holds 1-8 and r2c9 is 9: r1c9 is left 9, which box 3's
        // given takes.
        let g = grid(&format!("12345678.........9{}", ".".repeat(63)));
        assert!(g.check_givens().is_ok());
        assert_eq!(
            root_contradiction(&g, None),
            Some(Contradiction::NoCandidate { cell: 8 })
        );
    }

    #[test]
    fn a_deeper_contradiction_names_the_guesses() {
        let e = Contradiction::EveryGuess { guesses: 12 };
        assert_eq!(
            e.to_string(),
            "no solution: every guess leads to a contradiction (12 guesses)"
        );
        assert!(Contradiction::EveryGuess { guesses: 1 }
            .to_string()
            .ends_with("(1 guess)"));
    }

    #[test]
    fn solvable_puzzles_have_no_root_contradiction() {
        for line in [
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        ] {
            assert_eq!(root_contradiction(&grid(line), None), None);
        }
        assert_eq!(root_contradiction(&Grid::EMPTY, None), None);
    }

    /// Puzzles: a solution grid's cells kept at random, or a proper
    /// puzzle (the hard ones propagate little: their contradictions lie
    /// deep), then one to three cells set to a random digit, which mostly
    /// leaves no solution; clashes left out (rows with clashing givens are
    /// invalid, never diagnosed).
    fn damaged() -> impl Strategy<Value = Grid> {
        const GRID: &str =
            "812753649943682175675491283154237896369845721287169534521974368438526917796318452";
        const PROPER: [&str; 3] = [
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
        ];
        let start = prop_oneof![
            (10u32..40).prop_flat_map(|percent| {
                proptest::collection::vec(proptest::bool::weighted(f64::from(percent) / 100.0), 81)
                    .prop_map(|keep| {
                        let full = grid(GRID);
                        let mut g = Grid::EMPTY;
                        for (c, &k) in keep.iter().enumerate() {
                            if k {
                                g.set(c, full.get(c));
                            }
                        }
                        g
                    })
            }),
            (0..PROPER.len()).prop_map(|k| grid(PROPER[k])),
        ];
        (
            start,
            proptest::collection::vec((0usize..81, 1u8..=9), 1..4),
        )
            .prop_map(|(mut g, changes)| {
                for (c, v) in changes {
                    let before = g.get(c);
                    g.set(c, v);
                    if g.check_givens().is_err() {
                        g.set(c, before);
                    }
                }
                g
            })
    }

    /// The generator below makes both kinds of unsolvable puzzles: those
    /// propagation refutes and those only the search does.
    #[test]
    fn damaged_puzzles_fail_at_the_root_and_deeper() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let (mut root, mut deeper) = (0, 0);
        for _ in 0..2000 {
            let g = damaged().new_tree(&mut runner).unwrap().current();
            let outcome = Solver::new(SolveOptions::default()).solve(&g);
            if outcome.solutions == 0 {
                match why_unsolvable(&g, None, &outcome) {
                    Contradiction::EveryGuess { .. } => deeper += 1,
                    _ => root += 1,
                }
            }
        }
        assert!(
            root > 100 && deeper > 10,
            "{root} at the root, {deeper} deeper"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The diagnosis names a contradiction exactly when the search died
        /// before its first guess (the same eliminations reach one), and
        /// never for a puzzle with a solution.
        #[test]
        fn the_root_contradiction_is_the_searchs(g in damaged()) {
            let outcome = Solver::new(SolveOptions::default()).solve(&g);
            let found = root_contradiction(&g, None);
            if outcome.solutions > 0 {
                prop_assert_eq!(found, None);
            } else {
                prop_assert_eq!(found.is_some(), outcome.guesses == 0, "{}", g);
            }
        }
    }
}
