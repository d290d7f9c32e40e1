package tfproto

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// DataType is a TensorFlow DataType enum value (types.proto).
type DataType int32

// The DataType values this package reads and writes; others are refused.
const (
	Float    DataType = 1  // DT_FLOAT: float32
	Double   DataType = 2  // DT_DOUBLE: float64
	Int32    DataType = 3  // DT_INT32
	Uint8    DataType = 4  // DT_UINT8
	Int16    DataType = 5  // DT_INT16
	Int8     DataType = 6  // DT_INT8
	String   DataType = 7  // DT_STRING: byte strings, never in tensor_content
	Int64    DataType = 9  // DT_INT64
	Bool     DataType = 10 // DT_BOOL: one byte per element, 0 or 1
	BFloat16 DataType = 14 // DT_BFLOAT16: the upper 16 bits of a float32
	Uint16   DataType = 17 // DT_UINT16
	Half     DataType = 19 // DT_HALF: IEEE float16
	Uint32   DataType = 22 // DT_UINT32
	Uint64   DataType = 23 // DT_UINT64
)

var dtypeNames = map[DataType]string{
	Float: "DT_FLOAT", Double: "DT_DOUBLE", Int32: "DT_INT32", Uint8: "DT_UINT8",
	Int16: "DT_INT16", Int8: "DT_INT8", String: "DT_STRING", Int64: "DT_INT64",
	Bool: "DT_BOOL", BFloat16: "DT_BFLOAT16", Uint16: "DT_UINT16", Half: "DT_HALF",
	Uint32: "DT_UINT32", Uint64: "DT_UINT64",
}

// String returns the TensorFlow name ("DT_FLOAT"), or "DataType(n)" for a
// value this package does not support.
func (d DataType) String() string {
	if s, ok := dtypeNames[d]; ok {
		return s
	}
	return "DataType(" + strconv.Itoa(int(d)) + ")"
}

// Supported reports whether this package reads and writes d.
func (d DataType) Supported() bool { _, ok := dtypeNames[d]; return ok }

// Width returns the byte width of one element of d in tensor_content (1 for
// Bool) and 0 for String and unsupported types.
func (d DataType) Width() int {
	switch d {
	case Int8, Uint8, Bool:
		return 1
	case Int16, Uint16, Half, BFloat16:
		return 2
	case Float, Int32, Uint32:
		return 4
	case Double, Int64, Uint64:
		return 8
	}
	return 0
}

// ArrowType returns the Arrow element type of a fixedshape column holding d:
// the same type for the numbers, float16 for Half and float32 for BFloat16
// (a lossless widening), bool (bit-packed) for Bool; false for String,
// which has no fixedshape element type.
func (d DataType) ArrowType() (arrow.DataType, bool) {
	switch d {
	case Float, BFloat16:
		return arrow.PrimitiveTypes.Float32, true
	case Double:
		return arrow.PrimitiveTypes.Float64, true
	case Half:
		return arrow.FixedWidthTypes.Float16, true
	case Int8:
		return arrow.PrimitiveTypes.Int8, true
	case Int16:
		return arrow.PrimitiveTypes.Int16, true
	case Int32:
		return arrow.PrimitiveTypes.Int32, true
	case Int64:
		return arrow.PrimitiveTypes.Int64, true
	case Uint8:
		return arrow.PrimitiveTypes.Uint8, true
	case Uint16:
		return arrow.PrimitiveTypes.Uint16, true
	case Uint32:
		return arrow.PrimitiveTypes.Uint32, true
	case Uint64:
		return arrow.PrimitiveTypes.Uint64, true
	case Bool:
		return arrow.FixedWidthTypes.Boolean, true
	}
	return nil, false
}

// DataTypeOf returns the DataType of a fixedshape element type.
func DataTypeOf(dt arrow.DataType) (DataType, bool) {
	switch dt.ID() {
	case arrow.FLOAT32:
		return Float, true
	case arrow.FLOAT64:
		return Double, true
	case arrow.FLOAT16:
		return Half, true
	case arrow.INT8:
		return Int8, true
	case arrow.INT16:
		return Int16, true
	case arrow.INT32:
		return Int32, true
	case arrow.INT64:
		return Int64, true
	case arrow.UINT8:
		return Uint8, true
	case arrow.UINT16:
		return Uint16, true
	case arrow.UINT32:
		return Uint32, true
	case arrow.UINT64:
		return Uint64, true
	case arrow.BOOL:
		return Bool, true
	}
	return 0, false
}
