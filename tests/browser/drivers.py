"""One small interface over three browser engines, for the tests that must pass in each:
Chromium (Playwright over Debian's /usr/bin/chromium), Firefox ESR (Mozilla's Marionette
protocol, `firefox-esr --marionette --headless`) and WebKitGTK (WebKitWebDriver through Selenium,
its MiniBrowser on an Xvfb display of its own). Playwright's own browser builds are never used.

What the tests need, the same way in each: open a URL, evaluate a JS function in the page (its
promise awaited, the result JSON), wait for a condition, click an element the page finds,
type keys, resize the viewport, take a screenshot.

A script's text is a JS function expression taking one JSON argument, e.g.
`"(code) => window.gradpad.runPython(code)"`; it runs with the page's own globals, compiled by the
driver (never by the page's eval, which the site's Trusted Types policy refuses)."""
from __future__ import annotations

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


def launch(name: str, playwright=None) -> "Browser":
    """`playwright`: the session's Playwright for Chromium (its sync API runs one per thread)."""
    if name == "chromium":
        return ChromiumBrowser(playwright)
    return {"firefox": FirefoxBrowser, "webkit": WebKitBrowser}[name]()


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
        {CTRL_ENTER}, {CTRL_A}, {ESC}, and the single keys {TAB}, {ARROW_RIGHT} and {HOME} (see KEYS)."""
        raise NotImplementedError

    def screenshot(self, path: Path) -> None:
        """The viewport of the top page (frames included), whichever frame scripts run in."""
        raise NotImplementedError

    def in_frame(self, finder: str | None, arg=None) -> None:
        """Run later scripts, clicks and keys in the <iframe> element that the top page's JS
        function `finder(arg)` returns (a lesson's cell frames are cross-origin: their globals are
        not the host page's); None: back in the top page."""
        raise NotImplementedError

    def _window_size(self, width: int, height: int) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ shared on top
    def wait_for(self, script: str, arg=None, timeout_s: float = 120, poll_ms: int = 100):
        """Poll `script(arg)` in the page until it is truthy; returns that value. A driver that
        garbles one answer (WebKitWebDriver's "Could not parse script result", seen once in CI while
        a cell frame loaded) is asked again for the time left."""
        deadline = time.monotonic() + timeout_s
        while True:
            left = max(1.0, deadline - time.monotonic())
            waiter = f"""async (a) => {{
                const f = ({script}), until = Date.now() + {int(left * 1000)};
                for (;;) {{
                    const v = await f(a);
                    if (v) return v;
                    if (Date.now() > until) throw new Error('timed out after {timeout_s} s waiting for: ' + f);
                    await new Promise((r) => setTimeout(r, {poll_ms}));
                }}
            }}"""
            try:
                return self.evaluate(waiter, arg, timeout_s=left + 30)
            except Exception as e:  # noqa: BLE001 (each driver raises its own class)
                if "Could not parse script result" not in str(e) or time.monotonic() > deadline:
                    raise

    def set_viewport(self, width: int, height: int) -> None:
        """Make the page's viewport (innerWidth x innerHeight) this size."""
        self._fit_viewport(width, height)

    def _fit_viewport(self, width: int, height: int, ratio: float = 1.0, height_slack: int = 0) -> None:
        """Resize the window, then again by what its own frame and toolbars take, until the page's
        viewport is width x height CSS px (`ratio` device px each). The page hears of a resize a
        while after the driver's call returns (long on a busy machine): each size is read once
        it has held still."""
        w, h = round(width * ratio), round(height * ratio)
        inner = self.evaluate("() => [innerWidth, innerHeight]")
        for _ in range(4):
            self._window_size(w, h)
            inner = self.evaluate(STILL_VIEWPORT, [inner, 5000], timeout_s=60)
            if inner[0] == width and abs(inner[1] - height) <= height_slack:
                return
            w = max(100, w + round((width - inner[0]) * ratio))
            h = max(100, h + round((height - inner[1]) * ratio))
        raise AssertionError(f"{self.name}: the viewport is {inner}, not {width}x{height}")


KEYS = {"CTRL_ENTER", "CTRL_A", "ESC", "TAB", "ARROW_RIGHT", "HOME"}
# the single keys by their WebDriver codes (Marionette and Selenium both take them)
WEBDRIVER_KEYS = {"ESC": "\ue00c", "TAB": "\ue004", "ARROW_RIGHT": "\ue014", "HOME": "\ue011"}

# [innerWidth, innerHeight] once it changed from `before` (up to `waitMs`) and then held for 300 ms
STILL_VIEWPORT = """async ([before, waitMs]) => {
    const size = () => [innerWidth, innerHeight], pause = (ms) => new Promise((r) => setTimeout(r, ms));
    const t0 = Date.now();
    while (before && String(size()) === String(before) && Date.now() - t0 < waitMs) await pause(50);
    let last = String(size()), since = Date.now();
    while (Date.now() - since < 300 && Date.now() - t0 < waitMs + 5000) {
        await pause(50);
        if (String(size()) !== last) { last = String(size()); since = Date.now(); }
    }
    return size();
}"""


class ChromiumBrowser(Browser):
    name = "chromium"

    def __init__(self, playwright=None):
        from playwright.sync_api import sync_playwright

        from . import chromium
        self._own_pw = playwright is None
        self._pw = sync_playwright().start() if self._own_pw else playwright
        self.external: list[str] = []
        self._ctx, self._udd = chromium.launch(self._pw)
        chromium.guard_network(self._ctx, self.external)
        self.page = self._ctx.pages[0] if self._ctx.pages else self._ctx.new_page()
        self._target = self.page  # the page, or the frame in_frame() chose

    def goto(self, url):
        self._target = self.page
        self.page.goto(url, wait_until="domcontentloaded", timeout=120_000)

    def evaluate(self, script, arg=None, timeout_s=120):
        self.page.set_default_timeout(timeout_s * 1000)
        return self._target.evaluate(f"async (a) => JSON.parse(JSON.stringify(await ({script})(a)) ?? 'null')", arg)

    def click(self, finder, arg=None):
        self._target.evaluate_handle(finder, arg).as_element().click()

    def in_frame(self, finder, arg=None):
        self._target = self.page if finder is None else \
            self.page.evaluate_handle(finder, arg).as_element().content_frame()

    def press(self, keys):
        for part in _split_keys(keys):
            if part == "CTRL_ENTER":
                self.page.keyboard.press("Control+Enter")
            elif part == "CTRL_A":
                self.page.keyboard.press("Control+a")
            elif part in WEBDRIVER_KEYS:
                self.page.keyboard.press({"ESC": "Escape", "TAB": "Tab", "ARROW_RIGHT": "ArrowRight", "HOME": "Home"}[part])
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
            if self._own_pw:
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


def _async_wrapper(script: str) -> str:
    """A WebDriver async script (arguments: the JSON argument, the callback) that runs
    `script(arg)`, awaits it and calls back with the JSON outcome as a string."""
    return f"""
        const [argText, resolve] = arguments;
        {ERROR_TEXT}
        Promise.resolve().then(() => ({script})(JSON.parse(argText)))
            .then((v) => resolve(JSON.stringify({{ok: v === undefined ? null : v}})),
                  (e) => resolve(JSON.stringify({{error: _errorText(e)}})));"""


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

    def goto(self, url):
        self.m.switch_to_frame()
        self.m.navigate(url)

    def in_frame(self, finder, arg=None):
        self.m.switch_to_frame()
        if finder is not None:
            self.m.switch_to_frame(self._element(finder, arg))

    def evaluate(self, script, arg=None, timeout_s=120):
        # sandbox=None: the script runs with the page's globals, compiled by Marionette (the page's
        # Trusted Types policy refuses strings handed to its own eval)
        text = self.m.execute_async_script(_async_wrapper(script), script_args=[json.dumps(arg)],
                                           sandbox=None, script_timeout=int(timeout_s * 1000))
        return _outcome(text)

    def _element(self, finder, arg):
        return self.m.execute_script(f"return ({finder})(JSON.parse(arguments[0]))", script_args=[json.dumps(arg)],
                                     sandbox=None)

    def click(self, finder, arg=None):
        self._element(finder, arg).click()

    def press(self, keys):
        from marionette_driver.keys import Keys
        chain = self.m.actions.sequence("key", "keyboard")
        for part in _split_keys(keys):
            if part in ("CTRL_ENTER", "CTRL_A"):
                key = Keys.ENTER if part == "CTRL_ENTER" else "a"
                chain.key_down(Keys.CONTROL).key_down(key).key_up(key).key_up(Keys.CONTROL)
            elif part in WEBDRIVER_KEYS:
                chain.key_down(WEBDRIVER_KEYS[part]).key_up(WEBDRIVER_KEYS[part])
            else:
                for ch in part:
                    chain.key_down(ch).key_up(ch)
        chain.perform()

    def screenshot(self, path):
        Path(path).write_bytes(self.m.screenshot(format="binary", full=False))  # the top page's viewport

    def _window_size(self, width, height):
        self.m.set_window_rect(width=width, height=height)

    # Firefox keeps its window at least 500 px wide (its own toolbars' CSS, which its pixel ratio
    # pref scales too); a phone's 390 CSS px come from the page's zoom instead (150%: 1.5 device
    # px per CSS px, as on the phone itself)
    MIN_WINDOW_WIDTH = 500
    PHONE_RATIO = 1.5

    def set_viewport(self, width, height):
        ratio = self.PHONE_RATIO if width < self.MIN_WINDOW_WIDTH else 1.0
        with self.m.using_context(self.m.CONTEXT_CHROME):
            self.m.execute_script("gBrowser.selectedBrowser.fullZoom = arguments[0];", script_args=[ratio])
        self.wait_for("(r) => Math.abs(devicePixelRatio - r) < 0.01", ratio, timeout_s=30)
        # at a fractional pixel ratio the height may round a pixel off; the width is what layouts test
        self._fit_viewport(width, height, ratio, height_slack=2 if ratio != 1.0 else 0)

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
        self._gtk_config = _narrow_gtk_config()
        self._xvfb, display = _start_xvfb()
        try:
            opts = Options()
            opts.binary_location = str(MINIBROWSER)
            opts.add_argument("--automation")
            # (WEBKIT_DISABLE_COMPOSITING_MODE=1 made its runs 2-3x faster on Xvfb, but its
            # screenshots and then every command hung after a resize)
            env = {**os.environ, "DISPLAY": display, "XDG_CONFIG_HOME": self._gtk_config}
            service = Service(executable_path=str(WEBKIT_DRIVER), env=env)
            self.d = webdriver.WebKitGTK(options=opts, service=service)
        except BaseException:
            self._xvfb.terminate()
            shutil.rmtree(self._gtk_config, ignore_errors=True)
            raise
        self.d.set_page_load_timeout(180)
        self.version = self.d.capabilities.get("browserVersion")
        # the narrowest the window goes (MiniBrowser's toolbar, shrunk by _narrow_gtk_config)
        self._window_size(200, 600)
        self.min_viewport_width = self.evaluate("() => innerWidth")

    def goto(self, url):
        self.d.switch_to.default_content()
        self.d.get(url)

    def in_frame(self, finder, arg=None):
        self.d.switch_to.default_content()
        if finder is not None:
            self.d.switch_to.frame(self.d.execute_script(f"return ({finder})(JSON.parse(arguments[0]))", json.dumps(arg)))

    def evaluate(self, script, arg=None, timeout_s=120):
        self.d.set_script_timeout(timeout_s)
        text = self.d.execute_async_script(_async_wrapper(script), json.dumps(arg))
        return _outcome(text)

    def click(self, finder, arg=None):
        from selenium.common.exceptions import ElementNotInteractableException
        # WebKitWebDriver answers "not interactable" for a button a layout change moved out of the
        # frame's part in sight a moment ago (the floating run bar of a lesson cell, whose frame
        # the host page had scrolled): the button is brought into sight and clicked again, for up
        # to 5 s; a button that stays hidden still fails
        deadline = time.monotonic() + 5
        while True:
            el = self.d.execute_script(f"return ({finder})(JSON.parse(arguments[0]))", json.dumps(arg))
            try:
                el.click()
                return
            except ElementNotInteractableException:
                if time.monotonic() > deadline:
                    raise
                self.d.execute_script("arguments[0].scrollIntoView({block: 'nearest'})", el)
                time.sleep(0.25)

    def press(self, keys):
        from selenium.webdriver.common.action_chains import ActionChains
        from selenium.webdriver.common.keys import Keys
        chain = ActionChains(self.d)
        for part in _split_keys(keys):
            if part in ("CTRL_ENTER", "CTRL_A"):
                chain.key_down(Keys.CONTROL).send_keys(Keys.ENTER if part == "CTRL_ENTER" else "a").key_up(Keys.CONTROL)
            elif part in WEBDRIVER_KEYS:
                chain.send_keys(WEBDRIVER_KEYS[part])
            else:  # WebKitWebDriver types no "\n": the Enter key instead
                chain.send_keys(part.replace("\n", Keys.ENTER))
        chain.perform()

    def screenshot(self, path):
        # two frames painted first: a shot just after a resize showed the window's old contents
        self.evaluate("() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
        Path(path).write_bytes(self.d.get_screenshot_as_png())

    def _window_size(self, width, height):
        self.d.set_window_size(width, height)

    def close(self):
        try:
            self.d.quit()
        finally:
            self._xvfb.terminate()
            self._xvfb.wait(10)
            shutil.rmtree(self._gtk_config, ignore_errors=True)


# MiniBrowser's toolbar keeps its window at least 447 px wide, too wide for a phone's 390 CSS px.
# A GTK style sheet of its own (XDG_CONFIG_HOME/gtk-3.0/gtk.css) shrinks the browser's own
# widgets; the page is drawn by WebKit (its own form controls and scrollbars), which it leaves as is.
NARROW_GTK_CSS = ("* { font-size: 1px; padding: 0; margin: 0; min-width: 0; min-height: 0; border-width: 0; "
                  "-gtk-icon-transform: scale(0.1); }\n")


def _narrow_gtk_config() -> str:
    home = tempfile.mkdtemp(prefix="gradpad-webkit-gtk-")
    (Path(home) / "gtk-3.0").mkdir()
    (Path(home) / "gtk-3.0" / "gtk.css").write_text(NARROW_GTK_CSS)
    return home


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
