//! Inputs that are not regular files (pipes, terminals, sockets): a buffer
//! that tells whether a whole line is buffered, and a zero-timeout poll of
//! the descriptor, so the record loop knows when the next read would wait.

use std::cell::Cell;
use std::io::{self, BufRead, BufReader, Read};
use std::rc::Rc;

/// What the record loop keeps of a watched input.
pub(super) struct Watch {
    /// Whether the buffer holds a whole line (updated by [`Watched`]).
    line_buffered: Rc<Cell<bool>>,
    /// The descriptor to poll.
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

/// A descriptor's [`Watch`] (without its flag yet), or `None` for a
/// regular file, which never waits.
#[cfg(unix)]
pub(super) fn watch(input: &impl std::os::fd::AsFd) -> Option<std::os::fd::RawFd> {
    use std::os::fd::AsRawFd;
    let fd = input.as_fd();
    let file = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    let regular = file.metadata().map(|m| m.is_file()).unwrap_or(true);
    (!regular).then(|| fd.as_raw_fd())
}

/// Elsewhere: never watched.
#[cfg(not(unix))]
pub(super) fn watch<T>(_: &T) -> Option<()> {
    None
}

/// `poll` of descriptor `fd` for input, waiting up to `timeout_ms`: above
/// 0 when it is readable (data, its end or an error), 0 on the timeout, -1
/// on an error (EINTR: a signal came).
#[cfg(unix)]
fn poll_in(fd: std::os::fd::RawFd, timeout_ms: libc::c_int) -> libc::c_int {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd; the descriptor is owned by the input being
    // read, open as long as its reader (and so its watch).
    unsafe { libc::poll(&mut poll, 1, timeout_ms) }
}

impl Watch {
    /// No whole line buffered and nothing ready to read.
    pub(super) fn will_wait(&self) -> bool {
        if self.line_buffered.get() {
            return false;
        }
        #[cfg(unix)]
        {
            poll_in(self.fd, 0) == 0
        }
        #[cfg(not(unix))]
        false
    }
}

/// A buffered reader that keeps its [`Watch`]'s flag up to date, and
/// whose reads end the input when a stop is asked for
/// ([`crate::interrupt::requested`]) while they wait for data.
///
/// A read of an idle pipe or terminal would otherwise block through the
/// signal (the handlers restart interrupted reads), and a run fed by a
/// stalled producer would outlive its SIGINT or SIGTERM until the input
/// ended. So, on unix, a read that would reach an empty descriptor first
/// waits in `poll` (100 ms at a time, and `poll` itself returns early on
/// a signal) and reads only once data, an end or an error is there; if a
/// stop is asked for meanwhile, the read answers "end of input" and the
/// pipeline stops as it does between records.
pub(super) struct Watched<R> {
    inner: BufReader<R>,
    line_buffered: Rc<Cell<bool>>,
    /// The descriptor the reads wait on.
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl<R: Read> Watched<R> {
    /// Wraps `input` (descriptor `fd`) and stores its [`Watch`] in `watch`.
    #[cfg(unix)]
    pub(super) fn new(input: R, watch: &mut Option<Watch>, fd: std::os::fd::RawFd) -> Self {
        let line_buffered = Rc::new(Cell::new(false));
        *watch = Some(Watch {
            line_buffered: Rc::clone(&line_buffered),
            fd,
        });
        Watched {
            inner: BufReader::with_capacity(super::BUFFER, input),
            line_buffered,
            fd,
        }
    }

    /// Elsewhere: never built ([`watch`] is always `None`).
    #[cfg(not(unix))]
    pub(super) fn new(input: R, _: &mut Option<Watch>, _: ()) -> Self {
        Watched {
            inner: BufReader::with_capacity(super::BUFFER, input),
            line_buffered: Rc::new(Cell::new(false)),
        }
    }

    /// Whether a stop was asked for while the next read would wait: then
    /// the input ends here (see [`Watched`]). Waits until the descriptor
    /// is readable (data, its end or an error) or a stop is asked for;
    /// false at once when the buffer holds bytes.
    fn stopped_while_waiting(&self) -> bool {
        if !self.inner.buffer().is_empty() {
            return false;
        }
        #[cfg(unix)]
        loop {
            if crate::interrupt::requested().is_some() {
                return true;
            }
            let ready = poll_in(self.fd, 100);
            // Ready (or the descriptor in error: the read says which);
            // 0 is the timeout, -1 mostly a signal (EINTR): look again.
            if ready > 0 {
                return false;
            }
            if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return false;
            }
        }
        #[cfg(not(unix))]
        false
    }

    fn update(&self) {
        let buffered = self.inner.buffer();
        self.line_buffered
            .set(memchr::memchr(b'\n', buffered).is_some());
    }
}

impl<R: Read> Read for Watched<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.stopped_while_waiting() {
            return Ok(0);
        }
        let n = self.inner.read(out)?;
        self.update();
        Ok(n)
    }
}

impl<R: Read> BufRead for Watched<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.stopped_while_waiting() {
            return Ok(&[]);
        }
        self.inner.fill_buf()?;
        self.update();
        Ok(self.inner.buffer())
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.update();
    }
}
