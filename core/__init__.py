"""gradpad's engine: a pure-Python re-implementation of JAX's core on numpy.

Inside the playground user code imports it as `jax` (`install_as_jax()`), so tutorial code runs
unchanged: `import jax, jax.numpy as jnp; jax.grad(f)(x)`.
"""
from __future__ import annotations

from .config import config
from . import dtypes, errors, tree_util
from ._engine.backends import cpu as _cpu  # noqa: F401  (registers the jaxpr compiler: core/_engine/tracing/rules.py)
from ._engine.tracing.basearray import Array  # tracers are instances too, as in JAX
from . import lax
from . import numpy
from ._engine.api.api import (ShapeDtypeStruct, block_until_ready, checkpoint, custom_jvp, custom_vjp, device_get, device_put,
                  device_get_async, effects_barrier,
                  disable_jit, ensure_compile_time_eval, eval_shape, grad, hessian, jacfwd, jacrev, jit, jvp,
                  linearize, make_jaxpr, named_call, named_scope, remat, value_and_grad, vjp, vmap)
from ._engine.libraries.callbacks import pure_callback
from ._engine.api import custom_solvers as _custom_solvers  # noqa: F401  (adds lax.custom_linear_solve, lax.custom_root)
from ._engine.base.devices import default_backend, default_device, device_count, devices, local_device_count, local_devices
from . import nn
from . import tree
from .tree_util import tree_structure as _tree_structure
from .errors import ConcretizationTypeError  # noqa: F401  (handy at top level in tutorials)
from ._engine.base.devices import Device
from .sharding import NamedSharding, set_mesh
from ._engine.base.sharding import P, make_mesh  # (jax.P and jax.make_mesh; jax.sharding has neither)
from .version import __version_info__
from .dtypes import float0
from .config import STATE_FLAGS as _STATE_FLAGS, State as _State
from ._engine.api.refs import Ref, empty_ref, freeze, new_ref
from .custom_derivatives import closure_convert, custom_gradient

# ---- transforms area (issue 11) ----
from .ad_checkpoint import checkpoint_policies
from ._engine.api.linear_transpose import linear_transpose
from .top_level import (clear_caches, copy_to_host_async, fwd_and_bwd, host_count, host_id, host_ids,
                        live_arrays, make_array_from_callback, make_array_from_process_local_data,
                        make_array_from_single_device_arrays, memory, print_environment_info, process_indices)

__version__ = "0.10.2+gradpad"
jacobian = jacrev
globals().update({_name: _State(_flag) for _name, _flag in _STATE_FLAGS.items()})  # jax.enable_x64(...), ...
_SUBMODULES = ("numpy", "lax", "random", "tree_util", "nn", "errors", "config", "tree", "dtypes", "debug",
               "scipy", "experimental", "sharding", "profiler", "typing", "image", "stages", "core",
               "interpreters", "ops", "test_util", "ad_checkpoint", "export")


def __getattr__(name):
    import importlib
    if name in ("random", "debug", "scipy", "experimental", "sharding", "profiler", "image", "stages",
                "interpreters", "example_libraries", "flatten_util", "typing", "version",
                "custom_derivatives", "custom_batching", "extend", "core", "test_util", "api_util", "ops",
                "ad_checkpoint", "export"):
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"{__name__}.{name}":
                raise
    if name in ("pmap", "default_device", "process_index", "process_count", "local_device_count_pmap"):
        if name == "pmap":
            from ._engine.api import pmap_api
            return pmap_api.pmap
    if name in ("tree_map", "tree_multimap", "tree_leaves", "tree_flatten", "tree_unflatten", "tree_structure"):
        from ._engine.base import compat
        return getattr(compat, name)
    from ._engine.base._public import no_attribute
    raise no_attribute("jax", name)


def process_index():
    return 0


def process_count():
    return 1


def install_as_jax():
    """Make `import jax` (and jax.numpy, jax.lax, ...) resolve to this engine."""
    import importlib
    import sys
    me = sys.modules[__name__]
    sys.modules["jax"] = me
    for sub in _SUBMODULES:
        try:
            mod = importlib.import_module(f"{__name__}.{sub}")
        except ModuleNotFoundError:
            continue
        sys.modules[f"jax.{sub}"] = mod
    sys.modules["jax.numpy.linalg"] = numpy.linalg
    sys.modules["jax.numpy.fft"] = numpy.fft
    from . import jax_names
    jax_names.install(__name__)  # every other `jax.X.Y` resolves to `core.X.Y`


from ._engine.base.devices import load_configured_backends as _load_configured_backends  # noqa: E402

_load_configured_backends()  # JAX_PLATFORMS=webgpu in the environment

# ---- special2 area (issue 11): shard_map/smap over a one-device mesh --------------------------
from ._engine.api.shard_map_api import Shard, shard_map, smap  # noqa: E402,F401
from .sharding import reshard  # noqa: E402,F401
from .config import transfer_guard  # noqa: E402,F401

# ---- docs2 area: jax.ds (a slice whose start may be traced) ----------------------------------
from ._engine.libraries.dslice import dslice as ds  # noqa: E402,F401

# ---- conf2 area: jax.ref (array references are not available; each name says why) -------------
from . import ref  # noqa: E402,F401

# ---- conf2 area: jax.typeof of an array placed with a NamedSharding names its Explicit mesh axes ---
from ._engine.tracing.sharded_aval import typeof  # noqa: E402,F401
