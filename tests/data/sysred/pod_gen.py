"""A dissipative system (A + A^T < 0; n = 40, m = 2, p = 3, fixed seed)
driven by u(t) = [sin 2t, exp(-t/4) sin 5t], simulated exactly for
piecewise-constant input (zero-order hold, h = 1e-3, t in [0, 8]).
Writes OUT.h5: /sys/{A,B,C,D}, /snapshots [samples, n] (every 20th step),
/sim/{t, u, x} (every step: the reference trajectory for the test)."""
import sys, h5py, numpy as np, scipy.linalg as sl
rng = np.random.default_rng(11)
n, m, p = 40, 2, 3
Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
K = rng.standard_normal((n, n)); K = 2.0 * (K - K.T)
A = -(Q * np.logspace(-0.5, 1.5, n)) @ Q.T + K
B = rng.standard_normal((n, m)); C = rng.standard_normal((p, n)); D = np.zeros((p, m))
def zoh(A, B, h):
    E = sl.expm(np.block([[A, B], [np.zeros((B.shape[1], A.shape[0] + B.shape[1]))]]) * h)
    return E[:A.shape[0], :A.shape[0]], E[:A.shape[0], A.shape[0]:]
def u(t): return np.array([np.sin(2 * t), np.exp(-t / 4) * np.sin(5 * t)])
def simulate(A, B, h, nt):
    Ad, Bd = zoh(A, B, h)
    x = np.zeros((nt + 1, A.shape[0]))
    for k in range(nt):
        x[k + 1] = Ad @ x[k] + Bd @ u(k * h)
    return x
if __name__ == "__main__":
    h, nt = 1e-3, 8000
    x = simulate(A, B, h, nt)
    with h5py.File(sys.argv[1], "w") as f:
        for k, v in zip("ABCD", (A, B, C, D)):
            f["/sys/" + k] = v
        f["/snapshots"] = x[::20]
        f["/sim/t"] = np.arange(nt + 1) * h
        f["/sim/x"] = x
