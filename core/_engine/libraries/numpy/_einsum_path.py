"""einsum's contraction order, chosen as JAX chooses it (JAX asks the opt_einsum package): the
subscripts are parsed the same way (ellipses, implicit outputs, integer sublists), the same search
runs ('optimal', 'branch-*', 'greedy', and 'auto', which picks one by operand count), and each
pairwise step is described by the same `ab,bc->ac` text. Which pair goes first, and the axis order of
each intermediate, decide the dot_generals and transposes of the jaxpr, so ties are broken exactly as
opt_einsum breaks them. Pure Python: only the operands' shapes are read."""
from __future__ import annotations

import bisect
import functools
import heapq
import itertools
from math import prod

_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _symbol(i: int) -> str:
    """The i-th index name: the 52 letters, then code points from chr(192) skipping surrogates."""
    if i < 52:
        return _LETTERS[i]
    return chr(i + 2048) if i >= 55296 else chr(i + 140)


def _unused_symbols(used: str, n: int) -> str:
    out, i = [], 0
    while len(out) < n:
        s = _symbol(i)
        if s not in used:
            out.append(s)
        i += 1
    return "".join(out)


def _implicit_output(subscripts: str) -> str:
    """The labels seen exactly once, sorted (numpy's rule for a spec without '->')."""
    joined = subscripts.replace(",", "")
    return "".join(sorted(c for c in set(joined) if joined.count(c) == 1))


def _from_interleaved(args):
    """(x, [0, 1], y, [1, 2], [0, 2]) -> ("ab,bc->ac", (x, y)): the labels, sorted, named a, b, ..."""
    args = list(args)
    ops, subs = args[0:2 * (len(args) // 2):2], args[1:2 * (len(args) // 2):2]
    out = args[-1] if len(args) % 2 else None
    try:
        labels = set(itertools.chain.from_iterable(subs))
        labels.discard(Ellipsis)
        names = {label: _symbol(i) for i, label in enumerate(sorted(labels))}
    except TypeError:
        raise TypeError("For this input type lists must contain either Ellipsis "
                        "or hashable and comparable object (e.g. int, str).") from None

    def text(sub):
        return "".join("..." if s is Ellipsis else names[s] for s in sub)
    spec = ",".join(text(s) for s in subs)
    if out is not None:
        spec += "->" + text(out)
    return spec, tuple(ops)


def parse(spec: str, shp):
    """(input terms joined by ',', output term): ellipses replaced by unused letters, the implicit
    output made explicit; `shp` holds the operands' shapes."""
    spec = spec.replace(" ", "")
    if "-" in spec or ">" in spec:
        if spec.count("-") > 1 or spec.count(">") > 1 or spec.count("->") != 1:
            raise ValueError("Subscripts can only contain one '->'.")
    if "." in spec:
        used = spec.replace(".", "").replace(",", "").replace("->", "")
        ell = _unused_symbols(used, max((len(s) for s in shp), default=0))
        longest = 0
        explicit = "->" in spec
        ins, out = spec.split("->") if explicit else (spec, None)
        terms = ins.split(",")
        for k, term in enumerate(terms):
            if "." not in term:
                continue
            if term.count(".") != 3 or term.count("...") != 1:
                raise ValueError("Invalid Ellipses.")
            n = 0 if k >= len(shp) or shp[k] == () else max(len(shp[k]), 1) - (len(term) - 3)
            longest = max(longest, n)
            if n < 0:
                raise ValueError("Ellipses lengths do not match.")
            terms[k] = term.replace("...", ell[-n:] if n else "")
        spec = ",".join(terms)
        out_ell = ell[-longest:] if longest else ""
        if explicit:
            spec += "->" + out.replace("...", out_ell)
        else:
            spec += "->" + out_ell + "".join(sorted(set(_implicit_output(spec)) - set(out_ell)))
    ins, out = spec.split("->") if "->" in spec else (spec, _implicit_output(spec))
    for c in out:
        if out.count(c) != 1:
            raise ValueError(f"Output character '{c}' appeared more than once in the output.")
        if c not in ins:
            raise ValueError(f"Output character '{c}' did not appear in the input")
    if len(ins.split(",")) != len(shp):
        raise ValueError(f"Number of einsum subscripts, {len(ins.split(','))}, must be equal to the "
                         f"number of operands, {len(shp)}.")
    return ins, out


# ---- costs ----------------------------------------------------------------------------------

def _size(indices, sizes) -> int:
    return prod(sizes[c] for c in indices)


def flop_count(indices, inner: bool, num_terms: int, sizes) -> int:
    """The loop volume times (terms - 1, at least 1, plus 1 when something is summed)."""
    return _size(indices, sizes) * (max(1, num_terms - 1) + int(inner))


def _pair_result(inputs, output, remaining, i, j, sizes):
    """What contracting inputs i and j keeps, and its flops, with `remaining` still to come."""
    k1, k2 = inputs[i], inputs[j]
    either = k1 | k2
    keep = frozenset.union(output, *[inputs[r] for r in remaining - {i, j}])
    k12 = either & keep
    return k12, flop_count(either, bool((k1 & k2) - keep), 2, sizes)


def _ssa_to_linear(ssa_path):
    """Single-assignment ids (each result a new id) -> positions in the shrinking operand list."""
    n = sum(map(len, ssa_path)) - len(ssa_path) + 1
    ids, path, ssa = list(range(n)), [], n
    for step in ssa_path:
        picked = sorted(bisect.bisect_left(ids, s) for s in step)
        for p in reversed(picked):
            ids.pop(p)
        ids.append(ssa)
        path.append(tuple(picked))
        ssa += 1
    return path


# ---- the searches -----------------------------------------------------------------------------
# (the iteration orders below are part of the answer: among equally cheap paths the first one met
# wins, so candidates are visited as sets and heaps of the same shapes would visit them)

def optimal(inputs, output, sizes):
    """Depth-first over every pairwise order, pruned by the cheapest complete path found so far."""
    inputs, output = tuple(map(frozenset, inputs)), frozenset(output)
    best = {"flops": float("inf"), "path": (tuple(range(len(inputs))),)}
    cache = {}

    def walk(path, remaining, inputs, flops):
        if len(remaining) == 1:
            best["flops"], best["path"] = flops, path
            return
        for i, j in itertools.combinations(remaining, 2):
            if i > j:
                i, j = j, i
            key = (inputs[i], inputs[j])
            if key not in cache:
                cache[key] = _pair_result(inputs, output, remaining, i, j, sizes)
            k12, step = cache[key]
            if flops + step >= best["flops"]:
                continue
            walk(path + ((i, j),), remaining - {i, j} | {len(inputs)}, inputs + (k12,), flops + step)

    walk((), set(range(len(inputs))), inputs, 0)
    return _ssa_to_linear(best["path"])


def branch(inputs, output, sizes, nbranch=None, cutoff_flops_factor=4):
    """Like `optimal`, but at each step only the `nbranch` most promising pairs (by memory freed),
    outer products only when nothing shares an index, and paths far behind the best are cut."""
    inputs, output = tuple(map(frozenset, inputs)), frozenset(output)
    size_cache = {k: _size(k, sizes) for k in inputs}
    cache = {}
    best = {"flops": float("inf"), "size": float("inf"), "path": None}
    progress = {}

    def walk(path, inputs, remaining, flops, size):
        if len(remaining) == 1:
            best.update(size=size, flops=flops, path=path)
            return

        def assess(k1, k2, i, j):
            if (k1, k2) not in cache:
                cache[k1, k2] = _pair_result(inputs, output, remaining, i, j, sizes)
            k12, step = cache[k1, k2]
            if k12 not in size_cache:
                size_cache[k12] = _size(k12, sizes)
            size12 = size_cache[k12]
            new_flops, new_size = flops + step, max(size, size12)
            if not (new_flops, new_size) < (best["flops"], best["size"]):
                return None
            seen = progress.get(len(inputs), float("inf"))
            if new_flops < seen:
                progress[len(inputs)] = new_flops
            elif new_flops > cutoff_flops_factor * seen:
                return None
            cost = size12 - size_cache[inputs[i]] - size_cache[inputs[j]]
            return cost, step, new_flops, new_size, (i, j), k12

        candidates = []
        for outer in (False, True):
            for i, j in itertools.combinations(remaining, 2):
                if i > j:
                    i, j = j, i
                k1, k2 = inputs[i], inputs[j]
                if not outer and k1.isdisjoint(k2):
                    continue
                c = assess(k1, k2, i, j)
                if c:
                    heapq.heappush(candidates, c)
            if candidates:
                break
        taken = 0
        while (nbranch is None or taken < nbranch) and candidates:
            _, _, new_flops, new_size, (i, j), k12 = heapq.heappop(candidates)
            walk(path + ((i, j),), inputs + (k12,), (remaining - {i, j}) | {len(inputs)}, new_flops, new_size)
            taken += 1

    walk((), inputs, set(range(len(inputs))), 0, 0)
    return _ssa_to_linear(best["path"])


def _greedy_ssa(inputs, output, sizes):
    """Hadamard products of equal index sets first, then repeatedly the pair that frees the most
    memory (ties: the lower ids), then outer products, smallest first."""
    if len(inputs) == 1:
        return [(0,)]
    sets = [frozenset(x) for x in inputs]
    output = frozenset(output) | frozenset.intersection(*sets)   # shared by all: kept to the end
    remaining, ssa_path = {}, []
    ids = itertools.count(len(sets))
    for ssa_id, key in enumerate(sets):
        if key in remaining:
            ssa_path.append((remaining[key], ssa_id))
            remaining[key] = next(ids)
        else:
            remaining[key] = ssa_id
    dim_keys = {}
    for key in remaining:
        for dim in key - output:
            dim_keys.setdefault(dim, set()).add(key)
    at_least = {n: {d for d, ks in dim_keys.items() if len(ks) >= n} - output for n in (2, 3)}
    footprint = {key: _size(key, sizes) for key in remaining}

    def candidate(k1, k2):
        either, two = k1 | k2, k1 & k2
        k12 = (either & output) | (two & at_least[3]) | ((either - two) & at_least[2])
        cost = _size(k12, sizes) - footprint[k1] - footprint[k2]
        id1, id2 = remaining[k1], remaining[k2]
        if id1 > id2:
            k1, id1, k2, id2 = k2, id2, k1, id1
        return (cost, id2, id1), k1, k2, k12

    queue = []
    for dim, keys in dim_keys.items():
        ordered = sorted(keys, key=remaining.__getitem__)
        for n, k1 in enumerate(ordered[:-1]):
            heapq.heappush(queue, min(candidate(k1, k2) for k2 in ordered[n + 1:]))
    while queue:
        _, k1, k2, k12 = heapq.heappop(queue)
        if k1 not in remaining or k2 not in remaining:
            continue   # one side was contracted since
        ssa_path.append((remaining.pop(k1), remaining.pop(k2)))
        for dim in k1 - output:
            dim_keys[dim].remove(k1)
        for dim in k2 - output:
            dim_keys[dim].remove(k2)
        if k12 in remaining:
            ssa_path.append((remaining[k12], next(ids)))
        else:
            for dim in k12 - output:
                dim_keys.setdefault(dim, set()).add(k12)
        remaining[k12] = next(ids)
        for dim in k1 | k2 - output:
            n = len(dim_keys.get(dim, ()))
            for m in (2, 3):
                (at_least[m].add if n >= m else at_least[m].discard)(dim)
        footprint[k12] = _size(k12, sizes)
        others = {k for dim in k12 for k in dim_keys.get(dim, ())}
        others.discard(k12)
        if others:
            heapq.heappush(queue, min(candidate(k12, k2) for k2 in list(others)))
    last = [(_size(key & output, sizes), ssa_id, key) for key, ssa_id in remaining.items()]
    heapq.heapify(last)
    _, id1, k1 = heapq.heappop(last)
    while last:
        _, id2, k2 = heapq.heappop(last)
        ssa_path.append((min(id1, id2), max(id1, id2)))
        k12 = (k1 | k2) & output
        _, id1, k1 = heapq.heappushpop(last, (_size(k12, sizes), next(ids), k12))
    return ssa_path


def greedy(inputs, output, sizes):
    return _ssa_to_linear(_greedy_ssa(inputs, output, sizes))


def auto(inputs, output, sizes):
    """'optimal' up to 4 operands, then branch-all (5-6), branch-2 (7-8), branch-1 (9-14), greedy."""
    n = len(inputs)
    if n <= 4:
        return optimal(inputs, output, sizes)
    if n <= 14:
        return branch(inputs, output, sizes, nbranch=None if n <= 6 else 2 if n <= 8 else 1)
    return greedy(inputs, output, sizes)


SEARCHES = {
    "auto": auto, "optimal": optimal, "greedy": greedy, "eager": greedy, "opportunistic": greedy,
    "branch-all": lambda i, o, s: branch(i, o, s, None), "branch-2": lambda i, o, s: branch(i, o, s, 2),
    "branch-1": lambda i, o, s: branch(i, o, s, 1),
}
UNOPTIMIZED = "unoptimized"   # JAX's optimize=False: always the first two operands


def _can_blas(inputs, result, removed, shapes):
    """Which BLAS call a pairwise contraction maps to (False: none), as the report names it."""
    if len(inputs) != 2:
        return False
    left, right = inputs
    for c in set(left + right):
        nl, nr = left.count(c), right.count(c)
        if nl > 1 or nr > 1 or nl + nr > 2 or nl + nr - 1 == int(c in result):
            return False
    if any(shapes[0][left.find(c)] != shapes[1][right.find(c)] for c in removed):
        return False   # a broadcast (size-1) index is no BLAS contraction
    if not removed:
        return "OUTER/EINSUM"
    n = len(removed)
    if left == right:
        return "DOT"
    if set(left) == set(right):
        return "DOT/EINSUM"
    if left[-n:] == right[:n] or left[:n] == right[-n:] or left[-n:] == right[-n:] or left[:n] == right[:n]:
        return "GEMM"
    return "GEMV/EINSUM" if not (set(left) - removed) or not (set(right) - removed) else "TDOT"


def contract_path(subscripts, operands, optimize, shapes):
    """-> (operands, path, steps, parsed): each step is (positions popped, labels summed away,
    'ab,bc->ac' text, the terms left after it, blas kind); `parsed` = (inputs, output, sizes).
    `shapes` reads an operand's shape. Plans for a string spec, shapes and a named optimizer are
    remembered (an eager einsum in a loop searches once)."""
    if isinstance(subscripts, str):
        spec = subscripts
    else:
        spec, operands = _from_interleaved((subscripts,) + tuple(operands))
    operands = tuple(operands)
    shp = tuple(tuple(int(d) for d in shapes(o)) for o in operands)
    if isinstance(optimize, (str, bool)):
        path, steps, parsed = _plan_cached(spec, shp, optimize)
    else:
        path, steps, parsed = _plan(spec, shp, optimize)
    ins, out, sizes = parsed
    return operands, list(path), list(steps), (ins, out, dict(sizes))   # (a copy: the report hands it out)


def _plan(spec, term_shapes, optimize):
    ins, out = parse(spec, term_shapes)
    terms = ins.split(",")
    sizes = {}
    for k, (term, shp) in enumerate(zip(terms, term_shapes)):
        if len(shp) != len(term):
            raise ValueError(f"Einstein sum subscript '{term}' does not contain the correct number of "
                             f"indices for operand {k}.")
        for c, d in zip(term, shp):
            if c not in sizes or sizes[c] == 1:
                sizes[c] = d
            elif d not in (1, sizes[c]):
                raise ValueError(f"Size of label '{c}' for operand {k} ({sizes[c]}) does not match "
                                 f"previous terms ({d}).")
    sets, out_set = [frozenset(t) for t in terms], frozenset(out)
    n = len(terms)
    if optimize is False:                       # opt_einsum's own False: everything at once
        path = [tuple(range(n))]
    elif not isinstance(optimize, str):         # an explicit path
        path = [tuple(int(i) for i in step) for step in optimize]
    elif n <= 2:
        path = [tuple(range(n))]
    elif optimize == UNOPTIMIZED:
        path = [(0, 1)] * (n - 1)
    else:
        key = optimize.lower()
        if key not in SEARCHES:
            raise KeyError(f"Path optimizer '{key}' not found, valid options are "
                           f"{set(SEARCHES) | {'auto-hq', 'dp', 'dynamic-programming'}}.")
        path = SEARCHES[key](sets, out_set, sizes)
    steps, live, live_shapes = [], list(terms), list(term_shapes)
    for k, picked in enumerate(path):
        picked = tuple(sorted(picked, reverse=True))
        rest = list(sets)
        joined = frozenset.union(*[rest.pop(i) for i in picked])
        kept = joined & out_set.union(*rest)
        removed = joined - kept
        sets = rest + [kept]
        step_ins = [live.pop(i) for i in picked]
        step_shapes = [live_shapes.pop(i) for i in picked]
        blas = _can_blas(step_ins, "".join(kept), removed, step_shapes)
        if k == len(path) - 1:
            result = out
        else:   # tensordot's order: labels as they first appear among the inputs
            both = "".join(step_ins)
            result = "".join(sorted(kept, key=both.find))
        live.append(result)
        live_shapes.append(tuple(max(s[t.find(c)] for s, t in zip(step_shapes, step_ins) if c in t)
                                 for c in result))
        steps.append((picked, removed, ",".join(step_ins) + "->" + result,
                      tuple(live) if len(live) <= 20 else None, blas))
    return tuple(path), tuple(steps), (ins, out, sizes)


@functools.lru_cache(maxsize=256)
def _plan_cached(spec, term_shapes, optimize):
    return _plan(spec, term_shapes, optimize)
