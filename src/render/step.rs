//! One step of Sudoku Explainer's path as a picture: the candidate grid
//! before the step, the pattern's cells shaded, the candidates the step
//! removes struck through in red, the value it places ringed in green, and
//! its chains drawn as arrows from each cause to its effect, strong links
//! solid and weak links dashed.
//!
//! The facts of a step ([`Step`]) come from the rating's kept hints
//! ([`steps`]): the candidates before each step are found by applying the
//! hints before it to SE's starting board, as the rater did.

use super::font;
use super::scene::{Anchor, Color, Scene, Stroke};
use crate::grid::{cell_name, Grid};
use crate::rating::se::{Board, Hint, Rating};

/// A candidate in a chain: `digit` in `cell` (row-major 0..81), assumed or
/// proved on (the cell holds it) or off (it does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Potential {
    /// Cell, row-major 0..81.
    pub cell: u8,
    /// Digit 1..=9.
    pub digit: u8,
    /// On (the cell holds the digit) or off.
    pub on: bool,
}

/// One implication of a chain: if every cause holds, the effect holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Implication {
    /// The potentials it follows from (one for a plain chain, more for a
    /// dynamic one).
    pub causes: Vec<Potential>,
    /// The potential it proves.
    pub effect: Potential,
}

impl Implication {
    /// Whether the link is strong: it proves a candidate on ("if A is not
    /// so, B is"), drawn solid; a weak link proves one off ("if A is so, B
    /// is not"), drawn dashed.
    pub fn is_strong(&self) -> bool {
        self.effect.on
    }
}

/// What a picture of one step shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// 1-based number of the step on the path.
    pub number: usize,
    /// SE's name of the technique.
    pub technique: String,
    /// SE's rating of the step.
    pub rating: f64,
    /// The value placed: `(cell, digit)`.
    pub placed: Option<(u8, u8)>,
    /// The candidates removed, `(cell, digit)`, ascending; for a step that
    /// places a value, not the other candidates of its cell.
    pub removed: Vec<(u8, u8)>,
    /// The cells of the pattern, shaded (SE's hint cells, when the rating
    /// gives them).
    pub cells: Vec<u8>,
    /// The chains, each a list of implications in SE's order.
    pub chains: Vec<Vec<Implication>>,
    /// The values before the step (0: empty), row-major.
    pub values: [u8; 81],
    /// The candidates before the step: bit `d` for digit `d`.
    pub candidates: [u16; 81],
}

impl Step {
    /// The step's result in the explain table's notation: `r4c2=1` for the
    /// value placed, then `r1c3<>9` for each candidate removed.
    pub fn result(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .placed
            .map(|(c, d)| format!("{}={d}", cell_name(c as usize)))
            .into_iter()
            .collect();
        out.extend(
            self.removed
                .iter()
                .map(|&(c, d)| format!("{}<>{d}", cell_name(c as usize))),
        );
        out
    }
}

/// The removals of a hint as `(cell, digit)` pairs, leaving out the other
/// candidates of the cell it places a value in.
fn removed_of(hint: &Hint) -> Vec<(u8, u8)> {
    let mut out = Vec::new();
    for &(cell, mask) in &hint.removals {
        if hint.placement.is_some_and(|(c, _)| c == cell) {
            continue;
        }
        for d in 1..=9u8 {
            if mask >> d & 1 != 0 {
                out.push((cell, d));
            }
        }
    }
    out
}

/// The pattern's cells and the chains of `hint`, as the rating kept them
/// (SE's hint cells and chains: [`crate::rating::se::explain`]).
fn reasoning_of(hint: &Hint) -> (Vec<u8>, Vec<Vec<Implication>>) {
    let potential = |p: &crate::rating::se::explain::chain::Potential| Potential {
        cell: p.cell,
        digit: p.digit,
        on: p.on,
    };
    let chains = hint
        .chains
        .iter()
        .map(|chain| {
            chain
                .iter()
                .map(|imp| Implication {
                    causes: imp.given.iter().map(potential).collect(),
                    effect: potential(&imp.then),
                })
                .collect()
        })
        .collect();
    (hint.cells.clone(), chains)
}

/// The steps of `rating` (rated with its steps kept) of `puzzle`, each
/// with the candidates before it.
pub fn steps(puzzle: &Grid, rating: &Rating) -> Vec<Step> {
    let mut board = Board::new(puzzle);
    let mut out = Vec::with_capacity(rating.steps.len());
    for (i, hint) in rating.steps.iter().enumerate() {
        let (cells, chains) = reasoning_of(hint);
        out.push(Step {
            number: i + 1,
            technique: hint.name.to_string(),
            rating: hint.difficulty,
            placed: hint.placement,
            removed: removed_of(hint),
            cells,
            chains,
            values: *board.values(),
            candidates: *board.candidates(),
        });
        hint.apply(&mut board);
    }
    out
}

/// Colours of the pictures (also named by the HTML page's legend and the
/// tests that look for them).
pub mod colors {
    use super::Color;
    /// A given.
    pub const GIVEN: Color = Color(0, 0, 0);
    /// A value placed by an earlier step.
    pub const SOLVED: Color = Color(0x1f, 0x4e, 0xa8);
    /// A candidate.
    pub const CANDIDATE: Color = Color(0x66, 0x66, 0x66);
    /// The shade of the pattern's cells.
    pub const PATTERN: Color = Color(0xff, 0xe9, 0x8a);
    /// The shade of the cell a value is placed in.
    pub const PLACED_CELL: Color = Color(0xc8, 0xf0, 0xc8);
    /// The ring and digit of the value placed.
    pub const PLACED: Color = Color(0x1b, 0x8a, 0x2e);
    /// A removed candidate and its strike.
    pub const REMOVED: Color = Color(0xe0, 0x10, 0x10);
    /// A strong link (solid arrow).
    pub const STRONG: Color = Color(0x1f, 0x4e, 0xa8);
    /// A weak link (dashed arrow).
    pub const WEAK: Color = Color(0xe0, 0x7b, 0x00);
    /// The disc under a chain's candidate that is on.
    pub const ON: Color = Color(0xb9, 0xe8, 0xb9);
    /// The disc under a chain's candidate that is off.
    pub const OFF: Color = Color(0xf6, 0xcc, 0xa0);
    /// Thin grid lines.
    pub const LINE: Color = Color(0x99, 0x99, 0x99);
}

/// The layout of a step picture, in points.
pub mod layout {
    /// Side of a cell.
    pub const CELL: f32 = 36.0;
    /// Left of the grid (room for the row names).
    pub const LEFT: f32 = 20.0;
    /// Top of the grid (room for the title, the result and column names).
    pub const TOP: f32 = 58.0;
    /// Width of the picture.
    pub const WIDTH: f32 = LEFT + 9.0 * CELL + 12.0;
    /// Height of the picture.
    pub const HEIGHT: f32 = TOP + 9.0 * CELL + 50.0;

    /// The top-left corner of `cell`.
    pub fn cell_origin(cell: usize) -> (f32, f32) {
        (
            LEFT + (cell % 9) as f32 * CELL,
            TOP + (cell / 9) as f32 * CELL,
        )
    }

    /// The centre of `cell`.
    pub fn cell_centre(cell: usize) -> (f32, f32) {
        let (x, y) = cell_origin(cell);
        (x + CELL / 2.0, y + CELL / 2.0)
    }

    /// The centre of candidate `digit`'s place in `cell` (digits 1-9 in
    /// three rows of three, as written by hand).
    pub fn candidate_centre(cell: usize, digit: u8) -> (f32, f32) {
        let (x, y) = cell_origin(cell);
        let k = (digit.clamp(1, 9) - 1) as usize;
        let third = CELL / 3.0;
        (
            x + (k % 3) as f32 * third + third / 2.0,
            y + (k / 3) as f32 * third + third / 2.0,
        )
    }
}

/// The picture of `step` of a puzzle with `givens` (givens are drawn black,
/// values placed by earlier steps blue); `total` is the number of steps of
/// the path (for the title).
pub fn picture(step: &Step, givens: &[u8; 81], total: usize) -> Scene {
    use colors::*;
    use layout::*;
    let mut s = Scene::new(WIDTH, HEIGHT);
    let grid = 9.0 * CELL;

    // Title: the technique; then the step, its rating and its result.
    let title = font::fit(&step.technique, 12.0, true, WIDTH - LEFT - 12.0);
    s.text(LEFT, 17.0, 12.0, title, true, Color::BLACK, Anchor::Start);
    let line = format!(
        "Step {} of {total} \u{b7} rating {} \u{b7} {}",
        step.number,
        crate::rating::se::Rating::format(step.rating),
        step.result().join(", ")
    );
    s.text(
        LEFT,
        34.0,
        10.0,
        font::fit(&line, 10.0, false, WIDTH - LEFT - 12.0),
        false,
        Color(0x33, 0x33, 0x33),
        Anchor::Start,
    );

    // Shading: the pattern's cells, the cell a value is placed in.
    for &c in &step.cells {
        let (x, y) = cell_origin(c as usize);
        s.rect(x, y, CELL, CELL, Some(PATTERN), None);
    }
    if let Some((c, _)) = step.placed {
        let (x, y) = cell_origin(c as usize);
        s.rect(x, y, CELL, CELL, Some(PLACED_CELL), None);
    }

    // The chains' candidates: a disc under each, green when on, orange
    // when off.
    let mut marked: Vec<Potential> = Vec::new();
    for imp in step.chains.iter().flatten() {
        for p in imp.causes.iter().chain(std::iter::once(&imp.effect)) {
            if !marked.contains(p) {
                marked.push(*p);
            }
        }
    }
    let r = CELL / 6.0 - 0.5;
    for p in &marked {
        let (cx, cy) = candidate_centre(p.cell as usize, p.digit);
        s.circle(cx, cy, r, Some(if p.on { ON } else { OFF }), None);
    }

    // Grid lines: thin, then the block lines and frame over them.
    for k in 0..=9 {
        if k % 3 == 0 {
            continue;
        }
        let o = k as f32 * CELL;
        let thin = Stroke::solid(LINE, 0.6);
        s.line((LEFT + o, TOP), (LEFT + o, TOP + grid), thin);
        s.line((LEFT, TOP + o), (LEFT + grid, TOP + o), thin);
    }
    for k in (0..=9).step_by(3) {
        let o = k as f32 * CELL;
        let thick = Stroke::solid(Color::BLACK, 2.0);
        s.line((LEFT + o, TOP - 1.0), (LEFT + o, TOP + grid + 1.0), thick);
        s.line((LEFT - 1.0, TOP + o), (LEFT + grid + 1.0, TOP + o), thick);
    }
    // Row and column names, as the result writes cells (r4c2).
    for k in 0..9 {
        let o = k as f32 * CELL + CELL / 2.0;
        let grey = Color(0x88, 0x88, 0x88);
        s.text(
            LEFT / 2.0,
            TOP + o + 3.0,
            8.5,
            format!("r{}", k + 1),
            false,
            grey,
            Anchor::Middle,
        );
        s.text(
            LEFT + o,
            TOP - 5.0,
            8.5,
            format!("c{}", k + 1),
            false,
            grey,
            Anchor::Middle,
        );
    }

    // Values and candidates, row by row.
    let small = 9.5;
    for (cell, (&v, &given)) in step.values.iter().zip(givens).enumerate() {
        if v != 0 {
            let (cx, cy) = cell_centre(cell);
            let color = if given == v { GIVEN } else { SOLVED };
            s.text(
                cx,
                cy + 8.5,
                24.0,
                v.to_string(),
                givens[cell] == v,
                color,
                Anchor::Middle,
            );
            continue;
        }
        for d in 1..=9u8 {
            if step.candidates[cell] >> d & 1 == 0 {
                continue;
            }
            let (cx, cy) = candidate_centre(cell, d);
            let removed = step.removed.contains(&(cell as u8, d));
            let placed = step.placed == Some((cell as u8, d));
            if placed {
                s.circle(cx, cy, r, None, Some(Stroke::solid(PLACED, 1.6)));
            }
            let (color, bold) = if removed {
                (REMOVED, true)
            } else if placed {
                (PLACED, true)
            } else {
                (CANDIDATE, false)
            };
            s.text(
                cx,
                cy + small * 0.36,
                small,
                d.to_string(),
                bold,
                color,
                Anchor::Middle,
            );
            if removed {
                let h = CELL / 6.0 - 1.0;
                s.line(
                    (cx - h, cy + h),
                    (cx + h, cy - h),
                    Stroke::solid(REMOVED, 1.4),
                );
            }
        }
    }

    // The chains' arrows, from each cause to its effect.
    let mut drawn: Vec<(Potential, Potential)> = Vec::new();
    for imp in step.chains.iter().flatten() {
        for cause in &imp.causes {
            if drawn.contains(&(*cause, imp.effect)) {
                continue;
            }
            drawn.push((*cause, imp.effect));
            let a = candidate_centre(cause.cell as usize, cause.digit);
            let b = candidate_centre(imp.effect.cell as usize, imp.effect.digit);
            let (dx, dy) = (b.0 - a.0, b.1 - a.1);
            let len = (dx * dx + dy * dy).sqrt();
            if len < 1.0 {
                continue;
            }
            let (ux, uy) = (dx / len, dy / len);
            let from = (a.0 + ux * r, a.1 + uy * r);
            let to = (b.0 - ux * r, b.1 - uy * r);
            let stroke = if imp.is_strong() {
                Stroke::solid(STRONG, 1.3)
            } else {
                Stroke {
                    color: WEAK,
                    width: 1.3,
                    dash: Some(3.0),
                }
            };
            s.arrow(from, to, 0.12, stroke, 5.0);
        }
    }

    legend(&mut s, !step.chains.is_empty());
    s
}

/// The key under the grid: what the shading, strikes and arrows mean.
fn legend(s: &mut Scene, chains: bool) {
    use colors::*;
    use layout::*;
    let y = TOP + 9.0 * CELL + 18.0;
    let size = 8.5;
    let grey = Color(0x33, 0x33, 0x33);
    let mut x = LEFT;
    let key = |s: &mut Scene, x: &mut f32, label: &str| {
        s.text(*x + 14.0, y + 3.0, size, label, false, grey, Anchor::Start);
        *x += 14.0 + font::width(label, size, false) + 10.0;
    };
    s.rect(
        x,
        y - 5.0,
        10.0,
        10.0,
        Some(PATTERN),
        Some(Stroke::solid(LINE, 0.5)),
    );
    key(s, &mut x, "pattern");
    s.circle(x + 5.0, y, 5.0, None, Some(Stroke::solid(PLACED, 1.6)));
    key(s, &mut x, "placed");
    s.line(
        (x + 1.0, y + 4.0),
        (x + 9.0, y - 4.0),
        Stroke::solid(REMOVED, 1.4),
    );
    key(s, &mut x, "removed");
    if chains {
        // The chain's keys on a second line.
        let y = y + 15.0;
        let mut x = LEFT;
        let key = |s: &mut Scene, x: &mut f32, label: &str| {
            s.text(*x + 14.0, y + 3.0, size, label, false, grey, Anchor::Start);
            *x += 14.0 + font::width(label, size, false) + 10.0;
        };
        s.arrow((x, y), (x + 11.0, y), 0.0, Stroke::solid(STRONG, 1.3), 4.0);
        key(s, &mut x, "strong link (then true)");
        let dashed = Stroke {
            color: WEAK,
            width: 1.3,
            dash: Some(3.0),
        };
        s.arrow((x, y), (x + 11.0, y), 0.0, dashed, 4.0);
        key(s, &mut x, "weak link (then false)");
        s.circle(x + 5.0, y, 5.0, Some(ON), None);
        key(s, &mut x, "true");
        s.circle(x + 5.0, y, 5.0, Some(OFF), None);
        key(s, &mut x, "false");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rating::se::{Options, Rater};

    #[test]
    fn replayed_candidates_follow_the_hints() {
        let grid = Grid::parse(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        )
        .unwrap();
        let opts = Options {
            keep_steps: true,
            ..Options::default()
        };
        let rating = Rater::new().rate(&grid, &opts).unwrap();
        let steps = steps(&grid, &rating);
        assert_eq!(steps.len(), rating.steps.len());
        assert_eq!(steps[0].values, *grid.cells());
        for (step, hint) in steps.iter().zip(&rating.steps) {
            // Each removed candidate and the value placed are candidates
            // before the step.
            for &(c, d) in &step.removed {
                assert!(
                    step.candidates[c as usize] >> d & 1 != 0,
                    "step {}",
                    step.number
                );
            }
            if let Some((c, d)) = hint.placement {
                assert!(step.candidates[c as usize] >> d & 1 != 0);
            }
        }
        let last = steps.last().unwrap();
        assert_eq!(last.values.iter().filter(|&&v| v == 0).count(), 1);
    }

    #[test]
    fn strong_links_prove_candidates_on() {
        let p = |cell, digit, on| Potential { cell, digit, on };
        let weak = Implication {
            causes: vec![p(0, 1, true)],
            effect: p(1, 1, false),
        };
        let strong = Implication {
            causes: vec![p(1, 1, false)],
            effect: p(2, 1, true),
        };
        assert!(!weak.is_strong() && strong.is_strong());
    }
}
