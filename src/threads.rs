//! How many worker threads a run uses (the commands' `-j/--threads`, the
//! pipeline's default), and a rayon pool of that many.

/// The number of worker threads for `-j`: the value given, else every core
/// the process may use (1 if that cannot be told).
pub fn thread_count(threads: Option<std::num::NonZeroUsize>) -> usize {
    threads.map_or_else(cores, std::num::NonZeroUsize::get)
}

/// The cores this process may use (1 if that cannot be told).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
}

/// The most threads `-j` takes: 4 per core, and at least 16. More only
/// add start-up time and switching (`-j 100000` spent 11 s starting
/// threads for 0.05 s of work), so the command line refuses them.
pub fn max_threads() -> usize {
    (4 * cores()).max(16)
}

/// A rayon pool of [`thread_count`]`(threads)` workers, for commands that
/// parallelise with rayon (`generate`, `count-grids`).
///
/// Errors: the threads cannot be started.
pub fn worker_pool(threads: Option<std::num::NonZeroUsize>) -> anyhow::Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        // Its message, not a chain: rayon's error prints the OS error and
        // gives it again as its source.
        .map_err(|e| spawn_error("the worker threads", e))
}

/// Starts a scoped thread, as [`std::thread::Scope::spawn`] does, but
/// returns the system's refusal (`ulimit -u`, no memory for a stack) as an
/// error instead of panicking. `f` is dropped unrun when the thread cannot
/// start.
///
/// Errors: the thread cannot be started (the OS error).
pub fn spawn_scoped<'scope, 'env, T, F>(
    scope: &'scope std::thread::Scope<'scope, 'env>,
    f: F,
) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, T>>
where
    F: FnOnce() -> T + Send + 'scope,
    T: Send + 'scope,
{
    std::thread::Builder::new().spawn_scoped(scope, f)
}

/// The error of a thread that could not be started, for the user: what
/// the thread was for, the OS error, and the remedy.
pub fn spawn_error(what: &str, error: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!(
        "cannot start {what}: {error} (the system's limit on processes and threads, `ulimit -u`, \
         or its memory; fewer worker threads may fit)"
    )
}
