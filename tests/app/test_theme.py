"""The theme: the page tells the app the effective theme (the system's, or the visitor's choice
from the header's toggle, static/theme.js); the panes' dark CSS then applies or not whatever the
system says. Outside the page (panel serve) the CSS media queries follow the system."""
import pytest

from app import env, main
from app.panes import common

CSS = ".a { color: black; }\n@media (prefers-color-scheme: dark) { .a { color: white; } .b { x: y; } }\n.c { z: w; }"


@pytest.fixture
def page_theme(monkeypatch):
    def set_theme(theme):
        monkeypatch.setattr(env, "IN_BROWSER", True)
        monkeypatch.setattr(env, "_page_state", {"storage": {}, "theme": theme})
    return set_theme


def test_dark_choice_applies_the_dark_rules(page_theme):
    page_theme("dark")
    assert common.themed(CSS) == ".a { color: black; }\n .a { color: white; } .b { x: y; } \n.c { z: w; }"
    assert main.system_prefers_dark() is True


def test_light_choice_drops_them_even_on_a_dark_system(page_theme):
    page_theme("light")
    assert common.themed(CSS) == ".a { color: black; }\n\n.c { z: w; }"
    assert main.system_prefers_dark() is False


def test_outside_the_page_the_system_decides():
    assert env.theme() is None
    assert common.themed(CSS) == CSS
