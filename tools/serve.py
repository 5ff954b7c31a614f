"""A static file server for dist/ on 127.0.0.1 with the MIME types Pyodide needs.

    python -m tools.serve [--port N] [--dir dist]
"""
from __future__ import annotations

import argparse
import email.utils
import functools
import http.server
import os
import socket
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MIME = {
    ".wasm": "application/wasm", ".mjs": "text/javascript", ".js": "text/javascript",
    ".json": "application/json", ".whl": "application/octet-stream", ".zip": "application/zip",
    ".css": "text/css", ".svg": "image/svg+xml", ".png": "image/png", ".html": "text/html",
    ".woff2": "font/woff2", ".woff": "font/woff", ".ttf": "font/ttf", ".map": "application/json",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the page makes ~50 requests
    # TCP_NODELAY: http.server writes a response's headers and its body separately, and with
    # Nagle's algorithm on, the body waited for the browser's delayed ACK of the headers: ~40 ms
    # per request on Linux, each of 6 connections in turn (a first visit's ~45 files before the
    # preview: ~350 ms of queueing, issue 26)
    disable_nagle_algorithm = True
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}
    quiet = True

    def send_head(self):
        """A file with a precompressed `.gz` twin (tools/site.py: the runtime's wasm and the JS) goes
        out gzip-encoded to a browser that accepts it, as any static host compresses them."""
        path = self.translate_path(self.path)
        gz = path + ".gz"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepts or "Range" in self.headers or not os.path.isfile(path) or not os.path.isfile(gz):
            return super().send_head()
        mtime = int(os.stat(path).st_mtime)
        ims = self.headers.get("If-Modified-Since")
        if ims and "If-None-Match" not in self.headers:
            try:
                if mtime <= email.utils.parsedate_to_datetime(ims).timestamp():
                    self.send_response(304)
                    self.end_headers()
                    return None
            except (TypeError, ValueError, IndexError, OverflowError):
                pass
        f = open(gz, "rb")
        self.send_response(200)
        self.send_header("Content-type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.end_headers()
        return f

    def end_headers(self):
        # revalidate everything (cheap 304s); the service worker makes reloads network-free
        self.send_header("Cache-Control", "no-cache")
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, fmt, *args):
        if not self.quiet:
            super().log_message(fmt, *args)


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(directory: Path, port: int = 0, quiet: bool = True) -> tuple[Server, str]:
    """Serve `directory` in a background thread; returns (server, base URL)."""
    handler = functools.partial(type("H", (Handler,), {"quiet": quiet}), directory=str(directory))
    srv = Server(("127.0.0.1", port or free_port()), handler)
    threading.Thread(target=srv.serve_forever, daemon=True, name="gradpad-serve").start()
    return srv, f"http://127.0.0.1:{srv.server_address[1]}/"


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--dir", default=str(ROOT / "dist"))
    a = p.parse_args(argv)
    srv, url = start(Path(a.dir), a.port, quiet=False)
    print(f"gradpad is served at {url}  (Ctrl+C to stop)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    srv.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
