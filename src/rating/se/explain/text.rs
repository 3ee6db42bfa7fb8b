//! A step told in words: what `sudoflow explain`'s text form prints under
//! each step (the project's own wording, not SE's), naming the cells, the
//! digits, the units and, for chains, each implication.
//!
//! Notation: `r4c2=1` the cell holds 1, `r4c2<>1` it does not; units are
//! `row 4`, `column 2`, `block 5` (blocks numbered row by row).

use super::{Chain, Implication, Potential, Step, Why};
use crate::grid::cell_name;
use crate::rating::se::board::{
    bit, digits, Board, Card, BLOCK, CELL_REGIONS, COLUMN, REGION_CELLS, ROW,
};

/// The name of region `r` (0..27: blocks, rows, columns): `block 3`.
pub fn unit_name(r: usize) -> String {
    let (ty, i) = (r / 9, r % 9 + 1);
    match ty {
        BLOCK => format!("block {i}"),
        ROW => format!("row {i}"),
        _ => format!("column {i}"),
    }
}

/// The region of type `ty` (BLOCK, ROW, COLUMN) holding `cell`.
fn unit_of(cell: usize, ty: usize) -> usize {
    CELL_REGIONS[cell][ty] as usize
}

/// `r1c2, r1c5`.
fn cells_text(cells: impl IntoIterator<Item = usize>) -> String {
    cells
        .into_iter()
        .map(cell_name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// `2, 5` for a candidate mask.
fn digits_text(mask: u16) -> String {
    digits(mask)
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `r4c2=1` or `r4c2<>1`.
fn potential_text(p: &Potential) -> String {
    p.name()
}

/// What the step changes: `r4c2=1`, `r1c3<>9, r2c3<>9`.
pub fn result_text(step: &Step) -> String {
    let mut parts: Vec<String> = step.placed_name().into_iter().collect();
    parts.extend(step.removed_names());
    if parts.is_empty() {
        "nothing".to_string()
    } else {
        parts.join(", ")
    }
}

/// The removals only, `r1c3<>9, r2c3<>9`, or `nothing`.
fn removed_text(step: &Step) -> String {
    let r = step.removed_names();
    if r.is_empty() {
        "nothing".to_string()
    } else {
        r.join(", ")
    }
}

/// The regions of types `types` (in that order) holding every cell of
/// `cells`.
fn common_units(cells: &[usize], types: &[usize]) -> Vec<usize> {
    types
        .iter()
        .filter_map(|&ty| {
            let r = unit_of(*cells.first()?, ty);
            cells.iter().all(|&c| unit_of(c, ty) == r).then_some(r)
        })
        .collect()
}

/// The reason of an implication, in words: `1 is once in row 4`, `the only
/// place left for 1 in row 4`, `the only digit left in r4c2`.
pub fn why_text(i: &Implication) -> String {
    let then = &i.then;
    let cell = then.cell as usize;
    let d = then.digit;
    let unit = |ty: usize| unit_name(unit_of(cell, ty));
    match (&i.why, then.on) {
        (Why::Cell, true) => format!("the only digit left in {}", cell_name(cell)),
        (Why::Cell, false) => "a cell holds one digit".to_string(),
        (Why::Row, true) => format!("the only place left for {d} in {}", unit(ROW)),
        (Why::Column, true) => format!("the only place left for {d} in {}", unit(COLUMN)),
        (Why::Block, true) => format!("the only place left for {d} in {}", unit(BLOCK)),
        (Why::Row, false) => format!("{d} is once in {}", unit(ROW)),
        (Why::Column, false) => format!("{d} is once in {}", unit(COLUMN)),
        (Why::Block, false) => format!("{d} is once in {}", unit(BLOCK)),
        (Why::Technique(name), _) if name.is_empty() => "given".to_string(),
        (Why::Technique(name), _) => format!("by {name} on what the chain removed"),
    }
}

/// One implication: `r6c2=1, r4c1<>1 -> r4c6=1 (the only place left for 1
/// in row 4)`.
pub fn implication_text(i: &Implication) -> String {
    let given: Vec<String> = i.given.iter().map(potential_text).collect();
    format!(
        "{} -> {} ({})",
        given.join(", "),
        potential_text(&i.then),
        why_text(i)
    )
}

/// The lines of a chain, numbered from 1.
fn chain_lines(chain: &Chain, indent: &str) -> Vec<String> {
    chain
        .iter()
        .enumerate()
        .map(|(n, i)| format!("{indent}{:>2}. {}", n + 1, implication_text(i)))
        .collect()
}

/// The step told in words, one line per sentence or implication, on the
/// candidates `board` had before it (replay the steps from the puzzle's
/// [`Board`] with [`Step::apply`] to get them).
pub fn describe(step: &Step, board: &Board) -> Vec<String> {
    let t = step.technique.as_str();
    let cells: Vec<usize> = step.cells.iter().map(|&c| c as usize).collect();
    if !step.chains.is_empty() || is_chain(t) {
        return describe_chains(step, &cells);
    }
    let cands = board.candidates();
    let placed = step.placed.map(|(c, v)| (c as usize, v));
    let removed_digits = step.removed.iter().fold(0u16, |m, &(_, v)| m | bit(v));
    match t {
        "Hidden Single" => {
            let (cell, v) = placed.unwrap_or((cells[0], 0));
            vec![hidden_single_text(board, cell, v, step.rating)]
        }
        "Naked Single" => {
            let (cell, v) = placed.unwrap_or((cells[0], 0));
            vec![format!(
                "{v} is the only candidate left in {}: {}={v}.",
                cell_name(cell),
                cell_name(cell)
            )]
        }
        "Direct Pointing" | "Direct Claiming" | "Pointing" | "Claiming" => {
            locked_text(step, &cells, placed)
        }
        _ if t.starts_with("Naked ") => {
            let set = cells.iter().fold(0u16, |m, &c| m | cands[c]);
            let unit = common_units(&cells, &[BLOCK, COLUMN, ROW])
                .into_iter()
                .find(|&r| {
                    step.removed
                        .iter()
                        .all(|&(c, _)| unit_of(c as usize, r / 9) == r)
                })
                .unwrap_or(unit_of(cells[0], BLOCK));
            vec![format!(
                "In {}, the {} cells {} hold only the digits {} between them, so no other \
                 cell of {} has them: {}.",
                unit_name(unit),
                cells.len(),
                cells_text(cells.iter().copied()),
                digits_text(set),
                unit_name(unit),
                removed_text(step)
            )]
        }
        _ if t.starts_with("Hidden ") || t.starts_with("Direct Hidden ") => {
            hidden_set_text(step, board, &cells, placed)
        }
        "X-Wing" | "Swordfish" | "Jellyfish" => fish_text(step, &cells, removed_digits),
        "XY-Wing" | "XYZ-Wing" => {
            let z = removed_digits;
            let named: Vec<String> = cells
                .iter()
                .map(|&c| format!("{} {{{}}}", cell_name(c), digits_text(cands[c])))
                .collect();
            let (who, pincers) = if t == "XYZ-Wing" {
                ("the pivot or one of its pincers", "all three cells")
            } else {
                ("one of the pincers", "both pincers")
            };
            vec![
                format!(
                    "Pivot {} with pincers {} and {}: whatever the pivot holds, {who} is {}.",
                    named[0],
                    named.get(1).map_or("", String::as_str),
                    named.get(2).map_or("", String::as_str),
                    digits_text(z)
                ),
                format!(
                    "So a cell that sees {pincers} cannot be {}: {}.",
                    digits_text(z),
                    removed_text(step)
                ),
            ]
        }
        _ if t.starts_with("Unique ") => {
            let pair = cells.iter().fold(0x3feu16, |m, &c| m & cands[c]);
            let shape = if cells.len() == 4 {
                "rectangle"
            } else {
                "loop"
            };
            vec![
                format!(
                    "The cells {} form a {shape} on the digits {}: if they held only those \
                     two, the digits could swap around the {shape} and the puzzle would have \
                     two solutions.",
                    cells_text(cells.iter().copied()),
                    digits_text(pair)
                ),
                format!(
                    "The puzzle has one solution, so the {shape} must not close: {}.",
                    result_text(step)
                ),
            ]
        }
        _ if t.starts_with("BUG") => {
            vec![
                format!(
                    "Without the extra candidates of {}, every unsolved cell would have two \
                     candidates and every digit two places in each unit: a pattern with two \
                     solutions (a BUG).",
                    cells_text(cells.iter().copied())
                ),
                format!(
                    "The puzzle has one solution, so one of those extra candidates is true: {}.",
                    result_text(step)
                ),
            ]
        }
        _ if t.starts_with("Aligned") => {
            vec![format!(
                "Every combination of values of {} that uses a removed candidate leaves a \
                 cell seeing them all with no candidate, or puts one digit twice in a unit: \
                 {}.",
                cells_text(cells.iter().copied()),
                removed_text(step)
            )]
        }
        _ => vec![format!(
            "Cells {}: {}.",
            cells_text(cells.iter().copied()),
            result_text(step)
        )],
    }
}

/// Whether SE explains technique `t` with chains.
fn is_chain(t: &str) -> bool {
    t.contains("Cycle") || t.contains("Chain") || t == "Turbot Fish" || t == "Generalized X-Wing"
}

/// A hidden single: the unit where `v` has one place left, or which has
/// one empty cell (rating 1.0).
fn hidden_single_text(board: &Board, cell: usize, v: u8, rating: f64) -> String {
    let name = cell_name(cell);
    if rating <= 1.0 {
        for ty in [BLOCK, COLUMN, ROW] {
            let r = unit_of(cell, ty);
            if board.empty_count(r) == 1 {
                return format!(
                    "{name} is the last empty cell of {}: it takes the missing {v}.",
                    unit_name(r)
                );
            }
        }
    }
    let types: &[usize] = if rating <= 1.2 {
        &[BLOCK, COLUMN, ROW]
    } else {
        &[COLUMN, ROW, BLOCK]
    };
    for &ty in types {
        let r = unit_of(cell, ty);
        if board.positions(r, v).card() == 1 {
            return format!(
                "{name} is the only place left for {v} in {}: {name}={v}.",
                unit_name(r)
            );
        }
    }
    format!("{name}={v}.")
}

/// Pointing and claiming, direct or not.
fn locked_text(step: &Step, cells: &[usize], placed: Option<(usize, u8)>) -> Vec<String> {
    let pointing = step.technique.ends_with("Pointing");
    let v = match placed {
        // The locked digit is the one placed by the following single.
        Some((_, v)) => v,
        None => step.removed.first().map_or(0, |&(_, v)| v),
    };
    let line_ty = if common_units(cells, &[ROW]).is_empty() {
        COLUMN
    } else {
        ROW
    };
    let block = unit_of(cells[0], BLOCK);
    let line = unit_of(cells[0], line_ty);
    let (inside, outside) = if pointing {
        (block, line)
    } else {
        (line, block)
    };
    let mut lines = vec![format!(
        "In {}, {v} can only be in {}, which are all in {}: so {v} is nowhere else in {}{}",
        unit_name(inside),
        cells_text(cells.iter().copied()),
        unit_name(outside),
        unit_name(outside),
        if placed.is_some() {
            ".".to_string()
        } else {
            format!(": {}.", removed_text(step))
        }
    )];
    if let Some((c, v)) = placed {
        // The single is in a unit of the first type, crossing `outside`.
        let ty = if pointing { BLOCK } else { line_ty };
        let r = unit_of(c, ty);
        lines.push(format!(
            "That leaves {} as the only place for {v} in {}: {}={v}.",
            cell_name(c),
            unit_name(r),
            cell_name(c)
        ));
    }
    lines
}

/// Hidden subsets, direct or not.
fn hidden_set_text(
    step: &Step,
    board: &Board,
    cells: &[usize],
    placed: Option<(usize, u8)>,
) -> Vec<String> {
    let set_cells = cells.iter().fold(0u128, |m, &c| m | 1u128 << c);
    // The unit (SE's order: blocks, columns, rows) whose digits fit only
    // in the set's cells, as many digits as cells.
    let mut found = None;
    for r in common_units(cells, &[BLOCK, COLUMN, ROW]) {
        // A direct hidden set's single is in the set's unit.
        if placed.is_some_and(|(c, _)| unit_of(c, r / 9) != r) {
            continue;
        }
        let mut ds = 0u16;
        for v in 1..=9u8 {
            let pos = board.positions(r, v);
            if pos == 0 {
                continue;
            }
            let inside = REGION_CELLS[r]
                .iter()
                .enumerate()
                .filter(|&(k, _)| pos >> k & 1 != 0)
                .all(|(_, &c)| set_cells >> c & 1 != 0);
            if inside {
                ds |= bit(v);
            }
        }
        if ds.card() as usize == cells.len() {
            found = Some((r, ds));
            break;
        }
    }
    let Some((r, ds)) = found else {
        return vec![format!(
            "Cells {}: {}.",
            cells_text(cells.iter().copied()),
            result_text(step)
        )];
    };
    let head = format!(
        "In {}, the digits {} fit only in {}, so those cells hold no other digit",
        unit_name(r),
        digits_text(ds),
        cells_text(cells.iter().copied())
    );
    match placed {
        Some((c, v)) => vec![
            format!("{head}."),
            format!(
                "That leaves {} as the only place for {v} in {}: {}={v}.",
                cell_name(c),
                unit_name(r),
                cell_name(c)
            ),
        ],
        None => vec![format!("{head}: {}.", removed_text(step))],
    }
}

/// X-Wing, Swordfish, Jellyfish.
fn fish_text(step: &Step, cells: &[usize], removed_digits: u16) -> Vec<String> {
    let v = digits(removed_digits).next().unwrap_or(0);
    let rows = cells.iter().fold(0u16, |m, &c| m | 1 << (c / 9));
    let cols = cells.iter().fold(0u16, |m, &c| m | 1 << (c % 9));
    // The removals lie in the cover lines.
    let cover_cols = step
        .removed
        .iter()
        .all(|&(c, _)| cols >> (c as usize % 9) & 1 != 0);
    let list = |m: u16| {
        (0..9)
            .filter(|i| m >> i & 1 != 0)
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (base, cover) = if cover_cols {
        (
            format!("rows {}", list(rows)),
            format!("columns {}", list(cols)),
        )
    } else {
        (
            format!("columns {}", list(cols)),
            format!("rows {}", list(rows)),
        )
    };
    vec![
        format!(
            "In {base}, {v} can only be in {cover} (cells {}): one {v} per line of {base} \
             fills {cover}.",
            cells_text(cells.iter().copied())
        ),
        format!("So {v} is nowhere else in {cover}: {}.", removed_text(step)),
    ]
}

/// The chaining techniques: what is assumed and concluded, then each chain.
fn describe_chains(step: &Step, cells: &[usize]) -> Vec<String> {
    let t = step.technique.as_str();
    let result = result_text(step);
    let mut lines = Vec::new();
    let start = |chain: &Chain| chain.first().and_then(|i| i.given.first()).copied();
    if t.contains("Cycle") || t == "Generalized X-Wing" {
        lines.push(format!(
            "The cells {} form a loop of links that holds in both directions: one of its two \
             ways of filling is true, and in either way each candidate removed sees its \
             digit placed in the loop.",
            cells_text(cells.iter().copied())
        ));
        lines.push(format!("So: {result}."));
        for (n, chain) in step.chains.iter().enumerate() {
            let way = if n == 0 { "one way" } else { "the other way" };
            lines.push(format!("  {way}:"));
            lines.extend(chain_lines(chain, "    "));
        }
        return lines;
    }
    let assumed = step.chains.first().and_then(start);
    if t.contains("Nishio") || t.contains("Contradiction") {
        let a = assumed.map_or_else(String::new, |p| potential_text(&p));
        lines.push(format!(
            "Suppose {a}: the two chains below lead to one candidate both true and false, a \
             contradiction; so {a} is false: {result}."
        ));
    } else if t.contains("Double") {
        let a = assumed.map_or_else(String::new, |p| potential_text(&p));
        lines.push(format!(
            "Whether {a} holds or not, the chains below reach the same conclusion: {result}."
        ));
    } else if t.contains("Cell Forcing") {
        lines.push(format!(
            "Each candidate of {} leads to the same conclusion through the chains below, and \
             one of them is true: {result}.",
            cells.first().map_or_else(String::new, |&c| cell_name(c))
        ));
    } else if t.contains("Region Forcing") {
        let starts: Vec<Potential> = step.chains.iter().filter_map(start).collect();
        let v = starts.first().map_or(0, |p| p.digit);
        let starts_cells: Vec<usize> = starts.iter().map(|p| p.cell as usize).collect();
        let unit = common_units(&starts_cells, &[BLOCK, ROW, COLUMN])
            .first()
            .map_or_else(|| "its unit".to_string(), |&r| unit_name(r));
        lines.push(format!(
            "{v} must be somewhere in {unit}, and each place for it leads to the same \
             conclusion through the chains below: {result}."
        ));
    } else {
        // A forcing chain from one assumption to its opposite.
        let a = assumed.map_or_else(String::new, |p| potential_text(&p));
        lines.push(format!(
            "Suppose {a}: the chain below leads to its opposite, so {a} is false: {result}."
        ));
    }
    let many = step.chains.len() > 1;
    for (n, chain) in step.chains.iter().enumerate() {
        if many {
            let from = start(chain).map_or_else(String::new, |p| potential_text(&p));
            lines.push(format!("  chain {} (from {from}):", n + 1));
            lines.extend(chain_lines(chain, "    "));
        } else {
            lines.extend(chain_lines(chain, "  "));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Grid;
    use crate::rating::se::explain::Explanation;
    use crate::rating::se::{Options, Rater};

    /// The region named `row 4`, `column 2`, `block 5`.
    fn unit_named(name: &str) -> usize {
        let (ty, i) = name.split_once(' ').unwrap();
        let i: usize = i.parse().unwrap();
        match ty {
            "block" => BLOCK * 9 + i - 1,
            "row" => ROW * 9 + i - 1,
            _ => COLUMN * 9 + i - 1,
        }
    }

    /// The cell named `r4c2`.
    fn cell_named(name: &str) -> usize {
        let b = name.as_bytes();
        usize::from(b[1] - b'1') * 9 + usize::from(b[3] - b'1')
    }

    /// The puzzles SE rated for the tests, ER 1.2 to 8.9, explained.
    fn explanations() -> Vec<Explanation> {
        let text = include_str!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/se_rated.txt"
        ));
        let options = Options {
            keep_steps: true,
            ..Options::default()
        };
        let mut rater = Rater::new();
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| {
                let grid = Grid::parse(&l[..81]).unwrap();
                let rating = rater.rate(&grid, &options).unwrap();
                Explanation::new(Board::new(&grid), rating)
            })
            .collect()
    }

    #[test]
    fn every_unit_named_holds_the_cells_said_to_be_in_it() {
        let mut checked = 0;
        for ex in explanations() {
            for ((step, board), words) in ex.steps.iter().zip(ex.boards()).zip(ex.describe()) {
                assert!(!words.is_empty(), "{}", step.technique);
                for line in &words {
                    // "<cell> is the only place left for <v> in <unit>" and
                    // "That leaves <cell> as the only place for <v> in <unit>".
                    // In an implication, "<given> -> <cell>=<v> (the only
                    // place left for <v> in <unit>)".
                    for (at, _) in line.match_indices(" only place ") {
                        let before = &line[..at];
                        let cell = match before.split_once(" -> ") {
                            Some((_, then)) => &then[..4],
                            None => before
                                .split_whitespace()
                                .rev()
                                .find(|w| w.len() == 4 && w.starts_with('r'))
                                .unwrap_or_else(|| panic!("{line}")),
                        };
                        let rest = &line[at..];
                        let unit = rest.split(" in ").nth(1).unwrap();
                        let unit: String = unit.split([':', ')', '.', ',']).next().unwrap().into();
                        let r = unit_named(&unit);
                        assert!(
                            REGION_CELLS[r].contains(&(cell_named(cell) as u8)),
                            "{}: {line}",
                            step.technique
                        );
                        checked += 1;
                    }
                    // "In <unit>, the digits <d> fit only in <cells>": those
                    // digits have no other place in the unit.
                    if let Some(rest) = line.strip_prefix("In ") {
                        if let Some((unit, tail)) = rest.split_once(", the digits ") {
                            let r = unit_named(unit);
                            let (ds, cells) = tail.split_once(" fit only in ").unwrap();
                            let cells: Vec<usize> = cells
                                .split([',', ' '])
                                .filter(|w| w.len() == 4 && w.starts_with('r'))
                                .map(cell_named)
                                .collect();
                            for d in ds.split(", ") {
                                let v: u8 = d.parse().unwrap();
                                for (k, &c) in REGION_CELLS[r].iter().enumerate() {
                                    if board.positions(r, v) >> k & 1 != 0 {
                                        assert!(cells.contains(&(c as usize)), "{line}");
                                    }
                                }
                            }
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 100, "{checked} sentences checked");
    }

    #[test]
    fn replaying_the_steps_solves_the_puzzle() {
        for ex in explanations() {
            let mut board = ex.start.clone();
            for step in &ex.steps {
                assert!(step.apply(&mut board), "{} changed nothing", step.technique);
            }
            assert!(board.is_solved());
            assert_eq!(ex.boards().len(), ex.steps.len());
        }
    }
}
