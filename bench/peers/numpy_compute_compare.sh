#!/bin/sh
# Interleaves package expr's BenchmarkCompute (one worker, on Go's heap and
# on huge pages) and expr/testdata/numpy_compute_bench.py (NumPy, one
# thread) ROUNDS times, so that both see the same state of a shared
# machine, then prints the median of each line and a table: fstensor's
# ratio to copy() of the same run and to NumPy. Run from anywhere:
#
#	ROUNDS=5 sh bench/peers/numpy_compute_compare.sh > compute.txt
set -e
ROUNDS=${ROUNDS:-5}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
go test -c -o "$dir/expr.test" ./expr
for i in $(seq "$ROUNDS"); do
	"$dir/expr.test" -test.run '^$' -test.bench BenchmarkCompute -test.benchtime 10x | grep '^Benchmark' >> "$dir/raw.txt"
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$PY" expr/testdata/numpy_compute_bench.py >> "$dir/raw.txt"
done
cat "$dir/raw.txt"
"$PY" - "$dir/raw.txt" <<'PYEOF'
import collections, re, statistics, sys
mbs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.search(r'(op=\S+?)(?:-\d+)?\s.*?([\d.]+) MB/s', line)
    if m:
        mbs[m.group(1)].append(float(m.group(2)))
med = {k: statistics.median(v) for k, v in mbs.items()}
print()
print('| op | mem | fstensor GB/s | copy() GB/s | vs copy() | NumPy GB/s | vs NumPy |')
print('|---|---|---|---|---|---|---|')
for k in sorted(med):
    m = re.match(r'(op=.*?/dtype=\S+?/shape=\S+?)/mem=(\w+)/impl=expr$', k)
    if not m:
        continue
    case, mem = m.groups()
    cp = med.get('%s/mem=%s/impl=copy' % (case, mem))
    np_ = med.get(case + '/impl=numpy')
    print('| %s | %s | %.1f | %.1f | %.2fx | %s | %s |' % (
        case, mem, med[k] / 1e3, cp / 1e3, med[k] / cp,
        '%.1f' % (np_ / 1e3) if np_ else '-', '%.2fx' % (med[k] / np_) if np_ else '-'))
PYEOF
rm -rf "$dir"
