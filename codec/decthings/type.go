package decthings

import (
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
)

// Type is a Decthings element type: its value is the type byte that starts a
// serialized tensor.
type Type uint8

// The 16 Decthings element types, with their type bytes.
const (
	F32     Type = 1
	F64     Type = 2
	I8      Type = 3
	I16     Type = 4
	I32     Type = 5
	I64     Type = 6
	U8      Type = 7
	U16     Type = 8
	U32     Type = 9
	U64     Type = 10
	String  Type = 11
	Binary  Type = 12
	Boolean Type = 13
	Image   Type = 14
	Audio   Type = 15
	Video   Type = 16
)

var typeNames = [...]string{
	F32: "f32", F64: "f64", I8: "i8", I16: "i16", I32: "i32", I64: "i64",
	U8: "u8", U16: "u16", U32: "u32", U64: "u64", String: "string",
	Binary: "binary", Boolean: "boolean", Image: "image", Audio: "audio", Video: "video",
}

var typeWidths = [...]int{
	F32: 4, F64: 8, I8: 1, I16: 2, I32: 4, I64: 8,
	U8: 1, U16: 2, U32: 4, U64: 8, Boolean: 1,
}

// Valid reports whether t is one of the 16 types.
func (t Type) Valid() bool { return t >= F32 && t <= Video }

// String returns the name Decthings uses in rules ("f32", "string", "image",
// ...), or "Type(n)" for an invalid t.
func (t Type) String() string {
	if !t.Valid() {
		return "Type(" + strconv.Itoa(int(t)) + ")"
	}
	return typeNames[t]
}

// Width returns the byte width of one element of a fixed-size type (1, 2, 4
// or 8; 1 for Boolean) and 0 for the variable-size types (String, Binary,
// Image, Audio, Video) and invalid types.
func (t Type) Width() int {
	if !t.Valid() || int(t) >= len(typeWidths) {
		return 0
	}
	return typeWidths[t]
}

// Numeric reports whether t is one of the ten number types, the ones that
// map to fixedshape columns.
func (t Type) Numeric() bool { return t >= F32 && t <= U64 }

// Media reports whether t is Image, Audio or Video.
func (t Type) Media() bool { return t >= Image && t <= Video }

// ArrowType returns the Arrow element type of a numeric type (float32 for
// F32, ...) or of Boolean (bool, bit-packed), and false for the others.
func (t Type) ArrowType() (arrow.DataType, bool) {
	switch t {
	case F32:
		return arrow.PrimitiveTypes.Float32, true
	case F64:
		return arrow.PrimitiveTypes.Float64, true
	case I8:
		return arrow.PrimitiveTypes.Int8, true
	case I16:
		return arrow.PrimitiveTypes.Int16, true
	case I32:
		return arrow.PrimitiveTypes.Int32, true
	case I64:
		return arrow.PrimitiveTypes.Int64, true
	case U8:
		return arrow.PrimitiveTypes.Uint8, true
	case U16:
		return arrow.PrimitiveTypes.Uint16, true
	case U32:
		return arrow.PrimitiveTypes.Uint32, true
	case U64:
		return arrow.PrimitiveTypes.Uint64, true
	case Boolean:
		return arrow.FixedWidthTypes.Boolean, true
	}
	return nil, false
}

// TypeOf returns the Decthings type of an Arrow element type (Boolean for
// bool), and false for types Decthings has no type for (float16 among
// them).
func TypeOf(dt arrow.DataType) (Type, bool) {
	switch dt.ID() {
	case arrow.FLOAT32:
		return F32, true
	case arrow.FLOAT64:
		return F64, true
	case arrow.INT8:
		return I8, true
	case arrow.INT16:
		return I16, true
	case arrow.INT32:
		return I32, true
	case arrow.INT64:
		return I64, true
	case arrow.UINT8:
		return U8, true
	case arrow.UINT16:
		return U16, true
	case arrow.UINT32:
		return U32, true
	case arrow.UINT64:
		return U64, true
	case arrow.BOOL:
		return Boolean, true
	}
	return 0, false
}

// ParseType returns the type named s ("f32", ..., "video"). An unknown name
// is an error wrapping arrow.ErrInvalid.
func ParseType(s string) (Type, error) {
	for t := F32; t <= Video; t++ {
		if typeNames[t] == s {
			return t, nil
		}
	}
	return 0, errorf("unknown element type %q", s)
}

// MarshalText returns the type's name.
func (t Type) MarshalText() ([]byte, error) {
	if !t.Valid() {
		return nil, errorf("invalid element type %d", uint8(t))
	}
	return []byte(typeNames[t]), nil
}

// UnmarshalText sets t to the type named by text (see ParseType).
func (t *Type) UnmarshalText(text []byte) error {
	v, err := ParseType(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}
