"""The line a running program printed last, shown by the page beside its "Running… N s" while the
run goes on: a long numpyro MCMC run's progress bar (tqdm, on stderr) or a training loop's prints
show as they happen, though the Console pane shows a run's output when it ends. The worker's
Python is busy for the whole run, so the line goes to the page from inside the write (app.env),
at most every REPORT_S seconds."""
from __future__ import annotations

import time

REPORT_S = 0.25


class Reporter:
    """One run's (one capture's) stdout and stderr writes -> the page's progress line."""

    def __init__(self, send=None):
        self.tail = ""  # the output after its last line break (tqdm redraws that line with \r)
        self.sent, self.sent_at = "", 0.0
        self.send = send

    def latest_line(self, text: str) -> str:
        """The last non-blank line of the output so far, as a terminal would show it."""
        parts = (self.tail + text).replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.tail = parts[-1]
        return next((p.strip() for p in reversed(parts) if p.strip()), "")

    def __call__(self, text: str) -> None:
        line = self.latest_line(text)
        now = time.monotonic()
        if line and line != self.sent and now - self.sent_at >= REPORT_S:
            self.sent, self.sent_at = line, now
            if self.send is None:
                from app import env
                self.send = env.run_output
            self.send(line[:300])
