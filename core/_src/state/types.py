"""`jax._src.state.types.AbstractRef`: the abstract value of a mutable ref. gradpad has no
mutable refs, so nothing is ever an instance of it."""


class AbstractRef:
    pass
