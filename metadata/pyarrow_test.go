package metadata_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/metadata"
)

// serializeScript prints, one per line, the extension metadata pyarrow
// writes for each physical (value_type, shape, dim_names, permutation) read
// as JSON lines from stdin.
const serializeScript = `
import ctypes, json, struct, sys
import pyarrow as pa

class ArrowSchema(ctypes.Structure):
    _fields_ = [("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_void_p),
                ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64), ("children", ctypes.c_void_p),
                ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p)]

get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype = ctypes.c_void_p
get.argtypes = [ctypes.py_object, ctypes.c_char_p]

def ext_metadata(t):
    # The C Data Interface export carries the extension metadata verbatim.
    cap = pa.field("x", t).__arrow_c_schema__()
    p = ArrowSchema.from_address(get(cap, b"arrow_schema")).metadata
    def i32():
        nonlocal p
        v = struct.unpack("<i", ctypes.string_at(p, 4))[0]
        p += 4
        return v
    out = {}
    for _ in range(i32()):
        n = i32()
        k = ctypes.string_at(p, n)
        p += n
        n = i32()
        out[k] = ctypes.string_at(p, n)
        p += n
    return out[b"ARROW:extension:metadata"].decode()

for line in sys.stdin:
    shape, names, perm = json.loads(line)
    print(ext_metadata(pa.fixed_shape_tensor(pa.int8(), shape, dim_names=names, permutation=perm)))
`

// TestPyarrowSerialize checks AppendJSON byte for byte against pyarrow
// (Arrow C++), read through pyarrow's C Data Interface export.
func TestPyarrowSerialize(t *testing.T) {
	rows := []metadata.Metadata{
		metadata.MustNew([]int{3, 4}, []string{"x", "y"}, nil),
		metadata.MustNew([]int{3, 4}, []string{"x", "y"}, []int{0, 1}),
		metadata.MustNew([]int{4, 3}, nil, []int{1, 0}),
		metadata.MustNew([]int{2, 3, 4}, []string{"a", "b", "c"}, []int{2, 0, 1}),
		metadata.MustNew([]int{1, 1, 1, 1}, []string{"q\"uote", "back\\slash", "ctl\x01\t\n", "uni é✓/"}, []int{0, 1, 2, 3}),
		metadata.MustNew([]int{3, 0, 4}, nil, []int{0, 1, 2}),
		metadata.MustNew([]int{}, nil, nil),
	}
	var in strings.Builder
	for _, m := range rows {
		names := m.PhysicalDimNames()
		b, err := json.Marshal([]any{m.PhysicalShape(), names, m.Permutation()})
		if err != nil {
			t.Fatal(err)
		}
		in.Write(b)
		in.WriteByte('\n')
	}
	out := pyrun.Run(t, serializeScript, []byte(in.String()), []string{"pyarrow"})
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(rows) {
		t.Fatalf("pyarrow printed %d lines for %d rows:\n%s", len(lines), len(rows), out)
	}
	for i, m := range rows {
		if got := string(m.AppendJSON(nil)); got != lines[i] {
			t.Errorf("row %d: AppendJSON = %s, pyarrow = %s", i, got, lines[i])
		}
	}
}
