// Package stride is the index arithmetic of dense tensors: checked element
// counts, row-major strides, permutations, the strides of a permuted
// (logical) view, flat offsets, and the inverse problem of recognising a
// dense layout in arbitrary strides.
//
// # Overview
//
// A tensor's elements are stored densely in row-major (C) order of its
// physical shape P. Users index the logical shape L. A permutation p ties the
// two: logical axis i is physical axis p[i], so
//
//	L[i] = P[p[i]]
//
// and the element stride of logical axis i is the row-major stride of
// physical axis p[i]:
//
//	stride[i] = prod(P[k] for k > p[i])
//
// which is what numpy.transpose(physical_view, p) gives. An absent (nil)
// permutation is the identity.
//
// # Layout
//
// All strides here are in elements unless a name says bytes ([Bytes]).
// Shapes are []int with non-negative entries; a 0-D shape is empty and has
// one element; a shape with a 0 has no elements.
//
// # Memory
//
// Functions that return a slice take a dst slice first and append to
// dst[:0] when its capacity suffices, in the style of strconv.AppendInt, so
// hot paths can reuse storage. No function keeps a reference to its inputs.
//
// # Errors
//
// Invalid shapes, permutations and indexes supplied from outside are reported
// as errors that wrap [ErrInvalid]; higher packages wrap them again with
// arrow.ErrInvalid. Functions documented as taking already-validated input
// panic on invalid input, as slice indexing does.
package stride
