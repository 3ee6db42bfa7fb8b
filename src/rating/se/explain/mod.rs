//! What a step of Sudoku Explainer's path says: the facts of SE 1.2.1.3's
//! hint, as `sudoflow explain` writes them and as pictures and books draw
//! them.
//!
//! A [`Step`] is one hint SE applies: its rating and technique, the cells
//! its one-line text names (`cells`), the value it places, the candidates
//! it removes, and, for the hints SE explains with chains of implications
//! (cycles, forcing chains, Nishio, cell, region, contradiction, double and
//! dynamic forcing chains), each chain as SE lists it ([`Chain`]): one
//! [`Implication`] per line of SE's explanation, "if these potentials, then
//! that one, by this rule", in SE's order.
//!
//! Where the facts come from, per hint class of SE (`diuf.sudoku.solver`):
//!
//! - `cells`: the cells of the hint's `toString()` in their order there:
//!   a single's cell; the locked cells of pointing and claiming; the cells
//!   of a naked or hidden set; a fish's cells; a wing's pivot then pincers;
//!   a unique loop's cells along the loop; a BUG's cells; the aligned
//!   cells of an exclusion; a cycle's cells along it; for forcing chains the
//!   start (and the target when the text names one: `Cell Forcing Chains:
//!   C1 ==> I1.8 off` gives C1 then I1).
//! - `chains`: `ChainingHint.getHtmlChain` for each chain of the hint, in
//!   the order of its views (a cycle: forward, then reversed; a
//!   contradiction or double forcing chain: the chain to the "on" target,
//!   then to the "off" one; a cell or region forcing chain: one chain per
//!   candidate or position, ascending). Each chain lists every potential
//!   that has parents once, parents before children (a depth-first walk
//!   from the target, parents in SE's order), with its parents in SE's
//!   order reversed, as SE prints them. A chain with no implication (the
//!   assumption is the conclusion) is left out, as SE prints no line for it.
//!
//! The reference data that checks all this, made by running SE's own rating
//! loop step by step, is described in `../shared/datasets/se/README.md`
//! (`steps/`); `tests/se_explain.rs` compares.

pub mod chain;
pub mod text;

pub use chain::{Chain, Implication, Potential, Why};

use super::board::Board;
use super::hint::Hint;
use super::Rating;
use crate::grid::cell_name;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// One step of SE's path: the facts of the hint SE applies.
///
/// JSON (`serde`): `{"rating": 6.699999999999999, "technique": "Forcing
/// X-Chain", "cells": ["r3c3"], "placed": null | "r2c4=3", "removed":
/// ["r3c3<>2", ...], "chains": [[implication, ...], ...]}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// SE's rating of the hint (`getDifficulty()`), the double SE computes:
    /// 6.6 + 0.1 is 6.699999999999999, which SE prints as 6.7
    /// ([`super::Rating::format`]).
    pub rating: f64,
    /// SE's name of the technique (`getName()`), e.g. `Hidden Single`,
    /// `Unique Rectangle type 4`, `Dynamic Cell Forcing Chains`.
    pub technique: String,
    /// The cells SE's one-line text of the hint names, in its order (see
    /// the module doc), row-major 0..81; a cell may repeat
    /// (`Double Forcing Chain: B6.3 on & off ==> B6.1 off`).
    pub cells: Vec<u8>,
    /// The value placed, `(cell, digit)`, if any.
    pub placed: Option<(u8, u8)>,
    /// The candidates removed, `(cell, digit)`, ascending by cell then
    /// digit: SE's `getRemovablePotentials()`, so a chain that places a
    /// value lists the cell's other candidates too, and a single or a
    /// direct hint (which only places) lists none.
    pub removed: Vec<(u8, u8)>,
    /// The chains of a chaining hint, in SE's order (see the module doc);
    /// empty for other techniques.
    pub chains: Vec<Chain>,
}

impl Step {
    /// The step of a hint the rater found (with its chains when the rating
    /// kept them, [`super::Options::keep_steps`]).
    pub fn of(hint: &Hint) -> Step {
        let mut removed = Vec::new();
        for &(cell, mask) in &hint.removals {
            for v in super::board::digits(mask) {
                removed.push((cell, v));
            }
        }
        Step {
            rating: hint.difficulty,
            technique: hint.name.to_string(),
            cells: hint.cells.clone(),
            placed: hint.placement,
            removed,
            chains: hint.chains.clone(),
        }
    }

    /// Applies the step to `board` as SE does: the candidates removed, then
    /// the value placed (with its digit removed from the cell's peers).
    /// Replaying a puzzle's steps from [`Board::new`] gives the candidates
    /// SE saw before each step. Whether the board changed.
    pub fn apply(&self, board: &mut Board) -> bool {
        let mut changed = false;
        for &(cell, v) in &self.removed {
            changed |= board.remove(cell as usize, 1 << v);
        }
        if let Some((cell, v)) = self.placed {
            changed |= board.place(cell as usize, v);
        }
        changed
    }

    /// `r4c2=1`, the value placed, if any.
    pub fn placed_name(&self) -> Option<String> {
        self.placed
            .map(|(c, v)| format!("{}={v}", cell_name(c as usize)))
    }

    /// `r1c3<>9` for each candidate removed.
    pub fn removed_names(&self) -> Vec<String> {
        self.removed
            .iter()
            .map(|&(c, v)| format!("{}<>{v}", cell_name(c as usize)))
            .collect()
    }
}

impl Serialize for Step {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(6))?;
        map.serialize_entry("rating", &self.rating)?;
        map.serialize_entry("technique", &self.technique)?;
        let cells: Vec<String> = self.cells.iter().map(|&c| cell_name(c as usize)).collect();
        map.serialize_entry("cells", &cells)?;
        map.serialize_entry("placed", &self.placed_name())?;
        map.serialize_entry("removed", &self.removed_names())?;
        map.serialize_entry("chains", &self.chains)?;
        map.end()
    }
}

/// A puzzle's whole path as `explain` tells it: where it starts, SE's
/// rating, and every step.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The candidates the path starts from: [`Board::new`] of the puzzle,
    /// or [`Board::from_pencilmarks`] of a puzzle given by its candidates.
    pub start: Board,
    /// SE's rating of the path (ER, EP, ED, the hardest step, its
    /// technique); its `steps` are left empty, the path is in `steps`.
    pub rating: Rating,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

impl Explanation {
    /// The explanation of a rating made from `start` with its steps kept
    /// ([`super::Options::keep_steps`]).
    pub fn new(start: Board, mut rating: Rating) -> Explanation {
        let steps = rating.steps.iter().map(Step::of).collect();
        rating.steps = Vec::new();
        Explanation {
            start,
            rating,
            steps,
        }
    }

    /// The candidates before each step, in step order (the start, then
    /// each step applied in turn).
    pub fn boards(&self) -> Vec<Board> {
        let mut board = self.start.clone();
        self.steps
            .iter()
            .map(|s| {
                let before = board.clone();
                s.apply(&mut board);
                before
            })
            .collect()
    }

    /// Each step told in words ([`text::describe`]), in step order.
    pub fn describe(&self) -> Vec<Vec<String>> {
        self.steps
            .iter()
            .zip(self.boards())
            .map(|(s, b)| text::describe(s, &b))
            .collect()
    }
}
