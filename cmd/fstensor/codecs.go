package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
)

// maxMessages bounds the number of TensorProto messages or ZIO parts read
// from one file.
const maxMessages = 1 << 20

// readColumnFile reads a file of a single-column format as one column.
// With single, a .npy file holds one tensor.
func readColumnFile(path string, f format, single bool) (*fixedshape.Array, error) {
	if f == npyF {
		file, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer file.Close()
		if single {
			return npy.ReadTensor(bufio.NewReader(file), nil)
		}
		return npy.ReadColumn(bufio.NewReader(file), nil)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	switch f {
	case tfprotoF:
		msgs, err := splitDelimited(b)
		if err != nil {
			return nil, err
		}
		return tfproto.ReadColumn(msgs)
	case zioF:
		m, err := zio.Decode(b)
		if err != nil {
			return nil, err
		}
		return zio.ReadColumn(m)
	case dtF:
		return decthings.ReadColumn(b)
	}
	return nil, fmt.Errorf("format %s has no column reader", f)
}

// npyWriteOptions returns the .npy options of the output flags.
func npyWriteOptions(opts writeOptions) npy.WriteOptions {
	return npy.WriteOptions{FillNulls: opts.fill, Fill: opts.fillWith}
}

// writeNPZ writes the columns as the members of a .npz archive.
func writeNPZ(w io.Writer, names []string, cols []*fixedshape.Array, opts writeOptions) error {
	bw := bufio.NewWriter(w)
	if err := npy.WriteNPZ(bw, names, cols, &npy.NPZOptions{WriteOptions: npyWriteOptions(opts), Compress: opts.compress}); err != nil {
		return err
	}
	return bw.Flush()
}

// readNPZ reads the members of a .npz archive as columns.
func readNPZ(path string) ([]string, []*fixedshape.Array, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, nil, err
	}
	return npy.ReadNPZ(file, fi.Size(), nil)
}

// writeColumnFile writes col to w in a single-column format.
func writeColumnFile(w io.Writer, f format, col *fixedshape.Array, opts writeOptions) error {
	var b []byte
	switch f {
	case npyF:
		bw := bufio.NewWriter(w)
		o := npyWriteOptions(opts)
		if err := npy.WriteColumn(bw, col, &o); err != nil {
			return err
		}
		return bw.Flush()
	case tfprotoF:
		msgs, err := tfproto.AppendColumn(nil, col)
		if err != nil {
			return err
		}
		for _, m := range msgs {
			b = binary.AppendUvarint(b, uint64(len(m)))
			b = append(b, m...)
		}
	case zioF:
		m := &zio.Message{Form: "TENS"}
		if err := zio.AppendColumn(m, col); err != nil {
			return err
		}
		var err error
		if b, err = m.AppendEncode(nil); err != nil {
			return err
		}
	case dtF:
		var err error
		if b, err = decthings.AppendColumn(nil, col); err != nil {
			return err
		}
	default:
		return fmt.Errorf("format %s has no column writer", f)
	}
	_, err := w.Write(b)
	return err
}

// splitDelimited splits varint-length-delimited messages (protobuf's
// writeDelimitedTo framing), sharing b.
func splitDelimited(b []byte) ([][]byte, error) {
	var msgs [][]byte
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, fmt.Errorf("tfproto: message %d: bad or overlong length prefix", len(msgs))
		}
		if len(msgs) == maxMessages {
			return nil, fmt.Errorf("tfproto: more than %d messages", maxMessages)
		}
		msgs = append(msgs, b[k:k+int(n)])
		b = b[k+int(n):]
	}
	return msgs, nil
}
