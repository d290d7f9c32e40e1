// Package dltype holds the plain Go forms of DLPack's descriptive C types
// (DLDataType, DLDevice, a DLTensor without its data pointer) and the
// error type of package dlpack, which re-exports them all as aliases.
//
// They live here, below both dlpack and its cgo package
// codec/dlpack/internal/capi, because the methods of dlpack's managed
// tensor types are declared in capi (the only place that may use unsafe)
// and return a [Layout]. The package is pure Go and builds without cgo.
package dltype
