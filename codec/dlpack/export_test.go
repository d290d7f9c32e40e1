//go:build cgo

package dlpack

import "github.com/fstensor/fstensor/codec/dlpack/internal/capi"

// Test hooks over the synthetic producer of internal/capi. SetVersion and
// SetNDim are functions, as methods on the aliased managed tensor types
// would be public API.
var (
	NewSynthetic       = capi.NewSynthetic
	NewSyntheticLegacy = capi.NewSyntheticLegacy
	SyntheticDeletes   = capi.SyntheticDeletes
	CLayout            = capi.ABI
	SetVersion         = capi.SetVersion
	SetNDim            = capi.SetNDim
)
