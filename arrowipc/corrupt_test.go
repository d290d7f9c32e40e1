package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/tensorio"
)

// This file corrupts the buffers of valid IPC files and streams in
// place (field node lengths, buffer lengths, offsets) and checks that
// every reader refuses them before arrow-go's decoder sees them: an error
// wrapping arrow.ErrInvalid, no decoder panic recovered, nothing left in
// the allocator.

// ipcMsgAt is one message of an IPC stream or file, its metadata and
// body aliasing the bytes they were found in.
type ipcMsgAt struct {
	meta, body []byte
	dict       bool // a DictionaryBatch: vec looks into its data
}

func le32(b []byte, p int) int { return int(binary.LittleEndian.Uint32(b[p:])) }

// fbField returns the position of field id of the table at tab, -1 when
// absent.
func fbField(b []byte, tab, id int) int {
	vt := tab - int(int32(binary.LittleEndian.Uint32(b[tab:])))
	if 4+2*id >= int(binary.LittleEndian.Uint16(b[vt:])) {
		return -1
	}
	off := int(binary.LittleEndian.Uint16(b[vt+4+2*id:]))
	if off == 0 {
		return -1
	}
	return tab + off
}

// messagesAt splits n messages of data from offset at.
func messagesAt(t testing.TB, data []byte, at, n int) []ipcMsgAt {
	t.Helper()
	var out []ipcMsgAt
	for range n {
		if binary.LittleEndian.Uint32(data[at:]) == 0xFFFFFFFF { // continuation marker
			at += 4
		}
		size := le32(data, at)
		if size == 0 { // end of stream
			break
		}
		meta := data[at+4 : at+4+size]
		root := le32(meta, 0)
		bodyLen := 0
		if p := fbField(meta, root, 3); p >= 0 {
			bodyLen = int(binary.LittleEndian.Uint64(meta[p:]))
		}
		start := at + 4 + size
		out = append(out, ipcMsgAt{meta: meta, body: data[start : start+bodyLen]})
		at = start + bodyLen
	}
	return out
}

// vec returns the start and length of vector id (1 nodes, 2 buffers) of
// the record batch of m, elements 16 bytes each.
func (m ipcMsgAt) vec(id int) (start, n int) {
	root := le32(m.meta, 0)
	p := fbField(m.meta, root, 2)
	hdr := p + le32(m.meta, p)
	if m.dict {
		p = fbField(m.meta, hdr, 1)
		hdr = p + le32(m.meta, p)
	}
	p = fbField(m.meta, hdr, id)
	v := p + le32(m.meta, p)
	return v + 4, le32(m.meta, v)
}

// set64 sets word w (0 or 1) of element i of vector id.
func (m ipcMsgAt) set64(id, i, w int, v int64) {
	start, _ := m.vec(id)
	binary.LittleEndian.PutUint64(m.meta[start+16*i+8*w:], uint64(v))
}

// get64 returns word w of element i of vector id.
func (m ipcMsgAt) get64(id, i, w int) int64 {
	start, _ := m.vec(id)
	return int64(binary.LittleEndian.Uint64(m.meta[start+16*i+8*w:]))
}

// corruption is a valid single-batch record and how to break its batch.
type corruption struct {
	name     string
	rec      func(mem memory.Allocator) arrow.RecordBatch
	compress arrowipc.Compression
	dict     bool // break the dictionary batch (else the record batch)
	break_   func(m ipcMsgAt)
}

func oneColumn(name string, arr arrow.Array) arrow.RecordBatch {
	defer arr.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: name, Type: arr.DataType(), Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{arr}, int64(arr.Len()))
}

// colorsRecord returns a record of a dictionary-encoded string column.
func colorsRecord(mem memory.Allocator) arrow.RecordBatch {
	sb := array.NewStringBuilder(mem)
	defer sb.Release()
	sb.AppendValues([]string{"red", "green", "blue"}, nil)
	dict := sb.NewArray()
	defer dict.Release()
	ib := array.NewInt32Builder(mem)
	defer ib.Release()
	ib.AppendValues([]int32{0, 2, 1, 1}, nil)
	idx := ib.NewArray()
	defer idx.Release()
	typ := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	return oneColumn("colors", array.NewDictionaryArray(typ, idx, dict))
}

// eitherRecord returns a record of a sparse union of int64 and float64.
func eitherRecord(mem memory.Allocator) arrow.RecordBatch {
	tb := array.NewInt8Builder(mem)
	defer tb.Release()
	tb.AppendValues([]int8{0, 1, 0, 1}, nil)
	ids := tb.NewArray()
	defer ids.Release()
	ab := array.NewInt64Builder(mem)
	defer ab.Release()
	ab.AppendValues([]int64{1, 2, 3, 4}, nil)
	a := ab.NewArray()
	defer a.Release()
	fb := array.NewFloat64Builder(mem)
	defer fb.Release()
	fb.AppendValues([]float64{1, 2, 3, 4}, nil)
	f := fb.NewArray()
	defer f.Release()
	u, err := array.NewSparseUnionFromArrays(ids, []arrow.Array{a, f})
	if err != nil {
		panic(err)
	}
	return oneColumn("either", u)
}

// corruptions returns the table of TestCorruptBuffers and its kin.
func corruptions() []corruption {
	const (
		nodes   = 1
		buffers = 2
		length  = 1 // word of a node or a buffer
	)
	return []corruption{
		{
			name: "short validity bitmap",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewInt32Builder(mem)
				defer b.Release()
				for i := range 100 {
					b.AppendValues([]int32{int32(i)}, []bool{i%3 != 0})
				}
				return oneColumn("ints", b.NewArray())
			},
			break_: func(m ipcMsgAt) { m.set64(buffers, 0, length, 8) }, // 100 rows need 13
		},
		{
			name: "short string offsets",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewStringBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"a", "bb", "ccc", "dddd", "e", "f", "g", "h", "i", "j"}, nil)
				return oneColumn("words", b.NewArray())
			},
			break_: func(m ipcMsgAt) { m.set64(buffers, 1, length, 20) }, // 11 offsets need 44
		},
		{
			name: "string last offset past the data",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewStringBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"a", "bb", "ccc", "dddd"}, nil)
				return oneColumn("words", b.NewArray())
			},
			break_: func(m ipcMsgAt) {
				off := m.get64(buffers, 1, 0)
				binary.LittleEndian.PutUint32(m.body[off+4*4:], 1000)
			},
		},
		{
			name: "struct child shorter than the struct",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewStructBuilder(mem, arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}))
				defer b.Release()
				for i := range 10 {
					b.Append(true)
					b.FieldBuilder(0).(*array.Int64Builder).Append(int64(i))
				}
				return oneColumn("pairs", b.NewArray())
			},
			break_: func(m ipcMsgAt) { m.set64(nodes, 1, 0, 5) },
		},
		{
			name: "list offsets past the child",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewListBuilder(mem, arrow.PrimitiveTypes.Int32)
				defer b.Release()
				vb := b.ValueBuilder().(*array.Int32Builder)
				for i := range 10 {
					b.Append(true)
					vb.AppendValues([]int32{int32(i), int32(i), int32(i)}, nil)
				}
				return oneColumn("lists", b.NewArray())
			},
			break_: func(m ipcMsgAt) { m.set64(nodes, 1, 0, 20) }, // offsets end at 30
		},
		{
			name: "compressed values shorter than the length",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewInt64Builder(mem)
				defer b.Release()
				for i := range 100 {
					b.Append(int64(i))
				}
				return oneColumn("ints", b.NewArray())
			},
			compress: arrowipc.ZSTD,
			break_: func(m ipcMsgAt) { // the uncompressed length prefix
				binary.LittleEndian.PutUint64(m.body[m.get64(buffers, 1, 0):], 16)
			},
		},
		{
			name:   "dictionary offsets past its data",
			rec:    colorsRecord,
			dict:   true,
			break_: func(m ipcMsgAt) { m.set64(buffers, 2, length, 4) }, // 12 bytes of data
		},
		{
			name:   "sparse union child shorter than the union",
			rec:    eitherRecord,
			break_: func(m ipcMsgAt) { m.set64(nodes, 2, 0, 2) },
		},
		{
			name: "short string views",
			rec: func(mem memory.Allocator) arrow.RecordBatch {
				b := array.NewStringViewBuilder(mem)
				defer b.Release()
				b.AppendValues([]string{"a", "long enough to be out of line", "c"}, nil)
				return oneColumn("views", b.NewArray())
			},
			break_: func(m ipcMsgAt) { m.set64(buffers, 1, length, 32) }, // 3 views need 48
		},
	}
}

// encodeIPC writes rec as an IPC file or stream.
func encodeIPC(t testing.TB, rec arrow.RecordBatch, file bool, compress arrowipc.Compression) []byte {
	t.Helper()
	return writeIPC(t, file, []arrow.RecordBatch{rec}, arrowipc.WithCompression(compress))
}

// ipcReaders are the readers every corrupt input goes through: each
// reads every batch of a file or stream in memory or at path.
type ipcReader struct {
	name string
	file bool // reads the file form (else the stream form)
	read func(t *testing.T, data []byte, path string, mem memory.Allocator) error
}

func ipcReaders() []ipcReader {
	return []ipcReader{
		{"OpenIPCFile", true, func(t *testing.T, _ []byte, path string, mem memory.Allocator) error {
			return readFile(arrowipc.OpenIPCFile)(path, arrowipc.WithAllocator(mem))
		}},
		{"OpenMappedIPCFile", true, func(t *testing.T, _ []byte, path string, mem memory.Allocator) error {
			return readFile(arrowipc.OpenMappedIPCFile)(path, arrowipc.WithAllocator(mem))
		}},
		{"NewIPCFileReader", true, func(t *testing.T, data []byte, _ string, mem memory.Allocator) error {
			return readFile(func(string, ...arrowipc.Option) (*arrowipc.FileReader, error) {
				return arrowipc.NewIPCFileReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
			})("", arrowipc.WithAllocator(mem))
		}},
		{"tensorio.Open file", true, readTensorio},
		{"NewIPCStreamReader", false, func(t *testing.T, _ []byte, path string, mem memory.Allocator) error {
			return readStreamFile(path, arrowipc.WithAllocator(mem))
		}},
		{"NewIPCMessageReader", false, func(t *testing.T, data []byte, _ string, mem memory.Allocator) error {
			var msgs []framed
			for at := 0; at+8 <= len(data) && binary.LittleEndian.Uint32(data[at:]) == 0xFFFFFFFF && le32(data, at+4) != 0; {
				size := le32(data, at+4)
				if size > len(data)-at-8 {
					break
				}
				meta := data[at+8 : at+8+size]
				body, n := data[at+8+size:], 0
				if p := fbField(meta, le32(meta, 0), 3); p >= 0 {
					n = int(binary.LittleEndian.Uint64(meta[p:]))
				}
				body = body[:min(len(body), n)]
				msgs = append(msgs, framed{meta: meta, body: body})
				at += 8 + size + len(body)
			}
			return testvec.Drain(arrowipc.NewIPCMessageReader(nextOf(msgs, nil), arrowipc.WithAllocator(mem)))
		}},
		{"tensorio.Open stream", false, readTensorio},
	}
}

func readTensorio(t *testing.T, _ []byte, path string, mem memory.Allocator) error {
	return testvec.Drain(tensorio.Open(path, tensorio.WithAllocator(mem)))
}

// TestCorruptBuffersLeaveNothing runs each corruption, and the two
// corrupt inputs of testdata, through every reader.
func TestCorruptBuffersLeaveNothing(t *testing.T) {
	dir := t.TempDir()
	type input struct {
		name, path string
		data       []byte
		file, dict bool
	}
	var inputs []input
	var controls []input
	for _, c := range corruptions() {
		for _, file := range []bool{true, false} {
			rec := c.rec(memory.DefaultAllocator)
			data := encodeIPC(t, rec, file, c.compress)
			rec.Release()
			ext, at := ".arrows", 0
			if file {
				ext, at = ".arrow", 8
			}
			good := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+"_ok"+ext)
			if err := os.WriteFile(good, data, 0o644); err != nil {
				t.Fatal(err)
			}
			controls = append(controls, input{c.name, good, data, file, c.dict})
			bad := bytes.Clone(data)
			c.break_(target(t, c, bad, at))
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+ext)
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, input{c.name, path, bad, file, c.dict})
		}
	}
	for _, f := range []struct {
		name string
		file bool
	}{{"leak_ipcfile_short_int64_buffer.arrow", true}, {"leak_ipcstream_child_len.arrows", false}} {
		path := filepath.Join("testdata", f.name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, input{f.name, path, data, f.file, false})
	}

	for _, r := range ipcReaders() {
		for _, in := range inputs {
			if in.file != r.file {
				continue
			}
			t.Run(r.name+"/"+in.name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				err := r.read(t, in.data, in.path, mem)
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("err = %v, want arrow.ErrInvalid", err)
				}
				// The readers' recovery of a decoder panic says so; the
				// check must come first.
				if strings.Contains(err.Error(), "malformed input") {
					t.Errorf("err = %v, from a decoder panic", err)
				}
			})
		}
		for _, in := range controls {
			if in.file != r.file || in.dict && r.name == "OpenMappedIPCFile" {
				continue // arrow-go's mapped reader cannot read dictionaries
			}
			t.Run(r.name+"/control "+in.name, func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				if err := r.read(t, in.data, in.path, mem); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// corruptSeeds returns, for the fuzz targets, each corruption's valid
// and broken IPC file (file) or stream.
func corruptSeeds(f *testing.F, file bool) [][]byte {
	var out [][]byte
	at := 0
	if file {
		at = 8
	}
	for _, c := range corruptions() {
		rec := c.rec(memory.DefaultAllocator)
		data := encodeIPC(f, rec, file, c.compress)
		rec.Release()
		bad := bytes.Clone(data)
		c.break_(target(f, c, bad, at))
		out = append(out, data, bad)
	}
	return out
}

// target returns the message of data, whose messages start at offset at,
// that corruption c breaks: the dictionary batch or the record batch
// after the schema (and dictionary).
func target(t testing.TB, c corruption, data []byte, at int) ipcMsgAt {
	if c.dict {
		m := messagesAt(t, data, at, 2)[1]
		m.dict = true
		return m
	}
	for _, m := range messagesAt(t, data, at, 3) {
		if p := fbField(m.meta, le32(m.meta, 0), 1); p >= 0 && m.meta[p] == 3 { // a RecordBatch
			return m
		}
	}
	t.Fatal("no record batch")
	return ipcMsgAt{}
}
