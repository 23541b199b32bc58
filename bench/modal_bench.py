#!/usr/bin/python3
"""Benchmark of `dynred modal` on the built-in plate, and CalculiX *FREQUENCY
on the same mesh (C3D8, same element), run side by side.

  bench/modal_bench.py [--sizes 50k,200k,1M] [--modes 20,200] [--ranks 1,2]
                       [--ccx-max 200k] [--timeout SECONDS] [--extra "-opt val ..."]
                       [--out bench/results/modal.md] [--workdir /tmp/dynred-bench]

Per run: wall time (process start to exit, model generation included), the
eigensolve time dynred writes to /timing, peak RSS of every process (each rank
and CalculiX run under a small wrapper that reads getrusage(RUSAGE_CHILDREN)
ru_maxrss of the one child it started), and the time split from -log_view
(maximum over ranks): MUMPS factorization (MatCholFctrSym + MatCholFctrNum),
triangular solves (MatSolve, with the count and the time per solve) and
orthogonalization (BVOrthogonalize*).  'load' is the 1-minute load average
when the run started (anything above 0 is another user of the machine) and
'CPU share' the CPU time the processes got over their wall time (1.00 on an idle
machine, as MPI ranks busy-wait; less means the cores were shared).
'max rel. dev.' is max_i |f_i - f_i(ref)| / f_i(ref) over the modes, the
reference being the first dynred run of the same case (CalculiX prints 7
significant digits, so about 5e-7 is agreement to its print precision).

bin/dynred (or --bin) is copied into the work directory first, so that a rebuild in the
tree during a long benchmark does not change (or remove) the binary being
measured.  The table is rewritten after every run, so an interrupted benchmark
leaves its partial results; raw outputs (with -log_view) stay in --workdir.
"""
import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = {  # plate 1 x 0.5 x 0.02 m, clamped at x = 0: (nx, ny, nz)
    "50k": (100, 50, 2),
    "200k": (180, 90, 3),
    "1M": (400, 200, 3),
}
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
# Runs its arguments as one child and prints the child's wall time, peak RSS
# [MiB], return code (negative: killed by that signal) and CPU time to stderr, tagged
# with the MPI rank.  RUSAGE_CHILDREN covers only the child (and its waited-for
# descendants), never this wrapper.
WRAP = ("import os, resource, subprocess, sys, time; t = time.time(); "
        "r = subprocess.run(sys.argv[1:]).returncode; u = resource.getrusage(resource.RUSAGE_CHILDREN); "
        "sys.stderr.write('@@rss %s %.3f %.1f %d %.3f\\n' % (os.environ.get('OMPI_COMM_WORLD_RANK', '0'), time.time() - t, "
        "u.ru_maxrss / 1024.0, r, u.ru_utime + u.ru_stime)); sys.exit(r if r >= 0 else 128 - r)")
EVENTS = re.compile(r"^(MatCholFctrNum|MatCholFctrSym|MatSolve|BVOrthogonalize\w*|EPSSolve|DREigenSolve)$")
NAN = float("nan")
LOAD = NAN  # 1-minute load average when the last run started (other users of the machine)


def logview(text):
    """{event: [count, max-over-ranks time]} of the events we report, summed over stages."""
    t = {}
    for line in text.splitlines():
        p = line.split()
        if len(p) > 4 and EVENTS.match(p[0]):
            try:
                c, s = float(p[1]), float(p[3])
            except ValueError:
                continue
            e = t.setdefault(p[0], [0, 0.0])
            e[0] += int(c)
            e[1] += s
    return t


def orth_time(lv):
    """BVOrthogonalizeV (= BV_OrthogonalizeVec: one column against the basis,
    what Krylov-Schur does) plus the block BVOrthogonalize.  The latter's
    default GS variant calls BVOrthogonalizeColumn, i.e. nests
    BVOrthogonalizeV, so it is added only as far as it exceeds the column
    time (no double count)."""
    v = sum(s for k, (c, s) in lv.items() if k.startswith("BVOrthogonalize") and k != "BVOrthogonalize")
    b = lv.get("BVOrthogonalize", [0, 0.0])[1]
    return max(v, b) if b else v


def run(cmd, log, timeout, **kw):
    """Run cmd in its own process group with stdout+stderr to the file log;
    on timeout kill that group (ours alone).  Returns (rc or 'timeout', wall, text)."""
    global LOAD
    LOAD = float(open("/proc/loadavg").read().split()[0])
    t0 = time.time()
    with open(log, "w") as f:
        p = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, start_new_session=True, text=True, **kw)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = "timeout"
            for sig in (signal.SIGTERM, signal.SIGKILL):
                try:
                    os.killpg(p.pid, sig)
                except ProcessLookupError:
                    break
                try:
                    p.wait(timeout=10)
                    break
                except subprocess.TimeoutExpired:
                    pass
    wall = time.time() - t0
    with open(log) as f:
        return rc, wall, f.read()


def rss_of(text):
    """[(rank, wall, MiB, rc, cpu)] from the wrapper lines."""
    out = []
    for m in re.finditer(r"^@@rss (\d+) (\S+) (\S+) (-?\d+) (\S+)$", text, re.M):
        out.append((int(m.group(1)), float(m.group(2)), float(m.group(3)), int(m.group(4)), float(m.group(5))))
    return sorted(out)


def cpu_share(ranks):
    """CPU time the processes got over wall time x processes: 1 on an idle machine
    (MPI ranks busy-wait); well below 1 means other users' processes took the cores."""
    return sum(x[4] for x in ranks) / max(1e-9, sum(x[1] for x in ranks))


def failed_row(code, size, ndof, nmodes, np_, wall, status):
    return dict(code=code, size=size, ndof=ndof, nmodes=nmodes, np=np_, wall=wall, status=status, load=LOAD)


def plate_ndof(size):
    nx, ny, nz = SIZES[size]
    return 3 * ((nx + 1) * (ny + 1) * (nz + 1) - (ny + 1) * (nz + 1))


def run_dynred(a, size, nmodes, np_):
    nx, ny, nz = SIZES[size]
    tag = f"dyn_{size}_{nmodes}_{np_}"
    out = os.path.join(a.workdir, tag + ".h5")
    if os.path.exists(out):
        os.remove(out)
    cmd = ["mpiexec", "--oversubscribe", "-n", str(np_), "/usr/bin/python3", "-c", WRAP, a.bin, "modal",
           "-model_builtin", "plate", "-model_plate_nx", str(nx), "-model_plate_ny", str(ny), "-model_plate_nz", str(nz),
           "-modal_nmodes", str(nmodes), "-modal_write_modes", "false", "-output", out, "-log_view"] + shlex.split(a.extra)
    rc, wall, text = run(cmd, os.path.join(a.workdir, tag + ".log"), a.timeout, env=ENV)
    if rc != 0:
        ranks = rss_of(text)
        st = "timeout" if rc == "timeout" else f"failed (rc {rc}" + "".join(f", rank {r} rc {c}" for r, _, _, c, _ in ranks if c) + ")"
        r = failed_row("dynred", size, plate_ndof(size), nmodes, np_, wall, st)
        if ranks:  # the ranks that reported: a total only if all did
            r.update(rss=max(x[2] for x in ranks), rss_total=sum(x[2] for x in ranks) if len(ranks) == np_ else NAN)
        return r
    with h5py.File(out) as f:
        ndof = int(f["/modal"].attrs["ndof"])
        freqs = f["/modal/frequencies_hz"][:]
        tim = {k: float(v) for k, v in f["/timing"].attrs.items() if k != "units"}
    ranks = rss_of(text)
    lv = logview(text)
    fact = sum(lv.get(k, [0, 0.0])[1] for k in ("MatCholFctrSym", "MatCholFctrNum"))
    nsolve, tsolve = lv.get("MatSolve", [0, NAN])
    return dict(code="dynred", size=size, ndof=ndof, nmodes=nmodes, np=np_, wall=wall, status="ok",
                rss=max(x[2] for x in ranks), rss_total=sum(x[2] for x in ranks), cpu=cpu_share(ranks),
                nfact=lv.get("MatCholFctrNum", [0, 0])[0], fact=fact, nsolve=nsolve, solve=tsolve, orth=orth_time(lv),
                eig=tim.get("eigensolve", NAN), f1=freqs[0], flast=freqs[-1], nfreq=len(freqs), load=LOAD, freqs=list(freqs))


def run_ccx(a, size, nmodes):
    nx, ny, nz = SIZES[size]
    job = os.path.join(a.workdir, f"ccx_{size}_{nmodes}")
    for ext in (".dat", ".frd", ".sta", ".cvg"):
        if os.path.exists(job + ext):
            os.remove(job + ext)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts/ccx_plate.py"), job, "1.0", "0.5", "0.02",
                    str(nx), str(ny), str(nz), "210e9", "0.3", "7850", str(nmodes)], check=True)
    # the wrapper's own ru_maxrss is not counted: RSS and time are CalculiX's alone
    rc, wall, text = run(["/usr/bin/python3", "-c", WRAP, "ccx", "-i", os.path.basename(job)],
                         job + ".log", a.ccx_timeout, cwd=a.workdir, env=dict(ENV, OMP_NUM_THREADS="1"))
    ndof = plate_ndof(size)
    w = rss_of(text)
    if rc != 0:
        r = failed_row("ccx", size, ndof, nmodes, 1, wall, "timeout" if rc == "timeout" else f"failed (rc {rc})")
        if w:
            r.update(rss=w[0][2], rss_total=w[0][2])
        return r
    fr = subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "scripts/ccx_freqs.py"), job + ".dat"],
                        capture_output=True, text=True, check=True).stdout.split()
    return dict(code="ccx", size=size, ndof=ndof, nmodes=nmodes, np=1, wall=w[0][1], status="ok", rss=w[0][2],
                rss_total=w[0][2], cpu=cpu_share(w), f1=float(fr[0]), flast=float(fr[-1]), nfreq=len(fr), load=LOAD, freqs=list(map(float, fr)))


HDR = ("| code | DOFs | modes | ranks | wall [s] | eigensolve [s] | factorization [s] (count) | solves [s] (count) "
       "| ms/solve | orthog. [s] | peak RSS/rank [MiB] | RSS total [MiB] | f1 [Hz] | f_last [Hz] | max rel. dev. | load | CPU share |\n"
       "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")


def fmt(r):
    def n(k, p=1):
        x = r.get(k, NAN)
        return "-" if x != x else f"{x:.{p}f}"
    if r["status"] != "ok":
        return (f"| {r['code']} | {r['ndof']} | {r['nmodes']} | {r['np']} | {r['status']} after {r['wall']:.0f} s "
                f"| - | - | - | - | - | {n('rss', 0)} | {n('rss_total', 0)} | - | - | - | {n('load')} | - |")
    fa = f"{n('fact')} ({r['nfact']})" if "nfact" in r else "-"
    so = f"{n('solve')} ({r['nsolve']})" if "nsolve" in r else "-"
    ms = f"{1e3 * r['solve'] / r['nsolve']:.1f}" if r.get("nsolve") else "-"
    dev = "-" if r.get("dev", NAN) != r.get("dev", NAN) else f"{r['dev']:.1e}"
    fl = f"{r['flast']:.3f}" + (f" (#{r['nfreq']})" if r["nfreq"] != r["nmodes"] else "")
    return (f"| {r['code']} | {r['ndof']} | {r['nmodes']} | {r['np']} | {n('wall')} | {n('eig')} | {fa} | {so} | {ms} "
            f"| {n('orth')} | {n('rss', 0)} | {n('rss_total', 0)} | {r['f1']:.6f} | {fl} | {dev} | {n('load')} | {n('cpu', 2)} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="50k,200k,1M")
    ap.add_argument("--modes", default="20,200")
    ap.add_argument("--ranks", default="1,2")
    ap.add_argument("--ccx-max", default="200k", help="largest size CalculiX is run on ('none' to skip)")
    ap.add_argument("--timeout", type=float, default=None, help="per-run limit in seconds for dynred; the run is killed "
                    "and reported as 'timeout' (default: none)")
    ap.add_argument("--ccx-timeout", type=float, default=None, help="the same for CalculiX (default: none)")
    ap.add_argument("--extra", default="", help="extra options for every dynred run, e.g. '-modal_st_mat_mumps_icntl_13 0'")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/results/modal.md"))
    ap.add_argument("--workdir", default="/tmp/dynred-bench")
    ap.add_argument("--bin", default=os.path.join(ROOT, "bin/dynred"), help="dynred binary (copied into --workdir first)")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    src, a.bin = a.bin, os.path.join(a.workdir, "dynred")
    if os.path.abspath(src) != a.bin:
        shutil.copy2(src, a.bin)
    order = list(SIZES)
    ccx_max = order.index(a.ccx_max) if a.ccx_max in order else -1
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    head = (f"Command: `{' '.join(['bench/modal_bench.py'] + sys.argv[1:])}` on {os.uname().nodename} "
            f"({cpu}, {os.cpu_count()} cores), {time.strftime('%Y-%m-%d %H:%M')}\n\n")
    rows = []

    def emit(r):
        ref = next((x for x in rows if x["code"] == "dynred" and x["status"] == "ok" and x["size"] == r["size"]
                    and x["nmodes"] == r["nmodes"]), None)
        if ref and r["status"] == "ok" and ref is not r:
            m = min(len(ref["freqs"]), len(r["freqs"]))
            r["dev"] = max(abs(p - q) / q for p, q in zip(r["freqs"][:m], ref["freqs"][:m]))
        rows.append(r)
        print(fmt(r), flush=True)
        with open(a.out, "w") as f:
            f.write(head + HDR + "\n" + "\n".join(fmt(x) for x in rows) + "\n")

    print(HDR, flush=True)
    for size in a.sizes.split(","):
        for nm in map(int, a.modes.split(",")):
            for np_ in [int(x) for x in a.ranks.split(",") if x.strip() not in ("", "none")]:
                emit(run_dynred(a, size, nm, np_))
            if order.index(size) <= ccx_max:
                emit(run_ccx(a, size, nm))


if __name__ == "__main__":
    main()
