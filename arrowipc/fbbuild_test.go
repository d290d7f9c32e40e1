package arrowipc_test

import (
	"bytes"
	"encoding/binary"

	flatbuffers "github.com/google/flatbuffers/go"
)

// This file builds Arrow IPC metadata by hand (Message.fbs, Schema.fbs,
// File.fbs), for messages no writer produces: vectors whose length is
// patched, tables shared or reached from themselves.

type uoff = flatbuffers.UOffsetT

// Flatbuffer enum values of the Arrow format.
const (
	hdrSchema      = 1
	hdrDictionary  = 2
	hdrRecordBatch = 3
	hdrTensor      = 4

	tInt           = 2
	tUtf8          = 5
	tList          = 12
	tFixedSizeList = 16
	tUnion         = 14
	tUtf8View      = 24
)

// ipcb is a flatbuffers builder with helpers for the Arrow tables. Every
// helper creates what it refers to first: flatbuffers cannot nest.
type ipcb struct {
	*flatbuffers.Builder
	patches *[]patch // applied to the finished bytes
}

// patch replaces the length of the vector at off by n.
type patch struct {
	off uoff
	n   uint32
}

func newIPCB() ipcb { return ipcb{flatbuffers.NewBuilder(1024), new([]patch)} }

// setLen makes the vector at off claim n elements once finished.
func (b ipcb) setLen(off uoff, n uint32) { *b.patches = append(*b.patches, patch{off, n}) }

// finish finishes the buffer at root, applies the patches and returns a
// copy of the bytes.
func (b ipcb) finish(root uoff) []byte {
	b.Finish(root)
	fin := bytes.Clone(b.FinishedBytes())
	for _, p := range *b.patches {
		patch32(fin, pos(fin, p.off), p.n)
	}
	return fin
}

// pos returns the position in finished bytes fin of the object at off.
func pos(fin []byte, off uoff) int { return len(fin) - int(off) }

func patch32(b []byte, p int, v uint32) { binary.LittleEndian.PutUint32(b[p:], v) }

func (b ipcb) empty() uoff { b.StartObject(0); return b.EndObject() }

func (b ipcb) intType(bits int32) uoff {
	b.StartObject(2)
	b.PrependInt32Slot(0, bits, 0)
	b.PrependBoolSlot(1, true, false)
	return b.EndObject()
}

// union returns a dense Union type table with the given type ids.
func (b ipcb) union(ids []int32) uoff {
	b.StartVector(4, len(ids), 4)
	for i := len(ids) - 1; i >= 0; i-- {
		b.PrependInt32(ids[i])
	}
	vec := b.EndVector(len(ids))
	b.StartObject(2)
	b.PrependInt16Slot(0, 1, 0)
	b.PrependUOffsetTSlot(1, vec, 0)
	return b.EndObject()
}

// offsets returns a vector of the given offsets (tables or strings).
func (b ipcb) offsets(offs ...uoff) uoff {
	b.StartVector(4, len(offs), 4)
	for i := len(offs) - 1; i >= 0; i-- {
		b.PrependUOffsetT(offs[i])
	}
	return b.EndVector(len(offs))
}

func (b ipcb) kv(k, v uoff) uoff {
	b.StartObject(2)
	b.PrependUOffsetTSlot(0, k, 0)
	b.PrependUOffsetTSlot(1, v, 0)
	return b.EndObject()
}

// fieldSpec is a Field table; zero offsets are left out.
type fieldSpec struct {
	name     string
	typ      byte
	typTable uoff // the Type union member
	children uoff // vector of Field
	meta     uoff // vector of KeyValue
	dict     uoff // DictionaryEncoding
}

func (b ipcb) field(f fieldSpec) uoff {
	name := b.CreateString(f.name)
	if f.typTable == 0 {
		f.typTable = b.empty()
	}
	b.StartObject(7)
	b.PrependUOffsetTSlot(0, name, 0)
	b.PrependBoolSlot(1, true, false)
	b.PrependByteSlot(2, f.typ, 0)
	b.PrependUOffsetTSlot(3, f.typTable, 0)
	b.PrependUOffsetTSlot(4, f.dict, 0)
	b.PrependUOffsetTSlot(5, f.children, 0)
	b.PrependUOffsetTSlot(6, f.meta, 0)
	return b.EndObject()
}

func (b ipcb) schema(fields, meta uoff) uoff {
	b.StartObject(4)
	b.PrependUOffsetTSlot(1, fields, 0)
	b.PrependUOffsetTSlot(2, meta, 0)
	return b.EndObject()
}

// batchSpec is a RecordBatch table.
type batchSpec struct {
	length   int64
	nodes    [][2]int64 // length, null count
	buffers  [][2]int64 // offset, length
	variadic []int64    // written when non-nil
	codec    int        // BodyCompression codec when > 0 (1 + value)
}

func (b ipcb) structs(elems [][2]int64) uoff {
	b.StartVector(16, len(elems), 8)
	for i := len(elems) - 1; i >= 0; i-- {
		b.Prep(8, 16)
		b.PrependInt64(elems[i][1])
		b.PrependInt64(elems[i][0])
	}
	return b.EndVector(len(elems))
}

func (b ipcb) recordBatch(s batchSpec) uoff {
	nodes, buffers := b.structs(s.nodes), b.structs(s.buffers)
	var variadic, codec uoff
	if s.variadic != nil {
		b.StartVector(8, len(s.variadic), 8)
		for i := len(s.variadic) - 1; i >= 0; i-- {
			b.PrependInt64(s.variadic[i])
		}
		variadic = b.EndVector(len(s.variadic))
	}
	if s.codec > 0 {
		b.StartObject(2)
		b.PrependInt8Slot(0, int8(s.codec-1), -1)
		codec = b.EndObject()
	}
	b.StartObject(5)
	b.PrependInt64Slot(0, s.length, -1)
	b.PrependUOffsetTSlot(1, nodes, 0)
	b.PrependUOffsetTSlot(2, buffers, 0)
	b.PrependUOffsetTSlot(3, codec, 0)
	b.PrependUOffsetTSlot(4, variadic, 0)
	return b.EndObject()
}

func (b ipcb) dictionaryBatch(id int64, data uoff) uoff {
	b.StartObject(3)
	b.PrependInt64Slot(0, id, -1)
	b.PrependUOffsetTSlot(1, data, 0)
	return b.EndObject()
}

// message finishes a Message of the given header and returns its bytes.
func (b ipcb) message(typ byte, header uoff, bodyLen int64) []byte {
	b.StartObject(5)
	b.PrependInt16Slot(0, 4, 0) // V5
	b.PrependByteSlot(1, typ, 0)
	b.PrependUOffsetTSlot(2, header, 0)
	b.PrependInt64Slot(3, bodyLen, -1)
	return b.finish(b.EndObject())
}

// ipcMsg is one message: flatbuffer and body.
type ipcMsg struct {
	meta, body []byte
}

// framed returns the message as written in streams and files: the
// continuation marker, the padded length, the flatbuffer and its padding.
func (m ipcMsg) framed() []byte {
	n := (len(m.meta) + 7) &^ 7
	out := binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFF)
	out = binary.LittleEndian.AppendUint32(out, uint32(n))
	out = append(out, m.meta...)
	return append(out, make([]byte, n-len(m.meta))...)
}

// streamOf returns an IPC stream of the messages and an end marker.
func streamOf(msgs ...ipcMsg) []byte {
	var out []byte
	for _, m := range msgs {
		out = append(append(out, m.framed()...), m.body...)
	}
	return append(out, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0)
}

// schemaFunc builds a Schema table in b.
type schemaFunc func(b ipcb) uoff

func schemaMsg(s schemaFunc) ipcMsg {
	b := newIPCB()
	return ipcMsg{meta: b.message(hdrSchema, s(b), 0)}
}

// fileOf returns an IPC file of schema s holding the dictionary and
// record batch messages; footer, when not nil, edits the finished footer
// fin, whose record batch blocks are at offset batches.
func fileOf(s schemaFunc, dicts, batches []ipcMsg, footer func(fin []byte, batches uoff)) []byte {
	out := append([]byte("ARROW1"), 0, 0)
	out = append(out, schemaMsg(s).framed()...)
	type block struct {
		off  int64
		meta int32
		body int64
	}
	write := func(msgs []ipcMsg) []block {
		var blocks []block
		for _, m := range msgs {
			f := m.framed()
			blocks = append(blocks, block{int64(len(out)), int32(len(f)), int64(len(m.body))})
			out = append(append(out, f...), m.body...)
		}
		return blocks
	}
	db, rb := write(dicts), write(batches)
	b := newIPCB()
	vec := func(blocks []block) uoff {
		b.StartVector(24, len(blocks), 8)
		for i := len(blocks) - 1; i >= 0; i-- {
			b.Prep(8, 24)
			b.PrependInt64(blocks[i].body)
			b.Pad(4)
			b.PrependInt32(blocks[i].meta)
			b.PrependInt64(blocks[i].off)
		}
		return b.EndVector(len(blocks))
	}
	schema := s(b)
	dv, rv := vec(db), vec(rb)
	b.StartObject(5)
	b.PrependInt16Slot(0, 4, 0)
	b.PrependUOffsetTSlot(1, schema, 0)
	b.PrependUOffsetTSlot(2, dv, 0)
	b.PrependUOffsetTSlot(3, rv, 0)
	fb := b.finish(b.EndObject())
	if footer != nil {
		footer(fb, rv)
	}
	out = append(out, fb...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(fb)))
	return append(out, "ARROW1"...)
}
