"""The second ring's README / quick-start examples (issue 24): jaxopt, optimistix, lineax, diffrax,
numpyro, blackjax, dm-haiku, distrax. Each workload is the library's own example as its README or
getting-started page writes it, at small sizes (fewer MCMC draws, smaller data), returning a dict of
arrays. Run unchanged on real JAX (record_ring2.py writes ring2_golden.json) and on gradpad
(tests/test_ecosystem_ring2.py compares).

Keys starting with "draw" are seeded random draws: compared bit for bit. The rest: rtol 1e-3.
Where a README draws data with an unseeded numpy generator, the workload seeds it first (the only
change to the example)."""
from __future__ import annotations

import numpy as np

import jax
import jax.numpy as jnp

# ---------------------------------------------------------------------------------------- jaxopt


def _ridge_data():
    rng = np.random.RandomState(0)
    X = rng.randn(30, 5).astype(np.float32)
    y = (X @ np.arange(1, 6, dtype=np.float32) + 0.1 * rng.randn(30)).astype(np.float32)
    return X, y


def jaxopt_lbfgs_ridge_implicit_diff():
    # jaxopt docs, quick start: ridge regression with LBFGS, then the solution's Jacobian in l2reg
    import jaxopt
    X, y = _ridge_data()

    def ridge_reg_objective(params, l2reg, X, y):
        residuals = jnp.dot(X, params) - y
        return jnp.mean(residuals ** 2) + 0.5 * l2reg * jnp.sum(params ** 2)

    def ridge_reg_solution(l2reg):
        w_init = jnp.zeros(X.shape[1])
        solver = jaxopt.LBFGS(fun=ridge_reg_objective, maxiter=100)
        return solver.run(w_init, l2reg=l2reg, X=X, y=y).params
    return {"w": ridge_reg_solution(0.1), "dw_dl2reg": jax.jacobian(ridge_reg_solution)(0.1)}


def jaxopt_gradient_descent_vmap():
    # "batchable": vmap over the regularization strength
    import jaxopt
    X, y = _ridge_data()

    def fun(w, l2reg):
        return jnp.mean((X @ w - y) ** 2) + l2reg * jnp.sum(w ** 2)

    def solve(l2reg):
        return jaxopt.GradientDescent(fun=fun, maxiter=200, stepsize=0.05).run(jnp.zeros(5), l2reg).params
    return {"ws": jax.vmap(solve)(jnp.array([0.01, 0.1, 1.0]))}


def jaxopt_proximal_gradient_lasso():
    import jaxopt
    from jaxopt.prox import prox_lasso
    X, y = _ridge_data()

    def least_squares(w, data):
        inputs, targets = data
        return 0.5 * jnp.mean((inputs @ w - targets) ** 2)
    pg = jaxopt.ProximalGradient(fun=least_squares, prox=prox_lasso, maxiter=300)
    res = pg.run(jnp.zeros(5), hyperparams_prox=0.5, data=(X, y))
    return {"w": res.params, "iters": res.state.iter_num}


def jaxopt_bisection_root():
    import jaxopt

    def F(x, factor):
        return factor * x ** 3 - x - 2
    bisec = jaxopt.Bisection(optimality_fun=F, lower=1, upper=2)
    return {"root": bisec.run(factor=2.0).params,
            "droot": jax.grad(lambda f: bisec.run(factor=f).params)(2.0)}


def jaxopt_levenberg_marquardt():
    import jaxopt
    t = jnp.linspace(0.0, 2.0, 20)
    obs = 3.0 * jnp.exp(-1.3 * t) + 0.5

    def residual(p, t, obs):
        return p[0] * jnp.exp(-p[1] * t) + p[2] - obs
    lm = jaxopt.LevenbergMarquardt(residual_fun=residual, maxiter=50)
    gn = jaxopt.GaussNewton(residual_fun=residual, maxiter=50)
    return {"lm": lm.run(jnp.array([1.0, 1.0, 0.0]), t, obs).params,
            "gn": gn.run(jnp.array([2.5, 1.0, 0.3]), t, obs).params}


def jaxopt_scipy_minimize():
    import jaxopt

    def rosenbrock(x):
        return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2)
    res = jaxopt.ScipyMinimize(fun=rosenbrock, method="BFGS").run(jnp.array([-1.0, 1.5, 0.5]))
    return {"x": res.params}


def jaxopt_osqp_qp():
    # jaxopt docs, quadratic programming: min 1/2 x^T Q x + c^T x  s.t. Ax = b, Gx <= h
    import jaxopt
    Q = 2 * jnp.array([[2.0, 0.5], [0.5, 1.0]])
    c = jnp.array([1.0, 1.0])
    A = jnp.array([[1.0, 1.0]])
    b = jnp.array([1.0])
    G = jnp.array([[-1.0, 0.0], [0.0, -1.0]])
    h = jnp.array([0.0, 0.0])
    qp = jaxopt.OSQP(tol=1e-6)
    sol = qp.run(params_obj=(Q, c), params_eq=(A, b), params_ineq=(G, h)).params
    return {"primal": sol.primal}


# ---------------------------------------------------------------------------------------- optimistix


def optimistix_readme_fixed_point():
    import optimistix as optx
    y0 = jnp.array(1.)
    dt = jnp.array(0.1)

    def fn(y, args):
        return y0 + jnp.tanh(y) * dt
    solver = optx.Newton(rtol=1e-5, atol=1e-5)
    sol = optx.fixed_point(fn, solver, y0)
    return {"y1": sol.value, "residual": sol.value - fn(sol.value, None)}


def optimistix_minimise_bfgs():
    import optimistix as optx

    def rosenbrock(y, args):
        return jnp.sum(100.0 * (y[1:] - y[:-1] ** 2) ** 2 + (1 - y[:-1]) ** 2)
    sol = optx.minimise(rosenbrock, optx.BFGS(rtol=1e-6, atol=1e-6), jnp.array([-1.2, 1.0]))
    return {"y": sol.value, "steps": sol.stats["num_steps"]}


def optimistix_root_find_and_grad():
    import optimistix as optx

    def fn(y, a):
        return y ** 3 + a * y - 1.0

    def root(a):
        return optx.root_find(fn, optx.Newton(rtol=1e-8, atol=1e-8), jnp.array(1.0), args=a).value
    return {"root": root(2.0), "droot_da": jax.grad(root)(2.0)}


def optimistix_least_squares_lm():
    import optimistix as optx
    t = jnp.linspace(0.0, 2.0, 20)
    obs = 3.0 * jnp.exp(-1.3 * t) + 0.5

    def residual(p, args):
        return p[0] * jnp.exp(-p[1] * t) + p[2] - obs
    sol = optx.least_squares(residual, optx.LevenbergMarquardt(rtol=1e-8, atol=1e-8), jnp.array([1.0, 1.0, 0.0]))
    return {"p": sol.value}


# ---------------------------------------------------------------------------------------- lineax


def lineax_readme_qr_least_squares():
    import jax.random as jr
    import lineax as lx
    matrix_key, vector_key = jr.split(jr.PRNGKey(0))
    matrix = jr.normal(matrix_key, (10, 8))
    vector = jr.normal(vector_key, (10,))
    operator = lx.MatrixLinearOperator(matrix)
    solution = lx.linear_solve(operator, vector, solver=lx.QR())
    return {"draw_matrix": matrix, "x": solution.value}


def lineax_readme_jacobian_cg():
    import lineax as lx
    key = jax.random.PRNGKey(0)
    y = jax.random.normal(key, (10,))

    def quadratic_fn(y, args):
        return jax.numpy.sum((y - 1)**2)
    gradient_fn = jax.grad(quadratic_fn)
    hessian = lx.JacobianLinearOperator(gradient_fn, y, tags=lx.positive_semidefinite_tag)
    solver = lx.CG(rtol=1e-6, atol=1e-6)
    out = lx.linear_solve(hessian, gradient_fn(y, args=None), solver)
    minimum = y - out.value
    return {"draw_y": y, "minimum": minimum}


def lineax_lu_cholesky_grad():
    import lineax as lx
    A = jnp.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
    b = jnp.array([1.0, 2.0, 3.0])
    lu = lx.linear_solve(lx.MatrixLinearOperator(A), b, solver=lx.LU()).value
    chol = lx.linear_solve(lx.MatrixLinearOperator(A, lx.positive_semidefinite_tag), b, solver=lx.Cholesky()).value

    def loss(A):
        return jnp.sum(lx.linear_solve(lx.MatrixLinearOperator(A), b).value ** 2)
    return {"lu": lu, "chol": chol, "dloss_dA": jax.grad(loss)(A)}


# ---------------------------------------------------------------------------------------- diffrax


def diffrax_readme_dopri5():
    from diffrax import diffeqsolve, ODETerm, Dopri5

    def f(t, y, args):
        return -y
    term = ODETerm(f)
    solver = Dopri5()
    y0 = jnp.array([2., 3.])
    solution = diffeqsolve(term, solver, t0=0, t1=1, dt0=0.1, y0=y0)
    return {"ys": solution.ys, "ts": solution.ts}


def diffrax_lotka_volterra_saveat_pid():
    # diffrax docs, getting started: Lotka-Volterra with Tsit5, SaveAt(ts=...) and a PID controller
    import diffrax

    def vector_field(t, y, args):
        prey, predator = y
        α, β, γ, δ = args
        d_prey = α * prey - β * prey * predator
        d_predator = -γ * predator + δ * prey * predator
        return d_prey, d_predator
    term = diffrax.ODETerm(vector_field)
    solver = diffrax.Tsit5()
    t0, t1 = 0, 10
    saveat = diffrax.SaveAt(ts=jnp.linspace(t0, t1, 11))
    stepsize_controller = diffrax.PIDController(rtol=1e-5, atol=1e-5)
    sol = diffrax.diffeqsolve(term, solver, t0, t1, dt0=0.1, y0=(10.0, 10.0), args=(0.1, 0.02, 0.4, 0.02),
                              saveat=saveat, stepsize_controller=stepsize_controller)
    return {"prey": sol.ys[0], "predator": sol.ys[1], "steps": sol.stats["num_steps"]}


def diffrax_grad_wrt_parameter():
    # an ODE solution's gradient with respect to a parameter (backpropagation through the solver)
    import diffrax

    def solve(k):
        term = diffrax.ODETerm(lambda t, y, args: -args * y)
        sol = diffrax.diffeqsolve(term, diffrax.Tsit5(), 0.0, 2.0, 0.1, jnp.array(1.0), args=k,
                                  stepsize_controller=diffrax.PIDController(rtol=1e-6, atol=1e-6))
        return sol.ys[-1]
    return {"y1": solve(0.7), "dy1_dk": jax.grad(solve)(0.7)}


def diffrax_sde_virtual_brownian_tree():
    # diffrax docs, getting started: an SDE with a VirtualBrownianTree, Euler, dense output
    import jax.random as jr
    from diffrax import diffeqsolve, ControlTerm, Euler, MultiTerm, ODETerm, SaveAt, VirtualBrownianTree
    t0, t1 = 1, 3
    drift = lambda t, y, args: -y  # noqa: E731
    diffusion = lambda t, y, args: 0.1 * t  # noqa: E731
    brownian_motion = VirtualBrownianTree(t0, t1, tol=1e-3, shape=(), key=jr.PRNGKey(0))
    terms = MultiTerm(ODETerm(drift), ControlTerm(diffusion, brownian_motion))
    solver = Euler()
    saveat = SaveAt(dense=True)
    sol = diffeqsolve(terms, solver, t0, t1, dt0=0.05, y0=1.0, saveat=saveat)
    return {"y_1_1": sol.evaluate(1.1), "y_2_5": sol.evaluate(2.5)}


def diffrax_stiff_kvaerno5():
    # Robertson's stiff chemical kinetics with an implicit solver (diffrax's stiff ODE example)
    import diffrax

    def robertson(t, y, args):
        k1, k2, k3 = 0.04, 3e7, 1e4
        y1, y2, y3 = y
        return jnp.stack([-k1 * y1 + k3 * y2 * y3, k1 * y1 - k2 * y2 ** 2 - k3 * y2 * y3, k2 * y2 ** 2])
    sol = diffrax.diffeqsolve(diffrax.ODETerm(robertson), diffrax.Kvaerno5(), 0.0, 10.0, 0.001,
                              jnp.array([1.0, 0.0, 0.0]), saveat=diffrax.SaveAt(ts=jnp.array([1.0, 10.0])),
                              stepsize_controller=diffrax.PIDController(rtol=1e-4, atol=1e-7))
    return {"ys": sol.ys}


# ---------------------------------------------------------------------------------------- numpyro

J = 8
Y8 = np.array([28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0])
SIGMA8 = np.array([15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0])


def _eight_schools(J, sigma, y=None):
    import numpyro
    import numpyro.distributions as dist
    mu = numpyro.sample('mu', dist.Normal(0, 5))
    tau = numpyro.sample('tau', dist.HalfCauchy(5))
    with numpyro.plate('J', J):
        theta = numpyro.sample('theta', dist.Normal(mu, tau))
        numpyro.sample('obs', dist.Normal(theta, sigma), obs=y)


def numpyro_distributions():
    import numpyro.distributions as dist
    from jax import random
    key = random.key(0)
    n = dist.Normal(jnp.array([0.0, 1.0]), 2.0)
    g = dist.Gamma(2.0, 3.0)
    return {"draw_normal": n.sample(key, (3,)), "draw_gamma": g.sample(key, (4,)),
            "draw_dirichlet": dist.Dirichlet(jnp.array([1.0, 2.0, 3.0])).sample(key),
            "lp_normal": n.log_prob(jnp.array([0.5, -0.5])), "lp_beta": dist.Beta(2.0, 5.0).log_prob(0.3),
            "lp_halfcauchy": dist.HalfCauchy(5).log_prob(2.0)}


def numpyro_readme_eight_schools_nuts():
    from jax import random
    from numpyro.infer import MCMC, NUTS
    nuts_kernel = NUTS(_eight_schools)
    mcmc = MCMC(nuts_kernel, num_warmup=50, num_samples=50, progress_bar=False)
    rng_key = random.key(0)
    mcmc.run(rng_key, J, SIGMA8, y=Y8, extra_fields=('potential_energy',))
    s = mcmc.get_samples()
    pe = mcmc.get_extra_fields()['potential_energy']
    return {"mu": s["mu"], "tau": s["tau"], "theta_mean": s["theta"].mean(0), "potential_energy": pe}


def numpyro_nuts_first_transition():
    # the README's NUTS kernel stepped by hand: its initial state (potential energy and gradient,
    # computed eagerly) and its first jitted warmup transition, bit for bit (the "draw" keys); the
    # chain's first value apart from JAX was the initial gradient (a division by tau, a sum of 8)
    from jax import random
    from numpyro.infer import NUTS
    kernel = NUTS(_eight_schools)
    state = kernel.init(random.key(0), 50, None, (J, SIGMA8), {"y": Y8})
    out = {"draw_init_theta_grad": state.z_grad["theta"], "draw_init_tau_grad": state.z_grad["tau"],
           "draw_init_mu_grad": state.z_grad["mu"], "draw_init_potential_energy": state.potential_energy}
    state = jax.jit(lambda s: kernel.sample(s, (J, SIGMA8), {"y": Y8}))(state)
    out.update(draw_step1_theta=state.z["theta"], draw_step1_tau=state.z["tau"],
               draw_step1_potential_energy=state.potential_energy, draw_step1_step_size=state.adapt_state.step_size)
    return out


def numpyro_readme_noncentered_and_predictive():
    import numpyro
    import numpyro.distributions as dist
    from jax import random
    from numpyro.infer import MCMC, NUTS, Predictive
    from numpyro.infer.reparam import TransformReparam

    def eight_schools_noncentered(J, sigma, y=None):
        mu = numpyro.sample('mu', dist.Normal(0, 5))
        tau = numpyro.sample('tau', dist.HalfCauchy(5))
        with numpyro.plate('J', J):
            with numpyro.handlers.reparam(config={'theta': TransformReparam()}):
                theta = numpyro.sample(
                    'theta',
                    dist.TransformedDistribution(dist.Normal(0., 1.),
                                                 dist.transforms.AffineTransform(mu, tau)))
            numpyro.sample('obs', dist.Normal(theta, sigma), obs=y)
    nuts_kernel = NUTS(eight_schools_noncentered)
    mcmc = MCMC(nuts_kernel, num_warmup=50, num_samples=50, progress_bar=False)
    mcmc.run(random.key(0), J, SIGMA8, y=Y8, extra_fields=('potential_energy',))

    def new_school():
        mu = numpyro.sample('mu', dist.Normal(0, 5))
        tau = numpyro.sample('tau', dist.HalfCauchy(5))
        return numpyro.sample('obs', dist.Normal(mu, tau))
    predictive = Predictive(new_school, mcmc.get_samples())
    samples_predictive = predictive(random.key(1))
    return {"mu": mcmc.get_samples()["mu"], "potential_energy": mcmc.get_extra_fields()['potential_energy'],
            "obs": samples_predictive['obs']}


def numpyro_svi_beta_coin():
    # numpyro docs, SVI: a coin's fairness with a Beta guide (the gamma shape gradient)
    import numpyro
    import numpyro.distributions as dist
    from jax import random
    from numpyro.distributions import constraints
    from numpyro.infer import SVI, Trace_ELBO

    def model(data):
        f = numpyro.sample("latent_fairness", dist.Beta(10, 10))
        with numpyro.plate("N", data.shape[0] if data is not None else 10):
            numpyro.sample("obs", dist.Bernoulli(f), obs=data)

    def guide(data):
        alpha_q = numpyro.param("alpha_q", 15., constraint=constraints.positive)
        beta_q = numpyro.param("beta_q", lambda rng_key: random.exponential(rng_key),
                               constraint=constraints.positive)
        numpyro.sample("latent_fairness", dist.Beta(alpha_q, beta_q))
    data = jnp.concatenate([jnp.ones(6), jnp.zeros(4)])
    optimizer = numpyro.optim.Adam(step_size=0.0005)
    svi = SVI(model, guide, optimizer, loss=Trace_ELBO())
    svi_result = svi.run(random.PRNGKey(0), 200, data, progress_bar=False)
    return {"alpha_q": svi_result.params["alpha_q"], "beta_q": svi_result.params["beta_q"],
            "losses": svi_result.losses}


def numpyro_svi_autonormal_regression():
    # numpyro's Bayesian regression with an AutoNormal guide
    import numpyro
    import numpyro.distributions as dist
    from jax import random
    from numpyro.infer import SVI, Trace_ELBO
    from numpyro.infer.autoguide import AutoNormal
    x = jnp.linspace(-1.0, 1.0, 20)
    y = 2.0 * x + 0.5 + 0.1 * jnp.sin(7 * x)

    def model(x, y=None):
        a = numpyro.sample("a", dist.Normal(0.0, 1.0))
        b = numpyro.sample("b", dist.Normal(0.0, 1.0))
        sigma = numpyro.sample("sigma", dist.Exponential(1.0))
        with numpyro.plate("data", x.shape[0]):
            numpyro.sample("y", dist.Normal(a + b * x, sigma), obs=y)
    guide = AutoNormal(model)
    svi = SVI(model, guide, numpyro.optim.Adam(0.05), Trace_ELBO())
    res = svi.run(random.PRNGKey(1), 100, x, y, progress_bar=False)
    return {"losses": res.losses, "median_b": guide.median(res.params)["b"]}


# ---------------------------------------------------------------------------------------- blackjax


def blackjax_readme_nuts():
    import jax.scipy.stats as stats
    import blackjax
    np.random.seed(0)  # the README's data come from an unseeded generator
    observed = np.random.normal(10, 20, size=1_000)

    def logdensity_fn(x):
        logpdf = stats.norm.logpdf(observed, x["loc"], x["scale"])
        return jnp.sum(logpdf)
    step_size = 1e-3
    inverse_mass_matrix = jnp.array([1., 1.])
    nuts = blackjax.nuts(logdensity_fn, step_size, inverse_mass_matrix)
    initial_position = {"loc": 1., "scale": 2.}
    state = nuts.init(initial_position)
    rng_key = jax.random.key(0)
    step = jax.jit(nuts.step)
    for i in range(20):
        nuts_key = jax.random.fold_in(rng_key, i)
        state, _ = step(nuts_key, state)
    return {"loc": state.position["loc"], "scale": state.position["scale"], "logdensity": state.logdensity}


def _inference_loop(rng_key, kernel, initial_state, num_samples):
    # blackjax docs: the inference loop as a lax.scan
    @jax.jit
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state
    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)
    return states


def _normal_logdensity(x):
    return -0.5 * jnp.sum(((x - jnp.array([1.0, -2.0])) / jnp.array([1.0, 0.5])) ** 2)


def blackjax_hmc_scan():
    import blackjax
    hmc = blackjax.hmc(_normal_logdensity, step_size=0.2, inverse_mass_matrix=jnp.ones(2), num_integration_steps=10)
    states = _inference_loop(jax.random.key(1), hmc.step, hmc.init(jnp.zeros(2)), 30)
    return {"positions": states.position}


def blackjax_window_adaptation():
    import blackjax
    warmup = blackjax.window_adaptation(blackjax.nuts, _normal_logdensity)
    (state, parameters), _ = warmup.run(jax.random.key(2), jnp.zeros(2), num_steps=30)
    kernel = blackjax.nuts(_normal_logdensity, **parameters).step
    states = _inference_loop(jax.random.key(3), kernel, state, 20)
    return {"step_size": parameters["step_size"], "imm": parameters["inverse_mass_matrix"],
            "positions": states.position}


def blackjax_rmh_mala():
    import blackjax
    rmh = blackjax.rmh(_normal_logdensity, blackjax.mcmc.random_walk.normal(jnp.array([0.5, 0.5])))
    mala = blackjax.mala(_normal_logdensity, step_size=0.1)
    return {"draw_rmh": _inference_loop(jax.random.key(4), rmh.step, rmh.init(jnp.zeros(2)), 30).position,
            "mala": _inference_loop(jax.random.key(5), mala.step, mala.init(jnp.zeros(2)), 30).position}


# ---------------------------------------------------------------------------------------- dm-haiku


def haiku_readme_mlp_training():
    import haiku as hk

    def softmax_cross_entropy(logits, labels):
        one_hot = jax.nn.one_hot(labels, logits.shape[-1])
        return -jnp.sum(jax.nn.log_softmax(logits) * one_hot, axis=-1)

    def loss_fn(images, labels):
        mlp = hk.Sequential([
            hk.Linear(30), jax.nn.relu,
            hk.Linear(10), jax.nn.relu,
            hk.Linear(10),
        ])
        logits = mlp(images)
        return jnp.mean(softmax_cross_entropy(logits, labels))
    rng_np = np.random.RandomState(0)
    input_dataset = iter([(rng_np.randn(8, 12).astype(np.float32), rng_np.randint(0, 10, 8)) for _ in range(4)])
    loss_fn_t = hk.transform(loss_fn)
    loss_fn_t = hk.without_apply_rng(loss_fn_t)
    rng = jax.random.PRNGKey(42)
    dummy_images, dummy_labels = next(input_dataset)
    params = loss_fn_t.init(rng, dummy_images, dummy_labels)

    def update_rule(param, update):
        return param - 0.01 * update
    for images, labels in input_dataset:
        grads = jax.grad(loss_fn_t.apply)(params, images, labels)
        params = jax.tree.map(update_rule, params, grads)
    return {"w0": params["linear"]["w"], "b2": params["linear_2"]["b"],
            "loss": loss_fn_t.apply(params, dummy_images, dummy_labels)}


def haiku_readme_my_linear():
    import haiku as hk

    class MyLinear(hk.Module):
        def __init__(self, output_size, name=None):
            super().__init__(name=name)
            self.output_size = output_size

        def __call__(self, x):
            j, k = x.shape[-1], self.output_size
            w_init = hk.initializers.TruncatedNormal(1. / np.sqrt(j))
            w = hk.get_parameter("w", shape=[j, k], dtype=x.dtype, init=w_init)
            b = hk.get_parameter("b", shape=[k], dtype=x.dtype, init=jnp.zeros)
            return jnp.dot(x, w) + b

    def forward_fn(x):
        model = MyLinear(10)
        return model(x)
    forward = hk.transform(forward_fn)
    x = jnp.ones([1, 1])
    key = hk.PRNGSequence(42)
    params = forward.init(next(key), x)
    y = forward.apply(params, None, x)
    return {"draw_w": params["my_linear"]["w"], "y": y}


def haiku_dropout_next_rng_key():
    import haiku as hk

    def f(x):
        x = hk.Linear(6)(x)
        return hk.dropout(hk.next_rng_key(), 0.5, x)
    t = hk.transform(f)
    x = jnp.ones([2, 3])
    params = t.init(jax.random.PRNGKey(0), x)
    return {"y": t.apply(params, jax.random.PRNGKey(1), x)}


def haiku_batchnorm_state_jit():
    import haiku as hk

    def f(x, is_training):
        return hk.BatchNorm(True, True, 0.9)(hk.Linear(4)(x), is_training)
    t = hk.transform_with_state(f)
    x = jnp.arange(12.0).reshape(3, 4) / 7.0
    params, state = t.init(jax.random.PRNGKey(0), x, True)
    apply = jax.jit(t.apply, static_argnums=(4,))
    y, state = apply(params, state, None, x, True)
    y2, _ = apply(params, state, None, x, False)
    return {"y": y, "y_eval": y2, "mean_ema": state["batch_norm/~/mean_ema"]["average"]}


def haiku_lstm_dynamic_unroll():
    import haiku as hk

    def f(xs):
        core = hk.LSTM(5)
        out, _ = hk.dynamic_unroll(core, xs, core.initial_state(2))
        return out
    t = hk.without_apply_rng(hk.transform(f))
    xs = jnp.sin(jnp.arange(24.0)).reshape(4, 2, 3)
    params = t.init(jax.random.PRNGKey(0), xs)
    return {"out": t.apply(params, xs)}


# ---------------------------------------------------------------------------------------- distrax


def distrax_readme_mvn_vs_tfp():
    import distrax
    from tensorflow_probability.substrates import jax as tfp
    tfd = tfp.distributions
    key = jax.random.PRNGKey(1234)
    mu = jnp.array([-1., 0., 1.])
    sigma = jnp.array([0.1, 0.2, 0.3])
    dist_distrax = distrax.MultivariateNormalDiag(mu, sigma)
    dist_tfp = tfd.MultivariateNormalDiag(mu, sigma)
    samples = dist_distrax.sample(seed=key)
    return {"draw_samples": samples, "lp_distrax": dist_distrax.log_prob(samples),
            "lp_tfp": dist_tfp.log_prob(samples)}


def distrax_readme_kl():
    import distrax
    from tensorflow_probability.substrates import jax as tfp
    tfd = tfp.distributions
    mu_0 = jnp.array([-1., 0., 1.])
    sigma_0 = jnp.array([0.1, 0.2, 0.3])
    dist_distrax = distrax.MultivariateNormalDiag(mu_0, sigma_0)
    mu_1 = jnp.array([1., 2., 3.])
    sigma_1 = jnp.array([0.2, 0.3, 0.4])
    dist_tfp = tfd.MultivariateNormalDiag(mu_1, sigma_1)
    return {"kl_distrax": dist_distrax.kl_divergence(dist_tfp), "kl_tfp": tfd.kl_divergence(dist_distrax, dist_tfp)}


def distrax_readme_sample_and_log_prob():
    import distrax
    key = jax.random.PRNGKey(1234)
    mu = jnp.array([-1., 0., 1.])
    sigma = jnp.array([0.1, 0.2, 0.3])
    dist_distrax = distrax.MultivariateNormalDiag(mu, sigma)
    samples, log_prob = dist_distrax.sample_and_log_prob(seed=key, sample_shape=())
    return {"draw_samples": samples, "log_prob": log_prob}


def distrax_readme_meta_distributions():
    import distrax
    from tensorflow_probability.substrates import jax as tfp
    tfd = tfp.distributions
    key = jax.random.PRNGKey(1234)
    mu = jnp.array([-1., 0., 1.])
    sigma = jnp.array([0.2, 0.3, 0.4])
    dist_tfp = tfd.Normal(mu, sigma)
    metadist_distrax = distrax.Independent(dist_tfp, reinterpreted_batch_ndims=1)
    samples = metadist_distrax.sample(seed=key)
    distrax_dist = distrax.Normal(0., 1.)
    wrapped_dist = distrax.to_tfp(distrax_dist)
    metadist_tfp = tfd.Sample(wrapped_dist, sample_shape=[3])
    samples2 = metadist_tfp.sample(seed=key)
    return {"draw_independent": samples, "lp_independent": metadist_distrax.log_prob(samples),
            "draw_sample": samples2, "lp_sample": metadist_tfp.log_prob(samples2)}


def distrax_readme_bijectors():
    import distrax
    from tensorflow_probability.substrates import jax as tfp
    tfb = tfp.bijectors
    x = jnp.linspace(-1.0, 1.0, 24).reshape(2, 3, 4)
    bij_tfp = tfb.Tanh()
    ld_1 = bij_tfp.forward_log_det_jacobian(x, event_ndims=0)
    bij_distrax = distrax.Tanh()
    ld_2 = bij_distrax.forward_log_det_jacobian(x)
    ld_3 = bij_tfp.forward_log_det_jacobian(x, event_ndims=2)
    ld_4 = distrax.Block(bij_distrax, ndims=2).forward_log_det_jacobian(x)
    y, ld = bij_distrax.forward_and_log_det(x)
    chain = distrax.Chain([tfb.Tanh(), distrax.Lambda(lambda x: 2 * x + 3)])
    inv = distrax.Inverse(bij_distrax)
    td = distrax.Transformed(distrax.Normal(loc=0., scale=1.), distrax.Tanh())
    return {"ld_1": ld_1, "ld_2": ld_2, "ld_3": ld_3, "ld_4": ld_4, "y": y, "ld": ld,
            "chain": chain.forward(x[0, 0]), "inv": inv.forward(jnp.array([0.1, -0.5])),
            "td_lp": td.log_prob(jnp.array([0.3, -0.2]))}


def distrax_readme_jit():
    # README "Jitting Distrax": distributions and bijectors as arguments of jitted functions
    import distrax

    @jax.jit
    def sample_and_lp(dist, key):
        return dist.sample_and_log_prob(seed=key, sample_shape=(2,))
    d = distrax.Normal(jnp.array([0.0, 1.0]), jnp.array([1.0, 0.5]))
    s, lp = sample_and_lp(d, jax.random.PRNGKey(0))
    return {"draw_s": s, "lp": lp}


WORKLOADS = {name: fn for name, fn in globals().items()
             if callable(fn) and name.split("_")[0] in ("jaxopt", "optimistix", "lineax", "diffrax", "numpyro",
                                                       "blackjax", "haiku", "distrax")}
LIBRARIES = ("jaxopt", "optimistix", "lineax", "diffrax", "numpyro", "blackjax", "haiku", "distrax")


def encode(res: dict) -> dict:
    return {k: {"shape": list(np.shape(v)), "dtype": str(np.asarray(v).dtype), "value": np.asarray(v).tolist()}
            for k, v in res.items()}


def run(names) -> dict:
    """name -> {key: {'shape', 'dtype', 'value'}} or {'error': first failure} for each named workload."""
    out = {}
    for name in names:
        try:
            out[name] = encode(WORKLOADS[name]())
        except Exception as e:  # noqa: BLE001  (reported per workload)
            out[name] = {"error": f"{type(e).__name__}: {e}"[:2000]}
    return out


if __name__ == "__main__":
    import json
    import sys
    wanted = sys.argv[1:] or list(WORKLOADS)
    names = [n for n in WORKLOADS if any(n == w or n.startswith(w + "_") for w in wanted)]
    print(json.dumps(run(names)))
