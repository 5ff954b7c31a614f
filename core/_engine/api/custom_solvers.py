"""jax.lax.custom_linear_solve and jax.lax.custom_root: the user's functions are traced to
jaxprs (core/_engine/primitives/solves.py holds the linear_solve primitive and these helpers). They sit in
the api layer because they are built with the user-level custom_jvp, vjp, jvp and linearize, as
JAX's are; importing this module adds them to jax.lax's exports."""
from __future__ import annotations

from . import api
from ..base.avals import ShapedArray
from ..primitives.solves import (LAX_EXPORTS, _LinearSolveTuple, _check_shapes, _check_tree, _flat, _lax, _run,
                                _trace, linear_solve_p)
from ..tracing.tracing import get_aval
from ..base.tree_util import tree_flatten, tree_leaves, tree_structure, tree_unflatten


# ---- custom_linear_solve ------------------------------------------------------------------

def custom_linear_solve(matvec, b, solve, transpose_solve=None, symmetric=False, has_aux=False):
    """Solve matvec(x) = b with `solve`, differentiating implicitly at the solution (see
    jax.lax.custom_linear_solve): the derivative of x solves the same system again."""
    if transpose_solve is None and symmetric:
        transpose_solve = solve
    b_flat, tree = tree_flatten(b)
    b_avals = [get_aval(x) for x in b_flat]
    avals = [ShapedArray(a.shape, a.dtype, a.weak_type) for a in b_avals]

    aux_tree = []

    def flat_fun(fun, name, aux):
        def f(*xs):
            out = fun(tree_unflatten(tree, list(xs)))
            _check_tree(name, "b", tree_structure(out), tree, aux)
            if aux:
                aux_tree[:] = [tree_structure(out[1])]
            y = out[0] if aux else out
            _check_shapes(name, "b", tree_leaves(y), b_flat)
            return tree_leaves(out)
        return f
    matvec_jaxpr, matvec_consts = _trace(flat_fun(matvec, "matvec", False), avals)
    solve_jaxpr, solve_consts = _trace(flat_fun(lambda x: solve(matvec, x), "solve", has_aux), avals)
    vecmat_jaxpr = tr_solve_jaxpr = None
    vecmat_consts = tr_solve_consts = []
    if transpose_solve is not None:
        if symmetric:
            vecmat, vecmat_jaxpr, vecmat_consts = matvec, matvec_jaxpr, matvec_consts
        else:
            def vecmat(y):  # matvec is linear: its vjp at any point is its transpose
                zeros = tree_unflatten(tree, [_lax().full(a.shape, 0, a.dtype) for a in b_avals])
                return api.vjp(matvec, zeros)[1](y)[0]
            vecmat_jaxpr, vecmat_consts = _trace(flat_fun(vecmat, "vecmat", False), avals)
        tr_solve_jaxpr, tr_solve_consts = _trace(
            flat_fun(lambda x: transpose_solve(vecmat, x), "transpose_solve", has_aux), avals)
    consts = [matvec_consts, vecmat_consts, solve_consts, tr_solve_consts]
    lengths = _LinearSolveTuple(*[len(c) for c in consts])
    jaxprs = _LinearSolveTuple(matvec_jaxpr, vecmat_jaxpr, solve_jaxpr, tr_solve_jaxpr)
    outs = linear_solve_p.bind(*_flat(consts), *b_flat, const_lengths=lengths, jaxprs=jaxprs)
    if has_aux:
        return tree_unflatten(tree, outs[:len(b_flat)]), tree_unflatten(aux_tree[0], outs[len(b_flat):])
    return tree_unflatten(tree, outs)


# ---- custom_root --------------------------------------------------------------------------

def custom_root(f, initial_guess, solve, tangent_solve, has_aux=False):
    """solve(f, initial_guess), differentiated by the implicit function theorem at the root
    (f(x*, params) = 0) with respect to what f closes over (see jax.lax.custom_root)."""
    guess_flat, tree = tree_flatten(initial_guess)
    avals = [ShapedArray(get_aval(g).shape, get_aval(g).dtype, get_aval(g).weak_type) for g in guess_flat]
    n = len(guess_flat)

    def f_flat(*xs):
        out = f(tree_unflatten(tree, list(xs)))
        _check_tree("f", "initial_guess", tree_structure(out), tree, False)
        return tree_leaves(out)

    aux_tree = []

    def solve_flat(*xs):
        out = solve(f, tree_unflatten(tree, list(xs)))
        _check_tree("solve", "initial_guess", tree_structure(out), tree, has_aux)
        if has_aux:
            aux_tree[:] = [tree_structure(out[1])]
        return tree_leaves(out)

    def lin_and_solve(*xb):
        x, rhs = tree_unflatten(tree, list(xb[:n])), tree_unflatten(tree, list(xb[n:]))
        _, f_jvp = api.linearize(f, x)
        out = tangent_solve(f_jvp, rhs)
        _check_tree("tangent_solve", "x", tree_structure(out), tree, False)
        return tree_leaves(out)
    f_jaxpr, f_consts = _trace(f_flat, avals)
    solve_jaxpr, solve_consts = _trace(solve_flat, avals)
    ls_jaxpr, ls_consts = _trace(lin_and_solve, avals * 2)
    cf, cs, cl = len(f_consts), len(solve_consts), len(ls_consts)

    @api.custom_jvp
    def root(*args):
        return _run(solve_jaxpr, *args[cf:cf + cs], *args[cf + cs + cl:])

    @root.defjvp
    def root_jvp(primals, tangents):
        sol = root(*primals)
        solution, aux = list(sol[:n]), list(sol[n:])
        fp, lp = list(primals[:cf]), list(primals[cf + cs:cf + cs + cl])
        if cf:
            _, rhs = api._jvp_engine(lambda *p: _run(f_jaxpr, *p, *solution), fp, list(tangents[:cf]))
        else:  # f closes over nothing: the root does not move
            rhs = [_lax().full_like(x, 0) for x in solution]
        dx = [_lax().neg(d) for d in _run(ls_jaxpr, *lp, *solution, *rhs)]
        return sol, dx + [_lax().full_like(a, 0) for a in aux]
    outs = root(*f_consts, *solve_consts, *ls_consts, *guess_flat)
    solution = tree_unflatten(tree, list(outs[:n]))
    if has_aux:
        return solution, tree_unflatten(aux_tree[0], list(outs[n:]))
    return solution


LAX_EXPORTS.update(custom_linear_solve=custom_linear_solve, custom_root=custom_root)
