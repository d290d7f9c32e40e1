"""pyarrow.flight against `fstensor serve`: what a client sees on refusals.

Usage: python pyarrow_refusals.py LOCATION DIR
DIR holds data.arrow and .hidden.arrow; the server bounds uploads to 1 MiB.
Each refusal must raise the exception of its gRPC code, with a message that
does not name DIR. Prints "ok".
"""
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.flight as flight

location, root = sys.argv[1:3]
client = flight.FlightClient(location)


def refused(call, exc, want):
    try:
        call()
    except exc as e:
        msg = str(e)
        assert want in msg, (want, msg[:300])
        assert root not in msg, msg[:300]
        assert len(msg) < 4096, len(msg)
        return
    raise AssertionError("not refused: " + want)


def get(**kw):
    return client.do_get(flight.Ticket(json.dumps(kw).encode())).read_all()


# PERMISSION_DENIED: a hidden file.
refused(lambda: get(path=".hidden.arrow"), flight.FlightUnauthorizedError, "hidden")
# INVALID_ARGUMENT: a 40 KiB path, a key given twice, an unknown column.
refused(lambda: get(path="b" * (40 << 10) + ".arrow"), pa.ArrowInvalid, "exceeds 4095 bytes")
refused(lambda: client.do_get(flight.Ticket(b'{"path":"data.arrow","path":"x.arrow"}')).read_all(),
        pa.ArrowInvalid, 'key "path" given twice')
refused(lambda: get(path="data.arrow", columns=["nosuch"]), pa.ArrowInvalid, 'data.arrow: no column "nosuch"')
refused(lambda: client.get_flight_info(flight.FlightDescriptor.for_path("n" * 300 + ".arrow")),
        pa.ArrowInvalid, "exceeds 255 bytes")


# RESOURCE_EXHAUSTED: an upload over --max-upload-mib / MaxUploadBytes.
def put_big():
    t = pa.table({"x": pa.array(np.zeros(1 << 19, dtype=np.float32))})  # 2 MiB
    writer, reader = client.do_put(flight.FlightDescriptor.for_path("big.arrow"), t.schema)
    try:
        writer.write_table(t, max_chunksize=1 << 16)
        writer.done_writing()
        reader.read()
    finally:
        writer.close()


refused(put_big, pa.ArrowException, "limit of 1048576 bytes")
print("ok")
