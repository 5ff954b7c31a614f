"""Fast paths for what an MCMC kernel's jitted step runs per leapfrog (issue 24: blackjax's NUTS),
each checked against the general code path it short-cuts (golden cases from real JAX:
tests/golden/cases_mcmcops.py)."""
import numpy as np
import pytest

from core._engine.primitives import random_bits as rb


def _general(monkeypatch, f, *args, **kw):
    with monkeypatch.context() as m:
        m.setattr(rb, "_LANES_MAX", -1)   # no lane-by-lane path: the numpy / packed-lane hash
        return f(*args, **kw)


@pytest.mark.parametrize("key_shape", [(), (1,), (1, 1)])
def test_one_key_lanes_match_the_vectorized_hash(monkeypatch, key_shape):
    rng = np.random.default_rng(sum(key_shape) + 3)
    for _ in range(40):
        words = rng.integers(0, 2**32, size=2, dtype=np.uint64).astype(np.uint32)
        key = rb.wrap_words(words).reshape(key_shape)
        msg = np.uint32(rng.integers(0, 2**32))
        got = rb._fold_in_impl(key, msg)
        want = rb.wrap_words(np.stack(rb.threefry2x32_np(words[0], words[1], np.uint32(0), msg), -1))
        assert got.dtype == rb.KEY_DTYPE and got.shape == key_shape and got.tobytes() == want.tobytes()
        for shape in [(), (1,), (3,), (2, 2), (8,), (9,)]:
            for width in (8, 16, 32, 64):
                got = rb._bits_impl(key, bit_width=width, shape=shape)
                want = _general(monkeypatch, rb._bits_impl, key, bit_width=width, shape=shape)
                assert got.dtype == want.dtype and got.shape == want.shape and np.array_equal(got, want)
            got = rb._split_impl(key, shape=shape)
            want = _general(monkeypatch, rb._split_impl, key, shape=shape)
            assert got.dtype == want.dtype and got.shape == want.shape and got.tobytes() == want.tobytes()
