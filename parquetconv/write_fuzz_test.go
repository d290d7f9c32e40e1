package parquetconv_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// FuzzWriteRoundTrip writes a tensor column whose element type, shape,
// permutation, rows, nulls, slice, element bits and writer options come
// from the input, reads it back (uncompressed files also through
// OpenFile, which maps them) and requires every bit to survive.
func FuzzWriteRoundTrip(f *testing.F) {
	f.Add([]byte{9, 2, 3, 2, 1, 10, 0x55, 0x0f, 2, 0x03, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{0, 0, 40, 0xff, 0xff, 0, 0x1c, 7, 0x80})
	f.Add([]byte{10, 3, 2, 3, 4, 2, 5, 0xa5, 0x5a, 1, 0x26, 0xff, 0xf8, 0x7f, 0x01})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, in []byte) {
		next := func() int {
			if len(in) == 0 {
				return 0
			}
			b := in[0]
			in = in[1:]
			return int(b)
		}
		elem := elemTypes[next()%len(elemTypes)]
		ndim := next() % 4
		shape := make([]int, ndim)
		for i := range shape {
			shape[i] = 1 + next()%5
		}
		var perm []int
		if ndim == 3 && next()%2 == 1 {
			perm = []int{2, 0, 1}
		}
		rows := next() % 50
		nullMask := uint16(next()) | uint16(next())<<8
		from := next() % (rows + 1)
		flags := next()
		m, err := metadata.New(shape, nil, perm)
		if err != nil {
			t.Skip(err)
		}
		typ, err := fixedshape.NewType(elem, m)
		if err != nil {
			t.Skip(err)
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		valid := make([]bool, rows)
		for i := range valid {
			valid[i] = nullMask>>(i%16)&1 == 0
		}
		arr := seqColumn(t, mem, typ, rows, valid)
		defer arr.Release()
		// Element bits from the rest of the input, cycled.
		if len(in) > 0 {
			b := arr.ValueBytes()
			for i := range b {
				b[i] = in[i%len(in)]
			}
		}
		rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}}, nil), []arrow.Array{arr}, int64(rows))
		defer rec.Release()
		s := sliceRecord(rec, from, rows)
		defer s.Release()

		opts := []parquetconv.Option{parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(1 + flags>>5)}
		if flags&1 != 0 {
			opts = append(opts, parquetconv.WithDataPageV2())
		}
		if flags&2 != 0 {
			opts = append(opts, parquetconv.WithByteStreamSplit())
		}
		if flags&4 != 0 {
			opts = append(opts, parquetconv.WithIdentityDictionary())
		}
		codecs := []parquetconv.Compression{parquetconv.Uncompressed, parquetconv.Snappy, parquetconv.ZSTD, parquetconv.LZ4}
		opts = append(opts, parquetconv.WithCompression(codecs[flags>>3&3]))
		var buf bytes.Buffer
		w, err := parquetconv.NewWriter(&buf, s.Schema(), opts...)
		if err != nil {
			t.Fatal(err)
		}
		testvec.WriteAll(t, w, s)
		r, err := parquetconv.NewReader(bytes.NewReader(buf.Bytes()), parquetconv.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		checkReadAll(t, s, r)
		if flags>>3&3 != 0 {
			return
		}
		// Uncompressed: also from a file, whose single-page chunks
		// without null tensors come back where they lie in the mapping.
		path := filepath.Join(dir, "f.parquet")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		mr, err := parquetconv.OpenFile(path, parquetconv.WithAllocator(mem))
		if err != nil {
			t.Fatal(err)
		}
		defer mr.Release()
		checkReadAll(t, s, mr)
	})
}
