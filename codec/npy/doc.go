// Package npy reads and writes NumPy's .npy files (format versions 1.0,
// 2.0 and 3.0) and .npz archives as fixed-shape tensor columns.
//
// # Overview
//
// A column of N tensors of logical shape L is one .npy array of shape
// (N, L...), batch axis first: [WriteColumn], [ReadColumn] (a stream) and
// [DecodeColumn] (bytes, for example a memory-mapped file). One tensor is
// an array of its own shape, 0-D included: [WriteTensor], [ReadTensor],
// [DecodeTensor], whose result is a column of length 1. [MapColumn] and
// [MapTensor] memory-map a file and decode it without copying.
// [ParseHeader], [ReadHeader] and [AppendHeader] work on the header alone.
// [WriteNPZ] and [ReadNPZ] write and read several named columns as a .npz
// archive (a zip of .npy members, stored or deflated), as numpy.savez,
// numpy.savez_compressed and numpy.load do.
//
// Element types are bool, int8..int64, uint8..uint64, float16, float32
// and float64 (descr b1, i1..i8, u1..u8, f2, f4, f8). Object, structured,
// complex, string and datetime dtypes, and fstensor's other fixed-width
// element types, are refused. A bool is one byte in a .npy file (0 or 1,
// as NumPy writes it) and one bit in a column, so bool arrays are always
// copied on read and write; a data byte other than 0 or 1, which NumPy
// neither writes nor refuses (np.load keeps it, and NumPy's operations
// and conversions take it for true), reads as true.
// The writers produce the bytes numpy.save writes for the same logical
// array (header keys sorted, padding to 64 bytes with NumPy's growth
// margin), so files compare byte for byte.
//
// # Layout
//
// C order is the row-major physical layout of a tensor without
// permutation. Fortran order of an array of shape S is row-major in the
// reversed shape: read as one tensor it becomes the reversed permutation,
// without copying; written, a tensor whose permutation is the full
// reversal is Fortran order, without copying. Any other permutation is
// copied to C order on write (numpy.save does the same for non-contiguous
// arrays). For a column, Fortran order makes the batch axis the fastest
// one, so [ReadColumn] and [DecodeColumn] transpose it outermost (a copy)
// and keep the reversed permutation on the tensor axes. Axes of size 1
// never decide the order, as in NumPy's contiguity flags.
//
// Big-endian files are byte-swapped on read (a copy, never a view);
// [WithBigEndian] writes them. The package assumes a
// little-endian host, as arrow-go does.
//
// .npy cannot express a null tensor: the writers refuse one (an error
// wrapping [ErrNullTensor]) unless [WithFillNulls] asks for a
// fill value, which must be one the element type holds ([CheckFill]: no
// NaN, infinity, fraction or out-of-range value for integers, 0 or 1 for
// bool, no finite value that overflows float16 or float32); a value it
// cannot hold is refused with [ErrFill] before anything is written.
//
// # Memory
//
// [DecodeColumn] and [DecodeTensor] return arrays that share the input
// bytes when no swap, transpose or realignment is needed: the input must
// then stay unmodified while the array is in use. Other results own
// memory from [WithAllocator]. Callers release every returned array.
// [MapColumn] and [MapTensor] return, besides the array, an io.Closer
// that unmaps the file: the array must not be used after Close, and is
// released first. [ReadNPZ] always copies (members may be compressed) and
// holds at most twice the bytes it decompresses.
// [WriteColumn] and [WriteTensor] write straight from the array's buffer
// when the layout allows, and otherwise through a buffer of at most 64 KiB.
//
// # Errors
//
// Outside data never panics. Errors are *[Error] values wrapping
// arrow.ErrInvalid (and io.ErrUnexpectedEOF for truncated input, or
// arrow.ErrNotImplemented for tensors with a size-0 dimension, which
// fixedshape cannot represent). Headers are bounded by
// [WithMaxHeaderSize] (NumPy's 10000 bytes by default), shapes by
// metadata.MaxDims dimensions and by int overflow of the element and byte
// counts; readers never allocate more than twice the data actually
// present, and [WithMaxDataSize] bounds it further. .npz
// archives are bounded by [WithMaxMembers] and
// [WithMaxTotalSize] (decompressed bytes, 1 GiB by default), which
// are checked against the central directory before anything is
// decompressed, sizes and checksums are held to what the directory
// declares, and members that share bytes are refused. An invalid option
// value (WithAllocator(nil), a bound below 1, an unknown version or
// codec) fails the reader or writer before it starts, with an *Error
// wrapping fstensor.ErrOption.
//
// # Options
//
// Readers take [ReadOption] values ([WithAllocator], [WithMaxHeaderSize],
// [WithMaxDataSize], [WithMaxMembers], [WithMaxTotalSize]), writers
// [WriteOption] values ([WithVersion], [WithBigEndian], [WithFillNulls],
// [WithCompression]).
package npy
