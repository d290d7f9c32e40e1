package zio

import (
	"encoding/binary"
	"strings"
)

// CoordSize is the size in bytes of the coordinate header: origin, granule
// and seqno as little-endian uint64 values.
const CoordSize = 24

// MaxParts is the largest number of parts Decode reads from one framed
// message.
const MaxParts = 1 << 16

// Message is a ZIO message: the prefix header (level, four-byte form and
// label), the coordinate header (origin, granule, seqno) and the payload
// parts. As a multipart message it is [prefix, coord, payload...]; the
// prefix part is "ZIO", the level as one ASCII digit, the form, then the
// label bytes.
//
// Payload parts from Decode and FromParts share the input's memory.
type Message struct {
	Level   int    // 0..9, the message level (0 undefined, ... 8 fatal)
	Form    string // the four-byte message form, "TENS" for tensors; shorter is padded with spaces
	Label   string // free text; a JSON object for TENS messages (see Label)
	Origin  uint64
	Granule uint64
	Seqno   uint64
	Payload [][]byte
}

// AppendPrefix appends the prefix header part of m: "ZIO", the level digit,
// the form padded with spaces to four bytes, the label. A level outside 0..9
// or a form longer than four bytes is an error wrapping arrow.ErrInvalid.
func (m *Message) AppendPrefix(dst []byte) ([]byte, error) {
	if m.Level < 0 || m.Level > 9 {
		return dst, errorf("prefix: level %d is not one digit", m.Level)
	}
	if len(m.Form) > 4 {
		return dst, errorf("prefix: form %q is longer than four bytes", m.Form)
	}
	dst = append(dst, "ZIO"...)
	dst = append(dst, byte('0'+m.Level))
	dst = append(dst, m.Form...)
	dst = append(dst, strings.Repeat(" ", 4-len(m.Form))...)
	return append(dst, m.Label...), nil
}

// AppendCoord appends the 24-byte coordinate header part of m.
func (m *Message) AppendCoord(dst []byte) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, m.Origin)
	dst = binary.LittleEndian.AppendUint64(dst, m.Granule)
	return binary.LittleEndian.AppendUint64(dst, m.Seqno)
}

// Parts returns m as a multipart message: the prefix header, the coordinate
// header, then the payload parts (shared, not copied). Errors are those of
// AppendPrefix.
func (m *Message) Parts() ([][]byte, error) {
	prefix, err := m.AppendPrefix(nil)
	if err != nil {
		return nil, err
	}
	parts := make([][]byte, 0, 2+len(m.Payload))
	parts = append(parts, prefix, m.AppendCoord(nil))
	return append(parts, m.Payload...), nil
}

// AppendEncode appends m in the single-part framing (Parts, then
// AppendFrames): the bytes of zio::Message::encode and the Python
// Message.encode. dst is returned unchanged on error.
func (m *Message) AppendEncode(dst []byte) ([]byte, error) {
	parts, err := m.Parts()
	if err != nil {
		return dst, err
	}
	return AppendFrames(dst, parts)
}

// FromParts builds a message from its multipart form [prefix, coord,
// payload...]. The prefix must start with "ZIO", a level digit and a
// four-byte form; the coordinate header must be 24 bytes. Payload parts
// share the input. Errors wrap arrow.ErrInvalid.
func FromParts(parts [][]byte) (*Message, error) {
	if len(parts) < 2 {
		return nil, errorf("message has %d parts, needs at least 2 (prefix and coord headers)", len(parts))
	}
	p := parts[0]
	if len(p) < 8 || string(p[:3]) != "ZIO" {
		return nil, errorf("prefix header %q does not start with ZIO, a level and a form", clip(string(p)))
	}
	if p[3] < '0' || p[3] > '9' {
		return nil, errorf("prefix header level %q is not a digit", p[3])
	}
	c := parts[1]
	if len(c) != CoordSize {
		return nil, errorf("coord header is %d bytes, not %d", len(c), CoordSize)
	}
	return &Message{
		Level:   int(p[3] - '0'),
		Form:    string(p[4:8]),
		Label:   string(p[8:]),
		Origin:  binary.LittleEndian.Uint64(c),
		Granule: binary.LittleEndian.Uint64(c[8:]),
		Seqno:   binary.LittleEndian.Uint64(c[16:]),
		Payload: parts[2:len(parts):len(parts)],
	}, nil
}

// Decode reads a message in the single-part framing (SplitFrames with
// MaxParts, then FromParts). Payload parts share b. Errors wrap
// arrow.ErrInvalid.
func Decode(b []byte) (*Message, error) {
	parts, err := SplitFrames(b, MaxParts)
	if err != nil {
		return nil, err
	}
	return FromParts(parts)
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
