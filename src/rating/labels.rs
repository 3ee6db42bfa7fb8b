//! Names for ratings: the label `rate --labels`, `generate --labels` and
//! `print` give a puzzle's ER.
//!
//! # The scale
//!
//! The five levels of Sudoku Explainer 1.2.1.3's own puzzle generator
//! (its "Generate" dialog, `diuf.sudoku.gui.GenerateDialog`, whose help
//! pages `Easy.html` ... `Diabolical.html` give each level's ER range and
//! meaning), so that a label means what it means in SE, the program whose
//! scale sudoflow rates on:
//!
//! | label | ER | what the puzzle needs (SE's help pages, in our words) |
//! |---|---|---|
//! | Easy | 1.0-1.2 | hidden singles in blocks only |
//! | Medium | 1.3-1.5 | hidden singles in rows and columns too |
//! | Hard | 1.6-2.5 | no candidates written: direct pointing, claiming, hidden pairs, naked singles |
//! | Fiendish | 2.6-6.0 | candidates written down (subsets, fish, wings, uniqueness, exclusion), no forcing chains |
//! | Diabolical | 6.1 and up | forcing chains or trial and error |
//!
//! SE's Diabolical level ends at 10.0; ratings above it (nested forcing
//! chains, and 20.0 for a puzzle SE's techniques do not finish) are
//! Diabolical here too. A rating below 1.0 (a puzzle with nothing left to
//! solve rates 0.0) is Easy. The bounds are in tenths, as SE prints
//! ratings ([`Rating::tenths`]): a rating's label is that of the number
//! printed beside it.

use super::se::Rating;

/// One level of the scale: a name and the ER range it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// The label, e.g. "Fiendish".
    pub name: &'static str,
    /// The lowest ER of the level, in tenths (26 for 2.6).
    pub min_tenths: i64,
    /// The highest ER of the level, in tenths, inclusive (`i64::MAX` for
    /// the last level).
    pub max_tenths: i64,
    /// What a puzzle of this level needs, in a few words.
    pub needs: &'static str,
}

/// The scale, easiest first (see the module documentation for its source).
pub const LEVELS: [Level; 5] = [
    Level {
        name: "Easy",
        min_tenths: i64::MIN,
        max_tenths: 12,
        needs: "hidden singles in blocks",
    },
    Level {
        name: "Medium",
        min_tenths: 13,
        max_tenths: 15,
        needs: "hidden singles in rows and columns",
    },
    Level {
        name: "Hard",
        min_tenths: 16,
        max_tenths: 25,
        needs: "no candidates written: pointing, claiming, hidden pairs, naked singles",
    },
    Level {
        name: "Fiendish",
        min_tenths: 26,
        max_tenths: 60,
        needs: "candidates written: subsets, fish, wings, uniqueness; no forcing chains",
    },
    Level {
        name: "Diabolical",
        min_tenths: 61,
        max_tenths: i64::MAX,
        needs: "forcing chains",
    },
];

/// The level of a rating in tenths (`Rating::tenths(er)`).
pub fn level_of_tenths(tenths: i64) -> &'static Level {
    LEVELS
        .iter()
        .find(|l| tenths <= l.max_tenths)
        .unwrap_or(&LEVELS[LEVELS.len() - 1])
}

/// The label of an ER as SE computes it (a double; it is taken in tenths
/// as SE prints it): `label(7.1) == "Diabolical"`.
pub fn label(er: f64) -> &'static str {
    level_of_tenths(Rating::tenths(er)).name
}

/// The label of an ER as the `er` column writes it (`"2.6"`); `None` when
/// the text is not a number.
pub fn label_of_text(er: &str) -> Option<&'static str> {
    let x: f64 = er.trim().parse().ok()?;
    x.is_finite().then(|| label(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_follow_se_generator_levels() {
        let cases = [
            (0.0, "Easy"),
            (1.0, "Easy"),
            (1.2, "Easy"),
            (1.3, "Medium"),
            (1.5, "Medium"),
            (1.6, "Hard"),
            (2.5, "Hard"),
            (2.6, "Fiendish"),
            (6.0, "Fiendish"),
            (6.1, "Diabolical"),
            (10.0, "Diabolical"),
            (11.9, "Diabolical"),
            (20.0, "Diabolical"),
        ];
        for (er, want) in cases {
            assert_eq!(label(er), want, "ER {er}");
        }
        // The label of the rating as printed: 2.5499999999999 prints 2.5,
        // 2.5999999999999996 (2.55 + 0.05 in doubles) prints 2.6.
        assert_eq!(label(2.5499999999999), "Hard");
        assert_eq!(label(2.5999999999999996), "Fiendish");
        assert_eq!(label_of_text(" 4.2"), Some("Fiendish"));
        assert_eq!(label_of_text("x"), None);
        assert_eq!(label_of_text("NaN"), None);
    }

    #[test]
    fn levels_cover_every_tenth_once() {
        for t in -5..=250 {
            let n = LEVELS
                .iter()
                .filter(|l| l.min_tenths <= t && t <= l.max_tenths)
                .count();
            assert_eq!(n, 1, "tenths {t}");
        }
    }
}
