//! The ranges that filter generated puzzles (`generate --clues`,
//! `--wnf-level`, `--guesses`, `--se`; the Python package's `generate`),
//! parsed from text.

use super::MIN_PROPER_CLUES;
use std::ops::RangeInclusive;

/// The hint for a range written another way than `MIN..MAX` (`1.0-1.5`,
/// `20:23`, `20 to 23`), if `text` looks like one.
fn range_hint(text: &str) -> Option<String> {
    let t = text.trim();
    let sep = [" to ", "-", ":", "\u{2013}", ","]
        .iter()
        .find(|sep| t.get(1..).is_some_and(|rest| rest.contains(**sep)))?;
    let (a, b) = t.split_once(*sep)?;
    Some(format!(
        "{text:?}: a range is written MIN..MAX (two dots), e.g. {}..{}",
        a.trim(),
        b.trim()
    ))
}

/// Parses an inclusive range `A..B` (or `A..=B`), `A..`, `..B` or `A`, with
/// `lo`/`hi` standing in for an open end.
fn parse_span<T>(text: &str, lo: T, hi: T) -> Result<RangeInclusive<T>, String>
where
    T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display,
{
    if !text.contains("..") {
        if let Some(hint) = range_hint(text) {
            return Err(hint);
        }
    }
    let num = |s: &str| {
        s.trim()
            .parse::<T>()
            .map_err(|_| format!("{s:?} is not a whole number from {lo} to {hi}"))
    };
    let (a, b) = match text.split_once("..") {
        None => {
            let v = num(text)?;
            (v, v)
        }
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                if a.trim().is_empty() { lo } else { num(a)? },
                if b.trim().is_empty() { hi } else { num(b)? },
            )
        }
    };
    if a < lo || b > hi {
        return Err(format!("values must be from {lo} to {hi}"));
    }
    if a > b {
        return Err(format!("MIN {a} is greater than MAX {b}"));
    }
    Ok(a..=b)
}

/// `--clues`: a range within 0..=81 whose MAX is at least 17.
pub fn parse_clues(text: &str) -> Result<RangeInclusive<usize>, String> {
    let r = parse_span(text, 0usize, 81)?;
    if *r.end() < MIN_PROPER_CLUES {
        return Err(format!(
            "no proper Sudoku has fewer than {MIN_PROPER_CLUES} clues (McGuire, Tugemann, \
             Civario 2012, arXiv:1201.0749), so MAX must be at least {MIN_PROPER_CLUES}"
        ));
    }
    Ok(r)
}

/// `--wnf-level`: a range within 1..=4.
pub fn parse_wnf_level(text: &str) -> Result<RangeInclusive<u8>, String> {
    parse_span(text, 1u8, 4)
}

/// `--guesses`: a range of guess counts.
pub fn parse_guesses(text: &str) -> Result<RangeInclusive<u64>, String> {
    parse_span(text, 0u64, u64::MAX)
}

/// `--se`: an ER range in tenths, from `MIN..MAX`, `MIN..`, `..MAX` or
/// `X` with one decimal at most (ratings run 1.0 to 20.0).
pub fn parse_se(text: &str) -> Result<RangeInclusive<i64>, String> {
    if !text.contains("..") {
        if let Some(hint) = range_hint(text) {
            return Err(hint);
        }
    }
    let tenths = |t: &str| -> Result<i64, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("{t:?} is not a rating such as 7.1"))?;
        if !(0.0..=20.0).contains(&v) {
            return Err(format!("{t:?}: ratings run from 0.0 to 20.0"));
        }
        let x = (v * 10.0).round();
        if (x - v * 10.0).abs() > 1e-9 {
            return Err(format!("{t:?}: ratings have one decimal"));
        }
        Ok(x as i64)
    };
    let (lo, hi) = match text.split_once("..") {
        Some((a, b)) => {
            let b = b.strip_prefix('=').unwrap_or(b);
            (
                if a.trim().is_empty() { 0 } else { tenths(a)? },
                if b.trim().is_empty() { 200 } else { tenths(b)? },
            )
        }
        None => {
            let x = tenths(text)?;
            (x, x)
        }
    };
    if lo > hi {
        return Err(format!(
            "MIN {} is greater than MAX {}",
            lo as f64 / 10.0,
            hi as f64 / 10.0
        ));
    }
    Ok(lo..=hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_written_another_way_says_how_to_write_it() {
        for (parse, text, want) in [
            (
                parse_se as fn(&str) -> Result<RangeInclusive<i64>, String>,
                "1.0-1.5",
                "1.0..1.5",
            ),
            (parse_se, "7 to 8", "7..8"),
        ] {
            let e = parse(text).unwrap_err();
            assert!(e.contains("MIN..MAX") && e.contains(want), "{e}");
        }
        let e = parse_clues("20-23").unwrap_err();
        assert!(e.contains("20..23"), "{e}");
        let e = parse_guesses("5:9").unwrap_err();
        assert!(e.contains("5..9"), "{e}");
        // Negative numbers and plain values are not ranges.
        assert!(parse_se("-1").unwrap_err().contains("ratings run"));
        assert_eq!(parse_se("7.5"), Ok(75..=75));
    }

    #[test]
    fn spans_parse_and_explain_errors() {
        assert_eq!(parse_clues("20..25"), Ok(20..=25));
        assert_eq!(parse_clues("20..=25"), Ok(20..=25));
        assert_eq!(parse_clues("22"), Ok(22..=22));
        assert_eq!(parse_clues("..30"), Ok(0..=30));
        assert_eq!(parse_clues("30.."), Ok(30..=81));
        assert_eq!(
            parse_clues("25..20").unwrap_err(),
            "MIN 25 is greater than MAX 20"
        );
        assert!(parse_clues("10..12")
            .unwrap_err()
            .contains("fewer than 17 clues"));
        assert!(parse_clues("20..90").unwrap_err().contains("from 0 to 81"));
        assert!(parse_clues("x..3").unwrap_err().contains("\"x\""));
        assert_eq!(parse_wnf_level("2..3"), Ok(2..=3));
        assert_eq!(parse_wnf_level("4"), Ok(4..=4));
        assert!(parse_wnf_level("0..2").is_err());
        assert_eq!(parse_guesses("5.."), Ok(5..=u64::MAX));
        assert_eq!(parse_se("7.0..8.0"), Ok(70..=80));
        assert_eq!(parse_se("9.0.."), Ok(90..=200));
        assert_eq!(parse_se("..6.2"), Ok(0..=62));
        assert_eq!(parse_se("6.5"), Ok(65..=65));
        assert!(parse_se("8..7").unwrap_err().contains("greater"));
        assert!(parse_se("7.25").unwrap_err().contains("one decimal"));
        assert!(parse_se("25").is_err());
    }
}
