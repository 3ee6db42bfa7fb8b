//! The `sudoflow` binary: parses the command line and hands over to the library.

use clap::Parser;
use std::process::ExitCode;
use sudoflow::cli::{Cli, Command};
use sudoflow::{cmd, exit};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A stdout the shell closed (`sudoflow solve a.txt >&-`): Rust's runtime
/// opens /dev/null there before `main`, so every row would be lost with exit
/// 0. This constructor runs first (ELF `.init_array`, before the runtime's
/// check) and opens /dev/null read-only on descriptor 1 instead: writing
/// the rows then fails (EBADF) and the run says so (exit 2), as a C
/// program's would. A closed stdin (`<&-`) likewise gets /dev/null
/// write-only: read as the input, it fails and is said, where /dev/null's
/// nothing made a run of no records, exit 0 (found by probing).
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static STDOUT_CLOSED_STAYS_UNWRITABLE: extern "C" fn() = {
    extern "C" fn unwritable_if_closed() {
        // SAFETY: plain system calls on descriptors, before any Rust code
        // uses them.
        unsafe {
            for (target, mode) in [(0, libc::O_WRONLY), (1, libc::O_RDONLY)] {
                if libc::fcntl(target, libc::F_GETFD) != -1 {
                    continue;
                }
                let fd = libc::open(c"/dev/null".as_ptr(), mode | libc::O_CLOEXEC);
                if fd >= 0 && fd != target {
                    // A lower descriptor was closed too: it took that one.
                    libc::dup3(fd, target, 0);
                    libc::close(fd);
                }
            }
        }
    }
    unwritable_if_closed
};

fn main() -> ExitCode {
    // A file size limit (`ulimit -f`) makes a write past it fail with EFBIG,
    // which names the file and keeps the rows written, instead of killing
    // the run with SIGXFSZ and no word.
    // SAFETY: setting a signal's disposition to ignored, before any thread.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // Everything runs on a thread of its own, with a stack of a known size:
    // the main thread's is `ulimit -s`'s, and a run with -j 1 (the calling
    // thread works too) overflowed it at 64 KiB (found by probing), where
    // the worker threads' stacks do not depend on it.
    let run = std::thread::Builder::new()
        .name("sudoflow".into())
        .stack_size(COMMAND_STACK)
        .spawn(parse_and_run);
    match run.map(|thread| thread.join()) {
        Ok(Ok(code)) => code,
        // A panic outside the pipeline (a bug): said by the panic hook,
        // the exit status of a panicking main.
        Ok(Err(_)) => ExitCode::from(101),
        Err(e) => {
            eprintln!("sudoflow: error: cannot start the command's thread: {e}");
            ExitCode::from(exit::ERROR)
        }
    }
}

/// Parses the command line and runs its command.
fn parse_and_run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::ERROR
            } else {
                exit::OK
            });
        }
    };
    // A forced instruction-set path the CPU lacks is refused up front,
    // not ignored.
    if let Err(e) = sudoflow::solver::simd::check_env() {
        eprintln!("sudoflow: error: {e}");
        return ExitCode::from(exit::ERROR);
    }
    run(cli.command)
}

/// The stack of the thread that runs the command: 8 MiB, a Linux main
/// thread's default.
const COMMAND_STACK: usize = 8 << 20;

/// Runs `command` and turns its outcome into the process's exit status.
fn run(command: Command) -> ExitCode {
    let result = match command {
        Command::Solve(a) => cmd::solve::run(a),
        Command::Rate(a) => cmd::rate::run(a),
        Command::Explain(a) => cmd::explain::run(a),
        Command::Print(a) => cmd::print::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Count(a) => cmd::count::run(a),
        Command::CountGrids(a) => cmd::count_grids::run(a),
        Command::Canon(a) => cmd::canon::run(a),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed stdout (`| head`) ends the run quietly, unless a stop
            // signal came first (a write blocked on a full pipe goes on
            // through it): then the signal's status, said (found by
            // probing: exit 0 and nothing said).
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>()
                    .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) {
                if let Some(signal) = sudoflow::interrupt::requested() {
                    eprintln!(
                        "sudoflow: stopped by {}, then stdout was closed: the output ends where \
                         the reader stopped reading",
                        sudoflow::interrupt::name(signal)
                    );
                    return ExitCode::from(sudoflow::interrupt::exit_status(signal));
                }
                return ExitCode::from(exit::OK);
            }
            if let Some(stop) = e
                .chain()
                .find_map(|c| c.downcast_ref::<sudoflow::interrupt::Stopped>())
            {
                eprintln!("sudoflow: {e:#}");
                return ExitCode::from(sudoflow::interrupt::exit_status(stop.signal));
            }
            eprintln!("sudoflow: error: {e:#}");
            ExitCode::from(exit::ERROR)
        }
    }
}
