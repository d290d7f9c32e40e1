package flightserve

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// frame is an IPC message DoGet sends as a FlightData message: its
// metadata and the parts of its body (the batch's buffers and their
// padding, not copied). codec writes the parts of the batch's buffers
// that are large enough as buffers of their own, without copying (see
// batchRefs), and the rest in one copy, where arrow-go's flight writer
// copies the whole body twice (into one buffer, then into the marshalled
// message) before gRPC copies it again.
type frame struct {
	header []byte
	body   [][]byte
	n      int // bytes of body

	// refs, when not nil, holds the batch the body parts come from; the
	// parts lying in its buffers may then be handed to gRPC uncopied.
	refs *batchRefs
	run  []byte // scratch of marshal: the bytes copied between shared parts
}

// Write adds p to the body (SerializeBody's writer). p must stay valid
// until the frame is sent.
func (f *frame) Write(p []byte) (int, error) {
	f.body = append(f.body, p)
	f.n += len(p)
	return len(p), nil
}

// The tags of FlightData's fields (Flight.proto): data_header = 2,
// data_body = 1000, both length-delimited.
var (
	tagHeader = protoTag(2)
	tagBody   = protoTag(1000)
)

func protoTag(field uint64) []byte { return binary.AppendUvarint(nil, field<<3|2) }

// minShared is the smallest body part handed to gRPC without a copy:
// below it, the copy costs less than the buffer's bookkeeping. It is at
// least gRPC's pooling threshold, below which mem.NewBuffer would not
// call its pool back.
const minShared = 16 << 10

// codec is gRPC's proto codec, which also marshals frames.
type codec struct{ proto encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Name() string { return c.proto.Name() }

func (c codec) Unmarshal(data mem.BufferSlice, v any) error { return c.proto.Unmarshal(data, v) }

// Marshal marshals a frame itself (sharing its batch's buffers when
// f.refs allows it, else in one copy) and every other message through
// the proto codec.
func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	f, ok := v.(*frame)
	if !ok {
		return c.proto.Marshal(v)
	}
	if f.refs != nil && f.shares() {
		return f.marshalShared()
	}
	return f.marshalCopy()
}

// size returns the bytes of f in FlightData's wire form.
func (f *frame) size() int {
	size := len(tagHeader) + uvarintLen(uint64(len(f.header))) + len(f.header)
	if f.n > 0 {
		size += len(tagBody) + uvarintLen(uint64(f.n)) + f.n
	}
	return size
}

// appendPrefix appends FlightData's header field and the tag and length
// of its body field to b.
func (f *frame) appendPrefix(b []byte) []byte {
	b = append(b, tagHeader...)
	b = binary.AppendUvarint(b, uint64(len(f.header)))
	b = append(b, f.header...)
	if f.n > 0 {
		b = append(b, tagBody...)
		b = binary.AppendUvarint(b, uint64(f.n))
	}
	return b
}

// marshalCopy writes f in one buffer of gRPC's pool, one copy of every
// byte.
func (f *frame) marshalCopy() (mem.BufferSlice, error) {
	size := f.size()
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	b := f.appendPrefix((*buf)[:0])
	for _, p := range f.body {
		b = append(b, p...)
	}
	if len(b) != size {
		pool.Put(buf)
		return nil, fmt.Errorf("flightserve: frame of %d bytes marshalled to %d", size, len(b))
	}
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

// shares reports whether a part of f's body would be shared: one of at
// least minShared bytes lying in the buffers of f's batch.
func (f *frame) shares() bool {
	for _, p := range f.body {
		if len(p) >= minShared && f.refs.holds(p) {
			return true
		}
	}
	return false
}

// marshalShared writes f as a list of buffers: each part of the body of
// at least minShared bytes lying in the buffers of f's batch as a buffer
// of its own, which holds a reference on f.refs until gRPC frees it, and
// the bytes between them copied, as few buffers as the shared parts
// allow. The bytes are those of marshalCopy.
func (f *frame) marshalShared() (mem.BufferSlice, error) {
	size := f.size()
	pool := mem.DefaultBufferPool()
	var out mem.BufferSlice
	run := f.appendPrefix(f.run[:0])
	flush := func() {
		if len(run) > 0 {
			out = append(out, mem.Copy(run, pool))
			run = run[:0]
		}
	}
	for _, p := range f.body {
		switch {
		case len(p) < minShared:
			run = append(run, p...)
		case f.refs.holds(p):
			flush()
			out = append(out, f.refs.buffer(p))
		default: // a buffer the IPC writer made, released once sent
			flush()
			out = append(out, mem.Copy(p, pool))
		}
	}
	flush()
	f.run = run[:0]
	if out.Len() != size {
		out.Free()
		return nil, fmt.Errorf("flightserve: frame of %d bytes marshalled to %d", size, out.Len())
	}
	return out, nil
}

func uvarintLen(x uint64) int {
	var b [binary.MaxVarintLen64]byte
	return len(binary.AppendUvarint(b[:0], x))
}

// frameWriter is the ipc.PayloadWriter of DoGet: each payload sent as a
// frame on stream. When q is set, the parts of the body lying in the
// buffers of the batch being written (setBatch) are handed to gRPC
// uncopied, each holding the batch and q until gRPC frees it.
type frameWriter struct {
	stream grpc.ServerStream
	q      *query
	rec    arrow.RecordBatch
	spans  [][]byte // the buffers of rec
	f      frame
}

// setBatch names the batch whose payloads come next (nil: none); rec
// must stay valid until its payloads are written.
func (w *frameWriter) setBatch(rec arrow.RecordBatch) {
	clear(w.spans)
	w.rec, w.spans = rec, w.spans[:0]
	if rec != nil {
		w.spans = appendBatchBuffers(w.spans, rec)
	}
}

func (w *frameWriter) Start() error { return nil }
func (w *frameWriter) Close() error { return nil }

func (w *frameWriter) WritePayload(p ipc.Payload) error {
	m := p.Meta()
	defer m.Release()
	w.f = frame{header: m.Bytes(), body: w.f.body[:0], run: w.f.run}
	if err := p.SerializeBody(&w.f); err != nil {
		return err
	}
	if w.q != nil && w.rec != nil && w.f.n >= minShared {
		w.f.refs = newBatchRefs(w.rec, w.spans, w.q)
	}
	err := w.stream.SendMsg(&w.f)
	if w.f.refs != nil {
		w.f.refs.release() // the frame's own reference; gRPC's buffers hold theirs
	}
	clear(w.f.body) // drop the references to the batch's buffers
	return err
}
