package expr

// SetBitTiles turns the bit-matrix transposes of bool plans on or off and
// returns the previous setting; off, every bool view is gathered bit by
// bit (the reference the tests compare against).
func SetBitTiles(on bool) bool {
	old := bitTiles
	bitTiles = on
	return old
}

// CompactBytes and ExpandBytes export the bit packing of interleave and
// deinterleave.
var (
	CompactBytes = compactBytes
	ExpandBytes  = expandBytes
)
