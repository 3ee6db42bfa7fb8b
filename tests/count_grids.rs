//! `count-grids`: totals for known shapes (SEEDS.md section 5, OEIS A107739)
//! and the 9x9 method's intermediate figures, through the library and the
//! binary. Run optimised: `cargo test --profile ci`.

use assert_cmd::Command;
use sudoflow::counting::grids::{count_grids, factorize, BoxShape};

fn shape(rows: usize, cols: usize) -> BoxShape {
    BoxShape { rows, cols }
}

#[test]
fn four_by_four_has_288_grids() {
    let c = count_grids(shape(2, 2)).unwrap();
    assert_eq!(c.total, 288);
    // 4 completions of the canonical first box: 4! x 4 bands.
    assert_eq!(c.top_band_completions, 4);
    assert_eq!(c.bands, 96);
}

#[test]
fn six_by_six_has_28_200_960_grids_in_both_orientations() {
    let wide = count_grids(shape(2, 3)).unwrap();
    let tall = count_grids(shape(3, 2)).unwrap();
    assert_eq!(wide.total, 28_200_960);
    assert_eq!(tall.total, 28_200_960);
    assert_eq!(wide.counted_as, shape(3, 2));
    assert_eq!(tall.counted_as, shape(3, 2));
}

#[test]
fn eight_by_eight_with_2x4_boxes() {
    let c = count_grids(shape(2, 4)).unwrap();
    assert_eq!(c.total, 29_136_487_207_403_520);
    assert_eq!(c.counted_as, shape(4, 2));
}

#[test]
fn nine_by_nine_total_and_the_seeds_figures() {
    let c = count_grids(BoxShape::CLASSIC).unwrap();
    assert_eq!(c.total, 6_670_903_752_021_072_936_960);
    // Felgenhauer & Jarvis, SEEDS.md section 5.
    assert_eq!(c.top_band_completions, 2_612_736);
    assert_eq!(c.bands, 362_880 * 2_612_736);
    let top = c.top_band.as_ref().expect("9x9 top band is enumerated");
    assert_eq!(top.completions, 2_612_736);
    assert_eq!(top.reduced, 36_288);
    assert_eq!(top.classes_stack_column, 2_051);
    assert_eq!(top.classes_with_rows, 416);
    // The "gang of 44" column-set classes (ALGORITHMS.md section 5).
    assert_eq!(top.column_set_classes, 44);
    assert_eq!(c.column_set_classes, 44);
    assert_eq!((c.lex_factor_top, c.lex_factor_side), (72, 72));
    assert_eq!(c.reduced_total, 3_546_146_300_288);
    assert_eq!(
        factorize(c.reduced_total),
        vec![(2, 7), (27_704_267_971, 1)]
    );
    // Per-class completion sums / 72 (ALGORITHMS.md section 5).
    assert_eq!(
        (c.completions_range.0 / 72, c.completions_range.1 / 72),
        (94_888_576, 108_374_976)
    );
}

#[test]
fn binary_prints_figures_then_the_total_alone_on_the_last_line() {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["count-grids", "-j", "2"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.last(), Some(&"6670903752021072936960"));
    for figure in [
        "2,612,736",
        "36,288",
        "2,051",
        "416",
        "44",
        "3,546,146,300,288 = 2^7 x 27,704,267,971",
    ] {
        assert!(
            lines[..lines.len() - 1].iter().any(|l| l.contains(figure)),
            "no line shows {figure}:\n{stdout}"
        );
    }
}

#[test]
fn binary_counts_a_small_shape_and_rejects_bad_ones() {
    let out = Command::cargo_bin("sudoflow")
        .unwrap()
        .args(["count-grids", "--box", "2x3", "-j", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(stdout.lines().last(), Some("28200960"));

    for (arg, message) in [
        ("3", "expected RxC"),
        ("0x2", "expected RxC"),
        ("4x4", "128 bits"),
        // Never finished (1x7 not in 5 minutes): refused, not left running.
        ("1x9", "the count would not finish"),
        ("9x1", "the count would not finish"),
        ("2x5", "the count would not finish"),
        ("1x7", "the count would not finish"),
    ] {
        let out = Command::cargo_bin("sudoflow")
            .unwrap()
            .args(["count-grids", "--box", arg])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "--box {arg}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(message), "--box {arg}: {stderr}");
    }
}
