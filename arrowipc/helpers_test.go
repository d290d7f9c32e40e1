package arrowipc_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// Shared test helpers (internal/testvec).
var (
	checkedMem = testvec.CheckedMem
	seqColumn  = testvec.SeqColumn
	putSeq     = testvec.PutSeq
	putElem    = testvec.PutElem
	getElem    = testvec.Elem

	testRecord        = testvec.Record
	checkRecordsEqual = testvec.CheckRecordsEqual
	exampleRecord     = testvec.ExampleRecord
)

// flatten appends the numbers of a nested JSON array to dst in order.
func flatten(x any, dst *[]float64) {
	switch x := x.(type) {
	case []any:
		for _, e := range x {
			flatten(e, dst)
		}
	case float64:
		*dst = append(*dst, x)
	}
}

// ipcVector is an "ipc_roundtrip" case of
// testdata/arrow_fixed_shape_tensor.json, with the fields TestIPCVectors
// reads.
type ipcVector struct {
	ID               string            `json:"id"`
	ValueType        string            `json:"value_type"`
	StorageType      string            `json:"storage_type"`
	PhysicalShape    testvec.Ints      `json:"physical_shape"`
	Permutation      testvec.Ints      `json:"permutation"`
	DimNamesPhysical []string          `json:"dim_names_physical"`
	StorageValues    []any             `json:"storage_values"`
	FieldMetadata    map[string]string `json:"field_metadata"`
	Serialized       *string           `json:"serialized"`
}

// ipcVectors returns the "ipc_roundtrip" cases.
func ipcVectors(t testing.TB) []ipcVector {
	t.Helper()
	b, err := os.ReadFile(testvec.Path("arrow_fixed_shape_tensor.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []json.RawMessage `json:"cases"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var out []ipcVector
	for _, raw := range f.Cases {
		var kind struct {
			Kind string `json:"kind"`
		}
		if err := json.Unmarshal(raw, &kind); err != nil {
			t.Fatal(err)
		}
		if kind.Kind != "ipc_roundtrip" {
			continue // other kinds hold other shapes of values
		}
		var v ipcVector
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		t.Fatal("no ipc_roundtrip vectors")
	}
	return out
}

// elemType returns the Arrow type named by a vector.
func elemType(t testing.TB, name string) arrow.DataType {
	t.Helper()
	dt, err := testvec.DataType(name)
	if err != nil {
		t.Fatal(err)
	}
	return dt
}
