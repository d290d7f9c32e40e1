package parquetconv_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/varshape"
)

// nullTensorRecord holds fixed-shape columns of element types the fast
// path does not take (they fall back to pqarrow), with null tensors, as
// JSON lists of their storage, and a variable-shape column with null
// rows.
func nullTensorRecord(t *testing.T, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	m := metadata.MustNew([]int{2, 2}, []string{"a", "b"}, []int{1, 0})
	var fields []arrow.Field
	var cols []arrow.Array
	for _, c := range []struct {
		name    string
		elem    arrow.DataType
		json    string
		nonNull bool // the storage child is non-nullable, as arrow-rs writes it
	}{
		{"bool", arrow.FixedWidthTypes.Boolean, `[[true,false,false,true],null,[false,false,true,true],null,[true,true,true,false]]`, false},
		{"dec", &arrow.Decimal128Type{Precision: 9, Scale: 2}, `[null,["1.25","-2.50","3.00","0.01"],null,["4.00","5.50","-6.25","7.75"],["8.00","9.00","10.00","11.00"]]`, false},
		{"bool_nn", arrow.FixedWidthTypes.Boolean, `[null,[true,false,false,true],null,[false,false,true,true],[true,true,true,false]]`, true},
		{"fsb", &arrow.FixedSizeBinaryType{ByteWidth: 2}, `[["AAE=","AgM=","BAU=","Bgc="],["CAk=","Cgs=","DA0=","Dg8="],null,null,["EBE=","EhM=","FBU=","Fhc="]]`, false},
	} {
		typ, err := fixedshape.NewType(c.elem, m)
		if c.nonNull {
			typ, err = fixedshape.NewTypeWithStorage(arrow.FixedSizeListOfNonNullable(4, c.elem), m)
		}
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := array.FromJSON(mem, typ.StorageType(), strings.NewReader(c.json))
		if err != nil {
			t.Fatal(err)
		}
		arr, err := fixedshape.NewArray(typ, st)
		st.Release()
		if err != nil {
			t.Fatal(err)
		}
		defer arr.Release()
		fields = append(fields, arrow.Field{Name: c.name, Type: typ, Nullable: true})
		cols = append(cols, arr)
	}
	vt := varshape.MustNewType(arrow.PrimitiveTypes.Int16, 2, varshape.Options{
		DimNames: []string{"h", "w"}, Permutation: []int{1, 0}, UniformShape: []int{varshape.Varies, 2}})
	vals := [][]int16{{1, 2, 3, 4}, nil, {5, 6}, {7, 8, 9, 10, 11, 12}, nil}
	shapes := [][]int{{2, 2}, nil, {1, 2}, {3, 2}, nil}
	va, err := varshape.FromSlices(mem, vt, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer va.Release()
	fields = append(fields, arrow.Field{Name: "var", Type: vt, Nullable: true})
	cols = append(cols, va)
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, 5)
}

// TestParquetNullTensorsFallback writes null tensors of the columns that
// take arrow-go's pqarrow writer (non-numeric elements, variable-shape
// columns), whole and sliced, in one and several row groups, and reads
// them back.
func TestParquetNullTensorsFallback(t *testing.T) {
	for _, tc := range []struct {
		name     string
		from, to int
		rows     int
	}{{"whole", 0, 5, 100}, {"row groups of 2", 0, 5, 2}, {"sliced", 1, 4, 100}, {"nulls only", 1, 2, 100}} {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			full := nullTensorRecord(t, mem)
			defer full.Release()
			rec := sliceRecord(full, tc.from, tc.to)
			defer rec.Release()
			roundTrip(t, mem, rec, parquetconv.WithRowGroupRows(tc.rows))
		})
	}
}

// TestParquetNullTensorsPyarrow checks the file with pyarrow: null rows
// where they were written and every valid tensor's logical values
// through NumPy.
func TestParquetNullTensorsPyarrow(t *testing.T) {
	pyrun.Python(t, "pyarrow", "numpy")
	mem := checkedMem(t)
	full := nullTensorRecord(t, mem)
	defer full.Release()
	rec := sliceRecord(full, 1, 5)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "nulls.parquet")
	if err := os.WriteFile(path, writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(3)), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `
import json, sys
import numpy as np
import pyarrow.parquet as pq
t = pq.read_table(sys.argv[1])
out = {}
for name in t.column_names:
    f = t.schema.field(name)
    col = t.column(name).combine_chunks()
    # pyarrow knows both canonical types (without Python classes).
    assert str(f.type).startswith("extension<arrow.") and "permutation=[1,0]" in str(f.type), str(f.type)
    col = col.storage
    rows = []
    if name == "var":
        assert "variable_shape_tensor" in str(f.type), str(f.type)
        perm = [1, 0]
        for r in col.to_pylist():
            if r is None:
                rows.append(None)
                continue
            a = np.array(r["data"]).reshape(r["shape"]).transpose(perm)
            rows.append([list(a.shape), [int(v) for v in a.reshape(-1)]])
    else:
        for r in col.to_pylist():
            if r is None:
                rows.append(None)
                continue
            # physical (2,2) row-major, logical = transposed by [1,0]
            a = np.array([str(v) if not isinstance(v, bytes) else v.hex() for v in r], dtype=object).reshape(2, 2).T
            rows.append([str(v) for v in a.reshape(-1)])
    out[name] = rows
json.dump(out, sys.stdout)
`
	got := map[string][]any{}
	if err := json.Unmarshal(pyrun.Run(t, script, nil, []string{"pyarrow", "numpy"}, path), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string][]any{
		"bool":    {nil, []any{"False", "True", "False", "True"}, nil, []any{"True", "True", "True", "False"}},
		"bool_nn": {[]any{"True", "False", "False", "True"}, nil, []any{"False", "True", "False", "True"}, []any{"True", "True", "True", "False"}},
		"dec":     {[]any{"1.25", "3.00", "-2.50", "0.01"}, nil, []any{"4.00", "-6.25", "5.50", "7.75"}, []any{"8.00", "10.00", "9.00", "11.00"}},
		"fsb":     {[]any{"0809", "0c0d", "0a0b", "0e0f"}, nil, nil, []any{"1011", "1415", "1213", "1617"}},
		"var":     {nil, []any{[]any{1.0, 2.0}, []any{5.0, 6.0}}, []any{[]any{3.0, 2.0}, []any{7.0, 8.0, 9.0, 10.0, 11.0, 12.0}}, nil},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pyarrow read (-want +got):\n%s", diff)
	}
}
