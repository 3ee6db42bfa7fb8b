//! How much of each public set the seed's pure matching method solves
//! (SEEDS.md section 1: it fails on 17-clue puzzles): givens to candidates,
//! then forbidden edges deleted in all 27 units to a fixed point, no search.
//!
//! `cargo run --release --example matching_only` prints, per set, the share of
//! puzzles solved, stuck (fixed point with open cells) and contradicted (which
//! should be 0: every public puzzle has a solution), and the mean time per
//! puzzle on one thread (including the check that each solved grid obeys the
//! rules and the givens; a failure is printed).

use std::time::Instant;
use sudoflow::datasets;
use sudoflow::grid::Grid;
use sudoflow::solver::matching::{candidates_from_givens, propagate_matching};

fn main() -> anyhow::Result<()> {
    println!(
        "{:<36} {:>7} {:>8} {:>8} {:>8} {:>10}",
        "set", "puzzles", "solved%", "stuck%", "contra%", "us/puzzle"
    );
    for name in datasets::PUBLIC {
        let puzzles = datasets::load_public(name)?;
        let (mut solved, mut stuck, mut contradictions, mut wrong) = (0u64, 0u64, 0u64, 0u64);
        let t = Instant::now();
        for puzzle in &puzzles {
            let mut cands = candidates_from_givens(puzzle);
            match propagate_matching(&mut cands) {
                Ok(true) => {
                    solved += 1;
                    let grid = Grid::from_cells(cands.map(|c| c.trailing_zeros() as u8 + 1));
                    if !grid.is_some_and(|g| g.is_solution_of(puzzle)) {
                        wrong += 1;
                    }
                }
                Ok(false) => stuck += 1,
                Err(_) => contradictions += 1,
            }
        }
        let secs = t.elapsed().as_secs_f64();
        let n = puzzles.len() as f64;
        let pct = |k: u64| 100.0 * k as f64 / n;
        println!(
            "{:<36} {:>7} {:>8.2} {:>8.2} {:>8.2} {:>10.2}",
            name.trim_end_matches(".txt"),
            puzzles.len(),
            pct(solved),
            pct(stuck),
            pct(contradictions),
            1e6 * secs / n
        );
        if wrong > 0 {
            println!("  {wrong} solved grids break the rules or the givens");
        }
    }
    Ok(())
}
