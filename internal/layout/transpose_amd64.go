//go:build !purego

package layout

import "unsafe"

// transpose8x16 copies tiles x steps blocks of 8 source columns by 16
// source lines of 4-byte elements: dst[i*dstRow+k] = src[i+k*srcRow] for
// i < 8*steps, k < 16*tiles, with the strides in bytes here. The tiles of
// 16 source lines are the outer loop, so the source is read line by line
// and each destination row takes 64 bytes per block. With nt the stores
// are non-temporal and dst and dstRow must be multiples of 32 bytes.
// Implemented in transpose_amd64.s.
//
//go:noescape
func transpose8x16(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int, nt bool)

// transpose4x8 is transpose8x16 for 8-byte elements: blocks of 4 source
// columns by 8 source lines, tiles of 8 source lines outermost, 64 bytes
// per destination row and block. Implemented in transpose_amd64.s.
//
//go:noescape
func transpose4x8(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int, nt bool)

// transposeBlocks copies, with the AVX2 kernels, the whole blocks of the
// a x b block of transpose for aligned elements of w bytes: blocks of 8x16
// 4-byte or 4x8 8-byte elements, each writing one 64-byte line per
// destination row, and of 8x16 2-byte and 16x16 1-byte elements, each
// writing 32 or 16 bytes per destination row (the next tiles of source
// lines write the rest of the line while it is in cache); with stream,
// 2-byte and 1-byte elements go in blocks of 8x32 and 16x64 that write
// whole lines with non-temporal stores. It returns the
// extent it copied (rows i < ai, columns k < bk), or 0, 0 for other
// widths, without AVX2, or when the block is smaller than one kernel
// block. With stream, a destination whose rows
// are 64-byte aligned is written with non-temporal stores.
func transposeBlocks(w int, dst, src unsafe.Pointer, a, b, dstRow, sb int, stream bool) (ai, bk int) {
	if !useAVX2 {
		return 0, 0
	}
	nt := stream && (uintptr(dst)|uintptr(dstRow*w))&63 == 0
	switch {
	case w == 4 && a >= 8 && b >= 16:
		ai, bk = a&^7, b&^15
		transpose8x16(dst, src, ai/8, bk/16, dstRow*4, sb*4, nt)
	case w == 2 && a >= 8 && b >= 16:
		ai, bk = a&^7, b&^15
		wide := 0
		if nt {
			wide = b &^ 31
			if wide > 0 {
				transpose8x32w2nt(dst, src, ai/8, wide/32, dstRow*2, sb*2)
			}
		}
		if wide < bk {
			transpose8x16w2(unsafe.Add(dst, wide*2), unsafe.Add(src, wide*sb*2), ai/8, (bk-wide)/16, dstRow*2, sb*2)
		}
	case w == 1 && a >= 16 && b >= 16:
		ai, bk = a&^15, b&^15
		wide := 0
		if nt {
			wide = b &^ 63
			if wide > 0 {
				transpose16x64w1nt(dst, src, ai/16, wide/64, dstRow, sb)
			}
		}
		if wide < bk {
			transpose16x16w1(unsafe.Add(dst, wide), unsafe.Add(src, wide*sb), ai/16, (bk-wide)/16, dstRow, sb)
		}
	case w == 8 && a >= 4 && b >= 8:
		ai, bk = a&^3, b&^7
		transpose4x8(dst, src, ai/4, bk/8, dstRow*8, sb*8, nt)
	}
	return ai, bk
}

// transpose8x16w2 copies tiles x steps blocks of 8 source columns by 16
// source lines of 2-byte elements (32 bytes to each of 8 destination rows
// per block), tiles of 16 source lines outermost; strides in bytes.
// Implemented in transpose_w2_amd64.s.
//
//go:noescape
func transpose8x16w2(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)

// transpose8x32w2nt is transpose8x16w2 in blocks of 8 source columns by
// 32 source lines, which write one whole 64-byte line to each destination
// row, with non-temporal stores: dst and dstRow must be multiples of 64
// bytes. Implemented in transpose_w2_amd64.s.
//
//go:noescape
func transpose8x32w2nt(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)

// transpose16x64w1nt is transpose16x16w1 in blocks of 16 source columns
// by 64 source lines, which write one whole 64-byte line to each
// destination row, with non-temporal stores: dst and dstRow must be
// multiples of 64 bytes. Implemented in transpose_w1_amd64.s.
//
//go:noescape
func transpose16x64w1nt(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)

// transpose16x16w1 is transpose8x16w2 for 1-byte elements in blocks of
// 16 source columns by 16 source lines (16 bytes to each of 16
// destination rows per block). Implemented in transpose_w1_amd64.s.
//
//go:noescape
func transpose16x16w1(dst, src unsafe.Pointer, steps, tiles, dstRow, srcRow int)

// deinterleave3x16 splits groups groups of 16 pixels of 3 channels of
// 4-byte elements at src into three planes dstRow bytes apart from dst
// (64 bytes per plane and group). With nt the stores are non-temporal and
// dst and dstRow must be multiples of 32 bytes. Implemented in
// transpose_amd64.s.
//
//go:noescape
func deinterleave3x16(dst, src unsafe.Pointer, groups, dstRow int, nt bool)

// deinterleave3 splits pixels [0, n&^15) of 3 channels of aligned 4-byte
// elements at src into three planes dstRow elements apart from dst with
// the AVX2 kernel, and returns the number split (0 without AVX2). With
// stream, planes whose rows are 64-byte aligned are written with
// non-temporal stores.
func deinterleave3(dst, src unsafe.Pointer, n, dstRow int, stream bool) int {
	if !useAVX2 || n < 16 {
		return 0
	}
	nt := stream && (uintptr(dst)|uintptr(dstRow*4))&63 == 0
	deinterleave3x16(dst, src, n/16, dstRow*4, nt)
	return n &^ 15
}
