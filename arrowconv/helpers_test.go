package arrowconv_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/arrow/tensor"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Shared test helpers (internal/testsupport/testvec).
var (
	checkedMem = testvec.CheckedMem
	seqColumn  = testvec.SeqColumn
	putSeq     = testvec.PutSeq
	getElem    = testvec.Elem

	testRecord        = testvec.Record
	checkRecordsEqual = testvec.CheckRecordsEqual
	exampleRecord     = testvec.ExampleRecord
	elemType          = testvec.MustDataType
)

// vector is one conformance case of testdata/arrow_fixed_shape_tensor.json,
// with the fields the conversion kinds use. testvec.Case cannot decode
// the file (its storage_values are sometimes strings), so the cases are
// decoded here.
type vector struct {
	testvec.TypeSpec
	ID                  string       `json:"id"`
	Kind                string       `json:"kind"`
	ByteWidth           int          `json:"byte_width"`
	LogicalShape        testvec.Ints `json:"logical_shape"`
	DimNamesLogical     []string     `json:"dim_names_logical"`
	ArrayLength         int          `json:"array_length"`
	StorageType         string       `json:"storage_type"`
	ExpectedError       bool         `json:"expected_error"`
	TensorStridesBytes  testvec.Ints `json:"expected_tensor_strides_bytes"`
	UpstreamStrides     testvec.Ints `json:"upstream_tensor_strides_bytes"`
	UpstreamMatchesSpec *bool        `json:"upstream_matches_spec"`
	TensorShape         testvec.Ints `json:"expected_tensor_shape_logical"`
	TensorDimNames      []string     `json:"expected_tensor_dim_names"`
	InShape             testvec.Ints `json:"tensor_shape_logical"`
	InStridesBytes      testvec.Ints `json:"tensor_strides_bytes"`
	InDimNames          []string     `json:"tensor_dim_names"`
	ExpPhysicalShape    testvec.Ints `json:"expected_physical_shape"`
	ExpPermutation      testvec.Ints `json:"expected_permutation"`
	ExpDimNamesPhysical []string     `json:"expected_dim_names_physical"`
	DensePermuted       *bool        `json:"dense_permuted_layout"`
	RoundtripStrides    testvec.Ints `json:"expected_roundtrip_strides_bytes"`
	NdarrayShape        testvec.Ints `json:"ndarray_shape_logical"`
	NdarrayStrides      testvec.Ints `json:"ndarray_strides_elements"`
	NdarrayOrder        string       `json:"ndarray_order"`
	DimNamesArg         any          `json:"dim_names_arg"`
	Slice               testvec.Ints `json:"slice"`
	ExpectedNdarray     any          `json:"expected_ndarray"`
	StorageValues       any          `json:"storage_values"`
	ExpectedStorage     [][]float64  `json:"expected_storage"`
	Serialized          *string      `json:"serialized"`
}

// loadVectors returns the cases of the given kinds.
func loadVectors(t testing.TB, kinds ...string) []vector {
	t.Helper()
	return testvec.Vectors[vector](t, kinds...)
}

// specValue returns the value that logical index idx of tensor b has in a
// seqColumn of metadata m: its physical row-major position, computed from
// the definition L[i] = P[perm[i]] independently of the strides code.
func specValue(m metadata.Metadata, b int, idx []int) float64 {
	phys := m.PhysicalShape()
	perm := m.Permutation()
	if perm == nil {
		perm = stride.Identity(nil, m.NDim())
	}
	pidx := make([]int, len(phys))
	for i, v := range idx {
		pidx[perm[i]] = v
	}
	off := 0
	for k, v := range pidx {
		off = off*phys[k] + v
	}
	return float64(b*m.Size() + off)
}

// tensorBytes returns the bytes of t's values, from its first element.
func tensorBytes(t tensor.Interface) []byte {
	d := t.Data()
	if d.Buffers()[1] == nil {
		return nil
	}
	w := d.DataType().(arrow.FixedWidthDataType).Bytes()
	return d.Buffers()[1].Bytes()[d.Offset()*w : (d.Offset()+d.Len())*w]
}

// tensorAt reads the element of t at idx through t's byte strides.
func tensorAt(t tensor.Interface, idx []int) float64 {
	off := int64(0)
	for i, v := range idx {
		off += int64(v) * t.Strides()[i]
	}
	return getElem(tensorBytes(t)[off:], t.DataType())
}

// indices returns every index of shape in row-major order.
func indices(shape []int) [][]int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	out := make([][]int, 0, n)
	idx := make([]int, len(shape))
	for range n {
		out = append(out, append([]int{}, idx...))
		for a := len(shape) - 1; a >= 0; a-- {
			idx[a]++
			if idx[a] < shape[a] {
				break
			}
			idx[a] = 0
		}
	}
	return out
}

// newTensor returns an arrow/tensor of dt over a fresh buffer of n
// elements 0..n-1 with the given shape and byte strides; the caller
// releases it.
func newTensor(t testing.TB, mem memory.Allocator, dt arrow.DataType, n int, shape, strides []int, names []string) tensor.Interface {
	t.Helper()
	w := dt.(arrow.FixedWidthDataType).Bytes()
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(n * w)
	putSeq(buf.Bytes(), dt, n)
	d := array.NewData(dt, n, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer d.Release()
	s64 := make([]int64, len(shape))
	st64 := make([]int64, len(strides))
	for i := range shape {
		s64[i] = int64(shape[i])
	}
	for i := range strides {
		st64[i] = int64(strides[i])
	}
	return tensor.New(d, s64, st64, names)
}

func ints64(xs []int64) []int {
	out := make([]int, len(xs))
	for i, x := range xs {
		out[i] = int(x)
	}
	return out
}
