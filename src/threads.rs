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
    use anyhow::Context;
    rayon::ThreadPoolBuilder::new()
        .num_threads(thread_count(threads))
        .build()
        .context("cannot start the worker threads")
}
