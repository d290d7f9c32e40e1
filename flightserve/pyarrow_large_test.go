package flightserve_test

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/pyrun"
)

// pyLargeScript writes an IPC file and a Parquet file of 300 float32
// (64,64) tensors (16 KiB each, every 7th null) with an int64 id, in
// batches of 100 rows, then reads them back through pyarrow.flight:
// whole, a row range cutting batches off their starts, and an
// expression; each must equal what pyarrow reads from the files itself.
const pyLargeScript = `
import json, os, sys
import numpy as np, pyarrow as pa, pyarrow.flight as flight, pyarrow.ipc as ipc, pyarrow.parquet as pq

location, root = sys.argv[1:3]
n = 300
typ = pa.fixed_shape_tensor(pa.float32(), [64, 64])
vals = np.arange(n * 4096, dtype=np.float32)
mask = np.array([i % 7 == 3 for i in range(n)])
storage = pa.FixedSizeListArray.from_arrays(pa.array(vals), 4096, mask=pa.array(mask))
tbl = pa.table({"id": pa.array(np.arange(n, dtype=np.int64)), "x": pa.ExtensionArray.from_storage(typ, storage)})
with ipc.new_file(os.path.join(root, "big.arrow"), tbl.schema) as w:
    w.write_table(tbl, max_chunksize=100)
pq.write_table(tbl, os.path.join(root, "big.parquet"), row_group_size=100)

client = flight.FlightClient(location)
def get(**kw):
    return client.do_get(flight.Ticket(json.dumps(kw).encode())).read_all()

def same(got, want, where):
    assert got.num_rows == want.num_rows, (where, got.num_rows, want.num_rows)
    for name in want.column_names:
        g, w = got.column(name).combine_chunks(), want.column(name).combine_chunks()
        assert g.equals(w), (where, name)

same(get(path="big.arrow"), tbl, "whole")
same(get(path="big.parquet"), tbl, "parquet")
same(get(path="big.arrow", offset=3, limit=250), tbl.slice(3, 250), "rows 3 to 253")
doubled = get(path="big.arrow", expr="x * 2")
x = doubled.column("x").combine_chunks()
assert x.null_count == int(mask.sum()), x.null_count
got = x.storage.flatten().to_numpy(zero_copy_only=False)
want = (vals * 2).reshape(n, 4096)[~mask].ravel()
assert np.array_equal(got, want), "x * 2"
print("ok")
`

// TestPyArrowLarge reads batches of buffers large enough for DoGet to
// hand gRPC uncopied (the file's mapping, sliced batches, Parquet and
// expression results) with pyarrow.flight.
func TestPyArrowLarge(t *testing.T) {
	pyrun.Python(t, "pyarrow.flight", "numpy")
	dir := t.TempDir()
	// serve checks the allocator when the test ends.
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: memory.NewCheckedAllocator(memory.NewGoAllocator())})
	out := pyrun.Run(t, pyLargeScript, nil, []string{"pyarrow.flight", "numpy"}, "grpc://"+addr, dir)
	if strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("script printed %q", out)
	}
}
