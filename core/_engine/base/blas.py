"""Whether this numpy calls a BLAS library for its float products (CPython wheels ship OpenBLAS;
Pyodide's numpy has none). The CPU kernels that route sums and small products through np.dot
do so only where a BLAS makes np.dot the fast path; numpy's own fallback loops are not."""
from __future__ import annotations


def _numpy_has_blas() -> bool:
    try:   # numpy's build record (np.show_config reads the same dict, at ~1 s: it may load yaml)
        from numpy.__config__ import CONFIG
        return bool(CONFIG["Build Dependencies"]["blas"]["found"])
    except Exception:   # an older numpy, or a build that reports no such entry: assume none
        return False


HAS_BLAS = _numpy_has_blas()
