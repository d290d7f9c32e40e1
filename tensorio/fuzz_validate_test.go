package tensorio_test

import (
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// mutable holds the buffers of the batch FuzzWriteMutated mutates: a
// tensor column x (3 float32 2x2 tensors, row 1 null), a string column
// lbl ("a", "é€", "") and a list<int32> column l ([1 2], null, [3]).
type mutable struct {
	bufs [7][]byte
}

// Targets of a mutation, indices into mutable.bufs, and the width of
// the value a mutation writes into each.
var targetWidth = [7]int{
	1, // x validity bitmap
	4, // x elements
	4, // lbl offsets
	1, // lbl data
	4, // l offsets
	4, // l elements
	1, // l validity bitmap
}

func newMutable() *mutable {
	var m mutable
	m.bufs[0] = []byte{0b101}
	m.bufs[1] = make([]byte, 12*4)
	for i := range 12 {
		binary.LittleEndian.PutUint32(m.bufs[1][4*i:], uint32(i))
	}
	m.bufs[2] = i32bytes(0, 1, 6, 6)
	m.bufs[3] = []byte("aé€")
	m.bufs[4] = i32bytes(0, 2, 2, 3)
	m.bufs[5] = i32bytes(1, 2, 3)
	m.bufs[6] = []byte{0b101}
	return &m
}

func i32bytes(vs ...int32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
	return b
}

// mutate writes value, little-endian in the target's width, at the
// index-th value of the target buffer.
func (m *mutable) mutate(target uint8, index uint16, value uint32) {
	t := int(target) % len(m.bufs)
	w := targetWidth[t]
	b := m.bufs[t]
	at := int(index) % (len(b) / w) * w
	var v [4]byte
	binary.LittleEndian.PutUint32(v[:], value)
	copy(b[at:at+w], v[:w])
}

// batch builds the record batch over the buffers; ok is false when
// arrow-go's array constructors panic on them (a caller cannot make
// such a batch with arrow-go either).
func (m *mutable) batch() (rec arrow.RecordBatch, ok bool) {
	defer func() {
		if recover() != nil {
			rec, ok = nil, false
		}
	}()
	buf := memory.NewBufferBytes
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	xc := array.NewData(arrow.PrimitiveTypes.Float32, 12, []*memory.Buffer{nil, buf(m.bufs[1])}, nil, 0, 0)
	xd := array.NewData(typ, 3, []*memory.Buffer{buf(m.bufs[0])}, []arrow.ArrayData{xc}, 1, 0)
	sd := array.NewData(arrow.BinaryTypes.String, 3, []*memory.Buffer{nil, buf(m.bufs[2]), buf(m.bufs[3])}, nil, 0, 0)
	lt := arrow.ListOf(arrow.PrimitiveTypes.Int32)
	lc := array.NewData(arrow.PrimitiveTypes.Int32, 3, []*memory.Buffer{nil, buf(m.bufs[5])}, nil, 0, 0)
	ld := array.NewData(lt, 3, []*memory.Buffer{buf(m.bufs[6]), buf(m.bufs[4])}, []arrow.ArrayData{lc}, 1, 0)
	cols := []arrow.Array{array.MakeFromData(xd), array.MakeFromData(sd), array.MakeFromData(ld)}
	for _, d := range []arrow.ArrayData{xc, xd, sd, lc, ld} {
		d.Release()
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: typ, Nullable: true},
		{Name: "lbl", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "l", Type: lt, Nullable: true},
	}, nil)
	rec = array.NewRecordBatch(schema, cols, 3)
	for _, c := range cols {
		c.Release()
	}
	return rec, true
}

// FuzzWriteMutated writes a valid batch whose offsets, values or bitmaps
// one mutation changed, through every format that holds its columns:
// the writer either refuses it with an error wrapping arrow.ErrInvalid
// and leaves no file, or writes a file that reads back equal.
func FuzzWriteMutated(f *testing.F) {
	f.Add(uint8(2), uint16(1), uint32(4194304), uint8(0)) // the reproducer's offsets
	f.Add(uint8(2), uint16(1), uint32(4194304), uint8(2))
	f.Add(uint8(2), uint16(0), uint32(0xffffffff), uint8(1))
	f.Add(uint8(3), uint16(1), uint32(0xff), uint8(1))  // invalid UTF-8
	f.Add(uint8(3), uint16(0), uint32('b'), uint8(2))   // still valid
	f.Add(uint8(4), uint16(2), uint32(7), uint8(0))     // list offsets past the child
	f.Add(uint8(4), uint16(1), uint32(1), uint8(1))     // still valid
	f.Add(uint8(0), uint16(0), uint32(0b111), uint8(0)) // null count contradicts the bitmap
	f.Add(uint8(1), uint16(5), uint32(0x7fc00001), uint8(2))
	f.Add(uint8(6), uint16(0), uint32(0b011), uint8(1))
	formats := []tensorio.Format{tensorio.IPCFile, tensorio.IPCStream, tensorio.Parquet}
	f.Fuzz(func(t *testing.T, target uint8, index uint16, value uint32, format uint8) {
		m := newMutable()
		m.mutate(target, index, value)
		rec, ok := m.batch()
		if !ok {
			return
		}
		defer rec.Release()
		ft := formats[int(format)%len(formats)]
		dir := t.TempDir()
		path := filepath.Join(dir, "out")
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		w, err := tensorio.Create(path, rec.Schema(), tensorio.WithFormat(ft), tensorio.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(rec)
		if err == nil {
			err = w.Close()
		}
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			if names := testvec.DirNames(t, dir); len(names) != 0 {
				t.Fatalf("files left after %v: %q", err, names)
			}
			return
		}
		r, err := tensorio.Open(path, tensorio.WithFormat(ft), tensorio.WithAllocator(mem))
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		defer r.Release()
		var got []arrow.RecordBatch
		for r.Next() {
			b := r.RecordBatch()
			b.Retain()
			got = append(got, b)
		}
		defer func() {
			for _, b := range got {
				b.Release()
			}
		}()
		if err := r.Err(); err != nil {
			t.Fatalf("reading back: %v", err)
		}
		// NaN elements compare equal; other values exactly.
		if len(got) != 1 || !array.RecordApproxEqual(rec, got[0], array.WithNaNsEqual(true), array.WithAbsTolerance(0)) {
			t.Fatalf("read back %v, wrote %v", got, rec)
		}
	})
}
