package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
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

// bombValues is the uncompressed size, in bytes, of the values buffer of
// bombRecord: 3 tensors of 5x7 int32, a number unlikely to occur
// elsewhere in the IPC metadata.
const bombValues = 3 * 5 * 7 * 4

// bombRecord returns a record of one int32 tensor column of 3 tensors of
// shape (5,7).
func bombRecord(t testing.TB, mem memory.Allocator) arrow.RecordBatch {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew([]int{5, 7}, nil, nil))
	arr := seqColumn(t, mem, typ, 3, nil)
	defer arr.Release()
	return array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ}}, nil), []arrow.Array{arr}, 3)
}

// withClaimedSize returns IPC bytes written by write (ZSTD bodies) in
// which the 8-byte uncompressed-length prefix of the compressed values
// buffer is replaced by claim: a few hundred bytes on disk that ask the
// decoder for claim bytes.
func withClaimedSize(t testing.TB, claim int64, write func(*bytes.Buffer, arrow.RecordBatch)) []byte {
	t.Helper()
	rec := bombRecord(t, memory.NewGoAllocator())
	defer rec.Release()
	var buf bytes.Buffer
	write(&buf, rec)
	b := buf.Bytes()
	var want, repl [8]byte
	binary.LittleEndian.PutUint64(want[:], bombValues)
	binary.LittleEndian.PutUint64(repl[:], uint64(claim))
	if n := bytes.Count(b, want[:]); n != 1 {
		t.Fatalf("uncompressed-length prefix found %d times, want once", n)
	}
	return bytes.Replace(b, want[:], repl[:], 1)
}

func writeStream(t testing.TB) func(*bytes.Buffer, arrow.RecordBatch) {
	return func(buf *bytes.Buffer, rec arrow.RecordBatch) {
		w, err := arrowipc.NewIPCStreamWriter(buf, rec.Schema(), arrowipc.WithCompression(arrowipc.ZSTD))
		if err != nil {
			t.Fatal(err)
		}
		testvec.WriteAll(t, w, rec)
	}
}

func writeFile(t testing.TB) func(*bytes.Buffer, arrow.RecordBatch) {
	return func(buf *bytes.Buffer, rec arrow.RecordBatch) {
		w, err := arrowipc.NewIPCFileWriter(buf, rec.Schema(), arrowipc.WithCompression(arrowipc.ZSTD))
		if err != nil {
			t.Fatal(err)
		}
		testvec.WriteAll(t, w, rec)
	}
}

// TestDecompressionLimit checks that a compressed buffer whose
// uncompressed-length prefix claims more than the body size limit is
// refused before arrow-go allocates it (arrow-go trusts the prefix), by
// every IPC reader, and that the checked allocator ends empty. A claim
// within the budget whose data is short makes arrow-go fail too, but it
// leaks the buffer it allocated (collected by the GC with the Go
// allocator), so that row uses a plain allocator.
func TestDecompressionLimit(t *testing.T) {
	const limit = 1 << 20
	tests := []struct {
		name    string
		claim   int64
		wantErr bool
		leaks   bool // arrow-go leaks the buffer it failed to fill
	}{
		{name: "honest", claim: bombValues},
		{name: "within_budget_short_data", claim: limit, wantErr: true, leaks: true},
		{name: "over_budget", claim: 2*limit + 1, wantErr: true},
		{name: "1TiB", claim: 1 << 40, wantErr: true},
		{name: "max_int64", claim: 1<<63 - 1, wantErr: true},
		{name: "negative", claim: -2, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			alloc := func(t *testing.T) memory.Allocator {
				if tc.leaks {
					return memory.NewGoAllocator()
				}
				return checkedMem(t)
			}
			t.Run("stream", func(t *testing.T) {
				mem := alloc(t)
				data := withClaimedSize(t, tc.claim, writeStream(t))
				r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(limit))
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				n := 0
				for r.Next() {
					n++
				}
				checkLimitErr(t, r.Err(), n, tc.wantErr)
			})
			data := withClaimedSize(t, tc.claim, writeFile(t))
			path := filepath.Join(t.TempDir(), "bomb.arrow")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, mapped := range []bool{false, true} {
				name := "file"
				open := arrowipc.OpenIPCFile
				if mapped {
					name, open = "mapped", arrowipc.OpenMappedIPCFile
				}
				t.Run(name, func(t *testing.T) {
					mem := alloc(t)
					r, err := open(path, arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(limit))
					if err != nil {
						t.Fatal(err)
					}
					defer r.Close()
					rec, err := r.RecordBatch(0)
					n := 0
					if err == nil {
						n = 1
						rec.Release()
					}
					checkLimitErr(t, err, n, tc.wantErr)
				})
			}
		})
	}
}

func checkLimitErr(t *testing.T, err error, n int, wantErr bool) {
	t.Helper()
	if !wantErr {
		if err != nil || n != 1 {
			t.Fatalf("read %d batches, error %v; want 1 batch", n, err)
		}
		return
	}
	if n != 0 || !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("read %d batches, error %v; want an error wrapping arrow.ErrInvalid", n, err)
	}
}
