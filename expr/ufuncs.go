package expr

import (
	"math"
	"sync"

	"github.com/fstensor/fstensor/internal/half"
	"github.com/fstensor/fstensor/internal/unsafeslice"
)

// chunk is the most values a program holds at once.
const chunk = 1024

// view is a source or destination buffer of elements of one dtype.
type view struct {
	b  []byte
	dt dtype
}

func cast[T any](b []byte) []T {
	s, err := unsafeslice.Cast[T](b[:len(b)/int(sizeOf[T]())*int(sizeOf[T]())])
	if err != nil {
		panic("expr: " + err.Error()) // buffers are checked aligned before evaluation
	}
	return s
}

func sizeOf[T any]() uintptr {
	var z T
	switch any(z).(type) {
	case int8, uint8:
		return 1
	case int16, uint16:
		return 2
	case int32, uint32, float32:
		return 4
	}
	return 8
}

var (
	f16Once  sync.Once
	f16Table []float32
)

// f16Values returns the value of every binary16 bit pattern.
func f16Values() []float32 {
	f16Once.Do(func() {
		f16Table = make([]float32, 1<<16)
		for h := range f16Table {
			f16Table[h] = float32(half.ToFloat64(uint16(h)))
		}
	})
	return f16Table
}

func loadInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](dst []int64, b []byte, off, st int) {
	s := cast[T](b)
	if st == 1 {
		s = s[off : off+len(dst)]
		for j, v := range s {
			dst[j] = int64(v)
		}
		return
	}
	for j := range dst {
		dst[j] = int64(s[off+j*st])
	}
}

func loadFloats[T float32 | float64](dst []float64, b []byte, off, st int) {
	s := cast[T](b)
	if st == 1 {
		s = s[off : off+len(dst)]
		for j, v := range s {
			dst[j] = float64(v)
		}
		return
	}
	for j := range dst {
		dst[j] = float64(s[off+j*st])
	}
}

// load reads len(f) (float dtypes) or len(i) values of v from element
// off, st elements apart.
func (v view) load(f []float64, i []int64, off, st int) {
	switch v.dt {
	case dtI8:
		loadInts[int8](i, v.b, off, st)
	case dtI16:
		loadInts[int16](i, v.b, off, st)
	case dtI32:
		loadInts[int32](i, v.b, off, st)
	case dtI64:
		loadInts[int64](i, v.b, off, st)
	case dtU8:
		loadInts[uint8](i, v.b, off, st)
	case dtU16:
		loadInts[uint16](i, v.b, off, st)
	case dtU32:
		loadInts[uint32](i, v.b, off, st)
	case dtU64:
		loadInts[uint64](i, v.b, off, st)
	case dtF16:
		s, t := cast[uint16](v.b), f16Values()
		for j := range f {
			f[j] = float64(t[s[off+j*st]])
		}
	case dtF32:
		loadFloats[float32](f, v.b, off, st)
	case dtF64:
		loadFloats[float64](f, v.b, off, st)
	}
}

func storeInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64](b []byte, src []int64, off, st int) {
	s := cast[T](b)
	for j, v := range src {
		s[off+j*st] = T(v)
	}
}

// store writes values (already of v's dtype) from element off, st apart.
func (v view) store(f []float64, i []int64, off, st int) {
	switch v.dt {
	case dtI8:
		storeInts[int8](v.b, i, off, st)
	case dtI16:
		storeInts[int16](v.b, i, off, st)
	case dtI32:
		storeInts[int32](v.b, i, off, st)
	case dtI64:
		storeInts[int64](v.b, i, off, st)
	case dtU8:
		storeInts[uint8](v.b, i, off, st)
	case dtU16:
		storeInts[uint16](v.b, i, off, st)
	case dtU32:
		storeInts[uint32](v.b, i, off, st)
	case dtU64:
		storeInts[uint64](v.b, i, off, st)
	case dtF16:
		s := cast[uint16](v.b)
		for j, x := range f {
			s[off+j*st] = half.FromFloat64(x)
		}
	case dtF32:
		s := cast[float32](v.b)
		for j, x := range f {
			s[off+j*st] = float32(x)
		}
	case dtF64:
		s := cast[float64](v.b)
		for j, x := range f {
			s[off+j*st] = x
		}
	}
}

// exec runs instruction in over the values f (float dtypes) or i, with
// its constant from element ko, ks apart. It returns the buffers the
// values are in afterwards.
func (in *instr) exec(f []float64, i []int64, ko, ks int) {
	if in.code == iCast {
		castValues(in.from, in.to, f, i)
		return
	}
	d := in.to
	if d.float() {
		var k []float64
		if in.k != nil {
			k = in.k.f
		}
		for j, v := range f {
			var c float64
			if k != nil {
				c = k[ko+j*ks]
			}
			switch in.code {
			case iAdd:
				v += c
			case iSub:
				v -= c
			case iMul:
				v *= c
			case iDiv:
				v /= c
			case iRSub:
				v = c - v
			case iRDiv:
				v = c / v
			case iMax:
				if v < c || c != c {
					v = c
				}
			case iMin:
				if v > c || c != c {
					v = c
				}
			case iAbs:
				v = math.Abs(v)
			case iSqrt:
				v = math.Sqrt(v)
			}
			f[j] = v
		}
		if d != dtF64 {
			for j, v := range f {
				f[j] = roundTo(v, d)
			}
		}
		return
	}
	var k []int64
	if in.k != nil {
		k = in.k.i
	}
	for j, v := range i {
		var c int64
		if k != nil {
			c = k[ko+j*ks]
		}
		switch in.code {
		case iAdd:
			v += c
		case iSub:
			v -= c
		case iMul:
			v *= c
		case iRSub:
			v = c - v
		case iMax:
			if less(v, c, d) {
				v = c
			}
		case iMin:
			if less(c, v, d) {
				v = c
			}
		case iAbs:
			if v < 0 && d.signed() {
				v = -v
			}
		}
		i[j] = wrapTo(v, d)
	}
}

// less compares integers of dtype d (uint64 as bits).
func less(a, b int64, d dtype) bool {
	if d == dtU64 {
		return uint64(a) < uint64(b)
	}
	return a < b
}

// castValues converts n values from dtype from to dtype to, between the
// float and integer buffers as their kinds require.
func castValues(from, to dtype, f []float64, i []int64) {
	switch {
	case from.float() && to.float():
		if to != dtF64 {
			for j, v := range f {
				f[j] = roundTo(v, to)
			}
		}
	case from.float():
		for j, v := range f {
			i[j] = floatToInt(v, to)
		}
	case to.float():
		for j, v := range i {
			f[j] = intToFloat(v, from, to)
		}
	default:
		for j, v := range i {
			i[j] = wrapTo(v, to)
		}
	}
}
