#!/usr/bin/env bash
# make install / uninstall: the installed tree works without the source tree.
#  1. make install PREFIX=P: binary, dynred-plot (executable, /usr/bin/python3),
#     the example job files, the man page, the modulefile; the installed
#     binary is the one under test (INSTALL_BIN=$DYNRED).
#  2. DESTDIR stages the same tree; the paths inside it name PREFIX, never
#     the staging directory.
#  3. The modulefile, evaluated by Tcl, sets PATH, MANPATH, DYNRED_SHARE to
#     the installed directories.
#  4. The man page renders without warnings and lists every subcommand and
#     every job-file key that the installed `dynred help` lists.
#  5. With the source tree hidden (a private mount namespace with an empty
#     tmpfs over it; skipped with a note where that is not allowed), from an
#     empty directory with only PREFIX/bin on PATH: -version names the
#     installed example directory, the README's quick start (the embedded
#     demo on 2 ranks) runs, and an example job runs from a copy of the
#     share directory, writing only into the working directory.
#  6. The demo's frequencies against CalculiX's *FREQUENCY on the same C3D8
#     mesh (an independent code; same element as dynred's hex8).
#  7. make uninstall removes every file install put there.
set -euo pipefail
cd "$T"
P="$T/opt/dynred"
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$ROOT" INSTALL_BIN="$DYNRED" "$@"; }
ver=$(sed -n 's/^#define DYNRED_VERSION "\(.*\)"$/\1/p' "$ROOT/include/dynred/sys.h")

# 1. layout
mk install PREFIX="$P"
[ -x "$P/bin/dynred" ] && cmp "$DYNRED" "$P/bin/dynred"
[ -x "$P/bin/dynred-plot" ]
[ "$(head -n 1 "$P/bin/dynred-plot")" = "#!/usr/bin/python3" ]
"$P/bin/dynred-plot" --help > plot_help.txt
diff <(cd "$ROOT/configs" && ls *.yaml) <(cd "$P/share/dynred/configs" && ls)
for f in "$ROOT"/configs/*.yaml; do cmp "$f" "$P/share/dynred/configs/${f##*/}"; done
[ -f "$P/share/man/man1/dynred.1" ]
M="$P/share/modulefiles/dynred/$ver"
[ -f "$M" ]
echo "ok layout"

# 2. DESTDIR staging
mk install PREFIX=/opt/dynred DESTDIR="$T/stage"
S="$T/stage/opt/dynred"
test -x "$S/bin/dynred" && test -f "$S/share/modulefiles/dynred/$ver" && test -f "$S/share/man/man1/dynred.1" || { echo "installed layout incomplete"; exit 1; }
grep -q "^set prefix /opt/dynred\$" "$S/share/modulefiles/dynred/$ver"
grep -q "^\.I /opt/dynred/share/dynred/configs\$" "$S/share/man/man1/dynred.1"
! grep -rlF "$T/stage" "$S/share" || { echo "FAIL: the staging directory leaked into the installed files"; exit 1; }
echo "ok DESTDIR"

# 3. the modulefile, in Tcl with the environment-modules commands it uses
cat > mod.tcl <<'TCL'
array set env {}
proc prepend-path {var dir} { global env; puts "$var=$dir" }
proc setenv {var val} { puts "$var=$val" }
proc module-whatis {s} { puts "whatis=$s" }
proc conflict {args} {}
source [lindex $argv 0]
ModulesHelp
TCL
tclsh mod.tcl "$M" > mod.txt 2> mod_help.txt
cat mod.txt
grep -qx "PATH=$P/bin" mod.txt
grep -qx "MANPATH=$P/share/man" mod.txt
grep -qx "DYNRED_SHARE=$P/share/dynred" mod.txt
grep -q "^whatis=dynred $ver: " mod.txt
grep -q "dynred $ver" mod_help.txt
for d in bin share/man share/dynred/configs; do [ -d "$P/$d" ]; done
echo "ok modulefile"

# 4. the man page against the installed binary's help
"$P/bin/dynred" help > help.txt
MANWIDTH=200 man --warnings -l "$P/share/man/man1/dynred.1" > man.txt 2> man.err
[ ! -s man.err ] || { echo "FAIL: man warnings:"; cat man.err; exit 1; }
grep -q "^DYNRED(1) " man.txt
grep -q "dynred $ver" man.txt
# subcommands: the names of help's "Subcommands" block, each a tagged paragraph
subs=$(awk '/^Subcommands/ {on = 1; next} on && /^$/ {exit} on {print $1}' help.txt)
[ "$(wc -w <<< "$subs")" -ge 10 ]
sec=$(sed -n '/^SUBCOMMANDS/,/^JOB-FILE KEYS/p' man.txt)
for s in $subs; do grep -qE "^ +$s( |\$)" <<< "$sec" || { echo "FAIL: subcommand $s not in the man page"; exit 1; }; done
# keys: every "  KEY  -OPTION" line of help as "KEY (-OPTION)" in the man page
awk '/^Job-file keys/ {on = 1; next} on && /^$/ {exit} on && !/^  \[/ {print $1 " (" $2 ")"}' help.txt > keys.txt
nk=$(wc -l < keys.txt)
[ "$nk" -ge 100 ]
grep -oE "^ +[a-z][][A-Za-z0-9_.]* \(-[A-Za-z0-9_]+\)" man.txt | sed 's/^ *//' > man_keys.txt
diff keys.txt man_keys.txt
echo "ok man page: $(wc -w <<< "$subs") subcommands, $nk keys"

# 5. without the source tree, from an empty directory
W="$T/work"
mkdir -p "$W"
cp -r "$P/share/dynred" "$W/examples"
run_hidden() {
  # $1: script run with the source tree hidden when a private mount
  # namespace can be made (root), else with it in place
  if unshare --mount --propagation private true 2> /dev/null; then
    unshare --mount --propagation private bash -c "mount -t tmpfs -o size=1m none '$ROOT' && [ -z \"\$(ls -A '$ROOT')\" ] && $1"
  else
    echo "note: no private mount namespace here; the source tree stays visible"
    bash -c "$1"
  fi
}
cd "$W"
run_hidden "set -e; cd '$W'; export PATH='$P/bin':/usr/bin:/bin
  dynred -version > version.txt
  \$MPIEXEC -n 2 dynred > demo.log 2>&1
  cd examples && dynred -config configs/frame_modal.yaml > ../frame.log 2>&1"
cat version.txt
grep -qx "example job files: $P/share/dynred/configs" version.txt
test -f dynred_demo.h5 && test -f examples/frame_modal.h5 || { echo "outputs missing"; exit 1; }
grep -q "^wrote dynred_demo.h5" demo.log
diff <(cd "$P/share/dynred" && find . -type f | sort) <(cd examples && find . -type f ! -name frame_modal.h5 ! -name frame_modal.xdmf | sort)
echo "ok without the source tree"

# 6. the quick start's numbers against CalculiX on the same mesh (the
# embedded demo: 60 x 30 x 2 hex8, clamped at x = 0, 4 modes below 300 Hz)
cd "$T"
/usr/bin/python3 "$ROOT/scripts/ccx_plate.py" demo 1.0 0.5 0.02 60 30 2 210e9 0.3 7850 4
ccx -i demo > ccx.log 2>&1
/usr/bin/python3 "$ROOT/scripts/ccx_freqs.py" demo.dat > ref.txt
/usr/bin/python3 - "$W/dynred_demo.h5" ref.txt <<'PY'
import sys
import h5py
import numpy as np
ref = np.loadtxt(sys.argv[2])
with h5py.File(sys.argv[1], "r") as f:
    cms = f["/cms/frequencies_hz"][()]
    est = f["/cms/error_estimate_pct"][()] / 100
    full = f["/verify/full_frequencies_hz"][: len(ref)]
# tol: CalculiX prints 7 significant digits (rounding <= 5e-7 relative);
# same element, both solvers converged far below that: 2 x the rounding
rnd = 1e-6
ok = len(cms) == len(ref) == 4
for k, (c, e, u, r) in enumerate(zip(cms, est, full, ref)):
    dc, du = (c - r) / r, abs(u - r) / r
    # the CMS frequency is a Rayleigh-Ritz value: above the full model's, by
    # at most the job's own error estimate (an upper bound of the true error)
    good = du <= rnd and -rnd <= dc <= e + rnd
    ok &= good
    print(f"{'ok  ' if good else 'FAIL'} mode {k + 1}: ccx {r:.7g} Hz, full {u:.9g} ({du:.1e}), cms {c:.9g} ({dc:+.1e}, estimate {e:.1e})")
sys.exit(0 if ok else 1)
PY
echo "ok demo against CalculiX"

# 7. uninstall
mk uninstall PREFIX="$P"
left=$(find "$P" -type f)
[ -z "$left" ] || { echo "FAIL: left after uninstall:"; echo "$left"; exit 1; }
echo "ok uninstall"
