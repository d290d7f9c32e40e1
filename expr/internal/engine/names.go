package engine

import "fmt"

var opNames = [...]string{OpInput: "input", OpConst: "const", OpView: "view", OpCast: "cast",
	OpUnary: "unary", OpBinary: "binary", OpWhere: "where", OpReduce: "reduce",
	OpSimilarity: "similarity", OpMatMul: "matmul", OpConcat: "concat"}

// String returns the op's name ("binary"), as error messages print it.
func (o Op) String() string {
	if int(o) < len(opNames) && opNames[o] != "" {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// String returns the function's NumPy name ("maximum", "argmax"), as
// error messages print it.
func (f Fn) String() string {
	for _, m := range []map[Fn]string{unaryNames, binaryNames, reduceNames} {
		if s, ok := m[f]; ok {
			return s
		}
	}
	return fmt.Sprintf("Fn(%d)", uint8(f))
}
