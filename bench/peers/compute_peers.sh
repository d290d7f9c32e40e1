#!/bin/sh
# Interleaves bench's BenchmarkPeersCompute (fstensor's expr.Compile and
# Program.Eval, one worker, beside copy()) and compute_peers.py (NumPy,
# numexpr, polars, DuckDB, one thread each) ROUNDS times over ROWS x 768
# float32 rows in memory, so that all see the same state of a shared
# machine, each side timing REPS calls of every case per round, then
# prints a table of the median seconds and the same-run ratios. Needs
# about 3 GB per process at the default 200,000 rows. The Python peers
# are installed by hand (a missing one prints "-"):
#
#	.venv/bin/python -m pip install numpy numexpr polars duckdb pyarrow
#	ROWS=200000 ROUNDS=3 sh bench/peers/compute_peers.sh > compute_peers.txt
set -e
ROWS=${ROWS:-200000}
ROUNDS=${ROUNDS:-3}
REPS=${REPS:-3}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
dir=$(mktemp -d)
go test -c -o "$dir/bench.test" ./bench
for i in $(seq "$ROUNDS"); do
	FSTENSOR_COMPUTE_ROWS=$ROWS GOMAXPROCS=1 "$dir/bench.test" -test.run '^$' -test.bench BenchmarkPeersCompute -test.benchtime "${REPS}x" -test.v |
		grep -E '^(Benchmark|\s+compute_peers_test)' | tee -a "$dir/raw.txt"
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 POLARS_MAX_THREADS=1 NUMEXPR_NUM_THREADS=1 \
		"$PY" bench/peers/compute_peers.py --rows "$ROWS" --rounds "$REPS" | tee -a "$dir/raw.txt"
done
echo
"$PY" bench/peers/compute_peers.py --table "$dir/raw.txt"
rm -rf "$dir"
