package tensorio_test

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// sample returns a batch of three 2x2 tensors.
func sample() arrow.RecordBatch {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, []string{"h", "w"}, nil))
	col, _ := fixedshape.FromSlice(typ, []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, nil)
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, 3)
}

// Write a Parquet file, then read it back: the same loop reads every
// format.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.parquet")
	rec := sample()
	defer rec.Release()
	w, _ := tensorio.Create(path, rec.Schema())
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}

	r, err := tensorio.Open(path)
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		col := r.RecordBatch().Column(0).(*fixedshape.Array)
		fmt.Println(r.Format(), col)
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// parquet [[[1,2],[3,4]] [[5,6],[7,8]] [[9,10],[11,12]]]
}

// Columns, rows and batch size chosen when opening.
func ExampleOpen_options() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.arrow")
	rec := sample()
	defer rec.Release()
	w, _ := tensorio.Create(path, rec.Schema())
	_ = w.Write(rec)
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}

	r, err := tensorio.Open(path, tensorio.WithColumns("t"), tensorio.WithOffset(2), tensorio.WithLimit(3), tensorio.WithBatchRows(2))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		fmt.Println(r.RecordBatch().Column(0))
	}
	// Output:
	// [[[9,10],[11,12]]]
	// [[[1,2],[3,4]] [[5,6],[7,8]]]
}

// A file appears at its path only when Close succeeds; Abort leaves the
// path as it was.
func ExampleCreate() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.npy")
	rec := sample()
	defer rec.Release()

	w, err := tensorio.Create(path, rec.Schema())
	if err != nil {
		panic(err)
	}
	_ = w.Write(rec)
	w.Abort()
	_, err = os.Stat(path)
	fmt.Println("after Abort:", os.IsNotExist(err))

	w, _ = tensorio.Create(path, rec.Schema())
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}
	fi, _ := os.Stat(path)
	fmt.Println("after Close:", fi.Size(), "bytes")
	// Output:
	// after Abort: true
	// after Close: 176 bytes
}

// Any io.Writer, such as standard output, with the format named.
func ExampleNewWriter() {
	rec := sample()
	defer rec.Release()
	var buf bytes.Buffer
	w, err := tensorio.NewWriter(&buf, rec.Schema(), tensorio.WithFormat(tensorio.IPCStream))
	if err != nil {
		panic(err)
	}
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}
	fmt.Println(buf.Len() > 0)
	// Output:
	// true
}

func ExampleFormatOf() {
	for _, p := range []string{"a.arrow", "b.PARQUET", "c.pb", "d.csv"} {
		f, err := tensorio.FormatOf(p)
		fmt.Println(f, f.TensorsOnly(), err)
	}
	// Output:
	// arrow false <nil>
	// parquet false <nil>
	// tfproto true <nil>
	//  false tensorio: cannot tell the format of d.csv from its extension (use .arrow, .arrows, .parquet, .npy, .npz, .pb, .zio or .dt, or name the format)
}

func ExampleParseFormat() {
	f, _ := tensorio.ParseFormat("feather")
	fmt.Println(f, f.Streams())
	// Output:
	// arrow false
}

// A program that writes files removes its temporary files on Ctrl-C.
func ExampleHandleSignals() {
	stop := tensorio.HandleSignals()
	defer stop()
	fmt.Println("handling SIGINT and SIGTERM")
	// Output:
	// handling SIGINT and SIGTERM
}

// Embeddings stored as plain FixedSizeList columns (as tools without a
// tensor type write them) read as tensors of a given shape.
func ExampleWithShape() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "plain.arrow")
	b := array.NewFixedSizeListBuilder(memory.DefaultAllocator, 6, arrow.PrimitiveTypes.Float32)
	defer b.Release()
	for i := range 2 {
		b.Append(true)
		for k := range 6 {
			b.ValueBuilder().(*array.Float32Builder).Append(float32(6*i + k))
		}
	}
	fsl := b.NewArray()
	defer fsl.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: fsl.DataType()}}, nil), []arrow.Array{fsl}, 2)
	defer rec.Release()
	w, _ := tensorio.Create(path, rec.Schema())
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}

	r, err := tensorio.Open(path, tensorio.WithShape(metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil)))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		fmt.Println(r.RecordBatch().Column(0))
	}
	// Output:
	// [[[0,1,2],[3,4,5]] [[6,7,8],[9,10,11]]]
}

// Null tensors written to .npz, which has none, and deflated members.
func ExampleWithFillNulls() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.npz")
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{2}, nil, nil))
	col, _ := fixedshape.FromSlice(typ, []float64{1, 2, 0, 0}, []bool{true, false})
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{col}, 2)
	defer rec.Release()

	w, _ := tensorio.Create(path, rec.Schema(), tensorio.WithFillNulls(math.NaN()), tensorio.WithCompression(tensorio.Deflate))
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}
	r, err := tensorio.Open(path)
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		fmt.Println(r.Schema().Field(0).Name, r.RecordBatch().Column(0))
	}
	// Output:
	// t [[1,2] [NaN,NaN]]
}
