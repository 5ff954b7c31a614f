"""Layer 1 of 8, base: values without programs: dtypes, abstract values, config, errors, pytrees, devices.

It imports its own layer and the ones below it (nothing); tools/import_contract.py checks."""
