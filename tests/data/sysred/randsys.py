"""Test systems for dynred sysred (written by the tests, numpy seed fixed):
  sys.h5 /stable/{A,B,C,D}   n=20, m=2, p=3, random stable (poles -0.1..-30, 3 oscillatory pairs)
         /planted/{A,B,C,D}  a minimal 6-state system plus 3 uncontrollable and 2 unobservable
                             states, mixed by a random orthogonal change of basis (minimal order 6)
         /marginal/{A,B,C,D} a stable 12-state system plus a rigid-body block [[0,1],[0,0]]
                             and an undamped oscillator (omega 3), as dynred ss writes them
                             (block diagonal), then a random orthogonal change of basis
         /unstable/...       the stable system with one pole moved to +0.5
         /undamped/...       only a rigid-body block and two undamped oscillators
  and stable_{A,B,C,D}.mtx (Matrix Market copies of /stable)."""
import sys, h5py, numpy as np, scipy.io, scipy.linalg as sl

rng = np.random.default_rng(20261124)

def stable(n, m, p, lo=0.1, hi=30.0, npairs=3):
    d = []
    for k in range(npairs):
        s, w = -rng.uniform(lo, hi / 4), rng.uniform(1, 20)
        d.append(np.array([[s, w], [-w, s]]))
    for k in range(n - 2 * npairs):
        d.append(np.array([[-np.exp(rng.uniform(np.log(lo), np.log(hi)))]]))
    J = sl.block_diag(*d)
    S = rng.standard_normal((n, n)) + 3 * np.eye(n)
    A = S @ J @ np.linalg.inv(S)
    return A, rng.standard_normal((n, m)), rng.standard_normal((p, n)), rng.standard_normal((p, m))

def write(f, g, A, B, C, D):
    for k, v in zip("ABCD", (A, B, C, D)):
        f[f"{g}/{k}"] = v

out = sys.argv[1] if len(sys.argv) > 1 else "sys.h5"
with h5py.File(out, "w") as f:
    A, B, C, D = stable(20, 2, 3)
    write(f, "stable", A, B, C, D)
    for k, v in zip("ABCD", (A, B, C, D)):
        scipy.io.mmwrite(f"stable_{k}.mtx", v)
    # planted: x = [x_min (6), x_unc (3), x_uno (2)]; unc not driven by B, uno not seen by C
    Am, Bm, Cm, Dm = stable(6, 2, 2, lo=1.0, hi=5.0, npairs=1)  # well controllable and observable
    Au, _, _, _ = stable(3, 1, 1, lo=1.0, hi=5.0, npairs=0)
    Ao, _, _, _ = stable(2, 1, 1, lo=1.0, hi=5.0, npairs=0)
    A = sl.block_diag(Am, Au, Ao)
    A[:6, 6:9] = rng.standard_normal((6, 3))   # unc states feed the minimal part, but nothing feeds them
    A[9:, :6] = rng.standard_normal((2, 6))    # uno states are driven, but feed nothing seen
    B = np.vstack([Bm, np.zeros((3, 2)), rng.standard_normal((2, 2))])
    C = np.hstack([Cm, rng.standard_normal((2, 3)), np.zeros((2, 2))])
    S, _ = np.linalg.qr(rng.standard_normal((11, 11)))   # orthogonal mixing: a well-posed rank decision
    write(f, "planted", S @ A @ S.T, S @ B, C @ S.T, Dm)
    As, Bs, Cs, Ds = stable(12, 1, 2, npairs=2)
    A = sl.block_diag(As, [[0, 1], [0, 0]], [[0, 1], [-9.0, 0]])
    B = np.vstack([Bs, rng.standard_normal((4, 1))])
    C = np.hstack([Cs, rng.standard_normal((2, 4))])
    Q, _ = np.linalg.qr(rng.standard_normal((16, 16)))
    write(f, "marginal", Q.T @ A @ Q, Q.T @ B, C @ Q, Ds)
    A, B, C, D = stable(20, 2, 3)
    ev, V = np.linalg.eig(A)
    i = np.argmax(np.where(ev.imag == 0, ev.real, -np.inf))
    ev[i] = 0.5
    write(f, "unstable", (V @ np.diag(ev) @ np.linalg.inv(V)).real, B, C, D)
    A = sl.block_diag([[0, 1], [0, 0]], [[0, 1], [-4.0, 0]], [[0, 1], [-25.0, 0]])
    write(f, "undamped", A, rng.standard_normal((6, 1)), rng.standard_normal((1, 6)), np.zeros((1, 1)))
