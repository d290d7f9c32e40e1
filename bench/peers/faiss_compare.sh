#!/bin/sh
# Interleaves package search's BenchmarkTopK and faiss_bench.py (FAISS
# IndexFlatIP/IndexFlatL2, one thread) ROUNDS times over ROWS x 768
# float32 rows, so that both see the same state of a shared machine, then
# prints every line and a table of the medians: FAISS's time over
# fstensor's for each case (above 1, fstensor is faster), against FAISS's
# default path and its BLAS path. Needs 3 GB per process at the default
# 1,000,000 rows (6 GB for FAISS while it copies the rows into its
# index); PY names a Python with faiss-cpu and NumPy (pip install
# faiss-cpu). Run from anywhere:
#
#	ROWS=1000000 ROUNDS=3 sh bench/peers/faiss_compare.sh > topk.txt
set -e
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
go test -c -o "$dir/search.test" ./search
for i in $(seq "$ROUNDS"); do
	FSTENSOR_TOPK_ROWS=$ROWS "$dir/search.test" -test.run '^$' -test.bench BenchmarkTopK -test.benchtime 1x | grep '^Benchmark' >> "$dir/raw.txt"
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 "$PY" bench/peers/faiss_bench.py --rows "$ROWS" --rounds 1 | grep '^metric=' >> "$dir/raw.txt"
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
