"""jax.scipy.stats.gaussian_kde: a Gaussian kernel density estimate (a pytree, so it passes
through jit and vmap), with scipy's bandwidth rules (issue 11, area "special")."""
from __future__ import annotations

import numpy as np

from ... import numpy as jnp
from ... import random
from ....base.tree_util import register_pytree_node_class
from .. import linalg, special

_FIELDS = ("neff", "dataset", "weights", "covariance", "inv_cov")


@register_pytree_node_class
class gaussian_kde:
    """Gaussian KDE of `dataset` (shape (n,) or (d, n)); bw_method 'scott' (default),
    'silverman', a scalar factor or a callable of the estimator; optional weights."""

    def __init__(self, dataset, bw_method=None, weights=None):
        dataset = jnp.atleast_2d(jnp.asarray(dataset))
        if dataset.dtype.kind == "c":
            raise NotImplementedError("gaussian_kde does not support complex data")
        if not dataset.size > 1:
            raise ValueError("`dataset` input should have multiple elements.")
        d, n = dataset.shape
        if weights is not None:
            dataset, weights = jnp._promote_dtypes_inexact(dataset, jnp.asarray(weights))
            weights = jnp.atleast_1d(weights)
            weights = weights / jnp.sum(weights)
            if weights.ndim != 1:
                raise ValueError("`weights` input should be one-dimensional.")
            if len(weights) != n:
                raise ValueError("`weights` input should be of length n")
        else:
            (dataset,) = jnp._promote_dtypes_inexact(dataset)
            weights = jnp.full(n, 1.0 / n, dtype=dataset.dtype)
        self._set("dataset", dataset)
        self._set("weights", weights)
        neff = self._set("neff", 1 / jnp.sum(weights ** 2))
        factor = self._bandwidth_factor("scott" if bw_method is None else bw_method, neff, d)
        data_cov = jnp.atleast_2d(jnp.cov(dataset, rowvar=1, bias=False, aweights=weights))
        self._set("covariance", data_cov * factor ** 2)
        self._set("inv_cov", jnp.linalg.inv(data_cov) / factor ** 2)

    def _bandwidth_factor(self, bw_method, neff, d):
        if isinstance(bw_method, str) and bw_method == "scott":
            return jnp.power(neff, -1. / (d + 4))
        if isinstance(bw_method, str) and bw_method == "silverman":
            return jnp.power(neff * (d + 2) / 4.0, -1. / (d + 4))
        if jnp.isscalar(bw_method) and not isinstance(bw_method, str):
            return bw_method
        if callable(bw_method):
            return bw_method(self)
        raise ValueError("`bw_method` should be 'scott', 'silverman', a scalar, or a callable.")

    def _set(self, name, value):
        object.__setattr__(self, name, value)
        return value

    def tree_flatten(self):
        return tuple(getattr(self, f) for f in _FIELDS), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        kde = cls.__new__(cls)
        for name, value in zip(_FIELDS, children):
            kde._set(name, value)
        return kde

    @property
    def d(self):
        return self.dataset.shape[0]

    @property
    def n(self):
        return self.dataset.shape[1]

    def _points(self, points):
        points = jnp.asarray(points)
        if points.dtype.kind == "c":
            raise NotImplementedError("gaussian_kde does not support complex coordinates")
        points = jnp.atleast_2d(points)
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                return jnp.reshape(points, (self.d, 1))
            raise ValueError(f"points have dimension {d}, dataset has dimension {self.d}")
        return points

    def _log_kernel_terms(self, points):
        """log(weight_i) + log N(x_j; data_i, covariance) for every data point i, query j."""
        data, weights, xi, precision = jnp._promote_dtypes_inexact(self.dataset.T, self.weights, points.T, self.inv_cov)
        whitening = jnp.linalg.cholesky(precision)
        data, xi = data @ whitening, xi @ whitening
        log_norm = jnp.sum(jnp.log(jnp.diag(whitening))) - 0.5 * self.d * np.log(2 * np.pi)
        sq = jnp.sum(jnp.square(data[None, :, :] - xi[:, None, :]), axis=-1)   # (queries, data)
        return log_norm - 0.5 * sq, weights

    def evaluate(self, points):
        arg, weights = self._log_kernel_terms(self._points(points))
        return jnp.sum(weights[None, :] * jnp.exp(arg), axis=1)

    __call__ = evaluate
    pdf = evaluate

    def logpdf(self, x):
        arg, weights = self._log_kernel_terms(self._points(x))
        return special.logsumexp(jnp.log(weights)[None, :] + arg, axis=1)

    def _convolve(self, chol, norm, target, weights, mean):
        diff = target - mean[:, None]
        alpha = linalg.cho_solve(chol, diff)
        return norm * jnp.sum(jnp.exp(-0.5 * jnp.sum(diff * alpha, axis=0)) * weights)

    def _cho_and_norm(self, cov):
        chol = linalg.cho_factor(self.covariance + cov)
        return chol, 1.0 / (jnp.sqrt(2 * np.pi) ** self.d * jnp.prod(jnp.diag(chol[0])))

    def integrate_gaussian(self, mean, cov):
        mean = jnp.atleast_1d(jnp.squeeze(jnp.asarray(mean)))
        cov = jnp.atleast_2d(jnp.asarray(cov))
        if mean.shape != (self.d,):
            raise ValueError(f"mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"covariance does not have dimension {self.d}")
        chol, norm = self._cho_and_norm(cov)
        return self._convolve(chol, norm, self.dataset, self.weights, mean)

    def integrate_box_1d(self, low, high):
        if self.d != 1:
            raise ValueError("integrate_box_1d() only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("the limits of integration in integrate_box_1d must be scalars")
        sigma = jnp.squeeze(jnp.sqrt(self.covariance))
        low = jnp.squeeze((low - self.dataset) / sigma)
        high = jnp.squeeze((high - self.dataset) / sigma)
        return jnp.sum(self.weights * (special.ndtr(high) - special.ndtr(low)))

    def integrate_kde(self, other):
        if other.d != self.d:
            raise ValueError("KDEs are not the same dimensionality")
        chol, norm = self._cho_and_norm(other.covariance)
        small, large = (self, other) if self.n < other.n else (other, self)
        per_point = jnp.stack([self._convolve(chol, norm, large.dataset, large.weights, small.dataset[:, i])
                               for i in range(small.n)])
        return jnp.sum(per_point * small.weights)

    def resample(self, key, shape=()):
        """(d,) + shape samples: a data point drawn by weight, plus kernel noise."""
        ind_key, eps_key = random.split(key)
        ind = random.choice(ind_key, self.n, shape=shape, p=self.weights)
        eps = random.multivariate_normal(eps_key, jnp.zeros(self.d, self.covariance.dtype), self.covariance,
                                         shape=shape, dtype=self.dataset.dtype).T
        return self.dataset[:, ind] + eps

    def integrate_box(self, low_bounds, high_bounds, maxpts=None):
        raise NotImplementedError("only 1D box integrations are supported; use `integrate_box_1d`")

    def set_bandwidth(self, bw_method=None):
        raise NotImplementedError("dynamically changing the bandwidth method is not supported")
