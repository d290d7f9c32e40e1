package npy_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func ExampleWriteNPZ() {
	images := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2}, nil, nil))
	img, _ := fixedshape.FromSlice(images, []uint8{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	defer img.Release()
	labels := fixedshape.MustNewType(arrow.PrimitiveTypes.Int64, metadata.MustNew(nil, nil, nil))
	lab, _ := fixedshape.FromSlice(labels, []int64{7, 9}, nil)
	defer lab.Release()

	// numpy.load(f) gives {"images": (2, 2, 2) uint8, "labels": (2,) int64}.
	var b bytes.Buffer
	err := npy.WriteNPZ(&b, []string{"images", "labels"}, []*fixedshape.Array{img, lab}, npy.WithCompression(fstensor.Deflate))
	if err != nil {
		fmt.Println(err)
		return
	}
	names, cols, err := npy.ReadNPZ(bytes.NewReader(b.Bytes()), int64(b.Len()))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, c := range cols {
		fmt.Println(names[i], c.Len(), c.TensorType().Shape())
		c.Release()
	}
	// Output:
	// images 2 [2 2]
	// labels 2 []
}

func ExampleReadNPZ() {
	// An archive as numpy.savez("f.npz", x=np.arange(6, dtype=np.uint8).reshape(2, 3))
	// writes it, plus a member that is not an array, which ReadNPZ skips.
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{3}, nil, nil))
	x, _ := fixedshape.FromSlice(typ, []uint8{0, 1, 2, 3, 4, 5}, nil)
	defer x.Release()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	w, _ := zw.Create("x.npy")
	_ = npy.WriteColumn(w, x)
	w, _ = zw.Create("notes.txt")
	w.Write([]byte("hi"))
	zw.Close()
	archive := b.Bytes()

	names, cols, err := npy.ReadNPZ(bytes.NewReader(archive), int64(len(archive)), npy.WithMaxTotalSize(1<<20))
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := fixedshape.ColumnOf[uint8](cols[0])
	fmt.Println(names, c.Tensor(1).AppendLogical(nil))
	cols[0].Release()
	// Output: [x] [3 4 5]
}

func ExampleMapColumn() {
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "col.npy")
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float64, metadata.MustNew([]int{3}, nil, nil))
	col, _ := fixedshape.FromSlice(typ, []float64{1, 2, 3, 4, 5, 6}, nil)
	f, _ := os.Create(path)
	_ = npy.WriteColumn(f, col)
	f.Close()
	col.Release()

	mapped, closer, err := npy.MapColumn(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The column's values are the file's pages: release it, then unmap.
	defer closer.Close()
	defer mapped.Release()
	c, _ := fixedshape.ColumnOf[float64](mapped)
	fmt.Println(mapped.Len(), c.Tensor(1).AppendLogical(nil))
	// Output: 2 [4 5 6]
}

func ExampleMapTensor() {
	dir, _ := os.MkdirTemp("", "npy")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.npy")
	// A transposed 2x3 tensor is written in Fortran order and maps back,
	// permutation included, without copying.
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	col, _ := fixedshape.FromSlice(typ, []int32{0, 3, 1, 4, 2, 5}, nil)
	f, _ := os.Create(path)
	_ = npy.WriteTensor(f, col, 0)
	f.Close()
	col.Release()

	t, closer, err := npy.MapTensor(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer closer.Close()
	defer t.Release()
	c, _ := fixedshape.ColumnOf[int32](t)
	fmt.Println(t.TensorType().Metadata(), c.Tensor(0).AppendLogical(nil))
	// Output: (2,3) permutation=[1 0] [0 1 2 3 4 5]
}
