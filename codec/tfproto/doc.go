// Package tfproto reads and writes TensorFlow's TensorProto, the protobuf
// message TensorFlow serializes tensors as, and converts between it and
// fixedshape columns. It uses protowire, not generated code.
//
// # Overview
//
// A TensorProto holds a dtype (field 1), a TensorShapeProto (field 2: dims
// with size and name, and an unknown_rank flag) and the elements, either
// packed in tensor_content (field 4, C order, little-endian) or in the typed
// repeated field of the dtype (float_val, double_val, int_val, int64_val,
// bool_val, half_val, uint32_val, uint64_val, string_val), packed or not.
//
// Entry points: Decode and DecodeMax read one message into a Tensor;
// AppendTensor writes one (tensor_content, or string_val for strings), the
// bytes protobuf itself writes; NewColumn, ReadColumn, TensorOf and
// AppendColumn move between Tensor values and fixedshape columns, many
// messages of one shape becoming one column; SplitDelimited,
// AppendDelimited and ReadDelimited handle a stream of messages each
// preceded by its varint length (the .pb files of the fstensor command).
//
// Supported dtypes: DT_FLOAT, DT_DOUBLE, DT_HALF, DT_BFLOAT16, DT_INT8..64,
// DT_UINT8..64, DT_BOOL and DT_STRING. Complex, quantized, resource and
// variant tensors are refused. DT_STRING decodes to Tensor values but has
// no fixedshape element type, so NewColumn refuses it; DT_BFLOAT16 becomes
// a float32 column (exact), DT_HALF a float16 one, DT_BOOL a bool column.
// A DT_BOOL element is one byte, 0 or 1, in tensor_content (other bytes
// are refused) and a varint in bool_val; a bool column, bit-packed, is
// always copied to and from it. Writing a bool column uses
// tensor_content.
//
// # Streams
//
// A delimited stream has no header, count or footer: a stream cut exactly
// between two messages is a valid, shorter stream, and ReadDelimited
// and ReadColumn read it as a shorter column without error. Pass
// [WithExpectedCount] when the count is known: a stream that ends early,
// or holds more, then fails with an error naming both counts. A cut
// inside a message is always an error.
//
// # Layout
//
// TensorProto is C order only. Dim names map to fixedshape's logical
// dimension names both ways (an unnamed dim next to named ones becomes "").
// Decoded columns have no permutation; encoding a permuted column copies
// each tensor to C order explicitly. A dense tensor needs its full shape: an
// unknown rank or a dim of size -1 is refused.
//
// # Memory
//
// Decode shares tensor_content and string_val bytes with its input; the
// typed *_val fields are materialized into a new buffer of at most
// DefaultMaxBytes (DecodeMax sets the limit), with TensorFlow's rule that a
// short list repeats its last value and an empty one gives zeros. NewColumn
// wraps a single aligned tensor without copying and copies otherwise, into
// Go-owned memory; arrays still need Release.
//
// # Errors
//
// Every error is an *Error wrapping arrow.ErrInvalid (errors.Is works) whose
// text starts with "tfproto:"; refusals of well-formed but unsupported
// input also wrap arrow.ErrNotImplemented. Nothing panics on outside data;
// TensorOf panics on an out-of-range index, as slice indexing does.
package tfproto
