package flightserve

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/mem"
)

// QuoteLabel quotes a Prometheus label value, for the tests.
var QuoteLabel = quote

// SetMinFreeBytes sets the free space DoPut leaves and returns the
// function that restores it.
func SetMinFreeBytes(n int64) (restore func()) {
	old := minFreeBytes.Swap(n)
	return func() { minFreeBytes.Store(old) }
}

// MarshalFrame marshals an IPC message of header and body parts as DoGet
// sends it, through the server's codec.
func MarshalFrame(header []byte, body ...[]byte) ([]byte, error) {
	f := &frame{header: header}
	for _, b := range body {
		f.Write(b)
	}
	bs, err := newCodec().Marshal(f)
	if err != nil {
		return nil, err
	}
	defer bs.Free()
	return bs.Materialize(), nil
}

// OpenQueries returns the files s holds open for calls: those of calls
// running and those whose batches gRPC still holds.
func OpenQueries(s *Server) int64 { return s.queries.Load() }

// Frames are the messages WriteFrames wrote.
type Frames struct {
	Shared []mem.BufferSlice // as the server's codec marshals them, not freed
	Copied [][]byte          // as the one-copy codec marshals them
	q      *query
}

// QueryRefs returns the references left on the query the frames were
// written for: 0 once every shared buffer was freed.
func (f *Frames) QueryRefs() int64 { return f.q.refs.Load() }

// Free frees the shared buffers.
func (f *Frames) Free() {
	for _, bs := range f.Shared {
		bs.Free()
	}
	f.Shared = nil
}

// WriteFrames writes recs, of schema, as DoGet writes them (the schema
// message first, then each batch), through a stream that marshals every
// message both ways. The caller frees the frames.
func WriteFrames(schema *arrow.Schema, recs []arrow.RecordBatch, alloc memory.Allocator) (*Frames, error) {
	r, err := array.NewRecordReader(schema, nil)
	if err != nil {
		return nil, err
	}
	q := &query{r: r, opened: new(atomic.Int64)}
	q.refs.Store(1)
	out := &Frames{q: q}
	st := &marshalStream{out: out}
	fw := &frameWriter{stream: st, q: q}
	w := ipc.NewWriterWithPayloadWriter(fw, ipc.WithSchema(schema), ipc.WithAllocator(alloc))
	for _, rec := range recs {
		fw.setBatch(rec)
		err = w.Write(rec)
		fw.setBatch(nil)
		if err != nil {
			break
		}
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	q.close()
	return out, err
}

// marshalStream is the grpc.ServerStream of WriteFrames: SendMsg
// marshals.
type marshalStream struct {
	grpc.ServerStream
	out *Frames
}

func (s *marshalStream) SendMsg(m any) error {
	f := m.(*frame)
	copied, err := f.marshalCopy()
	if err != nil {
		return err
	}
	s.out.Copied = append(s.out.Copied, copied.Materialize())
	copied.Free()
	shared, err := newCodec().Marshal(f)
	if err != nil {
		return err
	}
	s.out.Shared = append(s.out.Shared, shared)
	return nil
}

// BatchMarshaller writes batches of one schema as DoGet does and
// marshals each batch message with the server's codec (share) or the
// one-copy codec, freeing the result at once.
type BatchMarshaller struct {
	fw *frameWriter
	w  *ipc.Writer
}

// NewBatchMarshaller returns a BatchMarshaller of schema; the schema
// message is marshalled at the first Marshal.
func NewBatchMarshaller(schema *arrow.Schema, share bool) *BatchMarshaller {
	r, _ := array.NewRecordReader(schema, nil)
	q := &query{r: r, opened: new(atomic.Int64)}
	q.refs.Store(1)
	fw := &frameWriter{stream: freeStream{share: share}, q: q}
	return &BatchMarshaller{fw: fw, w: ipc.NewWriterWithPayloadWriter(fw, ipc.WithSchema(schema))}
}

// Marshal writes rec.
func (m *BatchMarshaller) Marshal(rec arrow.RecordBatch) error {
	m.fw.setBatch(rec)
	defer m.fw.setBatch(nil)
	return m.w.Write(rec)
}

// freeStream is the grpc.ServerStream of BatchMarshaller.
type freeStream struct {
	grpc.ServerStream
	share bool
}

func (s freeStream) SendMsg(m any) error {
	f := m.(*frame)
	var bs mem.BufferSlice
	var err error
	if s.share {
		bs, err = newCodec().Marshal(f)
	} else {
		bs, err = f.marshalCopy()
	}
	bs.Free()
	return err
}

// MsgUnmapped is the message of the log line of files read for lack of
// a read lease.
const MsgUnmapped = msgUnmapped
