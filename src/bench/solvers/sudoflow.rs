//! `sudoflow`, `sudoflow-basic`, `sudoflow-matching`, `sudoflow-matching-root`:
//! the product solver ([`crate::solver::Solver`]) at its default pruning level
//! and at each explicit [`Prune`] level (`basic` = singles and locked
//! candidates; `matching` = plus forbidden-edge deletion, SEEDS.md section 1,
//! at every node; `matching-root` = the same before the first guess only).

use crate::bench::{Answer, BenchSolver, Settings};
use crate::grid::Grid;
use crate::solver::{Prune, SolveOptions, Solver};

/// The product solver behind the [`BenchSolver`] trait.
pub struct SudoflowSolver {
    name: &'static str,
    opts: SolveOptions,
    solver: Solver,
}

impl SudoflowSolver {
    /// `prune = None` keeps [`SolveOptions::default`]'s level.
    pub fn new(name: &'static str, prune: Option<Prune>, settings: &Settings) -> SudoflowSolver {
        let defaults = SolveOptions::default();
        let opts = SolveOptions {
            prune: prune.unwrap_or(defaults.prune),
            // `bench` times solvers: its budget is wall time.
            budget: crate::work::Budget {
                work: None,
                wall: settings.time_budget,
            },
            ..defaults
        };
        SudoflowSolver {
            name,
            opts,
            solver: Solver::new(opts),
        }
    }
}

impl BenchSolver for SudoflowSolver {
    fn name(&self) -> &str {
        self.name
    }

    fn solve(&mut self, puzzle: &Grid, limit: u64) -> Answer {
        let limit = limit.max(1);
        if self.opts.limit != limit {
            self.opts.limit = limit;
            self.solver = Solver::new(self.opts);
        }
        let outcome = self.solver.solve(puzzle);
        let known = !outcome.timed_out && !outcome.stuck;
        Answer {
            solutions: known.then_some(outcome.solutions),
            solution: outcome.solution,
            guesses: Some(outcome.guesses),
            timed_out: outcome.timed_out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::solvers::testkit;

    /// `all` and the default set leave `sudoflow-basic` out because it is
    /// `sudoflow` itself; if the default pruning changes, they must change.
    #[test]
    fn sudoflow_basic_is_the_default_solver_and_left_out_of_the_sets() {
        assert_eq!(Prune::default(), Prune::Basic);
        assert!(!crate::bench::solvers::ALL.contains(&"sudoflow-basic"));
        assert!(!crate::bench::solvers::DEFAULT.contains(&"sudoflow-basic"));
        let settings = Settings { time_budget: None };
        let a = SudoflowSolver::new("sudoflow", None, &settings);
        let b = SudoflowSolver::new("sudoflow-basic", Some(Prune::Basic), &settings);
        assert_eq!(a.opts, b.opts);
    }

    #[test]
    fn every_level_agrees_with_the_default_solver() {
        let settings = Settings { time_budget: None };
        for prune in [
            None,
            Some(Prune::Basic),
            Some(Prune::Matching),
            Some(Prune::MatchingRoot),
        ] {
            testkit::check_complete(&mut SudoflowSolver::new("sudoflow", prune, &settings));
        }
    }
}
