//! A step of the path: what a technique found and what it changes.

use super::board::Board;
use super::explain::chain::Chain;
use std::borrow::Cow;

/// One hint, as SE applies it: candidates removed, then at most one value
/// placed.
#[derive(Debug, Clone, PartialEq)]
pub struct Hint {
    /// SE's rating of the hint (its `getDifficulty()`), computed with the
    /// same double-precision arithmetic as SE: 6.6 + 0.1 is
    /// 6.699999999999999 here as there, which decides ties between chains.
    pub difficulty: f64,
    /// SE's name of the technique (`getName()`), e.g. "Hidden Single",
    /// "Unique Rectangle type 1", "Dynamic Contradiction Forcing Chains"
    /// (borrowed where fixed, so a single costs no allocation).
    pub name: Cow<'static, str>,
    /// The value placed: `(cell, digit)`, cell row-major 0..81. A hint that
    /// places a value is what SE's EP ("pearl") waits for.
    pub placement: Option<(u8, u8)>,
    /// Candidates removed: `(cell, mask)` pairs, ascending by cell, mask bit
    /// `v` for digit `v`. Empty for a plain single.
    pub removals: Vec<(u8, u16)>,
    /// The cells SE's one-line text of the hint names, in its order
    /// (row-major 0..81; see [`super::explain`]).
    pub cells: Vec<u8>,
    /// The chains SE explains a chaining hint with, in its order (see
    /// [`super::explain`]); kept only when the rating keeps its steps
    /// ([`super::Options::keep_steps`]), else empty.
    pub chains: Vec<Chain>,
}

impl Hint {
    /// A hint that places `value` in `cell` and removes nothing else.
    pub(crate) fn placement(difficulty: f64, name: &'static str, cell: usize, value: u8) -> Hint {
        Hint {
            difficulty,
            name: Cow::Borrowed(name),
            placement: Some((cell as u8, value)),
            removals: Vec::new(),
            cells: vec![cell as u8],
            chains: Vec::new(),
        }
    }

    /// A hint removing the candidates in `removable` (indexed by cell) and
    /// placing `placement`, if any.
    pub(crate) fn new(
        difficulty: f64,
        name: impl Into<Cow<'static, str>>,
        removable: &[u16; 81],
        placement: Option<(usize, u8)>,
    ) -> Hint {
        Hint {
            difficulty,
            name: name.into(),
            placement: placement.map(|(c, v)| (c as u8, v)),
            removals: removals_of(removable),
            cells: Vec::new(),
            chains: Vec::new(),
        }
    }

    /// The hint with `cells` as the cells its text names, in SE's order
    /// (see [`super::explain`]).
    pub(crate) fn with_cells(mut self, cells: impl IntoIterator<Item = usize>) -> Hint {
        self.cells = cells.into_iter().map(|c| c as u8).collect();
        self
    }

    /// SE's `IndirectHint.apply()`: remove the candidates, then place the
    /// value (removing it from the cell's peers). Whether the board changed.
    pub fn apply(&self, board: &mut Board) -> bool {
        let mut changed = false;
        for &(cell, mask) in &self.removals {
            changed |= board.remove(cell as usize, mask);
        }
        if let Some((cell, value)) = self.placement {
            changed |= board.place(cell as usize, value);
        }
        changed
    }
}

/// The non-empty entries of a per-cell removal table, ascending by cell.
pub(crate) fn removals_of(removable: &[u16; 81]) -> Vec<(u8, u16)> {
    removable
        .iter()
        .enumerate()
        .filter(|(_, &m)| m != 0)
        .map(|(c, &m)| (c as u8, m))
        .collect()
}
