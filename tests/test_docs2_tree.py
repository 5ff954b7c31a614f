"""jax._src.tree_util.flatten_one_level, as JAX 0.10.2's docstring and its C++ registry give it
(the golden runner cannot reach `jax._src`, so these values were read off the oracle:
`/work/jax-venv/bin/python -c "from jax._src.tree_util import flatten_one_level as f; print(f(...))"`)."""
import collections

import pytest

from core._src.tree_util import flatten_one_level


def test_docstring_example():
    # JAX: flatten_one_level({'a': [1, 2], 'b': {'c': 3}}) -> (([1, 2], {'c': 3}), ('a', 'b'))
    assert flatten_one_level({'a': [1, 2], 'b': {'c': 3}}) == (([1, 2], {'c': 3}), ('a', 'b'))


def test_container_kinds():
    # JAX: a list's children come back as a list, a tuple's as a tuple, None has none
    assert flatten_one_level([1, [2]]) == ([1, [2]], None)
    assert type(flatten_one_level([1, [2]])[0]) is list
    assert flatten_one_level((1, 2)) == ((1, 2), None) and type(flatten_one_level((1, 2))[0]) is tuple
    assert flatten_one_level(None) == ((), None)
    P = collections.namedtuple("P", "x y")
    assert flatten_one_level(P(1, 2)) == ([1, 2], P)
    # JAX: OrderedDict keeps insertion order, defaultdict sorts; keys as tuples
    assert flatten_one_level(collections.OrderedDict(b=1, a=2)) == ([1, 2], ('b', 'a'))
    assert flatten_one_level(collections.defaultdict(int, {'b': 1})) == ([1], (int, ('b',)))


def test_leaf_raises():
    # JAX: ValueError: can't tree-flatten type: <class 'int'>
    with pytest.raises(ValueError, match="can't tree-flatten type"):
        flatten_one_level(1)
