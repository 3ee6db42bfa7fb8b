//! Keeping an outside program's processes in hand: every process it starts
//! ends with its run, however it tries to get away.
//!
//! - Each run is the leader of a process group of its own
//!   (`setpgid(0, 0)` through `process_group(0)`), so a
//!   Ctrl-C at the terminal reaches bench alone, and one `killpg` ends the
//!   program with every child it left in that group (`(sleep 1000 &)`: a
//!   non-interactive shell keeps its background jobs in its group). (No
//!   `PR_SET_PDEATHSIG`: it needs a `pre_exec` hook, which makes std fork
//!   instead of `posix_spawn`, adding 0.2-0.5 ms to every run measured here,
//!   for the rare case of bench itself killed with SIGKILL, and then only
//!   for the shell, not its children.)
//! - [`install`] (called by `sudoflow bench`) makes bench a child
//!   subreaper (Linux, `prctl(PR_SET_CHILD_SUBREAPER)`): a descendant
//!   orphaned by its parent's exit is reparented to bench instead of
//!   init, whatever group or session it moved to (`setsid`, a double fork).
//!   After each run, `Tree::end` kills the group, reaps the leader, then
//!   sweeps: kills and reaps every process whose parent is bench (found
//!   in `/proc/*/stat`), again and again until none is left, since killing
//!   one hands its own children to bench. Bench starts no other process, so
//!   each of them belongs to the program. Without [`install`] (a library
//!   user, unit tests) the sweep is off, and only the group is killed.
//! - [`install`] also registers an action for the stop signals
//!   ([`crate::interrupt::signals`]: SIGINT, SIGTERM, SIGHUP, SIGQUIT), to run before
//!   [`crate::interrupt`]'s handlers, that kills the running program's
//!   group at once: a second Ctrl-C, which ends bench on the spot, leaves
//!   no program running in that group (processes that moved to another
//!   group are then beyond reach: the first Ctrl-C's clean stop sweeps
//!   them too).

use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
#[cfg(target_os = "linux")]
use std::time::{Duration, Instant};

/// The process group of the run in progress (0: none), for the signal action.
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// Set by [`install`] once bench is a subreaper: sweeps are on.
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
static SWEEP: AtomicBool = AtomicBool::new(false);

/// Longest wait for killed processes to be reaped, per sweep.
#[cfg(target_os = "linux")]
const REAP_WAIT: Duration = Duration::from_secs(5);

/// Makes this process a child subreaper (Linux) and registers the
/// stop signals' action that kills the running program's group. Call it
/// before [`crate::interrupt::install`] (signal-hook runs actions in the
/// order they were registered, and that one's second-signal exit must come
/// after this one), and only in a process that starts no other children:
/// every later sweep kills all of this process's children.
///
/// Errors: the signal action cannot be registered, or `prctl` fails.
pub fn install() -> std::io::Result<()> {
    #[cfg(unix)]
    {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        let mut result = Ok(());
        INSTALLED.call_once(|| {
            result = (|| {
                for &sig in crate::interrupt::signals() {
                    // SAFETY: the action only loads an atomic and calls
                    // kill(2), both async-signal-safe.
                    unsafe {
                        signal_hook::low_level::register(sig, || {
                            let group = RUNNING_GROUP.load(Ordering::SeqCst);
                            if group > 0 {
                                libc::kill(-group, libc::SIGKILL);
                            }
                        })?;
                    }
                }
                #[cfg(target_os = "linux")]
                {
                    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER takes one
                    // integer argument and touches no memory of ours.
                    let r = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) };
                    if r != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    SWEEP.store(true, Ordering::SeqCst);
                }
                Ok(())
            })();
        });
        result
    }
    #[cfg(not(unix))]
    {
        Ok(())
    }
}

/// Sets up `command` to start in a process group of its own.
pub(super) fn prepare(command: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = command;
}

/// A started program: its leader process, and the group it leads.
pub(super) struct Tree {
    child: Child,
    /// Still to be ended: [`Tree::end`] has not run yet.
    live: bool,
}

impl Tree {
    /// Takes charge of `child`, started from a command [`prepare`]d.
    pub(super) fn new(child: Child) -> Tree {
        RUNNING_GROUP.store(child.id() as i32, Ordering::SeqCst);
        Tree { child, live: true }
    }

    /// The leader process, for its pipes.
    pub(super) fn child(&mut self) -> &mut Child {
        &mut self.child
    }

    /// True once the leader has exited (it is not reaped: its process
    /// group id stays its own until [`Tree::end`]).
    pub(super) fn exited(&mut self) -> bool {
        #[cfg(unix)]
        {
            // SAFETY: waitid writes only into `info`, a zeroed siginfo_t
            // owned here; WNOWAIT leaves the child waitable.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let r = libc::waitid(
                    libc::P_PID,
                    self.child.id() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                // si_pid stays 0 while the child runs (WNOHANG); an error
                // (ECHILD: reaped already) counts as exited.
                r != 0 || info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        {
            matches!(self.child.try_wait(), Ok(Some(_)) | Err(_))
        }
    }

    /// Starts a thread that calls `then` once the leader has exited (not
    /// reaping it), so that the end of a run is seen at once even when
    /// another process still holds its stdout. On other systems than Unix
    /// nothing is started: [`Tree::exited`] is polled instead.
    ///
    /// Errors: the thread cannot be started.
    pub(super) fn on_exit(&self, then: impl FnOnce() + Send + 'static) -> std::io::Result<()> {
        #[cfg(unix)]
        {
            let pid = self.child.id() as libc::id_t;
            std::thread::Builder::new().spawn(move || {
                // SAFETY: as in `exited`, without WNOHANG: blocks until the
                // child exits (or fails at once with ECHILD once reaped).
                let r = unsafe {
                    let mut info: libc::siginfo_t = std::mem::zeroed();
                    libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOWAIT)
                };
                if r == 0 {
                    then();
                }
            })?;
        }
        #[cfg(not(unix))]
        let _ = then;
        Ok(())
    }

    /// Ends the program: kills its process group (the leader, exited or
    /// not, still holds the group id), reaps the leader, then sweeps up
    /// every process that escaped the group (see the module
    /// documentation). Returns the leader's exit status (`None` if it
    /// cannot be had).
    pub(super) fn end(&mut self) -> Option<ExitStatus> {
        self.live = false;
        kill_group(self.child.id());
        // The group id is the leader's pid: forget it before the reap
        // frees that pid for reuse.
        RUNNING_GROUP.store(0, Ordering::SeqCst);
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        sweep();
        status
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        if self.live {
            self.end();
        }
    }
}

/// Sends SIGKILL to the process group `group`.
fn kill_group(group: u32) {
    #[cfg(unix)]
    {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // its leader is not reaped yet, so the id is not reused.
        unsafe {
            libc::kill(-(group as libc::pid_t), libc::SIGKILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Kills and reaps every child of this process, over and over until there
/// is none (each one killed hands its own children to this subreaper);
/// does nothing unless [`install`] made this process a subreaper.
fn sweep() {
    #[cfg(target_os = "linux")]
    {
        if !SWEEP.load(Ordering::SeqCst) {
            return;
        }
        let me = std::process::id();
        let start = Instant::now();
        loop {
            let children = children_of(me);
            if children.is_empty() || start.elapsed() > REAP_WAIT {
                break;
            }
            for &pid in &children {
                // SAFETY: kill(2) on a child of ours: not reaped yet (only
                // this function reaps them), so the pid is still its own.
                unsafe {
                    libc::kill(pid as libc::pid_t, libc::SIGKILL);
                }
            }
            for &pid in &children {
                reap(pid, start + REAP_WAIT);
            }
        }
    }
}

/// Waits for the child `pid` to end and reaps it, polling until `until`.
#[cfg(target_os = "linux")]
fn reap(pid: u32, until: Instant) {
    let mut pause = Duration::from_micros(50);
    loop {
        // SAFETY: waitpid on one pid with a status word owned here.
        let r = unsafe {
            let mut status = 0;
            libc::waitpid(pid as libc::pid_t, &mut status, libc::WNOHANG)
        };
        // r == pid: reaped; r < 0: not our child (anymore).
        if r != 0 || Instant::now() >= until {
            return;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(10));
    }
}

/// The processes whose parent is `parent`, from `/proc/*/stat` (field 4,
/// after the command name in parentheses, which may itself hold spaces and
/// parentheses).
#[cfg(target_os = "linux")]
fn children_of(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        // The process may be gone already: skip it.
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        if parent_in_stat(&stat) == Some(parent) {
            children.push(pid);
        }
    }
    children
}

/// The parent pid in the text of `/proc/PID/stat`: `pid (comm) state ppid ...`.
#[cfg(target_os = "linux")]
fn parent_in_stat(stat: &str) -> Option<u32> {
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_ascii_whitespace().nth(1)?.parse().ok()
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_past_a_command_name_with_spaces_and_parentheses() {
        assert_eq!(parent_in_stat("12 (sh) S 7 12 12 0"), Some(7));
        assert_eq!(parent_in_stat("12 (a b) c) R 4321 1 1"), Some(4321));
        assert_eq!(parent_in_stat("garbage"), None);
    }

    #[test]
    fn this_process_is_a_child_of_its_parent() {
        let me = std::process::id();
        let parent = std::os::unix::process::parent_id();
        assert!(children_of(parent).contains(&me));
    }
}
