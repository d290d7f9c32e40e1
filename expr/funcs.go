package expr

// Func is an element-wise function of Call: NumPy's ufunc of the same
// name. Exp, Log, Log1p, Expm1 and Tanh of integers (and bool) compute
// in the smallest float type that holds them (float16 for 8-bit ones,
// float32 for 16-bit ones, float64 for wider), as NumPy does; Floor,
// Ceil, Round (half to even), Sign, Square, Negative keep the type;
// IsNaN and IsFinite give bool; Invert (~) is bitwise for integers and
// logical for bool.
type Func uint8

// The functions of Call.
const (
	Negative Func = iota + 1
	Invert
	Exp
	Log
	Log1p
	Expm1
	Tanh
	Floor
	Ceil
	Round
	Sign
	Square
	IsNaN
	IsFinite
	fnAbs  // Abs
	fnSqrt // Sqrt
)

var funcNames = [...]string{Negative: "negative", Invert: "invert", Exp: "exp", Log: "log", Log1p: "log1p",
	Expm1: "expm1", Tanh: "tanh", Floor: "floor", Ceil: "ceil", Round: "round", Sign: "sign",
	Square: "square", IsNaN: "isnan", IsFinite: "isfinite", fnAbs: "abs", fnSqrt: "sqrt"}

// String returns the function's NumPy name.
func (f Func) String() string {
	if int(f) < len(funcNames) && funcNames[f] != "" {
		return funcNames[f]
	}
	return "?"
}

// funcNamed returns the Func of a name in the text (absolute is abs).
func funcNamed(w string) (Func, bool) {
	switch w {
	case "absolute":
		return fnAbs, true
	}
	for f, name := range funcNames {
		if name != "" && name == w {
			return Func(f), true
		}
	}
	return 0, false
}
