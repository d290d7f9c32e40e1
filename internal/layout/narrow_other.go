//go:build !amd64 || purego

package layout

// The pure-Go build never calls these (useAVX2 is false); they keep
// NarrowInt32To8 and NarrowInt32To16 free of build tags.
func narrow8AVX2(dst, src []byte, bias uint32) bool  { return narrow8Go(dst, src, bias) }
func narrow16AVX2(dst, src []byte, bias uint32) bool { return narrow16Go(dst, src, bias) }
