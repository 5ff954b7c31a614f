"""The Schur decomposition A = Z T Z^H in numpy, by the route LAPACK's gees takes on the CPU
(what JAX 0.10.2 calls): Householder reduction to upper Hessenberg form (gehd2/orghr), then
the small-matrix Hessenberg QR iteration of hseqr (lahqr): Francis double-shift steps with
2x2 blocks standardised as lanv2 does for real input, single-shift steps with Wilkinson shifts
for complex input, the same deflation tests and exceptional shifts. A Schur form is not unique;
taking LAPACK's steps gives the eigenvalues in the same order on T's diagonal and the same
signs of Z's columns as JAX's (up to rounding). numpy has no gees, and scipy is not a
dependency of core.

The kernels work in the input's precision (float32 input takes float32 steps, as sgees does:
the order in which eigenvalues converge can depend on it) on 1-based copies (index 0 unused)
so that the loops read like the textbook algorithm. Returns (T, Z, ok); ok is False where the QR iteration did
not converge (gees' info > 0, which JAX turns into NaNs).
"""
from __future__ import annotations

import numpy as np

_EXCEPTIONAL_EVERY = 10                    # KEXSH
_DAT1, _DAT2 = 0.75, -0.4375


def _sign(a, b):
    """Fortran SIGN(a, b): |a| with the sign of b (b = -0.0 counts as negative)."""
    return np.copysign(abs(a), b)


def _ulp(x):
    return np.finfo(x.dtype).eps          # lamch('P') = eps * base


def _real(x):
    return x.real if np.iscomplexobj(x) else x


def _cabs1(z):
    return abs(z.real) + abs(z.imag)


def _householder(alpha, x):
    """larfg: (beta, tau, v_tail) with (I - tau v v^H)^H [alpha; x] = [beta; 0], v = [1; v_tail]."""
    ar, ai = np.real(alpha), np.imag(alpha)
    xnorm = np.sqrt(np.sum(np.abs(x) ** 2)) if len(x) else 0.0 * ar
    if xnorm == 0.0 and ai == 0.0:
        return alpha, 0.0 * alpha, np.zeros_like(x)
    beta = -_sign(np.hypot(np.hypot(ar, ai), xnorm), ar)
    if np.iscomplexobj(x):
        tau = ((beta - ar) / beta - 1j * (ai / beta)).astype(x.dtype)
    else:
        tau = (beta - ar) / beta
    return beta, tau, x * (1.0 / (alpha - beta))


def _hessenberg(a):
    """gehd2 + orghr on a 1-based copy: (H, Q) with A = Q H Q^H."""
    n = a.shape[0]
    h = np.zeros((n + 1, n + 1), a.dtype)
    h[1:, 1:] = a
    q = np.zeros_like(h)
    q[1:, 1:] = np.eye(n)
    for i in range(1, n):   # the last (1-element) reflector only makes a complex entry real
        beta, tau, tail = _householder(h[i + 1, i], h[i + 2:, i].copy())
        v = np.concatenate([np.ones(1, a.dtype), tail])
        # right: H[1:n, i+1:n] (I - tau v v^H); left: (I - tau v v^H)^H H[i+1:n, i+1:n]
        block = h[1:, i + 1:]
        block -= tau * np.outer(block @ v, v.conj())
        block = h[i + 1:, i + 1:]
        block -= np.conj(tau) * np.outer(v, v.conj() @ block)
        h[i + 1, i] = beta
        h[i + 2:, i] = 0
        cols = q[1:, i + 1:]
        cols -= tau * np.outer(cols @ v, v.conj())
    return h, q


# ---------------------------------------------------------------------------- real (dlahqr)

def _lanv2(a, b, c, d):
    """The standardised Schur factorisation of a real 2x2 block (dlanv2):
    returns (a, b, c, d, cs, sn); c == 0 unless the block has complex eigenvalues, in which
    case a == d and b*c < 0."""
    eps = _ulp(a)
    if c == 0.0:
        return a, b, c, d, 1.0, 0.0
    if b == 0.0:
        return d, -c, 0.0, a, 0.0, 1.0
    if (a - d) == 0.0 and _sign(1.0, b) != _sign(1.0, c):
        return a, b, c, d, 1.0, 0.0
    temp = a - d
    p = 0.5 * temp
    bcmax = max(abs(b), abs(c))
    bcmis = min(abs(b), abs(c)) * _sign(1.0, b) * _sign(1.0, c)
    scale = max(abs(p), bcmax)
    z = (p / scale) * p + (bcmax / scale) * bcmis
    if z >= 4.0 * eps:
        # real eigenvalues: make the block upper triangular
        z = p + _sign(np.sqrt(scale) * np.sqrt(z), p)
        a = d + z
        d = d - (bcmax / z) * bcmis
        tau = np.hypot(c, z)
        cs, sn = z / tau, c / tau
        return a, b - c, 0.0, d, cs, sn
    # complex or nearly equal real eigenvalues: make the diagonal elements equal
    sigma = b + c
    tau = np.hypot(sigma, temp)
    cs = np.sqrt(0.5 * (1.0 + abs(sigma) / tau))
    sn = -(p / (tau * cs)) * _sign(1.0, sigma)
    aa, bb = a * cs + b * sn, -a * sn + b * cs
    cc, dd = c * cs + d * sn, -c * sn + d * cs
    a, b = aa * cs + cc * sn, bb * cs + dd * sn
    c, d = -aa * sn + cc * cs, -bb * sn + dd * cs
    temp = 0.5 * (a + d)
    a = d = temp
    if c != 0.0:
        if b != 0.0:
            if _sign(1.0, b) == _sign(1.0, c):
                # real eigenvalues after all: reduce to upper triangular
                sab, sac = np.sqrt(abs(b)), np.sqrt(abs(c))
                p = _sign(sab * sac, c)
                tau = 1.0 / np.sqrt(abs(b + c))
                a, d = temp + p, temp - p
                b, c = b - c, 0.0
                cs1, sn1 = sab * tau, sac * tau
                cs, sn = cs * cs1 - sn * sn1, cs * sn1 + sn * cs1
        else:
            b, c = -c, 0.0
            cs, sn = -sn, cs
    return a, b, c, d, cs, sn


def _rot_rows(h, r1, r2, cols, cs, sn):
    x, y = h[r1, cols].copy(), h[r2, cols].copy()
    h[r1, cols] = cs * x + sn * y
    h[r2, cols] = cs * y - sn * x


def _rot_cols(h, c1, c2, rows, cs, sn):
    x, y = h[rows, c1].copy(), h[rows, c2].copy()
    h[rows, c1] = cs * x + sn * y
    h[rows, c2] = cs * y - sn * x


def _small_subdiagonal(h, k, lo, hi, smlnum, ulp, cabs=abs):
    """lahqr's deflation test for h[k, k-1] (Ahues & Tisseur's conservative criterion)."""
    sub = cabs(h[k, k - 1])
    if sub <= smlnum:
        return True
    tst = cabs(h[k - 1, k - 1]) + cabs(h[k, k])
    if tst == 0.0:
        if k - 2 >= lo:
            tst += abs(h[k - 1, k - 2].real)
        if k + 1 <= hi:
            tst += abs(h[k + 1, k].real)
    if abs(h[k, k - 1].real) > ulp * tst:
        return False
    ab = max(sub, cabs(h[k - 1, k]))
    ba = min(sub, cabs(h[k - 1, k]))
    aa = max(cabs(h[k, k]), cabs(h[k - 1, k - 1] - h[k, k]))
    bb = min(cabs(h[k, k]), cabs(h[k - 1, k - 1] - h[k, k]))
    s = aa + ab
    return ba * (ab / s) <= max(smlnum, ulp * (bb * (aa / s)))


def _real_shifts(h, i, l, kdefl):
    """The two shifts of a double-shift step (exceptional ones every 10th/20th try)."""
    if kdefl % (2 * _EXCEPTIONAL_EVERY) == 0:
        s = abs(h[i, i - 1]) + abs(h[i - 1, i - 2])
        h11, h12, h21 = _DAT1 * s + h[i, i], _DAT2 * s, s
        h22 = h11
    elif kdefl % _EXCEPTIONAL_EVERY == 0:
        s = abs(h[l + 1, l]) + abs(h[l + 2, l + 1])
        h11, h12, h21 = _DAT1 * s + h[l, l], _DAT2 * s, s
        h22 = h11
    else:
        h11, h21, h12, h22 = h[i - 1, i - 1], h[i, i - 1], h[i - 1, i], h[i, i]
    s = abs(h11) + abs(h12) + abs(h21) + abs(h22)
    if s == 0.0:
        return 0.0, 0.0, 0.0, 0.0
    h11, h21, h12, h22 = h11 / s, h21 / s, h12 / s, h22 / s
    tr = (h11 + h22) / 2.0
    det = (h11 - tr) * (h22 - tr) - h12 * h21
    rtdisc = np.sqrt(abs(det))
    if det >= 0.0:      # a complex conjugate pair
        return tr * s, rtdisc * s, tr * s, -rtdisc * s
    # two real shifts: use the one closer to h22 twice
    r1, r2 = tr + rtdisc, tr - rtdisc
    r = r1 if abs(r1 - h22) <= abs(r2 - h22) else r2
    return r * s, 0.0, r * s, 0.0


def _real_schur(a):
    n = a.shape[0]
    h, z = _hessenberg(a)
    ulp, safmin = _ulp(h), np.finfo(h.dtype).tiny
    ok = True
    if n > 2:
        for j in range(1, n - 2):
            h[j + 2, j] = h[j + 3, j] = 0.0
        h[n, n - 2] = 0.0
    smlnum = safmin * (n / ulp)
    itmax = 30 * max(10, n)
    kdefl = 0
    i = n
    while i >= 1:
        l = 1
        converged = False
        for _ in range(itmax + 1):
            k = i
            while k > l and not _small_subdiagonal(h, k, l, n, smlnum, ulp):
                k -= 1
            l = k
            if l > 1:
                h[l, l - 1] = 0.0
            if l >= i - 1:
                converged = True
                break
            kdefl += 1
            rt1r, rt1i, rt2r, rt2i = _real_shifts(h, i, l, kdefl)
            # look for two consecutive small subdiagonals
            m = i - 2
            while True:
                h21s = h[m + 1, m]
                s = abs(h[m, m] - rt2r) + abs(rt2i) + abs(h21s)
                h21s = h[m + 1, m] / s
                v = np.array([h21s * h[m, m + 1] + (h[m, m] - rt1r) * ((h[m, m] - rt2r) / s) - rt1i * (rt2i / s),
                              h21s * (h[m, m] + h[m + 1, m + 1] - rt1r - rt2r),
                              h21s * h[m + 2, m + 1]], dtype=h.dtype)
                v = v / (abs(v[0]) + abs(v[1]) + abs(v[2]))
                if m == l:
                    break
                h00 = abs(h[m, m - 1]) * (abs(v[1]) + abs(v[2]))
                h01 = abs(v[0]) * (abs(h[m - 1, m - 1]) + abs(h[m, m]) + abs(h[m + 1, m + 1]))
                if h00 <= ulp * h01:
                    break
                m -= 1
            # the double-shift QR sweep
            for k in range(m, i):
                nr = min(3, i - k + 1)
                if k > m:
                    v = h[k:k + nr, k - 1].copy()
                beta, t1, tail = _householder(v[0], v[1:nr].copy())
                v = np.concatenate([np.full(1, beta, h.dtype), tail])
                if k > m:
                    h[k, k - 1] = beta
                    h[k + 1, k - 1] = 0.0
                    if k < i - 1:
                        h[k + 2, k - 1] = 0.0
                elif m > l:
                    h[k, k - 1] = h[k, k - 1] * (1.0 - t1)
                w = np.concatenate([np.ones(1, h.dtype), v[1:nr]])
                rows = slice(k, k + nr)
                block = h[rows, k:n + 1]
                block -= t1 * np.outer(w, w @ block)
                rlim = min(k + 3, i)
                block = h[1:rlim + 1, rows]
                block -= t1 * np.outer(block @ w, w)
                block = z[1:, rows]
                block -= t1 * np.outer(block @ w, w)
        if not converged:
            ok = False
            break
        if l == i - 1:
            a_, b_, c_, d_, cs, sn = _lanv2(h[i - 1, i - 1], h[i - 1, i], h[i, i - 1], h[i, i])
            h[i - 1, i - 1], h[i - 1, i], h[i, i - 1], h[i, i] = a_, b_, c_, d_
            if n > i:
                _rot_rows(h, i - 1, i, slice(i + 1, n + 1), cs, sn)
            _rot_cols(h, i - 1, i, slice(1, i - 1), cs, sn)
            _rot_cols(z, i - 1, i, slice(1, n + 1), cs, sn)
        kdefl = 0
        i = l - 1
    t = np.triu(h[1:, 1:], -1)
    return t, z[1:, 1:], ok


# ---------------------------------------------------------------------------- complex (zlahqr)

def _complex_shift(h, i, l, kdefl):
    if kdefl % (2 * _EXCEPTIONAL_EVERY) == 0:
        return _DAT1 * abs(h[i, i - 1].real) + h[i, i]
    if kdefl % _EXCEPTIONAL_EVERY == 0:
        return _DAT1 * abs(h[l + 1, l].real) + h[l, l]
    # Wilkinson's shift
    t = h[i, i]
    u = np.sqrt(h[i - 1, i]) * np.sqrt(h[i, i - 1])
    s = _cabs1(u)
    if s != 0.0:
        x = 0.5 * (h[i - 1, i - 1] - t)
        sx = _cabs1(x)
        s = max(s, sx)
        y = s * np.sqrt((x / s) ** 2 + (u / s) ** 2)
        if sx > 0.0 and ((x / sx).real * y.real + (x / sx).imag * y.imag) < 0.0:
            y = -y
        t = t - u * (u / (x + y))
    return t


def _complex_schur(a):
    n = a.shape[0]
    h, z = _hessenberg(a)
    ulp, safmin = _ulp(h), np.finfo(h.dtype).tiny
    ok = True
    # make the subdiagonal real
    for i in range(2, n + 1):
        if h[i, i - 1].imag != 0.0:
            sc = h[i, i - 1] / _cabs1(h[i, i - 1])
            sc = np.conj(sc) / abs(sc)
            h[i, i - 1] = abs(h[i, i - 1])
            h[i, i:n + 1] *= sc
            h[1:min(n, i + 1) + 1, i] *= np.conj(sc)
            z[1:, i] *= np.conj(sc)
    smlnum = safmin * (n / ulp)
    itmax = 30 * max(10, n)
    kdefl = 0
    i = n
    while i >= 1:
        l = 1
        converged = False
        for _ in range(itmax + 1):
            k = i
            while k > l and not _small_subdiagonal(h, k, l, n, smlnum, ulp, cabs=_cabs1):
                k -= 1
            l = k
            if l > 1:
                h[l, l - 1] = 0.0
            if l >= i:
                converged = True
                break
            kdefl += 1
            t = _complex_shift(h, i, l, kdefl)
            m = i - 1
            while True:
                h11, h22 = h[m, m], h[m + 1, m + 1]
                h11s = h11 - t
                h21 = h[m + 1, m].real
                s = _cabs1(h11s) + abs(h21)
                h11s, h21 = h11s / s, h21 / s
                v = np.array([h11s, h21], dtype=h.dtype)
                if m == l:
                    break
                h10 = h[m, m - 1].real
                if abs(h10) * abs(h21) <= ulp * (_cabs1(h11s) * (_cabs1(h11) + _cabs1(h22))):
                    break
                m -= 1
            # the single-shift QR sweep
            for k in range(m, i):
                if k > m:
                    v = h[k:k + 2, k - 1].copy()
                beta, t1, tail = _householder(v[0], v[1:2].copy())
                if k > m:
                    h[k, k - 1] = beta
                    h[k + 1, k - 1] = 0.0
                v2 = tail[0]
                t2 = (t1 * v2).real
                row_k, row_k1 = h[k, k:n + 1].copy(), h[k + 1, k:n + 1].copy()
                s_ = np.conj(t1) * row_k + t2 * row_k1
                h[k, k:n + 1] = row_k - s_
                h[k + 1, k:n + 1] = row_k1 - s_ * v2
                rlim = min(k + 2, i)
                for mat, rows in ((h, slice(1, rlim + 1)), (z, slice(1, n + 1))):
                    col_k, col_k1 = mat[rows, k].copy(), mat[rows, k + 1].copy()
                    s_ = t1 * col_k + t2 * col_k1
                    mat[rows, k] = col_k - s_
                    mat[rows, k + 1] = col_k1 - s_ * np.conj(v2)
                if k == m and m > l:
                    # keep h[m, m-1] real after a sweep that started below l
                    temp = 1.0 - t1
                    temp = temp / abs(temp)
                    h[m + 1, m] *= np.conj(temp)
                    if m + 2 <= i:
                        h[m + 2, m + 1] *= temp
                    for j in range(m, i + 1):
                        if j != m + 1:
                            if n > j:
                                h[j, j + 1:n + 1] *= temp
                            h[1:j, j] *= np.conj(temp)
                            z[1:, j] *= np.conj(temp)
            # make h[i, i-1] real
            temp = h[i, i - 1]
            if temp.imag != 0.0:
                rtemp = abs(temp)
                h[i, i - 1] = rtemp
                temp = temp / rtemp
                if n > i:
                    h[i, i + 1:n + 1] *= np.conj(temp)
                h[1:i, i] *= temp
                z[1:, i] *= temp
        if not converged:
            ok = False
            break
        kdefl = 0
        i = l - 1
    t = np.triu(h[1:, 1:])
    return t, z[1:, 1:], ok


def schur(a):
    """(T, Z, ok) of one square matrix, in a's dtype."""
    a = np.asarray(a)
    n = a.shape[0]
    if n == 0:
        return a.copy(), a.copy(), True
    t, z, ok = (_complex_schur if a.dtype.kind == "c" else _real_schur)(a)
    return t.astype(a.dtype), z.astype(a.dtype), ok
