//! A puzzle grid as printed in a book: 9x9 cells, thick block lines, the
//! givens; for an answer, the other digits of the solution in grey.
//!
//! The digits are text written row by row, and a blank cell holds a hidden
//! `.`, so that a PDF's text layer gives each row as its 9 cells
//! (`8 . . . . . . . .`), which copy and search find.

use super::scene::{Anchor, Color, Scene, Stroke};

/// The grey of the digits an answer fills in.
pub const FILLED: Color = Color(0x70, 0x70, 0x70);

/// Draws a grid of cells `cell` points wide with its top-left corner at
/// (`x`, `y`): `givens` (0: blank) in black and, with `solution`, the other
/// cells' digits in grey.
pub fn draw(
    s: &mut Scene,
    x: f32,
    y: f32,
    cell: f32,
    givens: &[u8; 81],
    solution: Option<&[u8; 81]>,
) {
    let side = 9.0 * cell;
    let thin = Stroke::solid(Color(0x88, 0x88, 0x88), (cell * 0.025).clamp(0.3, 0.8));
    let thick = Stroke::solid(Color::BLACK, (cell * 0.07).clamp(0.8, 2.0));
    for k in 1..9 {
        if k % 3 == 0 {
            continue;
        }
        let o = k as f32 * cell;
        s.line((x + o, y), (x + o, y + side), thin);
        s.line((x, y + o), (x + side, y + o), thin);
    }
    for k in (0..=9).step_by(3) {
        let o = k as f32 * cell;
        let half = thick.width / 2.0;
        s.line((x + o, y - half), (x + o, y + side + half), thick);
        s.line((x - half, y + o), (x + side + half, y + o), thick);
    }
    let size = cell * 0.62;
    for row in 0..9 {
        let base = y + row as f32 * cell + cell / 2.0 + size * 0.36;
        for col in 0..9 {
            let c = row * 9 + col;
            let cx = x + col as f32 * cell + cell / 2.0;
            let (text, color, hidden) = match (givens[c], solution.map(|s| s[c])) {
                (0, Some(d)) if d != 0 => (d, FILLED, false),
                (0, _) => (0, Color::BLACK, true),
                (g, _) => (g, Color::BLACK, false),
            };
            let label = if text == 0 {
                ".".to_string()
            } else {
                text.to_string()
            };
            s.text(
                cx,
                base,
                size,
                label,
                solution.is_some() && !hidden && color == Color::BLACK,
                color,
                Anchor::Middle,
            );
            if hidden {
                if let Some(super::scene::Item::Text(t)) = s.items.last_mut() {
                    t.hidden = true;
                }
            }
        }
    }
}
