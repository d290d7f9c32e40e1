package arrowipc_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/testvec"
)

// Shared test helpers (internal/testvec).
var (
	checkedMem = testvec.CheckedMem
	seqColumn  = testvec.SeqColumn
	putSeq     = testvec.PutSeq
	putElem    = testvec.PutElem
	getElem    = testvec.Elem
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

// vector is one conformance case of testdata/arrow_fixed_shape_tensor.json,
// with the fields the conversion kinds use. testvec.Case cannot decode
// the file (its storage_values are sometimes strings), so the cases are
// decoded here.
type vector struct {
	ID                  string         `json:"id"`
	Kind                string         `json:"kind"`
	ValueType           string         `json:"value_type"`
	ByteWidth           int            `json:"byte_width"`
	PhysicalShape       testvec.Ints   `json:"physical_shape"`
	Permutation         testvec.Ints   `json:"permutation"`
	DimNamesPhysical    []string       `json:"dim_names_physical"`
	LogicalShape        testvec.Ints   `json:"logical_shape"`
	DimNamesLogical     []string       `json:"dim_names_logical"`
	ArrayLength         int            `json:"array_length"`
	StorageType         string         `json:"storage_type"`
	ExpectedError       bool           `json:"expected_error"`
	TensorStridesBytes  testvec.Ints   `json:"expected_tensor_strides_bytes"`
	UpstreamStrides     testvec.Ints   `json:"upstream_tensor_strides_bytes"`
	UpstreamMatchesSpec *bool          `json:"upstream_matches_spec"`
	TensorShape         testvec.Ints   `json:"expected_tensor_shape_logical"`
	TensorDimNames      []string       `json:"expected_tensor_dim_names"`
	InShape             testvec.Ints   `json:"tensor_shape_logical"`
	InStridesBytes      testvec.Ints   `json:"tensor_strides_bytes"`
	InDimNames          []string       `json:"tensor_dim_names"`
	ExpPhysicalShape    testvec.Ints   `json:"expected_physical_shape"`
	ExpPermutation      testvec.Ints   `json:"expected_permutation"`
	ExpDimNamesPhysical []string       `json:"expected_dim_names_physical"`
	DensePermuted       *bool          `json:"dense_permuted_layout"`
	RoundtripStrides    testvec.Ints   `json:"expected_roundtrip_strides_bytes"`
	NdarrayShape        testvec.Ints   `json:"ndarray_shape_logical"`
	NdarrayStrides      testvec.Ints   `json:"ndarray_strides_elements"`
	NdarrayOrder        string         `json:"ndarray_order"`
	DimNamesArg         any            `json:"dim_names_arg"`
	Slice               testvec.Ints   `json:"slice"`
	ExpectedNdarray     any            `json:"expected_ndarray"`
	StorageValues       any            `json:"storage_values"`
	ExpectedStorage     [][]float64    `json:"expected_storage"`
	Serialized          *string        `json:"serialized"`
	Raw                 map[string]any `json:"-"`
}

// loadVectors returns the cases of the given kinds.
func loadVectors(t testing.TB, kinds ...string) []vector {
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
	var out []vector
	for _, raw := range f.Cases {
		var v vector
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &v.Raw); err != nil {
			t.Fatal(err)
		}
		for _, k := range kinds {
			if v.Kind == k {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no vectors of kinds %v", kinds)
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
