//! Which instruction set the solver's hot loops run on, chosen at run time.
//!
//! The product binary is built for the x86_64 baseline (SSE2), never with
//! `-C target-cpu=native`. Where the CPU has AVX2, BMI1, BMI2, POPCNT and
//! LZCNT (every x86_64 CPU since Intel Haswell and AMD Zen), the search
//! (`solver/core.rs`, with propagation, `State::propagate_body` in
//! `solver/state.rs`, inlined into it) and the branching score
//! (`super::branch`) run a second copy of the same code compiled with them:
//! VEX encodings (three-operand SSE, no register copies), `tzcnt`, `blsr`,
//! `andn`, `shlx`/`shrx` for the variable shifts, `popcnt`. The search is the
//! same on both paths: identical solutions, guesses and backtracks
//! (tests/solver_simd.rs holds them to it).
//!
//! The choice is made once per process: the CPU's features (std's cached
//! `is_x86_feature_detected!`), unless the environment variable
//! `SUDOFLOW_SIMD` is `sse2` (force the baseline path, as CI does to test
//! it) or [`force`] was called.

use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set path of the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    /// The x86_64 baseline (SSE2), or any other architecture's portable code.
    Sse2,
    /// AVX2 with BMI1, BMI2, POPCNT and LZCNT (x86_64 only).
    Avx2,
}

impl Simd {
    /// The path's name as `bench` and the docs write it: `sse2` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Sse2 => "sse2",
            Simd::Avx2 => "avx2",
        }
    }
}

/// 0: not chosen yet; 1: [`Simd::Sse2`]; 2: [`Simd::Avx2`].
static PATH: AtomicU8 = AtomicU8::new(0);

/// The path in use (chosen on first call: see the module documentation).
#[inline]
pub fn current() -> Simd {
    match PATH.load(Ordering::Relaxed) {
        1 => Simd::Sse2,
        2 => Simd::Avx2,
        _ => choose(),
    }
}

/// Whether the CPU can run [`Simd::Avx2`].
pub fn avx2_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

#[cold]
fn choose() -> Simd {
    let forced_baseline = std::env::var_os("SUDOFLOW_SIMD").is_some_and(|v| v == "sse2");
    let path = if !forced_baseline && avx2_available() {
        Simd::Avx2
    } else {
        Simd::Sse2
    };
    store(path);
    path
}

fn store(path: Simd) {
    PATH.store(
        match path {
            Simd::Sse2 => 1,
            Simd::Avx2 => 2,
        },
        Ordering::Relaxed,
    );
}

/// Makes every solver in the process use `path` from now on (tests and
/// benchmarks compare the paths with it).
///
/// Errors: [`Simd::Avx2`] on a CPU without its features; the path in use
/// is then unchanged.
pub fn force(path: Simd) -> Result<(), String> {
    if path == Simd::Avx2 && !avx2_available() {
        return Err("this CPU lacks AVX2, BMI1, BMI2, POPCNT or LZCNT".into());
    }
    store(path);
    Ok(())
}
