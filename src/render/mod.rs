//! Pictures and books: what `explain --format svg|html` and `print` draw.
//!
//! Everything is drawn once, as a [`scene::Scene`] (rectangles, lines,
//! curves, text in points), and written by [`svg`] or [`pdf`], so an SVG
//! and a PDF page of the same thing look alike. The font is embedded
//! ([`font`]).
//!
//! - [`step`]: one step of Sudoku Explainer's path on its candidate grid;
//! - [`html`]: a page with every step, moved through with the arrow keys;
//! - [`grid`]: a puzzle or answer grid as a book prints it;
//! - [`book`]: the pages of a book: puzzles, answers, solutions.
//!
//! Below the commands, above the rating: nothing here reads files or
//! options.

pub mod book;
pub mod font;
pub mod grid;
pub mod html;
pub mod pdf;
pub mod scene;
pub mod step;
pub mod svg;
