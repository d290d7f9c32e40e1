package half_test

import (
	"math"
	"testing"

	"github.com/fstensor/fstensor/internal/half"
)

// TestRoundTrip: every binary16 value converts to float64 and back to
// itself, NaNs with their sign and payload.
func TestRoundTrip(t *testing.T) {
	for h := range 1 << 16 {
		v := half.ToFloat64(uint16(h))
		if got := half.FromFloat64(v); got != uint16(h) {
			t.Fatalf("%#04x = %v back as %#04x", h, v, got)
		}
	}
}

// TestNaN: NaNs convert as NumPy's float16 conversions do: the sign and
// the payload shifted by 42 bits, a float64 payload below bit 42 giving
// payload 1 (numpy/_core/src/npymath/halffloat.cpp).
func TestNaN(t *testing.T) {
	for _, tt := range []struct {
		h    uint16
		bits uint64
	}{
		{0x7e00, 0x7ff8000000000000},
		{0xfe00, 0xfff8000000000000},
		{0x7c01, 0x7ff0040000000000},
		{0xffff, 0xfffffc0000000000},
	} {
		if got := math.Float64bits(half.ToFloat64(tt.h)); got != tt.bits {
			t.Errorf("ToFloat64(%#04x) = %#016x, want %#016x", tt.h, got, tt.bits)
		}
		if got := half.FromFloat64(math.Float64frombits(tt.bits)); got != tt.h {
			t.Errorf("FromFloat64(%#016x) = %#04x, want %#04x", tt.bits, got, tt.h)
		}
	}
	if got := half.FromFloat64(math.Float64frombits(0xfff0000000000001)); got != 0xfc01 {
		t.Errorf("a payload below bit 42: %#04x, want 0xfc01", got)
	}
}

// TestRounding: values between two neighbours round to the nearer, ties
// to the even one, for normals, subnormals and the overflow to infinity.
func TestRounding(t *testing.T) {
	for h := uint16(0); h < 0x7bff; h++ { // finite neighbours
		lo, hi := half.ToFloat64(h), half.ToFloat64(h+1)
		mid := (lo + hi) / 2 // exact in float64
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, tt := range []struct {
			v    float64
			want uint16
		}{
			{lo + (hi-lo)/4, h},
			{hi - (hi-lo)/4, h + 1},
			{mid, even},
			{-mid, 0x8000 | even},
		} {
			if got := half.FromFloat64(tt.v); got != tt.want {
				t.Fatalf("%v: %#04x, want %#04x", tt.v, got, tt.want)
			}
		}
	}
	for _, tt := range []struct {
		v    float64
		want uint16
	}{
		{65504, 0x7bff},
		{65519.99, 0x7bff},
		{65520, 0x7c00}, // the tie above the largest finite value rounds to infinity
		{1e300, 0x7c00},
		{math.Inf(-1), 0xfc00},
		{math.Ldexp(1, -25), 0},        // half the smallest subnormal: tie to even 0
		{math.Ldexp(1.5, -25), 1},      // above it: the smallest subnormal
		{math.Copysign(0, -1), 0x8000}, // the sign of zero is kept
		{math.Ldexp(1, -26), 0},        // underflow
		{0.1, 0x2e66},                  // numpy.float16(0.1).view(uint16)
		{1.0 / 3, 0x3555},              // numpy.float16(1/3).view(uint16)
		{-2.0 / 3, 0xb955},             // numpy.float16(-2/3).view(uint16)
	} {
		if got := half.FromFloat64(tt.v); got != tt.want {
			t.Errorf("%v: %#04x, want %#04x", tt.v, got, tt.want)
		}
	}
}
