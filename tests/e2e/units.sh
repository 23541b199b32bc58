#!/usr/bin/env bash
# model.units through the chain (issue 18 item 4):
#  1. the bicycle GA example (configs/bicycle_frame_ga.yaml, model.units
#     N-mm-ms-g) on 2 ranks: `dynred ss` on its front solutions writes the
#     frequencies in Hz, equal to the GA's frequencies_hz and to scipy's
#     sqrt(eig(K, M)) / (2 pi 1e-3 s) (the time unit from the config's system,
#     not from the file); the files carry the systems (ga: N-mm-ms-g, ss: the
#     same force and length with time in s, N-mm-s-t).
#  2. one cantilever (beam2d) given in SI, in N-mm-s-t and in N-mm-ms-g:
#     modal + ss give the same frequencies in Hz, equal to Euler-Bernoulli's
#     analytic first frequency, and the same static tip compliance up to the
#     length unit (1e3 mm/m): 1 N/mm = 1e3 N/m, 1 t = 1e3 kg; the SI value is
#     L^3 / (3 E I) (all 60 modes kept: the modal sum is the exact static FE
#     solution, exact for Hermite beams under a tip load).
#  3. modal and cms take a model in ms as its seconds system (N-mm-s-t):
#     frequencies in Hz in the file and in the plots, cms.fmax in Hz.
#  4. an unknown or inconsistent system is one line naming JOB.yaml:LINE.
set -euo pipefail
cd "$T"
$MPIEXEC -n 2 $DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output ga.h5 -ga_population 40 -ga_generations 5 > ga.log
for s in 001 002 003; do
  printf 'job: ss\noutput: ss%s.h5\nss:\n  source: ga.h5\n  group: /ga/solutions/%s\n  inputs: [6.2]\n  outputs: [15.1]\n' $s $s > ss$s.yaml
  $DYNRED -config ss$s.yaml > ss$s.log
done
# the same cantilever in three systems (E 210 GPa, rho 7850 kg/m^3, L 1 m, A 1 cm^2, I 833.3 mm^4)
beam() { # name units L E rho A I
  printf 'job: modal\noutput: %s.h5\nmodel:\n  units: %s\n  builtin: beam2d\n  beam2d: {L: %s, nel: 20, E: %s, rho: %s, A: %s, I: %s}\nmodal:\n  nmodes: 60\n' "$@" > $1.yaml
  $DYNRED -config $1.yaml > $1.log
  printf 'job: ss\noutput: %s_ss.h5\nss:\n  source: %s.h5\n  inputs: [21.2]\n  outputs: [21.2]\n' $1 $1 > $1_ss.yaml
  $DYNRED -config $1_ss.yaml > $1_ss.log
}
beam si    SI        1.0  210e9  7850    1e-4 8.333e-10
beam nmmst N-mm-s-t  1000 210000 7.85e-9 100  833.3
beam nmmms N-mm-ms-g 1000 210000 7.85e-3 100  833.3
/usr/bin/python3 - <<'PY'
import h5py, numpy as np, scipy.linalg as sl
txt = lambda v: v.decode() if isinstance(v, bytes) else str(v)
tu = 1e-3  # configs/bicycle_frame_ga.yaml: model.units N-mm-ms-g, 1 ms = 1e-3 s
with h5py.File("ga.h5") as g:
    assert txt(g.attrs["units"]) == "N-mm-ms-g" and g.attrs["time_unit_s"] == 1e-3, dict(g.attrs)
    for s in ("001", "002", "003"):
        sol = g["/ga/solutions/" + s]
        with h5py.File(f"ss{s}.h5") as a:
            assert txt(a.attrs["units"]) == "N-mm-s-t" and txt(a["/ss"].attrs["source_units"]) == "N-mm-ms-g"
            f = a["/ss/frequencies_hz"][:]
        fga = sol["frequencies_hz"][:]
        lam = sl.eigh(sol["K"][:], sol["M"][:], eigvals_only=True)
        fsp = np.sqrt(lam) / (2 * np.pi * tu)
        # tol: three LAPACK solves of the same small pencil (kappa(M_R) <= 1e5 for lumped frame masses): 1e-10 relative to f_max
        assert np.abs(f - fga).max() < 1e-10 * f.max(), (s, f, fga)
        assert np.abs(f - fsp).max() < 1e-10 * f.max(), (s, f, fsp)
        print(f"bicycle {s}: ss {f[0]:.4f} .. {f[-1]:.2f} Hz = ga frequencies_hz = scipy / (2 pi 1 ms)")

def static(fn):  # tip compliance y/u = sum_k C_k B_k / omega_k^2 of the exported model
    with h5py.File(fn) as a:
        w = 2 * np.pi * a["/ss/frequencies_hz"][:]
        B = a["/ss/second_order/input_map"][:, 0]; C = a["/ss/second_order/output_map"][0, :]
        return a["/ss/frequencies_hz"][:], np.sum(C * B / w**2), txt(a.attrs["units"])
f_si, c_si, u_si = static("si_ss.h5")
f_st, c_st, u_st = static("nmmst_ss.h5")
f_ms, c_ms, u_ms = static("nmmms_ss.h5")
assert (u_si, u_st, u_ms) == ("N-m-s-kg", "N-mm-s-t", "N-mm-s-t"), (u_si, u_st, u_ms)
for n in ("si", "nmmst", "nmmms"):
    with h5py.File(n + ".h5") as f: print(n, txt(f.attrs["units"]))
# tol: the three eigenproblems are the same up to exact powers of ten; each eigenvalue carries the solver's
# modal.tol = 1e-12 relative residual times kappa of the pencil (beam: <= 1e4): 1e-8
assert np.abs(f_st - f_si).max() < 1e-8 * f_si.max() and np.abs(f_ms - f_si).max() < 1e-8 * f_si.max(), (f_si[:3], f_st[:3], f_ms[:3])
E, rho, A, I, L = 210e9, 7850, 1e-4, 8.333e-10, 1.0
f1 = 1.8751040687 ** 2 / (2 * np.pi) * np.sqrt(E * I / (rho * A * L**4))
# tol: consistent-mass Hermite beam, first eigenvalue error ~ (beta_1 h)^4 / 720 = 1.7e-8 at h = L/20; 1e-6 on f leaves 100x
assert abs(f_si[0] - f1) < 1e-6 * f1, (f_si[0], f1)
cref = L**3 / (3 * E * I)
# tol: the modal sum over all 60 modes is the static FE solution (exact for Hermite beams) up to the
# eigenvectors' accuracy (residuals <= 1e-8 on the top modes, whose terms are 1e-6 of the sum): 1e-8
assert abs(c_si - cref) < 1e-8 * cref, (c_si, cref)
# the same tip compliance in mm/N: K in N/mm = 1e3 N/m, M in t = 1e3 kg (or g with ms): same tolerance
assert abs(c_st - 1e3 * c_si) < 1e-8 * c_st and abs(c_ms - 1e3 * c_si) < 1e-8 * c_ms, (c_si, c_st, c_ms)
print(f"cantilever: f1 = {f_si[0]:.6f} Hz in SI, N-mm-s-t, N-mm-ms-g (analytic {f1:.6f}); tip compliance {c_si:.6e} m/N = {c_st:.6e} mm/N")
PY
# scripts/dynred_plot.py labels the FRF with the file's units (mm/N for the bicycle, m/N for SI)
/usr/bin/python3 - <<'PY'
import os, sys, h5py
sys.path.insert(0, os.path.join(os.environ["ROOT"], "scripts"))
import dynred_plot as dp
for fn, lab in (("ss001.h5", "[mm/N]"), ("si_ss.h5", "[m/N]"), ("nmmms_ss.h5", "[mm/N]")):
    with h5py.File(fn) as f:
        y = dp.fig_frf(f, "frf").axes[0].get_ylabel()
    assert lab in y, (fn, y)
with h5py.File("nmmms.h5") as f:  # a modal result of a model in ms: converted to seconds, frequencies in Hz
    x = dp.fig_mode_count(f, "mode_count").axes[0].get_xlabel()
assert "[Hz]" in x, x
print("plot labels ok")
PY
# modal and cms work in the seconds system of model.units: the modal result of
# the N-mm-ms-g cantilever is in N-mm-s-t with frequencies in Hz, and a CMS job
# of a plate in N-mm-ms-g cut in 2 parts (cms.fmax in Hz) gives the Hz of the
# same plate's modal job in SI
printf 'job: cms\noutput: cms_ms.h5\nmodel:\n  units: N-mm-ms-g\n  builtin: plate\n  plate: {lx: 1000, ly: 500, lz: 20, nx: 16, ny: 8, nz: 1, E: 210000, rho: 7.85e-3}\n  cut: {axis: x, parts: 2}\ncms: {fmax: 400}\n' > cms_ms.yaml
printf 'job: modal\noutput: plate_si.h5\nmodel:\n  builtin: plate\n  plate: {lx: 1, ly: 0.5, lz: 0.02, nx: 16, ny: 8, nz: 1}\nmodal: {nmodes: 8}\n' > plate_si.yaml
$DYNRED -config cms_ms.yaml > cms_ms.log
$DYNRED -config plate_si.yaml > plate_si.log
grep -q "model: units N-mm-ms-g taken as N-mm-s-t" cms_ms.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
txt = lambda v: v.decode() if isinstance(v, bytes) else str(v)
E, rho, A, I, L = 210e9, 7850, 1e-4, 8.333e-10, 1.0
beta = np.array([1.8751040687, 4.6940911330, 7.8547574382])
fa = beta**2 / (2 * np.pi) * np.sqrt(E * I / (rho * A * L**4))
with h5py.File("si.h5") as a, h5py.File("nmmms.h5") as b, h5py.File("cms_ms.h5") as c, h5py.File("plate_si.h5") as d:
    fsi, fms = a["/modal/frequencies_hz"][:3], b["/modal/frequencies_hz"][:3]
    fcms, fplate = c["/cms/frequencies_hz"][:], d["/modal/frequencies_hz"][:]
    assert txt(b.attrs["units"]) == "N-mm-s-t" and b.attrs["time_unit_s"] == 1 and txt(c.attrs["units"]) == "N-mm-s-t", (dict(b.attrs), dict(c.attrs))
# the same eigenproblem up to exact powers of ten (1e-8, as above); Hermite beam vs Euler-Bernoulli: the
# eigenvalue error is about (beta_k h)^4 / 720 at h = L/20 (3.3e-5 for the third mode), half of it in f: the
# eigenvalue figure itself bounds the frequency error with a factor 2
assert np.abs(fms / fsi - 1).max() < 1e-8, (fsi, fms)
assert np.all(np.abs(fms / fa - 1) < (beta / 20) ** 4 / 720), (fms, fa)
# cms of the plate in ms against the SI plate's modal job: the modes below fmax = 400 Hz, each above the full
# model's (Rayleigh-Ritz, slack 1e-8 for the two solvers' tolerances) and within the default tol_pct 0.5 %
n = int(np.sum(fplate < 400))
assert n >= 3 and len(fcms) >= n, (fcms, fplate)
r = fcms[:n] / fplate[:n] - 1
assert np.all(r > -1e-8) and np.all(r < 5e-3), r
print(f"model in ms: modal {fms} Hz (Euler-Bernoulli {fa}); cms of the plate {fcms[:n]} Hz vs SI modal {fplate[:n]}")
PY
E=$ROOT/tests/expect.sh
$E 'command line -model_units: model\.units = .N-mm-s-g. is not consistent: 1 g mm/s\^2 = 1e-06 N but 1 N = 1 N, expected FORCE = MASS LENGTH/TIME\^2' $DYNRED -config si.yaml -model_units N-mm-s-g
sed -i 's/units: SI/units: N-mm-s/' si.yaml
$E 'si\.yaml:4: model\.units = .N-mm-s. has 3 part\(s\), expected FORCE-LENGTH-TIME-MASS' $DYNRED -config si.yaml
sed -i 's/units: N-mm-s/units: N-ft-s-kg/' si.yaml
$E "si\.yaml:4: model\.units = 'N-ft-s-kg': unknown length unit 'ft', expected one of m, mm" $DYNRED -config si.yaml
# ga.time_unit (older key) must agree with model.units; an ss job's model.units must agree with its source
$E "ga\\.time_unit = 1\\.? s disagrees with model\\.units = N-mm-ms-g \\(time unit 0\\.001 s\\)" $DYNRED ga -config $ROOT/configs/bicycle_frame_ga.yaml -output bad.h5 -ga_time_unit 1
$E "model\.units = N-m-s-kg but ga\.h5 was computed in N-mm-ms-g, expected N-mm-ms-g" $DYNRED -config ss001.yaml -output bad.h5 -model_units SI
test ! -e bad.h5
echo ok
