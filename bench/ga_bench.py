#!/usr/bin/python3
"""dynred ga benchmark (issue 6): prints a markdown table and writes it to
bench/results/ga.md.

  /usr/bin/python3 bench/ga_bench.py [--quick]

1. configs/bicycle_frame_ga.yaml, full run (population 400, up to 4100
   generations, stall stop), on 1 and 2 ranks: wall time, generations,
   evaluations, evaluations/s, parallel efficiency t1 / (2 t2).
2. A >= 50k-DOF FE model (built-in hex8 plate 120 x 50 x 2, 55080 DOFs,
   consistent mass) with Guyan and IRS fitness: 4 forced masters and 14
   candidate nodes on the top face (42 genes), population 16, 2 generations;
   evaluations/s on 1 rank, on 2 ranks as one group (one distributed MUMPS
   factorization) and as two groups (one factorization per rank).
"""
import os, re, subprocess, sys, time, h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DYNRED = os.path.join(ROOT, 'bin', 'dynred')
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
           OMPI_MCA_rmaps_base_oversubscribe='1', OMPI_MCA_btl_vader_single_copy_mechanism='none')
tmp = '/tmp/dynred-ga-bench'
os.makedirs(tmp, exist_ok=True)

def load():
    return os.getloadavg()[0]

def run(ranks, args, out):
    cmd = (['mpiexec', '--oversubscribe', '-n', str(ranks)] if ranks > 1 else []) + [DYNRED, 'ga'] + args + ['-output', out, '-ga_progress_every', '1000']
    l0 = load(); t0 = time.time()
    p = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode:
        print(p.stdout[-2000:], p.stderr[-2000:]); sys.exit(1)
    m = re.search(r'stopped after generation (\d+) .*?; (\d+) evaluations in ([0-9.]+) s \(([0-9.]+) per s\)', p.stdout)
    with h5py.File(os.path.join(tmp, out), 'r') as f:
        front = list(zip(f['/ga/pareto/r'][:], f['/ga/pareto/e'][:]))
        ndof = int(f['/ga'].attrs['ndof'])
    return dict(wall=wall, gen=int(m.group(1)), evals=int(m.group(2)), tga=float(m.group(3)), rate=float(m.group(4)), front=front, ndof=ndof, load=(l0 + load()) / 2)

rows = []
cfg = os.path.join(ROOT, 'configs', 'bicycle_frame_ga.yaml')
quick = '--quick' in sys.argv
extra = ['-ga_generations', '200'] if quick else []
b = {}
for n in (1, 2):
    b[n] = run(n, ['-config', cfg] + extra, 'bicycle_np%d.h5' % n)
    rows.append(('bicycle frame, idc (1 step)', b[n]['ndof'], n, '%d x 1' % n, b[n]['wall'], b[n]['gen'], b[n]['evals'], b[n]['rate'], b[1]['wall'] / (n * b[n]['wall']), b[n]['load']))
same = b[1]['front'] == b[2]['front']

# large model
top = [1 + i + 121 * (j + 51 * 2) for i in (20, 40, 60, 80, 100) for j in (0, 25, 50)]
forced = '12463Z,15488Z,18513Z,15428Z'
plate = ['-config', cfg, '-model_builtin', 'plate', '-model_plate_nx', '120', '-model_plate_ny', '50', '-model_plate_nz', '2',
         '-ga_forced_masters', forced, '-ga_candidate_nodes', ','.join(str(t) for t in top if t not in (15428,)),
         '-ga_fmax', '20', '-ga_time_unit', '1', '-ga_population', '16', '-ga_generations', '2', '-dense_max', '0']
for meth in ('guyan', 'irs'):
    r1 = None
    for n, gs in ((1, 1), (2, 2), (2, 1)):
        r = run(n, plate + ['-ga_method', meth, '-ranks_per_group', str(gs)], 'plate_%s_%d_%d.h5' % (meth, n, gs))
        r1 = r1 or r
        rows.append(('plate hex8, %s' % meth, r['ndof'], n, '%d x %d' % (n // gs, gs), r['wall'], r['gen'], r['evals'], r['rate'], r['rate'] / (n * r1['rate']), r['load']))

lines = ['| model | DOFs | ranks | groups x ranks | wall [s] | generations | evaluations | evaluations/s | efficiency | load |', '|---|---|---|---|---|---|---|---|---|---|']
for row in rows:
    lines.append('| %s | %d | %d | %s | %.1f | %d | %d | %.2f | %.2f | %.1f |' % row)
lines.append('')
lines.append('Efficiency: bicycle t1 / (ranks x t); plate (evaluations/s) / (ranks x evaluations/s on 1 rank).')
lines.append('Bicycle fronts on 1 and 2 ranks identical: %s; front (r, e): %s' % (same, ', '.join('(%d, %.4g)' % (r, e) for r, e in b[1]['front'][:12])))
txt = '\n'.join(lines)
print(txt)
os.makedirs(os.path.join(ROOT, 'bench', 'results'), exist_ok=True)
open(os.path.join(ROOT, 'bench', 'results', 'ga.md'), 'w').write('# dynred ga benchmark\n\n    /usr/bin/python3 bench/ga_bench.py\n\n' + txt + '\n')
