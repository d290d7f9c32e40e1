// Command gensamples writes the sample Arrow IPC files bundled in
// testdata/, which the fstensor command's usage, the README and docs/ use.
//
// The files:
//
//	images.arrow      8 RGB images, uint8 (32,32,3) named H,W,C, with labels
//	embeddings.arrow  16 float32 embeddings (64,) named dim, with ids
//	permuted.arrow    float64 tensors of logical shape (4,3,2) stored with
//	                  the 3-cycle permutation [2,0,1]
//	nulls.arrow       int16 (2,3) tensors, every third one null
//	pairs.arrow       8 pairs of float32 vectors (16,), q and d, with a
//	                  float32 weight w per row
//	proj.npy          a float32 (16,4) projection matrix
//
// Run it from the repository root: go run ./internal/testsupport/gensamples.
// The output is deterministic.
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func main() {
	dir := flag.String("dir", "testdata", "output directory")
	flag.Parse()
	mem := memory.NewGoAllocator()
	for name, build := range map[string]func(memory.Allocator) (arrow.RecordBatch, error){
		"images.arrow":     images,
		"embeddings.arrow": embeddings,
		"permuted.arrow":   permuted,
		"nulls.arrow":      nulls,
		"pairs.arrow":      pairs,
	} {
		rec, err := build(mem)
		if err == nil {
			err = write(filepath.Join(*dir, name), rec)
			rec.Release()
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "gensamples: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
	if err := projection(filepath.Join(*dir, "proj.npy")); err != nil {
		fmt.Fprintf(os.Stderr, "gensamples: proj.npy: %v\n", err)
		os.Exit(1)
	}
}

// pairs writes 8 rows of two float32 vectors of dimension 16 (a query q
// and a document d, with small integers and halves as elements, so that
// distances print the same on every platform) and a weight w.
func pairs(mem memory.Allocator) (arrow.RecordBatch, error) {
	const n, d = 8, 16
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{d}, []string{"dim"}, nil))
	if err != nil {
		return nil, err
	}
	qb, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		return nil, err
	}
	defer qb.Release()
	db, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		return nil, err
	}
	defer db.Release()
	wb := array.NewFloat32Builder(mem)
	defer wb.Release()
	q, v := make([]float32, d), make([]float32, d)
	for k := range n {
		for i := range q {
			q[i] = float32((k*7+i*3)%11) - 5
			v[i] = float32((k*5+i*2)%9)/2 - 2
		}
		if err := qb.Append(q); err != nil {
			return nil, err
		}
		if err := db.Append(v); err != nil {
			return nil, err
		}
		wb.Append(float32(k+1) / 4)
	}
	return record([]arrow.Field{
		{Name: "q", Type: typ, Nullable: true},
		{Name: "d", Type: typ, Nullable: true},
		{Name: "w", Type: arrow.PrimitiveTypes.Float32},
	}, []arrow.Array{qb.NewArray(), db.NewArray(), wb.NewArray()}), nil
}

// projection writes a (16,4) float32 matrix of small integers to path as
// .npy: column j sums the elements i with i%4 == j, minus those with
// i%4 == (j+1)%4.
func projection(path string) error {
	const d, k = 16, 4
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{d, k}, nil, nil))
	if err != nil {
		return err
	}
	w := make([]float32, d*k)
	for i := range d {
		w[i*k+i%k] = 1
		w[i*k+(i+k-1)%k] = -1
	}
	a, err := fixedshape.FromSlice(typ, w, nil)
	if err != nil {
		return err
	}
	defer a.Release()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := npy.WriteTensor(f, a, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func write(path string, rec arrow.RecordBatch) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w, err := ipc.NewFileWriter(f, ipc.WithSchema(rec.Schema()))
	if err != nil {
		f.Close()
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Close()
		f.Close()
		return err
	}
	if err := w.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func record(fields []arrow.Field, cols []arrow.Array) arrow.RecordBatch {
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
}

// images draws 8 small RGB pictures: a disc whose colour and position vary
// over a background gradient.
func images(mem memory.Allocator) (arrow.RecordBatch, error) {
	const n, h, w = 8, 32, 32
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{h, w, 3}, []string{"H", "W", "C"}, nil))
	if err != nil {
		return nil, err
	}
	b, err := fixedshape.NewBuilder[uint8](mem, typ)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	labels := array.NewInt64Builder(mem)
	defer labels.Release()
	px := make([]uint8, h*w*3)
	for k := range n {
		cx, cy := 8+2*float64(k), 16+6*math.Sin(float64(k))
		for y := range h {
			for x := range w {
				p := px[(y*w+x)*3:]
				p[0], p[1], p[2] = uint8(x*8), uint8(y*8), 64
				if math.Hypot(float64(x)-cx, float64(y)-cy) < 7 {
					p[0], p[1], p[2] = uint8(255-k*30), uint8(k*30), 255
				}
			}
		}
		if err := b.Append(px); err != nil {
			return nil, err
		}
		labels.Append(int64(k % 3))
	}
	return record([]arrow.Field{
		{Name: "image", Type: typ, Nullable: true},
		{Name: "label", Type: arrow.PrimitiveTypes.Int64},
	}, []arrow.Array{b.NewArray(), labels.NewArray()}), nil
}

// embeddings writes unit vectors of dimension 64.
func embeddings(mem memory.Allocator) (arrow.RecordBatch, error) {
	const n, d = 16, 64
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{d}, []string{"dim"}, nil))
	if err != nil {
		return nil, err
	}
	b, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	ids := array.NewInt32Builder(mem)
	defer ids.Release()
	v := make([]float32, d)
	for k := range n {
		var norm float64
		for i := range v {
			x := math.Cos(float64((k+1)*(i+1)) * 0.37)
			v[i] = float32(x)
			norm += x * x
		}
		for i := range v {
			v[i] /= float32(math.Sqrt(norm))
		}
		if err := b.Append(v); err != nil {
			return nil, err
		}
		ids.Append(int32(1000 + k))
	}
	return record([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int32},
		{Name: "embedding", Type: typ, Nullable: true},
	}, []arrow.Array{ids.NewArray(), b.NewArray()}), nil
}

// permuted stores 3 tensors of logical shape (4,3,2) whose element at
// logical index (i,j,k) is 100*i + 10*j + k, with permutation [2,0,1].
func permuted(mem memory.Allocator) (arrow.RecordBatch, error) {
	m := metadata.MustNew([]int{4, 3, 2}, []string{"x", "y", "z"}, []int{2, 0, 1})
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Float64, m)
	if err != nil {
		return nil, err
	}
	b, err := fixedshape.NewBuilder[float64](mem, typ)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	logical := metadata.MustNew([]int{4, 3, 2}, nil, nil)
	vals := make([]float64, 24)
	for t := range 3 {
		for i := range 4 {
			for j := range 3 {
				for k := range 2 {
					vals[i*6+j*2+k] = float64(1000*t + 100*i + 10*j + k)
				}
			}
		}
		view, err := fixedshape.NewTensor(vals, logical)
		if err != nil {
			return nil, err
		}
		if err := b.AppendTensor(view); err != nil {
			return nil, err
		}
	}
	return record([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, []arrow.Array{b.NewArray()}), nil
}

// nulls writes 9 int16 (2,3) tensors, every third one null.
func nulls(mem memory.Allocator) (arrow.RecordBatch, error) {
	typ, err := fixedshape.NewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, nil))
	if err != nil {
		return nil, err
	}
	b, err := fixedshape.NewBuilder[int16](mem, typ)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	for k := range 9 {
		if k%3 == 2 {
			b.AppendNull()
			continue
		}
		v := []int16{int16(k), -1, 2, 3, int16(-k), 5}
		if err := b.Append(v); err != nil {
			return nil, err
		}
	}
	return record([]arrow.Field{{Name: "m", Type: typ, Nullable: true}}, []arrow.Array{b.NewArray()}), nil
}
