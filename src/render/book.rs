//! A book of puzzles as pages ([`Scene`]s, for [`super::pdf`] or
//! [`super::svg`]): the puzzles N to a page, chapter by chapter, each with
//! its index and rating as caption; then the answers, small; then, for the
//! puzzles asked for, their solutions step by step
//! ([`super::step::picture`]).
//!
//! Each page's text is written in reading order: the page's heading, then
//! each grid (left to right, top to bottom) as its caption and its 9 rows,
//! then the page number.

use super::font;
use super::grid;
use super::scene::{Anchor, Color, Scene};
use super::step::{self, Step};
use crate::grid::Grid;
use crate::rating::se::Rating;

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 in.
    Letter,
}

impl Paper {
    /// Width and height in points.
    pub fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.28, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// One puzzle of the book.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// Its index as the caption shows it (the corpus's `index` column).
    pub index: String,
    /// The puzzle.
    pub puzzle: Grid,
    /// Its solution (for the answer pages).
    pub solution: [u8; 81],
    /// Its rating ER.
    pub er: f64,
    /// Its label (e.g. "Fiendish"), empty for none.
    pub label: String,
}

impl Entry {
    /// The caption's rating part: `ER 3.4 · Fiendish`.
    pub fn rating_text(&self) -> String {
        let er = Rating::format(self.er);
        if self.label.is_empty() {
            format!("ER {er}")
        } else {
            format!("ER {er} \u{b7} {}", self.label)
        }
    }
}

/// A chapter: a title and its puzzles (indices into the entries), in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Chapter {
    /// Its title, on top of each of its pages; empty: the book's title.
    pub title: String,
    /// Its puzzles, as indices into the book's entries.
    pub entries: Vec<usize>,
}

/// A puzzle whose solution is printed step by step.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// The entry (index into the entries).
    pub entry: usize,
    /// Its steps ([`step::steps`]).
    pub steps: Vec<Step>,
}

/// What to print.
#[derive(Debug, Clone, PartialEq)]
pub struct Book {
    /// The book's title (first page's heading, PDF metadata).
    pub title: String,
    /// Paper size.
    pub paper: Paper,
    /// Puzzles per page.
    pub per_page: usize,
    /// The chapters, in order.
    pub chapters: Vec<Chapter>,
    /// Whether to print the answer pages.
    pub answers: bool,
    /// Answers per page.
    pub answers_per_page: usize,
    /// Solutions printed step by step, after the answers.
    pub solutions: Vec<Solution>,
}

/// Margin around the page's content, in points (15 mm).
const MARGIN: f32 = 42.5;
/// Height of a page's heading line.
const HEADING: f32 = 30.0;
/// Height of a grid's caption.
const CAPTION: f32 = 16.0;

/// Where `n` items go on a page: the top-left corner and scale factor for
/// each item `w` x `h` points (plus `caption` above it) in the page's
/// content area, in reading order; the grid of columns and rows is the one
/// that makes the items largest.
fn slots(page: (f32, f32), n: usize, w: f32, h: f32, caption: f32) -> Vec<(f32, f32, f32)> {
    let n = n.max(1);
    let (pw, ph) = page;
    let area_w = pw - 2.0 * MARGIN;
    let area_h = ph - 2.0 * MARGIN - HEADING - 14.0;
    let gap = 18.0;
    let mut best = (0.0f32, 1usize, 1usize);
    for cols in 1..=n {
        let rows = n.div_ceil(cols);
        let sw = (area_w - gap * (cols - 1) as f32) / cols as f32;
        let sh = (area_h - gap * (rows - 1) as f32) / rows as f32 - caption;
        let scale = (sw / w).min(sh / h);
        if scale > best.0 {
            best = (scale, cols, rows);
        }
    }
    let (scale, cols, rows) = best;
    let scale = scale.max(0.01);
    let (iw, ih) = (w * scale, h * scale + caption);
    // Spread the rows and columns over the area, centred.
    let gx = if cols > 1 {
        ((area_w - iw * cols as f32) / (cols - 1) as f32).min(3.0 * gap)
    } else {
        0.0
    };
    let gy = if rows > 1 {
        ((area_h - ih * rows as f32) / (rows - 1) as f32).min(3.0 * gap)
    } else {
        0.0
    };
    let used_w = iw * cols as f32 + gx * (cols - 1) as f32;
    let used_h = ih * rows as f32 + gy * (rows - 1) as f32;
    let x0 = MARGIN + (area_w - used_w) / 2.0;
    let y0 = MARGIN + HEADING + (area_h - used_h) / 4.0;
    (0..n)
        .map(|k| {
            let (c, r) = (k % cols, k / cols);
            (
                x0 + c as f32 * (iw + gx),
                y0 + r as f32 * (ih + gy) + caption,
                scale,
            )
        })
        .collect()
}

/// A new page with its heading (left) and a right-hand note.
fn new_page(paper: Paper, heading: &str, note: &str) -> Scene {
    let (w, h) = paper.size();
    let mut s = Scene::new(w, h);
    let room = w - 2.0 * MARGIN - font::width(note, 10.0, false) - 12.0;
    s.text(
        MARGIN,
        MARGIN + 12.0,
        14.0,
        font::fit(heading, 14.0, true, room),
        true,
        Color::BLACK,
        Anchor::Start,
    );
    s.text(
        w - MARGIN,
        MARGIN + 12.0,
        10.0,
        note,
        false,
        Color(0x55, 0x55, 0x55),
        Anchor::End,
    );
    s.line(
        (MARGIN, MARGIN + 18.0),
        (w - MARGIN, MARGIN + 18.0),
        super::scene::Stroke::solid(Color(0xaa, 0xaa, 0xaa), 0.6),
    );
    s
}

/// Numbers the pages at their foot, `n / total`.
fn number_pages(pages: &mut [Scene]) {
    let total = pages.len();
    for (i, p) in pages.iter_mut().enumerate() {
        let (w, h) = (p.width, p.height);
        p.text(
            w / 2.0,
            h - MARGIN / 2.0 - 4.0,
            9.0,
            format!("{} / {total}", i + 1),
            false,
            Color(0x55, 0x55, 0x55),
            Anchor::Middle,
        );
    }
}

/// Lays out a grid and its caption at a slot.
fn put_grid(
    s: &mut Scene,
    slot: (f32, f32, f32),
    side: f32,
    left: &str,
    right: &str,
    givens: &[u8; 81],
    solution: Option<&[u8; 81]>,
) {
    let (x, y, scale) = slot;
    let side = side * scale;
    let cell = side / 9.0;
    let size = 10.0f32.min(cell * 0.6).max(6.0);
    s.text(x, y - 5.0, size, left, true, Color::BLACK, Anchor::Start);
    if !right.is_empty() {
        s.text(
            x + side,
            y - 5.0,
            size,
            right,
            false,
            Color(0x33, 0x33, 0x33),
            Anchor::End,
        );
    }
    grid::draw(s, x, y, cell, givens, solution);
}

/// The pages of `book` over `entries`.
pub fn pages(book: &Book, entries: &[Entry]) -> Vec<Scene> {
    let mut pages = Vec::new();
    let side = 9.0 * 20.0;
    let page = book.paper.size();

    // The puzzles, chapter by chapter, each chapter from a new page.
    let per_page = book.per_page.max(1);
    let places = slots(page, per_page, side, side, CAPTION);
    for chapter in &book.chapters {
        let heading = if chapter.title.is_empty() {
            &book.title
        } else {
            &chapter.title
        };
        for (k, chunk) in chapter.entries.chunks(per_page).enumerate() {
            let note = if chapter.title.is_empty() || k == 0 && book.chapters.len() == 1 {
                format!("{} puzzles", chapter.entries.len())
            } else {
                format!("{} puzzles in this chapter", chapter.entries.len())
            };
            let mut s = new_page(book.paper, heading, &note);
            for (&e, &slot) in chunk.iter().zip(&places) {
                let entry = &entries[e];
                put_grid(
                    &mut s,
                    slot,
                    side,
                    &format!("#{}", entry.index),
                    &entry.rating_text(),
                    entry.puzzle.cells(),
                    None,
                );
            }
            pages.push(s);
        }
    }

    // The answers, in the order the puzzles were printed.
    if book.answers {
        let order: Vec<usize> = book
            .chapters
            .iter()
            .flat_map(|c| c.entries.iter().copied())
            .collect();
        let per_page = book.answers_per_page.max(1);
        let places = slots(page, per_page, side, side, CAPTION);
        for chunk in order.chunks(per_page) {
            let mut s = new_page(book.paper, "Answers", &book.title);
            for (&e, &slot) in chunk.iter().zip(&places) {
                let entry = &entries[e];
                put_grid(
                    &mut s,
                    slot,
                    side,
                    &format!("#{}", entry.index),
                    "",
                    entry.puzzle.cells(),
                    Some(&entry.solution),
                );
            }
            pages.push(s);
        }
    }

    // Solutions step by step: six pictures to a page.
    for sol in &book.solutions {
        let entry = &entries[sol.entry];
        let places = slots(page, 6, step::layout::WIDTH, step::layout::HEIGHT, 0.0);
        let heading = format!("Solution of #{} ({})", entry.index, entry.rating_text());
        for (k, chunk) in sol.steps.chunks(6).enumerate() {
            let first = k * 6 + 1;
            let note = format!(
                "steps {}-{} of {}",
                first,
                first + chunk.len() - 1,
                sol.steps.len()
            );
            let mut s = new_page(book.paper, &heading, &note);
            for (st, &(x, y, scale)) in chunk.iter().zip(&places) {
                let pic = step::picture(st, entry.puzzle.cells(), sol.steps.len());
                s.place(&pic, x, y, scale);
            }
            pages.push(s);
        }
    }
    number_pages(&mut pages);
    pages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_fill_the_page_in_reading_order() {
        let page = Paper::A4.size();
        let six = slots(page, 6, 180.0, 180.0, CAPTION);
        assert_eq!(six.len(), 6);
        // Two columns, three rows: same y in a row, same x in a column.
        assert_eq!(six[0].1, six[1].1);
        assert!(six[2].1 > six[0].1 && six[0].0 == six[2].0 && six[1].0 > six[0].0);
        for &(x, y, scale) in &six {
            assert!(x >= MARGIN && x + 180.0 * scale <= page.0 - MARGIN + 0.01);
            assert!(y + 180.0 * scale <= page.1 - MARGIN);
        }
        let one = slots(page, 1, 180.0, 180.0, CAPTION);
        assert!(one[0].2 > six[0].2);
    }
}
