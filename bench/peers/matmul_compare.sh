#!/bin/sh
# Interleaves internal/linalg's BenchmarkMatMul (float32; MatMulF32 and a
# right operand packed beforehand) and bench/peers/matmul_bench.py (NumPy's
# x @ W with OpenBLAS, one thread) ROUNDS times, so that both see the same
# state of a shared machine, then prints every line and two tables of the
# median and best GFLOP/s of each and fstensor's ratios to NumPy: by the
# wall clock, and by each process's CPU time, which a machine busy with
# other processes inflates less. The shapes: blocks of 256 rows times
# 768 x 128, 768 x 768 and 1024 x 256, and 100,000 x 768 rows (307 MB)
# times 768 x 128, in one call and in calls of 256 rows. The 100,000-row
# shapes need about 1 GB per process. FSTENSOR_LINALG_KERNEL=avx2 (or go)
# makes the Go side use that kernel on a CPU with AVX-512. Run from
# anywhere:
#
#	ROUNDS=5 PY=/path/to/python sh bench/peers/matmul_compare.sh > matmul.txt
set -e
ROUNDS=${ROUNDS:-5}
PY=${PY:-.venv/bin/python}
BENCHTIME=${BENCHTIME:-1s}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -c -o "$dir/linalg.test" ./internal/linalg
for i in $(seq "$ROUNDS"); do
	"$dir/linalg.test" -test.run '^$' -test.bench 'BenchmarkMatMul/m=/k=/n=/block=/dtype=float32/impl=(matmul|packed)$' \
		-test.benchtime "$BENCHTIME" | grep '^Benchmark' >> "$dir/raw.txt"
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$PY" bench/peers/matmul_bench.py >> "$dir/raw.txt"
done
cat "$dir/raw.txt"
"$PY" - "$dir/raw.txt" <<'PYEOF'
import collections, re, statistics, sys
g = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'BenchmarkMatMul/(\S+?)/dtype=float32/impl=(\w+?)(?:-\d+)?\s', line)
    if not m:
        continue
    for metric in re.findall(r'([\d.]+) ((?:cpu-)?GFLOP/s)', line):
        g[metric[1], m.group(1), m.group(2)].append(float(metric[0]))
for metric in ('GFLOP/s', 'cpu-GFLOP/s'):
    stat = {(s, i): (statistics.median(v), max(v)) for (mt, s, i), v in g.items() if mt == metric}
    if not stat:
        continue
    print()
    print('%s: median (best) of %d rounds; ratios to NumPy of the medians (of the bests).' % (
        metric, max(len(v) for v in g.values())))
    print()
    print('| shape | NumPy | MatMulF32 | vs NumPy | PackedF32.MulF32 | vs NumPy |')
    print('|---|---:|---:|---:|---:|---:|')
    for shape in sorted({s for s, _ in stat}, key=lambda s: [int(x) for x in re.findall(r'\d+', s)]):
        np_ = stat.get((shape, 'numpy'))
        cells = ['%.1f (%.1f)' % np_ if np_ else '-']
        for impl in ('matmul', 'packed'):
            v = stat.get((shape, impl))
            cells += ['%.1f (%.1f)' % v if v else '-',
                      '%.2fx (%.2fx)' % (v[0] / np_[0], v[1] / np_[1]) if v and np_ else '-']
        print('| %s | %s |' % (shape, ' | '.join(cells)))
PYEOF
