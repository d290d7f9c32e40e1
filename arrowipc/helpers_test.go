package arrowipc_test

import (
	"testing"

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
	elemType          = testvec.MustDataType
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
	return testvec.Vectors[ipcVector](t, "ipc_roundtrip")
}
