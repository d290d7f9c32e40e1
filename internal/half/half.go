// Package half converts between float64 and IEEE 754 binary16 (float16)
// bits with correct rounding (to nearest, ties to even, subnormals kept),
// which arrow-go's float16.New does not do (it truncates and flushes
// subnormals to zero).
package half

import "math"

// FromFloat64 returns the binary16 bits nearest to v (ties to even),
// overflowing to infinity as IEEE 754 does; a NaN keeps its sign and the
// top 10 bits of its payload, as NumPy's conversion does (a payload whose
// top bits are 0 gives payload 1, so that the result stays a NaN).
func FromFloat64(v float64) uint16 {
	b := math.Float64bits(v)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52&0x7ff) - 1023
	mant := b & (1<<52 - 1)
	switch {
	case exp == 1024: // inf or NaN
		if mant != 0 {
			return sign | 0x7c00 | max(uint16(mant>>42), 1)
		}
		return sign | 0x7c00
	case exp > 15:
		return sign | 0x7c00
	case exp >= -14: // normal: 10 of the 52 mantissa bits kept
		m := mant >> 42
		rest := mant & (1<<42 - 1)
		h := uint16(exp+15)<<10 | uint16(m)
		if rest > 1<<41 || rest == 1<<41 && h&1 == 1 {
			h++ // may carry into the exponent, up to infinity: correct
		}
		return sign | h
	case exp >= -25: // subnormal: value = m * 2^-24
		full := mant | 1<<52
		shift := uint(28 - exp) // bits below the 2^-24 unit
		m := full >> shift
		rest := full & (1<<shift - 1)
		half := uint64(1) << (shift - 1)
		if rest > half || rest == half && m&1 == 1 {
			m++
		}
		return sign | uint16(m)
	}
	return sign
}

// ToFloat64 returns the value of binary16 bits h.
func ToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h >> 10 & 0x1f)
	mant := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(mant, -24)
	case 31:
		if mant != 0 { // NaN: its sign and payload, as NumPy widens it
			return math.Float64frombits(uint64(h&0x8000)<<48 | 0x7ff<<52 | uint64(h&0x3ff)<<42)
		}
		return sign * math.Inf(1)
	}
	return sign * math.Ldexp(1024+mant, exp-25)
}
