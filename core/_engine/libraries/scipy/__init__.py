"""`jax.scipy`: the few SciPy functions tutorials reach for (special functions)."""
from . import special  # noqa: F401
from . import linalg  # noqa: F401
from . import signal  # noqa: F401
from . import integrate  # noqa: F401
from . import stats  # noqa: F401
from . import optimize  # noqa: F401  (optimize)
from . import fft  # noqa: F401
from . import sparse  # noqa: F401


from ...base._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
