#!/usr/bin/env bash
# scripts/dynred_plot.py on a sample of every result kind, headless (Agg):
#  - samples made here by small jobs: modal (built-in plate), cms (frame3d
#    beam cut in 4 parts on 2 rank groups, truncated so the errors are not
#    zero, verify on), gmp (slider-crank with interpolation verify), ga
#    (portal frame), ss (of the cms result of two Matrix Market chains),
#    sysred (balanced truncation of tests/data/sysred/randsys.py's system),
#    pmor (the moving load on the ring of tests/data/pmor/ring.yaml);
#  - every result gives exactly the figures that apply to its kind, each a
#    valid PNG (signature, IHDR size), not tiny, and not one flat colour
#    (pixel variance of the image read back by matplotlib, and several
#    distinct colours: axes alone are black on white);
#  - the Gantt branch of `components`: the CMS writer's per-component
#    start/end times (t_start_s, t_end_s) lie within the solve and do not
#    overlap within a rank group;
#  - --out, the default location next to the result, scripts/ga_plot.py;
#  - a file that is not a dynred result, a non-HDF5 file, a missing file, a
#    figure the file has no data for, an unknown figure: one line
#    "dynred_plot: error: ..." and exit status 2, no PNG left behind.
set -euo pipefail
cd "$T"
P="/usr/bin/python3 $ROOT/scripts/dynred_plot.py"
D=$ROOT/tests/data
export MPLBACKEND=Agg; unset DISPLAY
cp $D/fuzz/a_K.mtx .
printf 'job: sysred\noutput: bt.h5\nsysred:\n  source: sys.h5\n  group: /stable\n  method: bt\n  order: 6\n  frf: {n: 200}\n' > bt.yaml
cp $D/pmor/ring.yaml .
# the one-rank runs side by side (tests/par.sh: two at a time on 2 cores)
$ROOT/tests/par.sh \
  "$DYNRED -config $D/fuzz/modal_plate.yaml -output modal.h5 > modal.log" \
  "$DYNRED -config $D/fuzz/gmp.yaml -gmp_verify_step 0.1 -output gmp.h5 > gmp.log" \
  "$DYNRED -config $D/fuzz/ga.yaml -output ga.h5 > ga.log" \
  "$DYNRED -config $D/fuzz/cms_mtx.yaml -output chain.h5 > chain.log; $DYNRED -config $D/fuzz/ss.yaml -ss_source $T/chain.h5 -output ss.h5 > ss.log" \
  "/usr/bin/python3 $D/sysred/randsys.py sys.h5; $DYNRED -config bt.yaml > bt.log" \
  "/usr/bin/python3 $D/pmor/ring_gen.py . > /dev/null; $DYNRED -config ring.yaml -output pmor.h5 > pmor.log"
$MPIEXEC -n 2 $DYNRED -config $D/cms/beam.yaml -model_cut_parts 4 -ranks_per_group 1 \
  -cms_component_modes 4 -output cms.h5 > cms.log
/usr/bin/python3 - <<'PY'
import h5py, numpy as np
# the CMS writer's schedule (the Gantt branch): every component has its first pass
# [t_start_s, t_end_s] within the solve, and the passes of one rank group (one rank
# each here: one clock) follow one another without overlap
import shutil
with h5py.File("cms.h5", "r") as f:
    total = float(f["/timing"].attrs["cms_total"])
    spans = {}
    for n, g in f["/cms/components"].items():
        a = g.attrs
        assert "t_start_s" in a and "t_end_s" in a, (n, list(a))
        t0, t1 = float(a["t_start_s"]), float(a["t_end_s"])
        assert 0 <= t0 < t1 <= total, (n, t0, t1, total)
        spans.setdefault(int(a["rank_group"]), []).append((t0, t1, n))
    for gi, L in spans.items():
        L.sort()
        assert all(L[i][1] <= L[i + 1][0] for i in range(len(L) - 1)), (gi, L)
    assert len(spans) == 2, spans
shutil.copy("cms.h5", "gantt.h5")
PY

mkdir figs
plots=()
for r in modal cms gmp ga ss bt pmor; do plots+=("$P $r.h5 --out figs > $r.plot.log"); done
$ROOT/tests/par.sh "${plots[@]}" \
  "$P gantt.h5 --what components > gantt.plot.log" \
  "/usr/bin/python3 $ROOT/scripts/ga_plot.py ga.h5 front.png > ga_plot.log"

/usr/bin/python3 - <<'PY'
import os, struct, glob
import numpy as np
import matplotlib; matplotlib.use("Agg")
import matplotlib.image as mpimg
expect = {  # the figures that apply to each kind
    "modal": {"mode_count", "timing"},
    "cms":   {"mac", "freq_error", "mode_count", "components", "timing"},
    "gmp":   {"gmp_eig", "mode_count", "timing"},
    "ga":    {"pareto", "mode_count", "timing"},
    "ss":    {"frf", "sim", "mode_count", "timing"},
    "bt":    {"frf", "hankel", "timing"},
    "pmor":  {"frf", "timing"},
}
def check_png(fn):
    b = open(fn, "rb").read()
    assert b[:8] == b"\x89PNG\r\n\x1a\n", f"{fn}: not a PNG signature"
    assert b[12:16] == b"IHDR", f"{fn}: no IHDR chunk"
    w, h = struct.unpack(">II", b[16:24])
    # every figure is at least 6.5 x 3.5 in at 110 dpi (tight_layout may
    # trim a little)
    assert w >= 600 and h >= 350, f"{fn}: {w} x {h} pixels"
    # a blank figure of that size is ~3 KB as PNG, bare axes with tick
    # labels ~6 KB: a figure with data and text is more
    assert len(b) > 8000, f"{fn}: only {len(b)} bytes"
    img = mpimg.imread(fn)
    assert img.shape[0] == h and img.shape[1] == w, fn
    rgb = img[..., :3].reshape(-1, 3)
    assert rgb.std(axis=0).max() > 0.05, f"{fn}: nearly one colour (std {rgb.std(axis=0)})"
    # data is drawn in colour: more than the black/white/grey of bare axes
    # (the distinct levels of the 16-level quantized RGB, one integer code
    # each: np.unique(axis=0) on every pixel took 15 s for the 23 figures)
    q = (rgb * 15).round().astype(int)
    u = np.unique(q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2])
    q = np.stack([u // 256, u // 16 % 16, u % 16], axis=1)
    colours = [c for c in q if c.max() - c.min() > 3]
    assert len(colours) >= 2, f"{fn}: no coloured data ({len(q)} distinct levels)"
    return w, h, len(b)
for kind, figs in expect.items():
    got = {os.path.basename(p)[len(kind) + 1:-4] for p in glob.glob(f"figs/{kind}_*.png")}
    assert got == figs, f"{kind}: figures {sorted(got)}, expected {sorted(figs)}"
    for n in sorted(figs):
        w, h, sz = check_png(f"figs/{kind}_{n}.png")
        print(f"{kind:6s} {n:11s} {w} x {h}, {sz} bytes")
check_png("gantt_components.png"); check_png("front.png")
assert not glob.glob("figs/*.tmp.*") and not glob.glob("*.tmp.*.png"), "temporary PNG left behind"
print("all figures valid")
PY
grep -q "wrote .*gantt_components.png" gantt.plot.log

# errors: one line, exit 2, nothing written
err() { # expected-regex command...
  local re=$1; shift
  if "$@" > ../out.log 2> ../err.log; then echo "no failure: $*"; exit 1; else rc=$?; fi
  [ $rc -eq 2 ] || { echo "exit $rc, expected 2: $*"; cat ../err.log; exit 1; }
  [ "$(wc -l < ../err.log)" -eq 1 ] || { echo "not one line:"; cat ../err.log; exit 1; }
  grep -Eq "^dynred_plot: error: (\.\./)?$re" ../err.log || { echo "message: $(cat ../err.log), expected $re"; exit 1; }
}
mkdir e && cd e
err 'sys.h5: not a dynred result .*expected an HDF5 file written by dynred' $P ../sys.h5
err 'a_K.mtx: cannot open as HDF5 .*expected a dynred result' $P ../a_K.mtx
err 'nothere.h5: no such file' $P nothere.h5
err 'modal.h5: figure hankel needs /sysred/hsv, not in this modal result' $P ../modal.h5 --what hankel --out .
err '--what bogus: unknown figure, expected one of mac, ' $P ../modal.h5 --what timing,bogus --out .
err '--out nodir: not a directory' $P ../modal.h5 --out nodir
[ -z "$(ls)" ] || { echo "files left: $(ls)"; exit 1; }
cd ..
echo "plot_all: ok"
