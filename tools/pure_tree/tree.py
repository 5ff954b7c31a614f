"""A pure-Python `tree` module: the part of dm-tree's public API that TensorFlow Probability's JAX
substrate uses (its `nest`, which distrax goes through), for the page, where dm-tree's C extension
has no WebAssembly build. Written for gradpad from dm-tree's documented behaviour, not its code.

tools/site.py ships it as the page's dm-tree wheel (issue 24); tests/test_pure_tree.py checks it
against the real dm-tree in CPython and runs distrax's README workloads with it in dm-tree's place.

dm-tree's rules, which differ from JAX's pytrees: None is a leaf; strings and bytes are leaves;
lists, tuples, namedtuples, any other collections.abc.Sequence, Mappings (children in sorted-key
order), mapping views and attrs classes are nodes; a key path holds dict keys, sequence indices and
namedtuple / attrs field names.
"""
from __future__ import annotations

import collections
import collections.abc as _abc

__all__ = ["is_nested", "flatten", "unflatten_as", "assert_same_structure", "map_structure",
           "map_structure_with_path", "flatten_with_path", "flatten_up_to", "flatten_with_path_up_to",
           "map_structure_up_to", "map_structure_with_path_up_to", "traverse", "MAP_TO_NONE"]


class _MapToNone:
    """What a traverse function returns to put None in the result (None itself means "go on")."""

    def __repr__(self):
        return "tree.MAP_TO_NONE"


MAP_TO_NONE = _MapToNone()


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_attrs(x) -> bool:
    return hasattr(type(x), "__attrs_attrs__")


def is_nested(structure) -> bool:
    """True for the nodes (sequences but strings, mappings, mapping views, attrs objects)."""
    if isinstance(structure, (str, bytes)):
        return False
    return isinstance(structure, (_abc.Sequence, _abc.Mapping, _abc.MappingView)) or _is_attrs(structure)


def _sorted_keys(mapping) -> list:
    try:
        return sorted(mapping)
    except TypeError:
        raise TypeError("tree only supports dicts with sortable keys.") from None


def _items(node) -> list:
    """[(key, child)] of a node, in flattening order."""
    if isinstance(node, _abc.Mapping):
        return [(k, node[k]) for k in _sorted_keys(node)]
    if _is_attrs(node):
        return [(a.name, getattr(node, a.name)) for a in type(node).__attrs_attrs__]
    if _is_namedtuple(node):
        return list(zip(type(node)._fields, node))
    return list(enumerate(node))


def _rebuild(node, children: list):
    """A node like `node` holding `children` (in flattening order)."""
    if isinstance(node, _abc.Mapping):
        by_key = dict(zip(_sorted_keys(node), children))
        pairs = [(k, by_key[k]) for k in node]  # the node's own key order
        if isinstance(node, collections.defaultdict):
            return type(node)(node.default_factory, pairs)
        return type(node)(pairs)
    if isinstance(node, _abc.MappingView):
        return list(children)
    if _is_namedtuple(node) or _is_attrs(node):
        return type(node)(*children)
    wrapped = getattr(node, "__wrapped__", None)  # a wrapt.ObjectProxy around a node
    if wrapped is not None and type(node).__name__ != type(wrapped).__name__ and is_nested(wrapped):
        return type(node)(_rebuild(wrapped, children))
    return type(node)(children)


def flatten(structure) -> list:
    if not is_nested(structure):
        return [structure]
    out = []
    for _, child in _items(structure):
        out.extend(flatten(child))
    return out


def flatten_with_path(structure) -> list:
    """[(path, leaf)], path a tuple of keys."""
    if not is_nested(structure):
        return [((), structure)]
    return [((key,) + path, leaf) for key, child in _items(structure) for path, leaf in flatten_with_path(child)]


def unflatten_as(structure, flat_sequence):
    flat = list(flat_sequence)
    if not is_nested(structure):
        if len(flat) != 1:
            raise ValueError(f"Structure is a scalar but len(flat_sequence) == {len(flat)} > 1")
        return flat[0]
    leaves = len(flatten(structure))
    if leaves != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {leaves} elements, but flat_sequence had "
                         f"{len(flat)} elements.  Structure: {structure!r}, flat_sequence: {flat!r}.")
    it = iter(flat)

    def build(node):
        if not is_nested(node):
            return next(it)
        return _rebuild(node, [build(child) for _, child in _items(node)])
    return build(structure)


def _same_type(a, b) -> bool:
    if type(a) is type(b):
        return True
    if _is_namedtuple(a) and _is_namedtuple(b):  # two namedtuple classes with one name and fields
        return type(a).__name__ == type(b).__name__ and type(a)._fields == type(b)._fields
    return False


def assert_same_structure(a, b, check_types=True) -> None:
    """ValueError when the nesting or the sizes differ; TypeError when node types differ (check_types)."""
    def walk(x, y):
        if is_nested(x) != is_nested(y):
            raise ValueError("The two structures don't have the same nested structure.\n\n"
                             f"First structure: {a!r}\n\nSecond structure: {b!r}")
        if not is_nested(x):
            return
        if check_types and not _same_type(x, y):
            raise TypeError("The two structures don't have the same sequence type. First structure has type "
                            f"{type(x)}, while second structure has type {type(y)}.")
        if len(x) != len(y):
            raise ValueError("The two structures don't have the same number of elements.\n\n"
                             f"First structure: {a!r}\n\nSecond structure: {b!r}")
        if isinstance(x, _abc.Mapping) and isinstance(y, _abc.Mapping) and set(x) != set(y):
            raise ValueError(f"The two dictionaries don't have the same set of keys. First structure has keys "
                             f"{sorted(x)}, while second structure has keys {sorted(y)}.")
        for (_, cx), (_, cy) in zip(_items(x), _items(y)):
            walk(cx, cy)
    walk(a, b)


def map_structure(func, *structures, **kwargs):
    check_types = kwargs.pop("check_types", True)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types`, not: {sorted(kwargs)}")
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    return unflatten_as(structures[0], [func(*args) for args in zip(*map(flatten, structures))])


def map_structure_with_path(func, *structures, **kwargs):
    check_types = kwargs.pop("check_types", True)
    for other in structures[1:]:
        assert_same_structure(structures[0], other, check_types=check_types)
    paths = [p for p, _ in flatten_with_path(structures[0])]
    return unflatten_as(structures[0], [func(p, *args) for p, *args in zip(paths, *map(flatten, structures))])


def _assert_shallow(shallow, deep, check_types, path=()) -> None:
    """`shallow`'s nodes are nodes of `deep` too (its leaves may be subtrees there)."""
    if not is_nested(shallow):
        return
    if not is_nested(deep):
        raise TypeError(f"If shallow structure is a sequence, input must also be a sequence. Input has type: "
                        f"{type(deep)} (at path {list(path)}).")
    both_maps = isinstance(shallow, _abc.Mapping) and isinstance(deep, _abc.Mapping)
    if check_types and not isinstance(deep, type(shallow)) and not _same_type(shallow, deep) and not both_maps:
        raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                        f"{type(deep)}, while shallow structure has type {type(shallow)}.")
    if len(deep) != len(shallow):
        raise ValueError(f"The two structures don't have the same sequence length. Input structure has length "
                         f"{len(deep)}, while shallow structure has length {len(shallow)}.")
    deep_items = dict(_items(deep))
    for key, child in _items(shallow):
        if key not in deep_items:
            raise ValueError(f"The shallow_tree's keys are not a subset of the input_tree's keys. The shallow_tree "
                             f"has the following keys that are not in the input_tree: {[key]}.")
        _assert_shallow(child, deep_items[key], check_types, path + (key,))


def _with_path_up_to(shallow, deep, path=()) -> list:
    if not is_nested(shallow):
        return [(path, deep)]
    deep_items = dict(_items(deep))
    return [pair for key, child in _items(shallow) for pair in _with_path_up_to(child, deep_items[key], path + (key,))]


def flatten_with_path_up_to(shallow_structure, input_structure, check_types=True) -> list:
    _assert_shallow(shallow_structure, input_structure, check_types)
    return _with_path_up_to(shallow_structure, input_structure)


def flatten_up_to(shallow_structure, input_structure, check_types=True) -> list:
    return [v for _, v in flatten_with_path_up_to(shallow_structure, input_structure, check_types)]


def map_structure_with_path_up_to(shallow_structure, func, *structures, **kwargs):
    check_types = kwargs.pop("check_types", True)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types`, not: {sorted(kwargs)}")
    if not structures:
        raise ValueError("Cannot map over no sequences")
    columns = [flatten_with_path_up_to(shallow_structure, s, check_types) for s in structures]
    results = [func(column[0][0], *(v for _, v in column)) for column in zip(*columns)]
    return unflatten_as(shallow_structure, results)


def map_structure_up_to(shallow_structure, func, *structures, **kwargs):
    return map_structure_with_path_up_to(shallow_structure, lambda _, *values: func(*values), *structures, **kwargs)


def traverse(fn, structure, top_down=True):
    """Calls fn on every subtree. Top down: a non-None result replaces the subtree (MAP_TO_NONE gives
    None) and is not entered; None means "enter it". Bottom up: fn sees the rebuilt subtree and a
    None result keeps it."""
    def visit(node):
        if top_down:
            out = fn(node)
            if out is None:
                return _rebuild(node, [visit(c) for _, c in _items(node)]) if is_nested(node) else node
            return None if out is MAP_TO_NONE else out
        rebuilt = _rebuild(node, [visit(c) for _, c in _items(node)]) if is_nested(node) else node
        out = fn(rebuilt)
        if out is None:
            return rebuilt
        return None if out is MAP_TO_NONE else out
    return visit(structure)
