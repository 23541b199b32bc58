#!/usr/bin/python3
"""Fuzz dynred's readers and job-file parser with mutated valid inputs.

  scripts/fuzz.py [--cases N] [--seed S] [-j JOBS] [--np2-every K]
                  [--timeout SEC] [--bin DYNRED] [--failures DIR]
                  [--only SCENARIO[,..]] [--full] [--keep]

The seed corpus is tests/data/fuzz (job files of every subcommand with the
inputs they read; make_seeds.py there regenerates the binary ones).  Each
case copies one scenario (a job file and its inputs) into a fresh directory,
mutates ONE of its files (deterministically from --seed and the case number,
so a case is the same whatever -j), runs

    DYNRED -config JOB.yaml              (every K-th case: MPIEXEC -n 2 ...)

under a time limit and classifies the run.

The component-reader scenarios (READER_SCENARIOS: Abaqus .mtx in both
forms, Ansys Harwell-Boeing with its mapping file, DMIG punch files in small
and large field) get mutations of their own besides the text ones: a space
inserted or removed inside a line (fixed-width fields shifted), an integer
replaced by an out-of-range index (0, -1, one past the end, 2^31), a line
duplicated with its value changed (a duplicated entry).  They are drawn for
every case with --full (or when --only names them).  With --full a case
draws its scenario and file at random; without it (the quick run,
tests/tests.list fuzz_quick) case i takes the i-th (scenario, file) pair
modulo their number, in a fixed order, so N cases mutate every input file
of every scenario N / (number of pairs) times (the mutation itself is still
drawn from --seed and i).  A failed reader case must also say where: its error line
names the file with a line (FILE:LINE) or a record, entry, card, row,
column or DOF (or a property of the whole matrix: not definite, not
symmetric); else it is classified

  noplace     one error line naming the file, but not the place in it

and the run classifies:

  pass        exit 0 (the mutation was harmless), or exit != 0 with exactly
              one `dynred: error:` line that names the mutated file (its
              base name, or the component it belongs to), nothing left in
              the directory that was not there before (outputs are written
              under a temporary name and renamed), and none of the noise
              below
  crash       killed by a signal (segfault, abort, ...)
  hang        still running after --timeout seconds (killed)
  sanitizer   an AddressSanitizer / UndefinedBehaviorSanitizer /
              LeakSanitizer report in the output (sanitizer build)
  nomsg       exit != 0 without a `dynred: error:` line (e.g. an MPI abort
              without a message)
  multimsg    more than one `dynred: error:` line, or PETSc error trace
              lines, or an HDF5 error stack
  nofile      one error line, but it names neither the mutated file nor its
              component
  late        a configuration error found after the expensive work began:
              exactly one error line, naming a key's place (JOB.yaml:LINE or
              "command line -OPT": the message of a check between keys), but
              a solve had printed its progress before it (the `[   t s]`
              lines of component reductions, sweep points, generations,
              simulations) or the run left a file behind (a checkpoint, an
              output): every such check belongs before the expensive phase,
              where a refused job leaves nothing
  leftover    a failed run left a new file behind

Failing cases are copied to --failures (default fuzz-failures/CLASS/NNNNN)
with the mutated input, the output and replay.sh.  The totals are printed
at the end; the exit status is 1 when any case failed.
"""
import argparse
import os
import random
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CORPUS = os.path.join(ROOT, "tests", "data", "fuzz")

# scenario: job file, every file it reads, {file: component name}
SCENARIOS = {
    "cms_mtx": ("cms_mtx.yaml", ["a_K.mtx", "a_M.mtx", "a.dof", "b_K.mtx", "b_M.mtx", "b.dof"],
                {"a_K.mtx": "a", "a_M.mtx": "a", "a.dof": "a", "b_K.mtx": "b", "b_M.mtx": "b", "b.dof": "b"}),
    "cms_bin": ("cms_bin.yaml", ["a.bin", "a.bin.dof", "b.h5"], {"a.bin": "a", "a.bin.dof": "a", "b.h5": "b"}),
    "cms_op4": ("cms_op4.yaml", ["a.op4", "b.op4", "a.dof", "b.dof"],
                {"a.op4": "a", "b.op4": "b", "a.dof": "a", "b.dof": "b"}),
    "modal_ccx": ("modal_ccx.yaml", ["block.sti", "block.mas", "block.dof", "block.inp"],
                  {"block.sti": "block", "block.mas": "block", "block.dof": "block", "block.inp": "block"}),
    "modal_plate": ("modal_plate.yaml", [], {}),
    "ss": ("ss.yaml", ["cms_result.h5"], {}),
    "gmp": ("gmp.yaml", [], {}),
    "gmp_transient": ("gmp_transient.yaml", [], {}),
    "ga": ("ga.yaml", [], {}),
    "modal_abq": ("modal_abq.yaml", ["abq_lower_STIF1.mtx", "abq_lower_MASS1.mtx"],
                  {"abq_lower_STIF1.mtx": "c", "abq_lower_MASS1.mtx": "c"}),
    "modal_abqc": ("modal_abqc.yaml", ["abqc_STIF1.mtx", "abqc_MASS1.mtx", "abqc.dof"],
                   {"abqc_STIF1.mtx": "c", "abqc_MASS1.mtx": "c", "abqc.dof": "c"}),
    "modal_ans": ("modal_ans.yaml", ["ans_K.matrix", "ans_M.matrix", "ans.mapping"],
                  {"ans_K.matrix": "c", "ans_M.matrix": "c", "ans.mapping": "c"}),
    "modal_dmig": ("modal_dmig.yaml", ["dmig.dat"], {"dmig.dat": "c"}),
    "modal_dmigl": ("modal_dmigl.yaml", ["dmig_large.dat"], {"dmig_large.dat": "c"}),
}
# the component readers' scenarios: their own mutations besides the text ones
READER_SCENARIOS = {"modal_abq", "modal_abqc", "modal_ans", "modal_dmig", "modal_dmigl"}
READER_FILES = {f for s in READER_SCENARIOS for f in SCENARIOS[s][1]}
# a reader's error line says where in the file: FILE:LINE, or a record,
# entry, card, row, column, DOF, equation or DMIG matrix; or it is a
# property of the whole matrix (a value changed into a valid but different
# matrix: not definite, not symmetric), which has no place
PLACE = re.compile(r":\d+|\b(line|record|entry|entries|card|row|column|DOF|equation|index|header|node|DMIG matrix)s?\b|"
                   r"not positive (semi)?definite|not symmetric", re.I)

# binary seeds whose extension does not say so (b.op4: Fortran unformatted records)
BINARY_SEEDS = {"b.op4"}

SPECIAL = ["nan", "NaN", "inf", "-inf", "Inf", "1e308", "-1e308", "1e309", "-1", "0", "-2147483649",
           "2147483648", "9223372036854775808", "99999999999", "1e-320", "-0", "1.5", "0x10", ""]
NUM = re.compile(rb"(?<![A-Za-z_])[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
SANITIZER = re.compile(r"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer")
NOISE = re.compile(r"PETSC ERROR|HDF5-DIAG|Traceback|^\s*#\d+ 0x", re.M)
# a solve phase's progress line (DRProgress: "[   12.3 s] ...")
PROGRESS = re.compile(r"^\[ *[0-9.]+ s\] ", re.M)


# Known message defects OUTSIDE the files the fuzz work owns (readers,
# config, h5, store), reported to their owners: a case whose failure
# matches one is counted under "known:TAG", not as a failure.  Remove an
# entry once its module is fixed; --strict counts them as failures.
KNOWN = [
    ("lapack", r"dynred: error: (the coupled )?reduced (stiffness|mass) matrix is not positive",
     "the coupled reduced K - sigma M indefinite at a BOUNDARY coordinate (shared by several parts: none named) or in a dense solve other than the coupled one (src/couple/solve.c names the component for a modal coordinate)"),
    ("rrbound", r"dynred: error: verify: CMS mode \d+ at .* lies below the full model's",
     "verify's Rayleigh-Ritz bound check on a badly conditioned M (a 2e9 mass entry): one line now, but it names no file (src/couple/verify.c: either solve may be the inaccurate one)"),
    ("offgrid", r"dynred: error: GMP interpolation at theta\S* = \S+: outside the grid",
     "the GMP transient driven off a non-periodic grid (a huge torque): an outcome of the integration, not of the keys, so not a set-up check; the sweep checkpoint stays for a rerun with other transient keys (tests/e2e/gmp_transient_yaw.sh expects this line)"),
]
# Fixed since (each with a case in tests/e2e/failfast.sh): builder (built-in
# model and mechanism values: key ranges with exclusive bounds, builder
# errors re-raised at model.builtin's line, slider-crank checks in
# src/gmp/sweep.c), modalrange and modalsize (src/app/job_modal.c), slepc
# (an indefinite or overflowing M: src/model/component.c names the file and
# the entry), mdiag (M's own file in the message).  disjoint: every part
# without an interface is named in one line (src/couple/interface.c).
# recover0 (K with a 1e308 entry reached the recovery with 0 modes): such
# entries are refused when the component is read (|entries| <= 1e150,
# src/model/component.c).  lapack: its most frequent cause was a real bug,
# fixed: a residual correction of a component whose every interior mode was
# kept was appended as noise and made M_r singular (src/reduce/correct.c;
# tests/e2e/cms_corrections.sh); what remains are M with entries 1e100 apart.

# ---------------------------------------------------------------- mutations
def m_truncate(rng, data, name):
    return data[: rng.randrange(0, max(1, len(data)))], "truncate"


def m_flip(rng, data, name):
    if not data:
        return data, "flip(empty)"
    b = bytearray(data)
    k = rng.choice([1, 1, 2, 4, 16])
    for _ in range(k):
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
    return bytes(b), f"flip x{k}"


def m_number(rng, data, name):
    nums = list(NUM.finditer(data))
    if not nums:
        return m_flip(rng, data, name)
    mt = rng.choice(nums)
    s = rng.choice(SPECIAL)
    return data[: mt.start()] + s.encode() + data[mt.end():], f"number '{mt.group().decode()}' -> '{s}'"


def lines_of(data):
    ls = data.split(b"\n")
    return ls


def m_dupline(rng, data, name):
    ls = lines_of(data)
    i = rng.randrange(len(ls))
    ls.insert(i, ls[i])
    return b"\n".join(ls), f"duplicate line {i + 1}"


def m_delline(rng, data, name):
    ls = lines_of(data)
    i = rng.randrange(len(ls))
    del ls[i]
    return b"\n".join(ls), f"delete line {i + 1}"


def m_swaplines(rng, data, name):
    ls = lines_of(data)
    i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return b"\n".join(ls), f"swap lines {i + 1}, {j + 1}"


def m_yaml(rng, data, name):
    """Swap a key and its value, or give a key another key's value, or
    replace a value with a list / mapping / empty / long string."""
    ls = lines_of(data)
    kv = [i for i, l in enumerate(ls) if re.match(rb"^\s*-?\s*[A-Za-z_.0-9]+:\s*\S", l)]
    if not kv:
        return m_flip(rng, data, name)
    i = rng.choice(kv)
    m = re.match(rb"^(\s*-?\s*)([A-Za-z_.0-9]+):\s*(.*)$", ls[i])
    ind, key, val = m.group(1), m.group(2), m.group(3)
    how = rng.randrange(5)
    if how == 0:
        ls[i] = ind + val.split(b"#")[0].strip().strip(b"{[").split(b",")[0].split(b":")[0] + b": " + key
        what = "swap key/value"
    elif how == 1:
        j = rng.choice(kv)
        other = re.match(rb"^\s*-?\s*[A-Za-z_.0-9]+:\s*(.*)$", ls[j]).group(1)
        ls[i] = ind + key + b": " + other
        what = f"value of line {j + 1}"
    elif how == 2:
        ls[i] = ind + key + b": " + rng.choice([b"[1, 2]", b"{x: 1}", b"", b"~", b"'" + b"x" * 5000 + b"'",
                                               b"-1", b"1e999", b"nan", b"true", b"\"\\0\"", b"*alias", b"&a x"])
        what = "replace value"
    elif how == 3:
        ls[i] = ind + key + b"x: " + val
        what = "unknown key"
    else:
        ls.insert(i, ls[i])
        what = "duplicate key"
    return b"\n".join(ls), f"yaml line {i + 1}: {what}"


def m_bin_int(rng, data, name):
    """Overwrite a 4- or 8-byte word with a huge, negative or zero integer
    (PETSc binary header, row lengths, column indices; HDF5 sizes)."""
    if len(data) < 8:
        return m_flip(rng, data, name)
    b = bytearray(data)
    w = rng.choice([4, 8])
    i = rng.randrange(0, min(len(b) - w, 64)) if rng.random() < 0.5 else rng.randrange(0, len(b) - w)
    i -= i % w
    v = rng.choice([0, -1, -7, 1, 2**31 - 1, 2**30, 1000000, 2**62])
    if w == 4:
        b[i:i + 4] = struct.pack(">i", max(min(v, 2**31 - 1), -2**31))
    else:
        b[i:i + 8] = struct.pack(">q", v)
    return bytes(b), f"int{8 * w} at {i} = {v}"


def m_bin_double(rng, data, name):
    """Overwrite an aligned double with NaN, Inf or 1e308 (matrix values)."""
    if len(data) < 16:
        return m_flip(rng, data, name)
    b = bytearray(data)
    i = rng.randrange(len(b) - 8)
    i -= i % 4
    v = rng.choice([float("nan"), float("inf"), -float("inf"), 1e308, -1e308, 0.0])
    b[i:i + 8] = struct.pack(">d", v)
    return bytes(b), f"double at {i} = {v}"


def m_h5(rng, path, name):
    """Structural HDF5 mutations with h5py: a dataset's values replaced by
    NaN / huge / negative entries, a dataset or attribute removed or resized,
    an attribute changed."""
    import h5py
    import numpy as np
    with h5py.File(path, "r+") as f:
        dsets, groups = [], []
        f.visititems(lambda n, o: (dsets if isinstance(o, h5py.Dataset) else groups).append(n))
        attrs = [(g, a) for g in ["/"] + groups for a in f[g].attrs]
        how = rng.randrange(6)
        if how == 5 and attrs:
            g, a = rng.choice(attrs)
            v = f[g].attrs[a]
            new = rng.choice([-1, 0, 2**40, "garbage", 1e308])
            del f[g].attrs[a]
            if rng.random() < 0.7:
                f[g].attrs[a] = new
                return f"attribute {g}@{a} = {new!r} (was {v!r})"
            return f"attribute {g}@{a} removed"
        d = rng.choice(dsets)
        x = f[d][()]
        if how == 0:
            del f[d]
            return f"dataset {d} removed"
        if how == 1 and x.size:
            x = np.asarray(x).copy()
            flat = x.reshape(-1)
            k = rng.randrange(flat.size)
            if x.dtype.kind == "f":
                flat[k] = rng.choice([np.nan, np.inf, -np.inf, 1e308, -1e308])
            elif x.dtype.kind in "iu":
                info = np.iinfo(x.dtype)
                flat[k] = rng.choice([-1, info.min, info.max, 2**31 - 1, flat.size, 0]) if info.min < 0 else \
                    rng.choice([info.max, flat.size, 0])
            del f[d]
            f[d] = x
            return f"dataset {d}[{k}] = {flat[k]!r}"
        if how == 2 and x.size:
            x = np.asarray(x)
            cut = x[: rng.randrange(x.shape[0])] if x.ndim else x
            del f[d]
            f[d] = cut
            return f"dataset {d} cut to {getattr(cut, 'shape', ())}"
        if how == 3:
            x = np.asarray(x)
            del f[d]
            f[d] = np.concatenate([x, x[:1]]) if x.ndim and x.size else x
            return f"dataset {d} one row longer"
        x = np.asarray(x)
        del f[d]
        f[d] = x.astype("f4") if x.dtype.kind in "iu" else (x.astype("i4") if x.dtype.kind == "f" else x)
        return f"dataset {d} retyped"


def m_shift(rng, data, name):
    """Insert or remove a space inside a line: fixed-width fields (DMIG's
    8 / 16 columns, Harwell-Boeing's FORTRAN formats) shifted."""
    ls = lines_of(data)
    i = rng.randrange(len(ls))
    if not ls[i]:
        return m_flip(rng, data, name)
    k = rng.randrange(len(ls[i]))
    if rng.random() < 0.5:
        ls[i] = ls[i][:k] + b" " + ls[i][k:]
        return b"\n".join(ls), f"line {i + 1}: space inserted at column {k + 1}"
    ls[i] = ls[i][:k] + ls[i][k + 1:]
    return b"\n".join(ls), f"line {i + 1}: column {k + 1} removed"


INT = re.compile(rb"(?<![A-Za-z_.\d+-])\d+(?![.\deE+-])")


def m_index(rng, data, name):
    """Replace an integer (an index, a count, a node or DOF number) by an
    out-of-range value: 0, -1, one past the largest integer of the file,
    2^31, 2^63."""
    ints = list(INT.finditer(data))
    if not ints:
        return m_number(rng, data, name)
    mt = rng.choice(ints)
    top = max(int(m.group()) for m in ints)
    v = rng.choice(["0", "-1", str(top + 1), str(int(mt.group()) + 1), "2147483648", "9223372036854775808"])
    return data[: mt.start()] + v.encode() + data[mt.end():], f"integer '{mt.group().decode()}' -> '{v}'"


def m_dupentry(rng, data, name):
    """Duplicate a line, its last number changed (a duplicated entry with
    another value)."""
    ls = lines_of(data)
    i = rng.randrange(len(ls))
    dup = ls[i]
    nums = list(NUM.finditer(dup))
    if nums:
        mt = nums[-1]
        dup = dup[: mt.start()] + b"7.5" + dup[mt.end():]
    ls.insert(i + 1, dup)
    return b"\n".join(ls), f"line {i + 1} duplicated, last number 7.5"


TEXT_MUT = [m_truncate, m_flip, m_number, m_number, m_number, m_dupline, m_delline, m_swaplines]
YAML_MUT = TEXT_MUT + [m_yaml, m_yaml, m_yaml, m_yaml]
BIN_MUT = [m_truncate, m_flip, m_bin_int, m_bin_int, m_bin_double]
READER_MUT = TEXT_MUT + [m_shift, m_shift, m_index, m_index, m_index, m_dupentry, m_dupentry]


def mutate(rng, d, fname):
    path = os.path.join(d, fname)
    if fname.endswith(".h5") and rng.random() < 0.6:
        return m_h5(rng, path, fname)
    with open(path, "rb") as f:
        data = f.read()
    ops = YAML_MUT if fname.endswith(".yaml") else READER_MUT if fname in READER_FILES else BIN_MUT if fname.endswith((".bin", ".h5")) or fname in BINARY_SEEDS else TEXT_MUT
    op = rng.choice(ops)
    data, what = op(rng, data, fname)
    with open(path, "wb") as f:
        f.write(data)
    return what


# ---------------------------------------------------------------- running
def listing(d):
    out = set()
    for r, _, fs in os.walk(d):
        for f in fs:
            out.add(os.path.relpath(os.path.join(r, f), d))
    return out


def classify(rc, out, timed_out, fname, comp, before, after, inputs=()):
    if SANITIZER.search(out):
        return "sanitizer"
    if timed_out:
        return "hang"
    if rc < 0 or rc >= 128:
        return "crash"
    if rc == 0:  # a successful run leaves no temporary file either
        return "leftover" if any(".tmp" in f for f in after - before) else "pass"
    errs = [l for l in out.splitlines() if "dynred: error:" in l]
    if not errs:
        return "nomsg"
    if len(set(errs)) > 1 or NOISE.search(out) or len(errs) > 2:
        return "multimsg"
    e = errs[0]
    new = sorted(after - before)
    # a key's place in the job file or on the command line: a configuration
    # check, which must come before any solve and leave nothing behind
    if (re.search(r"error: \S+\.yaml:\d+: |error: command line -", e) and
            (new or PROGRESS.search(out[: out.find("dynred: error:")]))):
        return "late"
    base = os.path.basename(fname)
    # a job file whose mutated path names a missing file: the message names that file
    # or a job file whose mutation left another component or input to fail:
    # the message names that input (e.g. component a deleted: b floats)
    renamed = base.endswith(".yaml") and (re.search(r"error: \S+: cannot open", e) or
                                          any(f in e for f in inputs))
    if base not in e and not renamed and not (comp and (f"'{comp}'" in e or f"error: {comp}:" in e)):
        return "nofile"
    if new:
        return "leftover"
    if base in READER_FILES and not PLACE.search(e.split("dynred: error:", 1)[-1]):
        return "noplace"
    return "pass"


def run_case(args, i):
    rng = random.Random(args.seed * 1000003 + i)
    names = [s for s in sorted(SCENARIOS) if s in args.only] if args.only else sorted(SCENARIOS)
    pairs = [(s, f) for s in names for f in [SCENARIOS[s][0]] + SCENARIOS[s][1]]
    scen, fname = rng.choice(pairs) if args.full or args.only else pairs[i % len(pairs)]
    job, files, comps = SCENARIOS[scen]
    np2 = args.np2_every > 0 and i % args.np2_every == args.np2_every - 1
    d = tempfile.mkdtemp(prefix=f"case{i:05d}.", dir=args.work)
    for f in [job] + files:
        shutil.copy(os.path.join(CORPUS, f), d)
    what = mutate(rng, d, fname)
    before = listing(d)
    cmd = ([*args.mpiexec, "-n", "2"] if np2 else []) + [args.bin, "-config", job]
    t0 = time.time()
    for attempt in range(3):
        p = subprocess.Popen(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        timed_out = False
        try:
            raw, _ = p.communicate(timeout=args.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            raw, _ = p.communicate()
        rc = p.returncode
        out = raw.decode("utf-8", "replace")
        # Open MPI did not start (dynred never ran): two singletons starting at
        # once race to create the session directory /tmp/ompi.HOST.UID ("A call
        # to mkdir was unable to create the desired directory ... File exists",
        # then "orte_init failed"); seen twice in 240 cases while other MPI jobs
        # started beside the suite.  Not the case's outcome: run it again.
        if timed_out or "dynred" in out or not re.search(r"orte_init failed|MPI_INIT failed", out):
            break
        time.sleep(0.2 + random.random())
    # mpiexec reports a rank killed by a signal in its own words
    if np2 and re.search(r"exited on signal|terminated with signal|Segmentation fault", out):
        rc = 128 + 11 if rc >= 0 and rc < 128 else rc
    after = listing(d)
    cls = classify(rc, out, timed_out, fname, comps.get(fname), before, after, files)
    if cls not in ("pass", "crash", "hang", "sanitizer", "leftover", "late") and not args.strict:
        cls = next((f"known:{tag}" for tag, rx, _ in KNOWN if re.search(rx, out)), cls)
    res = dict(i=i, scen=scen, file=fname, what=what, np=2 if np2 else 1, rc=rc, cls=cls,
               sec=time.time() - t0, err=next((l for l in out.splitlines() if "dynred: error:" in l), ""))
    if cls != "pass" and not cls.startswith("known:"):
        dst = os.path.join(args.failures, cls, f"{i:05d}")
        shutil.rmtree(dst, ignore_errors=True)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copytree(d, dst)
        with open(os.path.join(dst, "fuzz-output.txt"), "w") as f:
            f.write(f"case {i}: scenario {scen}, {fname}: {what}; ranks {res['np']}; exit {rc}; class {cls}\n")
            f.write(f"new files: {sorted(after - before)}\n")
            f.write(out)
        with open(os.path.join(dst, "replay.sh"), "w") as f:
            f.write("#!/bin/sh\n# replay: runs the case again in this directory\ncd \"$(dirname \"$0\")\"\n")
            f.write(" ".join(shlex.quote(args.bin_given if c == args.bin else c) for c in cmd) + "\n")
    if not args.keep:
        shutil.rmtree(d, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--first", type=int, default=0, help="first case number (to resume a long run)")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--np2-every", type=int, default=8, help="every K-th case on 2 MPI ranks (0: never)")
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--bin", default=os.environ.get("DYNRED", os.path.join(ROOT, "bin", "dynred")))
    ap.add_argument("--failures", default="fuzz-failures")
    ap.add_argument("--only", default="", help="comma list of scenarios: " + ", ".join(sorted(SCENARIOS)))
    ap.add_argument("--keep", action="store_true", help="keep every case directory")
    ap.add_argument("--full", action="store_true",
                    help="draw each case's scenario and file at random (without it case i takes the i-th "
                         "(scenario, file) pair, every pair in turn)")
    ap.add_argument("--max-seconds", type=float, default=0, help="stop (between batches of 50) after this long")
    ap.add_argument("--leaks", action="store_true", help="sanitizer build: keep LeakSanitizer on (off by default)")
    ap.add_argument("--strict", action="store_true", help="count the KNOWN message defects as failures")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per case")
    args = ap.parse_args()
    args.only = [s for s in args.only.split(",") if s]
    args.bin = args.bin_given = os.path.abspath(args.bin)
    args.failures = os.path.abspath(args.failures)
    args.mpiexec = shlex.split(os.environ.get("MPIEXEC", "mpiexec --oversubscribe"))
    for k, v in (("OMPI_ALLOW_RUN_AS_ROOT", "1"), ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"),
                 ("OMPI_MCA_rmaps_base_oversubscribe", "1")):
        os.environ.setdefault(k, v)
    if "ASAN_OPTIONS" in os.environ and not args.leaks:
        # leaks are the suite's business (scripts/sanitize-check.sh); here the
        # sanitizers look for memory errors and undefined behaviour, and the
        # slow unwinding the leak suppressions need would cost seconds per case
        os.environ["ASAN_OPTIONS"] += ":detect_leaks=0"
    args.work = tempfile.mkdtemp(prefix="dynred-fuzz.")
    # run a copy, so a rebuild during a long run does not pull the binary away
    shutil.copy2(args.bin, os.path.join(args.work, "dynred"))
    args.bin = os.path.join(args.work, "dynred")
    t0 = time.time()
    totals, n = {}, 0
    def results(ex):
        """Cases in batches, so --max-seconds can stop between two."""
        for b in range(args.first, args.first + args.cases, 50):
            if args.max_seconds and time.time() - t0 > args.max_seconds:
                print(f"fuzz: stopped after {time.time() - t0:.0f} s (--max-seconds)", flush=True)
                return
            yield from ex.map(lambda i: run_case(args, i), range(b, min(b + 50, args.first + args.cases)))

    with ThreadPoolExecutor(max_workers=args.jobs) as ex:
        for r in results(ex):
            n += 1
            totals[r["cls"]] = totals.get(r["cls"], 0) + 1
            if args.verbose or (r["cls"] != "pass" and not r["cls"].startswith("known:")):
                print(f"{r['cls']:9s} case {r['i']:5d} {r['scen']:11s} np{r['np']} {r['file']:15s} {r['what'][:60]:60s} "
                      f"rc {r['rc']} {r['sec']:.1f}s {r['err'][:150]}", flush=True)
            if n % 500 == 0:
                print(f"... {n} cases, {time.time() - t0:.0f} s: {totals}", flush=True)
    shutil.rmtree(args.work, ignore_errors=True)
    known = sum(v for k, v in totals.items() if k.startswith("known:"))
    fails = n - totals.get("pass", 0) - known
    print(f"fuzz: seed {args.seed}, cases {args.first}..{args.first + n - 1}, {time.time() - t0:.0f} s, {args.bin_given}")
    print(f"fuzz: {n} cases, {totals.get('pass', 0)} passed, {fails} failed" +
          "".join(f", {k} {v}" for k, v in sorted(totals.items()) if k != "pass" and not k.startswith("known:")) +
          (f"; failing cases in {args.failures}" if fails else ""))
    if known:
        print(f"fuzz: {known} known message defects outside the readers (see KNOWN in scripts/fuzz.py): " +
              ", ".join(f"{k[6:]} {v}" for k, v in sorted(totals.items()) if k.startswith("known:")))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
