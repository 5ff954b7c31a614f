"""Case definitions for einsum11_cases.json: jnp.einsum / einsum_path / linalg.multi_dot contract in
the order JAX's opt_einsum picks (optimize='auto' by default: 'optimal' up to 4 operands, branch-and-bound
up to 14, then greedy), and each step lowers as JAX's einsum lowers it (which operand goes first in the
dot_general, transposes, delta masks for repeated labels, sums of one-sided labels). Recorded from real
JAX 0.10.2 (area "einsum11"). gradpad contracted left to right with its own lowering before."""
from casebook import recorder

CASES, C, E = recorder()

J = "jp = lambda f, *a: str(jax.make_jaxpr(f)(*a))\n"
R = "r = lambda *s: [jnp.arange(int(np.prod(t)), dtype=jnp.float32).reshape(t) % 5 - 2 for t in s]\n"

# ---------------------------------------------------------------- the docstring's chain: path choice in the jaxpr
C("einsum11_chain_jaxpr_optimize_modes", "einsum11", J + R +
  "x, y, z = r((2, 3), (3, 100), (100, 5))\n"
  "out = [jp(lambda x, y, z: jnp.einsum('ij,jk,kl', x, y, z, optimize=o), x, y, z)\n"
  "       for o in ('auto', False, True, 'greedy', 'optimal', 'branch-all', 'branch-2', 'eager', [(0, 1), (0, 1)], [(1, 2), (0, 1)])]")
C("einsum11_chain_values_optimize_modes", "einsum11", R +
  "w, x, y, z = r((2, 2), (2, 3), (3, 2), (2, 3))\n"
  "out = [jnp.einsum('ij,jk,kl,lm->im', w, x, y, z, optimize=o) for o in ('auto', False, 'greedy', [(2, 3), (0, 1), (0, 1)])]")

# ---------------------------------------------------------------- two operands: operand order and transposes
C("einsum11_pair_jaxprs", "einsum11", J + R +
  "a, b, c = r((3, 4), (4, 5), (3, 4))\n"
  "bt, bu = r((2, 3, 4), (2, 4, 5))\n"
  "out = [jp(lambda a, b: jnp.einsum('ij,jk->ki', a, b), a, b), jp(lambda a, b: jnp.einsum('ij,jk->ik', a, b), a, b),\n"
  "       jp(lambda a, c: jnp.einsum('ij,ij->', a, c), a, c), jp(lambda a, c: jnp.einsum('ij,ij->i', a, c), a, c),\n"
  "       jp(lambda a, c: jnp.einsum('ij,ij->ji', a, c), a, c), jp(lambda a, b: jnp.einsum('ij,kl->ljki', a, b), a, b),\n"
  "       jp(lambda x, y: jnp.einsum('bij,bjk->bik', x, y), bt, bu), jp(lambda x, y: jnp.einsum('bij,bjk->kbi', x, y), bt, bu),\n"
  "       jp(lambda x, y: jnp.einsum('bij,bjk', x, y), bt, bu), jp(lambda x, y: jnp.einsum('...ij,...jk->...ki', x, y), bt, bu),\n"
  "       jp(lambda a, b: jnp.einsum('ij,jk->', a, b), a, b), jp(lambda a: jnp.einsum('ij->ji', a), a)]")
C("einsum11_repeated_labels_jaxprs", "einsum11", J + R +
  "m, t3, t4 = r((3, 3), (2, 2, 2), (2, 2, 3))\n"
  "out = [jp(lambda m: jnp.einsum('ii->i', m), m), jp(lambda m: jnp.einsum('ii', m), m),\n"
  "       jp(lambda t: jnp.einsum('iii->i', t), t3), jp(lambda t: jnp.einsum('iij->ij', t), t4),\n"
  "       jp(lambda t: jnp.einsum('iji->j', t), t3), jp(lambda m, v: jnp.einsum('ii,i->i', m, v), m, m[0]),\n"
  "       jp(lambda m, n: jnp.einsum('ij,jj->i', m, n), m, m)]")
C("einsum11_dtypes_jaxprs", "einsum11", J +
  "f, i, b = jnp.ones((2, 3)), jnp.ones((3, 4), jnp.int32), jnp.ones((3,), bool)\n"
  "out = [jp(lambda f, i: jnp.einsum('ij,jk', f, i), f, i), jp(lambda f, i: jnp.einsum('ij,jk->', f, i), f, i),\n"
  "       jp(lambda b: jnp.einsum('i->', b), b), jp(lambda i: jnp.einsum('ij,jk', i.T, i), i),\n"
  "       jp(lambda i: jnp.einsum('ij,jk', i.T, i, preferred_element_type=jnp.float32), i),\n"
  "       jp(lambda i: jnp.einsum('ij->', i, preferred_element_type=jnp.float32), i),\n"
  "       jp(lambda b, f: jnp.einsum('j,ij->i', b, f), b, f), "
  "       jp(lambda x: jnp.einsum('ij->i', x), jnp.ones((2, 3), jnp.bfloat16))]")
C("einsum11_singleton_broadcast_jaxprs", "einsum11", J + R +
  "a, b, c = r((1, 3), (4, 3), (3, 1))\n"
  "out = [jp(lambda a, b: jnp.einsum('ij,ij->ij', a, b), a, b), jp(lambda a, b: jnp.einsum('ij,ij->j', a, b), a, b),\n"
  "       jp(lambda a, c: jnp.einsum('ij,jk->ik', a, c), a, c), jnp.einsum('ij,ij->i', a, b), jnp.einsum('ij,ij->j', a, b)]")

# ---------------------------------------------------------------- more operands: optimal, branch and greedy searches
C("einsum11_many_operands_jaxprs", "einsum11", J + R +
  "ops5 = r((2, 3), (3, 4), (4, 5), (5, 6), (6, 2))\n"
  "ops7 = r((2, 3), (3, 4), (4, 2), (2, 5), (5, 3), (3, 2), (2, 4))\n"
  "out = [jp(lambda *o: jnp.einsum('ab,bc,cd,de,ea->', *o), *ops5),\n"
  "       jp(lambda *o: jnp.einsum('ab,bc,cd,de,ea->', *o, optimize='greedy'), *ops5),\n"
  "       jp(lambda *o: jnp.einsum('ab,bc,cd,de,ef,fg,gh->ah', *o), *ops7),\n"
  "       jp(lambda *o: jnp.einsum('ab,bc,cd,de,ef,fg,gh->ah', *o, optimize='greedy'), *ops7),\n"
  "       jp(lambda *o: jnp.einsum('ab,bc,cd,de,ef,fg,gh->ah', *o, optimize=False), *ops7),\n"
  "       jnp.einsum('ab,bc,cd,de,ef,fg,gh->ah', *ops7), jnp.einsum('ab,bc,cd,de,ea->', *ops5)]")
C("einsum11_hadamard_and_outer_jaxprs", "einsum11", J + R +
  "a, b, c, d = r((3, 4), (3, 4), (3, 4), (5,))\n"
  "out = [jp(lambda *o: jnp.einsum('ij,ij,ij->i', *o), a, b, c), jp(lambda *o: jnp.einsum('ij,ij,ij->i', *o, optimize='greedy'), a, b, c),\n"
  "       jp(lambda *o: jnp.einsum('ij,k,ij->kj', *o), a, d, b), jp(lambda *o: jnp.einsum('i,j,k->kji', *o), d, d[:3], d[:2]),\n"
  "       jp(lambda *o: jnp.einsum('i,j,k->kji', *o, optimize='greedy'), d, d[:3], d[:2])]")
C("einsum11_sublists_and_ellipsis_jaxprs", "einsum11", J + R +
  "x, y, z = r((2, 3), (3, 4), (4, 5))\n"
  "b3, b4 = r((6, 2, 3), (6, 3, 4))\n"
  "out = [jp(lambda x, y, z: jnp.einsum(x, [0, 1], y, [1, 2], z, [2, 3]), x, y, z),\n"
  "       jp(lambda x, y, z: jnp.einsum(x, [30, 1], y, [1, 27], z, [27, 3], [3, 30]), x, y, z),\n"
  "       jp(lambda x, y: jnp.einsum(x, [..., 0, 1], y, [..., 1, 2]), b3, b4),\n"
  "       jp(lambda x, y, z: jnp.einsum('...ij,...jk,kl', x, y, z), b3, b4, z),\n"
  "       jp(lambda x, y: jnp.einsum('bij,...jk', x, y), b3, y)]")

# ---------------------------------------------------------------- einsum_path: paths and reports
C("einsum11_einsum_path_modes", "einsum11", R +
  "ops = r((2, 3), (3, 4), (4, 5), (5, 6), (6, 2))\n"
  "ops7 = r((2, 3), (3, 4), (4, 2), (2, 5), (5, 3), (3, 2), (2, 4))\n"
  "out = [(str(o), *[str(v) for v in jnp.einsum_path('ab,bc,cd,de,ea->', *ops, optimize=o)])\n"
  "       for o in ('auto', 'greedy', 'optimal', 'branch-all', 'branch-2', 'branch-1', False, True, [(0, 4), (0, 1), (0, 1), (0, 1)])]\n"
  "out += [(str(o), *[str(v) for v in jnp.einsum_path('ab,bc,cd,de,ef,fg,gh->ah', *ops7, optimize=o)]) for o in ('auto', 'greedy')]")
C("einsum11_einsum_path_forms", "einsum11", R +
  "x, y, z = r((2, 3), (3, 4), (4, 5))\n"
  "b3, b4 = r((6, 2, 3), (6, 3, 4))\n"
  "out = [str(v) for v in jnp.einsum_path(x, [0, 1], y, [1, 2], z, [2, 3])]\n"
  "out += [str(v) for v in jnp.einsum_path('...ij,...jk,kl', b3, b4, z)]\n"
  "out += [str(v) for v in jnp.einsum_path('ij,jk', x, y)] + [str(v) for v in jnp.einsum_path('ii->i', b4[0, :3, :3])]\n"
  "out += [str(v) for v in jnp.einsum_path('ij,jk,kl->il', *jax.tree.map(lambda a: a[:1], [x, y, z]))]")

# ---------------------------------------------------------------- linalg.multi_dot: an einsum in the cheapest order
C("einsum11_multi_dot_jaxprs", "einsum11", J + R +
  "x, y, z, w = r((2, 3), (3, 100), (100, 5), (5, 4))\n"
  "v = jnp.arange(3.0)\n"
  "out = [jp(lambda a: jnp.linalg.multi_dot(a), [x, y, z]), jp(lambda a: jnp.linalg.multi_dot(a), [x, y, z, w]),\n"
  "       jp(lambda a: jnp.linalg.multi_dot(a), [v, y, z]), jp(lambda a: jnp.linalg.multi_dot(a), [x, v]),\n"
  "       jp(lambda a: jnp.linalg.multi_dot(a, precision='highest'), [x, y]),\n"
  "       jnp.linalg.multi_dot([x, y, z, w]), jnp.linalg.multi_dot([v, y, z])]")
# (JAX's argument check returns a lone array itself, so a list of one matrix chains that matrix's rows)
C("einsum11_multi_dot_one_array", "einsum11", "out = (jnp.linalg.multi_dot([jnp.arange(4.0).reshape(2, 2)]), "
  "jnp.linalg.multi_dot(jnp.arange(8.0).reshape(2, 2, 2)))")
E("einsum11_multi_dot_one_vector", "einsum11", "out = jnp.linalg.multi_dot([jnp.ones(2)])")
E("einsum11_multi_dot_one_tall_matrix", "einsum11", "out = jnp.linalg.multi_dot([jnp.ones((3, 2))])")
E("einsum11_scalar_for_vector", "einsum11", "out = jnp.einsum('i,i', jnp.ones(3), 2.0)")
E("einsum11_multi_dot_rank", "einsum11", "out = jnp.linalg.multi_dot([jnp.ones((2, 2)), jnp.ones((2, 2, 2)), jnp.ones(2)])")
E("einsum11_multi_dot_mismatch", "einsum11", "out = jnp.linalg.multi_dot([jnp.ones((2, 3)), jnp.ones((2, 2))])")

# ---------------------------------------------------------------- errors
E("einsum11_three_operand_step", "einsum11",
  "out = jnp.einsum('ij,jk,kl', jnp.ones((2, 2)), jnp.ones((2, 2)), jnp.ones((2, 2)), optimize=[(0, 1, 2)])")
E("einsum11_unknown_optimizer", "einsum11", "out = jnp.einsum('ij,jk,kl', *[jnp.ones((2, 2))] * 3, optimize='fastest')",
  msg_prefix=40)
E("einsum11_out_argument", "einsum11", "out = jnp.einsum('ij->ji', jnp.ones((2, 2)), out=jnp.ones((2, 2)))")
E("einsum11_wrong_subscript_count", "einsum11", "out = jnp.einsum('ij,jk', jnp.ones((2, 2)))")
E("einsum11_wrong_rank", "einsum11", "out = jnp.einsum('ijk,jk', jnp.ones((2, 2)), jnp.ones((2, 2)))")
E("einsum11_size_mismatch", "einsum11", "out = jnp.einsum('ij,jk', jnp.ones((2, 3)), jnp.ones((2, 2)))")
E("einsum11_bad_ellipsis", "einsum11", "out = jnp.einsum('..i,i', jnp.ones((2, 2)), jnp.ones(2))")
E("einsum11_two_arrows", "einsum11", "out = jnp.einsum('i->i->i', jnp.ones(2))")
E("einsum11_output_twice", "einsum11", "out = jnp.einsum('ij->ii', jnp.ones((2, 2)))")
E("einsum11_output_unknown", "einsum11", "out = jnp.einsum('ij->ik', jnp.ones((2, 2)))")
E("einsum11_list_operand", "einsum11", "out = jnp.einsum('i,i', [1.0, 2.0], jnp.ones(2))")

# ---------------------------------------------------------------- vmap of dot_general: mapped axes stay in place
# JAX's batching rule rewrites the dimension numbers around the mapped axes (one more batch dimension
# when both sides are mapped, a free dimension when one is) and transposes nothing; gradpad moved the
# mapped axes to the front first (a transpose per mapped operand in the jaxpr).
C("einsum11_vmap_dot_general_jaxprs", "einsum11", J + R +
  "x, y = r((2, 3), (3, 4))\n"
  "out = [jp(jax.vmap(lambda v: y @ v, in_axes=1), jnp.ones((4, 5))), jp(jax.vmap(lambda v: x @ v), jnp.ones((5, 3))),\n"
  "       jp(jax.vmap(lambda v: v @ y, in_axes=1), jnp.ones((3, 5))),\n"
  "       jp(jax.vmap(lambda v: lax.dot_general(y, v, (((1,), (0,)), ((), ()))), in_axes=1), jnp.ones((4, 5, 2))),\n"
  "       jp(jax.vmap(lambda a, b: a @ b, in_axes=(0, 1)), jnp.ones((5, 2, 3)), jnp.ones((3, 5, 4))),\n"
  "       jp(jax.vmap(lambda a, b: a @ b, in_axes=(2, 1)), jnp.ones((2, 3, 5)), jnp.ones((3, 5, 4))),\n"
  "       jp(jax.vmap(lambda a, b: jnp.einsum('bij,bjk->bik', a, b), in_axes=(1, None)), jnp.ones((2, 5, 3, 4)), jnp.ones((2, 4, 6))),\n"
  "       jp(jax.vmap(lambda a, b: jnp.einsum('bij,bjk->kb', a, b), in_axes=(None, 3)), jnp.ones((2, 3, 4)), jnp.ones((2, 4, 6, 5))),\n"
  "       jax.vmap(lambda a, b: a @ b, in_axes=(2, 1))(*r((2, 3, 5), (3, 5, 4))),\n"
  "       jax.vmap(lambda v: y @ v, in_axes=1)(r((4, 5))[0])]")

# ---------------------------------------------------------------- grad of a sum: the broadcast's dimensions are numpy ints
# JAX's reduce_sum transpose rule computes them with np.delete(np.arange(...)), so its jaxpr prints np.int64(1)
C("einsum11_grad_sum_jaxprs", "einsum11", J +
  "x = jnp.arange(6.0).reshape(2, 3)\n"
  "out = [jp(jax.grad(lambda x: jnp.sum(x, axis=1).sum()), x), jp(jax.grad(lambda x: (x.sum(0) * 2).sum()), x),\n"
  "       jp(jax.grad(lambda x: jnp.einsum('ij,jk,kl->', x, x.T, x)), x), jax.grad(lambda x: jnp.einsum('ij,jk,kl->', x, x.T, x))(x)]")

# ---------------------------------------------------------------- many random specs: the searches' tie-breaking
# (a small linear congruential generator picks 4-10 operands of up to 4 labels from 'abcdefgh' with sizes
# 1-6; each spec's path under every named optimizer, and the report's text under 'auto')
C("einsum11_random_spec_paths", "einsum11",
  "state = [12345]\n"
  "def rnd(n):\n"
  "    state[0] = (state[0] * 1103515245 + 12345) % 2 ** 31\n"
  "    return (state[0] >> 16) % n\n"
  "out = []\n"
  "for case in range(40):\n"
  "    sizes = {c: 1 + rnd(6) for c in 'abcdefgh'}\n"
  "    terms = [''.join(sorted(set('abcdefgh'[rnd(8)] for _ in range(1 + rnd(4))))) for _ in range(4 + rnd(7))]\n"
  "    labels = sorted(set(''.join(terms)))\n"
  "    spec = ','.join(terms) + '->' + ''.join(labels[:rnd(3)])\n"
  "    ops = [jnp.zeros(tuple(sizes[c] for c in t)) for t in terms]\n"
  "    paths = [jnp.einsum_path(spec, *ops, optimize=o)[0] for o in ('auto', 'greedy', 'optimal' if len(ops) < 7 else 'branch-2', 'branch-1')]\n"
  "    out.append((spec, paths, str(jnp.einsum_path(spec, *ops)[1])))")

# ---------------------------------------------------------------- vmap of select_n: JAX's broadcast order
# (einsum's delta masks under vmap: JAX's rule keeps agreeing mapped axes in place and broadcasts `which`
# before the cases; gradpad broadcast the cases first)
C("einsum11_vmap_select_n_jaxprs", "einsum11", J + R +
  "m, t = r((2, 3, 3), (2, 4, 3, 3))\n"
  "out = [jp(jax.vmap(lambda a: jnp.einsum('ii->i', a)), m), jp(jax.vmap(lambda a, b: jnp.einsum('gdd,gba->gdba', a, b)), *r((2, 1, 4, 4), (2, 1, 3, 2))),\n"
  "       jp(jax.vmap(lambda a: jnp.einsum('ii', a), in_axes=1), t[0].transpose(1, 0, 2)),\n"
  "       jp(jax.vmap(lambda p, a: lax.select(p, a, -a), in_axes=(None, 0)), jnp.ones(3, bool), m[:, 0]),\n"
  "       jp(jax.vmap(lambda p, a: lax.select(p, a, -a), in_axes=(0, 1)), jnp.ones((3, 3), bool), m[0]),\n"
  "       jp(jax.vmap(lambda p, a: lax.select(p, a, -a), in_axes=(0, 0)), jnp.ones(2, bool), m[:, 0]),\n"
  "       jp(jax.vmap(lambda p, a, b: lax.select(p, a, b), in_axes=(None, 0, 1)), True, m[0], m[1]),\n"
  "       jp(jax.vmap(lambda p, a: lax.select(p, a, 1.0), in_axes=(0, None)), jnp.ones((2, 3), bool), 2.0),\n"
  "       jax.vmap(lambda a: jnp.einsum('ii->i', a), in_axes=1)(m.transpose(1, 0, 2)), jax.vmap(lambda p, a, b: lax.select(p, a, b), in_axes=(None, 0, 1))(True, m[0], m[1])]")

# ---------------------------------------------------------------- grad through a sum over no axes
# (reduce_sum's transpose adds no equation when nothing was summed: a 0-d einsum's grad, `jnp.sum(x, axis=())`)
C("einsum11_grad_sum_no_axes_jaxprs", "einsum11", J +
  "out = [jp(jax.grad(lambda a, b: jnp.sum(jnp.einsum(',->', a, b)), argnums=(0, 1)), 2.0, 3.0),\n"
  "       jp(jax.grad(lambda a: jnp.sum(jnp.einsum('->', a))), 2.0),\n"
  "       jp(jax.grad(lambda x: jnp.sum(x, axis=())[0, 0] + jnp.sum(x, axis=(0,))[1]), jnp.ones((2, 3))),\n"
  "       jax.grad(lambda a, b: jnp.sum(jnp.einsum(',a->', a, b)), argnums=(0, 1))(2.0, jnp.arange(3.0))]")
