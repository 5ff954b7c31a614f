"""The array API standard's inspection and interchange names (values quoted from JAX 0.10.2)."""
import numpy as np
import pytest

import core as jax
import core.numpy as jnp


def test_namespace_info_as_jax():
    info = jnp.__array_namespace_info__()
    # JAX: {'boolean indexing': False, 'data-dependent shapes': False, 'max dimensions': 64}
    assert info.capabilities() == {"boolean indexing": False, "data-dependent shapes": False, "max dimensions": 64}
    assert info.default_device() is None and info.devices() == [None, jax.devices()[0]]
    assert info.default_dtypes() == {"real floating": np.dtype("float32"), "complex floating": np.dtype("complex64"),
                                     "integral": np.dtype("int32"), "indexing": np.dtype("int32")}
    # JAX: dtypes(kind='integral') -> the six 8/16/32-bit integer dtypes without x64
    assert set(info.dtypes(kind="integral")) == {"int8", "int16", "int32", "uint8", "uint16", "uint32"}
    assert set(info.dtypes()) == {"bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float32", "complex64"}
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")
    assert jnp.__array_api_version__ == "2024.12"


def test_namespace_info_under_x64():
    with jax.enable_x64(True):
        info = jnp.__array_namespace_info__()
        assert info.default_dtypes()["integral"] == np.dtype("int64")
        # JAX: dtypes(kind=('bool', 'real floating')) -> bool, float64, float32
        assert set(info.dtypes(kind=("bool", "real floating"))) == {"bool", "float32", "float64"}


def test_array_methods_and_dlpack():
    x = jnp.arange(3.0)
    assert x.__array_namespace__() is jnp
    with pytest.raises(ValueError, match="available versions are"):
        x.__array_namespace__(api_version="2021.12")
    assert x.to_device(jax.devices()[0]).device == jax.devices()[0]
    assert tuple(x.__dlpack_device__()) == (1, 0)  # JAX: (DLDeviceType.kDLCPU, 0)
    np.testing.assert_array_equal(np.from_dlpack(x), [0.0, 1.0, 2.0])
    y = jnp.from_dlpack(np.arange(4, dtype=np.int32))
    assert isinstance(y, jax.Array) and y.dtype == jnp.int32 and y.tolist() == [0, 1, 2, 3]
