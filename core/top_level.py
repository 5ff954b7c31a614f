"""Small names of JAX's top level (issue 11): hosts and processes of this one-process machine,
caches, live arrays, environment info, arrays assembled from callbacks or per-device pieces,
copy_to_host_async, fwd_and_bwd, and the `jax.memory` / `jax.ad` namespaces."""
from __future__ import annotations

import enum
import gc
import platform
import sys
import types

import numpy as np


# ---- one process, one host -------------------------------------------------------------------

def _renamed(old_shown, new):
    # (JAX 0.10.2's own wording, which names the new function twice for host_count/host_id)
    import warnings
    warnings.warn(f"jax.{old_shown} has been renamed to jax.{new}. This alias will eventually be removed; please "
                  "update your code.", UserWarning, stacklevel=3)


def host_count(backend=None) -> int:
    """Deprecated alias of jax.process_count (one process here)."""
    _renamed("process_count", "process_count")
    return 1


def host_id(backend=None) -> int:
    """Deprecated alias of jax.process_index."""
    _renamed("process_index", "process_index")
    return 0


def host_ids(backend=None) -> list:
    """Deprecated alias of jax.process_indices."""
    _renamed("process_indexs", "process_indices")
    return [0]


def process_indices(backend=None) -> list:
    return [0]


# ---- caches and live arrays ------------------------------------------------------------------

def clear_caches() -> None:
    """Forget every jit trace and compiled function (the next call traces again)."""
    from ._engine.tracing import jit_cache
    from ._engine.backends import cpu
    jit_cache._by_function.clear()
    cpu._cache.clear()


def live_arrays(platform=None) -> list:
    """The arrays alive now (on `platform`, if given), as JAX lists them."""
    from ._engine.tracing.array import Array
    out = [o for o in gc.get_objects() if isinstance(o, Array)]
    if platform is not None:
        out = [a for a in out if _platform_of(a) == platform]
    return out


def _platform_of(a) -> str:
    dev = getattr(a, "_device", None)
    return getattr(dev, "platform", "cpu") if dev is not None else "cpu"


def print_environment_info(return_string: bool = False):
    """Versions and devices, in JAX's layout (the engine is gradpad's, there is no jaxlib)."""
    from . import __version__, device_count
    from ._engine.base import devices
    text = (f"jax:    {__version__}\n"
            "jaxlib: none (gradpad's pure-Python engine)\n"
            f"numpy:  {np.__version__}\n"
            f"python: {sys.version}\n"
            f"device info: {devices()[0].platform}-{device_count()}, {device_count()} local devices\n"
            "process_count: 1\n"
            f"platform: {platform.uname()}\n")
    if return_string:
        return text
    print(text)


# ---- assembling arrays -----------------------------------------------------------------------

def _one_device(sharding):
    devs = getattr(sharding, "device_set", None)
    return devs is None or len(devs) == 1


def make_array_from_callback(shape, sharding, data_callback, dtype=None):
    """An array of `shape` whose pieces `data_callback(index)` returns; with one device, one piece
    (the whole array, index = a tuple of full slices)."""
    from . import numpy as jnp
    shape = tuple(shape)
    index = tuple(slice(None) for _ in shape)
    data = jnp.asarray(data_callback(index), dtype=dtype)
    if data.shape != shape:
        raise ValueError(f"Expected shard shape {shape} doesn't match the single device array shape {data.shape}. "
                         "Shape of Array is " f"{tuple(shape)} with sharding {sharding}")
    return data


def make_array_from_single_device_arrays(shape, sharding, arrays, *, dtype=None):
    """The global array made of per-device pieces: one device here, so one piece, the whole array."""
    from . import numpy as jnp
    arrays = list(arrays)
    if len(arrays) != 1:
        raise ValueError(f"The sharding has 1 addressable device (this machine), but got {len(arrays)} arrays; "
                         "pass one array holding the whole value.")
    out = jnp.asarray(arrays[0], dtype=dtype)
    if out.shape != tuple(shape):
        raise ValueError(f"Expected shard shape {tuple(shape)} doesn't match the single device array shape "
                         f"{out.shape}.")
    return out


def make_array_from_process_local_data(sharding, local_data, global_shape=None):
    """One process holds all the data here: the global array is the local data."""
    from . import numpy as jnp
    out = jnp.asarray(local_data)
    if global_shape is not None and tuple(global_shape) != out.shape:
        raise ValueError(f"global_shape {tuple(global_shape)} differs from the local data's shape {out.shape}, "
                         "and this one process holds all of it.")
    return out


def copy_to_host_async(x):
    """Starts copying each array leaf to host memory (already there on the CPU); returns `x`."""
    from .tree_util import tree_leaves
    for leaf in tree_leaves(x):
        start = getattr(leaf, "copy_to_host_async", None)
        if callable(start):
            start()
    return x


# ---- fwd_and_bwd ------------------------------------------------------------------------------

def fwd_and_bwd(fun, argnums, has_aux=False, jitted=True):
    """(fwd, bwd): fwd(*args) is jax.vjp of `fun` in the `argnums` arguments (its vjp function is a
    pytree, so it crosses jit), bwd(f_vjp, cotangent) the gradient."""
    from ._engine.api.api import _dyn_args, jit, vjp

    def fwd(*args, **kwargs):
        f_partial, dyn = _dyn_args(fun, argnums, args, {})
        return vjp(f_partial, *dyn, has_aux=has_aux)

    def bwd(f_vjp, outgrad):
        g = f_vjp(outgrad)
        return g[0] if isinstance(argnums, int) else g
    return (jit(fwd), jit(bwd)) if jitted else (fwd, bwd)


# ---- namespaces ----------------------------------------------------------------------------------

class MemorySpace(enum.Enum):
    Device = enum.auto()
    Host = enum.auto()
    Any = enum.auto()


memory = types.SimpleNamespace(Space=MemorySpace)
