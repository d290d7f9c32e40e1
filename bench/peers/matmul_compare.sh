#!/bin/sh
# Interleaves internal/linalg's BenchmarkMatMul (float32; MatMulF32 and a
# right operand packed beforehand) and bench/peers/matmul_bench.py (NumPy's
# x @ W with OpenBLAS, one thread) ROUNDS times, so that both see the same
# state of a shared machine, then prints every line and a table of the
# median GFLOP/s of each and fstensor's ratio to NumPy. The shapes: blocks
# of 256 rows times 768 x 128, 768 x 768 and 1024 x 256, and 100,000 x 768
# rows (307 MB) times 768 x 128, in one call and in calls of 256 rows. The
# 100,000-row shapes need about 1 GB per process. Run from anywhere:
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
    m = re.match(r'BenchmarkMatMul/(\S+?)/dtype=float32/impl=(\w+?)(?:-\d+)?\s.*?([\d.]+) GFLOP/s', line)
    if m:
        g[m.group(1), m.group(2)].append(float(m.group(3)))
med = {key: statistics.median(v) for key, v in g.items()}
print()
print('| shape | NumPy GFLOP/s | MatMulF32 GFLOP/s | vs NumPy | PackedF32.MulF32 GFLOP/s | vs NumPy |')
print('|---|---:|---:|---:|---:|---:|')
for shape in sorted({s for s, _ in med}, key=lambda s: [int(x) for x in re.findall(r'\d+', s)]):
    np_ = med.get((shape, 'numpy'))
    cells = ['%.1f' % np_ if np_ else '-']
    for impl in ('matmul', 'packed'):
        v = med.get((shape, impl))
        cells += ['%.1f' % v if v else '-', '%.2fx' % (v / np_) if v and np_ else '-']
    print('| %s | %s |' % (shape, ' | '.join(cells)))
PYEOF
