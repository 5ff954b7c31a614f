"""Layer 2 of 8, tracing: arrays, tracers, jaxprs, bind and the rule tables the layers above fill in.

It imports its own layer and the ones below it (base); tools/import_contract.py checks."""
