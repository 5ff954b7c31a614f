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
