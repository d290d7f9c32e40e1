package npy

import (
	"github.com/fstensor/fstensor/internal/unsafeslice"
	"github.com/fstensor/fstensor/stride"
)

// word is the unsigned integer of each element width: copies move
// elements as words of their width, whatever their type.
type word interface {
	uint8 | uint16 | uint32 | uint64
}

// gather writes the elements of raw (w bytes each) at the offsets of
// shape under element strides, in row-major order, through c. It moves
// typed words when raw and c's buffer are aligned for them, and bytes
// otherwise.
func gather(c *chunkWriter, raw []byte, shape, strides []int, w int) error {
	switch w {
	case 1:
		return gatherWords[uint8](c, raw, shape, strides)
	case 2:
		return gatherWords[uint16](c, raw, shape, strides)
	case 4:
		return gatherWords[uint32](c, raw, shape, strides)
	}
	return gatherWords[uint64](c, raw, shape, strides)
}

func gatherWords[T word](c *chunkWriter, raw []byte, shape, strides []int) error {
	src, err1 := unsafeslice.Cast[T](raw)
	dst, err2 := unsafeslice.Cast[T](c.buf[:cap(c.buf)])
	if err1 != nil || err2 != nil || len(dst) == 0 {
		w := c.width
		for off := range stride.Offsets(shape, strides) {
			c.addElem(raw[off*w : (off+1)*w])
			if c.err != nil {
				return c.err
			}
		}
		return c.flush()
	}
	w, k := c.width, 0
	for off := range stride.Offsets(shape, strides) {
		dst[k] = src[off]
		if k++; k == len(dst) {
			c.buf = c.buf[:k*w]
			if err := c.flush(); err != nil {
				return err
			}
			k = 0
		}
	}
	c.buf = c.buf[:k*w]
	return c.flush()
}
