package expr

import (
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/half"
)

// dtype is a numeric element type of the computing operations, ordered
// as NumPy's type codes are: signed, unsigned, then floating point.
type dtype uint8

const (
	dtNone dtype = iota
	dtI8
	dtI16
	dtI32
	dtI64
	dtU8
	dtU16
	dtU32
	dtU64
	dtF16
	dtF32
	dtF64
)

var dtArrow = [...]arrow.DataType{
	dtI8: arrow.PrimitiveTypes.Int8, dtI16: arrow.PrimitiveTypes.Int16,
	dtI32: arrow.PrimitiveTypes.Int32, dtI64: arrow.PrimitiveTypes.Int64,
	dtU8: arrow.PrimitiveTypes.Uint8, dtU16: arrow.PrimitiveTypes.Uint16,
	dtU32: arrow.PrimitiveTypes.Uint32, dtU64: arrow.PrimitiveTypes.Uint64,
	dtF16: arrow.FixedWidthTypes.Float16, dtF32: arrow.PrimitiveTypes.Float32,
	dtF64: arrow.PrimitiveTypes.Float64,
}

var dtNames = [...]string{
	dtI8: "int8", dtI16: "int16", dtI32: "int32", dtI64: "int64",
	dtU8: "uint8", dtU16: "uint16", dtU32: "uint32", dtU64: "uint64",
	dtF16: "float16", dtF32: "float32", dtF64: "float64",
}

// dtypeOf returns the dtype of an Arrow element type, dtNone for the
// types computing operations do not take (bool, decimals, binaries...).
func dtypeOf(t arrow.DataType) dtype {
	if t == nil {
		return dtNone
	}
	for d := dtI8; d <= dtF64; d++ {
		if t.ID() == dtArrow[d].ID() {
			return d
		}
	}
	return dtNone
}

// dtypeNamed returns the dtype of a NumPy type name (`float32`,
// `np.uint8`), dtNone for others.
func dtypeNamed(name string) dtype {
	if len(name) > 3 && name[:3] == "np." {
		name = name[3:]
	}
	for d := dtI8; d <= dtF64; d++ {
		if dtNames[d] == name {
			return d
		}
	}
	return dtNone
}

func (d dtype) String() string        { return dtNames[d] }
func (d dtype) float() bool           { return d >= dtF16 }
func (d dtype) unsigned() bool        { return d >= dtU8 && d <= dtU64 }
func (d dtype) signed() bool          { return d >= dtI8 && d <= dtI64 }
func (d dtype) width() int            { return dtArrow[d].(arrow.FixedWidthDataType).BitWidth() / 8 }
func (d dtype) arrow() arrow.DataType { return dtArrow[d] }

// bits returns the width in bits of an integer dtype.
func (d dtype) bits() int { return 8 * d.width() }

// intRange returns the smallest and largest value of an integer dtype as
// float64 bounds for a saturating conversion: [lo, hi) for the unsigned
// and 64-bit types, where hi is a power of two.
func (d dtype) intRange() (lo, hi float64) {
	if d.unsigned() {
		return 0, math.Ldexp(1, d.bits())
	}
	h := math.Ldexp(1, d.bits()-1)
	return -h, h
}

// fits reports whether the integer v is a value of integer dtype d.
func (d dtype) fits(v int64) bool {
	if d == dtU64 {
		return v >= 0
	}
	if d == dtI64 {
		return true
	}
	lo, hi := d.intRange()
	f := float64(v)
	return f >= lo && f < hi
}

// promote returns NumPy's result_type of two array dtypes (numpy 2):
// the smallest type that holds both; int64 with uint64 is float64.
func promote(a, b dtype) dtype {
	if a == b {
		return a
	}
	if a > b {
		a, b = b, a
	}
	switch {
	case a.float(): // both floating point
		return b
	case b.float():
		// An integer with a float: the float wide enough for the integer.
		need := dtF16
		switch a {
		case dtI16, dtU16:
			need = dtF32
		case dtI32, dtU32, dtI64, dtU64:
			need = dtF64
		}
		return max(need, b)
	case a.signed() && b.signed():
		return b
	case a.unsigned() && b.unsigned():
		return b
	}
	// a signed, b unsigned: a signed type wider than b, if any.
	s := max(a, dtI16+dtype(b-dtU8))
	if b == dtU64 {
		return dtF64
	}
	return s
}

// weak describes a Python scalar operand: NEP 50 makes it take the
// array's dtype (an int within the integer array's range, any number with
// a float array) except that a float with an integer array is float64.
type weak uint8

const (
	weakNone weak = iota
	weakInt
	weakFloat
)

// promoteWeak returns the result dtype of an array of dtype a with a
// Python scalar of kind w.
func promoteWeak(a dtype, w weak) dtype {
	if w == weakFloat && !a.float() {
		return dtF64
	}
	return a
}

// sqrtType returns the dtype of NumPy's sqrt (and of the first float
// loop any unary float function picks) for input d: the smallest float
// that holds d safely.
func sqrtType(d dtype) dtype {
	switch d {
	case dtI8, dtU8, dtF16:
		return dtF16
	case dtI16, dtU16, dtF32:
		return dtF32
	}
	return dtF64
}

// sumType returns the dtype of NumPy's sum of d: int64 for signed and
// uint64 for unsigned integers (the platform integers), floats kept.
func sumType(d dtype) dtype {
	switch {
	case d.signed():
		return dtI64
	case d.unsigned():
		return dtU64
	}
	return d
}

// meanType returns the dtype of NumPy's mean and linalg.norm of d:
// float64 for integers, floats kept.
func meanType(d dtype) dtype {
	if d.float() {
		return d
	}
	return dtF64
}

// roundTo rounds v to the nearest value of float dtype d (ties to even).
func roundTo(v float64, d dtype) float64 {
	switch d {
	case dtF32:
		return float64(float32(v))
	case dtF16:
		return half.ToFloat64(half.FromFloat64(v))
	}
	return v
}

// wrapTo truncates v to integer dtype d, as a C cast does (two's
// complement wrap-around), and returns it sign- or zero-extended.
func wrapTo(v int64, d dtype) int64 {
	switch d {
	case dtI8:
		return int64(int8(v))
	case dtI16:
		return int64(int16(v))
	case dtI32:
		return int64(int32(v))
	case dtU8:
		return int64(uint8(v))
	case dtU16:
		return int64(uint16(v))
	case dtU32:
		return int64(uint32(v))
	}
	return v
}

// intToFloat converts integer v of dtype from to the float dtype to with
// one rounding, as NumPy's cast does.
func intToFloat(v int64, from, to dtype) float64 {
	switch {
	case to == dtF32 && from == dtU64:
		return float64(float32(uint64(v)))
	case to == dtF32:
		return float64(float32(v))
	case from == dtU64:
		return roundTo(float64(uint64(v)), to)
	}
	// |v| < 2^63: float64(v) rounds once; for float16 any value that
	// float64 rounds is beyond float16's range, so the second rounding
	// gives the same infinity.
	return roundTo(float64(v), to)
}

// floatToInt converts v to integer dtype d the defined way: NaN gives 0,
// values beyond the type's range saturate to its smallest or largest
// value (infinities included), and others are truncated toward zero.
func floatToInt(v float64, d dtype) int64 {
	if v != v {
		return 0
	}
	lo, hi := d.intRange()
	switch {
	case v <= lo:
		if d == dtU64 {
			return 0
		}
		return int64(lo)
	case v >= hi:
		if d == dtU64 {
			return -1 // math.MaxUint64 as bits
		}
		return int64(hi) - 1
	}
	if d == dtU64 {
		return int64(uint64(v))
	}
	return int64(v)
}
