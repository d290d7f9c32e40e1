package arrowipc

import (
	"io"

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
	mr := &framedReader{next: next, mem: mem, messageState: messageState{limit: cfg.bodyLimit}}
	mr.refs.Store(1)
	return newMessagesReader(mr, mem, o, "ipc messages")
}

// framedReader is the ipc.MessageReader of NewIPCMessageReader.
type framedReader struct {
	next func() (meta, body []byte, err error)
	mem  memory.Allocator
	messageState
}

var _ ipc.MessageReader = (*framedReader)(nil)

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
	m, err := r.check(meta)
	if err != nil {
		return nil, err
	}
	if m.BodyLen > int64(len(body)) {
		return nil, errorf("ipc message: body of %d bytes is shorter than the %d the metadata states", len(body), m.BodyLen)
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
	defer mb.Release()
	defer bb.Release()
	return r.replace(ipc.NewMessage(mb, bb)), nil
}
