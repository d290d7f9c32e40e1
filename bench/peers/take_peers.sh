#!/bin/sh
# Takes 1,000 random rows of ROWS x 768 float32 embeddings with fstensor
# (tensorio.Take through BenchmarkTakeFiles: a mapped IPC file, Parquet
# files uncompressed in one page a chunk (the default), 1 MiB and 16 KiB
# pages, zstd and lz4 in 16 KiB pages; BenchmarkTake has snappy), pyarrow
# (read + take: the mapped IPC file, Parquet) and Lance (its own format,
# skipped without pylance), ROUNDS times in the same run, and prints the
# best of each with ratios. Needs about 25 GB of disk under DIR a million
# rows (eight files of 3 GB, plus Lance's). Run from anywhere:
#
#	ROWS=1000000 ROUNDS=3 DIR=/tmp/take sh bench/peers/take_peers.sh > take.txt
set -e
ROWS=${ROWS:-1000000}
ROUNDS=${ROUNDS:-3}
PY=${PY:-.venv/bin/python}
cd "$(dirname "$0")/../.."
DIR=${DIR:-$(mktemp -d)}
mkdir -p "$DIR"
"$PY" bench/peers/take_peers.py setup "$DIR" "$ROWS"
go build -o "$DIR/fstensor" ./cmd/fstensor
ln -f "$DIR/data.arrow" "$DIR/fstensor_ipc.arrow"
for spec in none:chunk none:1MiB none:16KiB zstd:16KiB lz4:16KiB; do
	codec=${spec%%:*}
	page=${spec##*:}
	set -- --page-size "$page"
	if [ "$page" = chunk ]; then
		set -- # the default: an uncompressed chunk is one page
	fi
	"$DIR/fstensor" convert "$DIR/data.arrow" -o "$DIR/fstensor_${codec}_${page}.parquet" --compression "$codec" "$@" --quiet
done
go test -c -o "$DIR/tensorio.test" ./tensorio
: > "$DIR/raw.txt"
for i in $(seq "$ROUNDS"); do
	FSTENSOR_TAKE_DIR=$DIR "$DIR/tensorio.test" -test.run '^$' -test.bench BenchmarkTakeFiles -test.benchtime 5x | grep '^Benchmark' >> "$DIR/raw.txt"
	"$PY" bench/peers/take_peers.py time "$DIR" >> "$DIR/raw.txt"
done
cat "$DIR/raw.txt"
echo
echo "rows=$ROWS rounds=$ROUNDS cores=$(nproc) $(go version | cut -d' ' -f3) pyarrow=$("$PY" -c 'import pyarrow; print(pyarrow.__version__)') lance=$("$PY" -c 'import lance; print(lance.__version__)' 2>/dev/null || echo none)"
"$PY" bench/peers/take_peers.py report "$DIR/raw.txt"
