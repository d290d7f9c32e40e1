package tfproto

import (
	"encoding/binary"

	"github.com/fstensor/fstensor/codec/internal/readopt"
	"github.com/fstensor/fstensor/fixedshape"
)

// MaxMessages bounds the number of messages SplitDelimited returns: an
// empty message takes one byte of input but a slice header of 24, so
// without a bound a crafted stream would cost 24 times its size.
const MaxMessages = 1 << 20

// SplitDelimited splits b, TensorProto messages each preceded by its
// length as a varint (protobuf's writeDelimitedTo framing, the .pb
// stream), into the messages, which share b. Errors wrap
// arrow.ErrInvalid: a length prefix that is malformed or runs past b, or
// more than MaxMessages messages. A stream cut exactly after a message
// splits without error into fewer messages (see [WithExpectedCount]).
func SplitDelimited(b []byte) ([][]byte, error) {
	var msgs [][]byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, errorf("message %d: bad or overlong length prefix", len(msgs))
		}
		if len(msgs) == MaxMessages {
			return nil, errorf("more than %d messages", MaxMessages)
		}
		msgs = append(msgs, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return msgs, nil
}

// AppendDelimited appends msgs to dst, each preceded by its length as a
// varint, and returns the extended slice: the framing SplitDelimited reads.
func AppendDelimited(dst []byte, msgs [][]byte) []byte {
	for _, m := range msgs {
		dst = binary.AppendUvarint(dst, uint64(len(m)))
		dst = append(dst, m...)
	}
	return dst
}

// ReadDelimited reads the length-delimited stream b (SplitDelimited) as
// one column (ReadColumn). Options: [WithExpectedCount].
func ReadDelimited(b []byte, opts ...ReadOption) (*fixedshape.Array, error) {
	if _, err := readopt.Apply(opts); err != nil {
		return nil, err
	}
	msgs, err := SplitDelimited(b)
	if err != nil {
		return nil, err
	}
	return ReadColumn(msgs, opts...)
}
