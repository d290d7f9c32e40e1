package npy_test

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// rawEntry is one member of a zip built byte by byte, to say what
// archive/zip's writer never would.
type rawEntry struct {
	name   string
	method uint16
	flags  uint16
	data   []byte // the bytes stored, compressed or not
	crc    uint32
	usize  uint64 // declared uncompressed size
	csize  uint64 // declared compressed size
	sameAs int    // > 0: use the local header of entry sameAs-1
}

func stored(name string, content []byte) rawEntry {
	n := uint64(len(content))
	return rawEntry{name: name, method: zip.Store, data: content, crc: crc32.ChecksumIEEE(content), usize: n, csize: n}
}

func deflated(name string, content []byte) rawEntry {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(content)
	w.Close()
	return rawEntry{name: name, method: zip.Deflate, data: b.Bytes(), crc: crc32.ChecksumIEEE(content), usize: uint64(len(content)), csize: uint64(b.Len())}
}

// rawZip builds a zip archive of entries, without Zip64 or descriptors.
func rawZip(entries ...rawEntry) []byte {
	le := binary.LittleEndian
	var b []byte
	offs := make([]uint32, len(entries))
	for i, e := range entries {
		if e.sameAs > 0 {
			offs[i] = offs[e.sameAs-1]
			continue
		}
		offs[i] = uint32(len(b))
		b = le.AppendUint32(b, 0x04034b50)
		b = le.AppendUint16(b, 20)
		b = le.AppendUint16(b, e.flags)
		b = le.AppendUint16(b, e.method)
		b = le.AppendUint32(b, 0x00210000) // 1980-01-01 00:00
		b = le.AppendUint32(b, e.crc)
		b = le.AppendUint32(b, uint32(e.csize))
		b = le.AppendUint32(b, uint32(e.usize))
		b = le.AppendUint16(b, uint16(len(e.name)))
		b = le.AppendUint16(b, 0)
		b = append(b, e.name...)
		b = append(b, e.data...)
	}
	cd := len(b)
	for i, e := range entries {
		b = le.AppendUint32(b, 0x02014b50)
		b = le.AppendUint16(b, 20)
		b = le.AppendUint16(b, 20)
		b = le.AppendUint16(b, e.flags)
		b = le.AppendUint16(b, e.method)
		b = le.AppendUint32(b, 0x00210000)
		b = le.AppendUint32(b, e.crc)
		b = le.AppendUint32(b, uint32(e.csize))
		b = le.AppendUint32(b, uint32(e.usize))
		b = le.AppendUint16(b, uint16(len(e.name)))
		b = append(b, make([]byte, 12)...) // extra, comment, disk, attributes
		b = le.AppendUint32(b, offs[i])
		b = append(b, e.name...)
	}
	end := len(b)
	b = le.AppendUint32(b, 0x06054b50)
	b = le.AppendUint32(b, 0)
	b = le.AppendUint16(b, uint16(len(entries)))
	b = le.AppendUint16(b, uint16(len(entries)))
	b = le.AppendUint32(b, uint32(end-cd))
	b = le.AppendUint32(b, uint32(cd))
	return le.AppendUint16(b, 0)
}

// npyBytes writes a uint8 column of shape (n, d) holding 0, 1, 2, ...
func npyBytes(t testing.TB, n, d int) []byte {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{d}, nil, nil))
	v := make([]uint8, n*d)
	for i := range v {
		v[i] = uint8(i)
	}
	a, err := fixedshape.FromSlice(typ, v, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	var b bytes.Buffer
	if err := npy.WriteColumn(&b, a); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadNPZHostile(t *testing.T) {
	good := npyBytes(t, 2, 3)
	zeros := func() []byte { // a 16 MiB array of zeros: deflates ~1000:1
		h, _ := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Uint8, Shape: []int{4096, 4096}})
		return append(h, make([]byte, 4096*4096)...)
	}()
	zeroD := func() []byte {
		h, _ := npy.AppendHeader(nil, npy.Header{Type: arrow.PrimitiveTypes.Float64, Shape: []int{}})
		return append(h, make([]byte, 8)...)
	}()
	sizeZero := file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 0, 3), }", nil)
	huge := file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 4), }", nil)
	valid := rawZip(stored("a.npy", good), deflated("b.npy", good))
	with := func(e rawEntry, f func(*rawEntry)) rawEntry { f(&e); return e }
	tests := []struct {
		name      string
		zip       []byte
		opts      []npy.ReadOption
		wantNames []string
		wantErr   []error
	}{
		{name: "valid", zip: valid, wantNames: []string{"a", "b"}},
		{name: "trailing bytes in a member", zip: rawZip(stored("a.npy", append(append([]byte{}, good...), "tail"...))), wantNames: []string{"a"}},
		{name: "other members skipped", zip: rawZip(stored("README.txt", []byte("hi")), stored("dir/", nil), stored("x.npy", good), stored("x.NPY", []byte("?"))), wantNames: []string{"x"}},
		{name: "empty", zip: rawZip()},
		{name: "not a zip", zip: []byte("\x93NUMPY not a zip"), wantErr: []error{arrow.ErrInvalid, zip.ErrFormat}},
		{name: "truncated", zip: valid[:len(valid)-30], wantErr: []error{arrow.ErrInvalid}},
		{name: "duplicate members", zip: rawZip(stored("x.npy", good), stored("x.npy", good)), wantErr: []error{arrow.ErrInvalid}},
		{name: "too many members", zip: rawZip(stored("a.npy", good), stored("b.txt", nil), stored("c.npy", good)), opts: []npy.ReadOption{npy.WithMaxMembers(2)}, wantErr: []error{arrow.ErrInvalid}},
		{name: "members at the limit", zip: rawZip(stored("a.npy", good), stored("b.npy", good)), opts: []npy.ReadOption{npy.WithMaxMembers(2)}, wantNames: []string{"a", "b"}},
		{name: "total over the limit", zip: valid, opts: []npy.ReadOption{npy.WithMaxTotalSize(len(good) + 1)}, wantErr: []error{arrow.ErrInvalid}},
		{name: "total at the limit", zip: valid, opts: []npy.ReadOption{npy.WithMaxTotalSize(2 * len(good))}, wantNames: []string{"a", "b"}},
		{name: "zip bomb", zip: rawZip(deflated("z.npy", zeros)), opts: []npy.ReadOption{npy.WithMaxTotalSize(1 << 20)}, wantErr: []error{arrow.ErrInvalid}},
		{name: "zip bomb under a raised limit", zip: rawZip(deflated("z.npy", zeros)), opts: []npy.ReadOption{npy.WithMaxTotalSize(32 << 20)}, wantNames: []string{"z"}},
		// 1 GiB declared, under the lifted limit on either word size: the
		// deflate ratio check refuses it.
		{name: "declared beyond deflate", zip: rawZip(with(deflated("z.npy", good), func(e *rawEntry) { e.usize = 1 << 30 })), opts: []npy.ReadOption{npy.WithMaxTotalSize(math.MaxInt)}, wantErr: []error{arrow.ErrInvalid}},
		{name: "deflated declared short", zip: rawZip(with(deflated("z.npy", good), func(e *rawEntry) { e.usize = uint64(len(good) - 1) })), wantErr: []error{arrow.ErrInvalid}},
		{name: "deflated declared long", zip: rawZip(with(deflated("z.npy", good), func(e *rawEntry) { e.usize = uint64(len(good) + 1) })), wantErr: []error{arrow.ErrInvalid, io.ErrUnexpectedEOF}},
		{name: "stored sizes disagree", zip: rawZip(with(stored("s.npy", good), func(e *rawEntry) { e.usize++ })), wantErr: []error{arrow.ErrInvalid}},
		{name: "stored data overruns", zip: rawZip(with(stored("s.npy", good), func(e *rawEntry) { e.usize, e.csize = 1<<20, 1<<20 })), wantErr: []error{arrow.ErrInvalid}},
		{name: "bad checksum", zip: rawZip(with(stored("s.npy", good), func(e *rawEntry) { e.crc++ })), wantErr: []error{arrow.ErrInvalid, zip.ErrChecksum}},
		{name: "overlapping members", zip: rawZip(stored("a.npy", good), with(stored("b.npy", good), func(e *rawEntry) { e.sameAs = 1 })), wantErr: []error{arrow.ErrInvalid}},
		{name: "encrypted", zip: rawZip(with(stored("e.npy", good), func(e *rawEntry) { e.flags = 1 })), wantErr: []error{arrow.ErrInvalid}},
		{name: "bzip2", zip: rawZip(with(stored("b.npy", good), func(e *rawEntry) { e.method = 12 })), wantErr: []error{arrow.ErrInvalid}},
		{name: "garbage member", zip: rawZip(stored("a.npy", good), stored("g.npy", []byte("garbage"))), wantErr: []error{arrow.ErrInvalid}},
		{name: "0-D member", zip: rawZip(stored("s.npy", zeroD)), wantErr: []error{arrow.ErrInvalid}},
		{name: "size-0 dimension", zip: rawZip(stored("s.npy", sizeZero)), wantErr: []error{arrow.ErrInvalid, arrow.ErrNotImplemented}},
		{name: "overflowing shape", zip: rawZip(deflated("h.npy", huge)), wantErr: []error{arrow.ErrInvalid}},
		{name: "member data over MaxDataSize", zip: valid, opts: []npy.ReadOption{npy.WithMaxDataSize(5)}, wantErr: []error{arrow.ErrInvalid}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			names, cols, err := npz(tt.zip, append([]npy.ReadOption{npy.WithAllocator(mem)}, tt.opts...)...)
			defer release(cols)
			if tt.wantErr != nil {
				t.Log(err)
				for _, w := range tt.wantErr {
					if !errors.Is(err, w) {
						t.Errorf("error = %v, want %v", err, w)
					}
				}
				if names != nil || cols != nil {
					t.Errorf("%d names and %d columns besides the error", len(names), len(cols))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantNames, names); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			for i, c := range cols {
				if names[i] == "z" {
					continue
				}
				if diff := cmp.Diff([]float64{0, 1, 2, 3, 4, 5}, logical(t, c)); diff != "" {
					t.Errorf("column %q (-want +got):\n%s", names[i], diff)
				}
			}
		})
	}
}
