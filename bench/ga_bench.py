#!/usr/bin/python3
"""dynred ga benchmark (issues 6 and 18): parallel efficiency of the GA on 1,
2 and 4 ranks; prints a markdown table and writes it to bench/results/ga.md.

  /usr/bin/python3 bench/ga_bench.py [--quick] [--one-group] [--skip-plate]

1. configs/bicycle_frame_ga.yaml (73 DOFs), full run (population 400, stall
   stop after about 100 generations, 40207 evaluations of about 0.5 ms).
2. A 55080-DOF FE model: the built-in hex8 plate 120 x 50 x 2 (consistent
   mass, SI), Guyan fitness, 4 forced masters and 14 candidate nodes on the
   top face (42 genes), population 32, 5 generations (about 150 evaluations
   of about 0.5-2 s each, one sparse factorization of K0 per rank).
   --one-group adds the plate on 2 ranks as one group of 2 (one distributed
   factorization), the layout the GA used by default before issue 18.

Every case runs on 1 rank, 2 ranks and 4 ranks; the machine of the
reference table has 2 cores, so 4 ranks are oversubscribed (labelled so).
Efficiency = T1 / (p T_p), T = the job's own time (setup + optimisation +
output, /timing of the result file: without mpiexec's start-up); the wall
time of the whole command is shown beside it.  "busy" is the share of the
optimisation's rank-seconds spent evaluating individuals
(/ga/timing/rank_seconds): what the farm and the serial NSGA-II bookkeeping
leave; the rest of the gap to 1 is the evaluations themselves running slower
side by side (shared cores, caches, memory bandwidth, other users' load).
"on a core" is the CPU time over the wall time of the optimisation (MPI
waits by polling, so a rank is on a core unless the machine's other load
takes it away): below 100 % the run was disturbed.
The load column is the 1-minute load average around each run.
"""
import os, re, subprocess, sys, time, h5py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DYNRED = os.path.join(ROOT, 'bin', 'dynred')
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT='1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM='1',
           OMPI_MCA_rmaps_base_oversubscribe='1')
tmp = '/tmp/dynred-ga-bench'
os.makedirs(tmp, exist_ok=True)
NCPU = os.cpu_count() or 1


def load():
    return os.getloadavg()[0]


def run(ranks, args, out):
    cmd = (['mpiexec', '--oversubscribe', '-n', str(ranks)] if ranks > 1 else []) + [DYNRED, 'ga'] + args + ['-output', out, '-ga_progress_every', '1000']
    l0 = load(); t0 = time.time()
    p = subprocess.run(cmd, env=env, cwd=tmp, capture_output=True, text=True)
    wall = time.time() - t0
    if p.returncode:
        print(' '.join(cmd)); print(p.stdout[-2000:], p.stderr[-2000:]); sys.exit(1)
    m = re.search(r'stopped after generation (\d+) .*?; (\d+) evaluations in', p.stdout)
    g = re.search(r'(\d+) farm group\(s\) of (\d+) rank', p.stdout)
    with h5py.File(os.path.join(tmp, out), 'r') as f:
        front = list(zip(f['/ga/pareto/r'][:], f['/ga/pareto/e'][:], [bytes(x) if not isinstance(x, str) else x.encode() for x in f['/ga/pareto/masters'][:]]))
        ndof = int(f['/ga'].attrs['ndof'])
        t = f['/timing'].attrs
        job = float(t['setup']) + float(t['optimisation']) + float(t['output'])
        setup = float(t['setup'])
        rs = f['/ga/timing/rank_seconds'][()]
        busy = rs[:, 0].sum() / max(rs[:, :5].sum(), 1e-12)
        cpu = rs[:, 5].sum() / max(rs[:, :5].sum(), 1e-12)
    return dict(wall=wall, job=job, setup=setup, gen=int(m.group(1)), evals=int(m.group(2)), front=front, ndof=ndof,
                layout='%s x %s' % (g.group(1), g.group(2)), busy=busy, cpu=cpu, load=(l0 + load()) / 2)


def case(label, args, tag, layouts):
    rows, res = [], {}
    for n, extra in layouts:
        r = run(n, args + extra, '%s_np%d%s.h5' % (tag, n, '_'.join(extra).replace('-', '')))
        res.setdefault(n, r)
        t1 = res[1]['job']
        over = ' (oversubscribed: %d cores)' % NCPU if n > NCPU else ''
        rows.append((label, r['ndof'], '%d%s' % (n, over), r['layout'], r['wall'], r['job'], r['setup'], r['gen'], r['evals'], t1 / (n * r['job']), 100 * r['busy'], 100 * r['cpu'], r['load']))
        if r['front'] != res[1]['front']:
            print('%s: the front on %d ranks differs from the 1-rank front' % (label, n)); sys.exit(1)
    return rows, res


quick = '--quick' in sys.argv
rows = []
cfg = os.path.join(ROOT, 'configs', 'bicycle_frame_ga.yaml')
extra = ['-ga_generations', '30'] if quick else []
r, b = case('bicycle frame, idc (1 step)', ['-config', cfg] + extra, 'bicycle', [(1, []), (2, []), (4, [])])
rows += r

if '--skip-plate' not in sys.argv:
    top = [1 + i + 121 * (j + 51 * 2) for i in (20, 40, 60, 80, 100) for j in (0, 25, 50)]
    forced = '12463Z,15488Z,18513Z,15428Z'
    plate = ['-config', cfg, '-model_builtin', 'plate', '-model_plate_nx', '120', '-model_plate_ny', '50', '-model_plate_nz', '2',
             '-model_units', 'SI', '-ga_forced_masters', forced, '-ga_candidate_nodes', ','.join(str(t) for t in top if t != 15428),
             '-ga_fmax', '20', '-ga_population', '16' if quick else '32', '-ga_generations', '2' if quick else '5', '-dense_max', '0',
             '-ga_method', 'guyan']
    lay = [(1, []), (2, []), (4, [])]
    if '--one-group' in sys.argv:
        lay.insert(2, (2, ['-ranks_per_group', '2']))
    r, _ = case('plate hex8, guyan', plate, 'plate', lay)
    rows += r

lines = ['| model | DOFs | ranks | groups x ranks | wall [s] | job [s] | setup [s] | generations | evaluations | efficiency | busy [%] | on a core [%] | load |',
         '|---|---|---|---|---|---|---|---|---|---|---|---|---|']
for row in rows:
    lines.append('| %s | %d | %s | %s | %.1f | %.1f | %.1f | %d | %d | %.2f | %.1f | %.1f | %.1f |' % row)
lines.append('')
lines.append('Efficiency = T1 / (ranks x T), T = job time (setup + optimisation + output, without mpiexec start-up); '
             'busy = share of the optimisation\'s rank-seconds spent evaluating individuals; '
             'on a core = CPU seconds / wall seconds of the optimisation, summed over the ranks (below 100: the ranks waited for a core) '
             '(both from /ga/timing/rank_seconds).')
lines.append('Fronts identical to the 1-rank front in every row (checked); bicycle front (r, e): %s'
             % ', '.join('(%d, %.4g)' % (r_, e_) for r_, e_, _ in b[1]['front'][:12]))
lines.append('Machine: %d cores; load = 1-minute load average around each run (%s).' % (NCPU, time.strftime('%Y-%m-%d %H:%M')))
txt = '\n'.join(lines)
print(txt)
os.makedirs(os.path.join(ROOT, 'bench', 'results'), exist_ok=True)
open(os.path.join(ROOT, 'bench', 'results', 'ga.md'), 'w').write('# dynred ga benchmark\n\n    /usr/bin/python3 bench/ga_bench.py\n\n' + txt + '\n')
