//go:build cgo

package dlpack

// Test hooks over the synthetic producer (synthetic.go).
var (
	NewSynthetic       = newSynthetic
	NewSyntheticLegacy = newSyntheticLegacy
	SyntheticDeletes   = syntheticDeletes
	CLayout            = cLayout
)

func (m *ManagedTensorVersioned) SetVersion(major, minor uint32) { m.setVersion(major, minor) }
func (m *ManagedTensorVersioned) SetNDim(n int32)                { m.setNDim(n) }
