package parquetconv_test

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// claimingFile writes the list column vals (nil for a null list, nil
// entries for null elements) with pqarrow, with a stored Arrow schema
// that claims a tensor column t of elem and shape instead: what the
// Parquet data must then hold is checked by the reader.
func claimingFile(t *testing.T, listElem, elem arrow.DataType, shape []int, vals [][]any) []byte {
	t.Helper()
	mem := memory.NewGoAllocator()
	typ := fixedshape.MustNewType(elem, metadata.MustNew(shape, nil, nil))
	claimed := flight.SerializeSchema(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), mem)
	md := arrow.NewMetadata([]string{"ARROW:schema"}, []string{base64.StdEncoding.EncodeToString(claimed)})
	sc := arrow.NewSchema([]arrow.Field{{Name: "t", Type: arrow.ListOf(listElem), Nullable: true}}, &md)
	b := array.NewListBuilder(mem, listElem)
	defer b.Release()
	for _, row := range vals {
		if row == nil {
			b.AppendNull()
			continue
		}
		b.Append(true)
		for _, v := range row {
			switch vb := b.ValueBuilder().(type) {
			case *array.Int32Builder:
				if v == nil {
					vb.AppendNull()
				} else {
					vb.Append(int32(v.(int)))
				}
			case *array.Float32Builder:
				if v == nil {
					vb.AppendNull()
				} else {
					vb.Append(float32(v.(int)))
				}
			}
		}
	}
	arr := b.NewArray()
	defer arr.Release()
	rec := array.NewRecordBatch(sc, []arrow.Array{arr}, int64(arr.Len()))
	defer rec.Release()
	var buf bytes.Buffer
	w, err := pqarrow.NewFileWriter(sc, &buf, parquet.NewWriterProperties(parquet.WithDictionaryDefault(false)), pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	return buf.Bytes()
}

// TestReadCrafted reads Parquet list columns whose stored Arrow schema
// claims a tensor column they do not hold.
func TestReadCrafted(t *testing.T) {
	i32, f32 := arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Float32
	tests := []struct {
		name     string
		listElem arrow.DataType
		elem     arrow.DataType
		vals     [][]any
		ok       bool
	}{
		{"valid float32", f32, f32, [][]any{{1, 2}, {3, 4}, nil}, true},
		{"int32 data for uint8", i32, arrow.PrimitiveTypes.Uint8, [][]any{{1, 2}}, false}, // pqarrow refuses the schema
		{"null element", f32, f32, [][]any{{1, 2}, {nil, 4}}, false},
		{"short list", f32, f32, [][]any{{1, 2}, {3}}, false},
		{"long list", f32, f32, [][]any{{1, 2, 5}, {3, 4}}, false},
		{"empty list", f32, f32, [][]any{{1, 2}, {}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := claimingFile(t, tt.listElem, tt.elem, []int{2}, tt.vals)
			mem := checkedMem(t)
			err := readAll(mem, data)
			if tt.ok {
				if err != nil {
					t.Fatal(err)
				}
				r, err := parquetconv.NewReader(bytes.NewReader(data), parquetconv.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				if _, ok := r.Schema().Field(0).Type.(*fixedshape.Type); !ok {
					t.Fatalf("column type %v, not a tensor", r.Schema().Field(0).Type)
				}
				return
			}
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("read = %v, want an error wrapping arrow.ErrInvalid", err)
			}
		})
	}
}

// TestReadOutOfRange patches INT32 values of a narrow element type in
// the pages of a valid file to values outside the type's range: the
// reader must refuse them, not wrap them.
func TestReadOutOfRange(t *testing.T) {
	tests := []struct {
		name string
		elem arrow.DataType
		fill byte  // every element's byte, found in the file as fill, 0, 0, 0
		bad  int32 // what one element becomes
	}{
		{"uint8", arrow.PrimitiveTypes.Uint8, 0xab, 300},
		{"uint8 negative", arrow.PrimitiveTypes.Uint8, 0xab, -1},
		{"int8", arrow.PrimitiveTypes.Int8, 0x5b, 128},
		{"int16", arrow.PrimitiveTypes.Int16, 0x5b, 40000},
		{"uint16", arrow.PrimitiveTypes.Uint16, 0x5b, 70000},
	}
	for _, tt := range tests {
		for _, v := range []struct {
			name string
			opts []parquetconv.Option
		}{{"v1", nil}, {"v2", []parquetconv.Option{parquetconv.WithDataPageV2()}}} {
			opts := v.opts
			t.Run(tt.name+"/"+v.name, func(t *testing.T) {
				typ := fixedshape.MustNewType(tt.elem, metadata.MustNew([]int{7, 9}, nil, nil))
				w := typ.ElemWidth()
				raw := bytes.Repeat([]byte{tt.fill}, 5*63*w)
				arr := bytesColumn(t, memory.NewGoAllocator(), typ, raw)
				defer arr.Release()
				rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, 5)
				defer rec.Release()
				data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, append(opts, parquetconv.WithoutIdentityDictionary())...)
				mem := checkedMem(t)
				if err := readAll(mem, data); err != nil {
					t.Fatalf("unpatched: %v", err)
				}
				var want []byte
				if w == 1 {
					want = []byte{tt.fill, 0, 0, 0}
				} else {
					want = []byte{tt.fill, tt.fill, 0, 0}
				}
				i := bytes.LastIndex(data, append(append([]byte(nil), want...), want...))
				if i < 0 {
					t.Fatal("values not stored as plain INT32 bytes")
				}
				binary.LittleEndian.PutUint32(data[i:], uint32(tt.bad))
				if err := readAll(mem, data); !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("read = %v, want an error wrapping arrow.ErrInvalid", err)
				}
			})
		}
	}
}

// TestReadDictionaryOutOfRange patches one entry of the identity
// dictionary of a 1-byte integer column to a value outside the type's
// range: the reader must refuse it, not wrap it, whether or not the
// data pages use that entry.
func TestReadDictionaryOutOfRange(t *testing.T) {
	for _, tc := range []struct {
		name  string
		elem  arrow.DataType
		entry int   // the dictionary entry patched
		bad   int32 // its new value
	}{
		{"uint8 used", arrow.PrimitiveTypes.Uint8, 0xab, 300},
		{"uint8 unused", arrow.PrimitiveTypes.Uint8, 3, -1},
		{"int8 used", arrow.PrimitiveTypes.Int8, 0x5b, 128},
		{"int8 unused", arrow.PrimitiveTypes.Int8, 0xf0, -129},
	} {
		t.Run(tc.name, func(t *testing.T) {
			typ := fixedshape.MustNewType(tc.elem, metadata.MustNew([]int{7, 9}, nil, nil))
			raw := bytes.Repeat([]byte{0xab, 0x5b}, 5*63/2+1)[:5*63]
			arr := bytesColumn(t, memory.NewGoAllocator(), typ, raw)
			defer arr.Release()
			rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, 5)
			defer rec.Release()
			data := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec})
			mem := checkedMem(t)
			if err := readAll(mem, data); err != nil {
				t.Fatalf("unpatched: %v", err)
			}
			// The dictionary: INT32 entries whose bits are 0, 1, ... 255
			// (int8: entry i is int8(i), sign-extended).
			dict := make([]byte, 4*256)
			for i := range 256 {
				v := int32(i)
				if tc.elem.ID() == arrow.INT8 {
					v = int32(int8(i))
				}
				binary.LittleEndian.PutUint32(dict[4*i:], uint32(v))
			}
			at := bytes.Index(data, dict)
			if at < 0 {
				t.Fatal("no identity dictionary in the file")
			}
			binary.LittleEndian.PutUint32(data[at+4*tc.entry:], uint32(tc.bad))
			if err := readAll(mem, data); !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("read = %v, want an error wrapping arrow.ErrInvalid", err)
			}
		})
	}
}
