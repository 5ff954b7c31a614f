"""`jax.scipy`: the few SciPy functions tutorials reach for (special functions)."""
from . import special  # noqa: F401
from . import linalg  # noqa: F401
from . import signal  # noqa: F401
from . import integrate  # noqa: F401
from . import stats  # noqa: F401
from . import optimize  # noqa: F401  (optimize)
from . import fft  # noqa: F401
from . import sparse  # noqa: F401
# issue 24 (mods14): JAX's jax.scipy loads these on first attribute access (spatial only on import)
from . import cluster, interpolate, ndimage  # noqa: F401


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
