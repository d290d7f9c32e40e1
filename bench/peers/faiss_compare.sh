#!/bin/sh
# Interleaves package search's BenchmarkTopK and faiss_bench.py (FAISS
# IndexFlatIP/IndexFlatL2, one thread) ROUNDS times over ROWS x 768
# float32 rows, so that both see the same state of a shared machine.
# Needs 3 GB per process at the default 1,000,000 rows (6 GB for FAISS
# while it copies the rows into its index). Run from anywhere:
#
#	ROWS=1000000 ROUNDS=3 sh bench/peers/faiss_compare.sh > topk.txt
set -e
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
cd "$(dirname "$0")/../.."
bin=$(mktemp -d)/search.test
go test -c -o "$bin" ./search
for i in $(seq "$ROUNDS"); do
	FSTENSOR_TOPK_ROWS=$ROWS "$bin" -test.run '^$' -test.bench BenchmarkTopK -test.benchtime 1x
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/peers/faiss_bench.py --rows "$ROWS" --rounds 1
done
rm -f "$bin"
