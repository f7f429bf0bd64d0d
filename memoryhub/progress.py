"""Progress for long commands: a bar on a terminal, a line every few seconds otherwise."""

import sys
import time


class Progress:
    def __init__(self, total: int, label: str, *, stream=None, every: float = 2.0):
        self.total = max(total, 0)
        self.label = label
        self.stream = stream or sys.stderr
        self.every = every
        self.done = 0
        self.started = time.perf_counter()
        self._last = 0.0
        self._tty = hasattr(self.stream, "isatty") and self.stream.isatty()

    def advance(self, count: int = 1) -> None:
        self.done += count
        now = time.perf_counter()
        if now - self._last >= (0.2 if self._tty else self.every):
            self._last = now
            self._print(final=False)

    def _line(self) -> str:
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        rate = self.done / elapsed
        share = self.done / self.total if self.total else 1.0
        eta = (self.total - self.done) / rate if rate > 0 else 0.0
        bar = "#" * int(share * 30)
        return (
            f"{self.label} [{bar:<30}] {self.done}/{self.total} ({share:.0%}) "
            f"{rate:,.0f}/s, {elapsed:.0f}s elapsed, ETA {eta:.0f}s"
        )

    def _print(self, final: bool) -> None:
        end = "\n" if final or not self._tty else ""
        prefix = "\r" if self._tty else ""
        self.stream.write(prefix + self._line() + end)
        self.stream.flush()

    def finish(self) -> float:
        self._print(final=True)
        return time.perf_counter() - self.started
