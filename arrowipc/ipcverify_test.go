package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/arrowipc"
)

// craftLimit is the body size limit of the crafted-input tests.
const craftLimit = 1 << 20

// maxCraftAlloc bounds the Go heap a reader may allocate to refuse one
// crafted input: arrow-go, unchecked, asks for gigabytes or more.
const maxCraftAlloc = 16 << 20

// intSchema is a schema of one int32 field.
func intSchema(b ipcb) uoff {
	f := b.field(fieldSpec{name: "x", typ: tInt, typTable: b.intType(32)})
	return b.schema(b.offsets(f), 0)
}

// viewSchema is a schema of one utf8_view field.
func viewSchema(b ipcb) uoff {
	return b.schema(b.offsets(b.field(fieldSpec{name: "v", typ: tUtf8View})), 0)
}

// tensorSchema is a schema of one fixed_shape_tensor field of int32
// tensors of shape (2).
func tensorSchema(b ipcb) uoff {
	item := b.field(fieldSpec{name: "item", typ: tInt, typTable: b.intType(32)})
	b.StartObject(1)
	b.PrependInt32Slot(0, 2, 0)
	size := b.EndObject()
	meta := b.offsets(
		b.kv(b.CreateString("ARROW:extension:name"), b.CreateString("arrow.fixed_shape_tensor")),
		b.kv(b.CreateString("ARROW:extension:metadata"), b.CreateString(`{"shape":[2]}`)),
	)
	t := b.field(fieldSpec{name: "t", typ: tFixedSizeList, typTable: size, children: b.offsets(item), meta: meta})
	return b.schema(b.offsets(t), 0)
}

// tensorBatch is a valid batch of n tensors of tensorSchema, without
// nulls, whose values start at byte 8 of the body.
func tensorBatch(n int64) (batchSpec, int64) {
	return batchSpec{
		length:  n,
		nodes:   [][2]int64{{n, 0}, {2 * n, 0}},
		buffers: [][2]int64{{0, 0}, {0, 0}, {8, 8 * n}},
	}, 8 + 8*n
}

// dictViewSchema is a schema of one utf8_view field, dictionary encoded
// with id 0 and int32 indices.
func dictViewSchema(b ipcb) uoff {
	idx := b.intType(32)
	b.StartObject(4)
	b.PrependUOffsetTSlot(1, idx, 0)
	dict := b.EndObject()
	return b.schema(b.offsets(b.field(fieldSpec{name: "d", typ: tUtf8View, dict: dict})), 0)
}

// kvLengthSchema is a schema whose custom metadata vector holds one
// key-value but claims n.
func kvLengthSchema(n uint32) schemaFunc {
	return func(b ipcb) uoff {
		vec := b.offsets(b.kv(b.CreateString("k"), b.CreateString("v")))
		b.setLen(vec, n)
		return b.schema(b.offsets(), vec)
	}
}

// nestedLists is a schema of one field of depth+1 nested lists of int32
// (depth levels of children below the top field).
func nestedLists(depth int) schemaFunc {
	return func(b ipcb) uoff {
		f := b.field(fieldSpec{name: "leaf", typ: tInt, typTable: b.intType(32)})
		for range depth {
			f = b.field(fieldSpec{name: "l", typ: tList, children: b.offsets(f)})
		}
		return b.schema(b.offsets(f), 0)
	}
}

// sharedChildren is a schema of depth levels of struct-less fields whose
// two children are one shared table: 2^depth fields once expanded.
func sharedChildren(depth int) schemaFunc {
	return func(b ipcb) uoff {
		f := b.field(fieldSpec{name: "leaf", typ: tInt, typTable: b.intType(32)})
		for range depth {
			f = b.field(fieldSpec{name: "s", typ: 13, children: b.offsets(f, f)})
		}
		return b.schema(b.offsets(f), 0)
	}
}

// cyclicField returns the bytes of a schema message whose field lists
// itself as its child: its children vector holds an offset that wraps
// around 2^32 back to the field.
func cyclicField() []byte {
	b := newIPCB()
	leaf := b.field(fieldSpec{name: "leaf", typ: tInt, typTable: b.intType(32)})
	kids := b.offsets(leaf)
	f := b.field(fieldSpec{name: "cyc", typ: 13, children: kids})
	fin := b.message(hdrSchema, b.schema(b.offsets(f), 0), 0)
	slot := pos(fin, kids) + 4
	patch32(fin, slot, uint32(int32(pos(fin, f)-slot)))
	return fin
}

// sharedStrings is a schema whose n key-values are one table whose key
// and value are one string of size bytes.
func sharedStrings(n, size int) schemaFunc {
	return func(b ipcb) uoff {
		s := b.CreateString(string(bytes.Repeat([]byte("s"), size)))
		kv := b.kv(s, s)
		kvs := make([]uoff, n)
		for i := range kvs {
			kvs[i] = kv
		}
		return b.schema(b.offsets(), b.offsets(kvs...))
	}
}

// sharedUnion is a schema of n fields that are one dense union table
// with ids type ids.
func sharedUnion(n, ids int) schemaFunc {
	return func(b ipcb) uoff {
		u := b.union(make([]int32, ids))
		f := b.field(fieldSpec{name: "u", typ: tUnion, typTable: u})
		fs := make([]uoff, n)
		for i := range fs {
			fs[i] = f
		}
		return b.schema(b.offsets(fs...), 0)
	}
}

// tensorMsg returns a Tensor message, which the readers cannot use.
func tensorMsg() ipcMsg {
	b := newIPCB()
	return ipcMsg{meta: b.message(hdrTensor, b.empty(), 0)}
}

// batch returns a record batch message.
func batch(s batchSpec, bodyLen int64) ipcMsg {
	b := newIPCB()
	return ipcMsg{meta: b.message(hdrRecordBatch, b.recordBatch(s), bodyLen), body: make([]byte, bodyLen)}
}

// dictBatch returns a dictionary batch message of id 0.
func dictBatch(s batchSpec, bodyLen int64) ipcMsg {
	b := newIPCB()
	return ipcMsg{meta: b.message(hdrDictionary, b.dictionaryBatch(0, b.recordBatch(s)), bodyLen), body: make([]byte, bodyLen)}
}

// viewBatch is a valid empty batch of viewSchema.
var viewBatch = batchSpec{nodes: [][2]int64{{0, 0}}, buffers: [][2]int64{{0, 0}, {0, 0}}, variadic: []int64{0}}

// intBatch is a valid one-row batch of intSchema (body of 8 bytes).
var intBatch = batchSpec{length: 1, nodes: [][2]int64{{1, 0}}, buffers: [][2]int64{{0, 0}, {0, 8}}}

func with(s batchSpec, edit func(*batchSpec)) batchSpec {
	s.nodes = append([][2]int64(nil), s.nodes...)
	s.buffers = append([][2]int64(nil), s.buffers...)
	s.variadic = append([]int64(nil), s.variadic...)
	edit(&s)
	return s
}

func raw(words ...uint32) []byte {
	var out []byte
	for _, w := range words {
		out = binary.LittleEndian.AppendUint32(out, w)
	}
	return append(out, make([]byte, 16)...)
}

// craftedStreams are IPC streams that arrow-go v18.8.0, unchecked,
// answers with a fatal out-of-memory error, endless recursion, gigabyte
// allocations or a read past a vector. Each must fail with an error
// wrapping arrow.ErrInvalid, having allocated little.
func craftedStreams() []struct {
	name string
	data []byte
} {
	return []struct {
		name string
		data []byte
	}{
		{"metadata_length_2GiB", raw(0xFFFFFFFF, 0x7FFFFFF8)},
		{"legacy_metadata_length_2GiB", raw(0x7FFFFFF0)},
		{"metadata_length_over_limit", raw(0xFFFFFFFF, 65<<20)},
		{"metadata_length_negative", raw(0xFFFFFFFF, 0x80000000)},
		{"schema_metadata_length_2pow30", streamOf(schemaMsg(kvLengthSchema(1 << 30)))},
		{"schema_metadata_length_beyond_message", streamOf(schemaMsg(kvLengthSchema(40)))},
		{"children_length_2pow30", streamOf(schemaMsg(func(b ipcb) uoff {
			leaf := b.field(fieldSpec{name: "leaf", typ: tInt, typTable: b.intType(32)})
			kids := b.offsets(leaf)
			b.setLen(kids, 1<<30)
			return b.schema(b.offsets(b.field(fieldSpec{name: "l", typ: tList, children: kids})), 0)
		}))},
		{"children_shared_2pow40", streamOf(schemaMsg(sharedChildren(40)))},
		{"children_cyclic", streamOf(ipcMsg{meta: cyclicField()})},
		{"depth_65", streamOf(schemaMsg(nestedLists(65)))},
		{"strings_shared_1GiB", streamOf(schemaMsg(sharedStrings(16<<10, 32<<10)))},
		{"union_type_ids_shared", streamOf(schemaMsg(sharedUnion(4<<10, 4<<10)))},
		{"unknown_type", streamOf(schemaMsg(func(b ipcb) uoff {
			return b.schema(b.offsets(b.field(fieldSpec{name: "x", typ: 99})), 0)
		}))},
		{"field_without_type_table", streamOf(schemaMsg(func(b ipcb) uoff {
			name := b.CreateString("x")
			b.StartObject(7)
			b.PrependUOffsetTSlot(0, name, 0)
			b.PrependByteSlot(2, tInt, 0)
			return b.schema(b.offsets(b.EndObject()), 0)
		}))},
		{"root_outside_message", streamOf(ipcMsg{meta: []byte{0xF0, 0, 0, 0, 0, 0, 0, 0}})},
		{"vtable_outside_message", streamOf(ipcMsg{meta: []byte{4, 0, 0, 0, 0x00, 0x10, 0, 0}})},
		{"tensor_message", streamOf(tensorMsg())},
		{"batch_before_schema", streamOf(batch(intBatch, 8))},
		{"variadic_count_2pow33", streamOf(schemaMsg(viewSchema), batch(with(viewBatch, func(s *batchSpec) { s.variadic[0] = 1 << 33 }), 0))},
		{"variadic_counts_short", streamOf(schemaMsg(viewSchema), batch(with(viewBatch, func(s *batchSpec) { s.variadic = []int64{} }), 0))},
		{"dictionary_variadic_count_2pow33", streamOf(schemaMsg(dictViewSchema), dictBatch(with(viewBatch, func(s *batchSpec) { s.variadic[0] = 1 << 33 }), 0))},
		{"nodes_short", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.nodes = nil }), 8))},
		{"node_length_negative", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.nodes[0][0] = -1 }), 8))},
		{"buffer_outside_body", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.buffers[1][0] = 8 }), 8))},
		{"buffer_length_overflows", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.buffers[1] = [2]int64{8, 1<<63 - 1} }), 8))},
		{"batch_length_negative", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.length = -2 }), 8))},
		{"unknown_codec", streamOf(schemaMsg(intSchema), batch(with(intBatch, func(s *batchSpec) { s.codec = 1 + 7 }), 8))},
		{"tensor_element_nulls_without_bitmap", streamOf(schemaMsg(tensorSchema), func() ipcMsg {
			s, body := tensorBatch(1)
			s.nodes[1][1] = 1
			return batch(s, body)
		}())},
		{"tensor_bitmap_short", streamOf(schemaMsg(tensorSchema), func() ipcMsg {
			s, body := tensorBatch(16)
			s.nodes[0][1] = 1
			s.buffers[0] = [2]int64{0, 1}
			return batch(s, body)
		}())},
		{"tensor_element_bitmap_short", streamOf(schemaMsg(tensorSchema), func() ipcMsg {
			s, body := tensorBatch(16)
			s.nodes[1][1] = 1
			s.buffers[1] = [2]int64{0, 1}
			return batch(s, body)
		}())},
		{"body_over_limit", streamOf(schemaMsg(intSchema), ipcMsg{meta: batch(intBatch, 2*craftLimit).meta})},
	}
}

// readStream reads every batch of data and returns how many it read and
// the error that stopped it.
func readStream(t *testing.T, data []byte) (int, error) {
	mem := checkedMem(t)
	r, err := arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(craftLimit))
	if err != nil {
		return 0, err
	}
	defer r.Release()
	n := 0
	for r.Next() {
		n++
	}
	return n, r.Err()
}

// allocated returns the bytes of Go heap f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestIPCStreamRejectsCrafted(t *testing.T) {
	for _, tc := range craftedStreams() {
		t.Run(tc.name, func(t *testing.T) {
			var n int
			var err error
			if a := allocated(func() { n, err = readStream(t, tc.data) }); a > maxCraftAlloc {
				t.Errorf("allocated %d bytes to refuse %d bytes of input", a, len(tc.data))
			}
			if n != 0 || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("read %d batches, error %v; want an error wrapping arrow.ErrInvalid", n, err)
			}
		})
	}
}
