package arrowconv_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// BenchmarkConvert shows that the tensor and FixedSizeList conversions
// are O(1) in the column size: two sizes 100x apart.
func BenchmarkConvert(b *testing.B) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{16, 16}, nil, []int{1, 0}))
	for _, n := range []int{100, 10000} {
		mem := memory.NewGoAllocator()
		arr := seqColumn(b, mem, typ, n, nil)
		shape := fmt.Sprintf("%dx16x16", n)
		b.Run("op=to_tensor/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				t, _ := arrowconv.ToTensor(arr)
				t.Release()
			}
		})
		tt, _ := arrowconv.ToTensor(arr)
		b.Run("op=from_tensor/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a, _ := arrowconv.FromTensor(tt)
				a.Release()
			}
		})
		b.Run("op=wrap/dtype=float32/shape="+shape, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st, m := arrowconv.Unwrap(arr)
				a, _ := arrowconv.Wrap(st, m)
				a.Release()
				st.Release()
			}
		})
		tt.Release()
		arr.Release()
	}
}

// BenchmarkIO measures IPC write and read throughput of a 256 MiB column
// beside a copy() of the same bytes.
func BenchmarkIO(b *testing.B) {
	const size = 256 << 20
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{256, 256}, nil, nil))
	n := size / (256 * 256 * 4)
	mem := memory.NewGoAllocator()
	arr := seqColumn(b, mem, typ, n, nil)
	defer arr.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ}}, nil), []arrow.Array{arr}, int64(n))
	defer rec.Release()
	shape := fmt.Sprintf("%dx256x256", n)
	b.Run("op=copy/impl=copy/dtype=float32/shape="+shape, func(b *testing.B) {
		dst := make([]byte, size)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, arr.ValueBytes())
		}
	})
	var buf bytes.Buffer
	buf.Grow(size + 1<<20)
	b.Run("op=ipc_write/impl=arrowconv/dtype=float32/shape="+shape, func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			w, _ := arrowconv.NewIPCFileWriter(&buf, rec.Schema())
			if err := w.Write(rec); err != nil {
				b.Fatal(err)
			}
			w.Close()
		}
	})
	path := filepath.Join(b.TempDir(), "big.arrow")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		name := "op=ipc_read/impl=arrowconv"
		open := arrowconv.OpenIPCFile
		if mapped {
			name = "op=ipc_read_mapped/impl=arrowconv"
			open = arrowconv.OpenMappedIPCFile
		}
		b.Run(name+"/dtype=float32/shape="+shape, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				r, err := open(path)
				if err != nil {
					b.Fatal(err)
				}
				rec, err := r.RecordBatch(0)
				if err != nil {
					b.Fatal(err)
				}
				rec.Release()
				r.Close()
			}
		})
	}
}
