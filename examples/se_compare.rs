//! Development aid: rates `PUZZLE ED=er/ep/ed` lines and reports the ones
//! whose ratings differ from the reference. `--steps` prints each step.
//!
//! `--work` prints, per puzzle, the rating's thread CPU seconds and work
//! units (`WORK secs units er`), the figures behind
//! [`sudoflow::work::RATER_UNITS_PER_SEC`]; `--budget SECS` rates within
//! that much reference work.
//!
//! `cargo run --release --example se_compare -- FILE [--steps] [--work] [--budget SECS]`

use std::io::BufRead;
use std::time::{Duration, Instant};
use sudoflow::grid::Grid;
use sudoflow::rating::se::{Options, Rater, Rating};

/// The calling thread's CPU time in seconds.
fn cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write to.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps = args.iter().any(|a| a == "--steps");
    let work = args.iter().any(|a| a == "--work");
    let budget = args
        .iter()
        .position(|a| a == "--budget")
        .map(|i| Duration::from_secs_f64(args[i + 1].parse().unwrap()));
    let file = &args[0];
    let reader: Box<dyn BufRead> = if file == "-" {
        Box::new(std::io::BufReader::new(std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::new(std::fs::File::open(file).unwrap()))
    };
    let mut rater = Rater::new();
    if args.iter().any(|a| a == "--profile") {
        rater.enable_profile();
    }
    let (mut n, mut exact, mut er_ok) = (0, 0, 0);
    let start = Instant::now();
    for line in reader.lines() {
        let line = line.unwrap();
        if line.len() < 81 || line.starts_with('#') {
            continue;
        }
        let puzzle = Grid::parse(&line[..81]).unwrap();
        let expect = line.split("ED=").nth(1).map(str::trim).unwrap_or("");
        let t = Instant::now();
        let opts = Options {
            budget: sudoflow::work::Budget {
                work: budget.map(sudoflow::work::rater_units),
                wall: None,
            },
            keep_steps: steps,
            ceiling: None,
        };
        let cpu0 = cpu();
        let got = match rater.rate(&puzzle, &opts) {
            Ok(r) => r,
            Err(e) => {
                println!("{} TIMEOUT {e} expected {expect}", &line[..81]);
                n += 1;
                continue;
            }
        };
        if work {
            // CPU seconds and work units of the rating (BENCHMARKS.md,
            // "Work budgets").
            println!(
                "WORK {:.6} {} {}",
                cpu() - cpu0,
                got.work,
                Rating::format(got.er)
            );
        }
        let text = format!(
            "{}/{}/{}",
            Rating::format(got.er),
            Rating::format(got.ep),
            Rating::format(got.ed)
        );
        n += 1;
        if text == expect {
            exact += 1;
        } else {
            println!(
                "{} got {text} expected {expect} ({} steps, {:.3}s) {}",
                &line[..81],
                got.step_count,
                t.elapsed().as_secs_f64(),
                got.technique
            );
        }
        if expect.split('/').next() == text.split('/').next() {
            er_ok += 1;
        }
        if steps {
            for (i, h) in got.steps.iter().enumerate() {
                let mut s = format!(
                    "S {} {} [{:?}] {}",
                    i + 1,
                    Rating::format(h.difficulty),
                    h.difficulty,
                    h.name
                );
                if let Some((c, v)) = h.placement {
                    s += &format!(" place r{}c{}={}", c / 9 + 1, c % 9 + 1, v);
                }
                s += " rm";
                for &(c, m) in &h.removals {
                    let vs: Vec<String> = (1..=9)
                        .filter(|v| m >> v & 1 != 0)
                        .map(|v| v.to_string())
                        .collect();
                    s += &format!(" r{}c{}-{}", c / 9 + 1, c % 9 + 1, vs.join(","));
                }
                println!("{s}");
            }
        }
    }
    for p in rater.profile() {
        if p.time.as_micros() > 0 {
            eprintln!(
                "{:>28} {:8.3}s {:6} hints",
                p.producer,
                p.time.as_secs_f64(),
                p.hints
            );
        }
    }
    eprintln!(
        "{n} puzzles, {exact} exact, {er_ok} ER exact, {:.2}s",
        start.elapsed().as_secs_f64()
    );
}
