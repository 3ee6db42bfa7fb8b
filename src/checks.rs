//! Property checks shared by the fuzz targets (`fuzz/`, run by `make fuzz`)
//! and the corpus-replay test (`tests/fuzz_corpus.rs`, run by `make test`).
//!
//! Each `check_*` function takes arbitrary bytes, builds an input from them
//! and panics when the code under test breaks a rule: a wrong answer, a lost
//! or extra record, a message that does not match the input. A check that
//! returns has found nothing. The fuzz targets are one-line wrappers around
//! these functions, so a corpus file replays in CI exactly as the fuzzer ran
//! it, without libFuzzer or a nightly toolchain.
//!
//! The answers are checked against the rules of Sudoku directly (every unit
//! holds each digit once, the givens are kept) and against
//! [`reference_count`], a plain backtracking counter written for these
//! checks only (no propagation, no shared code with [`crate::solver`]).

use crate::counting::solutions::{count_record, CountOptions, CountResult};
use crate::grid::{cell_name, Grid, ParseError, UNITS};
use crate::pipeline::reader;
use crate::pipeline::Record;
use crate::solver::{Prune, SolveOptions, Solver};
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;

/// Search nodes [`reference_count`] may visit in one check before it gives
/// up (the comparison is then skipped): enough for the grids fuzzing makes,
/// which are mostly clashing or nearly empty, small enough to keep a check
/// under a few milliseconds.
const REFERENCE_NODES: u64 = 20_000;

/// A grid from fuzz bytes: byte `i` gives cell `i` (row-major); a byte with
/// its high bit set is a blank, any other is its value mod 10 (0 = blank).
/// Missing bytes are blanks, extra bytes are ignored. Any givens, clashing
/// or not, can be made.
pub fn grid_from_bytes(bytes: &[u8]) -> Grid {
    let mut cells = [0u8; 81];
    for (cell, &b) in cells.iter_mut().zip(bytes) {
        *cell = if b & 0x80 != 0 { 0 } else { b % 10 };
    }
    Grid::from_cells(cells).expect("values are 0..=9")
}

/// The inverse of [`grid_from_bytes`] for seeding corpora: 81 bytes, one
/// value (0 for blank) per cell.
pub fn bytes_of_grid(grid: &Grid) -> Vec<u8> {
    grid.cells().to_vec()
}

/// True when `solution` is complete, holds each digit once in every row,
/// column and box, and keeps every given of `puzzle`. Written against the
/// rules here rather than with [`Grid::is_solution_of`], which is under test.
pub fn obeys_rules(solution: &Grid, puzzle: &Grid) -> bool {
    let cells = solution.cells();
    let units_ok = UNITS.iter().all(|unit| {
        let seen = unit
            .iter()
            .fold(0u16, |seen, &c| seen | 1 << cells[usize::from(c)]);
        seen == 0b11_1111_1110
    });
    let givens_kept = puzzle
        .cells()
        .iter()
        .zip(cells)
        .all(|(&g, &s)| g == 0 || g == s);
    units_ok && givens_kept
}

/// True when two givens of `grid` share a digit and a unit (checked by
/// brute force over the units, independently of [`Grid::check_givens`]).
pub fn givens_clash(grid: &Grid) -> bool {
    UNITS.iter().any(|unit| {
        let mut seen = 0u16;
        unit.iter().any(|&c| {
            let v = grid.get(usize::from(c));
            let clash = v != 0 && seen & (1 << v) != 0;
            seen |= 1 << v;
            clash
        })
    })
}

/// Solutions of `grid`, counted up to `limit` by plain backtracking (the
/// empty cell with the fewest candidates first, no other propagation), or
/// `None` once more than `nodes` search nodes were visited. A grid whose
/// givens clash has 0 solutions.
pub fn reference_count(grid: &Grid, limit: u64, nodes: u64) -> Option<u64> {
    if givens_clash(grid) {
        return Some(0);
    }
    let mut used = [[0u16; 9]; 3];
    let mut cells = *grid.cells();
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 {
            let bit = 1 << v;
            used[0][c / 9] |= bit;
            used[1][c % 9] |= bit;
            used[2][c / 27 * 3 + c % 9 / 3] |= bit;
        }
    }
    struct State {
        used: [[u16; 9]; 3],
        found: u64,
        nodes_left: u64,
    }
    // Cell numbers index three tables (cells, row/column/box masks).
    #[allow(clippy::needless_range_loop)]
    fn search(cells: &mut [u8; 81], s: &mut State, limit: u64) -> Option<()> {
        s.nodes_left = s.nodes_left.checked_sub(1)?;
        let mut best: Option<(usize, u16)> = None;
        for (c, _) in cells.iter().enumerate().filter(|(_, &v)| v == 0) {
            let taken = s.used[0][c / 9] | s.used[1][c % 9] | s.used[2][c / 27 * 3 + c % 9 / 3];
            let free = !taken & 0b11_1111_1110;
            if best.is_none_or(|(_, b)| free.count_ones() < b.count_ones()) {
                best = Some((c, free));
            }
        }
        let Some((c, free)) = best else {
            s.found += 1;
            return Some(());
        };
        for v in 1..=9u8 {
            if free & (1 << v) == 0 || s.found >= limit {
                continue;
            }
            let bit = 1 << v;
            let b = c / 27 * 3 + c % 9 / 3;
            cells[c] = v;
            s.used[0][c / 9] |= bit;
            s.used[1][c % 9] |= bit;
            s.used[2][b] |= bit;
            let r = search(cells, s, limit);
            cells[c] = 0;
            s.used[0][c / 9] &= !bit;
            s.used[1][c % 9] &= !bit;
            s.used[2][b] &= !bit;
            r?;
        }
        Some(())
    }
    let mut state = State {
        used,
        found: 0,
        nodes_left: nodes,
    };
    search(&mut cells, &mut state, limit.max(1))?;
    Some(state.found)
}

/// `Grid` parsing on arbitrary text (`data` as UTF-8, lossily): never a
/// panic; a grid comes back exactly when the text is 81 cell characters, and
/// holds their values; each error names the true length or the first bad
/// character, its 1-based position and cell; the line form parses back to
/// the same grid.
pub fn check_grid_parse(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let chars: Vec<char> = text.chars().collect();
    let value = |ch: char| match ch {
        '1'..='9' => Some(ch as u8 - b'0'),
        '.' | '0' | '_' | '-' | '*' | 'x' | 'X' => Some(0),
        _ => None,
    };
    match Grid::parse(&text) {
        Ok(grid) => {
            assert_eq!(chars.len(), 81, "{text:?} parsed but is not 81 characters");
            for (c, &ch) in chars.iter().enumerate() {
                assert_eq!(Some(grid.get(c)), value(ch), "cell {c} of {text:?}");
            }
            assert_eq!(Grid::parse(&grid.to_line()), Ok(grid));
            assert_eq!(Grid::from_cells(*grid.cells()), Some(grid));
        }
        Err(ParseError::Length { found }) => {
            assert_eq!(found, chars.len());
            assert_ne!(found, 81);
        }
        Err(ParseError::Char { ch, position, cell }) => {
            assert_eq!(chars.len(), 81, "{text:?}: a character error needs 81");
            let at = position - 1;
            assert_eq!(chars[at], ch);
            assert_eq!(value(ch), None, "{ch:?} is a cell character");
            assert!(chars[..at].iter().all(|&c| value(c).is_some()));
            assert_eq!(cell, cell_name(at));
        }
        Err(ParseError::Clash(c)) => panic!("Grid::parse does not check givens: {c}"),
    }
}

/// The solver on an arbitrary grid: `data[0]` picks the options (limit
/// 1..=4, the pruning level, guessing on or off), the rest is the grid
/// ([`grid_from_bytes`]). Never a panic; the solution returned obeys the
/// rules and keeps the givens; clashing givens have no solution; the count
/// equals [`reference_count`]'s (capped at the limit) whenever the reference
/// finishes, and is at most it when guessing is off; the WNF read off the
/// search equals [`crate::rating::wnf`]'s.
///
/// No hang: the fuzz target runs under libFuzzer's `-timeout`, and the
/// corpus replay under the test's own time.
pub fn check_solver(data: &[u8]) {
    let Some((&knobs, cells)) = data.split_first() else {
        return;
    };
    let grid = grid_from_bytes(cells);
    let limit = 1 + u64::from(knobs & 3);
    let prune = match (knobs >> 2) & 3 {
        0 | 3 => Prune::Basic,
        1 => Prune::Matching,
        _ => Prune::MatchingRoot,
    };
    let guess = knobs & 0x10 == 0;
    let mut solver = Solver::new(SolveOptions {
        limit,
        prune,
        guess,
        budget: crate::work::Budget::NONE,
    });
    let (outcome, wnf) = solver.solve_rated(&grid);
    assert_eq!(wnf, crate::rating::wnf(&grid), "{grid}");
    assert!(!outcome.timed_out);
    assert!(outcome.solutions <= limit, "{grid}: {outcome:?}");
    assert_eq!(outcome.solution.is_some(), outcome.solutions > 0, "{grid}");
    if let Some(solution) = outcome.solution {
        assert!(
            obeys_rules(&solution, &grid),
            "{grid}: wrong answer {solution}"
        );
    }
    if givens_clash(&grid) {
        assert_eq!(outcome.solutions, 0, "{grid}: clashing givens solved");
        assert!(grid.check_givens().is_err(), "{grid}: clash not reported");
    } else {
        assert!(grid.check_givens().is_ok(), "{grid}: clash reported");
    }
    assert!(guess || outcome.guesses == 0);
    assert!(!outcome.stuck || !guess, "{grid}: stuck while guessing");
    if let Some(n) = reference_count(&grid, limit, REFERENCE_NODES) {
        if outcome.stuck {
            assert!(outcome.solutions <= n, "{grid}: {outcome:?}, reference {n}");
        } else {
            assert_eq!(outcome.solutions, n, "{grid}: {outcome:?}, reference {n}");
        }
    }
}

/// `count` on an arbitrary grid: `data[0]` is the cap (`--max` 1..=256),
/// the rest the grid. Never a panic; clashing givens are an error naming the
/// clash; a count below the cap is exact and equals [`reference_count`]'s
/// whenever the reference finishes, a count at the cap is `capped` ("the cap
/// or more") and the reference finds at least that many; the status agrees
/// with the count; and it agrees with `solve` (limit 2) on whether there are
/// 0, 1 or more solutions.
pub fn check_count(data: &[u8]) {
    let Some((&cap, cells)) = data.split_first() else {
        return;
    };
    let grid = grid_from_bytes(cells);
    let max = 1 + u64::from(cap);
    let opts = CountOptions {
        max: Some(max),
        budget: crate::work::Budget::NONE,
    };
    let mut solver = Solver::new(opts.solve_options());
    let result = count_record(&mut solver, &opts, &grid);
    if givens_clash(&grid) {
        let message = result.expect_err("clashing givens are an error");
        assert!(message.starts_with("duplicate "), "{message}");
        return;
    }
    let result = result.expect("givens do not clash");
    let (found, capped) = match result {
        CountResult::Exact(n) => {
            assert!(n < max, "{grid}: exact {n} at the cap {max}");
            (n, false)
        }
        CountResult::Capped(n) => {
            assert_eq!(n, max);
            (n, true)
        }
        CountResult::Timeout(_) => panic!("{grid}: timeout without a budget"),
    };
    let status = match found {
        _ if capped => "capped",
        0 => "unsolvable",
        1 => "unique",
        _ => "multiple",
    };
    assert_eq!(result.status(), status);
    assert_eq!(result.solutions(), found);
    if let Some(n) = reference_count(&grid, max, REFERENCE_NODES) {
        assert_eq!(found, n, "{grid}: count {result:?}, reference {n}");
    }
    let two = crate::solver::count_solutions(&grid, 2);
    if capped {
        assert!(two >= found.min(2), "{grid}: solve and count disagree");
    } else {
        assert_eq!(two, found.min(2), "{grid}: solve and count disagree");
    }
}

/// A reader that hands out `data` in reads of the sizes `splits` gives
/// (cycled; a size of 0 is read as 1), as a pipe or a slow disk may.
struct Chunked {
    data: Vec<u8>,
    at: usize,
    splits: Vec<u8>,
    next: usize,
}

impl Read for Chunked {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let size = if self.splits.is_empty() {
            usize::MAX
        } else {
            let s = self.splits[self.next % self.splits.len()];
            self.next += 1;
            usize::from(s.max(1))
        };
        let n = size.min(out.len()).min(self.data.len() - self.at);
        out[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The reader on arbitrary bytes. Layout of `data`: byte 0 = flags (bit 0:
/// gzip the text, as one member or cut into members at the split points;
/// bits 1-7: the line cap, 1..=128 bytes, so that fuzz-sized inputs meet
/// it); byte 1 = `n`, the number of read sizes that follow; then `n` read
/// sizes; the rest is the text.
///
/// Never a panic or an error (but the documented refusal of a text that
/// starts with a UTF-16 byte-order mark); exactly one record per line that is not
/// skipped (after a CSV header: per CSV record, RFC 4180, which may run
/// over lines; one cut short is invalid, and a quote that does not close
/// costs its first line only), with its line number; a record's grid is
/// what [`Grid::parse`] makes of its field (its error names `source:line`);
/// a line over the cap is an invalid record giving its length, and the cap
/// bounds a CSV record too; the same records however the
/// input is split into reads and whether or not it is gzipped. Texts in
/// which a line starts with gzip's magic bytes (a member to decompress) are
/// checked for panics only.
pub fn check_reader(data: &[u8]) {
    let [flags, n, rest @ ..] = data else {
        return;
    };
    let n = usize::from(*n).min(rest.len());
    let (splits, text) = rest.split_at(n);
    let cap = usize::from(flags >> 1) + 1;
    let read = |bytes: Vec<u8>, splits: &[u8]| -> anyhow::Result<Vec<Record>> {
        let input = Chunked {
            data: bytes,
            at: 0,
            splits: splits.to_vec(),
            next: 0,
        };
        // A small buffer puts lines across buffer ends, as long lines meet
        // the real 64 KiB one.
        let capacity = splits.first().map_or(4096, |&s| usize::from(s.max(1)));
        let input: Box<dyn BufRead> = Box::new(BufReader::with_capacity(capacity, input));
        let mut records = Vec::new();
        reader::for_each_record_in("fuzz", input, cap, |r| {
            records.push(r);
            ControlFlow::Continue(())
        })
        .map(|()| records)
    };
    let read_all = |bytes: Vec<u8>, splits: &[u8]| -> Vec<Record> {
        read(bytes, splits).unwrap_or_else(|e| panic!("read error on in-memory bytes: {e:#}"))
    };
    if text.starts_with(&[0xff, 0xfe]) || text.starts_with(&[0xfe, 0xff]) {
        // A UTF-16 byte-order mark: the reader refuses the input on
        // purpose (README, "Input"), plain or gzipped, and says why.
        let bytes = if flags & 1 == 0 {
            text.to_vec()
        } else {
            gzip_members(text, splits)
        };
        match read(bytes, splits) {
            Ok(records) => panic!("a UTF-16 text read as {} records", records.len()),
            Err(e) => assert!(format!("{e:#}").contains("UTF-16"), "{e:#}"),
        }
        return;
    }
    if flags & 1 == 0 {
        let has_member = text
            .split(|&b| b == b'\n')
            .any(|line| line.starts_with(&[0x1f, 0x8b]));
        if has_member {
            // Arbitrary "gzip" data: may be an error, must not panic.
            let input = Chunked {
                data: text.to_vec(),
                at: 0,
                splits: splits.to_vec(),
                next: 0,
            };
            let _ = reader::for_each_record_in(
                "fuzz",
                Box::new(BufReader::with_capacity(64, input)),
                cap,
                |_| ControlFlow::Continue(()),
            );
            return;
        }
        let got = read_all(text.to_vec(), splits);
        assert_eq!(got, expected_records(text, cap), "{text:?}");
        assert_eq!(got, read_all(text.to_vec(), &[]), "split reads differ");
    } else {
        if text
            .split(|&b| b == b'\n')
            .any(|line| line.starts_with(&[0x1f, 0x8b]))
        {
            return;
        }
        let got = read_all(gzip_members(text, splits), splits);
        assert_eq!(got, expected_records(text, cap), "{text:?} gzipped");
    }
}

/// `text` gzipped, cut into members at the offsets the split sizes give.
fn gzip_members(text: &[u8], splits: &[u8]) -> Vec<u8> {
    use flate2::write::GzEncoder;
    use std::io::Write;
    let mut out = Vec::new();
    let mut at = 0;
    let mut sizes = splits.iter().map(|&s| usize::from(s) * 4);
    while at < text.len() || out.is_empty() {
        let size = sizes.next().unwrap_or(usize::MAX).max(1);
        let end = at.saturating_add(size).min(text.len());
        let mut e = GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&text[at..end]).expect("in memory");
        out.extend(e.finish().expect("in memory"));
        at = end;
    }
    out
}

/// The records the reader's documented rules give for `text` (no gzip
/// member in it), worked out line by line the slow way.
fn expected_records(text: &[u8], cap: usize) -> Vec<Record> {
    let source: std::sync::Arc<str> = std::sync::Arc::from("fuzz");
    // Each line as read, its end included (a last line may have none).
    let read: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
    // Each line's content: without its `\n` and one `\r` before it (an
    // unended last line keeps a `\r`, as the reader counts it).
    let contents: Vec<&[u8]> = read
        .iter()
        .map(|l| match l.strip_suffix(b"\n") {
            Some(l) => l.strip_suffix(b"\r").unwrap_or(l),
            None => l,
        })
        .collect();
    let mut records: Vec<Record> = Vec::new();
    let mut first = true;
    // The puzzle's 0-based CSV column and its name, from a header naming it.
    let mut column = 0;
    let mut column_name = String::new();
    // The columns `source` and `line`, when the header names both: a CSV
    // record with both fields valid is named by them.
    let mut origin: Option<(usize, usize)> = None;
    // Lines are CSV records once a header named a column; pasted puzzles
    // are read only before.
    let mut csv = false;
    // Lines up to this one (0-based) are read again after a CSV record was
    // cut back to its first line: each is one record.
    let mut again_to: Option<usize> = None;
    // The rows of a 9-line grid read so far: cells, first and last line.
    let mut rows: (Vec<u8>, u64, u64) = (Vec::new(), 0, 0);
    // The record of rows cut short, if any are pending.
    let cut_short = |records: &mut Vec<Record>, rows: &mut (Vec<u8>, u64, u64)| {
        if rows.0.is_empty() {
            return;
        }
        let n = rows.0.len() / 9;
        let (what, lines) = if n == 1 {
            ("one row".to_owned(), format!("line {}", rows.1))
        } else {
            (format!("{n} rows"), format!("lines {}-{}", rows.1, rows.2))
        };
        records.push(Record {
            index: records.len() as u64 + 1,
            source: source.clone(),
            line: rows.1,
            raw: String::from_utf8_lossy(&rows.0).into_owned(),
            grid: Err(format!(
                "fuzz:{}: looks like {what} of a 9-line grid ({lines}); a grid written on lines \
                 needs 9 rows of 9 cells",
                rows.1
            )),
            pencilmarks: None,
            kept: Vec::new(),
        });
        rows.0.clear();
    };
    // A line with no row (a box rule, a blank line, a comment) inside a
    // band of a 9-line grid (after 1, 2, 4, 5, 7 or 8 rows) cuts its rows
    // short; before the grid, between bands and after it, it is skipped.
    let cut_inside_band = |records: &mut Vec<Record>, rows: &mut (Vec<u8>, u64, u64)| {
        if !rows.0.len().is_multiple_of(27) {
            cut_short(records, rows);
        }
    };
    let mut next = 0;
    while next < contents.len() {
        let i = next;
        next += 1;
        let content = contents[i];
        // The line without its end (`\n`, then one `\r`), which an ended
        // line's content has lost already.
        let header_text = if read[i].ends_with(b"\n") {
            content
        } else {
            content.strip_suffix(b"\r").unwrap_or(content)
        };
        let line_no = i as u64 + 1;
        // The record made now follows any rows cut short (one more index).
        let index = records.len() as u64 + 1 + u64::from(!rows.0.is_empty());
        let record = |raw: String, grid| Record {
            index,
            source: source.clone(),
            line: line_no,
            raw,
            grid,
            pencilmarks: None,
            kept: Vec::new(),
        };
        if content.len() > cap {
            // Blanks however many, as a short line of them: skipped.
            let blanks = match first {
                true => content.strip_prefix(b"\xef\xbb\xbf").unwrap_or(content),
                false => content,
            };
            if blanks.iter().all(|&b| b == b' ' || b == b'\t') {
                cut_inside_band(&mut records, &mut rows);
                continue;
            }
            let head = &content[..cap];
            let start = head.iter().position(|&b| b != b' ' && b != b'\t');
            // A comment, but not in a CSV past its header (a record there),
            // nor with a CR inside.
            if start.is_some_and(|s| head[s] == b'#') && !csv && !head.contains(&b'\r') {
                cut_inside_band(&mut records, &mut rows);
                continue;
            }
            cut_short(&mut records, &mut rows);
            first = false;
            let raw = clip(&String::from_utf8_lossy(head));
            let message = format!(
                "fuzz:{line_no}: line too long: {} bytes, the limit is {cap}",
                content.len()
            );
            records.push(record(raw, Err(message)));
            continue;
        }
        // A CR inside the line, not its end nor inside double quotes: one
        // invalid record naming it (the header may still follow).
        let body = match first {
            true => header_text
                .strip_prefix(b"\xef\xbb\xbf")
                .unwrap_or(header_text),
            false => header_text,
        };
        let mut quoted = false;
        let cr = body.iter().position(|&b| {
            quoted ^= b == b'"';
            b == b'\r' && !quoted
        });
        if let Some(at) = cr {
            let header_text = body;
            cut_short(&mut records, &mut rows);
            let message = format!(
                "fuzz:{line_no}: a carriage return (CR) inside the line, {at} bytes in: are the \
                 file's lines ended by CR alone (classic Mac OS)? Convert them to LF (e.g. tr \
                 '\\r' '\\n')"
            );
            records.push(record(
                clip(&String::from_utf8_lossy(header_text)),
                Err(message),
            ));
            continue;
        }
        let mut body = header_text;
        if first {
            body = body.strip_prefix(b"\xef\xbb\xbf").unwrap_or(body);
        }
        let Some(start) = body.iter().position(|&b| b != b' ' && b != b'\t') else {
            cut_inside_band(&mut records, &mut rows);
            continue;
        };
        if body[start] == b'#' && !csv {
            cut_inside_band(&mut records, &mut rows);
            continue;
        }
        if csv {
            // A CSV record: this line, or the lines to where csv-core ends
            // it, unless cut back to this one.
            let reread = again_to.is_some_and(|to| i <= to);
            let (last, cut) = if reread {
                (0, None)
            } else {
                csv_extent(&read[i..], &contents[i..], i, cap)
            };
            let last = i + last;
            if let Some(why) = cut {
                again_to = Some(last);
                let after = if last > i + 1 {
                    format!(" and lines {}-{} each as one", i + 2, last + 1)
                } else if last > i {
                    format!(" and line {} as another", last + 1)
                } else {
                    String::new()
                };
                let message = format!(
                    "fuzz:{line_no}: unclosed quote? A quoted field of the record starting \
                     here {why}, so this line is read as one record{after}"
                );
                records.push(record(
                    clip(&String::from_utf8_lossy(header_text)),
                    Err(message),
                ));
                continue;
            }
            next = last + 1;
            let text: Vec<u8> = read[i..=last].concat();
            let fields = csv_fields(&text);
            let over = (last > i).then(|| {
                format!(
                    "lines {line_no}-{}: a quoted field holds line ends",
                    last + 1
                )
            });
            let Some(field) = fields.get(column) else {
                let n = fields.len();
                let over = over.map(|o| format!(" (over {o})")).unwrap_or_default();
                let message = format!(
                    "fuzz:{line_no}: has {n} field{}{over}, the puzzle column ({column_name}) \
                     is field {}",
                    if n == 1 { "" } else { "s" },
                    column + 1
                );
                let mut raw = &text[..];
                raw = raw.strip_suffix(b"\n").unwrap_or(raw);
                raw = raw.strip_suffix(b"\r").unwrap_or(raw);
                let mut r = record(clip(&String::from_utf8_lossy(raw)), Err(message));
                name_by_origin(&mut r, &fields, origin);
                records.push(r);
                continue;
            };
            // The puzzle: blanks and line ends before it dropped; a quote after them
            // (no CSV quote) runs to the next quote; else to a separator.
            let start = field.iter().position(|b| !b" \t\r\n".contains(b));
            let field = &field[start.unwrap_or(field.len())..];
            let field = match field.strip_prefix(b"\"") {
                Some(rest) => &rest[..rest.iter().position(|&b| b == b'"').unwrap_or(rest.len())],
                None => {
                    let end = field
                        .iter()
                        .position(|b| b" \t,;:\r\n".contains(b))
                        .unwrap_or(field.len());
                    &field[..end]
                }
            };
            let mut r = field_record(field, line_no, record);
            if let (Some(over), Err(error)) = (over, &mut r.grid) {
                error.push_str(&format!(" (the record runs over {over})"));
            }
            name_by_origin(&mut r, &fields, origin);
            records.push(r);
            continue;
        }
        let body = &body[start..];
        // A quoted field runs to its closing quote (or the line's end);
        // any other to the first separator.
        let field = match body.strip_prefix(b"\"") {
            Some(rest) => &rest[..rest.iter().position(|&b| b == b'"').unwrap_or(rest.len())],
            None => {
                let end = body
                    .iter()
                    .position(|b| b" \t,;:".contains(b))
                    .unwrap_or(body.len());
                &body[..end]
            }
        };
        if std::mem::take(&mut first) {
            // A header: some field (RFC 4180; blanks around it and one pair
            // of quotes inside those aside) is puzzle, quizzes or quiz, any
            // case.
            let header = header_text
                .strip_prefix(b"\xef\xbb\xbf")
                .unwrap_or(header_text);
            let names: Vec<Vec<u8>> = csv_fields(header)
                .into_iter()
                .map(|name| {
                    let name = name.trim_ascii();
                    name.strip_prefix(b"\"")
                        .and_then(|n| n.strip_suffix(b"\""))
                        .unwrap_or(name)
                        .to_vec()
                })
                .collect();
            let named = names.iter().position(|name| {
                [&b"puzzle"[..], b"quizzes", b"quiz"]
                    .iter()
                    .any(|w| name.eq_ignore_ascii_case(w))
            });
            if let Some(k) = named {
                column = k;
                column_name = String::from_utf8_lossy(&names[k]).into_owned();
                csv = true;
                let at = |w: &[u8]| names.iter().position(|n| n.eq_ignore_ascii_case(w));
                origin = at(b"source").zip(at(b"line"));
                continue;
            }
        }
        // Pasted: a field of another length than 81 or 729 on a line of
        // cell characters (1-9 . 0 _ - * x X) between blanks and `|`.
        if field.len() != 81 && field.len() != 729 {
            let text = header_text;
            let dashes = text.iter().filter(|&&b| b == b'-').count();
            let rule = text.iter().all(|b| b"-+=| \t".contains(b))
                && (text.iter().any(|b| b"+=".contains(b)) || (dashes >= 10 && dashes != 81));
            if rule {
                cut_inside_band(&mut records, &mut rows);
                continue;
            }
            let cells: Vec<u8> = text
                .iter()
                .copied()
                .filter(|b| !b" \t|".contains(b))
                .collect();
            if !cells.is_empty() && cells.iter().all(|b| b"123456789._0-*xX".contains(b)) {
                if cells.len() == 9 {
                    if rows.0.is_empty() {
                        rows.1 = line_no;
                    }
                    rows.2 = line_no;
                    rows.0.extend(&cells);
                    if rows.0.len() == 81 {
                        let grid = Grid::parse(std::str::from_utf8(&rows.0).expect("ASCII"));
                        records.push(Record {
                            index: records.len() as u64 + 1,
                            line: rows.1,
                            ..record(String::new(), Ok(grid.expect("cell characters")))
                        });
                        rows.0.clear();
                    }
                    continue;
                }
                cut_short(&mut records, &mut rows);
                if cells.len() == 81 {
                    let grid = Grid::parse(std::str::from_utf8(&cells).expect("ASCII"));
                    records.push(record(String::new(), Ok(grid.expect("cell characters"))));
                    continue;
                }
                if cells.len() != field.len() {
                    let message = format!(
                        "fuzz:{line_no}: wrong length: expected 81 cells, or 9 for a row of a \
                         9-line grid; found {} cells between the spaces or '|'",
                        cells.len()
                    );
                    records.push(record(clip(&String::from_utf8_lossy(text)), Err(message)));
                    continue;
                }
            }
        }
        cut_short(&mut records, &mut rows);
        records.push(field_record(field, line_no, record));
    }
    cut_short(&mut records, &mut rows);
    records
}

/// Names `r`, a CSV record of `fields`, by its `source` and `line` fields
/// (`origin`: their columns) when the source is not blank and the line a
/// number from 1: its source, line and its error's `source:line`.
fn name_by_origin(r: &mut Record, fields: &[Vec<u8>], origin: Option<(usize, usize)>) {
    let Some((s, l)) = origin else {
        return;
    };
    let text = |k: usize| {
        fields
            .get(k)
            .map_or_else(String::new, |f| String::from_utf8_lossy(f).into_owned())
    };
    let (source, line) = (text(s), text(l));
    let (source, line) = (source.trim(), line.trim());
    let Some(line) = line.parse::<u64>().ok().filter(|&n| n > 0) else {
        return;
    };
    if source.is_empty() {
        return;
    }
    if let Err(message) = &mut r.grid {
        let here = format!("{}:{}: ", r.source, r.line);
        if let Some(why) = message.strip_prefix(&here) {
            *message = format!("{source}:{line}: {why}");
        }
    }
    r.source = std::sync::Arc::from(source);
    r.line = line;
}

/// The record of a puzzle field on line `line_no`, made by `record` (which
/// knows its index and line) from its raw text and grid.
fn field_record(
    field: &[u8],
    line_no: u64,
    record: impl Fn(String, Result<Grid, String>) -> Record,
) -> Record {
    // 729 characters: a pencilmark puzzle, position i holding the digit
    // i % 9 + 1 or '.'.
    let bad = field
        .iter()
        .enumerate()
        .find(|&(i, &b)| b != b'.' && b != b'1' + (i % 9) as u8);
    match std::str::from_utf8(field) {
        _ if field.len() == 729 && bad.is_none() => Record {
            pencilmarks: Some(Box::new(
                crate::grid::Pencilmarks::parse(field)
                    .expect("729 bytes")
                    .expect("checked above"),
            )),
            ..record(
                String::from_utf8_lossy(field).into_owned(),
                Err(format!(
                    "fuzz:{line_no}: a pencilmark puzzle (729 characters): this command \
                     reads 81-cell puzzles only"
                )),
            )
        },
        _ if field.len() == 729 => {
            let (i, _) = bad.expect("not all good");
            let ch = String::from_utf8_lossy(&field[i..]).chars().next();
            let message = format!(
                "fuzz:{line_no}: bad character {:?} at position {} ({}, candidate {}) of a \
                 pencilmark puzzle: expected '{}' or '.'",
                ch.expect("a byte at i"),
                i + 1,
                cell_name(i / 9),
                i % 9 + 1,
                i % 9 + 1
            );
            record(clip(&String::from_utf8_lossy(field)), Err(message))
        }
        // A CR inside the line ends no field (old Mac line ends).
        Ok(t) if t.contains('\r') => record(
            clip(t),
            Err(format!(
                "fuzz:{line_no}: a carriage return (CR) inside the line, {} bytes in: are the \
                 file's lines ended by CR alone (classic Mac OS)? Convert them to LF (e.g. tr \
                 '\\r' '\\n')",
                t.find('\r').unwrap_or(0)
            )),
        ),
        Ok(t) => match Grid::parse(t) {
            Ok(g) => record(String::new(), Ok(g)),
            Err(e) => record(clip(t), Err(format!("fuzz:{line_no}: {e}"))),
        },
        Err(e) => {
            let at = e.valid_up_to();
            let message = format!(
                "fuzz:{line_no}: not UTF-8 text: byte 0x{:02x} at byte position {}",
                field[at],
                at + 1
            );
            record(clip(&String::from_utf8_lossy(field)), Err(message))
        }
    }
}

/// The fields of the CSV record `text` (RFC 4180 as the `csv` crate reads
/// it, records ending at `\n`; a quote still open at the end closes there).
fn csv_fields(text: &[u8]) -> Vec<Vec<u8>> {
    // A line end first: the crate would drop a byte-order mark at the very
    // start, which the reader reads as text after an input's first record.
    let mut bytes = b"\n".to_vec();
    bytes.extend_from_slice(text);
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .terminator(::csv::Terminator::Any(b'\n'))
        .from_reader(&bytes[..]);
    let mut record = ::csv::ByteRecord::new();
    match reader.read_byte_record(&mut record) {
        Ok(true) => record.iter().map(<[u8]>::to_vec).collect(),
        _ => Vec::new(),
    }
}

/// Where the CSV record starting at `read[0]` (lines as read, ends
/// included; `contents` the same without ends) ends: the offset of its last
/// line, and why it is cut back to its first instead, if it is: a quoted
/// field still open on a line over `cap` bytes or past the record cap of
/// lines of `cap` bytes
/// ([`crate::pipeline::reader::record_cap`]; the lines so far, their ends
/// included), or at the text's end, or a record over several lines with
/// text after a closing quote. `first` is the first line's offset in the
/// text, for the lines named.
fn csv_extent(
    read: &[&[u8]],
    contents: &[&[u8]],
    first: usize,
    cap: usize,
) -> (usize, Option<String>) {
    #[derive(Clone, Copy, PartialEq)]
    enum At {
        FieldStart,
        Unquoted,
        Quoted,
        Quote,
    }
    let mut at = At::FieldStart;
    // The first byte of text after a closing quote: its line.
    let mut stray = None;
    let mut so_far = 0;
    for (k, line) in read.iter().enumerate() {
        let length = so_far + contents[k].len();
        let record_cap = crate::pipeline::reader::record_cap(cap);
        if k > 0 && contents[k].len() > cap {
            let why = format!(
                "has a line over {cap} bytes, the limit of a line (line {}, {} bytes)",
                first + k + 1,
                contents[k].len()
            );
            return (k, Some(why));
        }
        if k > 0 && length > record_cap {
            let why = format!(
                "runs on past {record_cap} bytes, the limit of a record ({length} by line {})",
                first + k + 1
            );
            return (k, Some(why));
        }
        so_far += line.len();
        for (j, &b) in line.iter().enumerate() {
            at = match (at, b) {
                (At::Quoted, b'"') => At::Quote,
                (At::Quoted, _) => At::Quoted,
                (At::Quote, b'"') => At::Quoted,
                (_, b'\n' | b',') => At::FieldStart,
                (At::FieldStart, b'"') => At::Quoted,
                (At::Quote, _) => {
                    let crlf = b == b'\r' && line.get(j + 1) == Some(&b'\n');
                    if !crlf && stray.is_none() {
                        stray = Some(k);
                    }
                    At::Unquoted
                }
                _ => At::Unquoted,
            };
        }
        if at != At::Quoted {
            // The record ends at this line's end (or the text's).
            let why = stray
                .filter(|_| k > 0)
                .map(|s| format!("closes on line {} with text after the quote", first + s + 1));
            return (k, why);
        }
    }
    let last = read.len() - 1;
    (last, Some("is still open at the input's end".to_owned()))
}

/// The reader's clipping of an invalid field: 200 characters, then `...`.
fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}
