//! [`Scene`]s as the pages of a PDF, through krilla, with the embedded font
//! ([`super::font`]) subset into the file. Text is real text, written in
//! the scene's order, so that a PDF reader's text layer (`pdftotext
//! -raw`, copy and search) reads it in that order.

use super::font;
use super::scene::{Anchor, Color, Item, Scene, Stroke, Text};
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point};
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, FillRule, StrokeDash};
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::Document;

fn paint(c: Color) -> krilla::paint::Paint {
    rgb::Color::new(c.0, c.1, c.2).into()
}

fn fill(c: Color, opacity: f32) -> Fill {
    Fill {
        paint: paint(c),
        opacity: NormalizedF32::new(opacity).unwrap_or(NormalizedF32::ONE),
        rule: FillRule::NonZero,
    }
}

fn stroke(s: &Stroke) -> krilla::paint::Stroke {
    krilla::paint::Stroke {
        paint: paint(s.color),
        width: s.width,
        dash: s.dash.map(|d| StrokeDash {
            array: vec![d, d * 0.7],
            offset: 0.0,
        }),
        ..Default::default()
    }
}

/// The two faces, loaded once per document.
struct Fonts {
    regular: Font,
    bold: Font,
}

/// Draws one item on `surface`.
fn draw(surface: &mut krilla::surface::Surface, fonts: &Fonts, item: &Item) {
    let mut path = PathBuilder::new();
    let (f, s) = match item {
        Item::Rect {
            x,
            y,
            w,
            h,
            fill: fl,
            stroke: st,
        } => {
            path.move_to(*x, *y);
            path.line_to(x + w, *y);
            path.line_to(x + w, y + h);
            path.line_to(*x, y + h);
            path.close();
            (fl.map(|c| fill(c, 1.0)), st.as_ref().map(stroke))
        }
        Item::Line {
            from,
            to,
            stroke: st,
        } => {
            path.move_to(from.0, from.1);
            path.line_to(to.0, to.1);
            (None, Some(stroke(st)))
        }
        Item::Circle {
            cx,
            cy,
            r,
            fill: fl,
            stroke: st,
        } => {
            // Four cubic arcs (the usual 0.5523 approximation).
            let k = 0.552_284_8 * r;
            path.move_to(cx + r, *cy);
            path.cubic_to(cx + r, cy + k, cx + k, cy + r, *cx, cy + r);
            path.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, *cy);
            path.cubic_to(cx - r, cy - k, cx - k, cy - r, *cx, cy - r);
            path.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, *cy);
            path.close();
            (fl.map(|c| fill(c, 1.0)), st.as_ref().map(stroke))
        }
        Item::Curve {
            from,
            ctrl,
            to,
            stroke: st,
        } => {
            path.move_to(from.0, from.1);
            path.quad_to(ctrl.0, ctrl.1, to.0, to.1);
            (None, Some(stroke(st)))
        }
        Item::Polygon { points, fill: fl } => {
            for (i, p) in points.iter().enumerate() {
                if i == 0 {
                    path.move_to(p.0, p.1);
                } else {
                    path.line_to(p.0, p.1);
                }
            }
            path.close();
            (Some(fill(*fl, 1.0)), None)
        }
        Item::Text(t) => {
            draw_text(surface, fonts, t);
            return;
        }
    };
    let Some(path) = path.finish() else { return };
    if f.is_none() && s.is_none() {
        return;
    }
    surface.set_fill(f);
    surface.set_stroke(s);
    surface.draw_path(&path);
}

fn draw_text(surface: &mut krilla::surface::Surface, fonts: &Fonts, t: &Text) {
    let layout = font::layout(&t.text, t.bold);
    if layout.is_empty() {
        return;
    }
    let width: f32 = layout.iter().map(|g| g.advance).sum::<f32>() * t.size;
    let x = match t.anchor {
        Anchor::Start => t.x,
        Anchor::Middle => t.x - width / 2.0,
        Anchor::End => t.x - width,
    };
    let glyphs: Vec<KrillaGlyph> = layout
        .into_iter()
        .map(|g| KrillaGlyph::new(GlyphId::new(g.id), g.advance, 0.0, 0.0, 0.0, g.range, None))
        .collect();
    let face = if t.bold { &fonts.bold } else { &fonts.regular };
    surface.set_stroke(None);
    surface.set_fill(Some(fill(t.color, if t.hidden { 0.0 } else { 1.0 })));
    surface.draw_glyphs(
        Point::from_xy(x, t.y),
        &glyphs,
        face.clone(),
        &t.text,
        t.size,
        false,
    );
}

/// The PDF of `pages`, one page per scene at the scene's size (points),
/// with `title` in its metadata.
///
/// Errors: a page of zero or negative size, the embedded font unreadable
/// (a broken build), or krilla's own failure to write the file; the
/// message says which.
pub fn document(pages: &[Scene], title: &str) -> Result<Vec<u8>, String> {
    let fonts = Fonts {
        regular: Font::new(font::REGULAR.into(), 0)
            .ok_or("the embedded regular font is unreadable")?,
        bold: Font::new(font::BOLD.into(), 0).ok_or("the embedded bold font is unreadable")?,
    };
    let mut doc = Document::new();
    doc.set_metadata(
        krilla::metadata::Metadata::new()
            .title(title.to_string())
            .creator(format!("sudoflow {}", env!("CARGO_PKG_VERSION"))),
    );
    for (n, scene) in pages.iter().enumerate() {
        let settings = PageSettings::from_wh(scene.width, scene.height).ok_or_else(|| {
            format!(
                "page {} has no size ({} x {} points)",
                n + 1,
                scene.width,
                scene.height
            )
        })?;
        let mut page = doc.start_page_with(settings);
        let mut surface = page.surface();
        for item in &scene.items {
            draw(&mut surface, &fonts, item);
        }
        surface.finish();
        page.finish();
    }
    doc.finish()
        .map_err(|e| format!("cannot write the PDF: {e:?}"))
}
