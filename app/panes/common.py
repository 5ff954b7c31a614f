"""Small HTML helpers shared by the panes."""
from __future__ import annotations

import contextlib
import html as _html
import re
import weakref

import panel as pn

from .. import env
from .text_html import text_html

DARK_QUERY = "@media (prefers-color-scheme: dark)"


def tv(light: str, dark: str) -> str:
    """A CSS value that is `light` or `dark` as the page's theme is, switched without new CSS or a
    rebuild: the page's root sets `--gp-light` empty in the light theme and `--gp-dark` empty in the
    dark one, the other left unset (static/style.css), and custom properties reach into every
    pane's shadow root. An unset var() takes its fallback, an empty one adds nothing."""
    return f"var(--gp-dark, {light}) var(--gp-light, {dark})"


# outside the page (panel serve) no root says the theme: each pane's host follows the system's
HOST_THEME = f":host {{ --gp-light: ; }}\n{DARK_QUERY} {{ :host {{ --gp-light: initial; --gp-dark: ; }} }}\n"


def themed(css: str) -> str:
    """CSS written with tv(), for where it is shown: on the page as it is (the page's root says the
    theme, and a switch needs no new CSS); outside the page with the switch set on each pane's host
    from the system's theme. In the browser the page's root always says it (static/style.css), even
    where this module is imported before any page is known: the post-import snapshot's maker, whose
    constants every warm visit restores (with the host's switch in them, a page whose theme was not
    the system's lost every tv() value: the host's empty --gp-light beside the page's empty
    --gp-dark)."""
    return css if env.IN_BROWSER else HOST_THEME + css


CSS = f"""
.gp-code {{ font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px;
  line-height: 1.45; white-space: pre; overflow: auto; background: {tv("#f7f8fa", "#161b22")};
  border: 1px solid {tv("#e1e4e8", "#30363d")}; color: {tv("currentcolor", "#e6edf3")};
  border-radius: 6px; padding: 8px 10px; margin: 0; max-height: 420px; }}
.gp-console {{ white-space: pre-wrap; overflow-wrap: anywhere; }}  /* long messages wrap: nothing cut at the pane's edge */
.gp-jk {{ color: {tv("#8250df", "#d2a8ff")}; font-weight: 600; }} .gp-jv {{ color: {tv("#0550ae", "#79c0ff")}; }}
.gp-jt {{ color: {tv("#57606a", "#8b949e")}; }}
.gp-jp {{ color: {tv("#cf222e", "#ff7b72")}; font-weight: 600; }} .gp-jl {{ color: {tv("#116329", "#7ee787")}; }}
.gp-muted {{ color: {tv("#57606a", "#8b949e")}; font-size: 12px; }}
/* the status line (app.main): what the last run did, or, while the page marks it running, that
   a run is on (a line saying "ran" under a run in flight contradicted the header's Running…) */
.gp-running-note {{ display: none; color: #9a6700; }}
:host(.gp-running) .gp-ran {{ display: none; }} :host(.gp-running) .gp-running-note {{ display: inline; }}
.gp-guess {{ font-weight: normal; }} .gp-guess-note {{ color: #9a6700; font-size: 12px; }}
.gp-err {{ color: {tv("#b42318", "#ff7b72")}; font-weight: 600; }} .gp-warn {{ color: {tv("#9a6700", "#d29922")}; }}
.gp-hint {{ background: {tv("#fff8c5", "#3b2f00")}; border: 1px solid {tv("#eed888", "#6e5600")};
  color: {tv("currentcolor", "#f0e6c0")}; border-radius: 6px; padding: 6px 10px; }}
.gp-diff {{ border-collapse: collapse; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; width: 100%; }}
.gp-diff td {{ padding: 0 6px; white-space: pre; vertical-align: top; }}
.gp-diff .replace, .gp-diff .insert {{ background: {tv("#dafbe1", "#12361f")}; }}
.gp-diff .delete {{ background: {tv("#ffebe9", "#4a1d1d")}; }}
.gp-diff th {{ text-align: left; font-weight: 600; border-bottom: 1px solid {tv("#ddd", "#30363d")}; }}
.gp-table {{ border-collapse: collapse; font-size: 12.5px; }}
.gp-table td, .gp-table th {{ border-bottom: 1px solid {tv("#eee", "#30363d")}; padding: 2px 8px; text-align: right;
  font-family: ui-monospace, Menlo, monospace;
  white-space: nowrap; }}  /* "batch 0", "1.84 ms – 7.22 ms" on one line; a wide table scrolls in .gp-scroll-x */
.gp-scroll-x {{ overflow-x: auto; max-width: 100%; }}
.gp-call {{ font-size: 10.5px; font-weight: normal; color: {tv("#57606a", "#8b949e")}; max-width: 18em; margin-left: auto;
  overflow: hidden; text-overflow: ellipsis; }}  /* the manual call under "manual": cut, whole in its tooltip */
/* the methods table (app.panes.vmap): on a narrow pane (a phone) each method's numbers stack
   beside its name (median, min – max, the verdict against vmap) instead of going behind the
   sideways scroll */
.gp-methods-box {{ container-type: inline-size; }}
@container (max-width: 480px) {{
  .gp-methods, .gp-methods tbody {{ display: block; }}
  .gp-methods tr {{ display: grid; grid-template-columns: 38% 62%; border-bottom: 1px solid {tv("#eee", "#30363d")}; }}
  .gp-methods td, .gp-methods th {{ border-bottom: none; text-align: left; }}
  .gp-methods tr > :first-child {{ grid-row: span 3; }}
  .gp-methods tr > :not(:first-child) {{ grid-column: 2; }}
  .gp-methods th.gp-verdict, .gp-methods td.gp-verdict:empty {{ display: none; }}
  .gp-methods td.gp-verdict::before {{ content: "vs vmap: "; }}
  .gp-call {{ max-width: 100%; }}
}}
.gp-badge {{ display: inline-block; background: {tv("#eef2ff", "#1f2a4d")}; color: {tv("#3730a3", "#c7d2fe")};
  border-radius: 10px; padding: 1px 8px; margin-right: 6px; font-size: 12px; }}
a {{ color: {tv("LinkText", "#79c0ff")}; }}
"""
CSS = themed(CSS)


def esc(text: str) -> str:
    return _html.escape(str(text), quote=False)


USER_FILE_MENTION = re.compile(r'\(<gradpad>, line (\d+)\)|"<gradpad>"|<gradpad>')


def readable(text: str) -> str:
    """Python names the user's code by its internal file name '<gradpad>': say 'your code'
    ('invalid syntax (<gradpad>, line 2)' -> 'invalid syntax (line 2)')."""
    return USER_FILE_MENTION.sub(lambda m: f"(line {m.group(1)})" if m.group(1) else "your code", text or "")


# a figure's outer size is set by its width/height or its parent, never by its data: the page lays
# out only the figure when its data, ranges or titles change (static/layout_bounds.js, app.main)
LAYOUT_BOX = "gp-layout-box"


def bokeh(fig, **kw) -> pn.pane.Bokeh:
    """A Bokeh figure as a pane, in the page's theme (dark when the system is)."""
    kw.setdefault("sizing_mode", "stretch_width")
    if LAYOUT_BOX not in fig.css_classes:
        fig.css_classes = [*fig.css_classes, LAYOUT_BOX]
    if pn.config.theme == "dark":
        dark_figure(fig)
    return pn.pane.Bokeh(fig, **kw)


# Bokeh models' values that depend on the page's theme, set through theme_value: a theme switch
# sets them again in place (retheme), no figure is rebuilt. model -> {property: (light, dark)}
_THEMED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def theme_value(model, name: str, light, dark) -> None:
    """`model.name` = `light` or `dark` as the page's theme is now, and again after a switch."""
    _THEMED.setdefault(model, {})[name] = (light, dark)
    setattr(model, name, dark if pn.config.theme == "dark" else light)


def dark_figure(fig) -> None:
    """Bokeh's dark_minimal theme, set as the figure's own values: the page's document applies
    its (light) theme to every model added to it, which would undo themed defaults."""
    for model in fig.references():
        for name, (light, dark) in _dark_minimal(model).items():
            theme_value(model, name, light, dark)


def _dark_minimal(model) -> dict:
    """{property: (light, dark)}: dark_minimal's values for `model` beside the values they replace
    (the light side: a switch to light puts them back). Properties the code set itself stay."""
    from bokeh.themes import built_in_themes
    attrs = built_in_themes["dark_minimal"]._json.get("attrs", {})
    owned, out = _THEMED.get(model, {}), {}
    wanted = [(name, value) for cls in type(model).__mro__ for name, value in attrs.get(cls.__name__, {}).items()]
    if not wanted:
        return out
    props, own = model.properties(), model.properties_with_values(include_defaults=False)
    for name, value in wanted:  # the most specific class's value comes first, and wins
        if name in out or name not in props:
            continue
        if name in owned:
            out[name] = (owned[name][0], value)
        elif name not in own:
            out[name] = (getattr(model, name), value)
    return out


def retheme(models) -> int:
    """The page's theme switched (app.theme_switch): these models' theme values set in place (a
    figure built in the light theme learns the dark one's values first). How many values changed."""
    from bokeh.models import Plot
    models = list(models)
    if pn.config.theme == "dark":
        for plot in (m for m in models if isinstance(m, Plot)):
            for model in plot.references():
                _THEMED.setdefault(model, {}).update(_dark_minimal(model))
    changed = 0
    for model in models:
        for name, (light, dark) in _THEMED.get(model, {}).items():
            want = dark if pn.config.theme == "dark" else light
            if getattr(model, name) != want:
                setattr(model, name, want)
                changed += 1
    return changed


def code_block(text: str, css_class: str = "gp-code") -> pn.pane.HTML:
    return text_html(f'<pre class="{css_class}">{esc(text)}</pre>', sizing_mode="stretch_width",
                     stylesheets=[CSS])


def html(body: str, **kw) -> pn.pane.HTML:
    kw.setdefault("sizing_mode", "stretch_width")
    return text_html(body, stylesheets=[CSS], **kw)  # a rebuilt pane's own, taken back (text_html.reusing)


# ------------------------------------------------------------------ a guessed input
# When the code never calls the chosen function itself (only inside a module's method or through
# a transform), the panes call it on a guessed input (1.0 per parameter). An error there is most
# likely the guess's, not the code's: every error block drawn while `guessed_input` is set says
# so and how to give a real input. Set by the app around each pane's build (app.main.pane_builder).
_guess: tuple | None = None   # (function name, the guessed arguments' source)


@contextlib.contextmanager
def guessed_input(a):
    """Inside: the panes draw for analysis `a`; its input is a guess when `a.args_guessed`."""
    global _guess
    previous = _guess
    fn = getattr(a, "function", None)
    _guess = (fn.name, a.args_source) if fn is not None and getattr(a, "args_guessed", False) else None
    try:
        yield
    finally:
        _guess = previous


def current_guess() -> tuple | None:
    """(function, guessed arguments) while a pane is drawn for a guessed input, else None."""
    return _guess


def guess_hint(name: str, args: str) -> str:
    return (f"Your code never calls {name} itself (only inside a module or through a transform), so the "
            f"panes called {name}({args}) on an input they guessed. Type {name}'s real arguments under "
            f"Input (e.g. jnp.ones((4, 8)) for a 4×8 array), or write a call such as {name}(x) in your code.")


def error_block(err, example_link=None) -> pn.pane.HTML:
    """An ErrorInfo as class + first line, the hint, and a link to the example that fixes it;
    on a guessed input (see `guessed_input`) it says so first (not for a Stop: the learner's own)."""
    if _guess is not None and err.type != "KeyboardInterrupt":
        name, args = _guess
        body = (f'<div class="gp-err">{esc(readable(err.headline()))} '
                f'<span class="gp-guess">(on the guessed input {esc(args)})</span></div>'
                f'<div class="gp-hint gp-guess-hint">{esc(guess_hint(name, args))}</div>')
        return html(body)
    body = f'<div class="gp-err">{esc(readable(err.headline()))}</div>'
    if err.hint:
        link = ""
        if err.example and example_link:
            link = f' <a href="{example_link(err.example)}" target="_top">See the example →</a>'
        body += f'<div class="gp-hint">{esc(err.hint)}{link}</div>'
    return html(body)


def fmt_seconds(s: float) -> str:
    if s >= 1:
        return f"{s:.2f} s"
    if s >= 1e-3:
        return f"{s * 1e3:.2f} ms"
    return f"{s * 1e6:.1f} µs"
