"""`import jax.X.Y` for any engine module `core.X.Y`, once `install_as_jax()` has run.

A meta-path finder hands back the engine's own module objects (never a second copy), so
`jax.extend.core.Primitive is core.extend.core.Primitive`, and a name that is an attribute
module (`jax.nn.initializers`) imports too.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types


# JAX modules for the XLA compiler, which gradpad does not have (it runs jaxprs with numpy): importing
# one names why instead of a bare "No module named" (autodidax's and jax-primitives' MLIR lowerings)
NO_XLA = ("gradpad has no XLA/MLIR compiler (it evaluates jaxprs with numpy), so lowering rules, HLO "
          "and XLA clients do not exist here; the jaxpr (jax.make_jaxpr) is the program it runs")
NO_KERNELS = ("gradpad cannot have it: it writes GPU/TPU kernels (Pallas, Mosaic, Triton) or runs on TPU hardware; gradpad's "
              "accelerator is WebGPU through jit, and its kernels are generated from the jaxpr")
NO_RUNTIME = ("gradpad cannot have it: it drives XLA's runtime (compiled executables, caches, transfers, multi-process "
              "or multi-host clusters, profiling servers); gradpad runs one Python process on numpy")
NO_TF = "gradpad cannot have it: it converts to TensorFlow, which has no build for the browser and is not a gradpad dependency"
OUT_OF_SCOPE = {"jax.extend.mlir": NO_XLA, "jax.interpreters.mlir": NO_XLA, "jax._src.interpreters.mlir": NO_XLA,
                "jax._src.lib": NO_XLA, "jax._src.xla_bridge": NO_XLA, "jax.lib": NO_XLA,
                "jax.extend.lowering": NO_XLA, "jax.extend.backend": NO_XLA, "jax.extend.xla": NO_XLA,
                "jax.extend.ifrt_programs": NO_XLA, "jax.extend.sharding": NO_XLA, "jax.interpreters.pxla": NO_XLA, "jax.ffi": NO_XLA,
                "jax.tools": NO_XLA, "jax.experimental.custom_partitioning": NO_XLA,
                "jax.experimental.xla_metadata": NO_XLA, "jax.experimental.buffer_callback": NO_XLA,
                "jax.experimental.compute_on": NO_XLA, "jax.experimental.scheduling_groups": NO_XLA,
                "jax.experimental.roofline": NO_XLA, "jax.experimental.fused": NO_XLA,
                "jax.experimental.pallas": NO_KERNELS, "jax.experimental.mosaic": NO_KERNELS,
                "jax.extend.pallas": NO_KERNELS, "jax.experimental.topologies": NO_KERNELS,
                "jax.cloud_tpu_init": NO_KERNELS,
                "jax.experimental.compilation_cache": NO_RUNTIME, "jax.experimental.serialize_executable": NO_RUNTIME,
                "jax.experimental.transfer": NO_RUNTIME, "jax.experimental.colocated_python": NO_RUNTIME,
                "jax.experimental.array_serialization": NO_RUNTIME, "jax.distributed": NO_RUNTIME,
                "jax.collect_profile": NO_RUNTIME, "jax.experimental.profiler": NO_RUNTIME,
                "jax.experimental.jax2tf": NO_TF}


# modules not implemented yet whose reason is worth saying
NOT_YET = {"jax.experimental.random": "its StatefulPRNG keeps its counter in a mutable jax.Ref (jax.new_ref), which "
                                      "gradpad does not implement; jax.random with explicit keys works"}


# JAX submodules that live in a differently named engine module (their parent module carries an
# empty `__path__`, so the import system treats it as a package and asks this finder for the child)
SUBMODULE_FILES = {"lax.linalg": "lax_linalg", "extend.core.primitives": "extend.core_primitives",
                   "_src.ad_util": "_src.ad_util", "_src.flatten_util": "flatten_util"}


def _out_of_scope(fullname: str) -> str | None:
    for prefix, why in OUT_OF_SCOPE.items():
        if fullname == prefix or fullname.startswith(prefix + "."):
            return why
    from ._engine.base.jax_module_list import JAX_MODULES, JAX_VERSION
    if fullname in JAX_MODULES:
        reason = f": {NOT_YET[fullname]}" if fullname in NOT_YET else ""
        return (f"JAX {JAX_VERSION} has this module, but gradpad does not implement it yet{reason} "
                "(docs/compatibility.md lists what gradpad covers)")
    return None


class JaxNameFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, engine: str):
        self.engine = engine

    def _resolve(self, fullname: str):
        rest = fullname[len("jax."):]
        rest = SUBMODULE_FILES.get(rest, rest)
        try:
            return importlib.import_module(f"{self.engine}.{rest}")
        except ModuleNotFoundError as e:
            if e.name is None or not f"{self.engine}.{rest}".startswith(e.name):
                raise
        parent, _, leaf = rest.rpartition(".")
        owner = importlib.import_module(f"{self.engine}.{parent}" if parent else self.engine)
        mod = getattr(owner, leaf, None)
        return mod if isinstance(mod, types.ModuleType) else None

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("jax.") or fullname in sys.modules:
            return None
        try:
            mod = self._resolve(fullname)
        except ModuleNotFoundError:
            if not _out_of_scope(fullname):
                raise
            mod = None
        if mod is None:
            why = _out_of_scope(fullname)
            if why:
                raise ModuleNotFoundError(f"No module named '{fullname}': {why}.", name=fullname)
            return None
        return importlib.util.spec_from_loader(fullname, self, origin=getattr(mod, "__file__", None),
                                               is_package=hasattr(mod, "__path__"))

    def create_module(self, spec):
        mod = self._resolve(spec.name)
        spec.loader_state = getattr(mod, "__spec__", None)  # the import system overwrites __spec__
        return mod

    def exec_module(self, module):
        module.__spec__ = module.__spec__.loader_state or module.__spec__


def install(engine: str) -> None:
    if not any(isinstance(f, JaxNameFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, JaxNameFinder(engine))
