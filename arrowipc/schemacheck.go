package arrowipc

import (
	"encoding/binary"
	"github.com/fstensor/fstensor/arrowipc/internal/verify"

	"github.com/apache/arrow-go/v18/arrow/ipc"
)

// CheckSchemaMessage checks b, one encapsulated Arrow IPC Schema message
// (the 0xFFFFFFFF continuation marker, or none in the pre-1.0 format, a
// little-endian int32 metadata length, the Message flatbuffer, and its
// empty body), with the checks the IPC readers of this package run
// before arrow-go decodes a schema. A message that passes is decoded by
// arrow-go's ipc and flight readers in time and memory proportional to
// len(b). This is what Parquet files store, base64-encoded, under the
// "ARROW:schema" key. Trailing bytes after the message are allowed. The
// error wraps arrow.ErrInvalid.
func CheckSchemaMessage(b []byte) error {
	if len(b) < 4 {
		return errorf("ipc schema message: %d bytes cannot hold a message length", len(b))
	}
	off := int64(4)
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	if n == -1 { // continuation marker
		if len(b) < 8 {
			return errorf("ipc schema message: %d bytes cannot hold a message length", len(b))
		}
		off = 8
		n = int64(int32(binary.LittleEndian.Uint32(b[4:])))
	}
	if n <= 0 || n > verify.MaxMetadataSize || n > int64(len(b))-off {
		return errorf("ipc schema message: metadata length %d does not fit the %d-byte message", n, len(b))
	}
	m, err := verify.Message(b[off:off+n], nil)
	if err != nil {
		return errorf("%w", err)
	}
	if m.Type != ipc.MessageSchema {
		return errorf("ipc schema message: a %v message, not a Schema", m.Type)
	}
	if m.BodyLen > int64(len(b))-off-n {
		return errorf("ipc schema message: body length %d overruns the %d-byte message", m.BodyLen, len(b))
	}
	return nil
}
