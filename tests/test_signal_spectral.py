"""gradpad-only behaviour of jax.scipy.signal's spectral functions (the JAX-matching behaviour is
in tests/golden/cases_signal.py): windows JAX would fetch from SciPy, which Pyodide lacks."""
import numpy as np
import pytest

import core as jax
import core.scipy.signal  # noqa: F401

jnp = jax.numpy
sg = jax.scipy.signal


@pytest.mark.parametrize("window", ["tukey", ("tukey", 0.25), "kaiser"])
def test_unsupported_window_names_the_choices(window):
    # JAX 0.10.2 would call scipy.signal.get_window(window, nperseg) here.
    with pytest.raises(NotImplementedError, match=r"not supported by gradpad; use one of \['blackman', 'boxcar', 'hamming', 'hann'\]"):
        sg.welch(jnp.ones(32), window=window, nperseg=8)
    with pytest.raises(NotImplementedError, match="pass the window itself as a 1-d array"):
        sg.istft(jnp.ones((5, 4), jnp.complex64), window=window)


def test_named_window_equals_the_same_window_passed_as_an_array():
    # scipy.signal.get_window('hamming', 8) is the periodic Hamming window 0.54 - 0.46 cos(2 pi n / 8).
    x = jnp.sin(jnp.arange(40.0))
    hamming = 0.54 - 0.46 * np.cos(2 * np.pi * np.arange(8) / 8)
    by_name = sg.stft(x, nperseg=8, window="hamming")[2]
    by_array = sg.stft(x, nperseg=8, window=jnp.asarray(hamming, jnp.float32))[2]
    np.testing.assert_allclose(np.asarray(by_name), np.asarray(by_array), rtol=1e-6, atol=1e-6)
