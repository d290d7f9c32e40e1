//go:build !purego

package layout

// packBoolsAVX2 packs 8*n bytes of src into n bytes of dst, n a multiple
// of 4 above 0; unpackBoolsAVX2 unpacks n bytes of src into 8*n bytes of
// dst. Implemented in pack_amd64.s.
//
//go:noescape
func packBoolsAVX2(dst, src *byte, n int)

//go:noescape
func unpackBoolsAVX2(dst, src *byte, n int)
