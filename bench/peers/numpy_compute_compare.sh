#!/bin/sh
# Interleaves package expr's BenchmarkCompute (one worker, on Go's heap and
# on huge pages) and expr/testdata/numpy_compute_bench.py (NumPy, one
# thread) case by case, ROUNDS times, so that both sides of a case see the
# same state of a shared machine: each round runs every case on both
# sides, one after the other, the side that goes first alternating from
# round to round. Each side times ITERS runs of a case after a first one
# (Go: -benchtime ITERSx; NumPy: --iters ITERS) and reports their mean.
# Then it prints every line, the median of each line over the rounds and a
# table: fstensor's ratio to copy() of the same run and to NumPy (ratios
# of the medians). Run from anywhere:
#
#	ROUNDS=5 ITERS=40 sh bench/peers/numpy_compute_compare.sh > compute.txt
set -e
ROUNDS=${ROUNDS:-5}
ITERS=${ITERS:-40}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
go test -c -o "$dir/expr.test" ./expr
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
cases=$("$PY" expr/testdata/numpy_compute_bench.py --list)
gobench() {
	# $1 is op=.../dtype=.../shape=...: each element anchored, so that
	# op=sum does not also run op=sum's neighbours.
	pat=$(echo "$1" | sed 's|\([^/]*\)|^\1$|g')
	"$dir/expr.test" -test.run '^$' -test.bench "^BenchmarkCompute\$/$pat/" -test.benchtime "${ITERS}x" | grep '^Benchmark' >> "$dir/raw.txt"
}
pybench() {
	"$PY" expr/testdata/numpy_compute_bench.py --iters "$ITERS" --case "$1" >> "$dir/raw.txt"
}
for i in $(seq "$ROUNDS"); do
	for c in $cases; do
		if [ $((i % 2)) = 1 ]; then
			gobench "$c"
			pybench "$c"
		else
			pybench "$c"
			gobench "$c"
		fi
	done
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
