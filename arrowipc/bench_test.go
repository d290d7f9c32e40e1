package arrowipc_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

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
		w, err := arrowipc.NewIPCFileWriter(&buf, rec.Schema())
		if err != nil {
			b.Fatal(err)
		}
		testvec.WriteAll(b, w, rec)
	}
	b.Run("op=ipc_write/impl=copy"+suffix, func(b *testing.B) { benchCopy(b, arr.ValueBytes()) })
	b.Run("op=ipc_write/impl=arrowipc"+suffix, func(b *testing.B) {
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
		op, open := "op=ipc_read", arrowipc.OpenIPCFile
		if mapped {
			op, open = "op=ipc_read_mapped", arrowipc.OpenMappedIPCFile
		}
		b.Run(op+"/impl=copy"+suffix, func(b *testing.B) { benchCopy(b, arr.ValueBytes()) })
		b.Run(op+"/impl=arrowipc"+suffix, func(b *testing.B) {
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
