package flightserve_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/metadata"
)

// tensorColumn returns n float32 tensors of shape (and perm), every
// element its index, from mem; null rows listed in nulls.
func tensorColumn(t testing.TB, mem memory.Allocator, n int, shape, perm []int, nulls ...int) arrow.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew(shape, nil, perm))
	values := memory.NewResizableBuffer(mem)
	defer values.Release()
	values.Resize(n * typ.ListSize() * 4)
	for i, b := range values.Bytes() {
		values.Bytes()[i] = byte(i*7) ^ b
	}
	a, err := fixedshape.NewArrayFromBuffer(typ, n, values)
	if err != nil {
		t.Fatal(err)
	}
	if len(nulls) == 0 {
		return a
	}
	defer a.Release()
	valid := memory.NewResizableBuffer(mem)
	defer valid.Release()
	valid.Resize(int((n + 7) / 8))
	for i := range n {
		if !contains(nulls, i) {
			valid.Bytes()[i/8] |= 1 << (i % 8)
		}
	}
	d := a.Data()
	withNulls := array.NewData(d.DataType(), n, []*memory.Buffer{valid}, d.Children(), len(nulls), 0)
	defer withNulls.Release()
	return array.MakeFromData(withNulls)
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}

// int8Column returns n int8 values, every 3rd null.
func int8Column(mem memory.Allocator, n int) arrow.Array {
	b := array.NewInt8Builder(mem)
	defer b.Release()
	for i := range n {
		if i%3 == 0 {
			b.AppendNull()
		} else {
			b.Append(int8(i))
		}
	}
	return b.NewArray()
}

// stringColumn returns n strings of 40 bytes.
func stringColumn(mem memory.Allocator, n int) arrow.Array {
	b := array.NewStringBuilder(mem)
	defer b.Release()
	for i := range n {
		b.Append(fmt.Sprintf("%040d", i))
	}
	return b.NewArray()
}

// dictColumn returns n int32 indices into 5 strings.
func dictColumn(mem memory.Allocator, n int) arrow.Array {
	b := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String})
	defer b.Release()
	sb := b.(*array.BinaryDictionaryBuilder)
	for i := range n {
		sb.AppendString(fmt.Sprint(i % 5))
	}
	return b.NewArray()
}

// batchOf returns a batch of one column, sliced to [lo, hi) when hi > 0.
func batchOf(a arrow.Array, lo, hi int64) arrow.RecordBatch {
	defer a.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "c", Type: a.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
	if hi == 0 {
		return rec
	}
	defer rec.Release()
	return rec.NewSlice(lo, hi)
}

// TestCodecShares writes batches through DoGet's writer and checks that
// the codec that hands gRPC the batch's buffers marshals every message to
// the bytes of the one-copy codec, shares the large buffers (holding the
// batch after the caller released it) and releases everything once gRPC
// frees the buffers.
func TestCodecShares(t *testing.T) {
	for _, tc := range []struct {
		name   string
		batch  func(memory.Allocator) arrow.RecordBatch
		shared bool // a buffer of the batch goes uncopied
	}{
		{"tensor (64,64) x 16", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 16, []int{64, 64}, nil), 0, 0)
		}, true},
		{"tensor slice at row 3", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 16, []int{64, 64}, nil), 3, 13)
		}, true},
		{"null tensors, slice at row 5", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 16, []int{64, 64}, nil, 1, 6, 7), 5, 16)
		}, true},
		{"3-cycle permutation (8,16,32)", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 8, []int{8, 16, 32}, []int{1, 2, 0}), 0, 0)
		}, true},
		{"non-square (3,5)", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 7, []int{3, 5}, nil), 0, 0)
		}, false},
		{"0-D tensors", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 9, []int{}, nil), 0, 0)
		}, false},
		// No row for a size-0 dimension: fixedshape refuses its type (a
		// FixedSizeList of size 0).
		{"no rows", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(tensorColumn(t, m, 0, []int{64, 64}, nil), 0, 0)
		}, false},
		// The writer rewrites a bitmap sliced off a byte boundary: that
		// buffer is copied, the values shared.
		{"int8 with nulls, slice at row 3", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(int8Column(m, 300_000), 3, 299_000)
		}, true},
		// The writer rebases sliced offsets: copied; the bytes shared.
		{"strings, slice at row 11", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(stringColumn(m, 20_000), 11, 19_000)
		}, true},
		{"dictionary", func(m memory.Allocator) arrow.RecordBatch {
			return batchOf(dictColumn(m, 20_000), 0, 0)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rec := tc.batch(mem)
			frames, err := flightserve.WriteFrames(rec.Schema(), []arrow.RecordBatch{rec}, mem)
			rec.Release()
			if err != nil {
				frames.Free()
				t.Fatal(err)
			}
			if len(frames.Shared) != len(frames.Copied) {
				t.Fatalf("%d messages shared, %d copied", len(frames.Shared), len(frames.Copied))
			}
			shared := false
			for i, bs := range frames.Shared {
				if got := bs.Materialize(); !bytes.Equal(got, frames.Copied[i]) {
					t.Errorf("message %d: %d bytes differ from the %d of the one-copy codec", i, len(got), len(frames.Copied[i]))
				}
				shared = shared || len(bs) > 1
			}
			if shared != tc.shared {
				t.Errorf("shared a buffer: %v, want %v", shared, tc.shared)
			}
			if shared && (mem.CurrentAlloc() == 0 || frames.QueryRefs() == 0) {
				t.Errorf("the batch (%d bytes) or the query (%d references) released before gRPC freed its buffers", mem.CurrentAlloc(), frames.QueryRefs())
			}
			frames.Free()
			if n := frames.QueryRefs(); n != 0 {
				t.Errorf("%d references left on the query", n)
			}
		})
	}
}

// BenchmarkMarshalBatch marshals the DoGet message of a batch of 256
// float32 (64,64) tensors (4 MiB, DoGet's default batch) with the codec
// that shares the batch's buffers and with the one-copy codec, beside a
// copy() of the same bytes.
func BenchmarkMarshalBatch(b *testing.B) {
	const rows = 256
	rec := batchOf(tensorColumn(b, memory.NewGoAllocator(), rows, []int{64, 64}, nil), 0, 0)
	defer rec.Release()
	size := int64(rows * 64 * 64 * 4)
	for _, codec := range []string{"share", "copy"} {
		b.Run("codec="+codec+"/size=4MiB", func(b *testing.B) {
			m := flightserve.NewBatchMarshaller(rec.Schema(), codec == "share")
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if err := m.Marshal(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("codec=copy()/size=4MiB", func(b *testing.B) {
		src, dst := make([]byte, size), make([]byte, size)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			copy(dst, src)
		}
	})
}
