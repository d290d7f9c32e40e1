// Package zio reads and writes ZIO messages and the TENS message form, in
// which a ZIO message carries tensors: a JSON label describing them and one
// payload part of packed elements per tensor.
//
// # Overview
//
// A ZIO message is a multipart message [prefix, coord, payload...]: the
// prefix header is "ZIO", the level as one ASCII digit, a four-byte form
// and the label text; the coordinate header is origin, granule and seqno as
// 24 little-endian bytes. Carried in one frame, the parts use CZMQ's
// zmsg_encode framing (AppendFrames, SplitFrames), as zio::Message::encode
// and the Python Message.encode write it.
//
// A TENS label is a JSON object whose "TENS" key holds "tensors", one entry
// per tensor with "shape", "word", "dtype", "part", "order", "ascend" and
// "metadata", and "metadata", an application object. Labels are parsed and
// rewritten, never compared as bytes: Python writes them with spaces and in
// insertion order, C++ compactly with sorted keys (as AppendJSON does). Keys
// this package does not know are kept, at every level.
//
// Entry points: Decode, FromParts, Message.AppendEncode and Message.Parts
// for messages; ParseLabel and Label.AppendJSON for labels; AppendTensor,
// AppendColumn and ReadColumn between messages and fixedshape columns
// (several tensors per message, several messages per column).
//
// # Layout
//
// "shape" is the logical shape and "order" the storage order in Boost's
// convention, fastest-varying axis first: C order, the default, is
// [n-1, ..., 0]. A fixedshape permutation maps onto "order" exactly, so any
// column is written and read without copying its elements. Dimension names
// go in the tensor's "metadata" under "dim_names", a JSON array of strings
// (TENS asks for scalar attributes there; readers that do not know the key
// ignore it). An axis with "ascend": false is stored in descending index
// order; ReadColumn flips it with an explicit copy. Elements are
// little-endian (ZIO writes native order; every ZIO platform is
// little-endian).
//
// Element types ("dtype" and "word" to Arrow, ElemType and DType):
//
//	dtype  word        Arrow element type
//	"f"    2, 4, 8     float16, float32, float64
//	"i"    1, 2, 4, 8  int8, int16, int32, int64
//	"u"    1, 2, 4, 8  uint8, uint16, uint32, uint64
//	"b"    1           bool: one byte 0 or 1 per element (C++ bool); other bytes are refused
//	"c"    8, 16       refused (complex has no fixedshape element type)
//
// A bool column is bit-packed, so it is always copied: AppendTensor writes a
// new part of one byte per element in the column's physical order (its
// "order" as for the other types), ReadColumn packs the bytes into bits.
//
// # Memory
//
// Decode and FromParts share payload parts with their input. AppendTensor
// and AppendColumn add the column's own bytes as payload parts, not copies
// (bool tensors excepted): keep the array alive until the message is sent.
// ReadColumn wraps a single ascending, aligned, non-bool tensor without
// copying and otherwise copies into one Go-owned buffer. Labels are limited to MaxLabel bytes and MaxTensors
// entries, framed messages to MaxParts parts, checked before allocation.
//
// # Errors
//
// Every error is an *Error wrapping arrow.ErrInvalid (errors.Is works) whose
// text starts with "zio:"; refusals of well-formed input also wrap
// arrow.ErrNotImplemented. Nothing panics on outside data; AppendTensor
// panics on an out-of-range index, as slice indexing does.
package zio
