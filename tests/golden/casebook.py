"""What every `cases_<area>.py` module uses to declare its cases (imported by name from this folder)."""
import textwrap


def recorder():
    """(CASES, C, E): the module's case list, C(name, area, code, **options) appending a case, and
    E(...) appending one that must raise."""
    cases = []

    def C(name, area, code, **kw):
        cases.append(dict(name=name, area=area, code=textwrap.dedent(code).strip() + "\n", **kw))

    def E(name, area, code, **kw):
        C(name, area, code, raises=True, **kw)

    return cases, C, E


def on_cpu(C):
    """CPU(name, area, code, **options): a case whose code runs under `jax.default_device(cpu)`, for
    cases that pin XLA's CPU bits (WebGPU computes its own way)."""
    def CPU(name, area, code, **kw):
        body = "\n".join("    " + line for line in code.strip().splitlines())
        C(name, area, "with jax.default_device(jax.devices('cpu')[0]):\n" + body, **kw)
    return CPU
