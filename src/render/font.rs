//! The font every picture and book uses: Bitstream Vera Sans (regular and
//! bold), embedded in the binary from `assets/fonts/` (its licence,
//! `assets/fonts/LICENSE`, allows redistribution unmodified). PDFs embed
//! the subset of its glyphs they use; SVG names its family first, with
//! common look-alikes after it for viewers without it.
//!
//! Text is laid out without shaping: each character's glyph from the
//! font's character map and its advance width (skrifa reads both), which
//! is exact for the digits and Latin captions drawn here (Vera has no
//! ligatures or marks that shaping would change; kerning is left out).

use skrifa::instance::{LocationRef, Size};
use skrifa::{FontRef, MetadataProvider};

/// Bitstream Vera Sans, regular (TrueType).
pub const REGULAR: &[u8] = include_bytes!("../../assets/fonts/Vera.ttf");
/// Bitstream Vera Sans, bold (TrueType).
pub const BOLD: &[u8] = include_bytes!("../../assets/fonts/VeraBd.ttf");
/// The family name in the font files.
pub const FAMILY: &str = "Bitstream Vera Sans";
/// The `font-family` SVG pictures give: the embedded font's family, then
/// look-alikes.
pub const SVG_FAMILIES: &str = "'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif";

/// The font data of the regular or bold face.
pub fn data(bold: bool) -> &'static [u8] {
    if bold {
        BOLD
    } else {
        REGULAR
    }
}

/// One glyph of a laid-out text.
#[derive(Debug, Clone, PartialEq)]
pub struct Glyph {
    /// The glyph's id in the font.
    pub id: u32,
    /// Its advance in ems (a fraction of the font size).
    pub advance: f32,
    /// The bytes of the text it draws.
    pub range: std::ops::Range<usize>,
}

/// The glyphs of `text` in the regular or bold face: each character's
/// glyph, or the font's `?` for a character it lacks (glyph 0, the empty
/// box, if it lacks that too).
pub fn layout(text: &str, bold: bool) -> Vec<Glyph> {
    let Ok(font) = FontRef::new(data(bold)) else {
        return Vec::new();
    };
    let charmap = font.charmap();
    let metrics = font.glyph_metrics(Size::unscaled(), LocationRef::default());
    let upem = f32::from(
        font.metrics(Size::unscaled(), LocationRef::default())
            .units_per_em,
    );
    let fallback = charmap.map('?').unwrap_or_default();
    text.char_indices()
        .map(|(i, c)| {
            let id = charmap.map(c).unwrap_or(fallback);
            Glyph {
                id: id.to_u32(),
                advance: metrics.advance_width(id).unwrap_or(0.0) / upem,
                range: i..i + c.len_utf8(),
            }
        })
        .collect()
}

/// The width of `text` at `size` points.
pub fn width(text: &str, size: f32, bold: bool) -> f32 {
    layout(text, bold).iter().map(|g| g.advance).sum::<f32>() * size
}

/// `text` cut to at most `max` points wide at `size`, ending in `...` when
/// cut.
pub fn fit(text: &str, size: f32, bold: bool, max: f32) -> String {
    if width(text, size, bold) <= max {
        return text.to_string();
    }
    let room = max - width("...", size, bold);
    let mut used = 0.0;
    let mut end = 0;
    for g in layout(text, bold) {
        used += g.advance * size;
        if used > room {
            break;
        }
        end = g.range.end;
    }
    format!("{}...", text[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_have_one_width_and_text_fits() {
        let w1 = width("1", 10.0, false);
        assert!(w1 > 4.0 && w1 < 8.0, "{w1}");
        for d in '0'..='9' {
            assert!((width(&d.to_string(), 10.0, false) - w1).abs() < 1e-4);
        }
        assert!(width("1", 10.0, true) > w1);
        let long = "Dynamic Contradiction Forcing Chains and more";
        let cut = fit(long, 10.0, false, 100.0);
        assert!(
            cut.ends_with("...") && width(&cut, 10.0, false) <= 100.0,
            "{cut}"
        );
        assert_eq!(fit("r1c2", 10.0, false, 100.0), "r1c2");
        // A character the font lacks is drawn as '?', not lost.
        assert_eq!(layout("\u{2192}", false).len(), 1);
    }
}
