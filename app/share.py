"""The playground's state in a URL: `#s=<zlib + URL-safe base64 of JSON>` for a shared link,
`#example=NAME` to open a gallery example, and the embed query `?embed=1&panes=jaxpr,plot&
autorun=1&readonly=1`. Pure stdlib, so the page and the tests share it."""
from __future__ import annotations

import base64
import json
import zlib
from dataclasses import asdict, dataclass, field
from urllib.parse import parse_qs, quote, urlencode

PANES = ("jaxpr", "plot", "vmap", "timing", "console")
STATE_KEYS = ("code", "function", "args", "panes", "backend", "view", "example")


@dataclass
class ShareState:
    code: str = ""
    function: str | None = None      # selected function name
    args: str | None = None          # the input editor's text, e.g. "x, 2.0"
    panes: list = field(default_factory=lambda: list(PANES))
    backend: str = "cpu"
    view: str = "f"                  # jaxpr view: f, grad, jit, vmap, jvp
    example: str | None = None


def encode_state(state: ShareState) -> str:
    """State -> URL-safe token (no padding)."""
    data = {k: v for k, v in asdict(state).items() if v not in (None, "", [])}
    raw = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode_state(token: str) -> ShareState:
    """Token -> state. Raises ValueError for a damaged token."""
    try:
        raw = zlib.decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
        data = json.loads(raw)
    except Exception as e:  # noqa: BLE001 - any damage reads the same to the user
        raise ValueError(f"this share link is damaged or truncated ({type(e).__name__})") from None
    if not isinstance(data, dict):
        raise ValueError("this share link does not hold a gradpad state")
    return ShareState(**{k: data[k] for k in STATE_KEYS if k in data})


def state_hash(state: ShareState) -> str:
    return "#s=" + encode_state(state)


def parse_hash(fragment: str) -> ShareState | None:
    """'#s=TOKEN' or '#example=NAME' (with or without the '#') -> state, else None."""
    frag = fragment.lstrip("#")
    if not frag:
        return None
    params = parse_qs(frag, keep_blank_values=True)
    if "s" in params:
        return decode_state(params["s"][0])
    if "example" in params:  # a link pasted from chat often ends in a space (%20) or newline
        return ShareState(example=params["example"][0].strip())
    return None


@dataclass
class EmbedOptions:
    embed: bool = False
    panes: list = field(default_factory=lambda: list(PANES))
    autorun: bool = True
    readonly: bool = False


def _flag(params, name, default):
    if name not in params:
        return default
    return params[name][0].lower() not in ("0", "false", "no", "")


def parse_query(query: str) -> EmbedOptions:
    """'?embed=1&panes=jaxpr,plot&autorun=1&readonly=1' -> options (unknown panes dropped)."""
    params = parse_qs(query.lstrip("?"), keep_blank_values=True)
    opts = EmbedOptions(embed=_flag(params, "embed", False), autorun=_flag(params, "autorun", True),
                        readonly=_flag(params, "readonly", False))
    if "panes" in params:
        wanted = [p.strip() for p in params["panes"][0].split(",")]
        opts.panes = [p for p in wanted if p in PANES] or list(PANES)
    return opts


# The Embed button's defaults: the code shown and editable above its panes (students see the
# program the panes describe), in a frame that cannot leave its box.
EMBED_PANES = ("jaxpr", "plot", "console")
# What the frame may do: run scripts; keep its own origin (its service worker, saved snapshot and
# module worker need it; it stays another origin than the host's, so this grants nothing on the
# host); open "open in gradpad ↗" as an ordinary tab. Not allow-top-navigation (the frame cannot
# navigate the host page), nor forms, modals, downloads or pointer lock.
EMBED_SANDBOX = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox"
# Takes effect only on a host that is itself cross-origin isolated (COOP + COEP, and the iframe
# `credentialless`): then the frame gets shared memory too (Stop interrupts instead of restarting).
EMBED_ALLOW = "cross-origin-isolated"


def embed_url(base: str, state: ShareState, panes=EMBED_PANES, readonly=False) -> str:
    query = urlencode({"embed": 1, "panes": ",".join(panes), "autorun": 1, "readonly": int(readonly)},
                      safe=",")
    return f"{base}?{query}{state_hash(state)}"


def iframe_snippet(base: str, state: ShareState, panes=EMBED_PANES, readonly=False) -> str:
    src = embed_url(base, state, panes, readonly)
    return (f'<iframe src="{quote(src, safe=":/?#=&,._-~%")}" width="700" height="600" '
            'style="border:1px solid #ccc;border-radius:6px" title="gradpad" loading="lazy" '
            f'sandbox="{EMBED_SANDBOX}" allow="{EMBED_ALLOW}"></iframe>')
