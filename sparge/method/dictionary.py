"""K-SVD dictionary initialisation (Aharon, Elad & Bruckstein 2006) (DESIGN.md §4 step 2).

Signals are rows of ``Z``; atoms are the unit-norm columns of ``D`` (m × k). OMP codes every
signal with at most ``n_nonzero`` atoms, then each
atom and its coefficients are replaced by the best rank-1 fit of the residual restricted to
the signals that use the atom. Supervised: one sub-dictionary per class, concatenated.
OMP is batched over signals (no Python loop over patients).
"""

from __future__ import annotations

import numpy as np


def normalize_atoms(D: np.ndarray) -> np.ndarray:
    """Scale every column of ``D`` to unit Euclidean norm (zero columns stay zero)."""
    norms = np.linalg.norm(D, axis=0)
    norms[norms == 0] = 1.0
    return D / norms


def omp_codes(Z: np.ndarray, D: np.ndarray, n_nonzero: int) -> np.ndarray:
    """Orthogonal matching pursuit codes of the rows of ``Z`` (shape (n, k)), batched.

    Every step picks, for all signals at once, the atom most correlated with the residual
    and refits the chosen atoms by least squares (one batched solve of s × s systems).
    """
    Z = np.atleast_2d(np.asarray(Z, dtype=float))
    n, k = Z.shape[0], D.shape[1]
    s_max = min(n_nonzero, k)
    G = D.T @ D
    B = Z @ D  # (n, k)
    chosen = np.zeros((n, 0), dtype=int)
    coef = np.zeros((n, 0))
    rows = np.arange(n)
    for s in range(1, s_max + 1):
        corr = B - np.einsum("ns,nsk->nk", coef, G[chosen]) if s > 1 else B.copy()
        corr = np.abs(corr)
        if s > 1:
            corr[rows[:, None], chosen] = -1.0
        pick = np.argmax(corr, axis=1)
        chosen = np.hstack([chosen, pick[:, None]])
        M = G[chosen[:, :, None], chosen[:, None, :]] + 1e-10 * np.eye(s)
        rhs = np.take_along_axis(B, chosen, axis=1)
        coef = np.linalg.solve(M, rhs[..., None])[..., 0]
    out = np.zeros((n, k))
    np.put_along_axis(out, chosen, coef, axis=1)
    return out


def _rank_one(E: np.ndarray, start: np.ndarray, n_power: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Leading rank-one factor ``E ~ g a^T`` (unit ``a``) by power iterations from ``start``.

    The approximate K-SVD atom update (Rubinstein, Zibulevsky & Elad, 2008): starting from
    the current atom, every step can only lower ``||E - g a^T||``, and it costs
    ``O(|users| m)`` instead of the ``O(|users| m^2)`` of a full SVD of ``E``.
    """
    a = start
    for _ in range(n_power):
        v = E.T @ (E @ a)
        nv = np.linalg.norm(v)
        if nv <= 1e-300:
            break
        a = v / nv
    return a, E @ a


def ksvd(
    Z: np.ndarray,
    n_atoms: int,
    n_nonzero: int = 3,
    n_iter: int = 10,
    random_state: int | np.random.Generator | None = 0,
    init: np.ndarray | None = None,
) -> tuple[np.ndarray, list[float]]:
    """Learn ``n_atoms`` unit-norm atoms for the rows of ``Z`` by K-SVD.

    ``init`` (m × n_atoms), when given, is the starting dictionary instead of
    ``n_atoms`` signals drawn at random.

    Returns
    -------
    D : ndarray of shape (m, n_atoms)
    errors : list of float
        Relative reconstruction error ``||Z - Phi D^T|| / ||Z||`` after every iteration.
    """
    rng = np.random.default_rng(random_state)
    Z = np.asarray(Z, dtype=float)
    n, m = Z.shape
    if n == 0:
        raise ValueError("K-SVD needs at least one signal")
    if init is None:
        pick = rng.choice(n, size=n_atoms, replace=n < n_atoms)
        D = Z[pick].T.copy()
        D += 1e-3 * rng.standard_normal(D.shape) * (np.abs(D).mean() + 1e-12)
    else:
        D = np.array(init, dtype=float)
    D = normalize_atoms(D)
    norm_z = max(np.linalg.norm(Z), 1e-12)
    errors: list[float] = []
    for _ in range(n_iter):
        Phi = omp_codes(Z, D, n_nonzero)
        R = Z - Phi @ D.T
        for j in range(n_atoms):
            users = np.flatnonzero(Phi[:, j])
            if users.size == 0:
                # Replace an unused atom by the worst-represented signal.
                worst = int(np.argmax(np.einsum("ij,ij->i", R, R)))
                atom = Z[worst] / max(np.linalg.norm(Z[worst]), 1e-12)
                D[:, j] = atom
                continue
            E = R[users] + np.outer(Phi[users, j], D[:, j])
            atom, new = _rank_one(E, D[:, j])
            D[:, j] = atom
            R[users] = E - np.outer(new, atom)
            Phi[users, j] = new
        errors.append(float(np.linalg.norm(R) / norm_z))
    return normalize_atoms(D), errors


def classwise_ksvd(
    Z: np.ndarray,
    y: np.ndarray | None,
    n_atoms: int,
    n_nonzero: int = 3,
    n_iter: int = 10,
    random_state: int | None = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """K-SVD per class, sub-dictionaries concatenated (unsupervised: one dictionary).

    Atoms are shared out in proportion to the square root of the class sizes, at least one
    per class.

    Returns
    -------
    D : ndarray of shape (m, n_atoms)
    atom_class : ndarray of shape (n_atoms,)
        The class index each atom was learned from (-1 when unsupervised).
    """
    rng = np.random.default_rng(random_state)
    if y is None:
        D, _ = ksvd(Z, n_atoms, n_nonzero, n_iter, rng)
        return D, np.full(n_atoms, -1)
    classes, y_idx = np.unique(y, return_inverse=True)
    counts = np.bincount(y_idx).astype(float)
    share = np.sqrt(counts) / np.sqrt(counts).sum()
    per = np.maximum(1, np.floor(share * n_atoms).astype(int))
    while per.sum() < n_atoms:
        per[np.argmax(share * n_atoms - per)] += 1
    while per.sum() > n_atoms:
        per[np.argmax(per)] -= 1
    blocks, owner = [], []
    for c, k_c in enumerate(per):
        if k_c <= 0:
            continue
        Dc, _ = ksvd(Z[y_idx == c], int(k_c), n_nonzero, n_iter, rng)
        blocks.append(Dc)
        owner.append(np.full(int(k_c), c))
    return np.hstack(blocks), np.concatenate(owner)

