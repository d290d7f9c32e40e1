package parquetconv

import "github.com/fstensor/fstensor/parquetconv/internal/format"

// Hooks for the tests of the writer's encoders in package parquetconv_test.

// EncodeLevels encodes levels (each at most maxLevel) with the writer's
// RLE encoder.
func EncodeLevels(levels []int16, maxLevel int16) []byte {
	var e format.LevelEncoder
	e.Reset(maxLevel)
	for _, v := range levels {
		e.Put(v, 1)
	}
	return append([]byte{}, e.Bytes()...)
}

// EncodeLevelRuns encodes runs of levels given as (value, count) pairs.
func EncodeLevelRuns(runs [][2]int, maxLevel int16) []byte {
	var e format.LevelEncoder
	e.Reset(maxLevel)
	for _, r := range runs {
		e.Put(int16(r[0]), r[1])
	}
	return append([]byte{}, e.Bytes()...)
}

// PutValues is putValues for the element type named: "int8", "uint8",
// "int16", "uint16" or "copy".
func PutValues(dst, src []byte, kind string) {
	putValues(dst, src, map[string]valueKind{"copy": valueCopy, "int8": valueInt8, "uint8": valueUint8, "int16": valueInt16, "uint16": valueUint16}[kind])
}

// SplitStreams is splitStreams.
var SplitStreams = splitStreams
