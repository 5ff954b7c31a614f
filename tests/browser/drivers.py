"""One small interface over three browser engines, for the tests that must pass in each:
Chromium (Playwright over Debian's /usr/bin/chromium), Firefox ESR (Mozilla's Marionette
protocol, `firefox-esr --marionette --headless`) and WebKitGTK (WebKitWebDriver through Selenium,
its MiniBrowser on an Xvfb display of its own). Playwright's own browser builds are never used.

What the tests need, the same way in each: open a URL, evaluate a JS function in the page (its
promise awaited, the result JSON), wait for a condition, click an element the page finds,
type keys, resize the viewport, take a screenshot.

A script's text is a JS function expression taking one JSON argument, e.g.
`"(code) => window.gradpad.runPython(code)"`; it runs in the page's own global scope (in Firefox
too: Marionette's sandbox reaches the page only through Xray wrappers, so the function is handed
to the page's eval, which the site's CSP allows for Bokeh)."""
from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

FIREFOX = Path(os.environ.get("GRADPAD_FIREFOX", "/usr/bin/firefox-esr"))
WEBKIT_DRIVER = Path(os.environ.get("GRADPAD_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver"))
XVFB = Path("/usr/bin/Xvfb")
# the browser that WebKitWebDriver starts (Debian's libwebkit2gtk-4.1-0 ships it)
MINIBROWSER = Path(os.environ.get("GRADPAD_MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"))

NAMES = ("chromium", "firefox", "webkit")
INSTALL = "`python build.py test` installs it (as root; tools/sysdeps.py)"


def problem(name: str) -> str | None:
    """Why `name` cannot run here, or None."""
    env = os.environ.get(f"GRADPAD_{name.upper()}_PROBLEM")
    if env:
        return env
    if name == "chromium":
        from . import chromium
        return chromium.problem()
    missing = {"firefox": [FIREFOX], "webkit": [WEBKIT_DRIVER, MINIBROWSER, XVFB]}[name]
    gone = [str(p) for p in missing if not p.exists()]
    if gone:
        return f"{', '.join(gone)} missing: {INSTALL}"
    try:
        __import__({"firefox": "marionette_driver", "webkit": "selenium"}[name])
    except ImportError as e:
        return f"{e}: the `browser` extra in pyproject.toml has it ({INSTALL})"
    return None


def launch(name: str) -> "Browser":
    return {"chromium": ChromiumBrowser, "firefox": FirefoxBrowser, "webkit": WebKitBrowser}[name]()


class Browser:
    """One browser, one tab."""
    name = ""
    min_viewport_width = 0  # the narrowest viewport its window can have

    def goto(self, url: str) -> None:
        """Navigate and return once the document is parsed (not when gradpad is ready)."""
        raise NotImplementedError

    def evaluate(self, script: str, arg=None, timeout_s: float = 120):
        """`script(arg)` in the page, its promise awaited; returns the JSON value."""
        raise NotImplementedError

    def click(self, finder: str, arg=None) -> None:
        """A real (driver's) click on the element the JS function `finder(arg)` returns."""
        raise NotImplementedError

    def press(self, keys: str) -> None:
        """Type text into the focused element; `keys` may hold the driver-neutral chords
        {CTRL_ENTER}, {CTRL_A} and {ESC} (see KEYS)."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        raise NotImplementedError

    def _window_size(self, width: int, height: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ shared on top
    def wait_for(self, script: str, arg=None, timeout_s: float = 120, poll_ms: int = 100):
        """Poll `script(arg)` in the page until it is truthy; returns that value."""
        waiter = f"""async (a) => {{
            const f = ({script}), until = Date.now() + {int(timeout_s * 1000)};
            for (;;) {{
                const v = await f(a);
                if (v) return v;
                if (Date.now() > until) throw new Error('timed out after {timeout_s} s waiting for: ' + f);
                await new Promise((r) => setTimeout(r, {poll_ms}));
            }}
        }}"""
        return self.evaluate(waiter, arg, timeout_s=timeout_s + 30)

    def set_viewport(self, width: int, height: int) -> None:
        """Make the page's viewport (innerWidth x innerHeight) this size: the window is resized,
        and again by what its own frame and toolbars take."""
        self._window_size(width, height)
        inner = self.wait_for("() => [innerWidth, innerHeight]", timeout_s=5)
        if inner != [width, height]:
            self._window_size(width + width - inner[0], height + height - inner[1])
        self.wait_for("([w, h]) => innerWidth === w && innerHeight === h", [width, height], timeout_s=10)


KEYS = {"CTRL_ENTER", "CTRL_A", "ESC"}


class ChromiumBrowser(Browser):
    name = "chromium"

    def __init__(self):
        from playwright.sync_api import sync_playwright

        from . import chromium
        self._pw = sync_playwright().start()
        self.external: list[str] = []
        self._ctx, self._udd = chromium.launch(self._pw)
        chromium.guard_network(self._ctx, self.external)
        self.page = self._ctx.pages[0] if self._ctx.pages else self._ctx.new_page()

    def goto(self, url):
        self.page.goto(url, wait_until="domcontentloaded", timeout=120_000)

    def evaluate(self, script, arg=None, timeout_s=120):
        self.page.set_default_timeout(timeout_s * 1000)
        return self.page.evaluate(f"async (a) => JSON.parse(JSON.stringify(await ({script})(a)) ?? 'null')", arg)

    def click(self, finder, arg=None):
        self.page.evaluate_handle(finder, arg).as_element().click()

    def press(self, keys):
        for part in _split_keys(keys):
            if part == "CTRL_ENTER":
                self.page.keyboard.press("Control+Enter")
            elif part == "CTRL_A":
                self.page.keyboard.press("Control+a")
            elif part == "ESC":
                self.page.keyboard.press("Escape")
            else:
                self.page.keyboard.type(part)

    def screenshot(self, path):
        self.page.screenshot(path=str(path))

    def set_viewport(self, width, height):
        self.page.set_viewport_size({"width": width, "height": height})

    def close(self):
        try:
            self._ctx.close()
        finally:
            self._pw.stop()
            shutil.rmtree(self._udd, ignore_errors=True)


def _split_keys(keys: str) -> list[str]:
    """'ab{CTRL_ENTER}c' -> ['ab', 'CTRL_ENTER', 'c']"""
    out, rest = [], keys
    while "{" in rest:
        head, _, tail = rest.partition("{")
        chord, _, rest = tail.partition("}")
        assert chord in KEYS, chord
        out += [head, chord] if head else [chord]
    return out + ([rest] if rest else [])


# an error's message and stack (Firefox's e.stack has no message)
ERROR_TEXT = "const _errorText = (e) => e && e.stack ? String(e) + '\\n' + e.stack : String(e);"


# a page-side runner for drivers whose own script runs outside the page (Firefox's sandbox):
# it runs the function in the page and leaves the JSON outcome in a page global, as a string
def _page_runner(script: str, arg, slot: int) -> str:
    return f"""(() => {{
        {ERROR_TEXT}
        const box = (window.__gpDriver = window.__gpDriver || {{}});
        delete box[{slot}];
        Promise.resolve().then(() => ({script})(JSON.parse({json.dumps(json.dumps(arg))})))
            .then((v) => {{ box[{slot}] = JSON.stringify({{ok: v === undefined ? null : v}}); }},
                  (e) => {{ box[{slot}] = JSON.stringify({{error: _errorText(e)}}); }});
    }})()"""


class ScriptError(RuntimeError):
    """The page's script threw (or its promise rejected)."""


def _outcome(text: str):
    out = json.loads(text)
    if "error" in out:
        raise ScriptError(out["error"])
    return out["ok"]


class FirefoxBrowser(Browser):
    """Firefox ESR through Marionette (`--marionette --headless`, a fresh profile)."""
    name = "firefox"

    def __init__(self):
        from marionette_driver.marionette import Marionette
        self._log = tempfile.NamedTemporaryFile(prefix="gradpad-gecko-", suffix=".log", delete=False).name
        # socket_timeout: the client gives up on (and kills) Firefox when one command takes
        # longer, and evaluate() waits in one command as long as its timeout_s
        self.m = Marionette(host="127.0.0.1", port=0, bin=str(FIREFOX), headless=True, startup_timeout=180,
                            socket_timeout=1800,
                            gecko_log=self._log,
                            prefs={"browser.shell.checkDefaultBrowser": False, "datareporting.policy.dataSubmissionEnabled": False})
        self.m.start_session()
        self.m.timeout.page_load = 180
        self.version = self.m.session_capabilities.get("browserVersion")
        self._slots = itertools.count()

    def goto(self, url):
        self.m.navigate(url)

    def evaluate(self, script, arg=None, timeout_s=120):
        slot = next(self._slots)
        text = self.m.execute_async_script("""
            const [code, slot, resolve] = arguments;
            const page = window.wrappedJSObject;
            page.eval(code);
            const poll = () => {
                const box = page.__gpDriver, v = box && box[slot];
                if (typeof v === 'string') { delete box[slot]; resolve(v); } else setTimeout(poll, 20);
            };
            poll();""", script_args=[_page_runner(script, arg, slot), slot], script_timeout=int(timeout_s * 1000))
        return _outcome(text)

    def _element(self, finder, arg):
        slot = next(self._slots)
        # the page finds it; the sandbox hands it back to the driver (a web element reference)
        self.evaluate(f"(a) => {{ window.__gpDriverEl = ({finder})(a); return !!window.__gpDriverEl; }}", arg)
        return self.m.execute_script("const el = window.wrappedJSObject.__gpDriverEl; "
                                     "window.wrappedJSObject.__gpDriverEl = null; return el;")

    def click(self, finder, arg=None):
        self._element(finder, arg).click()

    def press(self, keys):
        from marionette_driver.keys import Keys
        chain = self.m.actions.sequence("key", "keyboard")
        for part in _split_keys(keys):
            if part in ("CTRL_ENTER", "CTRL_A"):
                key = Keys.ENTER if part == "CTRL_ENTER" else "a"
                chain.key_down(Keys.CONTROL).key_down(key).key_up(key).key_up(Keys.CONTROL)
            elif part == "ESC":
                chain.key_down(Keys.ESCAPE).key_up(Keys.ESCAPE)
            else:
                for ch in part:
                    chain.key_down(ch).key_up(ch)
        chain.perform()

    def screenshot(self, path):
        Path(path).write_bytes(self.m.screenshot(format="binary", full=False))

    def _window_size(self, width, height):
        self.m.set_window_rect(width=width, height=height)

    # Firefox keeps a window at least 500 px wide; a phone's 390 CSS px come from a higher
    # device pixel ratio instead, as on the phone itself
    MIN_WINDOW_WIDTH = 500
    PHONE_RATIO = 1.5

    def set_viewport(self, width, height):
        ratio = self.PHONE_RATIO if width < self.MIN_WINDOW_WIDTH else 1.0
        with self.m.using_context(self.m.CONTEXT_CHROME):
            self.m.set_pref("layout.css.devPixelsPerPx", str(ratio))
        scaled_w, scaled_h = round(width * ratio), round(height * ratio)
        self._window_size(scaled_w, scaled_h)
        inner = self.wait_for("() => [innerWidth, innerHeight]", timeout_s=5)
        if inner != [width, height]:
            self._window_size(scaled_w + round((width - inner[0]) * ratio), scaled_h + round((height - inner[1]) * ratio))
        # at a fractional pixel ratio the height may round a pixel off; the width is what layouts test
        self.wait_for("([w, h]) => innerWidth === w && Math.abs(innerHeight - h) <= 2", [width, height], timeout_s=10)

    def close(self):
        try:
            self.m.cleanup()
        finally:
            Path(self._log).unlink(missing_ok=True)


class WebKitBrowser(Browser):
    """WebKitGTK's MiniBrowser through WebKitWebDriver (Selenium), on its own Xvfb display."""
    name = "webkit"

    def __init__(self):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
        self._xvfb, display = _start_xvfb()
        try:
            opts = Options()
            opts.binary_location = str(MINIBROWSER)
            opts.add_argument("--automation")
            service = Service(executable_path=str(WEBKIT_DRIVER), env={**os.environ, "DISPLAY": display})
            self.d = webdriver.WebKitGTK(options=opts, service=service)
        except BaseException:
            self._xvfb.terminate()
            raise
        self.d.set_page_load_timeout(180)
        self.version = self.d.capabilities.get("browserVersion")
        # MiniBrowser's window has a minimum width (its toolbar): a phone's 390 px cannot be had
        self._window_size(200, 600)
        self.min_viewport_width = self.evaluate("() => innerWidth")

    def goto(self, url):
        self.d.get(url)

    def evaluate(self, script, arg=None, timeout_s=120):
        self.d.set_script_timeout(timeout_s)
        text = self.d.execute_async_script(f"""
            const [argText, resolve] = arguments;
            {ERROR_TEXT}
            Promise.resolve().then(() => ({script})(JSON.parse(argText)))
                .then((v) => resolve(JSON.stringify({{ok: v === undefined ? null : v}})),
                      (e) => resolve(JSON.stringify({{error: _errorText(e)}})));""", json.dumps(arg))
        return _outcome(text)

    def click(self, finder, arg=None):
        el = self.d.execute_script(f"return ({finder})(JSON.parse(arguments[0]))", json.dumps(arg))
        el.click()

    def press(self, keys):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        chain = ActionChains(self.d)
        for part in _split_keys(keys):
            if part in ("CTRL_ENTER", "CTRL_A"):
                chain.key_down(Keys.CONTROL).send_keys(Keys.ENTER if part == "CTRL_ENTER" else "a").key_up(Keys.CONTROL)
            elif part == "ESC":
                chain.send_keys(Keys.ESCAPE)
            else:
                chain.send_keys(part)
        chain.perform()

    def screenshot(self, path):
        Path(path).write_bytes(self.d.get_screenshot_as_png())

    def _window_size(self, width, height):
        self.d.set_window_size(width, height)

    def close(self):
        try:
            self.d.quit()
        finally:
            self._xvfb.terminate()
            self._xvfb.wait(10)


def _start_xvfb():
    """An X server on a free display (Xvfb picks it: -displayfd); returns (process, ':N')."""
    r, w = os.pipe()
    proc = subprocess.Popen([str(XVFB), "-displayfd", str(w), "-screen", "0", "2400x1600x24", "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    try:  # Xvfb writes "N\n", maybe in two writes: a read end closed too soon kills it
        while not number.endswith(b"\n"):
            chunk = os.read(r, 32)
            if not chunk:
                break
            number += chunk
    finally:
        os.close(r)
    number = number.decode().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start (no display number)")
    return proc, ":" + number
