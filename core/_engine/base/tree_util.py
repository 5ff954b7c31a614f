"""Pytrees: nested containers (tuple, list, dict, None, NamedTuple, registered classes) whose
leaves are arrays. Transformations flatten their inputs and outputs with these functions."""
from __future__ import annotations

import collections
import functools
from typing import Any, NamedTuple


class _NodeDef(NamedTuple):
    to_iter: Any
    from_iter: Any
    with_keys: Any = None  # x -> ([(key, child), ...], aux), for key paths; None: flattened indices


_registry: dict = {}


def register_pytree_node(nodetype, flatten_func, unflatten_func, flatten_with_keys_func=None):
    _registry[nodetype] = _NodeDef(flatten_func, unflatten_func, flatten_with_keys_func)


def register_pytree_node_class(cls):
    register_pytree_node(cls, lambda x: x.tree_flatten(), cls.tree_unflatten)
    return cls


def register_pytree_with_keys(nodetype, flatten_with_keys, unflatten_func, flatten_func=None):
    """A node whose children carry keys (`flatten_with_keys(x) -> ([(key, child)...], aux)`)."""
    def flat(x):
        kc, aux = flatten_with_keys(x)
        return [c for _, c in kc], aux
    register_pytree_node(nodetype, flatten_func or flat, unflatten_func, flatten_with_keys)


def register_pytree_with_keys_class(cls):
    """Class decorator: `tree_flatten_with_keys` and `tree_unflatten` (and optionally `tree_flatten`)."""
    flatten = getattr(cls, "tree_flatten", None)
    register_pytree_with_keys(cls, lambda x: x.tree_flatten_with_keys(), cls.tree_unflatten,
                              (lambda x: x.tree_flatten()) if flatten is not None else None)
    return cls


def register_static(cls):
    """Instances of `cls` are nodes without children: the whole object is static metadata (it must
    be hashable), so it never becomes a leaf that transformations trace."""
    register_pytree_node(cls, lambda x: ((), x), lambda aux, _: aux, lambda x: ((), x))
    return cls


def register_dataclass(nodetype, data_fields=None, meta_fields=None, drop_fields=()):
    """A dataclass (or any class, given the field names) as a node: `data_fields` are children
    (keyed by attribute), `meta_fields` static metadata; `drop_fields` are left out."""
    import dataclasses
    if data_fields is None or meta_fields is None:
        if not dataclasses.is_dataclass(nodetype):
            raise TypeError("register_dataclass: data_fields and meta_fields are required when nodetype is not "
                            f"a dataclass. Got nodetype={nodetype!r}.")
        fields = [f for f in dataclasses.fields(nodetype) if f.init and f.name not in drop_fields]
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    data_fields, meta_fields = list(data_fields), list(meta_fields)

    def flat(x):
        return [getattr(x, n) for n in data_fields], tuple(getattr(x, n) for n in meta_fields)

    def flat_with_keys(x):
        return [(GetAttrKey(n), getattr(x, n)) for n in data_fields], tuple(getattr(x, n) for n in meta_fields)

    def unflat(aux, children):
        kw = dict(zip(data_fields, children))
        kw.update(zip(meta_fields, aux))
        return nodetype(**kw)
    register_pytree_node(nodetype, flat, unflat, flat_with_keys)
    return nodetype


register_pytree_node(tuple, lambda t: (list(t), None), lambda _, c: tuple(c))
register_pytree_node(list, lambda l: (list(l), None), lambda _, c: list(c))
register_pytree_node(type(None), lambda n: ([], None), lambda _, c: None)


def _dict_flatten(d):
    try:
        keys = sorted(d.keys())
    except TypeError as e:  # keys of mixed types ({1: .., 'a': ..}): JAX's ValueError, the cause kept
        raise ValueError("Comparator raised exception while sorting pytree dictionary keys.") from e
    return [d[k] for k in keys], keys


def _dict_unflatten(keys, children):
    return dict(zip(keys, children))


register_pytree_node(dict, _dict_flatten, _dict_unflatten)


def _odict_flatten(d):
    keys = list(d.keys())
    return [d[k] for k in keys], keys


register_pytree_node(collections.OrderedDict, _odict_flatten, lambda keys, c: collections.OrderedDict(zip(keys, c)))


def _ddict_flatten(d):
    keys = sorted(d.keys())
    return [d[k] for k in keys], (d.default_factory, keys)


register_pytree_node(collections.defaultdict, _ddict_flatten,
                     lambda aux, c: collections.defaultdict(aux[0], zip(aux[1], c)))


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields") and type(x) is not tuple


def is_namedtuple_node(t: type) -> bool:
    """Whether instances of `t` flatten as a NamedTuple node (children in field order, the class
    as aux data): a namedtuple class that no registration overrides. (Not cached: a page session
    makes new classes on every run of the learner's code.)"""
    return t not in _registry and t is not tuple and issubclass(t, tuple) and hasattr(t, "_fields")


class PyTreeDef:
    """The structure of a pytree (node types and aux data), without its leaves."""
    __slots__ = ("node_type", "aux", "children", "num_leaves", "_hash")

    def __init__(self, node_type, aux, children):
        self.node_type = node_type
        self.aux = aux
        self.children = tuple(children)
        self.num_leaves = 1 if node_type is None else sum(c.num_leaves for c in self.children)
        self._hash = None

    @property
    def num_nodes(self):
        return 1 + sum(c.num_nodes for c in self.children)

    def unflatten(self, leaves):
        return tree_unflatten(self, leaves)

    def flatten_up_to(self, tree):
        return _flatten_up_to(self, tree)

    def children_defs(self):
        return list(self.children)

    def compose(self, inner: "PyTreeDef") -> "PyTreeDef":
        """This structure with each leaf replaced by the structure `inner` (JAX's
        `treedef.compose`: the treedef of `self.unflatten([inner_tree] * self.num_leaves)`)."""
        if self.node_type is None:
            return inner
        return PyTreeDef(self.node_type, self.aux, [c.compose(inner) for c in self.children])

    def __eq__(self, other):
        return (isinstance(other, PyTreeDef) and self.node_type == other.node_type
                and _aux_eq(self.aux, other.aux) and self.children == other.children)

    def __hash__(self):
        if self._hash is None:
            try:
                aux_h = hash(self.aux if not isinstance(self.aux, list) else tuple(self.aux))
            except TypeError:
                aux_h = 0
            self._hash = hash((self.node_type, aux_h, self.children))
        return self._hash

    def __repr__(self):
        return f"PyTreeDef({self._str()})"

    def _str(self) -> str:
        t = self.node_type
        if t is None:
            return "*"
        kids = [c._str() for c in self.children]
        if t is type(None):
            return "None"
        if t is tuple:
            return "(" + ", ".join(kids) + ("," if len(kids) == 1 else "") + ")"
        if t is list:
            return "[" + ", ".join(kids) + "]"
        if t is dict:
            return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(self.aux, kids)) + "}"
        if t == "namedtuple":
            return f"CustomNode(namedtuple[{self.aux.__name__}], [{', '.join(kids)}])"
        name = getattr(t, "__name__", str(t))
        return f"CustomNode({name}[{self.aux}], [{', '.join(kids)}])"  # str of the aux data, as JAX prints it


def _aux_eq(a, b):
    try:
        return bool(a == b)
    except Exception:
        return a is b


_LEAF = None


def _node_of(x, is_leaf):
    if is_leaf is not None and is_leaf(x):
        return None
    t = type(x)
    nd = _registry.get(t)
    if nd is not None:
        return t, nd
    if _is_namedtuple(x):
        return "namedtuple", None
    return None


def _flatten(x, is_leaf, leaves) -> PyTreeDef:
    node = _node_of(x, is_leaf)
    if node is None:
        leaves.append(x)
        return PyTreeDef(None, None, ())
    t, nd = node
    if t == "namedtuple":
        children, aux = list(x), type(x)
    else:
        children, aux = nd.to_iter(x)
    return PyTreeDef(t, aux, [_flatten(c, is_leaf, leaves) for c in children])


def tree_flatten(tree, is_leaf=None):
    leaves: list = []
    treedef = _flatten(tree, is_leaf, leaves)
    return leaves, treedef


def tree_unflatten(treedef: PyTreeDef, leaves):
    it = iter(leaves)
    out = _unflatten(treedef, it)
    return out


def _unflatten(td: PyTreeDef, it):
    if td.node_type is None:
        return next(it)
    children = [_unflatten(c, it) for c in td.children]
    if td.node_type == "namedtuple":
        return td.aux(*children)
    return _registry[td.node_type].from_iter(td.aux, children)


def _flatten_up_to(td: PyTreeDef, tree, path="", name="tree"):
    """Leaves of `tree` cut at `td`'s leaves; mismatches raise JAX's 'pytree structure error'."""
    if td.node_type is None:
        return [tree]
    node = _node_of(tree, None)
    where = f"At that key path, the prefix pytree {name} has a subtree of type"
    if node is None or node[0] != td.node_type:
        ours = td.aux if td.node_type == "namedtuple" else td.node_type
        theirs = type(tree)
        raise ValueError(f"pytree structure error: different types at key path\n    {name}{path}\n{where}\n"
                         f"    {ours}\nbut at the same key path the full pytree has a subtree of different "
                         f"type\n    {theirs}.")
    t, nd = node
    children, aux = (list(tree), type(tree)) if t == "namedtuple" else nd.to_iter(tree)
    if len(children) != len(td.children):
        kind = getattr(t, "__name__", str(t)) if t in (list, tuple) else "pytree children"
        if t in (list, tuple):
            raise ValueError(f"pytree structure error: different lengths of {kind} at key path\n    {name}{path}\n"
                             f"{where} {kind} of length {len(td.children)}, but the full pytree has a subtree "
                             f"of the same type but of length {len(children)}.")
        if t is dict:  # JAX names the keys on both sides and their symmetric difference
            mine, full = list(td.aux), list(aux)
            diff = " ".join(str(k) for k in sorted(set(mine) ^ set(full), key=str))
            raise ValueError(f"pytree structure error: different numbers of pytree children at key path\n"
                             f"    {name}{path}\n{where}\n    {t}\nwith {len(mine)} child keys\n    "
                             f"{' '.join(map(str, mine))}\nbut at the same key path the full pytree has a subtree "
                             f"of the same type but with {len(full)} child keys\n    {' '.join(map(str, full))}\n"
                             f"so the symmetric difference on key sets is\n    {diff}")
        raise ValueError(f"pytree structure error: different numbers of pytree children at key path\n"
                         f"    {name}{path}\n{where}\n    {t}\nwith {len(td.children)} children, but at the "
                         f"same key path the full pytree has a subtree of the same type but with "
                         f"{len(children)} children.")
    if t is dict and list(aux) != list(td.aux):
        raise ValueError(f"pytree structure error: different pytree metadata at key path\n    {name}{path}\n"
                         f"{where}\n    {t}\nwith metadata\n    {tuple(td.aux)}\nbut at the same key path the "
                         f"full pytree has a subtree of the same type but with metadata\n    {tuple(aux)}\nso "
                         "the symbolic keys differ.")
    out = []
    keys = list(td.aux) if t is dict else (td.aux._fields if t == "namedtuple" else range(len(children)))
    for k, c, ctd in zip(keys, children, td.children):
        sub = f"[{k!r}]" if t is dict else (f".{k}" if t == "namedtuple" else f"[{k}]")
        out.extend(_flatten_up_to(ctd, c, path + sub, name))
    return out


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def tree_structure(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[1]


def treedef_is_leaf(td: PyTreeDef) -> bool:
    return td.node_type is None


def tree_map(f, tree, *rest, is_leaf=None):
    leaves, treedef = tree_flatten(tree, is_leaf)
    all_leaves = [leaves] + [_flatten_up_to(treedef, r, "", "tree_map tree") for r in rest]
    return treedef.unflatten(f(*xs) for xs in zip(*all_leaves))


def tree_map_with_path(f, tree, *rest, is_leaf=None, is_leaf_takes_path=False):
    paths_leaves, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    all_leaves = [[l for _, l in paths_leaves]] + [treedef.flatten_up_to(r) for r in rest]
    return treedef.unflatten(f(p, *xs) for p, *xs in zip([p for p, _ in paths_leaves], *all_leaves))


class SequenceKey(NamedTuple):
    idx: int

    def __str__(self):
        return f"[{self.idx}]"


class DictKey(NamedTuple):
    key: Any

    def __str__(self):
        return f"[{self.key!r}]"


class GetAttrKey(NamedTuple):
    name: str

    def __str__(self):
        return f".{self.name}"


class FlattenedIndexKey(NamedTuple):
    key: int

    def __str__(self):
        return f"[<flat index {self.key}>]"


def _keyed_children(x, t, nd) -> list:
    """[(key, child)] of node x: dict keys, attribute names, sequence indices, registered keys, or
    flattened indices for custom nodes registered without keys."""
    if t == "namedtuple":
        return [(GetAttrKey(f), c) for f, c in zip(type(x)._fields, x)]
    if t in (dict, collections.OrderedDict, collections.defaultdict):
        children, keys = nd.to_iter(x)
        keys = keys[1] if t is collections.defaultdict else keys
        return [(DictKey(k), c) for k, c in zip(keys, children)]
    if nd.with_keys is not None:
        return list(nd.with_keys(x)[0])
    children, _ = nd.to_iter(x)
    key = SequenceKey if t in (list, tuple) else FlattenedIndexKey
    return [(key(i), c) for i, c in enumerate(children)]


def tree_flatten_with_path(tree, is_leaf=None, is_leaf_takes_path=False):
    """([(key path, leaf)], treedef); with is_leaf_takes_path, `is_leaf(path, x)` (JAX's)."""
    if not is_leaf_takes_path:
        out = []

        def rec(x, path):
            node = _node_of(x, is_leaf)
            if node is None:
                out.append((path, x))
                return
            for k, c in _keyed_children(x, *node):
                rec(c, path + (k,))
        rec(tree, ())
        return out, tree_structure(tree, is_leaf)
    out = []

    def rec_path(x, path) -> PyTreeDef:
        node = None if is_leaf(path, x) else _node_of(x, None)
        if node is None:
            out.append((path, x))
            return PyTreeDef(None, None, ())
        t, nd = node
        aux = type(x) if t == "namedtuple" else nd.to_iter(x)[1]
        return PyTreeDef(t, aux, [rec_path(c, path + (k,)) for k, c in _keyed_children(x, *node)])
    treedef = rec_path(tree, ())
    return out, treedef


def tree_leaves_with_path(tree, is_leaf=None, is_leaf_takes_path=False):
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


def keystr(keys, *, simple: bool = False, separator: str = "") -> str:
    """`path` as text: `['a'][0].b`, or with simple=True the bare keys joined by `separator`."""
    if not simple:
        return separator.join(str(k) for k in keys)
    return separator.join(str(_bare_key(k)) for k in keys)


def _bare_key(k):
    for attr in ("key", "idx", "name"):
        if hasattr(k, attr):
            return getattr(k, attr)
    return k


KeyEntry = Any
KeyPath = tuple


def is_tree_node(typ) -> bool:
    """Whether instances of the type `typ` are pytree nodes (not leaves)."""
    return typ in _registry or (isinstance(typ, type) and issubclass(typ, tuple) and hasattr(typ, "_fields"))


def flatten_one_level(tree):
    """(children, aux) of the top node of `tree`; a ValueError for a leaf."""
    node = _node_of(tree, None)
    if node is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    t, nd = node
    if t == "namedtuple":
        return list(tree), type(tree)
    children, aux = nd.to_iter(tree)
    # as JAX's: a list's, ordered dict's and default dict's children come back as a list, their keys as tuples
    listed = t in (list, collections.OrderedDict, collections.defaultdict)
    if t in (dict, collections.OrderedDict):
        aux = tuple(aux)
    elif t is collections.defaultdict:
        aux = (aux[0], tuple(aux[1]))
    return (list(children) if listed else tuple(children)), aux


def flatten_one_level_with_keys(tree):
    node = _node_of(tree, None)
    if node is None:
        raise ValueError(f"can't tree-flatten type: {type(tree)}")
    return tuple(_keyed_children(tree, *node)), flatten_one_level(tree)[1]


def treedef_tuple(treedefs) -> PyTreeDef:
    """The structure of a tuple whose elements have the structures `treedefs`."""
    return PyTreeDef(tuple, None, list(treedefs))


def treedef_children(treedef: PyTreeDef) -> list:
    return list(treedef.children)


def tree_broadcast(prefix_tree, full_tree, is_leaf=None):
    """`prefix_tree` with each of its leaves repeated over the matching subtree of `full_tree`."""
    prefix_leaves, prefix_def = tree_flatten(prefix_tree, is_leaf)
    subtrees = _flatten_up_to(prefix_def, full_tree, "", "tree_broadcast full_tree")
    return prefix_def.unflatten(tree_map(lambda _: p, sub, is_leaf=is_leaf) for p, sub in zip(prefix_leaves, subtrees))


class _Unspecified:
    def __repr__(self):
        return "<unspecified>"


def tree_reduce_associative(operation, tree, *, identity=_Unspecified(), is_leaf=None):
    """Reduce the leaves with an associative `operation`, pairing neighbours (a balanced tree of calls)."""
    items = tree_leaves(tree, is_leaf)
    if not items:
        if isinstance(identity, _Unspecified):
            raise TypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    while len(items) > 1:
        paired = [operation(a, b) for a, b in zip(items[::2], items[1::2])]
        items = paired + ([items[-1]] if len(items) % 2 else [])
    return items[0]


class PyTreeRegistry:
    """The registry of pytree node types (`default_registry`: the one tree_util uses)."""

    def is_node(self, typ) -> bool:
        return is_tree_node(typ)

    def flatten(self, tree, leaf_predicate=None):
        return tree_flatten(tree, leaf_predicate)

    def flatten_one_level(self, tree):
        return flatten_one_level(tree)

    def register_node(self, type_, to_iterable, from_iterable, to_iterable_with_keys=None):
        register_pytree_node(type_, to_iterable, from_iterable, to_iterable_with_keys)


default_registry = PyTreeRegistry()


def tree_reduce(function, tree, initializer=None, is_leaf=None):
    leaves = tree_leaves(tree, is_leaf)
    if initializer is None:
        return functools.reduce(function, leaves)
    return functools.reduce(function, leaves, initializer)


def tree_all(tree, is_leaf=None):
    return all(tree_leaves(tree, is_leaf))


def tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose):
    """JAX's: the leaves, read as outer_size rows of inner_size, transposed. Counting leaves (not matching
    structure node by node) lets a node that flattens to all its leaves at once transpose, such as
    haiku's FlatMap."""
    flat, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:  # as JAX: the structure of the first outer entry
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    inner_size, outer_size = inner_treedef.num_leaves, outer_treedef.num_leaves
    if treedef.num_leaves != inner_size * outer_size:
        raise TypeError(f"Mismatch\n{treedef}\n != \n{outer_treedef.compose(inner_treedef)}")
    rows = [flat[i * inner_size:(i + 1) * inner_size] for i in range(outer_size)]
    return inner_treedef.unflatten([outer_treedef.unflatten(list(col)) for col in zip(*rows)])


def all_leaves(iterable, is_leaf=None):
    return all(tree_structure(x, is_leaf).node_type is None for x in iterable)


class Partial(functools.partial):
    """functools.partial that is a pytree (its args are leaves)."""


from ._public import set_public_module  # noqa: E402
set_public_module("jax.tree_util", Partial)


register_pytree_node(Partial, lambda p: ((p.args, p.keywords), p.func),
                     lambda func, c: Partial(func, *c[0], **c[1]))


from ._public import missing_attribute as _missing_attribute  # noqa: E402
__getattr__ = _missing_attribute(__name__)
