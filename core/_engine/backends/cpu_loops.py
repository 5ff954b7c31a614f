"""Loops in the CPU compiler's generated code: `scan` and `while` become Python loops around
their bodies' equations, written inline (no call, list packing or errstate switch per step),
and a scan's stacked outputs are preallocated and filled in place. A `cond` becomes an
if/elif/else around its branches' equations (an MCMC kernel runs several per step).

`EMITTERS[primitive name](emitter, eqn, indent)` writes the loop and returns True, or returns
False to leave the equation to the primitive's impl (e.g. a while loop with a batched predicate).
"""
from __future__ import annotations

import numpy as np

from ..tracing.jaxpr import Var


def _body(cj):
    from .cpu import optimized
    return optimized(cj)   # the body's optimised equations (folded, CSE'd, DCE'd)


# outer constants up to this size are sunk into the bodies that read them
_SINK_MAX = 1 << 16


def _sink(em, cj, operands):
    """(`cj` with its inputs whose outer operand is a constant of the program turned into constants
    of the body, the operands left). XLA sinks a while loop's constant operands into its body
    (WhileLoopConstantSinking) and simplifies there: a unit mass matrix's multiplies then drop
    out of a sampler's leapfrog loop (cpu.py: _times_ones)."""
    known = {}
    for i, v in enumerate(operands):
        val = em.consts.get(v) if type(v) is Var else None
        if val is not None and getattr(val, "size", _SINK_MAX + 1) <= _SINK_MAX:
            known[i] = val
    if not known:
        return cj, list(operands)
    from ..tracing.jaxpr import ClosedJaxpr, Jaxpr
    j = cj.jaxpr
    sunk = ClosedJaxpr(Jaxpr(j.constvars + [v for i, v in enumerate(j.invars) if i in known],
                             [v for i, v in enumerate(j.invars) if i not in known], j.outvars, j.eqns),
                       list(cj.consts) + [known[i] for i in sorted(known)])
    return sunk, [v for i, v in enumerate(operands) if i not in known]


def _bind_inputs(em, prog, outer_names):
    """Name the body's inputs after outer expressions (no copies: bodies never write into
    their inputs) and make its folded constants visible."""
    em.consts.update(prog.consts)
    for v, n in zip(prog.jaxpr.invars, outer_names):
        em.names[v] = n


def emit_scan(em, eqn, ind) -> bool:
    p = eqn.params
    prog = _body(p["jaxpr"])
    nc, nk, length = p["num_consts"], p["num_carry"], p["length"]
    ins = [em.name(v) for v in eqn.invars]
    consts, init, xs = ins[:nc], ins[nc:nc + nk], ins[nc + nk:]
    lines = em.lines
    carry = [em.fresh("_k") for _ in init]
    if carry:
        lines.append(f"{ind}{', '.join(carry)}, = {', '.join(init)},  # scan over {length}")
    x_vars = prog.jaxpr.invars[nc + nk:]
    read = {v for e in prog.eqns for v in e.invars if type(v) is Var} | {v for v in prog.outvars if type(v) is Var}
    ys, stored = [], []
    for a, o in zip(p["jaxpr"].out_avals[nk:], prog.outvars[nk:]):
        if type(o) is Var and o in x_vars:  # a y that is an x passed through: the stacked output is that xs itself
            ys.append(xs[x_vars.index(o)])
            continue
        y, dt = em.fresh("_ys"), em.fresh("_dt")
        em.g[dt] = np.dtype(a.dtype)
        lines.append(f"{ind}{y} = np.empty({(length,) + tuple(a.shape)}, {dt})")
        ys.append(y)
        stored.append((y, o))
    i = em.fresh("_i")
    steps = f"range({length} - 1, -1, -1)" if p["reverse"] else f"range({length})"
    lines.append(f"{ind}for {i} in {steps}:")
    body_ind = ind + "  "
    x_names = [em.fresh("_x") for _ in xs]
    for xn, x, v in zip(x_names, xs, x_vars):
        if v in read:
            lines.append(f"{body_ind}{xn} = {x}[{i}]")
    _bind_inputs(em, prog, consts + carry + x_names)
    em.loop_depth += 1
    em.block(prog.eqns, prog.outvars, body_ind)
    em.loop_depth -= 1
    outs = [em.name(v) for v in prog.outvars]
    for y, o in stored:  # before the carry moves on: an output may be a carry input
        lines.append(f"{body_ind}{y}[{i}] = {em.name(o)}")
    if carry:
        lines.append(f"{body_ind}{', '.join(carry)}, = {', '.join(outs[:nk])},")
    if len(lines[-1]) - len(lines[-1].lstrip()) < len(body_ind):  # an empty body (no carry, no ys)
        lines.append(f"{body_ind}pass")
    for v, n in zip(eqn.outvars, carry + ys):
        em.names[v] = n
    return True


def emit_while(em, eqn, ind) -> bool:
    p = eqn.params
    if p["cond_jaxpr"].jaxpr.outvars[0].aval.shape != () or not eqn.outvars:
        return False  # a batched predicate (vmap of while), or no carry: the impl's loop
    ncc, nbc = p["cond_nconsts"], p["body_nconsts"]
    nk = len(eqn.invars) - ncc - nbc
    cond_cj, cond_ops = _sink(em, p["cond_jaxpr"], eqn.invars[:ncc] + [None] * nk)
    body_cj, body_ops = _sink(em, p["body_jaxpr"], eqn.invars[ncc:ncc + nbc] + [None] * nk)
    cond, body = _body(cond_cj), _body(body_cj)
    init = [em.name(v) for v in eqn.invars[ncc + nbc:]]
    cc = [em.name(v) for v in cond_ops[:len(cond_ops) - nk]]
    bc = [em.name(v) for v in body_ops[:len(body_ops) - nk]]
    lines = em.lines
    carry = [em.fresh("_k") for _ in init]
    lines.append(f"{ind}{', '.join(carry)}, = {', '.join(init)},  # while")
    lines.append(f"{ind}while True:")
    body_ind = ind + "  "
    _bind_inputs(em, cond, cc + carry)
    em.loop_depth += 1
    em.block(cond.eqns, cond.outvars, body_ind)
    lines.append(f"{body_ind}if not {em.name(cond.outvars[0])}:")
    lines.append(f"{body_ind}  break")
    _bind_inputs(em, body, bc + carry)
    em.block(body.eqns, body.outvars, body_ind)
    em.loop_depth -= 1
    lines.append(f"{body_ind}{', '.join(carry)}, = {', '.join(em.name(v) for v in body.outvars)},")
    for v, n in zip(eqn.outvars, carry):
        em.names[v] = n
    return True


def emit_cond(em, eqn, ind) -> bool:
    from .cpu import _Program
    if eqn.invars[0].aval.shape != ():
        return False   # (a batched index)
    sunk = [_sink(em, b, eqn.invars[1:]) for b in eqn.params["branches"]]
    branches = [_body(b) for b, _ in sunk]
    if not all(type(b) is _Program for b in branches):
        return False   # (a branch interpreted op by op: bfloat16 without ml_dtypes)
    index = em.name(eqn.invars[0])
    lines = em.lines
    outs = [em.fresh("_o") for _ in eqn.outvars]
    last = len(branches) - 1
    for k, prog in enumerate(branches):
        # the index is clamped into range, as lax.switch's
        if k == last:
            head = "else:" if k else "if True:"
        elif k == 0:
            head = f"if {index} <= 0:"
        else:
            head = f"elif {index} == {k}:"
        lines.append(f"{ind}{head}  # cond branch {k}")
        _bind_inputs(em, prog, [em.name(v) for v in sunk[k][1]])
        em.block(prog.eqns, prog.outvars, ind + "  ")
        if outs:
            lines.append(f"{ind}  {', '.join(outs)}, = {', '.join(em.name(v) for v in prog.outvars)},")
        else:
            lines.append(f"{ind}  pass")
    for v, n in zip(eqn.outvars, outs):
        em.names[v] = n
    return True


EMITTERS = {"scan": emit_scan, "while": emit_while, "cond": emit_cond}
