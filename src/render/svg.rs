//! A [`Scene`] as an SVG document (SVG 1.1, no scripts, no external
//! references): one user unit per point.

use super::font;
use super::scene::{Anchor, Item, Scene, Stroke};
use std::fmt::Write as _;

/// A number as SVG writes it: at most two decimals, no trailing zeros.
fn num(x: f32) -> String {
    let r = (x * 100.0).round() / 100.0;
    let mut s = format!("{r:.2}");
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    if s == "-0" {
        s = "0".into();
    }
    s
}

/// `text` with `&`, `<`, `>` and `"` escaped for XML.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

fn stroke_attrs(s: &mut String, stroke: Option<&Stroke>) {
    match stroke {
        None => s.push_str(" stroke=\"none\""),
        Some(st) => {
            let _ = write!(
                s,
                " stroke=\"{}\" stroke-width=\"{}\"",
                st.color.hex(),
                num(st.width)
            );
            if let Some(d) = st.dash {
                let _ = write!(s, " stroke-dasharray=\"{} {}\"", num(d), num(d * 0.7));
            }
        }
    }
}

/// The SVG elements of `scene`'s items, without the `<svg>` element around
/// them.
pub fn body(scene: &Scene) -> String {
    let mut s = String::with_capacity(scene.items.len() * 48);
    for item in &scene.items {
        match item {
            Item::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let _ = write!(
                    s,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"",
                    num(*x),
                    num(*y),
                    num(*w),
                    num(*h),
                    fill.map_or("none".to_string(), |c| c.hex())
                );
                stroke_attrs(&mut s, stroke.as_ref());
                s.push_str("/>");
            }
            Item::Line { from, to, stroke } => {
                let _ = write!(
                    s,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"",
                    num(from.0),
                    num(from.1),
                    num(to.0),
                    num(to.1)
                );
                stroke_attrs(&mut s, Some(stroke));
                s.push_str("/>");
            }
            Item::Circle {
                cx,
                cy,
                r,
                fill,
                stroke,
            } => {
                let _ = write!(
                    s,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"",
                    num(*cx),
                    num(*cy),
                    num(*r),
                    fill.map_or("none".to_string(), |c| c.hex())
                );
                stroke_attrs(&mut s, stroke.as_ref());
                s.push_str("/>");
            }
            Item::Curve {
                from,
                ctrl,
                to,
                stroke,
            } => {
                let _ = write!(
                    s,
                    "<path d=\"M{} {}Q{} {} {} {}\" fill=\"none\"",
                    num(from.0),
                    num(from.1),
                    num(ctrl.0),
                    num(ctrl.1),
                    num(to.0),
                    num(to.1)
                );
                stroke_attrs(&mut s, Some(stroke));
                s.push_str("/>");
            }
            Item::Polygon { points, fill } => {
                s.push_str("<polygon points=\"");
                for (i, p) in points.iter().enumerate() {
                    if i > 0 {
                        s.push(' ');
                    }
                    let _ = write!(s, "{},{}", num(p.0), num(p.1));
                }
                let _ = write!(s, "\" fill=\"{}\"/>", fill.hex());
            }
            Item::Text(t) => {
                let _ = write!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"{}\"",
                    num(t.x),
                    num(t.y),
                    num(t.size)
                );
                if t.bold {
                    s.push_str(" font-weight=\"bold\"");
                }
                if t.color != super::scene::Color::BLACK {
                    let _ = write!(s, " fill=\"{}\"", t.color.hex());
                }
                match t.anchor {
                    Anchor::Start => {}
                    Anchor::Middle => s.push_str(" text-anchor=\"middle\""),
                    Anchor::End => s.push_str(" text-anchor=\"end\""),
                }
                if t.hidden {
                    s.push_str(" fill-opacity=\"0\"");
                }
                let _ = write!(s, ">{}</text>", escape(&t.text));
            }
        }
        s.push('\n');
    }
    s
}

/// The opening `<svg>` tag of `scene`: its size, the embedded font's family
/// first, a white background; with `namespace`, the SVG namespace (a file
/// needs it, an SVG inside HTML does not).
pub fn open_tag(scene: &Scene, namespace: bool, extra: &str) -> String {
    format!(
        "<svg{} width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" font-family=\"{}\"{}>\n",
        if namespace {
            " xmlns=\"http://www.w3.org/2000/svg\""
        } else {
            ""
        },
        num(scene.width),
        num(scene.height),
        num(scene.width),
        num(scene.height),
        font::SVG_FAMILIES,
        extra
    )
}

/// `scene` as a standalone SVG document.
pub fn document(scene: &Scene) -> String {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.push_str(&open_tag(scene, true, ""));
    let _ = writeln!(
        s,
        "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(scene.width),
        num(scene.height)
    );
    s.push_str(&body(scene));
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::scene::{Color, Scene};

    #[test]
    fn numbers_and_escapes() {
        assert_eq!(num(1.0), "1");
        assert_eq!(num(1.25), "1.25");
        assert_eq!(num(-0.001), "0");
        assert_eq!(num(3.10), "3.1");
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        let mut scene = Scene::new(10.0, 10.0);
        scene.text(1.0, 2.0, 3.0, "<x>", true, Color::BLACK, Anchor::Middle);
        let doc = document(&scene);
        assert!(doc.contains("font-weight=\"bold\" text-anchor=\"middle\">&lt;x&gt;</text>"));
    }
}
