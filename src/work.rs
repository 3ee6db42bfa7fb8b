//! Per-record budgets counted in work, and the stop that cuts a record's
//! work short.
//!
//! A search that may run long (counting solutions, SE's chains) carries a
//! [`Meter`]: it charges units of work as it goes (the solver: one per
//! search node; the rater: one per potential its chains derive, see
//! [`crate::rating::se`]) and, every [`CHECK_EVERY`] units or so, looks
//! whether it must stop:
//!
//! - its **work budget** is spent ([`Cut::Work`]). Work is counted, not
//!   timed, so whether a record runs out, and how far it got, depend only
//!   on the record and the budget: rows are the same on an idle machine
//!   and on a loaded one, with one thread or many;
//! - its optional **wall-clock limit** has passed ([`Cut::Wall`]): an extra
//!   for callers who want a bound in seconds whatever the machine, at the
//!   price of results that depend on its load;
//! - a **stop was requested** ([`Cut::Stop`]): [`crate::interrupt`]'s
//!   SIGINT/SIGTERM flag. The command line drops the row of every record
//!   whose work was under way then (see [`crate::pipeline`]).
//!
//! Budgets on the command line are durations (`--time-budget 10s`): a
//! duration is turned into work at a fixed rate, the work this project's
//! reference host does per second ([`SOLVER_NODES_PER_SEC`],
//! [`RATER_UNITS_PER_SEC`]; the host and how the rates were measured are
//! in BENCHMARKS.md, "Work budgets"). On that host a budget of 10 s lasts
//! about 10 s; on a machine twice as fast, about 5 s; on the same machine
//! under load, longer; and in every case it ends at the same point of the
//! same search.

use std::time::{Duration, Instant};

/// Units of work between two looks at the stop flag and the clock, about
/// a millisecond of the solver's or the rater's work: a stop is seen
/// within a few milliseconds, and the looks cost nothing measurable.
pub const CHECK_EVERY: u64 = 4096;

/// Search nodes per second of reference work for the solver's budgets
/// (`count --time-budget`): the rate of counting the solutions of the
/// empty grid and of near-empty puzzles on the reference host, one thread
/// (BENCHMARKS.md, "Work budgets").
pub const SOLVER_NODES_PER_SEC: u64 = 10_000_000;

/// Units of work per second of reference work for the rater's budgets
/// (`rate --time-budget`, `solve --se-budget`, `explain --time-budget`,
/// `generate --se-budget`): the rate of SE's rating of the slowest puzzles
/// of hardest_1106 on the reference host, one thread (BENCHMARKS.md,
/// "Work budgets").
pub const RATER_UNITS_PER_SEC: u64 = 10_000_000;

/// The solver's work budget for `time` of reference work: search nodes,
/// at [`SOLVER_NODES_PER_SEC`] (at least 1).
pub fn solver_nodes(time: Duration) -> u64 {
    units_at(time, SOLVER_NODES_PER_SEC)
}

/// The rater's work budget for `time` of reference work, at
/// [`RATER_UNITS_PER_SEC`] (at least 1).
pub fn rater_units(time: Duration) -> u64 {
    units_at(time, RATER_UNITS_PER_SEC)
}

/// `time` at `per_sec` units a second, rounded to the nearest unit, at
/// least 1, saturating.
fn units_at(time: Duration, per_sec: u64) -> u64 {
    let units = time.as_secs_f64() * per_sec as f64;
    if units >= u64::MAX as f64 {
        u64::MAX
    } else {
        (units.round() as u64).max(1)
    }
}

/// What a [`Meter`] limits: work, and optionally wall time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Budget {
    /// Units of work (the searcher's own: see the module doc); `None`: no
    /// limit.
    pub work: Option<u64>,
    /// Wall time, from the meter's first look at the clock (after its
    /// first [`CHECK_EVERY`] units, so that short searches never read it);
    /// `None`: no limit. Results cut by it depend on the machine's speed
    /// and load.
    pub wall: Option<Duration>,
}

impl Budget {
    /// No limit: only a stop request cuts the work.
    pub const NONE: Budget = Budget {
        work: None,
        wall: None,
    };
}

/// Why a [`Meter`] cut the work short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cut {
    /// The work budget ([`Budget::work`]) was spent.
    Work,
    /// The wall-clock limit ([`Budget::wall`]) passed.
    Wall,
    /// A stop was requested ([`crate::interrupt::requested`]: SIGINT or
    /// SIGTERM; or this thread's own flag, [`crate::interrupt::stopped_here`]).
    Stop,
}

/// Counts one record's work against a [`Budget`] and watches for a stop
/// request; see the module doc.
///
/// The hot path is [`Meter::charge`], or [`Meter::count`] and
/// [`Meter::stopped`] (an add, and a compare); everything
/// else happens every [`CHECK_EVERY`] units, in a cold path.
#[derive(Debug, Clone)]
pub struct Meter {
    /// Units charged so far.
    used: u64,
    /// `used` at which to look again: the budget, or the next routine look.
    next_check: u64,
    /// The work budget (`u64::MAX`: none).
    limit: u64,
    wall: Option<Duration>,
    /// When the wall-clock limit passes, from the first look at the clock.
    deadline: Option<Instant>,
    cut: Option<Cut>,
}

impl Default for Meter {
    fn default() -> Self {
        Meter::new(Budget::NONE)
    }
}

impl Meter {
    /// A meter with nothing used yet.
    pub fn new(budget: Budget) -> Meter {
        let limit = budget.work.unwrap_or(u64::MAX);
        Meter {
            used: 0,
            next_check: limit.min(CHECK_EVERY),
            limit,
            wall: budget.wall,
            deadline: None,
            cut: None,
        }
    }

    /// Charges `units` of work; true when the work must stop (the budget is
    /// spent, the wall-clock limit passed or a stop was requested; see
    /// [`Meter::cut`]). Once true, true for good.
    #[inline]
    pub fn charge(&mut self, units: u64) -> bool {
        self.used += units;
        self.used >= self.next_check && self.check()
    }

    /// Counts `units` of work without looking whether to stop (for a hot
    /// loop that looks with [`Meter::stopped`] less often than it counts).
    #[inline]
    pub fn count(&mut self, units: u64) {
        self.used += units;
    }

    /// Whether the work must stop, without charging: looks at the budget,
    /// the clock and the stop flag only when a routine look is due (see
    /// [`Meter::charge`]).
    #[inline]
    pub fn stopped(&mut self) -> bool {
        self.used >= self.next_check && self.check()
    }

    /// The routine look: budget, stop flag, clock.
    #[cold]
    #[inline(never)]
    fn check(&mut self) -> bool {
        if self.cut.is_some() {
            return true;
        }
        if self.used >= self.limit {
            self.cut = Some(Cut::Work);
        } else if crate::interrupt::requested().is_some() || crate::interrupt::stopped_here() {
            self.cut = Some(Cut::Stop);
        } else if let Some(wall) = self.wall {
            let now = Instant::now();
            if now >= *self.deadline.get_or_insert(now + wall) {
                self.cut = Some(Cut::Wall);
            }
        }
        if self.cut.is_some() {
            self.next_check = 0;
            return true;
        }
        self.next_check = self.limit.min(self.used.saturating_add(CHECK_EVERY));
        false
    }

    /// Why the work was cut short, if it was.
    pub fn cut(&self) -> Option<Cut> {
        self.cut
    }

    /// Units charged so far.
    pub fn used(&self) -> u64 {
        self.used
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_cuts_at_the_same_unit_whatever_the_clock() {
        for budget in [1, 5, CHECK_EVERY - 1, CHECK_EVERY, 3 * CHECK_EVERY + 7] {
            let mut meter = Meter::new(Budget {
                work: Some(budget),
                wall: Some(Duration::from_secs(3600)),
            });
            let mut spent = 0;
            while !meter.charge(1) {
                spent += 1;
                assert!(spent <= budget, "budget {budget}");
            }
            assert_eq!(meter.used(), budget, "cut exactly at the budget");
            assert_eq!(meter.cut(), Some(Cut::Work));
            assert!(meter.charge(0) && meter.stopped(), "a cut is for good");
        }
    }

    #[test]
    fn no_budget_never_cuts_and_a_wall_limit_does() {
        let mut meter = Meter::default();
        for _ in 0..10 {
            assert!(!meter.charge(CHECK_EVERY));
        }
        assert_eq!(meter.cut(), None);
        let mut meter = Meter::new(Budget {
            work: None,
            wall: Some(Duration::from_millis(1)),
        });
        let start = Instant::now();
        while !meter.charge(1) {
            assert!(start.elapsed() < Duration::from_secs(60));
        }
        assert_eq!(meter.cut(), Some(Cut::Wall));
    }

    #[test]
    fn durations_become_units_at_the_reference_rates() {
        assert_eq!(solver_nodes(Duration::from_secs(1)), SOLVER_NODES_PER_SEC);
        assert_eq!(
            rater_units(Duration::from_millis(500)),
            RATER_UNITS_PER_SEC / 2
        );
        assert_eq!(solver_nodes(Duration::from_nanos(1)), 1);
        assert_eq!(rater_units(Duration::MAX), u64::MAX);
    }
}
