package arrowipc_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// framed is one IPC message as a transport carries it.
type framed struct{ meta, body []byte }

// countingReader counts the bytes read.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// framedMessages writes col as an IPC stream of batches of 2 rows and
// splits it into its messages.
func framedMessages(t testing.TB, col *fixedshape.Array) []framed {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: col.DataType(), Nullable: true}}, nil)
	var buf bytes.Buffer
	w, err := arrowipc.NewIPCStreamWriter(&buf, schema)
	if err != nil {
		t.Fatal(err)
	}
	for lo := 0; lo < col.Len(); lo += 2 {
		part := array.NewSlice(col, int64(lo), int64(min(lo+2, col.Len())))
		rec := array.NewRecordBatch(schema, []arrow.Array{part}, int64(part.Len()))
		err := w.Write(rec)
		rec.Release()
		part.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return splitMessages(t, buf.Bytes())
}

// splitMessages splits the IPC stream data into its messages, as
// arrow-go's message reader reads them.
func splitMessages(t testing.TB, data []byte) []framed {
	t.Helper()
	cr := &countingReader{r: bytes.NewReader(data)}
	mr := ipc.NewMessageReader(cr)
	defer mr.Release()
	var out []framed
	for {
		before := cr.n
		msg, err := mr.Message()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		after := cr.n
		body := int(msg.BodyLen())
		out = append(out, framed{meta: data[before+8 : after-body], body: data[after-body : after]})
	}
}

// nextOf returns a next function over msgs, then err (io.EOF if nil).
func nextOf(msgs []framed, err error) func() ([]byte, []byte, error) {
	if err == nil {
		err = io.EOF
	}
	return func() ([]byte, []byte, error) {
		if len(msgs) == 0 {
			return nil, nil, err
		}
		m := msgs[0]
		msgs = msgs[1:]
		return m.meta, m.body, nil
	}
}

// readAll reads every batch of r and concatenates column 0.
func readAll(t *testing.T, mem memory.Allocator, r array.RecordReader) (*fixedshape.Array, error) {
	t.Helper()
	defer r.Release()
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for r.Next() {
		c := r.RecordBatch().Column(0)
		c.Retain()
		parts = append(parts, c)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	all, err := array.Concatenate(parts, mem)
	if err != nil {
		t.Fatal(err)
	}
	return all.(*fixedshape.Array), nil
}

func TestIPCMessageReader(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3, 4, 2}, nil, []int{2, 0, 1}))
	mem := testvec.CheckedMem(t)
	col := testvec.SeqColumn(t, mem, typ, 5, []bool{true, false, true, true, true})
	defer col.Release()
	msgs := framedMessages(t, col)
	if len(msgs) != 4 {
		t.Fatalf("%d messages, want a schema and 3 batches", len(msgs))
	}
	moved := make([]framed, len(msgs)) // the bodies, unaligned
	for i, m := range msgs {
		b := make([]byte, len(m.body)+1)
		copy(b[1:], m.body)
		moved[i] = framed{meta: m.meta, body: b[1:]}
	}
	for _, tc := range []struct {
		name string
		msgs []framed
	}{{"round trip", msgs}, {"unaligned bodies", moved}} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := arrowipc.NewIPCMessageReader(nextOf(tc.msgs, nil), arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(t, mem, r)
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if !fixedshape.Equal(col, got) {
				t.Errorf("got %v\nwant %v", got, col)
			}
		})
	}
	errStop := errors.New("transport gone")
	short := append([]framed{msgs[0]}, framed{meta: msgs[1].meta, body: msgs[1].body[:len(msgs[1].body)-8]})
	garbage := append([]framed{msgs[0]}, framed{meta: bytes.Repeat([]byte{0xff}, 64), body: nil})
	for _, tc := range []struct {
		name  string
		msgs  []framed
		err   error
		limit int64
		want  error
	}{
		{"batch before schema", msgs[1:], nil, 0, arrow.ErrInvalid},
		{"empty", nil, nil, 0, arrow.ErrInvalid},
		{"garbage metadata", garbage, nil, 0, arrow.ErrInvalid},
		{"tiny metadata", []framed{{meta: []byte{1}}}, nil, 0, arrow.ErrInvalid},
		{"short body", short, nil, 0, arrow.ErrInvalid},
		{"body over the limit", msgs, nil, 16, arrow.ErrInvalid},
		{"transport error", msgs[:2], errStop, 0, errStop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []arrowipc.Option{arrowipc.WithAllocator(mem)}
			if tc.limit > 0 {
				opts = append(opts, arrowipc.WithBodySizeLimit(tc.limit))
			}
			r, err := arrowipc.NewIPCMessageReader(nextOf(tc.msgs, tc.err), opts...)
			if err == nil {
				var got *fixedshape.Array
				got, err = readAll(t, mem, r)
				if got != nil {
					got.Release()
				}
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("error %v, want one wrapping %v", err, tc.want)
			}
		})
	}
}

// FuzzIPCMessageReader feeds a valid schema message, then arbitrary
// metadata and body: no panic, no leak.
func FuzzIPCMessageReader(f *testing.F) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int16, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
	col := testvec.SeqColumn(f, memory.DefaultAllocator, typ, 3, nil)
	msgs := framedMessages(f, col)
	col.Release()
	for _, m := range msgs[1:] {
		f.Add(m.meta, m.body)
	}
	f.Fuzz(func(t *testing.T, meta, body []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		r, err := arrowipc.NewIPCMessageReader(nextOf([]framed{msgs[0], {meta: meta, body: body}}, nil), arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(1<<20))
		if err != nil {
			return
		}
		for r.Next() {
		}
		r.Release()
	})
}
