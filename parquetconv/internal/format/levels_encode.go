package format

import "encoding/binary"

// LevelEncoder writes repetition or definition levels in Parquet's
// RLE/bit-packed hybrid encoding using RLE runs only: a run is the
// varint count<<1 followed by the value in ceil(bitWidth/8) bytes
// (little-endian). Consecutive runs of one value are merged, so a tensor
// column costs a few bytes per row (repetition levels) or per page
// (definition levels while no tensor is null), not a level per element.
type LevelEncoder struct {
	buf   []byte
	width int // bytes per run value: 0 when the maximum level is 0
	value int16
	count int // length of the pending run, 0 when none
}

// Reset starts an empty stream of levels at most maxLevel.
func (e *LevelEncoder) Reset(maxLevel int16) {
	e.buf = e.buf[:0]
	e.width = 0
	if maxLevel > 0 {
		e.width = (bitLen(maxLevel) + 7) / 8
	}
	e.count = 0
}

// bitLen returns the number of bits of v (v >= 0).
func bitLen(v int16) int {
	n := 0
	for ; v > 0; v >>= 1 {
		n++
	}
	return n
}

// Put appends n levels of value v.
func (e *LevelEncoder) Put(v int16, n int) {
	if n <= 0 {
		return
	}
	if e.count > 0 && e.value == v {
		e.count += n
		return
	}
	e.flushRun()
	e.value, e.count = v, n
}

// flushRun appends the pending run to buf.
func (e *LevelEncoder) flushRun() {
	if e.count == 0 {
		return
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(e.count)<<1)
	switch e.width {
	case 1:
		e.buf = append(e.buf, byte(e.value))
	case 2:
		e.buf = binary.LittleEndian.AppendUint16(e.buf, uint16(e.value))
	}
	e.count = 0
}

// Bytes ends the stream and returns its encoding (without the 4-byte
// length of data page v1); it is valid until the next Reset.
func (e *LevelEncoder) Bytes() []byte {
	e.flushRun()
	return e.buf
}
