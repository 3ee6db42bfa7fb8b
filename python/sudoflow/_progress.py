"""Progress reporters for the ``progress=`` argument of sudoflow's functions.

The extension calls :func:`reporter` once per call, then the reporter's
``update(done)`` at most every 50 ms while the work runs and ``close()`` at
the end (complete or not).
"""

import sys
import time
from typing import Any, Callable, Optional


class _Callback:
    """``progress(done, total)`` on each update."""

    def __init__(self, fn: Callable[[int, Optional[int]], Any], total: Optional[int]):
        self.fn, self.total = fn, total

    def update(self, done: int) -> None:
        self.fn(done, self.total)

    def close(self) -> None:
        pass


class _Tqdm:
    """A tqdm bar (``tqdm.auto``: a widget in notebooks)."""

    def __init__(self, tqdm: Any, total: Optional[int], unit: str):
        self.bar = tqdm(total=total, unit=" " + unit, unit_scale=True, dynamic_ncols=True)
        self.done = 0

    def update(self, done: int) -> None:
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        self.bar.close()


class _Line:
    """Without tqdm: one line on stderr, rewritten at most twice a second."""

    def __init__(self, total: Optional[int], unit: str):
        self.total, self.unit = total, unit
        self.start = self.shown = time.monotonic()
        self.done = 0

    def _show(self, end: str = "") -> None:
        secs = max(time.monotonic() - self.start, 1e-9)
        of = f"/{self.total}" if self.total is not None else ""
        sys.stderr.write(f"\rsudoflow: {self.done}{of} {self.unit}, {self.done / secs:.0f}/s{end}")
        sys.stderr.flush()

    def update(self, done: int) -> None:
        self.done = done
        if time.monotonic() - self.shown >= 0.5:
            self.shown = time.monotonic()
            self._show()

    def close(self) -> None:
        self._show("\n")


def reporter(progress: Any, total: Optional[int], unit: str) -> Any:
    """The reporter for a ``progress`` argument: None for ``None`` or
    ``False``; for ``True`` a tqdm bar when tqdm is installed, else a line on
    stderr; for a callable, calls of ``progress(done, total)`` (``total``
    None when unknown, as for files).

    Raises TypeError for anything else.
    """
    if progress is None or progress is False:
        return None
    if progress is True:
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return _Line(total, unit)
        return _Tqdm(tqdm, total, unit)
    if callable(progress):
        return _Callback(progress, total)
    raise TypeError(
        f"progress: expected None, True or a callable(done, total), not {type(progress).__name__}")
