//! `explain --format svg|html` through the binary, as a user runs it: the
//! SVG rasterised (resvg, with the embedded font) and its pixels checked
//! where the cells, candidates and marks must be; the HTML page checked for
//! outside references, and run in headless Chromium (Debian's `chromium`,
//! installed by `make test-tools`): its arrow keys, and a screenshot.
//! The link styles are checked on a made-up step drawn through the
//! library too.

use assert_cmd::Command;
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg;
use std::path::Path;
use sudoflow::render::scene::Color;
use sudoflow::render::step::{self, colors, layout, Implication, Potential, Step};

/// ER 4.2: step 37 is an XY-Wing removing r3c4<>2; step 1 places r6c1=1.
const PUZZLE: &str =
    ".19...43....97.....8...36..9..7..8....3...1....4..9..3..14...6.....86....28...34.";

fn sudoflow() -> Command {
    Command::cargo_bin("sudoflow").unwrap()
}

/// `text` (an SVG document) rasterised at `scale` pixels per point, text in
/// the embedded Bitstream Vera Sans only (no system fonts).
fn rasterise(text: &str, scale: f32) -> Pixmap {
    let mut opt = usvg::Options {
        font_family: sudoflow::render::font::FAMILY.to_string(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut()
        .load_font_data(sudoflow::render::font::REGULAR.to_vec());
    opt.fontdb_mut()
        .load_font_data(sudoflow::render::font::BOLD.to_vec());
    let tree = usvg::Tree::from_str(text, &opt).expect("the SVG parses");
    let size = tree.size();
    let mut pixmap = Pixmap::new(
        (size.width() * scale).ceil() as u32,
        (size.height() * scale).ceil() as u32,
    )
    .unwrap();
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
}

/// How many pixels in the box (points, scaled) are within `tol` of `c`.
fn count(p: &Pixmap, scale: f32, (x, y, w, h): (f32, f32, f32, f32), c: Color, tol: i32) -> usize {
    let mut n = 0;
    for py in (y * scale) as u32..((y + h) * scale) as u32 {
        for px in (x * scale) as u32..((x + w) * scale) as u32 {
            let Some(q) = p.pixel(px, py) else { continue };
            let q = q.demultiply();
            if (q.red() as i32 - c.0 as i32).abs() <= tol
                && (q.green() as i32 - c.1 as i32).abs() <= tol
                && (q.blue() as i32 - c.2 as i32).abs() <= tol
                && q.alpha() > 200
            {
                n += 1;
            }
        }
    }
    n
}

/// Dark pixels (any colour darker than mid grey) in the box.
fn ink(p: &Pixmap, scale: f32, (x, y, w, h): (f32, f32, f32, f32)) -> usize {
    let mut n = 0;
    for py in (y * scale) as u32..((y + h) * scale) as u32 {
        for px in (x * scale) as u32..((x + w) * scale) as u32 {
            let q = p.pixel(px, py).unwrap().demultiply();
            if (q.red() as u32 + q.green() as u32 + q.blue() as u32) < 300 {
                n += 1;
            }
        }
    }
    n
}

/// The box of candidate `d` of `cell` (row-major), in points.
fn candidate_box(cell: usize, d: u8) -> (f32, f32, f32, f32) {
    let (cx, cy) = layout::candidate_centre(cell, d);
    let h = layout::CELL / 6.0;
    (cx - h, cy - h, 2.0 * h, 2.0 * h)
}

/// The inner part of a cell's box (away from the grid lines), in points.
fn cell_box(cell: usize) -> (f32, f32, f32, f32) {
    let (x, y) = layout::cell_origin(cell);
    (x + 3.0, y + 3.0, layout::CELL - 6.0, layout::CELL - 6.0)
}

fn cell(r: usize, c: usize) -> usize {
    (r - 1) * 9 + c - 1
}

#[test]
fn svg_of_the_hardest_step_shows_the_removed_candidate_struck_in_red() {
    let out = sudoflow()
        .args(["explain", PUZZLE, "--format", "svg"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("<?xml") && text.trim_end().ends_with("</svg>"));
    assert!(
        text.contains("XY-Wing") && text.contains("Step 37 of 56"),
        "the title names the step"
    );
    let scale = 2.0;
    let p = rasterise(&text, scale);
    assert_eq!(p.width(), (layout::WIDTH * scale).ceil() as u32);
    // r3c4<>2: red pixels on candidate 2 of r3c4, none on its other
    // candidates, and none on a candidate that stays.
    let r3c4 = cell(3, 4);
    assert!(count(&p, scale, candidate_box(r3c4, 2), colors::REMOVED, 60) > 20);
    for d in [1, 3, 4, 5, 6, 7, 8, 9] {
        assert_eq!(
            count(&p, scale, candidate_box(r3c4, d), colors::REMOVED, 60),
            0,
            "digit {d}"
        );
    }
    // A given (r1c2 = 1) is big and black; an empty cell's inside has grey
    // candidates, no black; no cell is shaded green (nothing is placed).
    assert!(ink(&p, scale, cell_box(cell(1, 2))) > 150);
    assert!(count(&p, scale, cell_box(cell(1, 2)), colors::GIVEN, 10) > 100);
    assert_eq!(count(&p, scale, cell_box(r3c4), colors::GIVEN, 10), 0);
    let mut green = 0;
    for c in 0..81 {
        green += count(&p, scale, cell_box(c), colors::PLACED_CELL, 6);
    }
    assert_eq!(green, 0);
    // The XY-Wing's cells, as SE's hint names them, are shaded: the pivot
    // r1c5 and the pincers r1c9 and r3c8; no other cell is.
    for c in 0..81 {
        let shaded = count(&p, scale, cell_box(c), colors::PATTERN, 6) > 400;
        assert_eq!(
            shaded,
            [cell(1, 5), cell(1, 9), cell(3, 8)].contains(&c),
            "cell {c}"
        );
    }
}

#[test]
fn a_forcing_chain_is_drawn_as_arrows_on_its_candidates() {
    // ER 7.2: the hardest step is a Forcing Chain.
    let puzzle =
        "8...5.......4..278....32..45.4...1.....923............92.5.7....78...53.....6....";
    let out = sudoflow()
        .args(["explain", puzzle, "--format", "svg"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Forcing Chain"), "{}", &text[..400]);
    // Arrows: curves with heads, both kinds of link, and the legend's keys.
    assert!(text.matches("<path d=\"M").count() >= 4);
    assert!(text.contains("strong link") && text.contains("weak link"));
    let scale = 2.0;
    let p = rasterise(&text, scale);
    let grid = (
        layout::LEFT,
        layout::TOP,
        9.0 * layout::CELL,
        9.0 * layout::CELL,
    );
    assert!(
        count(&p, scale, grid, colors::STRONG, 30) > 50,
        "no strong link drawn"
    );
    assert!(
        count(&p, scale, grid, colors::WEAK, 30) > 50,
        "no weak link drawn"
    );
    assert!(
        count(&p, scale, grid, colors::ON, 8) > 50,
        "no candidate marked on"
    );
    assert!(
        count(&p, scale, grid, colors::OFF, 8) > 50,
        "no candidate marked off"
    );
}

#[test]
fn svg_of_a_placing_step_shades_the_cell_and_rings_the_digit() {
    let out = sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "--step", "1"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("r6c1=1"));
    let scale = 2.0;
    let p = rasterise(&text, scale);
    let r6c1 = cell(6, 1);
    // The cell is shaded green, candidate 1 ringed and drawn in green.
    assert!(count(&p, scale, cell_box(r6c1), colors::PLACED_CELL, 6) > 400);
    assert!(count(&p, scale, candidate_box(r6c1, 1), colors::PLACED, 40) > 20);
    // Another cell is not.
    assert_eq!(
        count(&p, scale, cell_box(cell(6, 2)), colors::PLACED_CELL, 6),
        0
    );
}

#[test]
fn svg_steps_to_a_directory_and_bad_steps() {
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps");
    sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "-o"])
        .arg(&steps)
        .assert()
        .success()
        .stderr(predicates::str::contains("wrote 56 pictures"));
    let mut names: Vec<String> = std::fs::read_dir(&steps)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 56);
    assert_eq!(names[0], "step-001.svg");
    assert_eq!(names[55], "step-056.svg");
    let s37 = std::fs::read_to_string(steps.join("step-037.svg")).unwrap();
    assert!(s37.contains("XY-Wing"));
    // No file is left half-written.
    assert!(!names.iter().any(|n| n.ends_with(".partial")));
    // A shorter path drawn to the same directory: the pictures past its
    // last step are removed (they read as its own before), and said so.
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    sudoflow()
        .args(["explain", easy, "--format", "svg", "-o"])
        .arg(&steps)
        .assert()
        .success()
        .stderr(predicates::str::contains("pictures left by an earlier run"));
    let left = std::fs::read_dir(&steps).unwrap().count();
    let drawn = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["explain", easy, "--format", "json"])
        .output()
        .unwrap()
        .stdout;
    let drawn: serde_json::Value = serde_json::from_slice(&drawn).unwrap();
    assert_eq!(left, drawn["steps"].as_array().unwrap().len());

    // -o FILE.svg: one picture, the hardest by default.
    let one = dir.path().join("one.svg");
    sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "-o"])
        .arg(&one)
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&one).unwrap(), s37);

    // A step past the path's end is refused, naming the number of steps.
    sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "--step", "57"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--step 57: the path has 56 steps",
        ));
    sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "--step", "0"])
        .assert()
        .code(2);
    // --step belongs to the pictures.
    sudoflow()
        .args(["explain", PUZZLE, "--step", "3"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "--step chooses the step of --format svg or html",
        ));
    // Two puzzles cannot be one picture; a file's first record can.
    sudoflow()
        .args(["explain", PUZZLE, PUZZLE, "--format", "svg"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("draw one puzzle"));
    let list = dir.path().join("list.txt");
    std::fs::write(&list, format!("# a comment\n{PUZZLE}\n{PUZZLE}\n")).unwrap();
    let from_file = sudoflow()
        .args(["explain", "--format", "svg"])
        .arg(&list)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(String::from_utf8(from_file).unwrap(), s37);
    // -p PUZZLE, as every command takes one puzzle; not beside an input.
    sudoflow()
        .args(["explain", "--format", "svg", "-p", PUZZLE])
        .assert()
        .success()
        .stdout(s37.clone());
    sudoflow()
        .args(["explain", "--format", "svg", "-p", PUZZLE])
        .arg(&list)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with"));
    // A puzzle without a path is refused with the text form's message.
    let unsolvable = format!("12345678.........9{}", ".".repeat(63));
    let text = sudoflow().args(["explain", &unsolvable]).assert().code(1);
    let want = String::from_utf8(text.get_output().stderr.clone()).unwrap();
    assert!(want.contains("no solution: r1c9"), "{want}");
    sudoflow()
        .args(["explain", &unsolvable, "--format", "svg"])
        .assert()
        .code(1)
        .stderr(want);
    // A solved grid has no step to draw.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    sudoflow()
        .args(["explain", solved, "--format", "svg"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no step to draw"));
}

/// A made-up step with a pattern and a chain: strong links into r1c1=5 and
/// r5c5=5, weak ones out of them.
fn chained_step() -> Step {
    let p = |cell: usize, digit: u8, on: bool| Potential {
        cell: cell as u8,
        digit,
        on,
    };
    let mut candidates = [0u16; 81];
    for c in candidates.iter_mut() {
        *c = 0b11_1111_1110;
    }
    Step {
        number: 3,
        technique: "Forcing Chain".into(),
        rating: 7.1,
        placed: None,
        removed: vec![(cell(9, 9) as u8, 5)],
        cells: vec![cell(1, 1) as u8, cell(2, 2) as u8],
        chains: vec![vec![
            Implication {
                causes: vec![p(cell(1, 1), 5, true)],
                effect: p(cell(1, 9), 5, false),
            },
            Implication {
                causes: vec![p(cell(1, 9), 5, false)],
                effect: p(cell(9, 9), 5, true),
            },
        ]],
        values: [0; 81],
        candidates,
    }
}

#[test]
fn chains_are_arrows_strong_solid_blue_weak_dashed_orange_and_the_pattern_shaded() {
    let st = chained_step();
    let text = sudoflow::render::svg::document(&step::picture(&st, &[0; 81], 10));
    // The weak link is dashed, the strong one is not.
    assert_eq!(
        text.matches("stroke-dasharray").count(),
        2,
        "one weak arrow and its legend key"
    );
    let scale = 2.0;
    let p = rasterise(&text, scale);
    // Shaded pattern cells (r1c1, r2c2), not r3c3.
    assert!(count(&p, scale, cell_box(cell(2, 2)), colors::PATTERN, 6) > 400);
    assert_eq!(
        count(&p, scale, cell_box(cell(3, 3)), colors::PATTERN, 6),
        0
    );
    // The weak link runs along row 1 from c1 to c9 (bent a little):
    // orange in the cells between; the strong link runs down column 9:
    // blue there.
    let row1: usize = (2..=8)
        .map(|c| count(&p, scale, cell_box(cell(1, c)), colors::WEAK, 40))
        .sum();
    let col9: usize = (2..=8)
        .map(|r| count(&p, scale, cell_box(cell(r, 9)), colors::STRONG, 40))
        .sum();
    assert!(row1 > 100, "orange along row 1: {row1}");
    assert!(col9 > 100, "blue along column 9: {col9}");
    // Dashed: the orange line has gaps, the blue one none: in each cell it
    // crosses, the strong link's pixels are near a full line's.
    let cells_with_orange = (2..=8)
        .filter(|&c| count(&p, scale, cell_box(cell(1, c)), colors::WEAK, 40) > 0)
        .count();
    assert!(cells_with_orange >= 5);
    // No arrow crosses an unrelated area (bottom-left block).
    for c in [cell(8, 2), cell(9, 1)] {
        assert_eq!(count(&p, scale, cell_box(c), colors::STRONG, 40), 0);
        assert_eq!(count(&p, scale, cell_box(c), colors::WEAK, 40), 0);
    }
    // The candidates of the chain sit on discs: on (r1c1 5) green, off
    // (r1c9 5) orange.
    assert!(count(&p, scale, candidate_box(cell(1, 1), 5), colors::ON, 8) > 10);
    assert!(count(&p, scale, candidate_box(cell(1, 9), 5), colors::OFF, 8) > 10);
}

/// Path of Debian's Chromium, or a failure saying how to install it.
fn chromium() -> std::path::PathBuf {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        if let Ok(out) = std::process::Command::new("which").arg(name).output() {
            if out.status.success() {
                return String::from_utf8_lossy(&out.stdout).trim().into();
            }
        }
    }
    panic!("headless Chromium is needed for the HTML page's test: `make test-tools` installs it (Debian's chromium)");
}

/// Runs headless Chromium on `page` with `args`; its stdout.
fn run_chromium(page: &Path, profile: &Path, args: &[&str], fragment: &str) -> String {
    let out = std::process::Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--no-first-run",
            "--disable-dev-shm-usage",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}{fragment}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn html_page_is_self_contained_moves_with_the_arrow_keys_and_shows_the_step() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    sudoflow()
        .args(["explain", PUZZLE, "--format", "html", "--step", "1", "-o"])
        .arg(&page)
        .assert()
        .success();
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: nothing fetched from elsewhere.
    for bad in [
        "http://", "https://", "src=\"", "<link", "@import", "<img", "<iframe",
    ] {
        assert!(!html.contains(bad), "the page refers to {bad}");
    }
    // Its font is in it: every url() is a data: URL.
    assert_eq!(html.matches("url(").count(), 2);
    assert_eq!(html.matches("url(data:font/ttf;base64,").count(), 2);
    assert_eq!(html.matches("<figure class=\"step\"").count(), 56);
    assert_eq!(html.matches("<li data-step=").count(), 56);
    assert!(html.contains("ER <b>4.2</b> (Fiendish)"));

    // The arrow keys: from step 1, right, right, left, down: step 3; End:
    // the last; Home then left: the first (no step 0).
    let keys = |keys: &[&str]| -> String {
        let script = keys
            .iter()
            .map(|k| {
                format!("document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}'}}));")
            })
            .collect::<String>();
        let probe = dir.path().join("probe.html");
        std::fs::write(
            &probe,
            html.replace("</body>", &format!("<script>{script}</script></body>")),
        )
        .unwrap();
        run_chromium(&probe, &dir.path().join("profile"), &["--dump-dom"], "")
    };
    let visible = |dom: &str| -> Vec<String> {
        dom.split("<figure class=\"step\"")
            .skip(1)
            .filter(|f| !f[..f.find('>').unwrap()].contains("hidden"))
            .map(|f| {
                let at = f.find("data-step=\"").unwrap() + 11;
                f[at..at + f[at..].find('"').unwrap()].to_string()
            })
            .collect()
    };
    assert_eq!(visible(&keys(&[])), ["1"]);
    assert_eq!(
        visible(&keys(&[
            "ArrowRight",
            "ArrowRight",
            "ArrowLeft",
            "ArrowDown"
        ])),
        ["3"]
    );
    assert_eq!(visible(&keys(&["End"])), ["56"]);
    assert_eq!(
        visible(&keys(&["ArrowRight", "Home", "ArrowLeft", "ArrowUp"])),
        ["1"]
    );

    // A screenshot at #step-37 (the XY-Wing): the struck candidate's red
    // and the current step's highlight in the list are on screen.
    let shot = dir.path().join("shot.png");
    run_chromium(
        &page,
        &dir.path().join("profile"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,900",
        ],
        "#step-37",
    );
    let png = Pixmap::load_png(&shot).unwrap();
    assert_eq!((png.width(), png.height()), (1200, 900));
    let full = (0.0, 0.0, 1200.0, 900.0);
    // The picture's grid (right of the list, above its legend) holds the
    // red of the struck candidate.
    let grid = (420.0, 220.0, 620.0, 600.0);
    assert!(
        count(&png, 1.0, grid, colors::REMOVED, 50) > 10,
        "no struck candidate in the grid"
    );
    assert!(
        count(&png, 1.0, full, Color(0x1f, 0x4e, 0xa8), 10) > 2000,
        "no highlighted step in the list"
    );
    // The right half (the picture) has the grid's ink.
    assert!(ink(&png, 1.0, (600.0, 150.0, 600.0, 600.0)) > 5000);
}

/// The files of `dir`, sorted, with their bytes.
fn files_of(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let bytes = std::fs::read(e.path()).unwrap();
            (e.file_name().into_string().unwrap(), bytes)
        })
        .collect();
    files.sort();
    files
}

/// A signal while a path's pictures are being written left some of the new
/// pictures and the rest of an earlier run's in the directory (exit 130, no
/// message). Now no picture is replaced until all are written: a stop
/// leaves the earlier set byte for byte, with no partial file, and says so.
#[cfg(unix)]
#[test]
fn a_signal_while_the_pictures_are_written_leaves_the_earlier_ones_whole() {
    let dir = tempfile::tempdir().unwrap();
    let steps = dir.path().join("steps");
    sudoflow()
        .args(["explain", PUZZLE, "--format", "svg", "-o"])
        .arg(&steps)
        .assert()
        .success();
    let before = files_of(&steps);
    assert_eq!(before.len(), 56);
    // Another puzzle's path, each picture written 50 ms after the last (a
    // test hook), stopped once its first picture is on disk.
    let easy = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let child = std::process::Command::new("env")
        .arg("--default-signal")
        .arg(assert_cmd::cargo::cargo_bin("sudoflow"))
        .args(["explain", easy, "--format", "svg", "-o"])
        .arg(&steps)
        .env("SUDOFLOW_TEST_WRITE_DELAY_MS", "50")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first file, written beside its name (`.step-001.svg.XXXXXX.partial`).
    let first = || {
        std::fs::read_dir(&steps).unwrap().any(|e| {
            let name = e.unwrap().file_name().to_string_lossy().into_owned();
            name.starts_with(".step-001.svg.") && name.ends_with(".partial")
        })
    };
    let waiting = std::time::Instant::now();
    while !first() {
        assert!(waiting.elapsed().as_secs() < 60, "no picture written");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: kill(2) on the child started above, not reaped yet.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(
        err.contains("stopped by SIGINT before the pictures were in place: none written"),
        "{err}"
    );
    assert!(files_of(&steps) == before, "the earlier pictures changed");
}
