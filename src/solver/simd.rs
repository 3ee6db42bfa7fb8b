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
//! same on every path: identical solutions, guesses and backtracks
//! (tests/solver_simd.rs holds them to it).
//!
//! A third copy, [`Simd::Avx2Pext`], is the AVX2 one with propagation's
//! minirow pattern read by one `pext`: -3.5% instructions and 3-4% less
//! time on every public set (Zen 4). It is chosen only where `pext` is
//! fast ([`fast_pext_available`]); elsewhere the AVX2 copy runs.
//!
//! A fourth, [`Simd::Avx512`], is the `pext` copy compiled with AVX-512 as
//! well (F, VL, BW, DQ, CD: the x86-64-v4 level), chosen where the CPU has
//! it (Intel since Skylake-SP, AMD since Zen 4): the same source, where
//! the compiler turns the SSE2 steps' compare, pack and `pmovmskb` chains
//! into `vptestmd` and mask registers and the lane-wise boolean code into
//! `vpternlogd`. Measured on Zen 4 (BENCHMARKS.md, sixth session), puzzles
//! per second against the `pext` copy: hardest_1106 +4.7%, top1465 +2.3%,
//! 17-clue +1.2%, serg within noise. Where the CPU also has AVX512-VPOPCNTDQ
//! (Ice Lake, Zen 4), this path's branching score counts all nine digits of
//! a cell at once (`branch::best_vpopcnt`): hardest_1106 +5%, top1465 +2%.
//!
//! The choice is made once per process: the CPU's features (std's cached
//! `is_x86_feature_detected!`), unless the environment variable
//! `SUDOFLOW_SIMD` names a path: `sse2` (force the baseline path, as CI
//! does to test it), `avx2` (the AVX2 path without `pext`), `avx2+pext` (no
//! AVX-512) or `avx512`, or [`force`] was called. A value that names no
//! path, or a path this CPU lacks, is refused by [`check_env`] (the binary
//! calls it first and exits 2); the library on its own then ignores it.

use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction-set path of the solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Simd {
    /// The x86_64 baseline (SSE2), or any other architecture's portable code.
    Sse2,
    /// AVX2 with BMI1, BMI2, POPCNT and LZCNT (x86_64 only).
    Avx2,
    /// [`Simd::Avx2`], and propagation reads its minirow pattern with one
    /// `pext` (BMI2) instead of ten shifts and ORs: only where `pext` is
    /// fast ([`fast_pext_available`]).
    Avx2Pext,
    /// [`Simd::Avx2Pext`] compiled with AVX-512 F, VL, BW, DQ and CD as well
    /// ([`avx512_available`]).
    Avx512,
}

impl Simd {
    /// The path's name as `bench` and the docs write it: `sse2`, `avx2`,
    /// `avx2+pext` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Simd::Sse2 => "sse2",
            Simd::Avx2 => "avx2",
            Simd::Avx2Pext => "avx2+pext",
            Simd::Avx512 => "avx512",
        }
    }
}

/// 0: not chosen yet; 1: [`Simd::Sse2`]; 2: [`Simd::Avx2`]; 3:
/// [`Simd::Avx2Pext`]; 4: [`Simd::Avx512`].
static PATH: AtomicU8 = AtomicU8::new(0);

/// The path in use (chosen on first call: see the module documentation).
#[inline]
pub fn current() -> Simd {
    match PATH.load(Ordering::Relaxed) {
        1 => Simd::Sse2,
        2 => Simd::Avx2,
        3 => Simd::Avx2Pext,
        4 => Simd::Avx512,
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

/// Whether the CPU can run [`Simd::Avx2Pext`]: [`avx2_available`], and
/// not an AMD or Hygon CPU before Zen 3 (CPUID family below 0x19), whose
/// `pext` is microcoded: tens to hundreds of cycles against one to three
/// on Intel since Haswell and AMD since Zen 3 (Agner Fog's instruction
/// tables; AMD's Zen 3 optimization guide).
pub fn fast_pext_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !avx2_available() {
            return false;
        }
        // SAFETY: CPUID leaves 0 and 1 exist on every x86_64 CPU.
        #[allow(unused_unsafe)]
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let mut name = [0u8; 12];
        name[..4].copy_from_slice(&vendor.ebx.to_le_bytes());
        name[4..8].copy_from_slice(&vendor.edx.to_le_bytes());
        name[8..].copy_from_slice(&vendor.ecx.to_le_bytes());
        let base = (signature >> 8) & 0xf;
        let family = base
            + if base == 0xf {
                (signature >> 20) & 0xff
            } else {
                0
            };
        let amd_like = &name == b"AuthenticAMD" || &name == b"HygonGenuine";
        !(amd_like && family < 0x19)
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the CPU can run [`Simd::Avx512`]: [`fast_pext_available`]
/// and AVX-512 F, VL, BW, DQ and CD.
pub fn avx512_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        fast_pext_available()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512cd")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the CPU has AVX512-VPOPCNTDQ (Intel since Ice Lake, AMD since
/// Zen 4), which the [`Simd::Avx512`] path's vector copy of the branching
/// score needs on top of the path's own features (`branch::best_vpopcnt`).
/// std's cached feature check only (no CPUID), so cheap enough to ask per
/// call.
pub fn vpopcnt_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx512vpopcntdq")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The path `SUDOFLOW_SIMD` asks for: `None` when it is unset or empty.
///
/// Errors: the value names no path (the message lists them), or a path
/// this CPU lacks (the message says which features are missing).
pub fn check_env() -> Result<Option<Simd>, String> {
    let asked = std::env::var("SUDOFLOW_SIMD").unwrap_or_default();
    let path = match asked.as_str() {
        "" => return Ok(None),
        "sse2" => Simd::Sse2,
        "avx2" => Simd::Avx2,
        "avx2+pext" => Simd::Avx2Pext,
        "avx512" => Simd::Avx512,
        other => {
            return Err(format!(
                "SUDOFLOW_SIMD={other:?} names no path of the solver: use sse2, avx2, \
                 avx2+pext or avx512, or leave it unset to choose by the CPU"
            ))
        }
    };
    available(path)
        .map(|()| Some(path))
        .map_err(|why| format!("SUDOFLOW_SIMD={asked}: {why}"))
}

/// Whether this CPU can run `path`.
///
/// Errors: the features it lacks, in a sentence.
fn available(path: Simd) -> Result<(), String> {
    let ok = match path {
        Simd::Sse2 => true,
        Simd::Avx2 => avx2_available(),
        Simd::Avx2Pext => fast_pext_available(),
        Simd::Avx512 => avx512_available(),
    };
    if ok {
        return Ok(());
    }
    Err(match path {
        Simd::Avx2 => "this CPU lacks AVX2, BMI1, BMI2, POPCNT or LZCNT",
        Simd::Avx2Pext => "this CPU lacks the AVX2 path's features or a fast PEXT",
        _ => "this CPU lacks AVX-512 (F, VL, BW, DQ, CD) or the avx2+pext path",
    }
    .to_string())
}

#[cold]
fn choose() -> Simd {
    let path = match check_env() {
        Ok(Some(path)) => path,
        // Unset, or refused by check_env (which the binary has reported):
        // the best path this CPU has.
        _ if avx512_available() => Simd::Avx512,
        _ if fast_pext_available() => Simd::Avx2Pext,
        _ if avx2_available() => Simd::Avx2,
        _ => Simd::Sse2,
    };
    store(path);
    path
}

fn store(path: Simd) {
    PATH.store(
        match path {
            Simd::Sse2 => 1,
            Simd::Avx2 => 2,
            Simd::Avx2Pext => 3,
            Simd::Avx512 => 4,
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
    available(path)?;
    store(path);
    Ok(())
}
