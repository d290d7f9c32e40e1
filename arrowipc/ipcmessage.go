package arrowipc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"github.com/fstensor/fstensor/arrowipc/internal/verify"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// continuation is the marker before the length of an IPC message.
const continuation = 0xFFFFFFFF

// metaChunk is the first allocation for the metadata of a stream message;
// larger metadata grows as it arrives.
const metaChunk = 64 << 10

// messageReader is the ipc.MessageReader of NewIPCStreamReader. It reads
// the framing arrow-go's own reader reads (continuation marker, length,
// flatbuffer, body; the pre-0.15 form without marker too) but, unlike
// it, bounds the metadata to verify.MaxMetadataSize and allocates it only as it
// arrives, checks the flatbuffer with verifyMessage before arrow-go
// decodes it, and refuses a body over the body size limit before
// allocating it from mem.
type messageReader struct {
	r   io.Reader
	mem memory.Allocator
	hdr [4]byte
	messageState
}

var _ ipc.MessageReader = (*messageReader)(nil)

func newMessageReader(r io.Reader, mem memory.Allocator, limit int64) *messageReader {
	mr := &messageReader{r: r, mem: mem, messageState: messageState{limit: limit}}
	mr.refs.Store(1)
	return mr
}

// messageState is what the ipc.MessageReaders of this package share: the
// body size limit, the schema read so far, the references to the reader
// and the message it handed out last, which the last Release releases.
type messageState struct {
	limit  int64          // body size limit, at least 1
	schema *verify.Schema // of the schema message, once read
	refs   atomic.Int64
	msg    *ipc.Message
}

// check verifies the flatbuffer meta of a message, keeps the schema of
// the first schema message and refuses a body over the limit.
func (c *messageState) check(meta []byte) (verify.MessageInfo, error) {
	m, err := verify.Message(meta, c.schema)
	if err != nil {
		return m, errorf("%w", err)
	}
	if m.Schema != nil && c.schema == nil {
		c.schema = m.Schema
	}
	if m.BodyLen > c.limit {
		return m, errorf("ipc message: body length %d exceeds the limit %d (WithBodySizeLimit)", m.BodyLen, c.limit)
	}
	return m, nil
}

// Retain adds a reference.
func (c *messageState) Retain() { c.refs.Add(1) }

// Release drops a reference; the last one releases the current message.
func (c *messageState) Release() {
	if c.refs.Add(-1) == 0 && c.msg != nil {
		c.msg.Release()
		c.msg = nil
	}
}

// replace releases the current message and makes m, which it returns,
// the current one.
func (c *messageState) replace(m *ipc.Message) *ipc.Message {
	if c.msg != nil {
		c.msg.Release()
	}
	c.msg = m
	return m
}

// Message reads the next message, valid until the next call; io.EOF at
// the end of the stream (no more bytes or an end-of-stream marker).
func (r *messageReader) Message() (*ipc.Message, error) {
	n, err := io.ReadFull(r.r, r.hdr[:])
	if n == 0 && err == io.EOF {
		return nil, io.EOF
	}
	if err != nil {
		return nil, errorf("ipc message: length: %w", unexpected(err))
	}
	size := binary.LittleEndian.Uint32(r.hdr[:])
	if size == continuation {
		if _, err := io.ReadFull(r.r, r.hdr[:]); err != nil {
			return nil, errorf("ipc message: length: %w", unexpected(err))
		}
		size = binary.LittleEndian.Uint32(r.hdr[:])
	}
	if size == 0 {
		return nil, io.EOF
	}
	if size < 4 || size > verify.MaxMetadataSize {
		return nil, errorf("ipc message: metadata length %d is outside [4,%d]", size, verify.MaxMetadataSize)
	}
	meta, err := readMeta(r.r, int(size))
	if err != nil {
		return nil, err
	}
	m, err := r.check(meta)
	if err != nil {
		return nil, err
	}
	if int64(int(m.BodyLen)) != m.BodyLen {
		return nil, errorf("ipc message: body length %d is not addressable", m.BodyLen)
	}
	body := memory.NewResizableBuffer(r.mem)
	defer body.Release()
	body.Resize(int(m.BodyLen))
	if _, err := io.ReadFull(r.r, body.Bytes()); err != nil {
		return nil, errorf("ipc message: body: %w", unexpected(err))
	}
	if err := verify.Body(meta, r.schema, m.BodyLen, verify.Slice(body.Bytes())); err != nil {
		return nil, errorf("%w", err)
	}
	mb := memory.NewBufferBytes(meta)
	defer mb.Release()
	return r.replace(ipc.NewMessage(mb, body)), nil
}

// readMeta reads n bytes of metadata from r, allocating them as they
// arrive: a length prefix claiming more than the stream holds costs at
// most twice what it holds.
func readMeta(r io.Reader, n int) ([]byte, error) {
	buf := make([]byte, min(n, metaChunk))
	read := 0
	for {
		k, err := io.ReadFull(r, buf[read:])
		read += k
		if err != nil {
			return nil, errorf("ipc message: metadata: %d of %d bytes: %w", read, n, unexpected(err))
		}
		if read == n {
			return buf, nil
		}
		grown := make([]byte, min(n, 2*len(buf)))
		copy(grown, buf)
		buf = grown
	}
}

// unexpected turns io.EOF, met inside a message, into io.ErrUnexpectedEOF.
func unexpected(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// fileCheck checks the metadata of an IPC file before arrow-go decodes it:
// the footer and the dictionary messages when the file is opened, a
// record batch message before each RecordBatch. It is safe for
// concurrent use (the blocks are read-only, read is a ReadAt or a slice
// of a mapping).
type fileCheck struct {
	size    int64
	read    func(off, n int64) ([]byte, error)
	schema  *verify.Schema
	batches []verify.Block
}

// checkFile checks the footer of the size-byte IPC file that read reads,
// and its dictionary messages.
func checkFile(size int64, read func(off, n int64) ([]byte, error)) (*fileCheck, error) {
	const tail = 4 + 6 // footer length, "ARROW1"
	if size < 2*6+4 {
		return nil, errorf("ipc file: %d bytes is too small for an Arrow file", size)
	}
	b, err := read(size-tail, tail)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(b[4:], ipc.Magic) {
		return nil, errorf("ipc file: no %q at the end", ipc.Magic)
	}
	n := int64(binary.LittleEndian.Uint32(b))
	if n == 0 || n > size-2*6-4 || n > verify.MaxMetadataSize {
		return nil, errorf("ipc file: footer length %d is outside [1,%d]", n, min(size-2*6-4, verify.MaxMetadataSize))
	}
	footer, err := read(size-tail-n, n)
	if err != nil {
		return nil, err
	}
	f, err := verify.Footer(footer)
	if err != nil {
		return nil, errorf("ipc file: footer: %w", err)
	}
	c := &fileCheck{size: size, read: read, schema: f.Schema, batches: f.Batches}
	for i, blk := range f.Dicts {
		if err := c.block(blk, ipc.MessageDictionaryBatch); err != nil {
			return nil, errorf("ipc file: dictionary %d: %w", i, err)
		}
	}
	return c, nil
}

// batch checks the message of record batch i, 0 <= i < len(c.batches).
func (c *fileCheck) batch(i int) error {
	if err := c.block(c.batches[i], ipc.MessageRecordBatch); err != nil {
		return errorf("ipc file: record batch %d: %w", i, err)
	}
	return nil
}

// block checks the message of blk: inside the file, of type typ, with
// the body length the block states, its flatbuffer verified, and the
// buffers its body holds.
func (c *fileCheck) block(blk verify.Block, typ ipc.MessageType) error {
	// The first bytes of the body come with the metadata: verifyBody
	// reads a few of them, and a small batch then costs one read.
	meta, m, body, err := c.message(blk, typ, bodyWindow)
	if err != nil {
		return err
	}
	if err := verify.Body(meta, c.schema, m.BodyLen, c.window(blk.Offset+int64(blk.Meta), m.BodyLen, body)); err != nil {
		return errorf("%w", err)
	}
	return nil
}

// message reads and checks the metadata of the message of blk, as block
// does, and returns it (without its length prefix), what it states and
// the first bytes of its body, at most head of them, read with it.
func (c *fileCheck) message(blk verify.Block, typ ipc.MessageType, head int64) (meta []byte, m verify.MessageInfo, body []byte, err error) {
	if blk.Offset < 0 || blk.Meta < 8 || blk.Meta > verify.MaxMetadataSize || blk.Body < 0 ||
		blk.Offset > c.size || int64(blk.Meta) > c.size-blk.Offset || blk.Body > c.size-blk.Offset-int64(blk.Meta) {
		return nil, m, nil, errorf("block at offset %d of %d+%d bytes is outside the %d-byte file", blk.Offset, blk.Meta, blk.Body, c.size)
	}
	b, err := c.read(blk.Offset, int64(blk.Meta)+min(blk.Body, head))
	if err != nil {
		return nil, m, nil, err
	}
	b, body = b[:blk.Meta], b[blk.Meta:]
	prefix := 4
	if binary.LittleEndian.Uint32(b) == continuation {
		prefix = 8
	}
	if n := binary.LittleEndian.Uint32(b[prefix-4:]); int64(n) != int64(len(b)-prefix) || n < 4 {
		return nil, m, nil, errorf("message length %d does not match the block's %d", n, len(b)-prefix)
	}
	if m, err = verify.Message(b[prefix:], c.schema); err != nil {
		return nil, m, nil, errorf("%w", err)
	}
	if m.Type != typ {
		return nil, m, nil, errorf("message is a %v, want a %v", m.Type, typ)
	}
	if m.BodyLen != blk.Body {
		return nil, m, nil, errorf("message body length %d does not match the block's %d", m.BodyLen, blk.Body)
	}
	return b[prefix:], m, body, nil
}

// rows returns the row count of record batch i, 0 <= i <
// len(c.batches), from its metadata, checked as batch checks it but
// for the body, which is not read.
func (c *fileCheck) rows(i int) (int64, error) {
	_, m, _, err := c.message(c.batches[i], ipc.MessageRecordBatch, 0)
	if err != nil {
		return 0, errorf("ipc file: record batch %d: %w", i, err)
	}
	return m.Rows, nil
}

// readerAtFunc returns a read function over r for checkFile.
func readerAtFunc(r io.ReaderAt) func(off, n int64) ([]byte, error) {
	return func(off, n int64) ([]byte, error) {
		b := make([]byte, n)
		if k, err := r.ReadAt(b, off); k < len(b) {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, errorf("ipc file: reading %d bytes at offset %d: %w", n, off, err)
		}
		return b, nil
	}
}

// bytesFunc returns a read function over data for checkFile: slices of
// data, no copies.
func bytesFunc(data []byte) func(off, n int64) ([]byte, error) {
	return func(off, n int64) ([]byte, error) {
		if off < 0 || n < 0 || off > int64(len(data)) || n > int64(len(data))-off {
			return nil, errorf("ipc file: %d bytes at offset %d are outside the %d-byte file", n, off, len(data))
		}
		return data[off : off+n], nil
	}
}

// bodyWindow is the size of the reads of a batch body by fileCheck.window.
const bodyWindow = 4 << 10

// window returns a read function over the body of bodyLen bytes at
// offset start of the file for verifyBody, which reads a few bytes per
// array, mostly at increasing offsets: it serves what falls inside head
// (the first bytes of the body, read already) or the last window read,
// and reads the file bodyWindow bytes at a time.
func (c *fileCheck) window(start, bodyLen int64, head []byte) func(off, n int64) ([]byte, error) {
	var (
		buf       = head
		at  int64 = 0 // body offset of buf
	)
	return func(off, n int64) ([]byte, error) {
		if off < 0 || n < 0 || off > bodyLen || n > bodyLen-off {
			return nil, errorf("ipc file: %d bytes at offset %d are outside the %d-byte body", n, off, bodyLen)
		}
		if off < at || off+n > at+int64(len(buf)) {
			if n > bodyWindow {
				return c.read(start+off, n)
			}
			b, err := c.read(start+off, min(bodyWindow, bodyLen-off))
			if err != nil {
				return nil, err
			}
			buf, at = b, off
		}
		return buf[off-at : off-at+n], nil
	}
}
