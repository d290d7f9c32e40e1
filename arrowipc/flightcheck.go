package arrowipc

import (
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc/internal/verify"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// NewIPCMessageReader reads an Arrow IPC stream whose messages arrive
// already framed by a transport, as Arrow Flight carries them (the
// FlightData data_header and data_body fields): next returns the
// flatbuffer metadata of one message, without continuation marker or
// length, and its body, or io.EOF at the end of the stream. The first
// message is the schema. Options: [WithAllocator], [WithBodySizeLimit].
//
// Every message goes through the checks of [NewIPCStreamReader] before
// arrow-go decodes it: the metadata at most 64 MiB and its flatbuffer
// verified against the schema, the body at least the length the metadata
// states and within the body size limit. The body is used without a
// copy (a body longer than stated is cut to its stated length), so next
// must not reuse the bytes it returns (a body not aligned to 8 bytes
// is copied, from the allocator). Batches are validated in full
// ([arrowconv.ValidateRecord]) before Next hands them out. Errors of the messages
// wrap arrow.ErrInvalid; an error of next other than io.EOF is returned
// as it is, wrapped. The caller releases the reader.
func NewIPCMessageReader(next func() (meta, body []byte, err error), opts ...Option) (rr array.RecordReader, err error) {
	defer recovered(&err, "ipc messages")
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	o, mem := cfg.readOptions()
	mr := &framedReader{next: next, limit: cfg.bodyLimit, mem: mem}
	mr.refs.Store(1)
	return newMessagesReader(mr, mem, o, "ipc messages")
}

// framedReader is the ipc.MessageReader of NewIPCMessageReader.
type framedReader struct {
	next   func() (meta, body []byte, err error)
	limit  int64 // body size limit, at least 1
	mem    memory.Allocator
	schema *verify.Schema // of the schema message, once read
	refs   atomic.Int64
	msg    *ipc.Message
}

var _ ipc.MessageReader = (*framedReader)(nil)

// Retain adds a reference.
func (r *framedReader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last one releases the current message.
func (r *framedReader) Release() {
	if r.refs.Add(-1) == 0 && r.msg != nil {
		r.msg.Release()
		r.msg = nil
	}
}

// Message checks and returns the next message, valid until the next call.
func (r *framedReader) Message() (*ipc.Message, error) {
	meta, body, err := r.next()
	if err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, errorf("ipc message: %w", err)
	}
	if len(meta) < 4 || len(meta) > verify.MaxMetadataSize {
		return nil, errorf("ipc message: metadata length %d is outside [4,%d]", len(meta), verify.MaxMetadataSize)
	}
	m, err := verify.Message(meta, r.schema)
	if err != nil {
		return nil, errorf("%w", err)
	}
	if m.Schema != nil && r.schema == nil {
		r.schema = m.Schema
	}
	if m.BodyLen > r.limit {
		return nil, errorf("ipc message: body length %d exceeds the limit %d (WithBodySizeLimit)", m.BodyLen, r.limit)
	}
	if m.BodyLen > int64(len(body)) {
		return nil, errorf("ipc message: body of %d bytes is shorter than the %d the metadata states", len(body), m.BodyLen)
	}
	if r.msg != nil {
		r.msg.Release()
	}
	body = body[:m.BodyLen]
	if err := verify.Body(meta, r.schema, m.BodyLen, verify.Slice(body)); err != nil {
		return nil, errorf("%w", err)
	}
	var bb *memory.Buffer
	if unsafeslice.Aligned(body, 8) {
		bb = memory.NewBufferBytes(body)
	} else { // the views of the columns need aligned elements
		bb = memory.NewResizableBuffer(r.mem)
		bb.Resize(len(body))
		copy(bb.Bytes(), body)
	}
	mb := memory.NewBufferBytes(meta)
	r.msg = ipc.NewMessage(mb, bb)
	mb.Release()
	bb.Release()
	return r.msg, nil
}
