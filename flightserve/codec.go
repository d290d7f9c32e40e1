package flightserve

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
)

// frame is an IPC message DoGet sends as a FlightData message: its
// metadata and the parts of its body (the batch's buffers and their
// padding, not copied). codec writes it in FlightData's wire form in one
// copy, where arrow-go's flight writer copies the body twice (into one
// buffer, then into the marshalled message) before gRPC copies it again.
type frame struct {
	header []byte
	body   [][]byte
	n      int // bytes of body
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

// codec is gRPC's proto codec, which also marshals frames.
type codec struct{ proto encoding.CodecV2 }

func newCodec() codec { return codec{encoding.GetCodecV2(proto.Name)} }

func (c codec) Name() string { return c.proto.Name() }

func (c codec) Unmarshal(data mem.BufferSlice, v any) error { return c.proto.Unmarshal(data, v) }

func (c codec) Marshal(v any) (mem.BufferSlice, error) {
	f, ok := v.(*frame)
	if !ok {
		return c.proto.Marshal(v)
	}
	size := len(tagHeader) + uvarintLen(uint64(len(f.header))) + len(f.header)
	if f.n > 0 {
		size += len(tagBody) + uvarintLen(uint64(f.n)) + f.n
	}
	pool := mem.DefaultBufferPool()
	buf := pool.Get(size)
	b := append((*buf)[:0], tagHeader...)
	b = binary.AppendUvarint(b, uint64(len(f.header)))
	b = append(b, f.header...)
	if f.n > 0 {
		b = append(b, tagBody...)
		b = binary.AppendUvarint(b, uint64(f.n))
		for _, p := range f.body {
			b = append(b, p...)
		}
	}
	if len(b) != size {
		pool.Put(buf)
		return nil, fmt.Errorf("flightserve: frame of %d bytes marshalled to %d", size, len(b))
	}
	*buf = b
	return mem.BufferSlice{mem.NewBuffer(buf, pool)}, nil
}

func uvarintLen(x uint64) int {
	var b [binary.MaxVarintLen64]byte
	return len(binary.AppendUvarint(b[:0], x))
}

// frameWriter is the ipc.PayloadWriter of DoGet: each payload sent as a
// frame on stream.
type frameWriter struct {
	stream grpc.ServerStream
	f      frame
}

func (w *frameWriter) Start() error { return nil }
func (w *frameWriter) Close() error { return nil }

func (w *frameWriter) WritePayload(p ipc.Payload) error {
	m := p.Meta()
	defer m.Release()
	w.f = frame{header: m.Bytes(), body: w.f.body[:0]}
	if err := p.SerializeBody(&w.f); err != nil {
		return err
	}
	err := w.stream.SendMsg(&w.f)
	clear(w.f.body) // drop the references to the batch's buffers
	return err
}
