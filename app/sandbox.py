"""Runs a learner's code: a fresh namespace where `import jax` is the engine, captured
stdout/stderr/warnings, a time budget, and errors turned into something a learner can act on.

Stopping runaway code (an infinite loop must not cost the page or the code), without
sys.settrace so timings stay honest:
- In the browser Python runs in a Web Worker and the page's Stop button (or Esc) writes SIGINT
  into Pyodide's interrupt buffer: a `KeyboardInterrupt` ends the run and, through
  `guarded_call`, the rest of that analysis. Where the page has that buffer (it is
  cross-origin isolated; `INTERRUPTIBLE`), runs have no time budget.
- Otherwise (a first visit before the service worker isolates the page, `panel serve`, tests)
  every loop in the user's code gets a `__gradpad_tick__()` call as its first statement (an
  AST rewrite); the tick raises `TimeBudgetExceeded` once the budget's deadline has passed.
- CPython adds a watchdog thread that raises the same exception in the running thread with
  `PyThreadState_SetAsyncExc`, which also catches runaway code that is not a loop of the
  user's (a huge comprehension, a slow library call between bytecodes).
- The first import of a lazily installed library (app.lazy_wheels: fetching its wheels,
  unpacking them, running its modules) is not the learner's code: `uncharged` pauses the budget
  meanwhile (ticks and watchdog), and the budget's remaining time resumes after it.
"""
from __future__ import annotations

import ast
import builtins
import contextvars
import io
import sys
import threading
import time
import traceback
import warnings
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from dataclasses import dataclass, field

USER_FILE = "<gradpad>"
DEFAULT_BUDGET_S = 10.0
MAX_OUTPUT_CHARS = 20_000
IN_PYODIDE = sys.platform == "emscripten"
# True when the page can stop a run itself (Pyodide's interrupt buffer: a cross-origin isolated
# page, set by app.bootstrap.install): runs then have no time budget, Stop ends them.
INTERRUPTIBLE = False


class TimeBudgetExceeded(BaseException):
    """Raised inside user code that ran past its time budget (BaseException: a bare
    `except Exception` in the user's loop must not swallow it)."""


# ------------------------------------------------------------------ errors -> hints
# exception class name -> (hint, gallery example that shows the fix)
HINTS: dict[str, tuple[str, str]] = {
    "TracerBoolConversionError": (
        "Python `if`/`while` on a traced value: use jax.lax.cond / jnp.where, or mark the "
        "argument static with static_argnums.", "static_args_and_control_flow"),
    "ConcretizationTypeError": (
        "A traced value was used where Python needs a concrete one (a shape, a loop bound): "
        "compute it with numpy on static shapes or mark the argument static.",
        "static_args_and_control_flow"),
    "TracerIntegerConversionError": (
        "A traced value was used as a Python int: mark it static or use lax.fori_loop / "
        "lax.dynamic_slice.", "lax_control_flow"),
    "TracerArrayConversionError": (
        "numpy (np.*) was called on a traced value: use jax.numpy (jnp.*) inside transformed "
        "functions.", "jaxpr_inspection"),
    "NonConcreteBooleanIndexError": (
        "x[mask] has a value-dependent shape under jit: use jnp.where(mask, x, 0).",
        "static_args_and_control_flow"),
    "UnexpectedTracerError": (
        "A traced value escaped its transformation (stored in a global?): return it instead.",
        "jaxpr_inspection"),
    "TimeBudgetExceeded": (
        "The code ran past its time budget and was stopped (an infinite loop?). Your code is "
        "kept; fix it and run again.", ""),
    "KeyboardInterrupt": (
        "Stopped. Your code and variables are kept; fix it and run again (\"Restart Python\" "
        "starts from a fresh interpreter if something is stuck).", ""),
    "TypeError": ("", ""),
    "SystemExit": (
        "sys.exit(), exit() and quit() end a script; here they end the run at that line. The page "
        "and Python keep running; the panes analyse what the code defined before it.", ""),
    "EOFError": (
        "The page has no keyboard input for a running program: put the value in the code "
        "(name = 'Ada') or make it an argument of your function.", ""),
}
# a notebook's `%timeit f(x)` / `!pip install jax` pasted as Python (JAX's tutorials are notebooks):
# first character -> (hint, gallery example)
NOTEBOOK_LINE_HINTS = {
    "%": ("`{}` is IPython (Jupyter) syntax, not Python. The Timing pane times f eager and jitted "
          "for you; in code: timeit.timeit(lambda: f(x).block_until_ready(), number=100).", "jit_selu_timing"),
    "!": ("`{}` is a notebook's shell command, not Python; nothing needs installing here: "
          "`import jax` is gradpad's engine.", ""),
}
ITEM_ASSIGNMENT_HINT = ("JAX arrays are immutable: use x.at[i].set(v), which returns a new "
                        "array.", "jnp_basics_and_immutability")
# JAX's TypeError when a product's shapes do not line up (jnp.dot(w, x) with w (3, 4), x (5,))
CONTRACTION_HINT = ("The shapes do not line up: jnp.dot, @ and matmul sum the last axis of the first "
                    "array against the first axis (of a vector) or the second-to-last axis of the second, "
                    "and those lengths must be equal. print(a.shape, b.shape) before the line; a.T or "
                    "a.reshape(...) puts the right axes together.", "")


# numpy's ValueErrors when an array's size does not fit a 32-bit address space (Python in the
# browser is WebAssembly: 4 GiB in all, 2 GiB per array): shown as the MemoryError they are
ADDRESS_SPACE_ERRORS = ("iterator is too large", "array is too big", "Maximum allowed size exceeded",
                        "Maximum allowed dimension exceeded")
OUT_OF_MEMORY = ("the arrays are too big for the memory Python has in this browser (WebAssembly: "
                 "4 GiB in all, at most 2 GiB per array); use smaller shapes. numpy said: {}")


def as_memory_error(exc: BaseException) -> MemoryError | None:
    """A clear MemoryError for numpy's size-limit ValueErrors (None for any other error)."""
    if isinstance(exc, ValueError) and any(m in str(exc) for m in ADDRESS_SPACE_ERRORS):
        err = MemoryError(OUT_OF_MEMORY.format(exc))
        err.__traceback__ = exc.__traceback__
        return err
    return None


@dataclass
class ErrorInfo:
    type: str                      # the exception's class name, e.g. TracerBoolConversionError
    message: str
    hint: str = ""
    example: str = ""              # gallery example that shows the fix ("" if none)
    line: int | None = None        # line in the user's code where it was raised
    traceback: str = ""            # user-code frames only

    def headline(self) -> str:
        first = self.message.splitlines()[0] if self.message else ""
        return f"{self.type}: {first}"


@dataclass
class RunResult:
    namespace: dict
    stdout: str = ""
    stderr: str = ""
    warnings: list = field(default_factory=list)
    error: ErrorInfo | None = None
    result: str | None = None      # repr of a trailing expression, as a notebook cell shows
    seconds: float = 0.0
    installing_s: float = 0.0      # of `seconds`, the time spent installing libraries (`uncharged`)

    def took(self) -> str:
        """'2107 ms', or '11369 ms, 9.2 s of it installing libraries' (the status line, the console)."""
        note = f", {self.installing_s:.1f} s of it installing libraries" if self.installing_s >= 0.05 else ""
        return f"{self.seconds * 1e3:.0f} ms{note}"

    @property
    def ok(self) -> bool:
        return self.error is None


def describe_error(exc: BaseException) -> ErrorInfo:
    exc = as_memory_error(exc) or exc
    name = type(exc).__name__
    message = str(exc)
    hint, example = HINTS.get(name, ("", ""))
    if isinstance(exc, TypeError) and "item assignment" in message:
        hint, example = ITEM_ASSIGNMENT_HINT
    if isinstance(exc, TypeError) and message.startswith("dot_general requires contracting dimensions to have the same shape"):
        hint, example = CONTRACTION_HINT
    notebook_line = (getattr(exc, "text", None) or "").strip() if isinstance(exc, SyntaxError) else ""
    if notebook_line[:1] in NOTEBOOK_LINE_HINTS:
        hint, example = NOTEBOOK_LINE_HINTS[notebook_line[0]]
        hint = hint.format(notebook_line.split()[0])
    if isinstance(exc, TimeBudgetExceeded) and not message:
        message = "stopped: the code ran longer than its time budget"
    if isinstance(exc, SystemExit):
        message = "sys.exit() (or exit() / quit()) ended the run" + (
            "" if exc.code is None else f" with status {exc.code!r}")
    if isinstance(exc, KeyboardInterrupt):
        message = message or "the run was stopped (Stop button, Esc or gradpad.interrupt())"
        hint, example = HINTS["KeyboardInterrupt"]
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == USER_FILE]
    if frames:
        line = frames[-1].lineno
    else:  # a SyntaxError in the user's code has no user frame, but knows its line
        line = exc.lineno if isinstance(exc, SyntaxError) else None
    tb = "".join(traceback.format_list(frames)) if frames else ""
    return ErrorInfo(name, message, hint, example, line, tb)


# ------------------------------------------------------------------ output capture
class CappedText(io.StringIO):
    """A text stream that keeps the first `limit` characters and counts the rest."""

    def __init__(self, limit: int = MAX_OUTPUT_CHARS, on_write=None):
        super().__init__()
        self.limit, self.dropped = limit, 0
        self.on_write = on_write  # the page's progress line (app.run_progress), for a run's output

    def write(self, s: str) -> int:
        if self.on_write is not None:
            self.on_write(s)
        if "\r" in s:  # a progress bar (tqdm) redraws its line: keep what a terminal would show
            for i, part in enumerate(s.replace("\r\n", "\n").split("\r")):
                if i:
                    start = self.getvalue().rfind("\n") + 1
                    self.seek(start)
                    self.truncate()
                self._append(part)
            return len(s)
        self._append(s)
        return len(s)

    def _append(self, s: str) -> None:
        room = self.limit - self.tell()
        if room > 0:
            super().write(s[:room])
        self.dropped += max(0, len(s) - max(room, 0))

    def text(self) -> str:
        body = self.getvalue()
        if self.dropped:
            body += f"\n… output truncated: {self.dropped:,} more characters not shown\n"
        return body


# set by the page (app.bootstrap: app.run_progress.Reporter): makes the callable that each chunk a
# run writes also goes to, for the page's progress line
output_reporter = None


@contextmanager
def captured():
    """Capture stdout, stderr and warnings. Yields (stdout, stderr, warning list)."""
    note = output_reporter() if output_reporter is not None else None
    out, err = CappedText(on_write=note), CappedText(on_write=note)
    with warnings.catch_warnings(record=True) as caught, redirect_stdout(out), redirect_stderr(err):
        warnings.simplefilter("always")
        yield out, err, caught


# ------------------------------------------------------------------ a capture held across awaits
# `captured` swaps sys.stdout/stderr and the warnings state of the whole process. Two of them held
# across awaits by different tasks (a CPU timing that yields to the event loop between samples, a
# WebGPU timing awaiting its readbacks, the next edit's timing) can close out of order, and the
# last to close then leaves sys.stdout on a finished buffer for the rest of the session.
# `quiet_task` keeps its buffers in the task's context instead: nothing global changes at its exit.
_task_streams: contextvars.ContextVar = contextvars.ContextVar("gradpad_task_streams", default=None)


class _TaskRoutedStream:
    """Put once in place of sys.stdout / sys.stderr: a write from inside a `quiet_task` goes to
    that task's buffer, every other write to the stream it replaced."""

    def __init__(self, which: int, fallback):
        self.which, self.fallback = which, fallback

    def write(self, s: str) -> int:
        streams = _task_streams.get()
        return (self.fallback if streams is None else streams[self.which]).write(s)

    def flush(self):
        if _task_streams.get() is None:
            self.fallback.flush()

    def __getattr__(self, name):  # encoding, isatty, fileno...: the real stream's
        return getattr(self.fallback, name)


def _route(name: str, which: int):
    current = getattr(sys, name)
    if not isinstance(current, _TaskRoutedStream):
        setattr(sys, name, _TaskRoutedStream(which, current))


@contextmanager
def quiet_task():
    """Capture this task's stdout and stderr (warnings print to its stderr) while it may await:
    other tasks, and runs between its awaits, print where they would without it. Yields
    (stdout, stderr)."""
    _route("stdout", 0)
    _route("stderr", 1)
    out, err = CappedText(), CappedText()
    token = _task_streams.set((out, err))
    try:
        yield out, err
    finally:
        try:
            _task_streams.reset(token)
        except ValueError:
            pass  # closed from another context (a suspended coroutine collected): its own context ends with it


def format_warnings(caught) -> list[str]:
    return [f"{w.category.__name__}: {w.message}" for w in caught]


# ------------------------------------------------------------------ time budget
class _Deadline:
    """A budget's end, as a perf_counter() time, that the time spent installing a library does
    not count against (`uncharged`): `at` is +inf while one installs, and moves later by the
    install's time after. `outer`: the budget this one is nested in (paused with it)."""

    def __init__(self, seconds: float, outer: "_Deadline | None" = None):
        self.at = time.perf_counter() + seconds
        self.outer = outer
        self.lock = threading.Lock()
        self._paused = 0          # nested `uncharged` blocks open on this deadline
        self._left = 0.0          # the time that was left when the outermost one opened

    def pause(self) -> None:
        with self.lock:
            if self._paused == 0:
                self._left = self.at - time.perf_counter()
                self.at = float("inf")
            self._paused += 1

    def resume(self) -> None:
        with self.lock:
            self._paused -= 1
            if self._paused == 0:
                self.at = time.perf_counter() + self._left


class _Watchdog:
    """CPython: raise TimeBudgetExceeded in the calling thread once `deadline` has passed (a
    thread that sleeps until `deadline.at`, and on past an `uncharged` install's time)."""

    def __init__(self, deadline: "_Deadline | float"):
        import ctypes
        if not isinstance(deadline, _Deadline):
            deadline = _Deadline(deadline)
        self.deadline = deadline
        self._set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
        self._tid = ctypes.c_ulong(threading.get_ident())
        self._lock = threading.Lock()
        self._done = threading.Event()
        self._active = True
        self.fired = False
        self._thread = threading.Thread(target=self._watch, daemon=True, name="gradpad-watchdog")

    def _watch(self):
        while True:
            left = self.deadline.at - time.perf_counter()  # +inf while a library installs
            if left > 0:
                # the deadline only ever moves later: wake at it and look again (during an install,
                # every 0.1 s to see it end)
                if self._done.wait(left if left != float("inf") else 0.1):
                    return
                continue
            with self.deadline.lock:
                if self.deadline.at > time.perf_counter():
                    continue  # an install began (or ended, moving the deadline) just now
                self._fire()
            return

    def _fire(self):
        import ctypes
        with self._lock:
            if self._active:
                self.fired = True
                self._set_async_exc(self._tid, ctypes.py_object(TimeBudgetExceeded))

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        with self._lock:
            self._active = False  # (_fire checks it under the lock: nothing fires after this)
            self._done.set()
            fired = self.fired
        if fired:
            # A TimeBudgetExceeded not raised yet must not leak out of the run. Clearing it with
            # SetAsyncExc(tid, NULL) left CPython's "async exception pending" flag set for good
            # (only an async exception that is raised resets it): the next profiler or debugger
            # (sys.setprofile, cProfile) then hung the thread at a function's first instruction.
            # A marker takes the pending exception's place and is raised and caught here instead.
            import ctypes
            try:
                self._set_async_exc(self._tid, ctypes.py_object(_PendingCleared))
                for _ in range(100_000):  # raised at the first backward jump
                    pass
                self._set_async_exc(self._tid, None)  # (not reached where it was raised)
            except _PendingCleared:
                pass
        return False


class _PendingCleared(BaseException):
    """Raised into the run's thread by `_Watchdog.__exit__` only to consume a pending one."""


# The budget that loop ticks check, per task: a budget held across awaits (the CPU timing's,
# yielding to the event loop between samples) must neither cap nor outlive the budget of a run
# that starts meanwhile (a module global, restored at each exit, was left on whichever budget
# closed last)
_deadline: contextvars.ContextVar = contextvars.ContextVar("gradpad_deadline", default=None)


def tick() -> None:
    """Called at the top of every loop iteration in user code (see `_LoopTicks`)."""
    deadline = _deadline.get()
    if deadline is not None and time.perf_counter() > deadline.at:
        raise TimeBudgetExceeded()


@contextmanager
def uncharged(what: str = ""):
    """Time the learner's code did not ask for (fetching, installing and importing a library on
    its first import, app.lazy_wheels): it does not count against the budgets this task is
    running under, each of which ends that much later. The page's progress line says `what`
    meanwhile. Runaway code is stopped as before once the block has ended."""
    if what:
        from app import env
        env.run_output(what)
    t0 = time.perf_counter()
    paused = []
    d = _deadline.get()
    while d is not None:
        d.pause()
        paused.append(d)
        d = d.outer
    outermost = not _uncharged_depth[0]
    _uncharged_depth[0] += 1
    try:
        yield
    finally:
        _uncharged_depth[0] -= 1
        for d in paused:
            d.resume()
        if outermost:
            _uncharged_s[0] += time.perf_counter() - t0


# the time `uncharged` blocks took since the process started (a run reports its own share) and
# how many are open now (nested: a library's import imports the next)
_uncharged_s = [0.0]
_uncharged_depth = [0]


class _LoopDeadline:
    """Arms `tick()` for `seconds` (or the given `_Deadline`) in this task; the enclosing
    deadline comes back on exit."""

    def __init__(self, seconds: "float | _Deadline"):
        self.seconds = seconds

    def __enter__(self):
        d = self.seconds
        if not isinstance(d, _Deadline):
            d = _Deadline(d, _deadline.get())
        elif d.outer is None:
            d.outer = _deadline.get()
        self._token = _deadline.set(d)
        return self

    def __exit__(self, *exc):
        try:
            _deadline.reset(self._token)
        except ValueError:
            pass  # closed from another context (a suspended coroutine collected): its context ends with it
        return False


class _Both:
    def __init__(self, *managers):
        self.managers = managers

    def __enter__(self):
        for m in self.managers:
            m.__enter__()
        return self

    def __exit__(self, *exc):
        for m in reversed(self.managers):
            m.__exit__(*exc)
        return False


class _LoopTicks(ast.NodeTransformer):
    """Insert `__gradpad_tick__()` as the first statement of every for/while body."""

    def _tick_first(self, node):
        self.generic_visit(node)
        call = ast.Expr(ast.Call(ast.Name(TICK_NAME, ast.Load()), [], []))
        node.body.insert(0, ast.copy_location(call, node.body[0]))
        return node

    visit_For = visit_AsyncFor = visit_While = _tick_first


TICK_NAME = "__gradpad_tick__"


def budget(seconds: float | None, page_inputs: bool = False):
    """Context manager that stops the code inside after `seconds` (None: no limit).
    `page_inputs`: the page, not the learner, chose the inputs (a plot's points): the limit
    holds even where Stop could end the run, since no one asked for this call."""
    if seconds is None or INTERRUPTIBLE and not page_inputs:
        return _NoBudget()
    if IN_PYODIDE:  # no threads: loop ticks only
        return _LoopDeadline(seconds)
    deadline = _Deadline(seconds)  # one end for both, moved by an `uncharged` install
    return _Both(_LoopDeadline(deadline), _Watchdog(deadline))


class _NoBudget:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# A Stop ends the whole analysis, not just the call it hit: once a KeyboardInterrupt was seen,
# the guarded calls that follow (the panes call the learner's function again) are skipped,
# until the next `run` of the code.
_stopped: ErrorInfo | None = None


def _announce_stop() -> None:
    """The page hears of a Stop the moment it lands, not after the panes are drawn (app.env)."""
    from app import env
    env.run_stopped()


def guarded_call(fn, *args, seconds: float | None = DEFAULT_BUDGET_S, page_inputs: bool = False, **kwargs):
    """Call fn under the time budget (see `budget` for `page_inputs`); returns (value,
    ErrorInfo | None). Output is not captured."""
    global _stopped
    if _stopped is not None:
        return None, _stopped
    try:
        with budget(seconds, page_inputs):
            return fn(*args, **kwargs), None
    except (Exception, TimeBudgetExceeded, KeyboardInterrupt, SystemExit) as e:  # noqa: BLE001
        info = describe_error(e)
        if isinstance(e, KeyboardInterrupt):
            _stopped = info
            _announce_stop()
        return None, info


# ------------------------------------------------------------------ running code
_jax_installed = False


def install_jax() -> None:
    """`import jax` -> the engine (idempotent)."""
    global _jax_installed
    if not _jax_installed:
        import core
        from core._engine.primitives import control_flow
        core.install_as_jax()
        control_flow.while_loop_tick = tick  # lax.while_loop's iterations tick too: a no-op outside a budget
        _USER_FLAG_DEFAULTS.update({name: core.config.read(name) for name in USER_FLAGS})
        _jax_installed = True


# The jax.config flags a learner's code sets (JAX's docs do: x64, debug_nans, ...). A run starts
# from their values at start-up, as a fresh Python would: a flag set by the code before the
# edit must not outlive it (float64 results or FloatingPointErrors in code that never asked).
# The backend flags are the app's (the Backend menu sets jax_platforms) and stay as they are.
USER_FLAGS = ("jax_enable_x64", "jax_debug_nans", "jax_debug_infs", "jax_disable_jit",
              "jax_numpy_rank_promotion", "jax_numpy_dtype_promotion", "jax_default_matmul_precision",
              # [longrun] other PRNG bits than a fresh session's, or every later run on an accelerator
              # (and off the CPU's fast paths), if they outlived the code that set them
              "jax_threefry_partitionable", "jax_default_device", "jax_check_tracer_leaks")
_USER_FLAG_DEFAULTS: dict = {}


def reset_user_flags() -> None:
    """The USER_FLAGS back to their start-up values; only those that changed (a change clears caches)."""
    import core
    for name, value in _USER_FLAG_DEFAULTS.items():
        if core.config.read(name) != value:
            core.config.update(name, value)


NO_INPUT = ("input() cannot read a line here: the page has no terminal, so the program "
            "gets no keyboard input")


def no_input(prompt: str = "") -> str:
    """The learner's input(): the page has no stdin (Pyodide's raises a bare "OSError: [Errno
    29] I/O error", and under `panel serve` it would block the server). Python raises EOFError
    when input() finds no more input; this one says why."""
    print(prompt, end="")
    raise EOFError(NO_INPUT)


def end_run(code=None):
    """The learner's exit() / quit(): SystemExit as the builtins raise it, without closing the
    process's stdin first as they do (the page's Python lives on)."""
    raise SystemExit(code)


def fresh_namespace() -> dict:
    return {"__name__": "__main__", "__builtins__": builtins, "__file__": USER_FILE, TICK_NAME: tick,
            "input": no_input, "exit": end_run, "quit": end_run}


def compile_user_code(code: str):
    """(module code object, trailing-expression code object or None)."""
    tree = ast.parse(code, USER_FILE, "exec")
    tree = ast.fix_missing_locations(_LoopTicks().visit(tree))
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
    return compile(tree, USER_FILE, "exec"), (compile(last, USER_FILE, "eval") if last else None)


# A lesson page's cells share one namespace, as a notebook's do (app.lesson sets it); None: every
# run starts from a fresh one
shared_namespace: dict | None = None


def run(code: str, seconds: float | None = DEFAULT_BUDGET_S) -> RunResult:
    """Run `code` in a fresh namespace (or the lesson's shared one). Never raises for errors in
    the user's code."""
    global _stopped
    _stopped = None
    install_jax()
    reset_user_flags()
    ns = fresh_namespace()
    if shared_namespace is not None:
        shared_namespace.update({k: v for k, v in ns.items() if k not in shared_namespace or k.startswith("__")})
        ns = shared_namespace
    res = RunResult(namespace=ns)
    t0, installing_before = time.perf_counter(), _uncharged_s[0]
    with captured() as (out, err, caught):
        try:
            body, last = compile_user_code(code)
            with budget(seconds):
                exec(body, ns)
                if last is not None:
                    value = eval(last, ns)
                    if value is not None:
                        res.result = truncate(repr(value))
        except (Exception, TimeBudgetExceeded, KeyboardInterrupt, SystemExit) as e:  # noqa: BLE001
            # SystemExit too: sys.exit() in a pasted script must end the run, not the page's call
            res.error = describe_error(e)
            if isinstance(e, KeyboardInterrupt):
                _stopped = res.error
                _announce_stop()
    res.seconds = time.perf_counter() - t0
    res.installing_s = _uncharged_s[0] - installing_before
    res.stdout, res.stderr = out.text(), err.text()
    res.warnings = format_warnings(caught)
    return res


def truncate(text: str, limit: int = MAX_OUTPUT_CHARS) -> str:
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n… truncated: {len(text) - limit:,} more characters not shown"
