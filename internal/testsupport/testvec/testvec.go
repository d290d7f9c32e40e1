// Package testvec loads the conformance vectors under the repository's
// testdata directory for table tests. It is test support: nothing outside
// _test.go files imports it.
package testvec

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Dir returns the absolute path of the repository's testdata directory.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata")
}

// Path returns the absolute path of a file under testdata.
func Path(name string) string { return filepath.Join(Dir(), name) }

// Ints is a JSON array of integers in which JSON null decodes as nil and []
// as an empty, non-nil slice, so absent and empty stay distinct.
type Ints []int

// UnmarshalJSON implements json.Unmarshaler.
func (s *Ints) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*s = nil
		return nil
	}
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v == nil {
		v = []int{}
	}
	*s = v
	return nil
}

// TypeSpec is the part of a case that names one extension type.
type TypeSpec struct {
	ValueType        string   `json:"value_type"`
	PhysicalShape    Ints     `json:"physical_shape"`
	Permutation      Ints     `json:"permutation"`
	DimNamesPhysical []string `json:"dim_names_physical"`
}

// Type returns the tensor type s describes, failing the test when it is
// invalid.
func (s TypeSpec) Type(t testing.TB) *fixedshape.Type {
	t.Helper()
	m, err := metadata.FromPhysical(s.PhysicalShape, s.DimNamesPhysical, s.Permutation)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := fixedshape.NewType(MustDataType(t, s.ValueType), m)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// Case is one case of arrow_fixed_shape_tensor.json. Fields a kind does not
// use are zero. Raw holds the whole case for fields not decoded here.
type Case struct {
	TypeSpec
	ID                    string          `json:"id"`
	Kind                  string          `json:"kind"`
	ByteWidth             int             `json:"byte_width"`
	LogicalShape          Ints            `json:"logical_shape"`
	DimNamesLogical       []string        `json:"dim_names_logical"`
	Serialized            *string         `json:"serialized"`
	SerializedArrowRS     *string         `json:"serialized_arrow_rs"`
	StorageType           string          `json:"storage_type"`
	ListSize              *int            `json:"list_size"`
	NDim                  *int            `json:"ndim"`
	ExpectedError         bool            `json:"expected_error"`
	ErrorImpl             string          `json:"error_impl"`
	ErrorSubstring        string          `json:"error_substring"`
	ExpectedStridesBytes  Ints            `json:"expected_strides_bytes"`
	UpstreamStridesBytes  Ints            `json:"upstream_strides_bytes"`
	UpstreamMatchesSpec   *bool           `json:"upstream_matches_spec"`
	ExpectedString        string          `json:"expected_string"`
	ExpectedSubstring     string          `json:"expected_substring"`
	Left                  *TypeSpec       `json:"left"`
	Right                 *TypeSpec       `json:"right"`
	ExpectedEqual         *bool           `json:"expected_equal"`
	ExpectedPyPermutation Ints            `json:"expected_py_permutation"`
	ExpectedPyDimNames    []string        `json:"expected_py_dim_names"`
	StorageValues         json.RawMessage `json:"storage_values"`
	ExpectedStorage       json.RawMessage `json:"expected_storage"`
	FieldMetadata         map[string]any  `json:"field_metadata"`
	Raw                   json.RawMessage `json:"-"`
}

type file struct {
	Cases []json.RawMessage `json:"cases"`
}

// Load reads the cases of a vector file under testdata, in file order.
func Load(name string) ([]Case, error) {
	b, err := os.ReadFile(Path(name))
	if err != nil {
		return nil, err
	}
	var f file
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("testvec: %s: %w", name, err)
	}
	cases := make([]Case, len(f.Cases))
	for i, raw := range f.Cases {
		if err := json.Unmarshal(raw, &cases[i]); err != nil {
			return nil, fmt.Errorf("testvec: %s case %d: %w", name, i, err)
		}
		cases[i].Raw = raw
	}
	return cases, nil
}

// Kind returns the cases of the given kinds.
func Kind(cases []Case, kinds ...string) []Case {
	var out []Case
	for _, c := range cases {
		for _, k := range kinds {
			if c.Kind == k {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Vectors returns the cases of arrow_fixed_shape_tensor.json of the
// given kinds, each decoded into a T of the caller's, for the fields Case
// lacks or decodes otherwise. It fails the test when the file cannot be
// read or holds no case of these kinds.
func Vectors[T any](t testing.TB, kinds ...string) []T {
	t.Helper()
	cases, err := Load("arrow_fixed_shape_tensor.json")
	if err != nil {
		t.Fatal(err)
	}
	var out []T
	for _, c := range Kind(cases, kinds...) {
		var v T
		if err := json.Unmarshal(c.Raw, &v); err != nil {
			t.Fatalf("case %s: %v", c.ID, err)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		t.Fatalf("no vectors of kinds %v", kinds)
	}
	return out
}

var primitives = map[string]arrow.DataType{
	"int8": arrow.PrimitiveTypes.Int8, "int16": arrow.PrimitiveTypes.Int16,
	"int32": arrow.PrimitiveTypes.Int32, "int64": arrow.PrimitiveTypes.Int64,
	"uint8": arrow.PrimitiveTypes.Uint8, "uint16": arrow.PrimitiveTypes.Uint16,
	"uint32": arrow.PrimitiveTypes.Uint32, "uint64": arrow.PrimitiveTypes.Uint64,
	"float16": arrow.FixedWidthTypes.Float16, "halffloat": arrow.FixedWidthTypes.Float16,
	"float32": arrow.PrimitiveTypes.Float32, "float": arrow.PrimitiveTypes.Float32,
	"float64": arrow.PrimitiveTypes.Float64, "double": arrow.PrimitiveTypes.Float64,
	"bool": arrow.FixedWidthTypes.Boolean,
}

// DataType parses the type names the vectors use: primitive names such as
// "int64" and "fixed_size_list<float32 not null>[12]".
func DataType(s string) (arrow.DataType, error) {
	if dt, ok := primitives[s]; ok {
		return dt, nil
	}
	rest, ok := strings.CutPrefix(s, "fixed_size_list<")
	if !ok {
		return nil, fmt.Errorf("testvec: unknown type %q", s)
	}
	elem, size, ok := strings.Cut(rest, ">[")
	if !ok || !strings.HasSuffix(size, "]") {
		return nil, fmt.Errorf("testvec: malformed type %q", s)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(size, "]"))
	if err != nil {
		return nil, fmt.Errorf("testvec: malformed type %q", s)
	}
	elem, notNull := strings.CutSuffix(elem, " not null")
	edt, err := DataType(elem)
	if err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, fmt.Errorf("testvec: arrow-go cannot build %q", s)
	}
	if notNull {
		return arrow.FixedSizeListOfNonNullable(int32(n), edt), nil
	}
	return arrow.FixedSizeListOf(int32(n), edt), nil
}

// MustDataType is [DataType] failing the test on a name it does not know.
func MustDataType(t testing.TB, name string) arrow.DataType {
	t.Helper()
	dt, err := DataType(name)
	if err != nil {
		t.Fatal(err)
	}
	return dt
}

// Seed is one case of seed_systems.json: the foreign tensor formats,
// ndindex and NumPy reshape. Input and Expected are left to the test.
type Seed struct {
	ID          string          `json:"id"`
	System      string          `json:"system"`
	Source      string          `json:"source"`
	Description string          `json:"description"`
	Input       json.RawMessage `json:"input"`
	Expected    json.RawMessage `json:"expected"`
}

// Seeds returns the cases of seed_systems.json for system, failing the
// test when the file cannot be read or has none.
func Seeds(t testing.TB, system string) []Seed {
	t.Helper()
	b, err := os.ReadFile(Path("seed_systems.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []Seed }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var out []Seed
	for _, c := range f.Cases {
		if c.System == system {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s cases in seed_systems.json", system)
	}
	return out
}

// Hex decodes the hex text of a byte-exact case, failing the test on
// malformed text.
func Hex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Number is the element types Column can fill from an int.
type Number interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// Column builds a column of typ with one tensor per entry of nulls (true
// for a null tensor); physical element j of tensor k holds step*k + j. The
// caller releases it.
func Column[T Number](t testing.TB, mem memory.Allocator, typ *fixedshape.Type, nulls []bool, step int) *fixedshape.Array {
	t.Helper()
	b, err := fixedshape.NewBuilder[T](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	vals := make([]T, typ.ListSize())
	for k, null := range nulls {
		if null {
			b.AppendNull()
			continue
		}
		for j := range vals {
			vals[j] = T(step*k + j)
		}
		if err := b.Append(vals); err != nil {
			t.Fatal(err)
		}
	}
	return b.NewArray()
}
