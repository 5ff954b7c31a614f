"""Case definitions for signal_cases.json: jax.scipy.signal's spectral estimators stft, istft,
welch and csd (issue 11, area "signal"), recorded from real JAX 0.10.2."""
from casebook import recorder

CASES, C, E = recorder()

# A deterministic test signal: a tone riding on a ramp (the ramp is what detrend removes).
SIG = "sg = jax.scipy.signal\nx = jnp.sin(jnp.arange(50.0) * 0.7) + 0.1 * jnp.arange(50.0)\n"
# Two channels, time along axis 0.
SIG2 = SIG + "x2 = jnp.stack([x, jnp.cos(jnp.arange(50.0) * 0.3)], axis=1)\n"

# ---------------------------------------------------------------- stft
C("signal_stft_small", "signal", SIG + "out = sg.stft(x, nperseg=16)")
C("signal_stft_default_nperseg_warns", "signal", SIG + "out = sg.stft(x)", expect_warning=True)
C("signal_stft_odd_lengths", "signal", SIG + "out = sg.stft(x[:37], nperseg=11, noverlap=4, nfft=15)")
C("signal_stft_options", "signal", SIG + "out = (sg.stft(x, fs=8.0, nperseg=10, detrend='constant', boundary=None, padded=False), "
  "sg.stft(x, nperseg=8, detrend='linear', return_onesided=False, boundary='even'), "
  "sg.stft(x, nperseg=9, boundary='odd', window='hamming'), sg.stft(x, nperseg=6, boundary='constant', window=jnp.ones(6)))")
C("signal_stft_2d_axis0", "signal", SIG2 + "out = sg.stft(x2, nperseg=12, axis=0)")
# atol: the exact zeros of a ramp's upper bins come out as float32 round-off of either sign.
C("signal_stft_int_input", "signal", "out = jax.scipy.signal.stft(jnp.arange(20), nperseg=8)", atol=1e-5)
C("signal_stft_complex_input_warns", "signal", SIG + "out = sg.stft(x * (1 + 1j), nperseg=8)", expect_warning=True)
E("signal_stft_noverlap_too_big", "signal", SIG + "out = sg.stft(x, nperseg=8, noverlap=8)")
E("signal_stft_nfft_too_small", "signal", SIG + "out = sg.stft(x, nperseg=8, nfft=4)")
E("signal_stft_bad_boundary", "signal", SIG + "out = sg.stft(x, nperseg=8, boundary='wrap')")
E("signal_stft_window_length", "signal", SIG + "out = sg.stft(x, nperseg=8, window=jnp.ones(6))")

# ---------------------------------------------------------------- welch / csd
C("signal_welch_defaults", "signal", SIG + "out = (sg.welch(x), sg.welch(x, nperseg=16))")
C("signal_welch_options", "signal", SIG + "out = (sg.welch(x, fs=100.0, nperseg=15, detrend=False, scaling='spectrum'), "
  "sg.welch(x, nperseg=16, detrend='linear', average='median'), sg.welch(x, nperseg=13, nfft=20, return_onesided=False), "
  "sg.welch(x, nperseg=16, window='blackman', noverlap=3))")
C("signal_welch_2d_axis", "signal", SIG2 + "out = (sg.welch(x2, nperseg=12, axis=0), sg.welch(x2.T, nperseg=12, average='median'))")
C("signal_csd", "signal", SIG2 + "out = (sg.csd(x, x[::-1], nperseg=16), sg.csd(x, None, nperseg=16), "
  "sg.csd(x2, x2[:40] * 2, nperseg=10, axis=0, scaling='spectrum', detrend=False), "
  "sg.csd(x, jnp.cos(x), nperseg=12, average='median'))")
E("signal_welch_bad_scaling", "signal", SIG + "out = sg.welch(x, nperseg=16, scaling='power')")
E("signal_welch_bad_average", "signal", SIG + "out = sg.welch(x, nperseg=16, average='max')")
E("signal_welch_bad_detrend", "signal", SIG + "out = sg.welch(x, nperseg=16, detrend='quadratic')")
# JAX's message forgets its f-string ("({x.ndim} vs {y.ndim})"); gradpad names the ranks.
E("signal_csd_rank_mismatch", "signal", SIG2 + "out = sg.csd(x2, x, nperseg=16)", msg_prefix=38)

# ---------------------------------------------------------------- istft
C("signal_istft_round_trip", "signal", SIG + "f, t, Z = sg.stft(x, nperseg=16)\nout = (Z, sg.istft(Z))")
C("signal_istft_options", "signal", SIG + "f, t, Z = sg.stft(x, nperseg=10, noverlap=7, return_onesided=False)\n"
  "f2, t2, Z2 = sg.stft(x[:41], nperseg=9, boundary=None, padded=False, window='hamming')\n"
  "out = (sg.istft(Z, fs=4.0, noverlap=7, input_onesided=False), sg.istft(Z2, nperseg=9, nfft=9, window='hamming', boundary=False))")
C("signal_istft_2d_axes", "signal", SIG2 + "f, t, Z = sg.stft(x2, nperseg=12, axis=0)\n"
  "out = (Z.shape, sg.istft(Z, time_axis=-1, freq_axis=0))")
E("signal_istft_1d", "signal", "out = jax.scipy.signal.istft(jnp.ones(8))")
E("signal_istft_same_axes", "signal", "out = jax.scipy.signal.istft(jnp.ones((5, 4)), time_axis=0, freq_axis=0)")

# ---------------------------------------------------------------- transformations
C("signal_grad_welch_stft", "signal", SIG + "out = (jax.grad(lambda x: sg.welch(x, nperseg=16)[1].sum())(x), "
  "jax.grad(lambda x: (jnp.abs(sg.stft(x, nperseg=16)[2]) ** 2).sum())(x), "
  "jax.grad(lambda x: sg.istft(sg.stft(x, nperseg=8)[2])[1][3])(x))", rtol=1e-4, atol=1e-5)
C("signal_jit_vmap_welch", "signal", SIG2 + "out = (jax.jit(lambda x: sg.welch(x, nperseg=16))(x), "
  "jax.vmap(lambda c: sg.welch(c, nperseg=16)[1], in_axes=1)(x2))")

# ---------------------------------------------------------------- edges
C("signal_edge_shapes", "signal", "sg = jax.scipy.signal\nx = jnp.sin(jnp.arange(20.0))\n"
  "out = (sg.stft(x, nperseg=1), sg.welch(jnp.zeros((0,))), sg.welch(jnp.zeros((3, 0))), sg.csd(x, x[:13], nperseg=8), "
  "sg.stft(x[:3], nperseg=8, boundary='odd'), sg.welch(x, nperseg=20))")
C("signal_welch_too_long_warns", "signal", "out = jax.scipy.signal.welch(jnp.sin(jnp.arange(20.0)), nperseg=40)", expect_warning=True)
C("signal_complex_round_trip", "signal", "sg = jax.scipy.signal\nx = jnp.sin(jnp.arange(20.0)) * (1 + 1j)\n"
  "out = sg.istft(sg.stft(x, nperseg=8, return_onesided=False)[2], input_onesided=False)")
C("signal_callables_and_transforms", "signal", "sg = jax.scipy.signal\nx = jnp.sin(jnp.arange(20.0))\n"
  "out = (sg.welch(jnp.stack([x, x * x]).T, nperseg=8, axis=0, detrend=lambda d: d - d[..., :1]), "
  "sg.welch(x, window=jnp.ones(8) * (1 + 1j), nperseg=8), "
  "jax.grad(lambda fs: sg.welch(x, fs=fs, nperseg=8)[1].sum())(2.0), "
  "jax.vmap(lambda r: sg.stft(r, nperseg=8)[2])(jnp.stack([x, 2 * x])))")
E("signal_welch_axis_out_of_bounds", "signal", "out = jax.scipy.signal.welch(jnp.ones(20), axis=3)")
