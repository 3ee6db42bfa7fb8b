//! The chains of implications SE explains a chaining hint with: a
//! [`Chain`] is a list of [`Implication`]s, "if these [`Potential`]s, then
//! that one, by this rule ([`Why`])". A leaf vocabulary: the rater's hints
//! carry chains ([`super::super::hint::Hint::chains`]) and `explain`'s
//! steps show them ([`super::Step`]).

use crate::grid::cell_name;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

/// A candidate assumed true ("on") or false ("off"): SE's `Potential`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Potential {
    /// The cell, row-major 0..81 (`r1c1` is 0, `r9c9` 80).
    pub cell: u8,
    /// The digit, 1..=9.
    pub digit: u8,
    /// True: the cell contains the digit; false: it does not.
    pub on: bool,
}

impl Potential {
    /// The potential of `digit` in `cell`, `on` or off.
    pub fn new(cell: usize, digit: u8, on: bool) -> Potential {
        Potential {
            cell: cell as u8,
            digit,
            on,
        }
    }

    /// `r4c2=1` when on, `r4c2<>1` when off.
    pub fn name(&self) -> String {
        format!(
            "{}{}{}",
            cell_name(self.cell as usize),
            if self.on { "=" } else { "<>" },
            self.digit
        )
    }
}

/// Serialized as `["r4c2", 1, true]`.
impl Serialize for Potential {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(3))?;
        seq.serialize_element(&cell_name(self.cell as usize))?;
        seq.serialize_element(&self.digit)?;
        seq.serialize_element(&self.on)?;
        seq.end()
    }
}

/// The rule an implication follows (SE's `Potential.Cause` and the
/// explanation it prints).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Why {
    /// One value per cell: a cell that contains one digit contains no other,
    /// and a cell left with one candidate contains it.
    Cell,
    /// Once per row: a digit in a row is in no other cell of it, and a row
    /// with one position left for a digit has it there.
    Row,
    /// Once per column, likewise.
    Column,
    /// Once per block, likewise.
    Block,
    /// Another technique applied to the candidates the chain has removed so
    /// far (dynamic chains "(+)" and nested ones): its name, as SE's
    /// one-line text gives it (e.g. `Pointing: Cells A1,A2: 5 in block`).
    Technique(String),
}

impl Why {
    /// The word of the `why` field: `cell`, `row`, `column`, `block`, or
    /// the empty string for another technique.
    pub fn word(&self) -> &'static str {
        match self {
            Why::Cell => "cell",
            Why::Row => "row",
            Why::Column => "column",
            Why::Block => "block",
            Why::Technique(_) => "",
        }
    }
}

/// One implication of a chain: SE's line "(n) If A and B, then C (rule)".
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Implication {
    /// What it follows from, as SE lists it (its parents in reverse order):
    /// one potential for a plain link; several for a dynamic step ("if
    /// r1c1 does not contain 2 and r1c3 does not contain 2, then r1c6
    /// contains 2") or another technique's removal.
    pub given: Vec<Potential>,
    /// What follows.
    pub then: Potential,
    /// By which rule.
    pub why: Why,
}

/// Serialized as `{"if": [[cell, digit, on], ...], "then": [cell, digit,
/// on], "why": "cell"|"row"|"column"|"block"|""}`.
impl Serialize for Implication {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("if", &self.given)?;
        map.serialize_entry("then", &self.then)?;
        map.serialize_entry("why", self.why.word())?;
        map.end()
    }
}

/// A chain: its implications in SE's order, each potential derived once,
/// after the potentials it follows from.
pub type Chain = Vec<Implication>;
