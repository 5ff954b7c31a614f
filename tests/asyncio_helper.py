"""Run a coroutine to completion from a test.

The browser tests' Playwright session (sync API) keeps an event loop running on the main thread
for the rest of the pytest session, and asyncio.run refuses to nest, so run on a fresh thread."""
import asyncio
from concurrent.futures import ThreadPoolExecutor


def run_coroutine(make_coro):
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(make_coro())).result()
