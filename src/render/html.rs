//! One self-contained HTML page explaining a puzzle: the puzzle, its
//! rating, the list of steps, and the picture of each step
//! ([`super::step::picture`], inline SVG), one shown at a time. The arrow
//! keys (or clicks on the list) move between steps; `#step-N` in the
//! address opens step N. The page loads nothing: no scripts, styles, fonts
//! or images from elsewhere (the font is in it, as data: URLs).

use super::scene::Scene;
use super::step::{self, colors, Step};
use super::svg;
use crate::grid::Grid;
use crate::rating::se::Rating;
use std::fmt::Write as _;

const STYLE: &str = "
body { font-family: 'Bitstream Vera Sans', 'DejaVu Sans', Verdana, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin: 0 0 .3em; }
.puzzle { font-family: 'DejaVu Sans Mono', monospace; font-size: .85em; word-break: break-all; color: #444; }
.summary { margin: .2em 0 1em; }
main { display: flex; gap: 1.5em; align-items: flex-start; }
nav { position: relative; max-height: 62vh; overflow-y: auto; min-width: 22em; border: 1px solid #ccc; }
nav ol { margin: 0; padding: 0; list-style: none; }
nav li { padding: .15em .6em; cursor: pointer; white-space: nowrap; font-size: .9em; }
nav li:hover { background: #eef; }
nav li.current { background: #1f4ea8; color: #fff; }
nav .num { display: inline-block; width: 2.4em; text-align: right; margin-right: .6em; }
nav .rating { display: inline-block; width: 2.4em; font-weight: bold; }
figure { margin: 0; }
figure.puzzle-grid svg { width: 190px; height: auto; margin-bottom: .5em; }
figure.step svg { width: 100%; max-width: 640px; height: auto; }
#view { flex: 1; max-width: 640px; }
.help { color: #666; font-size: .85em; }
";

const SCRIPT: &str = "
(function () {
  var figs = Array.prototype.slice.call(document.querySelectorAll('figure.step'));
  var items = Array.prototype.slice.call(document.querySelectorAll('#steps li'));
  var current = -1;
  function show(i) {
    if (!figs.length) return;
    i = Math.max(0, Math.min(figs.length - 1, i));
    figs.forEach(function (f, k) { f.hidden = k !== i; });
    items.forEach(function (li, k) { li.classList.toggle('current', k === i); });
    current = i;
    document.body.setAttribute('data-step', String(i + 1));
    try { history.replaceState(null, '', '#step-' + (i + 1)); } catch (e) {}
    var nav = document.querySelector('nav'), li = items[i];
    if (nav && li) {
      if (li.offsetTop < nav.scrollTop) nav.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > nav.scrollTop + nav.clientHeight)
        nav.scrollTop = li.offsetTop + li.offsetHeight - nav.clientHeight;
    }
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') { show(current + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') { show(current - 1); e.preventDefault(); }
    else if (e.key === 'Home') { show(0); e.preventDefault(); }
    else if (e.key === 'End') { show(figs.length - 1); e.preventDefault(); }
  });
  items.forEach(function (li, k) { li.addEventListener('click', function () { show(k); }); });
  var m = /^#step-(\\d+)$/.exec(location.hash);
  show(m ? Number(m[1]) - 1 : Number(document.body.getAttribute('data-start')) - 1);
})();
";

/// The page's `@font-face` rules: the embedded font's two faces as
/// data: URLs, so that the page looks the same on every machine and still
/// loads nothing.
fn font_faces() -> String {
    use base64::Engine as _;
    let b64 = |data: &[u8]| base64::engine::general_purpose::STANDARD.encode(data);
    format!(
        "@font-face {{ font-family: '{f}'; font-weight: normal; src: url(data:font/ttf;base64,{}) format('truetype'); }}\n\
         @font-face {{ font-family: '{f}'; font-weight: bold; src: url(data:font/ttf;base64,{}) format('truetype'); }}\n",
        b64(super::font::REGULAR),
        b64(super::font::BOLD),
        f = super::font::FAMILY
    )
}

/// An inline SVG (no namespace needed inside HTML) of `scene`.
fn inline_svg(scene: &Scene, label: &str) -> String {
    let mut s = svg::open_tag(
        scene,
        false,
        &format!(" role=\"img\" aria-label=\"{}\"", svg::escape(label)),
    );
    s.push_str(&svg::body(scene));
    s.push_str("</svg>");
    s
}

/// The page explaining `puzzle`, rated `rating` with `steps`
/// ([`step::steps`]); it opens at step `start` (1-based, clamped).
pub fn page(puzzle: &Grid, rating: &Rating, steps: &[Step], start: usize) -> String {
    let line = puzzle.to_line();
    let label = crate::rating::labels::label(rating.er);
    let mut h = String::with_capacity(20_000 + steps.len() * 16_000);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>Sudoku explained: ER {} {}</title>\n<style>\n{}{STYLE}</style>\n</head>\n\
         <body data-start=\"{}\">\n",
        Rating::format(rating.er),
        label,
        font_faces(),
        start.clamp(1, steps.len().max(1))
    );
    let _ = writeln!(h, "<header>\n<h1>Sudoku explained</h1>");
    let _ = writeln!(h, "<p class=\"puzzle\">{}</p>", svg::escape(&line));
    let _ = write!(
        h,
        "<p class=\"summary\">ER <b>{}</b> ({label}), EP {}, ED {}; {} steps",
        Rating::format(rating.er),
        Rating::format(rating.ep),
        Rating::format(rating.ed),
        steps.len()
    );
    if !steps.is_empty() {
        let _ = write!(
            h,
            "; the hardest is step {}, {}",
            rating.hardest + 1,
            svg::escape(&rating.technique)
        );
    }
    let _ = writeln!(
        h,
        ". Ratings on Sudoku Explainer 1.2.1.3's scale.</p>\n</header>"
    );

    // The puzzle itself, small, beside the list.
    let mut grid = Scene::new(9.0 * 20.0 + 4.0, 9.0 * 20.0 + 4.0);
    super::grid::draw(&mut grid, 2.0, 2.0, 20.0, puzzle.cells(), None);
    let _ = writeln!(
        h,
        "<main>\n<div>\n<figure class=\"puzzle-grid\">{}</figure>",
        inline_svg(&grid, "the puzzle")
    );
    let _ = writeln!(h, "<nav aria-label=\"steps\"><ol id=\"steps\">");
    for st in steps {
        let result = st.result();
        let shown = if result.len() > 3 {
            format!("{}, ... ({} in all)", result[..2].join(", "), result.len())
        } else {
            result.join(", ")
        };
        let _ = writeln!(
            h,
            "<li data-step=\"{n}\"><span class=\"num\">{n}</span><span class=\"rating\">{}</span> {} <small>{}</small></li>",
            crate::rating::se::Rating::format(st.rating),
            svg::escape(&st.technique),
            svg::escape(&shown),
            n = st.number,
        );
    }
    let _ = writeln!(h, "</ol></nav>\n</div>\n<section id=\"view\">");
    let givens = puzzle.cells();
    for st in steps {
        let scene = step::picture(st, givens, steps.len());
        let _ = writeln!(
            h,
            "<figure class=\"step\" id=\"picture-{n}\" data-step=\"{n}\"{}>{}</figure>",
            if st.number == start { "" } else { " hidden" },
            inline_svg(&scene, &format!("step {}: {}", st.number, st.technique)),
            n = st.number,
        );
    }
    let _ = writeln!(
        h,
        "<p class=\"help\">&larr; &rarr; (or &uarr; &darr;): previous / next step; Home, End: \
         first / last. Shaded <span style=\"background:{}\">&nbsp;cells&nbsp;</span>: the \
         pattern; <span style=\"color:{}\">struck red</span>: candidates removed; \
         <span style=\"color:{}\">ringed green</span>: the value placed; arrows: the chain, \
         solid <span style=\"color:{}\">strong links</span> (the candidate it points to must \
         be true), dashed <span style=\"color:{}\">weak links</span> (it must be false).</p>",
        colors::PATTERN.hex(),
        colors::REMOVED.hex(),
        colors::PLACED.hex(),
        colors::STRONG.hex(),
        colors::WEAK.hex(),
    );
    let _ = writeln!(
        h,
        "</section>\n</main>\n<script>{SCRIPT}</script>\n</body>\n</html>"
    );
    h
}
