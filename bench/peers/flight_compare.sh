#!/bin/sh
# DoGet throughput of `fstensor serve` beside a pyarrow.flight (Arrow C++)
# server on the same IPC file, same run, 1 and 4 clients reading the whole
# file and 2 and 4 clients sharing its endpoints (flight_compare.py says
# how). Needs pyarrow in .venv (or FSTENSOR_PYTHON). Run from anywhere:
#
#	MIB=256 ROUNDS=3 sh bench/peers/flight_compare.sh
set -e
MIB=${MIB:-256}
ROUNDS=${ROUNDS:-3}
cd "$(dirname "$0")/../.."
PY=${FSTENSOR_PYTHON:-.venv/bin/python}
bin=$(mktemp -d)/fstensor
go build -o "$bin" ./cmd/fstensor
"$PY" bench/peers/flight_compare.py "$bin" "$MIB" "$ROUNDS"
rm -rf "$(dirname "$bin")"
