package flightserve

import (
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"google.golang.org/grpc/mem"

	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// batchRefs keeps one batch of DoGet and its query alive while gRPC holds
// buffers of the batch's memory: gRPC writes a message after SendMsg
// returns, possibly after the handler returned, and the buffers of a
// mapped IPC file live only as long as the query's reader (the mapping).
// It is the mem.BufferPool of those buffers, whose Put (gRPC freeing one)
// drops a reference; the last one releases the batch and the query.
//
// gRPC frees every buffer it wrote and those it discards when a client
// cancels, but drops without freeing the buffers queued on a connection
// that closes (a client gone, a server stopped) and those it is handed
// for a stream it cleaned up already (grpc-go v1.83's
// loopyWriter.preprocessData): the garbage collector then finds the
// batchRefs unreachable, and a cleanup releases the batch and the query.
type batchRefs struct {
	n     atomic.Int64
	held  *batchHeld
	spans [][]byte // the buffers of the batch; read by holds while marshalling only
}

// batchHeld is what a batchRefs holds, released once.
type batchHeld struct {
	done atomic.Bool
	rec  arrow.RecordBatch
	q    *query
}

func (h *batchHeld) release() {
	if h.done.CompareAndSwap(false, true) {
		h.rec.Release()
		h.q.close()
	}
}

// newBatchRefs retains rec and q, and returns their holder with one
// reference, the caller's.
func newBatchRefs(rec arrow.RecordBatch, spans [][]byte, q *query) *batchRefs {
	rec.Retain()
	q.retain()
	r := &batchRefs{held: &batchHeld{rec: rec, q: q}, spans: spans}
	r.n.Store(1)
	runtime.AddCleanup(r, (*batchHeld).release, r.held)
	return r
}

// holds reports whether p lies in one of the batch's buffers.
func (r *batchRefs) holds(p []byte) bool {
	for _, s := range r.spans {
		if unsafeslice.Within(p, s) {
			return true
		}
	}
	return false
}

// buffer returns p, which the batch holds and which is at least gRPC's
// pooling threshold long, as a gRPC buffer holding a reference on r.
func (r *batchRefs) buffer(p []byte) mem.Buffer {
	r.n.Add(1)
	p = p[:len(p):len(p)]
	return mem.NewBuffer(&p, r)
}

// Get is mem.BufferPool's; gRPC does not ask the pool of a buffer made
// by mem.NewBuffer for memory, and r has none to give but new slices.
func (r *batchRefs) Get(n int) *[]byte {
	b := make([]byte, n)
	return &b
}

// Put drops the reference of a buffer gRPC freed.
func (r *batchRefs) Put(*[]byte) { r.release() }

// release drops a reference; the last releases the batch and the query.
func (r *batchRefs) release() {
	if r.n.Add(-1) == 0 {
		r.held.release()
	}
}

// appendBatchBuffers appends the bytes of every non-empty buffer of rec
// (its columns, their children and dictionaries) to dst.
func appendBatchBuffers(dst [][]byte, rec arrow.RecordBatch) [][]byte {
	for _, c := range rec.Columns() {
		dst = appendDataBuffers(dst, c.Data())
	}
	return dst
}

func appendDataBuffers(dst [][]byte, d arrow.ArrayData) [][]byte {
	for _, b := range d.Buffers() {
		if b != nil && b.Len() > 0 {
			dst = append(dst, b.Bytes())
		}
	}
	for _, c := range d.Children() {
		dst = appendDataBuffers(dst, c)
	}
	// Dictionary returns a typed nil *array.Data for arrays without one.
	if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
		dst = appendDataBuffers(dst, dict)
	}
	return dst
}
