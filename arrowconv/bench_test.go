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

// bigRecord returns a record of one float32 tensor column of about
// 256 MiB: n tensors of shape 256x256.
func bigRecord(b *testing.B) (arrow.RecordBatch, *fixedshape.Array, string) {
	const size = 256 << 20
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{256, 256}, nil, nil))
	n := size / (256 * 256 * 4)
	arr := seqColumn(b, memory.NewGoAllocator(), typ, n, nil)
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ}}, nil), []arrow.Array{arr}, int64(n))
	arr.Release()
	return rec, rec.Column(0).(*fixedshape.Array), fmt.Sprintf("%dx256x256", n)
}

// benchCopy is the baseline of a copying operation: copy() of the
// column's bytes into a destination allocated and touched once, outside
// the loop, so that page faults are not measured.
func benchCopy(b *testing.B, src []byte) {
	dst := make([]byte, len(src))
	copy(dst, src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		copy(dst, src)
	}
}

// BenchmarkIO measures IPC write, read and memory-mapped read of a
// 256 MiB column, each beside a copy() of
// the same bytes (impl=copy).
func BenchmarkIO(b *testing.B) {
	rec, arr, shape := bigRecord(b)
	defer rec.Release()
	size := int64(len(arr.ValueBytes()))
	suffix := "/dtype=float32/shape=" + shape
	dir := b.TempDir()

	var buf bytes.Buffer
	buf.Grow(int(size) + 1<<20)
	writeIPC := func() {
		buf.Reset()
		w, err := arrowconv.NewIPCFileWriter(&buf, rec.Schema())
		if err != nil {
			b.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			b.Fatal(err)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("op=ipc_write/impl=copy"+suffix, func(b *testing.B) { benchCopy(b, arr.ValueBytes()) })
	b.Run("op=ipc_write/impl=arrowconv"+suffix, func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			writeIPC()
		}
	})
	writeIPC()
	path := filepath.Join(dir, "big.arrow")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, mapped := range []bool{false, true} {
		op, open := "op=ipc_read", arrowconv.OpenIPCFile
		if mapped {
			op, open = "op=ipc_read_mapped", arrowconv.OpenMappedIPCFile
		}
		b.Run(op+"/impl=copy"+suffix, func(b *testing.B) { benchCopy(b, arr.ValueBytes()) })
		b.Run(op+"/impl=arrowconv"+suffix, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				r, err := open(path)
				if err != nil {
					b.Fatal(err)
				}
				got, err := r.RecordBatch(0)
				if err != nil {
					b.Fatal(err)
				}
				if len(got.Column(0).(*fixedshape.Array).ValueBytes()) != int(size) {
					b.Fatal("short column")
				}
				got.Release()
				r.Close()
			}
		})
	}
}
