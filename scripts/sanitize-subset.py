#!/usr/bin/python3
"""Choose the sanitizer run's subset of the suite: tests/sanitize.list.

    nice -n 15 /usr/bin/python3 scripts/sanitize-subset.py            # build, run, choose, write
    /usr/bin/python3 scripts/sanitize-subset.py --gcov-dir DIR --times LOG [--times LOG2]
                                           # choose from earlier runs (GCOV_DIR=DIR, their outputs)

Method.  dynred and the unit test programs are built with gcov
instrumentation (make B=build-cov BINDIR=bin-cov OPT="-Og --coverage
-Wno-format-truncation"; not -O0: in the build's POSIX mode only glibc's
_FORTIFY_SOURCE wrapper, which needs optimization, declares realpath() for
src/couple/checkpoint.c; at -Og GCC sees a possible truncation in a unit
test's message that -O2 does not), and
the whole suite runs once against that build (tests/run_tests.sh with
DYNRED=bin-cov/dynred, TBIN=build-cov/tests and GCOV_DIR=DIR: each test's
processes write their .gcda files under DIR/TEST/).  A test exercises a C
file of src/ when one of the file's arc counters in the test's .gcda is
nonzero (some of its code ran; every object of the program writes a .gcda
at exit, run or not, so the files' presence says nothing).  The .gcda files
are read directly (GCC 12 format: gcov-io.h; a counter record with a
negative length is all zeros).

The subset is a greedy weighted set cover over the C files of src/: the
tests forced in (FORCED: sanitizer_catch, the test that the checks fail on a
sanitizer report on an error path), then, repeatedly, the test that runs the
most files not yet run per second of its time in the coverage run (plus 2 s,
a process start under ASan), until no test adds a file.  Tests that failed
in the coverage run are not candidates.  Files that no test runs are named
in the list's last comment line (and warned about by
scripts/sanitize-check.sh, which checks that every src/ C file appears in
the list).  Greedy set cover is within a factor ln(n) of the cheapest cover
(Chvatal, "A greedy heuristic for the set-covering problem", Math. Oper.
Res. 4, 1979).

The list: one test per line, the test's name and then the files of src/
that it is the first in the list to run; comment lines start with #.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORCED = ["sanitizer_catch"]
START_COST = 2.0  # s: a process start under ASan (MPI_Init included)
COUNTER_TAGS = range(0x01A10000, 0x01C00000, 0x00020000)


def gcda_ran(path):
    """True when any arc counter of the .gcda file is nonzero."""
    data = open(path, "rb").read()
    if len(data) < 16 or data[:4] != b"adcg":
        raise ValueError(f"{path}: not a little-endian .gcda file")
    pos = 16  # magic, version, stamp, checksum
    while pos + 8 <= len(data):
        tag, length = struct.unpack_from("<Ii", data, pos)
        pos += 8
        if length < 0:  # a counter record that is all zeros: no payload
            continue
        if tag == 0x01A10000:  # arcs
            n = length // 8
            if any(struct.unpack_from(f"<{n}q", data, pos)):
                return True
        pos += length
    return False


def sources():
    out = []
    for d, _, fs in os.walk(os.path.join(ROOT, "src")):
        out += [os.path.relpath(os.path.join(d, f), ROOT) for f in fs if f.endswith(".c")]
    return sorted(out)


def coverage(gcov_dir, srcs):
    """{test: set of src files it ran}"""
    cov = {}
    for test in sorted(os.listdir(gcov_dir)):
        ran = set()
        for d, _, fs in os.walk(os.path.join(gcov_dir, test)):
            for f in fs:
                if not f.endswith(".gcda"):
                    continue
                p = os.path.join(d, f)
                m = re.search(r"/build-cov/(src/.*)\.gcda$", p)
                if m and m.group(1) + ".c" in srcs and gcda_ran(p):
                    ran.add(m.group(1) + ".c")
        cov[test] = ran
    return cov


def times(log):
    """{test: (ok, seconds)} from tests/run_tests.sh's output"""
    t = {}
    for line in open(log):
        m = re.match(r"^(ok|FAIL) +(\S+) +([0-9.]+) s$", line.rstrip())
        if m:
            t[m.group(2)] = (m.group(1) == "ok", float(m.group(3)))
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gcov-dir", help="an earlier run's GCOV_DIR (skips the build and the run)")
    ap.add_argument("--times", action="append", help="that run's tests/run_tests.sh output (repeatable: runs of parts of the suite into one DIR)")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "sanitize.list"))
    a = ap.parse_args()
    os.chdir(ROOT)
    if not a.gcov_dir:
        a.gcov_dir = "/tmp/dynred-gcov"
        a.times = [a.gcov_dir + ".log"]
        subprocess.run(["rm", "-rf", a.gcov_dir], check=True)
        subprocess.run(["make", "-j2", "B=build-cov", "BINDIR=bin-cov", "OPT=-Og --coverage -Wno-format-truncation", "all"], check=True)
        subprocess.run(["find", "build-cov", "-name", "*.gcda", "-delete"], check=True)
        env = dict(os.environ, DYNRED=f"{ROOT}/bin-cov/dynred", TBIN=f"{ROOT}/build-cov/tests", GCOV_DIR=a.gcov_dir,
                   TESTS_FILE="tests/tests.list bench/checks.list")  # the suite and the heavy cases
        with open(a.times[0], "w") as f:
            subprocess.run(["bash", "tests/run_tests.sh"], env=env, stdout=f, stderr=subprocess.STDOUT)
    srcs = set(sources())
    cov = coverage(a.gcov_dir, srcs)
    tm = {}
    for log in a.times or []:
        tm.update(times(log))
    listed = [l.split(":", 1)[0] for p in ("tests/tests.list", "bench/checks.list") for l in open(p)
              if l.strip() and not l.startswith("#")]
    failed = [t for t in listed if t in tm and not tm[t][0]]
    nodata = [t for t in listed if t not in tm and t not in FORCED]
    cand = {t: cov.get(t, set()) for t in listed if t in tm and tm[t][0]}
    chosen, done = [], set()
    for t in FORCED:
        if t not in listed:
            sys.exit(f"sanitize-subset: forced test {t} is not in tests/tests.list or bench/checks.list")
        new = cov.get(t, set()) - done
        chosen.append((t, sorted(new)))
        done |= new
    while True:
        best, key = None, 0.0
        for t, s in cand.items():
            if t in FORCED or t in (c for c, _ in chosen):
                continue
            k = len(s - done) / (tm[t][1] + START_COST)
            if k > key:
                best, key = t, k
        if best is None:
            break
        new = cand[best] - done
        chosen.append((best, sorted(new)))
        done |= new
    missing = sorted(srcs - done)
    tsub = sum(tm.get(t, (0, 0.0))[1] for t, _ in chosen)
    tall = sum(s for ok, s in tm.values())
    with open(a.out, "w") as f:
        f.write("# The sanitizer run's tests (scripts/sanitize-check.sh; make check-sanitize runs\n"
                "# every test).  Written by scripts/sanitize-subset.py: a greedy cover of the C\n"
                f"# files of src/ by the tests, from a gcov run of {'the whole suite' if not nodata else f'{len(listed) - len(nodata)} of the suite' + chr(39) + f's {len(listed)} tests'}; regenerate it\n"
                "# when tests or source files are added.  A line: the test, then the files of\n"
                "# src/ it is the first here to run (the forced tests first, then in\n"
                "# the order chosen).\n")
        f.write(f"# {len(chosen)} of {len(listed)} tests, {len(done)} of {len(srcs)} files; "
                f"{tsub:.0f} s of the {tall:.0f} s of the tests run in the coverage build (-Og)\n")
        if failed:
            f.write(f"# failed in the coverage run, not candidates: {' '.join(failed)}\n")
        if nodata:
            f.write(f"# not in the coverage run (it was cut short), not candidates: {' '.join(nodata)}\n")
        for t, new in chosen:
            f.write(f"{t:<28} {' '.join(new)}\n".rstrip() + "\n")
        f.write(f"# run by no test: {' '.join(missing) if missing else 'none'}\n")
    print(f"sanitize-subset: {len(chosen)} of {len(listed)} tests cover {len(done)} of {len(srcs)} files "
          f"({tsub:.0f} s of {tall:.0f} s at -Og); not covered: {' '.join(missing) or 'none'}; wrote {a.out}")


if __name__ == "__main__":
    main()
