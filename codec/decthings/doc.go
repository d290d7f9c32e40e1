// Package decthings reads and writes Decthings tensors, the binary form the
// Decthings API and its official clients exchange, and checks them against
// DecthingsTensorRules.
//
// # Overview
//
// A serialized tensor is a type byte (1..16: f32, f64, i8, i16, i32, i64,
// u8, u16, u32, u64, string, binary, boolean, image, audio, video), a
// dimension count byte, each dimension as a Decthings varint (one byte below
// 253, else a 253/254/255 marker and a big-endian uint16/uint32/uint64), then
// the elements. Tensors are sent concatenated.
//
// The layout follows the official clients (api-client-rs, api-client-js),
// which differ from the published documentation in two places: a
// variable-size type (string, binary, image, audio, video) writes a varint
// with the byte length of its whole element section before the elements,
// and a media element is varint(1+len(format)+len(data)), one byte
// len(format), the format name and the data (not exactly three bytes of
// extension). String lengths are UTF-8 byte lengths, as the Rust client
// writes them.
//
// Entry points: AppendTensor, DecodeTensor and DecodeAll for all 16 types as
// Tensor values; NewColumn, ReadColumn, TensorOf and AppendColumn between
// Decthings tensors and fixedshape columns; Rules for DecthingsTensorRules;
// AppendVarint and Varint for the varint.
//
// The ten number types and boolean map to fixedshape columns (boolean,
// one byte 0 or 1 per element, to a bit-packed bool column, always
// copied). String, binary and media tensors decode losslessly to Tensor
// values, and NewColumn refuses them with an error wrapping
// arrow.ErrNotImplemented: fixedshape has no such element types, and a
// variable-size column would lose the fixed-shape guarantees. A fixedshape
// float16 column has no Decthings type and is refused the same way.
//
// # Streams
//
// Concatenated tensors have no header, count or footer: input cut exactly
// between two tensors is valid, shorter input, and ReadColumn reads it as
// a shorter column without error. Pass [WithExpectedCount] when the count
// is known: input that ends early, or holds more, then fails with an
// error naming both counts. A cut inside a tensor is always an error.
//
// # Layout
//
// Decthings tensors are dense and row-major with little-endian elements. A
// column read from them has the tensors' shape, no names and no permutation.
// Writing a permuted column copies each tensor to C order; dimension names
// are not carried (the format has none).
//
// # Memory
//
// DecodeTensor shares element bytes with its input. NewColumn wraps a single
// aligned tensor without copying (the column shares the input bytes, which
// must then stay unmodified) and copies otherwise, into Go-owned memory: no
// arrow allocator is involved and Release is still required by the array
// contract. Every length is checked against the remaining input before any
// allocation.
//
// # Errors
//
// Every error is an *Error wrapping arrow.ErrInvalid (errors.Is works) whose
// text starts with "decthings:"; refusals of well-formed input also wrap
// arrow.ErrNotImplemented. Nothing panics on outside data; TensorOf panics on
// an out-of-range index, as slice indexing does.
package decthings
