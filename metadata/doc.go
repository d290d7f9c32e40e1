// Package metadata holds the description of a fixed-shape tensor: its
// logical shape, optional logical dimension names and optional permutation,
// with the validation, the canonical Arrow JSON form and the shape text form
// `(3,4)`.
//
// # Overview
//
// [Metadata] is an immutable value. [New] builds it from the logical view
// (what users index); [FromPhysical] and [Parse] build it from Arrow's
// physical view, where the `shape` key is the row-major storage shape and
// `dim_names` name physical axes.
//
// # Layout
//
// With logical shape L, physical shape P and permutation p (absent means
// the identity):
//
//	L[i] = P[p[i]]        logicalNames[i] = physicalNames[p[i]]
//
// The element stride of logical axis i is the row-major stride of physical
// axis p[i] (see package stride).
//
// # JSON
//
// [Metadata.AppendJSON] writes the canonical `arrow.fixed_shape_tensor`
// extension metadata byte-for-byte as Arrow C++ does: compact, keys in the
// order shape, permutation, dim_names, absent keys left out. A permutation
// that was given is written even when it is the identity. [Parse] is
// tolerant where other writers differ: it accepts arrow-rs's plural
// `permutations` key (only when `permutation` is absent) and JSON null for
// absent keys, and ignores unknown keys.
//
// # Shape text
//
// [FormatShape] prints `(3,4)`, `(3,)` and `()` as NumPy and mshadow do;
// [ParseShape] reads that form and the bracket form `[3,4]`, with spaces.
//
// # Errors
//
// Every error wraps arrow.ErrInvalid (and stride.ErrInvalid where the
// stride arithmetic refused the input) and names the key and value, so
// errors.Is(err, arrow.ErrInvalid) holds for all invalid input.
package metadata
