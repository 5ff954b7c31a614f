"""`jax.scipy.spatial.transform`: Rotation (3-d rotations stored as unit quaternions (x, y, z, w), one
or a stack of them) and Slerp (spherical linear interpolation between key rotations), after
scipy.spatial.transform. Both are NamedTuples of arrays, so they pass through jit, grad and vmap.

Every helper below works on one quaternion (or matrix, or vector) and is lifted over leading axes by
jnp.vectorize, so a Rotation may hold any stack of quaternions."""
from __future__ import annotations

import functools
import re
import typing

import numpy as np

from ...numpy import linalg as jnp_linalg
from ... import numpy as jnp
from ....base.config import State

_AXIS_NUMBER = {"x": 0, "y": 1, "z": 2}


def _vectorized(signature):
    return functools.partial(jnp.vectorize, signature=signature)


def _axis_number(axis):
    if axis not in _AXIS_NUMBER:
        raise ValueError(f"Expected axis to be from ['x', 'y', 'z'], got {axis}")
    return _AXIS_NUMBER[axis]


def _check_seq(seq):
    """(intrinsic, extrinsic) for an axis string: upper case XYZ rotates about the moving axes,
    lower case xyz about the fixed ones; one kind only, no axis twice in a row."""
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ValueError(f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}")
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ValueError(f"Expected consecutive axes to be different, got {seq}")
    return intrinsic, extrinsic


class Rotation(typing.NamedTuple):
    """A rotation in 3-d, or a stack of them: `quat` is (..., 4), scalar last (x, y, z, w)."""
    quat: typing.Any

    @classmethod
    def concatenate(cls, rotations: typing.Sequence):
        return cls(jnp.concatenate([r.quat for r in rotations]))

    @classmethod
    def from_euler(cls, seq: str, angles, degrees: bool = False):
        if len(seq) < 1 or len(seq) > 3:
            raise ValueError("Expected axis specification to be a non-empty string of upto 3 characters, "
                             f"got {seq}")
        intrinsic, _ = _check_seq(seq)
        angles = jnp.atleast_1d(angles)
        axes = jnp.array([_axis_number(a) for a in seq.lower()])
        return cls(_quat_from_elementary(angles, axes, intrinsic, degrees))

    @classmethod
    def from_matrix(cls, matrix):
        return cls(_quat_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp):
        return cls(_quat_from_mrp(mrp))

    @classmethod
    def from_quat(cls, quat):
        return cls(_normalized(quat))

    @classmethod
    def from_rotvec(cls, rotvec, degrees: bool = False):
        return cls(_quat_from_rotvec(rotvec, degrees))

    @classmethod
    def identity(cls, num: int | None = None, dtype=float):
        if num is not None:
            raise NotImplementedError("Rotation.identity(num=...) is not supported (JAX's neither): stack "
                                      "identities with Rotation.from_quat(jnp.tile(jnp.array([0., 0., 0., 1.]), (num, 1)))")
        return cls(jnp.array([0.0, 0.0, 0.0, 1.0], dtype=dtype))

    @classmethod
    def random(cls, random_key, num: int | None = None):
        raise NotImplementedError("Rotation.random is not implemented in JAX 0.10.2: draw "
                                  "jax.random.normal(key, (num, 4)) and pass it to Rotation.from_quat")

    def __getitem__(self, indexer):
        if self.single:
            raise TypeError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self):
        if self.single:
            raise TypeError("Single rotation has no len().")
        return self.quat.shape[0]

    def __mul__(self, other) -> "Rotation":
        """self * other: apply `other` first, then `self`."""
        return Rotation.from_quat(_quat_product(self.quat, other.quat))

    def apply(self, vectors, inverse: bool = False):
        return _rotate(self.as_matrix(), vectors, inverse)

    def as_euler(self, seq: str, degrees: bool = False):
        if len(seq) != 3:
            raise ValueError(f"Expected 3 axes, got {seq}.")
        _, extrinsic = _check_seq(seq)
        axes = jnp.array([_axis_number(a) for a in seq.lower()])
        with State("jax_numpy_rank_promotion")("allow"):
            return _euler_from_quat(self.quat, axes, extrinsic, degrees)

    def as_matrix(self):
        return _matrix_from_quat(self.quat)

    def as_mrp(self):
        return _mrp_from_quat(self.quat)

    def as_rotvec(self, degrees: bool = False):
        return _rotvec_from_quat(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False):
        quat = _canonical(self.quat) if canonical else self.quat
        return jnp.roll(quat, shift=1, axis=-1) if scalar_first else quat

    def inv(self):
        return Rotation(_conjugate(self.quat))

    def magnitude(self):
        return _angle(self.quat)

    def mean(self, weights=None):
        """The (weighted) mean rotation: the top eigenvector of sum w q q^T (Markley et al.)."""
        w = (jnp.ones(self.quat.shape[0], dtype=self.quat.dtype) if weights is None
             else jnp.asarray(weights, dtype=self.quat.dtype))
        if w.ndim != 1:
            raise ValueError(f"Expected `weights` to be 1 dimensional, got shape {w.shape}.")
        if w.shape[0] != len(self):
            raise ValueError("Expected `weights` to have number of values equal to number of rotations, got "
                             f"{w.shape[0]} values and {len(self)} rotations.")
        k = jnp.dot(w[np.newaxis, :] * self.quat.T, self.quat)
        _, vectors = jnp_linalg.eigh(k)
        return Rotation(vectors[:, -1])

    @property
    def single(self) -> bool:
        """Whether this is one rotation (quat of shape (4,)) rather than a stack."""
        return self.quat.ndim == 1


class Slerp(typing.NamedTuple):
    """Interpolates between rotations given at increasing `times`: build it with Slerp.init(times,
    rotations), then call it with the times wanted."""
    times: typing.Any
    timedelta: typing.Any
    rotations: Rotation
    rotvecs: typing.Any

    @classmethod
    def init(cls, times, rotations: Rotation):
        if not isinstance(rotations, Rotation):
            raise TypeError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ValueError("`rotations` must be a sequence of at least 2 rotations.")
        times = jnp.asarray(times, dtype=rotations.quat.dtype)
        if times.ndim != 1:
            raise ValueError(f"Expected times to be specified in a 1 dimensional array, got {times.ndim} dimensions.")
        if times.shape[0] != len(rotations):
            raise ValueError("Expected number of rotations to be equal to number of timestamps given, got "
                             f"{len(rotations)} rotations and {times.shape[0]} timestamps.")
        starts = Rotation(rotations.as_quat()[:-1])
        # each step as a rotation vector: start^-1 * end
        steps = (starts.inv() * Rotation(rotations.as_quat()[1:])).as_rotvec()
        return cls(times=times, timedelta=jnp.diff(times), rotations=starts, rotvecs=steps)

    def __call__(self, times):
        t = jnp.asarray(times, dtype=self.times.dtype)
        if t.ndim > 1:
            raise ValueError("`times` must be at most 1-dimensional.")
        one_time = t.ndim == 0
        t = jnp.atleast_1d(t)
        segment = jnp.maximum(jnp.searchsorted(self.times, t) - 1, 0)
        alpha = (t - self.times[segment]) / self.timedelta[segment]
        result = self.rotations[segment] * Rotation.from_rotvec(self.rotvecs[segment] * alpha[:, None])
        return result[0] if one_time else result


@_vectorized("(m,m),(m),()->(m)")
def _rotate(matrix, vector, inverse):
    return jnp.where(inverse, matrix.T, matrix) @ vector


@_vectorized("(m)->(n,n)")
def _matrix_from_quat(quat):
    x, y, z, w = quat[0], quat[1], quat[2], quat[3]
    xx, yy, zz, ww = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    return jnp.array([[+xx - yy - zz + ww, 2 * (xy - zw), 2 * (xz + yw)],
                      [2 * (xy + zw), -xx + yy - zz + ww, 2 * (yz - xw)],
                      [2 * (xz - yw), 2 * (yz + xw), -xx - yy + zz + ww]])


@_vectorized("(m)->(n)")
def _mrp_from_quat(quat):
    # modified Rodrigues parameters of the quaternion with w >= 0: v / (1 + w)
    sign = jnp.where(quat[3] < 0, -1.0, 1.0)
    return sign * quat[:3] / (1.0 + sign * quat[3])


@_vectorized("(m),()->(n)")
def _rotvec_from_quat(quat, degrees):
    quat = jnp.where(quat[3] < 0, -quat, quat)
    angle = 2.0 * jnp.arctan2(_norm(quat[:3]), quat[3])
    a2 = angle * angle
    # angle / sin(angle / 2), by its series near 0 (where the quotient is 0/0)
    series = 2 + a2 / 12 + 7 * a2 * a2 / 2880
    scale = jnp.where(angle <= 1e-3, series, angle / jnp.sin(angle / 2))
    scale = jnp.where(degrees, jnp.rad2deg(scale), scale)
    return scale * jnp.array(quat[:3])


@_vectorized("(n),(n)->(n)")
def _quat_product(p, q):
    cross = jnp.cross(p[:3], q[:3])
    return jnp.array([p[3] * q[0] + q[3] * p[0] + cross[0],
                      p[3] * q[1] + q[3] * p[1] + cross[1],
                      p[3] * q[2] + q[3] * p[2] + cross[2],
                      p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2]])


@_vectorized("(m),(l),(),()->(n)")
def _euler_from_quat(quat, axes, extrinsic, degrees):
    """Bernardes and Viollet's direct method (2022), as scipy uses, for proper (i == k) and Tait-Bryan
    axis sequences; branch-free so that it traces."""
    first = jnp.where(extrinsic, 0, 2)
    third = jnp.where(extrinsic, 2, 0)
    axes = jnp.where(extrinsic, axes, axes[::-1])
    i, j, k = axes[0], axes[1], axes[2]
    proper = i == k
    k = jnp.where(proper, 3 - i - j, k)
    sign = jnp.array((i - j) * (j - k) * (k - i) // 2, dtype=quat.dtype)
    eps = 1e-7
    a = jnp.where(proper, quat[3], quat[3] - quat[j])
    b = jnp.where(proper, quat[i], quat[i] + quat[k] * sign)
    c = jnp.where(proper, quat[j], quat[j] + quat[3])
    d = jnp.where(proper, quat[k] * sign, quat[k] * sign - quat[i])
    angles = jnp.zeros(3, dtype=quat.dtype)
    angles = angles.at[1].set(2 * jnp.arctan2(jnp.hypot(c, d), jnp.hypot(a, b)))
    # gimbal lock: the middle angle 0 (case 1) or pi (case 2) leaves only a sum or a difference defined
    case = jnp.where(jnp.abs(angles[1] - np.pi) <= eps, 2, 0)
    case = jnp.where(jnp.abs(angles[1]) <= eps, 1, case)
    half_sum = jnp.arctan2(b, a)
    half_diff = jnp.arctan2(d, c)
    angles = angles.at[0].set(jnp.where(case == 1, 2 * half_sum, 2 * half_diff * jnp.where(extrinsic, -1, 1)))
    angles = angles.at[first].set(jnp.where(case == 0, half_sum - half_diff, angles[first]))
    angles = angles.at[third].set(jnp.where(case == 0, half_sum + half_diff, angles[third]))
    angles = angles.at[third].set(jnp.where(proper, angles[third], angles[third] * sign))
    angles = angles.at[1].set(jnp.where(proper, angles[1], angles[1] - np.pi / 2))
    angles = (angles + np.pi) % (2 * np.pi) - np.pi
    return jnp.where(degrees, jnp.rad2deg(angles), angles)


@_vectorized("(),()->(n)")
def _elementary_quat(axis, angle):
    quat = jnp.zeros(4, dtype=angle.dtype)
    quat = quat.at[3].set(jnp.cos(angle / 2.0))
    return quat.at[axis].set(jnp.sin(angle / 2.0))


@_vectorized("(m),(m),(),()->(n)")
def _quat_from_elementary(angles, axes, intrinsic, degrees):
    angles = jnp.where(degrees, jnp.deg2rad(angles), angles)
    result = _elementary_quat(axes[0], angles[0])
    for n in range(1, len(axes)):
        step = _elementary_quat(axes[n], angles[n])
        # intrinsic: each turn about the already-turned axes (multiply on the right)
        result = jnp.where(intrinsic, _quat_product(result, step), _quat_product(step, result))
    return result


@_vectorized("(m),()->(n)")
def _quat_from_rotvec(rotvec, degrees):
    rotvec = jnp.where(degrees, jnp.deg2rad(rotvec), rotvec)
    angle = _norm(rotvec)
    a2 = angle * angle
    # sin(angle / 2) / angle, by its series near 0
    series = 0.5 - a2 / 48 + a2 * a2 / 3840
    scale = jnp.where(angle <= 1e-3, series, jnp.sin(angle / 2) / angle)
    return jnp.hstack([scale * rotvec, jnp.cos(angle / 2)])


@_vectorized("(m,m)->(n)")
def _quat_from_matrix(matrix):
    """Shepperd's method: build the quaternion from the largest of the diagonal and the trace, so
    that no square root or division is of a small number."""
    trace = matrix[0, 0] + matrix[1, 1] + matrix[2, 2]
    decision = jnp.array([matrix[0, 0], matrix[1, 1], matrix[2, 2], trace], dtype=matrix.dtype)
    choice = jnp.argmax(decision)
    i = choice
    j = (i + 1) % 3
    k = (j + 1) % 3
    from_diagonal = jnp.empty(4, dtype=matrix.dtype)
    from_diagonal = from_diagonal.at[i].set(1 - decision[3] + 2 * matrix[i, i])
    from_diagonal = from_diagonal.at[j].set(matrix[j, i] + matrix[i, j])
    from_diagonal = from_diagonal.at[k].set(matrix[k, i] + matrix[i, k])
    from_diagonal = from_diagonal.at[3].set(matrix[k, j] - matrix[j, k])
    from_trace = jnp.empty(4, dtype=matrix.dtype)
    from_trace = from_trace.at[0].set(matrix[2, 1] - matrix[1, 2])
    from_trace = from_trace.at[1].set(matrix[0, 2] - matrix[2, 0])
    from_trace = from_trace.at[2].set(matrix[1, 0] - matrix[0, 1])
    from_trace = from_trace.at[3].set(1 + decision[3])
    return _normalized(jnp.where(choice != 3, from_diagonal, from_trace))


@_vectorized("(m)->(n)")
def _quat_from_mrp(mrp):
    denominator = jnp.dot(mrp, mrp) + 1
    return jnp.hstack([2 * mrp[:3], 2 - denominator]) / denominator


@_vectorized("(n)->(n)")
def _conjugate(quat):
    return quat * jnp.array([-1, -1, -1, 1], dtype=quat.dtype)


@_vectorized("(n)->()")
def _angle(quat):
    return 2.0 * jnp.arctan2(_norm(quat[:3]), jnp.abs(quat[3]))


@_vectorized("(n)->(n)")
def _normalized(quat):
    return quat / _norm(quat)


@_vectorized("(n)->()")
def _norm(vector):
    return jnp.sqrt(jnp.dot(vector, vector))


@_vectorized("(n)->(n)")
def _canonical(quat):
    """q or -q (the same rotation), whichever has w > 0 (or, where w == 0, the first nonzero of x, y, z
    positive)."""
    neg, zero = quat < 0, quat == 0
    flip = (neg[3] | (zero[3] & neg[0]) | (zero[3] & zero[0] & neg[1])
            | (zero[3] & zero[0] & zero[1] & neg[2]))
    return jnp.where(flip, -quat, quat)
