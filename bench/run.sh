#!/usr/bin/env bash
# Runs fstensor's benchmark suite and its peers (NumPy, gonum, gorgonia),
# then writes benchstat tables, a Markdown report and SVG charts under
# bench/out/ (git-ignored).
#
#   bash bench/run.sh                       # -count=10, 1s, small and large
#   COUNT=3 BENCHTIME=200ms bash bench/run.sh
#   SIZE=small COUNT=1 BENCHTIME=50ms bash bench/run.sh   # a quick smoke run
#
# Environment: COUNT (10), BENCHTIME (1s), SIZE (all: small, large or all),
# BENCH (a -bench regexp for the main suite, default .), OUT (bench/out),
# FSTENSOR_PYTHON (else .venv/bin/python, else python3), MACHINE (the
# machine's description in the report; default: CPU model, cores, memory).
set -euo pipefail
cd "$(dirname "$0")"
bench_dir=$PWD
root=$(cd .. && pwd)

count=${COUNT:-10}
benchtime=${BENCHTIME:-1s}
size=${SIZE:-all}
pattern=${BENCH:-.}
out=${OUT:-$bench_dir/out}
mkdir -p "$out"

python=${FSTENSOR_PYTHON:-}
if [ -z "$python" ] && [ -x "$root/.venv/bin/python" ]; then python=$root/.venv/bin/python; fi
if [ -z "$python" ]; then python=$(command -v python3 || true); fi

if [ -z "${MACHINE:-}" ]; then
  cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
  mem=$(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo 2>/dev/null || true)
  MACHINE="${cpu:-unknown CPU}, $(nproc 2>/dev/null || echo '?') cores, ${mem:-? memory}, $(uname -sr), $(go env GOVERSION)"
fi
args=(-run '^$' -count "$count" -benchtime "$benchtime")
command="COUNT=$count BENCHTIME=$benchtime SIZE=$size bash bench/run.sh"
echo "machine: $MACHINE"

echo "== fstensor (go test -bench $pattern ./bench)"
(cd "$root" && go test "${args[@]}" -bench "$pattern" -timeout 0 ./bench -args -size "$size") | tee "$out/fstensor.txt"

echo "== Go peers (bench/peers: gonum, gorgonia)"
(cd "$bench_dir/peers" && go test "${args[@]}" -bench . -timeout 0 . -args -size "$size") | tee "$out/peers.txt"

echo "== NumPy"
rm -f "$out/numpy.txt"
if [ -n "$python" ] && "$python" -c 'import numpy' 2>/dev/null; then
  (cd "$bench_dir/peers" && go run ./cmd/benchtool cases -size "$size") > "$out/cases.json"
  procs=${GOMAXPROCS:-$(nproc)}  # Go's -N name suffix
  "$python" "$bench_dir/numpy_bench.py" "$out/cases.json" bench -count "$count" -benchtime "$benchtime" -procs "$procs" | tee "$out/numpy.txt"
else
  echo "skipped: ${python:-python} cannot import numpy (set FSTENSOR_PYTHON or create .venv)" >&2
fi

echo "== benchstat"
results=("$out/fstensor.txt" "$out/peers.txt")
[ -s "$out/numpy.txt" ] && results+=("$out/numpy.txt")
benchstat=(go run golang.org/x/perf/cmd/benchstat@latest)
"${benchstat[@]}" "$out/fstensor.txt" > "$out/fstensor.benchstat.txt"
# One table per case, one column per contender, across all three sources.
"${benchstat[@]}" -ignore pkg,goos,goarch,cpu -filter '.name:Materialize' -col /impl "${results[@]}" > "$out/materialize.benchstat.txt"
cat "$out/materialize.benchstat.txt"

echo "== report"
(cd "$bench_dir/peers" && go run ./cmd/benchtool report -o "$out" -machine "$MACHINE" -command "$command" "${results[@]}")
mkdir -p "$bench_dir/charts"
cp "$out/materialize-float32.svg" "$out/materialize-float64.svg" "$bench_dir/charts/"
echo "wrote $out/results.md, the charts (also copied to bench/charts/ for docs/benchmarks.md) and the raw results"
