//! `sudoflow count-grids`: the number of complete grids of a box shape, with
//! the method's intermediate figures (see [`crate::counting::grids`]).

use crate::counting::grids::{count_grids, factorial, factorize, BoxShape, GridCount};
use std::io::Write;
use std::process::ExitCode;

/// Options of `sudoflow count-grids`.
#[derive(Debug, clap::Args)]
#[command(
    after_long_help = "Number of complete grids with boxes of R rows x C columns (grid side R*C), \
computed by the column-set (\"gangster\") method of Felgenhauer & Jarvis and the Enjoy Sudoku \
forum: band counts per column-set key, classes under stack/column permutations, completions \
per class. Prints the method's intermediate figures, then the total alone on the last line.\n\n\
Shapes: 2x2 (288), 2x3 and 3x2 (28,200,960) in milliseconds; 3x3 (default) in 0.9 CPU-seconds (BENCHMARKS.md, count-grids); \
2x4 and 4x2 (29,136,487,207,403,520) in seconds; 1x2 to 1x6 (Latin squares) too. Other shapes \
(1x7 and longer, 2x5, 3x4 and larger) are refused: their count would not finish.\n\n\
Example: sudoflow count-grids --box 2x3 -j 2"
)]
pub struct CountGridsArgs {
    /// Box shape RxC: R rows by C columns per box.
    #[arg(
        long = "box",
        value_name = "RxC",
        default_value = "3x3",
        long_help = "Box shape RxC: R rows by C columns per box; the grid side is R*C. \
RxC and CxR have the same count (transposed grids). Example: --box 2x4"
    )]
    pub shape: BoxShape,

    #[command(flatten)]
    #[allow(missing_docs)]
    pub threads: crate::opts::ThreadsArg,
}

/// Runs `sudoflow count-grids`: figures on stdout, total on the last line.
pub fn run(args: CountGridsArgs) -> anyhow::Result<ExitCode> {
    crate::output::check_stdout()?;
    let pool = crate::opts::worker_pool(args.threads.threads)?;
    let count = pool.install(|| count_grids(args.shape))?;
    let mut out = std::io::stdout().lock();
    for line in report(&count) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{}", count.total)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The intermediate figures of a count, one line each (the total is not
/// among them: the caller prints it alone on the last line).
pub fn report(c: &GridCount) -> Vec<String> {
    let n = c.counted_as.side();
    let mut lines = vec![format!(
        "shape: boxes {} ({n}x{n} grid){}: {} bands of {} rows, {} stacks of {} columns",
        c.shape,
        if c.counted_as != c.shape {
            format!(", counted as its transpose {}", c.counted_as)
        } else {
            String::new()
        },
        c.counted_as.cols,
        c.counted_as.rows,
        c.counted_as.rows,
        c.counted_as.cols,
    )];
    lines.push(format!(
        "column-set keys of one band (up to relabelling): {} enumerated, {} with at least one band",
        grouped(c.keys as u128),
        grouped(c.keys_with_bands as u128)
    ));
    lines.push(format!(
        "bands: {} = {n}! x {} top-band completions of the canonical first box",
        grouped(c.bands),
        grouped(c.top_band_completions)
    ));
    if let Some(t) = &c.top_band {
        lines.push(format!(
            "top band enumerated: {} completions of the canonical first box; {} after the \
             lexicographic reduction (/{})",
            grouped(t.completions as u128),
            grouped(t.reduced as u128),
            c.lex_factor_top
        ));
        lines.push(format!(
            "top-band classes: {} under stack and column permutations; {} adding row permutations",
            grouped(t.classes_stack_column as u128),
            grouped(t.classes_with_rows as u128)
        ));
        lines.push(format!(
            "reduced top bands fall in {} column-set classes",
            t.column_set_classes
        ));
    }
    lines.push(format!(
        "column-set classes (stack/column permutations): {}, one completion sum each",
        c.column_set_classes
    ));
    let (lo, hi) = c.completions_range;
    let mut range = format!(
        "completions of the other bands per top band: {} to {}",
        grouped(lo),
        grouped(hi)
    );
    if lo % c.lex_factor_top == 0 && hi % c.lex_factor_top == 0 {
        range += &format!(
            " (/{}: {} to {})",
            c.lex_factor_top,
            grouped(lo / c.lex_factor_top),
            grouped(hi / c.lex_factor_top)
        );
    }
    lines.push(range);
    let divisor = if c.lex_factor_top == c.lex_factor_side {
        format!("{}^2", c.lex_factor_top)
    } else {
        format!("{} x {}", c.lex_factor_top, c.lex_factor_side)
    };
    lines.push(format!(
        "total / ({n}! x {divisor}) = {} = {}",
        grouped(c.reduced_total),
        factors(c.reduced_total)
    ));
    debug_assert_eq!(
        c.reduced_total * factorial(n) * c.lex_factor_top * c.lex_factor_side,
        c.total
    );
    lines.push(format!("total: {}", grouped(c.total)));
    lines
}

/// `x` with thousands separators: `2612736` -> `2,612,736`.
fn grouped(x: u128) -> String {
    let digits = x.to_string();
    let mut out = String::with_capacity(digits.len() * 4 / 3);
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `2^7 x 27,704,267,971`, marking a single large prime factor as prime.
fn factors(x: u128) -> String {
    let f = factorize(x);
    if f.is_empty() {
        return x.to_string();
    }
    let text: Vec<String> = f
        .iter()
        .map(|&(p, e)| {
            if e == 1 {
                grouped(p)
            } else {
                format!("{}^{e}", grouped(p))
            }
        })
        .collect();
    let mut s = text.join(" x ");
    if let Some(&(p, 1)) = f.last() {
        if p > 1000 {
            s += &format!(" ({} is prime)", grouped(p));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn thousands_separators() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(288), "288");
        assert_eq!(grouped(2_612_736), "2,612,736");
        assert_eq!(grouped(36_288), "36,288");
    }
}
