package testvec

import (
	"encoding/binary"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// Reproducer is the path of the stream of a valid tensor column "x" and a
// string column "lbl" whose first offset is 4194304, one bit flipped in a
// stream the command wrote: arrow-go reads it, then its IPC file and
// Parquet writers panic on it.
var Reproducer = Path("invalid/panic_string_offsets.arrows")

// ReproducerScript is the path of the pyarrow script that writes a stream
// of the same columns with string offsets [0, 4194304, 3] over "abc" (its
// first argument is the output path).
var ReproducerScript = Path("invalid/make_bad_string_offsets.py")

// InvalidStrings returns the batch ReproducerScript writes, built in Go:
// "x", two valid float32 2x2 tensors, and "lbl", two strings over data
// whose offsets are offs. arrow-go builds it without complaint whenever
// the last offset is within data. Its buffers are Go memory, no allocator
// is involved; the caller releases it.
func InvalidStrings(offs [3]int32, data string) arrow.RecordBatch {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	x, err := fixedshape.FromSlice(typ, []float32{0, 1, 2, 3, 4, 5, 6, 7}, nil)
	if err != nil {
		panic(err)
	}
	defer x.Release()
	ob := make([]byte, 12)
	for i, o := range offs {
		binary.LittleEndian.PutUint32(ob[4*i:], uint32(o))
	}
	sd := array.NewData(arrow.BinaryTypes.String, 2, []*memory.Buffer{nil, memory.NewBufferBytes(ob), memory.NewBufferBytes([]byte(data))}, nil, 0, 0)
	defer sd.Release()
	lbl := array.MakeFromData(sd)
	defer lbl.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: typ, Nullable: true},
		{Name: "lbl", Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{x, lbl}, 2)
}

// InvalidTensors returns a batch of one tensor column "x" of two float32
// 2x2 tensors whose element array claims one null but has no validity
// bitmap: what a tensors-only writer (.npy) would copy without looking.
// The caller releases it.
func InvalidTensors() arrow.RecordBatch {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	vals := memory.NewBufferBytes(make([]byte, 8*4))
	child := array.NewData(arrow.PrimitiveTypes.Float32, 8, []*memory.Buffer{nil, vals}, nil, 1, 0)
	defer child.Release()
	d := array.NewData(typ, 2, []*memory.Buffer{nil}, []arrow.ArrayData{child}, 0, 0)
	defer d.Release()
	x := array.MakeFromData(d)
	defer x.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{x}, 2)
}
