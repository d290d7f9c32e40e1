// Package mshadow reads and writes the shape forms of mshadow and MXNet
// (`TShape`) and offers mshadow's `TBlob` flattening helpers over fstensor
// shapes and columns.
//
// # Overview
//
// mshadow describes a tensor by a TShape (a dimension list) over a dense
// row-major buffer. This package speaks that description:
//
//   - AppendShape and ReadShape: the binary TShape Save/Load forms, mshadow's
//     uint32 ndim + uint32 dims (Index32) and MXNet's int32 ndim + int64 dims
//     (Int64);
//   - ReadText: the text form `(3,4)` read exactly as mshadow's
//     `istream >> TShape` reads it (metadata.FormatShape prints it, and
//     metadata.ParseShape is the strict parser);
//   - Size, ProdShape, FlatTo2D, FlatTo3D: TShape's products and flattenings,
//     with overflow checks;
//   - Reshape: TBlob::get_with_shape over a fixedshape column, zero-copy, with
//     its checks (contiguous layout, same element count).
//
// # Layout
//
// A TShape is a logical shape of a dense row-major tensor: it has no
// permutation and no dimension names. A fixedshape column with an identity
// (or absent) permutation has exactly that layout; a permuted column must be
// materialized before Reshape accepts it.
//
// # Memory
//
// ReadShape allocates only the returned shape, after checking the dimension
// count against MaxDims and the input length. Reshape shares the column's
// buffers and takes its own reference; the caller releases both arrays.
//
// # Errors
//
// Every error is an *Error wrapping arrow.ErrInvalid (errors.Is works) whose
// text starts with "mshadow:" and names the value refused. Nothing panics on
// outside data.
package mshadow
