"""Put on PYTHONPATH to run a third-party suite against gradpad: `import jax` is the engine.

    PYTHONPATH=tools/array_api:. ARRAY_API_TESTS_MODULE=jax.numpy ... pytest array_api_tests
"""
import core

core.install_as_jax()
