"""Every name docs/compatibility.md lists as unavailable exists and raises NotImplementedError
naming itself (or, for the jax.nn entries, the missing cuDNN), so pasted code fails with a reason.
(Real JAX 0.10.2 on a CPU raises NotImplementedError for jax.nn.scaled_matmul too.)"""
from __future__ import annotations

import pytest

import core as jax
import core.export
import core.profiler

EXPORT = ["export", "deserialize", "symbolic_shape", "symbolic_args_specs", "register_pytree_node_serialization",
          "register_namedtuple_serialization", "Exported", "SymbolicScope", "DisabledSafetyCheck"]
PROFILER = ["start_trace", "stop_trace", "start_server", "stop_server", "device_memory_profile",
            "save_device_memory_profile", "register_subprocess", "ProfileData", "ProfileEvent", "ProfilePlane",
            "ProfileOptions"]


@pytest.mark.parametrize("module,name", [(core.export, n) for n in EXPORT] + [(core.profiler, n) for n in PROFILER])
def test_listed_name_raises_not_implemented(module, name):
    with pytest.raises(NotImplementedError, match=name):
        getattr(module, name)("x")


def test_profiler_trace_raises_on_entry():
    with pytest.raises(NotImplementedError, match="jax.profiler.trace"):
        with jax.profiler.trace("/tmp/trace"):
            pass


def test_documented_in_compatibility_md():
    import os
    text = open(os.path.join(os.path.dirname(__file__), "..", "docs", "compatibility.md")).read()
    for name in EXPORT + PROFILER + ["scaled_matmul", "get_scaled_dot_general_config"]:
        assert f"`{name}`" in text or f"`jax.export.{name}`" in text or f"`jax.profiler.{name}`" in text \
            or f"`jax.nn.{name}`" in text, name


def test_cudnn_names_raise():
    import core.numpy as jnp
    with pytest.raises(NotImplementedError, match="cuDNN"):
        jax.nn.scaled_matmul(jnp.ones((1, 4, 32)), jnp.ones((1, 2, 32)), jnp.ones((1, 4, 1)), jnp.ones((1, 2, 1)))
    with pytest.raises(NotImplementedError, match="float4/float8"):
        jax.nn.get_scaled_dot_general_config("mxfp8")
    q = jnp.ones((1, 2, 1, 2))
    with pytest.raises(NotImplementedError, match="cuDNN"):
        jax.nn.dot_product_attention(q, q, q, implementation="cudnn")
