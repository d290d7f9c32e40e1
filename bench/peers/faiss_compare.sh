#!/bin/sh
# Interleaves package search's BenchmarkTopK and faiss_bench.py (FAISS
# IndexFlatIP/IndexFlatL2, one thread) ROUNDS times over ROWS x 768
# float32 rows, so that both see the same state of a shared machine, then
# prints every line and a table of the medians: FAISS's time over
# fstensor's for each case (above 1, fstensor is faster), against FAISS's
# default path and its BLAS path. Each round runs the one-query cases on
# both sides, then the 64-query cases, the side that goes first
# alternating from round to round; each side times ITERS searches of a
# one-query case (5 unless told; ITERS64 of a 64-query case, 1 unless
# told) after a first one and reports their mean. Needs 3 GB per process
# at the default 1,000,000 rows (6 GB for FAISS while it copies the rows
# into its index); PY names a Python with faiss-cpu and NumPy (pip
# install faiss-cpu). Run from anywhere:
#
#	ROWS=1000000 ROUNDS=3 sh bench/peers/faiss_compare.sh > topk.txt
set -e
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
ITERS=${ITERS:-5}
ITERS64=${ITERS64:-1}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
go test -c -o "$dir/search.test" ./search
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
gobench() { # $1 queries, $2 searches
	FSTENSOR_TOPK_ROWS=$ROWS "$dir/search.test" -test.run '^$' -test.bench "^BenchmarkTopK\$/^metric=/^rows=/^dim=/^queries=$1\$/" -test.benchtime "$2x" | grep '^Benchmark' >> "$dir/raw.txt"
}
pybench() {
	"$PY" bench/peers/faiss_bench.py --rows "$ROWS" --queries "$1" --iters "$2" | grep '^metric=' >> "$dir/raw.txt"
}
for i in $(seq "$ROUNDS"); do
	for q in "1 $ITERS" "64 $ITERS64"; do
		if [ $((i % 2)) = 1 ]; then
			gobench $q
			pybench $q
		else
			pybench $q
			gobench $q
		fi
	done
done
cat "$dir/raw.txt"
"$PY" - "$dir/raw.txt" <<'PYEOF'
import collections, re, statistics, sys
ms = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.search(r'(metric=\S+?/impl=[\w-]+?)(?:-\d+)?\s+(?:\d+\s+)?([\d.]+) (ns/op|ms)', line)
    if m:
        ms[m.group(1)].append(float(m.group(2)) / (1e6 if m.group(3) == 'ns/op' else 1))
med = {k: statistics.median(v) for k, v in ms.items()}
print()
print('| case | fstensor ms | FAISS ms | FAISS BLAS ms | vs FAISS | vs FAISS BLAS |')
print('|---|---|---|---|---|---|')
for k in sorted(med):
    if not k.endswith('/impl=search'):
        continue
    case = k[:-len('/impl=search')]
    f, fb = med.get(case + '/impl=faiss'), med.get(case + '/impl=faiss-blas')
    cell = lambda v: '%.1f' % v if v else '-'
    ratio = lambda v: '%.2fx' % (v / med[k]) if v else '-'
    print('| %s | %.1f | %s | %s | %s | %s |' % (case, med[k], cell(f), cell(fb), ratio(f), ratio(fb)))
PYEOF
rm -rf "$dir"
