// Package capi is the C side of package dlpack: the DLPack 1.1 C structs
// (dlpack.h), their allocation and deleters (shim.c), and every unsafe
// pointer operation of the codec. It needs cgo; without cgo only this
// documentation builds, as package dlpack then leaves out its C parts.
//
// # API
//
// [ManagedTensorVersioned] and [ManagedTensor] are re-exported by dlpack
// as aliases, so their exported methods (Delete, Layout, Data, Version,
// Flags) are dlpack's public API: add no other exported method to them.
// Everything else is a package-level function or another type:
//
//   - [NewVersioned] and [NewLegacy] build an exported struct from a
//     [Desc] (Go values and the data bytes) and an [Owner], pinning Go
//     memory and holding both in a runtime/cgo.Handle until the
//     consumer's deleter runs; [Outstanding] counts them.
//   - [VersionedTensor] and [LegacyTensor] give a producer's DLTensor as
//     a [Tensor], whose [Tensor.CheckedLayout] copies shape and strides
//     after checking ndim and [Tensor.Bytes] wraps the data as a []byte
//     of a checked length.
//   - [NewSynthetic] and its helpers (SetVersion, SetNDim, SetNullData,
//     SetNullShape, SyntheticDeletes, ABI) are a producer for tests;
//     they live here because test files cannot use cgo.
//
// # Memory
//
// Exported structs and synthetic tensors live in C memory, one calloc
// block each (struct, then shape, then strides), freed by their
// deleters. Slices returned by [Tensor.Bytes] alias the producer's
// memory and are valid until its deleter runs.
//
// # Errors
//
// Errors are *dltype.Error (dlpack.Error) and wrap arrow.ErrInvalid.
// Functions panic only on caller bugs that dlpack never commits (a
// [Desc] whose Strides and Shape differ in length) and, in the test
// producer, when C memory runs out.
package capi
