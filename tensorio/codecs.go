package tensorio

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
)

// readColumnFile reads a file of a single-column format as one column,
// and returns the function that unmaps it (nil unless mapped).
func readColumnFile(path string, f Format, c *config) (*fixedshape.Array, func() error, error) {
	if f == NPY {
		ro := npy.WithAllocator(c.mem)
		if c.mapped {
			var col *fixedshape.Array
			var cl io.Closer
			var err error
			if c.single {
				col, cl, err = npy.MapTensor(path, ro)
			} else {
				col, cl, err = npy.MapColumn(path, ro)
			}
			if err != nil {
				return nil, nil, err
			}
			return col, cl.Close, nil
		}
		file, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer file.Close()
		var col *fixedshape.Array
		if c.single {
			col, err = npy.ReadTensor(bufio.NewReader(file), ro)
		} else {
			col, err = npy.ReadColumn(bufio.NewReader(file), ro)
		}
		return col, nil, err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	col, err := decodeColumn(b, f)
	return col, nil, err
}

// readColumnStream reads a stream of a single-column format whole, as one
// column.
func readColumnStream(r *bufio.Reader, f Format, c *config) (*fixedshape.Array, error) {
	if f == NPY {
		ro := npy.WithAllocator(c.mem)
		if c.single {
			return npy.ReadTensor(r, ro)
		}
		return npy.ReadColumn(r, ro)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return decodeColumn(b, f)
}

// decodeColumn decodes the bytes of a .pb, .zio or .dt file as a column.
func decodeColumn(b []byte, f Format) (*fixedshape.Array, error) {
	var col *fixedshape.Array
	var err error
	switch f {
	case TFProto:
		col, err = tfproto.ReadDelimited(b)
	case ZIO:
		var m *zio.Message
		if m, err = zio.Decode(b); err == nil {
			col, err = zio.ReadColumn(m)
		}
	case Decthings:
		col, err = decthings.ReadColumn(b)
	default:
		err = fmt.Errorf("tensorio: format %s has no column reader: %w", f, arrow.ErrInvalid)
	}
	return col, err
}

// readNPZ reads the members of a .npz archive as columns.
func readNPZ(path string, c *config) ([]string, []*fixedshape.Array, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, nil, err
	}
	return npy.ReadNPZ(file, fi.Size(), npy.WithAllocator(c.mem))
}

// checkFill refuses a fill value (WithFillNulls) that the element type of
// a tensor column of schema cannot hold (see npy.CheckFill), naming the
// column, with an error wrapping ErrMismatch and npy.ErrFill.
func checkFill(schema *arrow.Schema, v float64) error {
	for _, fld := range schema.Fields() {
		typ, ok := fixedshape.TypeOf(fld.Type)
		if !ok {
			continue
		}
		if err := npy.CheckFill(typ.ElemType(), v); err != nil {
			return &fillError{msg: fmt.Sprintf("tensorio: column %q: %v", fld.Name, err), err: err}
		}
	}
	return nil
}

// fillError is checkFill's error: a mismatch of options and schema that
// keeps the codec's error.
type fillError struct {
	msg string
	err error
}

func (e *fillError) Error() string   { return e.msg }
func (e *fillError) Unwrap() []error { return []error{ErrMismatch, e.err} }

// writeColumns writes the columns in a tensors-only format: .npz members
// or, for the other formats, the one column.
func writeColumns(w io.Writer, f Format, names []string, cols []*fixedshape.Array, c *config) error {
	var wo []npy.WriteOption
	if c.fill {
		wo = append(wo, npy.WithFillNulls(c.fillWith))
	}
	bw := bufio.NewWriter(w)
	var err error
	switch f {
	case NPZ:
		err = npy.WriteNPZ(bw, names, cols, append(wo, npy.WithCompression(c.compression))...)
	case NPY:
		err = npy.WriteColumn(bw, cols[0], wo...)
	case TFProto:
		var msgs [][]byte
		if msgs, err = tfproto.AppendColumn(nil, cols[0]); err == nil {
			_, err = bw.Write(tfproto.AppendDelimited(nil, msgs))
		}
	case ZIO:
		m := &zio.Message{Form: "TENS"}
		if err = zio.AppendColumn(m, cols[0]); err == nil {
			var b []byte
			if b, err = m.AppendEncode(nil); err == nil {
				_, err = bw.Write(b)
			}
		}
	case Decthings:
		var b []byte
		if b, err = decthings.AppendColumn(nil, cols[0]); err == nil {
			_, err = bw.Write(b)
		}
	default:
		err = fmt.Errorf("tensorio: format %s has no column writer: %w", f, arrow.ErrInvalid)
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}
