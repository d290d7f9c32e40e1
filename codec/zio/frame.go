package zio

import (
	"encoding/binary"
	"math"
)

// AppendFrames appends parts to dst in the single-part framing of CZMQ's
// zmsg_encode, which ZIO uses to carry a multipart message in one frame:
// each part is its size, one byte when below 255, else the byte 255 and the
// size as a big-endian uint32, followed by its bytes. A part larger than
// math.MaxUint32 bytes is an error wrapping arrow.ErrInvalid, and dst is
// then returned unchanged.
func AppendFrames(dst []byte, parts [][]byte) ([]byte, error) {
	for i, p := range parts {
		if uint64(len(p)) > math.MaxUint32 {
			return dst, errorf("part %d of %d bytes is too large for the framing", i, len(p))
		}
	}
	for _, p := range parts {
		if len(p) < 255 {
			dst = append(dst, byte(len(p)))
		} else {
			dst = binary.BigEndian.AppendUint32(append(dst, 255), uint32(len(p)))
		}
		dst = append(dst, p...)
	}
	return dst, nil
}

// SplitFrames splits b, the zmsg_encode framing of a multipart message, into
// its parts, which share b's memory. It reads at most maxParts parts
// (0 means no limit other than b's length: each part takes at least one
// byte). A size running past the end of b, or more than maxParts parts, is
// an error wrapping arrow.ErrInvalid. A long size prefix on a short part
// (255 followed by a size below 255) is accepted, as CZMQ accepts it.
func SplitFrames(b []byte, maxParts int) ([][]byte, error) {
	var parts [][]byte
	for len(b) > 0 {
		if maxParts > 0 && len(parts) == maxParts {
			return nil, errorf("framing: more than %d parts", maxParts)
		}
		size, k := uint64(b[0]), 1
		if size == 255 {
			if len(b) < 5 {
				return nil, errorf("framing: part %d: size prefix 255 needs 4 more bytes, have %d", len(parts), len(b)-1)
			}
			size, k = uint64(binary.BigEndian.Uint32(b[1:])), 5
		}
		if size > uint64(len(b)-k) {
			return nil, errorf("framing: part %d of %d bytes, only %d bytes follow", len(parts), size, len(b)-k)
		}
		end := k + int(size)
		parts = append(parts, b[k:end:end])
		b = b[end:]
	}
	return parts, nil
}
