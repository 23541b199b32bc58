#!/usr/bin/python3
"""On-paper projection of a CMS job's time to more ranks (issue 13), from
the per-component times and the root's phases measured in one result.

  bench/cms_projection.py RESULT.h5 [--ranks 2,8,64,512] [--alpha A]

RESULT.h5 is a `dynred cms` result (bench/cms_bench.py writes them into its
workdir).  Measured there, per component k: w_k = t_end_s - t_start_s of
its first-round reduction (/cms/components/*), on one rank per group; the
root's serial phases T_root = interface_reduction + coupled_solve + gather +
assembly (/timing); the rest of the reduction after the first round
(refinement, estimate, recovery: work per component, run by the groups)
T_rest = cms_total - model - T_comp - T_root, carried as the same fraction
of the component phase.

Two projections, each printed as a table:

(a) the measured partition kept (N components): P ranks give g = min(P, N)
    groups; the component phase is the LPT makespan of the w_k over g
    groups (partition.c assigns by the same rule); with P > N each group
    has r = P / N ranks, and a component solve speeds up by r^alpha (alpha
    from the full model's 1 -> 2 rank speedup, 1711 s -> 1315 s at 1M DOFs
    in table 1: alpha = log2(1.30) = 0.38).

(b) repartitioned into N = P subdomains (cms.partition: P), one per rank:
    - a subdomain's work scales as its size^1.5 (nested-dissection
      factorization of a quasi-2D mesh: the plates are 3 elements thick;
      its eigensolve, with m/N modes of n/N DOFs, falls faster, so 1.5 is
      the pessimistic side);
    - the separator S grows like sqrt(N) (a 2D domain cut into N pieces);
      the root's dense interface eigenproblem costs S^3;
    - the coupled system has C = n_cc + sum m coordinates: n_cc (interface
      modes below the same frequency cut) grows with the separator,
      sqrt(N); sum m at least 16 per subdomain (the first round's floor);
      the root's dense coupled solve costs C^3.
    The root becomes the bottleneck where T_root exceeds the component
    phase.

Amdahl share = T_root / total.  Assumptions stated, nothing measured on
more than 2 ranks: this is the paper projection the issue asks for.
"""
import argparse
import math

import h5py


def lpt(w, g):
    """Makespan of longest-processing-time-first over g groups."""
    load = [0.0] * g
    for x in sorted(w, reverse=True):
        i = load.index(min(load))
        load[i] += x
    return max(load)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--ranks", default="2,8,64,512")
    ap.add_argument("--alpha", type=float, default=math.log2(1711.0 / 1315.0))
    a = ap.parse_args()
    with h5py.File(a.result) as f:
        t = {k: float(v) for k, v in f["/timing"].attrs.items() if k != "units"}
        comps = {k: dict(g.attrs) for k, g in f["/cms/components"].items()}
        red = dict(f["/cms/reduced"].attrs)
        ndof = int(f["/cms"].attrs["ndof"])
    w = [float(c["t_end_s"] - c["t_start_s"]) for c in comps.values() if "t_end_s" in c]
    groups = sorted({int(c["rank_group"]) for c in comps.values()})
    per_group = [sum(float(c["t_end_s"] - c["t_start_s"]) for c in comps.values() if int(c["rank_group"]) == g and "t_end_s" in c) for g in groups]
    T_comp = max(per_group)
    T_root = sum(t.get(k, 0.0) for k in ("interface_reduction", "coupled_solve", "gather", "assembly"))
    T_model = t["model"]
    T_rest = max(0.0, t["cms_total"] - T_model - T_comp - T_root)
    rest = T_rest / T_comp
    nsub = sum(1 for c in comps.values() if int(c["n_modes"]) > 0)  # the separator keeps no modes
    S = int(red["n_boundary"])  # the physical boundary union (the separator of a substructured model)
    ncc = int(red.get("n_interface_modes", 0)) or S
    summ = int(red["size"]) - ncc
    t_if, t_cs = t.get("interface_reduction", 0.0), t.get("coupled_solve", 0.0)
    print(f"measured: {a.result}: {ndof} DOFs, {len(comps)} components ({nsub} subdomains), {len(groups)} groups; "
          f"component phase {T_comp:.1f} s (per group {', '.join(f'{x:.1f}' for x in per_group)}), root {T_root:.1f} s "
          f"(interface {t_if:.1f}, coupled {t_cs:.1f}), model {T_model:.1f} s, rest {T_rest:.1f} s ({rest:.2f} of the component phase); "
          f"separator {S} DOFs, {ncc} interface modes, {summ} component modes; cms_total {t['cms_total']:.1f} s\n")
    print(f"(a) the measured partition ({len(w)} components), alpha {a.alpha:.2f}\n")
    print("| ranks | groups | ranks/group | component phase [s] | root [s] | model [s] | total [s] | root share | speedup vs measured |")
    print("|---|---|---|---|---|---|---|---|---|")
    base = t["cms_total"]
    for P in map(int, a.ranks.split(",")):
        g = min(P, len(w))
        r = max(1, P // len(w))
        tc = lpt([x / r ** a.alpha for x in w], g) * (1 + rest)
        tot = T_model + tc + T_root
        print(f"| {P} | {g} | {r} | {tc:.1f} | {T_root:.1f} | {T_model:.1f} | {tot:.1f} | {T_root / tot:.2f} | {base / tot:.2f} |")
    print(f"\n(b) repartitioned into N = ranks subdomains (work ~ size^1.5, separator ~ sqrt(N), root dense S^3 + C^3)\n")
    print("| ranks = N | subdomain DOFs | component phase [s] | separator DOFs | coupled size | root [s] | model [s] | total [s] | root share | bottleneck |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    # mean per subdomain (the separator keeps no modes; its own time is small)
    wbar = sum(float(c["t_end_s"] - c["t_start_s"]) for c in comps.values() if "t_end_s" in c and int(c["n_modes"]) > 0) / max(1, nsub)
    C0 = ncc + summ
    for P in map(int, a.ranks.split(",")):
        N = P
        if N < nsub:  # fewer ranks than the measured subdomains: the measured partition, LPT (as (a))
            tc, grow = lpt(w, N) * (1 + rest), 1.0
        else:
            tc, grow = wbar * (nsub / N) ** 1.5 * (1 + rest), math.sqrt(N / nsub)
        Sn = S * grow
        Cn = ncc * grow + max(summ, 16 * N)
        troot = t_if * grow ** 3 + t_cs * (Cn / C0) ** 3 + (T_root - t_if - t_cs)
        tot = T_model + tc + troot
        print(f"| {P} | {ndof // max(N, nsub)} | {tc:.1f} | {Sn:.0f} | {Cn:.0f} | {troot:.1f} | {T_model:.1f} | {tot:.1f} | "
              f"{troot / tot:.2f} | {'root' if troot > tc else 'components'} |")


if __name__ == "__main__":
    main()
