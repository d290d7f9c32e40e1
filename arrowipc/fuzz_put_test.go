package arrowipc_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// framedRecord writes rec as an IPC stream with arrow-go's writer and
// splits it into its messages (schema, then the batch).
func framedRecord(t testing.TB, rec arrow.RecordBatch) []framed {
	t.Helper()
	return splitMessages(t, arrowGoIPC(t, false, []arrow.RecordBatch{rec}))
}

// FuzzIPCMessageReaderBodies feeds the Flight message reader (what
// DoPut reads an upload with) a valid schema and batch message whose
// body bytes the fuzzer rewrites: structurally valid messages whose
// offsets, lengths, bitmaps and UTF-8 may be anything. Every batch the
// reader hands out must pass full validation and write back through both
// IPC writers; everything else is an error wrapping arrow.ErrInvalid; no
// panic, no leak.
func FuzzIPCMessageReaderBodies(f *testing.F) {
	valid := testvec.InvalidStrings([3]int32{0, 1, 3}, "abc") // valid offsets
	msgs := framedRecord(f, valid)
	valid.Release()
	if len(msgs) != 2 {
		f.Fatalf("%d messages, want schema and batch", len(msgs))
	}
	body := msgs[1].body
	f.Add(uint16(0), []byte{})
	for at := range len(body) {
		if body[at] != 0 { // flip the high bit of every non-zero byte: offsets past data among them
			f.Add(uint16(at), []byte{0x40})
		}
	}
	f.Add(uint16(len(body)-3), []byte{0xff, 0xfe, 0xfd}) // invalid UTF-8 at the end of the strings
	f.Fuzz(func(t *testing.T, at uint16, xor []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		b := bytes.Clone(body)
		for i, x := range xor {
			if j := int(at) + i; j < len(b) {
				b[j] ^= x
			}
		}
		r, err := arrowipc.NewIPCMessageReader(nextOf([]framed{msgs[0], {meta: msgs[1].meta, body: b}}, nil),
			arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(1<<20))
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		defer r.Release()
		for r.Next() {
			rec := r.RecordBatch()
			if err := arrowconv.ValidateRecord(rec); err != nil {
				t.Fatalf("batch handed out fails validation: %v", err)
			}
			writeBack(t, rec)
		}
		if err := r.Err(); err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
		}
	})
}

// writeBack writes rec through arrowipc's file and stream writers.
func writeBack(t *testing.T, rec arrow.RecordBatch) {
	t.Helper()
	for _, mk := range []func(io.Writer, *arrow.Schema, ...arrowipc.Option) (*arrowipc.IPCWriter, error){
		arrowipc.NewIPCFileWriter, arrowipc.NewIPCStreamWriter,
	} {
		w, err := mk(io.Discard, rec.Schema())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatalf("write of a valid batch: %v", err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
