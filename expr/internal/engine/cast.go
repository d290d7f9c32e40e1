package engine

import (
	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/numeric"
)

// castLoop converts s to d as Cast does: integers wrap around, floats
// round to nearest even, a float to an integer truncates toward zero
// with NaN 0 and saturation.
func castLoop[D, S number](d []D, s []S) {
	s = s[:len(d)]
	if isFloatT[S]() && !isFloatT[D]() {
		sat := satOf[D]()
		for j, v := range s {
			d[j] = sat.conv(float64(v))
		}
		return
	}
	for j, v := range s {
		d[j] = D(v)
	}
}

// toBool sets d[j] to s[j] != 0 (NaN is true).
func toBool[S number](d []uint8, s []S) {
	for j, v := range s[:len(d)] {
		d[j] = b2u(v != 0)
	}
}

func castFrom[S number](d []byte, dt DType, s []S) {
	switch dt {
	case Bool:
		toBool(d, s)
	case Int8:
		castLoop(as[int8](d), s)
	case Int16:
		castLoop(as[int16](d), s)
	case Int32:
		castLoop(as[int32](d), s)
	case Int64:
		castLoop(as[int64](d), s)
	case Uint8:
		castLoop(as[uint8](d), s)
	case Uint16:
		castLoop(as[uint16](d), s)
	case Uint32:
		castLoop(as[uint32](d), s)
	case Uint64:
		castLoop(as[uint64](d), s)
	case Float32:
		castLoop(as[float32](d), s)
	case Float64:
		castLoop(as[float64](d), s)
	}
}

// castBytes converts n elements of src (type sdt) to dst (type ddt).
func castBytes(ws *workspace, dst []byte, ddt DType, src []byte, sdt DType, n int) {
	if sdt == Float16 || ddt == Float16 {
		castHalf(ws, dst, ddt, src, sdt, n)
		return
	}
	dst = dst[:n*ddt.Width()]
	if sdt == Uint8 && ddt == Float32 {
		numeric.U8ToF32(as[float32](dst), src[:n])
		return
	}
	switch sdt {
	case Bool, Uint8:
		castFrom(dst, ddt, src[:n])
	case Int8:
		castFrom(dst, ddt, as[int8](src)[:n])
	case Int16:
		castFrom(dst, ddt, as[int16](src)[:n])
	case Int32:
		castFrom(dst, ddt, as[int32](src)[:n])
	case Int64:
		castFrom(dst, ddt, as[int64](src)[:n])
	case Uint16:
		castFrom(dst, ddt, as[uint16](src)[:n])
	case Uint32:
		castFrom(dst, ddt, as[uint32](src)[:n])
	case Uint64:
		castFrom(dst, ddt, as[uint64](src)[:n])
	case Float32:
		castFrom(dst, ddt, as[float32](src)[:n])
	case Float64:
		castFrom(dst, ddt, as[float64](src)[:n])
	}
}

// castHalf is castBytes when either type is Float16, chunk elements at a
// time through a float64 buffer (float16 values and their conversions
// are exact in float64, but for integers beyond 2^53, which overflow
// float16 anyway).
func castHalf(ws *workspace, dst []byte, ddt DType, src []byte, sdt DType, n int) {
	f := scratchOf[float64](ws, 3, chunk)
	for s := 0; s < n; s += chunk {
		m := min(chunk, n-s)
		g := f[:m]
		if sdt == Float16 {
			for j, h := range as[uint16](src[2*s : 2*(s+m)]) {
				g[j] = half.ToFloat64(h)
			}
		} else {
			w := sdt.Width()
			castBytes(ws, bytesOf(g), Float64, src[s*w:(s+m)*w], sdt, m)
		}
		if ddt == Float16 {
			d16 := as[uint16](dst[2*s : 2*(s+m)])
			for j, v := range g {
				d16[j] = half.FromFloat64(v)
			}
		} else {
			w := ddt.Width()
			castBytes(ws, dst[s*w:(s+m)*w], ddt, bytesOf(g), Float64, m)
		}
	}
}
