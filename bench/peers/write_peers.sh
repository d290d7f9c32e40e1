#!/bin/sh
# Writes ROWS uint8 224x224x3 images (150,528 bytes each; 20,000 make the
# issue's 3 GB table), built once in memory in batches of BATCH rows, to
# an Arrow IPC file under DIR (tmpfs by default) with fstensor
# (tensorio.Create, which syncs, and arrowipc's writer on a plain file,
# through BenchmarkWriteImages) and pyarrow (pa.ipc.new_file, with and
# without an fsync), each write in a process of its own, ROUNDS times in
# the same run, and prints the best of each with ratios. Needs twice the table's bytes of memory plus the
# file's under DIR. Run from anywhere:
#
#	ROWS=20000 BATCH=1000 ROUNDS=3 DIR=/dev/shm/write sh bench/peers/write_peers.sh > write.txt
set -e
ROWS=${ROWS:-20000}
BATCH=${BATCH:-1000}
ROUNDS=${ROUNDS:-3}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
DIR=${DIR:-/dev/shm/fstensor_write}
mkdir -p "$DIR"
go test -c -o "$DIR/tensorio.test" ./tensorio
: > "$DIR/raw.txt"
# One write a process: a second write of the table in the same process
# measured slower than the first, for both libraries.
for i in $(seq "$ROUNDS"); do
	for sync in no yes; do
		FSTENSOR_WRITE_DIR=$DIR FSTENSOR_WRITE_ROWS=$ROWS FSTENSOR_WRITE_BATCH=$BATCH \
			"$DIR/tensorio.test" -test.run '^$' -test.bench "BenchmarkWriteImages/sync=$sync" -test.benchtime 1x | grep '^Benchmark' >> "$DIR/raw.txt"
		"$PY" bench/peers/write_peers.py time "$DIR" "$ROWS" "$BATCH" "$sync" >> "$DIR/raw.txt"
	done
done
rm -f "$DIR/tensorio.test"
cat "$DIR/raw.txt"
echo
echo "rows=$ROWS batch=$BATCH rounds=$ROUNDS dir=$DIR cores=$(nproc) $(go version | cut -d' ' -f3) pyarrow=$("$PY" -c 'import pyarrow; print(pyarrow.__version__)')"
"$PY" bench/peers/write_peers.py report "$DIR/raw.txt"
