package varshape_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// vstCase is the part of a vst_* vector that testvec does not decode.
type vstCase struct {
	UniformShape []*int `json:"uniform_shape"`
}

var elemTypes = map[string]arrow.DataType{
	"int8": arrow.PrimitiveTypes.Int8, "int32": arrow.PrimitiveTypes.Int32,
	"int64": arrow.PrimitiveTypes.Int64, "float32": arrow.PrimitiveTypes.Float32,
}

func vstCases(t *testing.T, kinds ...string) []testvec.Case {
	t.Helper()
	all, err := testvec.Load("arrow_fixed_shape_tensor.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := testvec.Kind(all, kinds...)
	if len(cases) == 0 {
		t.Fatalf("no %v cases", kinds)
	}
	return cases
}

func TestVectorsSerialize(t *testing.T) {
	for _, c := range vstCases(t, "vst_metadata_serialize") {
		t.Run(c.ID, func(t *testing.T) {
			var v vstCase
			if err := json.Unmarshal(c.Raw, &v); err != nil {
				t.Fatal(err)
			}
			uniform := make([]int, len(v.UniformShape))
			for i, u := range v.UniformShape {
				uniform[i] = varshape.Varies
				if u != nil {
					uniform[i] = *u
				}
			}
			// The vector's permutation is the identity, so physical and
			// logical options agree.
			typ, err := varshape.NewType(elemTypes[c.ValueType], *c.NDim, varshape.Options{
				DimNames: c.DimNamesPhysical, Permutation: c.Permutation, UniformShape: uniform,
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(*c.Serialized, typ.Serialize()); diff != "" {
				t.Errorf("Serialize (-want +got):\n%s", diff)
			}
			// c.StorageType is Arrow C++'s spelling of the same storage.
			if typ.NDim() != *c.NDim || !arrow.TypeEqual(typ.ElemType(), elemTypes[c.ValueType]) {
				t.Errorf("type %v does not match %s", typ, c.StorageType)
			}
			back, err := typ.Deserialize(typ.StorageType(), *c.Serialized)
			if err != nil {
				t.Fatal(err)
			}
			if !arrow.TypeEqual(back, typ) || back.(*varshape.Type).Serialize() != *c.Serialized {
				t.Errorf("round trip gave %v", back)
			}
		})
	}
}

func TestVectorsInvalid(t *testing.T) {
	for _, c := range vstCases(t, "vst_metadata_invalid") {
		t.Run(c.ID, func(t *testing.T) {
			_, err := (&varshape.Type{}).Deserialize(varshape.StorageOf(arrow.PrimitiveTypes.Int64, *c.NDim), *c.Serialized)
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Deserialize(%s) = %v, want ErrInvalid", *c.Serialized, err)
			}
		})
	}
}

func TestVectorsStrides(t *testing.T) {
	for _, c := range vstCases(t, "vst_strides") {
		t.Run(c.ID, func(t *testing.T) {
			typ := varshape.MustNewType(elemTypes[c.ValueType], len(c.PhysicalShape), varshape.Options{Permutation: c.Permutation})
			m, err := typ.RowMetadata(c.PhysicalShape)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]int(c.LogicalShape), m.Shape()); diff != "" {
				t.Errorf("logical shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]int(c.ExpectedStridesBytes), m.ByteStrides(c.ByteWidth)); diff != "" {
				t.Errorf("strides (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSerialize(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	tests := []struct {
		name string
		ndim int
		o    varshape.Options
		want string
	}{
		{"none", 2, varshape.Options{}, `{}`},
		{"names", 2, varshape.Options{DimNames: []string{"h", "w"}}, `{"dim_names":["h","w"]}`},
		{"uniform", 3, varshape.Options{UniformShape: []int{-1, -1, 3}}, `{"uniform_shape":[null,null,3]}`},
		// Logical options, physical JSON: logical axis i is physical perm[i].
		{"3-cycle", 3, varshape.Options{DimNames: []string{"a", "b", "c"}, Permutation: []int{2, 0, 1}, UniformShape: []int{5, -1, -1}},
			`{"permutation":[2,0,1],"dim_names":["b","c","a"],"uniform_shape":[null,null,5]}`},
		{"escape", 1, varshape.Options{DimNames: []string{"a\"<b>\n"}}, `{"dim_names":["a\"<b>\n"]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ, err := varshape.NewType(f32, tt.ndim, tt.o)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, typ.Serialize()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			back, err := typ.Deserialize(typ.StorageType(), typ.Serialize())
			if err != nil {
				t.Fatal(err)
			}
			bt := back.(*varshape.Type)
			if diff := cmp.Diff(tt.o.DimNames, bt.DimNames()); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.o.UniformShape, bt.UniformShape()); diff != "" {
				t.Errorf("uniform (-want +got):\n%s", diff)
			}
			if !typ.ExtensionEquals(bt) || typ.Fingerprint() != bt.Fingerprint() {
				t.Errorf("round trip %v differs from %v", bt, typ)
			}
		})
	}
}

func TestDeserializeTolerant(t *testing.T) {
	st := varshape.StorageOf(arrow.PrimitiveTypes.Int64, 2)
	tests := []struct {
		name, json string
		perm       []int
	}{
		{"empty-object", `{}`, nil},
		{"empty-string", ``, nil},
		{"nulls", `{"permutation":null,"dim_names":null,"uniform_shape":null}`, nil},
		{"arrow-rs-plural", `{"permutations":[1,0]}`, []int{1, 0}},
		{"unknown-key", `{"shape":[1,2],"permutation":[1,0]}`, []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := (&varshape.Type{}).Deserialize(st, tt.json)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.perm, got.(*varshape.Type).Permutation()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestInvalid(t *testing.T) {
	i64 := arrow.PrimitiveTypes.Int64
	st := varshape.StorageOf(i64, 2)
	metas := []struct{ name, json string }{
		{"perm-repeats", `{"permutation":[0,0]}`},
		{"perm-range", `{"permutation":[0,2]}`},
		{"uniform-negative", `{"uniform_shape":[-2,null]}`},
		{"uniform-overflow", `{"uniform_shape":[3000000000,null]}`},
		{"uniform-length", `{"uniform_shape":[1]}`},
		{"not-object", `[1]`},
		{"trailing", `{} x`},
		{"duplicate", `{"dim_names":["a","b"],"dim_names":["a","b"]}`},
	}
	for _, tt := range metas {
		t.Run("json="+tt.name, func(t *testing.T) {
			if _, err := (&varshape.Type{}).Deserialize(st, tt.json); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
		})
	}
	storages := []struct {
		name string
		dt   arrow.DataType
	}{
		{"not-struct", arrow.ListOf(i64)},
		{"no-shape", arrow.StructOf(arrow.Field{Name: "data", Type: arrow.ListOf(i64)}, arrow.Field{Name: "x", Type: arrow.ListOf(i64)})},
		{"string-elements", varshape.StorageOf(arrow.BinaryTypes.String, 2)},
		{"int64-shape", arrow.StructOf(arrow.Field{Name: "data", Type: arrow.ListOf(i64)}, arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, i64)})},
		{"large-list", arrow.StructOf(arrow.Field{Name: "data", Type: arrow.LargeListOf(i64)}, arrow.Field{Name: "shape", Type: arrow.FixedSizeListOf(2, arrow.PrimitiveTypes.Int32)})},
	}
	for _, tt := range storages {
		t.Run("storage="+tt.name, func(t *testing.T) {
			if _, err := (&varshape.Type{}).Deserialize(tt.dt, `{}`); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("got %v, want ErrInvalid", err)
			}
		})
	}
	if _, err := varshape.NewType(i64, 0, varshape.Options{}); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("0-D: got %v, want ErrNotImplemented", err)
	}
	if _, err := varshape.NewType(i64, 2, varshape.Options{DimNames: []string{"a"}}); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("names: got %v, want ErrInvalid", err)
	}
}

func TestStringAndRegistered(t *testing.T) {
	if err := varshape.Registered(); err != nil {
		t.Fatal(err)
	}
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Int64, 3, varshape.Options{
		DimNames: []string{"x", "y", "z"}, Permutation: []int{0, 1, 2}, UniformShape: []int{-1, 1, -1}})
	want := "extension<arrow.variable_shape_tensor[value_type=int64, ndim=3, permutation=[0,1,2], dim_names=[x,y,z], uniform_shape=[null,1,null]]>"
	if got := typ.String(); got != want {
		t.Errorf("String() = %s, want %s", got, want)
	}
}
