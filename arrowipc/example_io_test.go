package arrowipc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// writeExampleIPCFile writes rec to a new IPC file in dir as two record
// batches, rows [0,1) and [1,n), and returns its path.
func writeExampleIPCFile(dir string, rec arrow.RecordBatch) string {
	path := filepath.Join(dir, "tensors.arrow")
	f, err := os.Create(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	w, err := arrowipc.NewIPCFileWriter(f, rec.Schema(), arrowipc.WithCompression(arrowipc.LZ4))
	if err != nil {
		panic(err)
	}
	for _, rows := range [][2]int64{{0, 1}, {1, rec.NumRows()}} {
		s := rec.NewSlice(rows[0], rows[1]) // written with only its own rows
		if err := w.Write(s); err != nil {
			panic(err)
		}
		s.Release()
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return path
}

func ExampleOpenIPCFile() {
	dir, _ := os.MkdirTemp("", "arrowipc")
	defer os.RemoveAll(dir)
	rec := exampleRecord(3)
	defer rec.Release()
	path := writeExampleIPCFile(dir, rec)

	r, err := arrowipc.OpenIPCFile(path)
	if err != nil {
		panic(err)
	}
	defer r.Close()
	fmt.Println(r.NumRecords(), r.Schema().Field(0).Type)
	for i := range r.NumRecords() {
		b, err := r.RecordBatch(i)
		if err != nil {
			panic(err)
		}
		fmt.Println(b.Column(0))
		b.Release()
	}
	// Output:
	// 2 extension<arrow.fixed_shape_tensor[value_type=int32, shape=[2,2], permutation=[1,0]]>
	// [[[0,2],[1,3]]]
	// [[[4,6],[5,7]] [[8,10],[9,11]]]
}

func ExampleOpenMappedIPCFile() {
	dir, _ := os.MkdirTemp("", "arrowipc")
	defer os.RemoveAll(dir)
	rec := exampleRecord(3)
	defer rec.Release()
	path := filepath.Join(dir, "tensors.arrow")
	f, _ := os.Create(path)
	w, _ := arrowipc.NewIPCFileWriter(f, rec.Schema()) // uncompressed: mapped zero-copy
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	w.Close()
	f.Close()

	r, err := arrowipc.OpenMappedIPCFile(path)
	if err != nil {
		panic(err)
	}
	defer r.Close() // unmaps: b and t must not be used after it
	b, err := r.RecordBatch(0)
	if err != nil {
		panic(err)
	}
	defer b.Release()
	// A tensor view of the column points into the mapping too.
	t, err := arrowconv.ToTensor(b.Column(0).(*fixedshape.Array))
	if err != nil {
		panic(err)
	}
	defer t.Release()
	fmt.Println(r.Mapped(), b.Column(0))
	fmt.Println(t.Shape(), t.Strides())
	// Output:
	// true [[[0,2],[1,3]] [[4,6],[5,7]] [[8,10],[9,11]]]
	// [3 2 2] [16 4 8]
}

func ExampleNewIPCStreamReader() {
	rec := exampleRecord(3)
	defer rec.Release()
	pr, pw, _ := os.Pipe()
	go func() { // a producer writing a stream of two batches
		w, _ := arrowipc.NewIPCStreamWriter(pw, rec.Schema(), arrowipc.WithCompression(arrowipc.LZ4))
		for _, rows := range [][2]int64{{0, 2}, {2, 3}} {
			s := rec.NewSlice(rows[0], rows[1])
			w.Write(s)
			s.Release()
		}
		w.Close()
		pw.Close()
	}()

	r, err := arrowipc.NewIPCStreamReader(pr, arrowipc.WithBodySizeLimit(1<<20))
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		fmt.Println(r.RecordBatch().NumRows(), r.RecordBatch().Column(0))
	}
	if err := r.Err(); err != nil {
		panic(err)
	}
	// Output:
	// 2 [[[0,2],[1,3]] [[4,6],[5,7]]]
	// 1 [[[8,10],[9,11]]]
}

func ExampleNewIPCStreamWriter() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int8, metadata.MustNew([]int{3}, nil, nil))
	arr, _ := fixedshape.FromSlice(typ, []int8{1, 2, 3, 4, 5, 6}, nil)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "v", Type: typ}}, nil), []arrow.Array{arr}, 2)
	defer rec.Release()

	var buf bytes.Buffer
	w, _ := arrowipc.NewIPCStreamWriter(&buf, rec.Schema(), arrowipc.WithCompression(arrowipc.ZSTD))
	if err := w.Write(rec); err != nil {
		panic(err)
	}
	w.Close()

	r, err := arrowipc.NewIPCStreamReader(&buf)
	if err != nil {
		panic(err)
	}
	defer r.Release()
	for r.Next() {
		fmt.Println(r.RecordBatch().Column(0))
	}
	// Output: [[1,2,3] [4,5,6]]
}
