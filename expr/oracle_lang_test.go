package expr_test

import "strings"

// The cases of the expression language of issue 25 beyond the chain:
// reuse, several columns, per-row numbers, comparisons, functions,
// nested reductions, views after computing, matmul, einsum,
// concatenate and stack.

// oracleUnary are the element-wise functions, run on every dtype of
// oracleUnaryTypes.
var oracleUnary = []string{
	"-x", "exp(x)", "log(x)", "log1p(x)", "expm1(x)", "tanh(x)", "floor(x)", "ceil(x)", "round(x)",
	"sign(x)", "square(x)", "isnan(x)", "isfinite(x)", "abs(x)", "sqrt(x)", "x.any(axis=1)", "x.all()",
}

// oracleSameType are the binary operations run on two columns of every
// dtype: the left one over the type's whole range (wrap-around), the
// right one small and with zeros (integer division by 0).
var oracleSameType = []string{"a + b", "a - b", "a * b", "a // b", "a % b", "a < b", "a != b", "maximum(a, b)", "where(a > b, a, b)"}

var oracleUnaryTypes = []string{"float16", "float32", "float64", "int8", "uint8", "int16", "int32", "uint64"}

// oracleLangCases are the cases of the language beyond the chain.
func oracleLangCases() []oracleCase {
	var cs []oracleCase
	for _, dt := range oracleUnaryTypes {
		for _, text := range oracleUnary {
			x := tcol("x", dt, 3, 4)
			if oracleIsFloat(dt) {
				x = x.specials()
			}
			cs = append(cs, oracleCase{name: "unary/" + dt + "/" + text, text: text, cols: []oracleCol{x}})
		}
	}
	// Array-array promotion: a + b over every pair of dtypes.
	for _, da := range oracleNumeric {
		for _, db := range oracleNumeric {
			cs = append(cs, oracleCase{name: "pair/" + da + "+" + db, text: "a + b", cols: []oracleCol{tcol("a", da, 2, 3), tcol("b", db, 3)}})
		}
	}
	// The binary operations between two columns of one dtype.
	for _, dt := range oracleNumeric {
		for _, text := range oracleSameType {
			a, b := tcol("a", dt, 4, 3), tcol("b", dt, 3)
			if oracleIsFloat(dt) {
				a, b = a.specials(), b.specials()
			} else {
				a, b = a.wide(), b.in(-3, 3)
				if strings.HasPrefix(dt, "uint") {
					b = b.in(0, 3)
				}
			}
			cs = append(cs, oracleCase{name: "same/" + dt + "/" + text, text: text, cols: []oracleCol{a, b}})
		}
	}
	cs = append(cs, oracleSyntaxCases()...)
	cs = append(cs, oracleMiscCases()...)
	cs = append(cs, oracleReuseCases()...)
	cs = append(cs, oracleColumnCases()...)
	cs = append(cs, oracleBoolCases()...)
	cs = append(cs, oracleIntCases()...)
	cs = append(cs, oracleNestCases()...)
	cs = append(cs, oracleMatmulCases()...)
	cs = append(cs, oracleLangErrorCases()...)
	return cs
}

func oracleX32(shape ...int) []oracleCol { return []oracleCol{tcol("x", "float32", shape...)} }

func oracleAB(dt string, sa, sb []int) []oracleCol {
	return []oracleCol{tcol("a", dt, sa...), tcol("b", dt, sb...)}
}

func oracleDims(d ...int) []int { return d }

// oracleReuseCases use a sub-expression more than once.
func oracleReuseCases() []oracleCase {
	softmax := "exp(x - x.max(axis=-1, keepdims=True)) / exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1, keepdims=True)"
	return []oracleCase{
		{name: "reuse/center", text: "x - x.mean()", cols: oracleX32(4, 3)},
		{name: "reuse/center float64", text: "x - x.mean(axis=0)", cols: []oracleCol{tcol("x", "float64", 4, 3).specials()}},
		{name: "reuse/center uint8", text: "x - x.mean(axis=1, keepdims=True)", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "reuse/normalize", text: "x / norm(x, axis=-1, keepdims=True)", cols: oracleX32(3, 8)},
		{name: "reuse/normalize float16", text: "x / norm(x, axis=-1, keepdims=True)", cols: []oracleCol{tcol("x", "float16", 3, 8)}},
		{name: "reuse/normalize many rows", text: "x / norm(x, axis=-1, keepdims=True)", cols: oracleX32(96), rows: 700},
		{name: "blocks/normalize", text: "x / norm(x, axis=-1, keepdims=True)", cols: []oracleCol{tcol("x", "float32", 256).nullAt(0, 1, 999, 1000, 1001, 1999)}, rows: 2000},
		{name: "blocks/two columns", text: "norm(a - b, axis=-1) + dot(a, b)", cols: []oracleCol{tcol("a", "float32", 256).nullAt(3, 1024), tcol("b", "float32", 256).nullAt(4, 1500)}, rows: 2000},
		{name: "blocks/uint8 images", text: "(x.astype(float32) - x.astype(float32).mean(axis=(0, 1))) / 64", cols: []oracleCol{tcol("x", "uint8", 16, 16, 3).in(0, 255).nullAt(7, 700)}, rows: 1500},
		{name: "reuse/standardize", text: "(x - x.mean(axis=(0, 1), keepdims=True)) / x.std(axis=(0, 1), keepdims=True)", cols: oracleX32(4, 5, 3)},
		{name: "reuse/standardize uint8 image", text: "(x.astype(float32) - x.astype(float32).mean(axis=(0, 1))) / x.astype(float32).std(axis=(0, 1))", cols: []oracleCol{tcol("x", "uint8", 6, 5, 3).in(0, 255)}},
		{name: "reuse/softmax", text: softmax, cols: oracleX32(3, 6)},
		{name: "reuse/softmax float64", text: softmax, cols: []oracleCol{tcol("x", "float64", 2, 5).in(-30, 30)}},
		{name: "reuse/square", text: "x * x", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "reuse/plus transpose", text: "x + x.T", cols: oracleX32(3, 3)},
		{name: "reuse/minus flipped", text: "x - x[::-1]", cols: []oracleCol{tcol("x", "int8", 4, 3)}},
		{name: "reuse/sum minus max", text: "x.sum(axis=0) - x.max(axis=0)", cols: oracleX32(4, 3)},
		{name: "reuse/x / x", text: "x / x", cols: []oracleCol{tcol("x", "int32", 4, 3).in(-2, 2)}},
		{name: "reuse/x != x", text: "x != x", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "reuse/x @ x.T", text: "x @ x.T", cols: oracleX32(3, 4)},
		{name: "reuse/min max scale", text: "(x - x.min()) / (x.max() - x.min())", cols: oracleX32(4, 3)},
		{name: "reuse/three times", text: "x * 2 + x * 3 - x", cols: []oracleCol{tcol("x", "uint8", 4, 3).wide()}},
		{name: "reuse/permuted", text: "x - x.mean(axis=2, keepdims=True)", cols: []oracleCol{tcol("x", "float32", 2, 3, 4).permuted(2, 0, 1)}},
		{name: "reuse/logsumexp", text: "x.max(axis=-1) + log(exp(x - x.max(axis=-1, keepdims=True)).sum(axis=-1))", cols: oracleX32(3, 5)},
	}
}

// oracleColumnCases read two columns or a per-row number.
func oracleColumnCases() []oracleCase {
	return []oracleCase{
		{name: "two/a - b", text: "a - b", cols: oracleAB("float32", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "two/a * b broadcast", text: "a * b", cols: oracleAB("float32", oracleDims(4, 1), oracleDims(1, 3))},
		{name: "two/a / b int", text: "a / b", cols: oracleAB("int16", oracleDims(4, 3), oracleDims(3))},
		{name: "two/a - b uint8 wrap", text: "a - b", cols: []oracleCol{tcol("a", "uint8", 4, 3).wide(), tcol("b", "uint8", 4, 3).wide()}},
		{name: "two/int8 * uint8", text: "a * b", cols: []oracleCol{tcol("a", "int8", 4, 3).wide(), tcol("b", "uint8", 4, 3).wide()}},
		{name: "two/int64 - uint64", text: "a - b", cols: []oracleCol{tcol("a", "int64", 3), tcol("b", "uint64", 3)}},
		{name: "two/float16 * int16", text: "a * b", cols: []oracleCol{tcol("a", "float16", 3), tcol("b", "int16", 3)}},
		{name: "view/permuted square engine", text: "x & 5", cols: []oracleCol{tcol("x", "int32", 3, 3).permuted(1, 0)}},
		{name: "view/permuted cube engine", text: "where(x > 0, x, 0)", cols: []oracleCol{tcol("x", "float32", 2, 2, 2).permuted(1, 2, 0)}},
		{name: "view/permuted cube two columns", text: "a - b", cols: []oracleCol{tcol("a", "float64", 2, 2, 2).permuted(2, 0, 1), tcol("b", "float64", 2, 2, 2)}},
		{name: "two/permuted and not", text: "a - b", cols: []oracleCol{tcol("a", "float64", 2, 3, 4).permuted(1, 2, 0), tcol("b", "float64", 2, 3, 4)}},
		{name: "two/both permuted", text: "a * 2 + b", cols: []oracleCol{tcol("a", "int32", 3, 4).permuted(1, 0), tcol("b", "int32", 2, 3, 4).permuted(2, 0, 1)}},
		{name: "two/nulls in both", text: "a + b", cols: []oracleCol{tcol("a", "float32", 3).nullAt(1), tcol("b", "float32", 3).nullAt(3, 4)}, rows: 6},
		{name: "two/nulls in both many rows", text: "a * b - a", cols: []oracleCol{tcol("a", "float32", 64).nullAt(0, 7, 8, 200, 299), tcol("b", "float32", 64).nullAt(1, 8, 100, 101, 102, 250)}, rows: 300},
		{name: "two/dot", text: "dot(a, b)", cols: oracleAB("float32", oracleDims(8), oracleDims(8))},
		{name: "two/dot float64", text: "dot(a, b)", cols: oracleAB("float64", oracleDims(2, 4), oracleDims(2, 4))},
		{name: "two/dot int16", text: "dot(a, b)", cols: oracleAB("int16", oracleDims(6), oracleDims(6))},
		{name: "two/dot many rows", text: "dot(a, b)", cols: oracleAB("float32", oracleDims(100), oracleDims(100)), rows: 500},
		{name: "two/cosine", text: "cosine(a, b)", cols: oracleAB("float32", oracleDims(8), oracleDims(8))},
		{name: "two/l2", text: "l2(a, b)", cols: oracleAB("float32", oracleDims(8), oracleDims(8))},
		{name: "two/sqeuclidean", text: "sqeuclidean(a, b)", cols: oracleAB("float64", oracleDims(8), oracleDims(8))},
		{name: "two/norm of difference", text: "norm(a - b, axis=-1)", cols: oracleAB("float32", oracleDims(3, 8), oracleDims(3, 8))},
		{name: "two/norm of difference many rows", text: "norm(a - b, axis=-1)", cols: oracleAB("float32", oracleDims(128), oracleDims(128)), rows: 500},
		{name: "two/maximum nan", text: "maximum(a, b)", cols: []oracleCol{tcol("a", "float32", 4, 3).specials(), tcol("b", "float32", 3).specials()}},
		{name: "two/minimum int", text: "minimum(a, b)", cols: []oracleCol{tcol("a", "int8", 4, 3), tcol("b", "uint8", 4, 3)}},
		{name: "two/where", text: "where(a > b, a, b)", cols: oracleAB("float64", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "two/0-D", text: "a * b + 1", cols: oracleAB("float32", nil, nil)},
		{name: "two/int64 < uint64", text: "a < b", cols: []oracleCol{tcol("a", "int64", 5).wide(), tcol("b", "uint64", 5).wide()}},
		{name: "two/int64 == uint64", text: "a == b", cols: []oracleCol{tcol("a", "int64", 5).in(0, 3), tcol("b", "uint64", 5).in(0, 3)}},
		{name: "two/col quoted", text: `col("a b") - col("c")`, cols: []oracleCol{tcol("a b", "float32", 3), tcol("c", "float32", 3)}},
		{name: "row number/x * s", text: "x * s", cols: []oracleCol{tcol("x", "float32", 4, 3), pcol("s", "float32")}},
		{name: "row number/float64 s", text: "x * s", cols: []oracleCol{tcol("x", "float32", 4, 3), pcol("s", "float64")}},
		{name: "row number/int16 s uint8 x", text: "x + s", cols: []oracleCol{tcol("x", "uint8", 4, 3), pcol("s", "int16")}},
		{name: "row number/int64 s float16 x", text: "x - s", cols: []oracleCol{tcol("x", "float16", 4, 3), pcol("s", "int64")}},
		{name: "row number/divide", text: "x / s", cols: []oracleCol{tcol("x", "int32", 4, 3), pcol("s", "int32").in(-2, 2)}},
		{name: "row number/sum", text: "(x - s).sum()", cols: []oracleCol{tcol("x", "float64", 4, 3), pcol("s", "float64")}},
		{name: "row number/compare", text: "x > s", cols: []oracleCol{tcol("x", "int16", 4, 3), pcol("s", "int16")}},
		{name: "row number/null", text: "x * s", cols: []oracleCol{tcol("x", "float32", 3), pcol("s", "float32").nullAt(0)}},
		{name: "row number/two plain", text: "s * t + 1", cols: []oracleCol{pcol("s", "float32"), pcol("t", "int8")}},
		{name: "row number/where", text: "where(x > s, x, s)", cols: []oracleCol{tcol("x", "float32", 5), pcol("s", "float32")}},
	}
}

// oracleBoolCases compare, mask and select.
func oracleBoolCases() []oracleCase {
	bx := func(shape ...int) []oracleCol { return []oracleCol{tcol("x", "float32", shape...).specials()} }
	return []oracleCase{
		{name: "bool/x > 1", text: "x > 1", cols: bx(4, 3)},
		{name: "bool/x <= 0", text: "x <= 0", cols: bx(4, 3)},
		{name: "bool/x == 0", text: "x == 0", cols: []oracleCol{tcol("x", "int8", 4, 3).in(-1, 1)}},
		{name: "bool/x >= list", text: "x >= [1, 2, 3]", cols: []oracleCol{tcol("x", "uint8", 4, 3).in(0, 4)}},
		{name: "bool/x < float", text: "x < 2.5", cols: []oracleCol{tcol("x", "int16", 4, 3).in(0, 4)}},
		{name: "bool/and", text: "(x > 0) & (x < 2)", cols: bx(4, 3)},
		{name: "bool/or", text: "(x > 0) | (x < -2)", cols: bx(4, 3)},
		{name: "bool/xor", text: "(x > 0) ^ (x < 2)", cols: bx(4, 3)},
		{name: "bool/not", text: "~(x > 0)", cols: bx(4, 3)},
		{name: "bool/count", text: "(x > 1).sum()", cols: bx(4, 3)},
		{name: "bool/count axis", text: "(x > 1).sum(axis=0)", cols: bx(4, 3)},
		{name: "bool/any", text: "(x > 1).any()", cols: bx(4, 3)},
		{name: "bool/all axis", text: "(x > -3).all(axis=0)", cols: bx(4, 3)},
		{name: "bool/any function", text: "any(x > 1, axis=1)", cols: bx(4, 3)},
		{name: "bool/astype", text: "(x > 0).astype(float32)", cols: bx(4, 3)},
		{name: "bool/times float", text: "(x > 0) * 1.5", cols: bx(4, 3)},
		{name: "bool/times int", text: "(x > 0) * 2", cols: bx(4, 3)},
		{name: "bool/plus bool", text: "(x > 0) + (x > 1)", cols: bx(4, 3)},
		{name: "bool/mean", text: "(x > 0).mean()", cols: bx(4, 3)},
		{name: "bool/mask", text: "x * (x > 0)", cols: bx(4, 3)},
		{name: "bool/mask image", text: "x * (x.astype(float32).mean(axis=-1, keepdims=True) > 100)", cols: []oracleCol{tcol("x", "uint8", 4, 5, 3).in(0, 255)}},
		{name: "bool/column", text: "m & (x > 0)", cols: []oracleCol{tcol("m", "bool", 4, 3), tcol("x", "float32", 4, 3)}},
		{name: "bool/column not", text: "~m", cols: []oracleCol{tcol("m", "bool", 4, 3)}},
		{name: "bool/column sum", text: "m.sum(axis=1)", cols: []oracleCol{tcol("m", "bool", 4, 3)}},
		{name: "bool/column where", text: "where(m, x, 0)", cols: []oracleCol{tcol("m", "bool", 4, 3), tcol("x", "int16", 4, 3)}},
		{name: "bool/column plus int", text: "m + x", cols: []oracleCol{tcol("m", "bool", 4, 3), tcol("x", "int8", 3)}},
		{name: "where/zero negatives", text: "where(x > 0, x, 0)", cols: bx(4, 3)},
		{name: "where/float scalar", text: "where(x > 0, x, 0.5)", cols: bx(4, 3)},
		{name: "where/int scalars", text: "where(x > 0, 1, -1)", cols: bx(4, 3)},
		{name: "where/nan to 0", text: "where(isnan(x), 0, x)", cols: bx(4, 3)},
		{name: "where/broadcast", text: "where(x > 0, x, [10, 20, 30])", cols: []oracleCol{tcol("x", "int8", 4, 3)}},
		{name: "where/uint8 and float", text: "where(x > 20, x, 0.5)", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "minimum/scalar", text: "minimum(x, 0)", cols: bx(4, 3)},
		{name: "maximum/int and float", text: "maximum(x, 1.5)", cols: []oracleCol{tcol("x", "int8", 4, 3)}},
		{name: "minimum/list", text: "minimum(x, [1, 2, 3])", cols: []oracleCol{tcol("x", "uint16", 4, 3).in(0, 5)}},
		{name: "maximum/relu float16", text: "maximum(x, 0)", cols: []oracleCol{tcol("x", "float16", 4, 3).specials()}},
		{name: "log/positive", text: "log(x)", cols: []oracleCol{tcol("x", "float32", 4, 3).in(0, 100)}},
		{name: "exp/large", text: "exp(x)", cols: []oracleCol{tcol("x", "float32", 4, 3).in(-100, 100)}},
		{name: "tanh/large", text: "tanh(x)", cols: []oracleCol{tcol("x", "float64", 4, 3).in(-30, 30)}},
		{name: "round/halves", text: "round(x * 2) / 2", cols: []oracleCol{tcol("x", "float32", 4, 3).in(-3, 3)}},
		{name: "round/float16 halves", text: "round(x)", cols: []oracleCol{tcol("x", "float16", 8).in(-4, 4)}},
		{name: "sign/zero", text: "sign(x)", cols: []oracleCol{tcol("x", "int16", 4, 3).in(-1, 1)}},
	}
}

// oracleIntCases are integer division, remainder and powers.
func oracleIntCases() []oracleCase {
	i8 := func() []oracleCol { return []oracleCol{tcol("x", "int8", 4, 3).in(-10, 10)} }
	xy := func(dt string, lo, hi float64) []oracleCol {
		return []oracleCol{tcol("x", dt, 4, 3).in(-20, 20), tcol("y", dt, 4, 3).in(lo, hi)}
	}
	return []oracleCase{
		{name: "floordiv/int8 3", text: "x // 3", cols: i8()},
		{name: "floordiv/int8 -3", text: "x // -3", cols: i8()},
		{name: "floordiv/int8 0", text: "x // 0", cols: i8()},
		{name: "floordiv/uint8 0", text: "x // 0", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "floordiv/int8 -1 wrap", text: "x // -1", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "floordiv/columns", text: "x // y", cols: xy("int16", -3, 3)},
		{name: "floordiv/int64 columns", text: "x // y", cols: xy("int64", -3, 3)},
		{name: "floordiv/float", text: "x // 0.7", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "floordiv/float columns", text: "x // y", cols: xy("float64", -2, 2)},
		{name: "floordiv/float by 0", text: "x // 0.0", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "mod/int8 3", text: "x % 3", cols: i8()},
		{name: "mod/int8 -3", text: "x % -3", cols: i8()},
		{name: "mod/int8 0", text: "x % 0", cols: i8()},
		{name: "mod/columns", text: "x % y", cols: xy("int32", -3, 3)},
		{name: "mod/uint32 columns", text: "x % y", cols: []oracleCol{tcol("x", "uint32", 4, 3).wide(), tcol("y", "uint32", 4, 3).in(0, 5)}},
		{name: "mod/float", text: "x % 0.7", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "mod/float negative", text: "x % -1.5", cols: []oracleCol{tcol("x", "float64", 4, 3)}},
		{name: "mod/float columns", text: "x % y", cols: xy("float32", -2, 2)},
		{name: "mod/float16", text: "x % 1.5", cols: []oracleCol{tcol("x", "float16", 4, 3)}},
		{name: "pow/int8 square wraps", text: "x ** 2", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "pow/uint8 cube", text: "x ** 3", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "pow/float32 square", text: "x ** 2", cols: oracleX32(4, 3)},
		{name: "pow/float32 half", text: "x ** 0.5", cols: oracleX32(4, 3)},
		{name: "pow/int float", text: "x ** 0.5", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "pow/columns", text: "x ** y", cols: []oracleCol{tcol("x", "int32", 4, 3).in(-5, 5), tcol("y", "int32", 4, 3).in(0, 6)}},
		{name: "pow/float columns", text: "x ** y", cols: []oracleCol{tcol("x", "float64", 4, 3).in(0, 3), tcol("y", "float64", 4, 3).in(-3, 3)}},
		{name: "pow/negative exponent column", text: "x ** y", cols: []oracleCol{tcol("x", "int32", 4, 3), tcol("y", "int32", 4, 3).in(-3, 3)}, evalErr: true},
		{name: "pow/negative exponent", text: "x ** -1", cols: []oracleCol{tcol("x", "int32", 4, 3)}, evalErr: true},
		{name: "bits/and", text: "x & 7", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "bits/or", text: "x | 8", cols: []oracleCol{tcol("x", "uint16", 4, 3).wide()}},
		{name: "bits/xor columns", text: "x ^ y", cols: []oracleCol{tcol("x", "int32", 4, 3).wide(), tcol("y", "int32", 4, 3).wide()}},
		{name: "bits/invert int8", text: "~x", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "bits/invert uint8", text: "~x", cols: []oracleCol{tcol("x", "uint8", 4, 3).wide()}},
		{name: "bits/mixed", text: "x & y", cols: []oracleCol{tcol("x", "int8", 4, 3).wide(), tcol("y", "uint8", 4, 3).wide()}},
	}
}

// oracleNestCases nest reductions and view computed values.
func oracleNestCases() []oracleCase {
	return []oracleCase{
		{name: "nest/sum then max", text: "x.sum(axis=0).max()", cols: oracleX32(4, 3)},
		{name: "nest/max then argmin", text: "x.max(axis=1).argmin()", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "nest/mean then std", text: "x.mean(axis=0).std()", cols: oracleX32(4, 3)},
		{name: "nest/norm then sum", text: "norm(x, axis=1).sum()", cols: oracleX32(4, 3)},
		{name: "nest/var of centered", text: "(x - x.mean(axis=0)).var(axis=1)", cols: []oracleCol{tcol("x", "float64", 4, 3)}},
		{name: "nest/3-D", text: "x.sum(axis=1).sum(axis=0)", cols: []oracleCol{tcol("x", "int32", 2, 3, 4)}},
		{name: "nest/min of max", text: "x.max(axis=-1).min(axis=-1)", cols: []oracleCol{tcol("x", "float32", 2, 3, 4).specials()}},
		{name: "nest/any of all", text: "(x > 0).all(axis=1).any()", cols: oracleX32(4, 3)},
		{name: "view after/slice transpose", text: "(x * 2)[1:, ::-1].T", cols: oracleX32(4, 3)},
		{name: "view after/reshape", text: "(x + 1).reshape(-1)", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "view after/reduced flipped", text: "x.sum(axis=0)[::-1]", cols: oracleX32(4, 3)},
		{name: "view after/bool row", text: "(x > 0)[0]", cols: oracleX32(4, 3)},
		{name: "view after/new axis", text: "(x - x.mean(axis=0))[None]", cols: oracleX32(4, 3)},
		{name: "view after/two columns", text: "(a + b).T[1]", cols: oracleAB("int16", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "view after/astype T", text: "x.astype(float32).T", cols: []oracleCol{tcol("x", "int8", 4, 3)}},
		{name: "view after/permuted input", text: "(x * 2).transpose(1, 2, 0)", cols: []oracleCol{tcol("x", "float32", 2, 3, 4).permuted(1, 2, 0)}},
		{name: "view after/index computed", text: "(x * x)[..., 1]", cols: oracleX32(2, 3, 4)},
		{name: "view after/reshape transpose", text: "(x - 1).T.reshape(2, 6)", cols: []oracleCol{tcol("x", "int32", 4, 3)}},
		{name: "empty/concatenate empty", text: "concatenate((x[:0], x))", cols: oracleX32(3, 2)},
		{name: "empty/any", text: "(x[2:1] > 0).any()", cols: oracleX32(3, 4)},
		{name: "empty/all", text: "x[2:1].all()", cols: oracleX32(3, 4)},
		{name: "empty/sum plus s", text: "x[:, 3:1].sum(axis=1) + s", cols: []oracleCol{tcol("x", "float32", 3, 4), pcol("s", "float32")}},
		{name: "empty/result plus 1", text: "x[2:1] + 1", cols: oracleX32(3, 4)},
		{name: "0-D/compare", text: "x > 0", cols: oracleX32()},
		{name: "0-D/where", text: "where(x > 0, x, -x)", cols: []oracleCol{tcol("x", "int16")}},
		{name: "0-D/exp", text: "exp(x)", cols: []oracleCol{tcol("x", "float64")}},
		{name: "0-D/broadcast with tensor", text: "a * b", cols: []oracleCol{tcol("a", "float32"), tcol("b", "float32", 2, 3)}},
	}
}

// oracleMatmulCases are matrix products, einsum, concatenate and stack.
func oracleMatmulCases() []oracleCase {
	return []oracleCase{
		{name: "matmul/constant", text: "x @ float32([[1, 2], [3, 4], [5, 6]])", cols: oracleX32(4, 3)},
		{name: "matmul/constant vector", text: "x @ [1.0, 2.0, 3.0]", cols: oracleX32(4, 3)},
		{name: "matmul/constant left", text: "float32([[1, 0, -1, 2]]) @ x", cols: oracleX32(4, 3)},
		{name: "matmul/function", text: "matmul(x, float64([[1], [2], [3]]))", cols: oracleX32(4, 3)},
		{name: "matmul/two", text: "a @ b", cols: oracleAB("float32", oracleDims(4, 3), oracleDims(3, 2))},
		{name: "matmul/two float64", text: "a @ b", cols: oracleAB("float64", oracleDims(2, 5), oracleDims(5, 3))},
		{name: "matmul/vectors", text: "a @ b", cols: oracleAB("float32", oracleDims(5), oracleDims(5))},
		{name: "matmul/vector matrix", text: "a @ b", cols: oracleAB("float32", oracleDims(3), oracleDims(3, 4))},
		{name: "matmul/matrix vector", text: "a @ b", cols: oracleAB("float64", oracleDims(4, 3), oracleDims(3))},
		{name: "matmul/batch broadcast", text: "a @ b", cols: oracleAB("float32", oracleDims(2, 4, 3), oracleDims(3, 5))},
		{name: "matmul/batch", text: "a @ b", cols: oracleAB("float32", oracleDims(2, 4, 3), oracleDims(2, 3, 2))},
		{name: "matmul/int16 wraps", text: "a @ b", cols: []oracleCol{tcol("a", "int16", 3, 4).wide(), tcol("b", "int16", 4, 2).wide()}},
		{name: "matmul/mixed types", text: "a @ b", cols: []oracleCol{tcol("a", "uint8", 3, 4), tcol("b", "float32", 4, 2)}},
		{name: "matmul/permuted", text: "a @ b", cols: []oracleCol{tcol("a", "float32", 4, 3).permuted(1, 0), tcol("b", "float32", 3, 2)}},
		{name: "matmul/many rows", text: "x @ float32([[1, 0], [0, 1], [1, 1], [2, -1]])", cols: oracleX32(4), rows: 600},
		{name: "einsum/matmul", text: `einsum("ij,jk->ik", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(3, 2))},
		{name: "einsum/rowwise dot", text: `einsum("ij,ij->i", a, b)`, cols: oracleAB("float64", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "einsum/inner", text: `einsum("i,i->", a, b)`, cols: oracleAB("float32", oracleDims(6), oracleDims(6))},
		{name: "einsum/ellipsis rowwise", text: `einsum("...i,...i->...", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "einsum/ellipsis implicit", text: `einsum("ba...,b", a, b)`, cols: oracleAB("float64", oracleDims(2, 3, 5), oracleDims(2))},
		{name: "einsum/ellipsis broadcast", text: `einsum("...ij,...jk", a, b)`, cols: oracleAB("float32", oracleDims(5, 2, 3), oracleDims(1, 3, 4))},
		{name: "einsum/ellipsis one operand", text: `einsum("...ij,jk", a, b)`, cols: oracleAB("float32", oracleDims(5, 2, 3), oracleDims(3, 4))},
		{name: "einsum/ellipsis middle", text: `einsum("ij...,jk->ik...", a, b)`, cols: oracleAB("int32", oracleDims(2, 3, 5), oracleDims(3, 4))},
		{name: "einsum/ellipsis of no axis", text: `einsum("i...,i->...", a, b)`, cols: oracleAB("float64", oracleDims(3), oracleDims(3))},
		{name: "einsum/ellipsis output only", text: `einsum("i,j->...ij", a, b)`, cols: oracleAB("float32", oracleDims(3), oracleDims(2))},
		{name: "einsum/ellipsis constant", text: `einsum("...j,j", x, [1.0, 2.0, 3.0])`, cols: oracleX32(4, 3)},
		{name: "einsum/transposed", text: `einsum("ij,kj->ik", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(2, 3))},
		{name: "einsum/outer", text: `einsum("i,j->ij", a, b)`, cols: oracleAB("int32", oracleDims(3), oracleDims(4))},
		{name: "einsum/batch", text: `einsum("bij,bjk->bik", a, b)`, cols: oracleAB("float32", oracleDims(2, 3, 4), oracleDims(2, 4, 2))},
		{name: "einsum/constant", text: `einsum("ij,j->i", x, [1.0, 2.0, 3.0])`, cols: oracleX32(4, 3)},
		{name: "load/projection", text: `x @ load("w32.npy")`, cols: oracleX32(4, 3)},
		{name: "load/projection float64", text: `x.T @ load("w64.npy")`, cols: oracleX32(4, 3)},
		{name: "load/mean image", text: `x.astype(float32) - load("mean.npy")`, cols: []oracleCol{tcol("x", "uint8", 5, 3).in(0, 255)}},
		{name: "load/fortran order", text: `x * load("perm.npy")`, cols: []oracleCol{tcol("x", "int16", 3, 4)}},
		{name: "load/0-D", text: `x * load("scalar.npy")`, cols: oracleX32(4, 3)},
		{name: "load/twice", text: `x @ load("w32.npy") + load("w32.npy").sum(axis=0)`, cols: oracleX32(4, 3)},
		{name: "concatenate/axis 0", text: "concatenate((a, b))", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(4, 3))},
		{name: "concatenate/axis 1", text: "concatenate((a, b), axis=1)", cols: oracleAB("int8", oracleDims(2, 3), oracleDims(2, 1))},
		{name: "concatenate/axis -1 reuse", text: "concatenate((x, x * 2), axis=-1)", cols: oracleX32(2, 3)},
		{name: "concatenate/mixed types", text: "concatenate((a, b))", cols: []oracleCol{tcol("a", "int8", 3), tcol("b", "float32", 2)}},
		{name: "concatenate/three", text: "concatenate((a, b, a))", cols: oracleAB("uint16", oracleDims(2), oracleDims(3))},
		{name: "stack/axis 0", text: "stack((a, b))", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(2, 3))},
		{name: "stack/axis -1", text: "stack((a, b), axis=-1)", cols: oracleAB("int32", oracleDims(2, 3), oracleDims(2, 3))},
		{name: "stack/computed", text: "stack((x.min(axis=0), x.max(axis=0)))", cols: oracleX32(4, 3)},
	}
}

// oracleLangErrorCases are expressions NumPy refuses for their shapes or
// types: Compile must refuse them in NumPy's words.
func oracleLangErrorCases() []oracleCase {
	return []oracleCase{
		{name: "error/two broadcast", text: "a + b", cols: oracleAB("float32", oracleDims(3, 4), oracleDims(5))},
		{name: "error/row number broadcast", text: "(a - b).sum(axis=1) + a", cols: oracleAB("float32", oracleDims(3, 4), oracleDims(3, 4))},
		{name: "error/axis after computing", text: "(x * 2).sum(axis=2)", cols: oracleX32(4, 3)},
		{name: "error/nested axis", text: "x.sum(axis=0).max(axis=1)", cols: oracleX32(4, 3)},
		{name: "error/where two arguments", text: "where(x > 0, 1)", cols: oracleX32(4, 3)},
		{name: "error/bitwise float", text: "x & 1", cols: oracleX32(4, 3)},
		{name: "error/invert float", text: "~x", cols: oracleX32(4, 3)},
		{name: "error/bool subtract", text: "(x > 0) - (x > 1)", cols: oracleX32(4, 3)},
		{name: "error/matmul core", text: "a @ b", cols: oracleAB("float32", oracleDims(4, 3), oracleDims(2, 2))},
		{name: "error/matmul 0-D", text: "a @ b", cols: oracleAB("float32", oracleDims(), oracleDims(3))},
		{name: "error/einsum sizes", text: `einsum("ij,jk->ik", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(2, 2))},
		{name: "error/einsum two dots", text: `einsum("..i,i", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(3))},
		{name: "error/einsum two ellipses", text: `einsum("...i...,i", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(3))},
		{name: "error/einsum ellipsis not in output", text: `einsum("...i,i->i", a, b)`, cols: oracleAB("float32", oracleDims(4, 3), oracleDims(3))},
		{name: "error/einsum ellipsis too many subscripts", text: `einsum("...ij,j", a, b)`, cols: oracleAB("float32", oracleDims(3), oracleDims(3))},
		{name: "error/concatenate axis", text: "concatenate((a, b), axis=2)", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(2, 3))},
		{name: "error/concatenate shapes", text: "concatenate((a, b), axis=1)", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(3, 3))},
		{name: "error/stack shapes", text: "stack((a, b))", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(3, 2))},
		{name: "error/norm axis", text: "norm(a - b, axis=2)", cols: oracleAB("float32", oracleDims(2, 3), oracleDims(2, 3))},
		{name: "error/reshape computed", text: "(x + 1).reshape(5, 3)", cols: oracleX32(4, 3)},
		{name: "error/load shape", text: `x @ load("w64.npy")`, cols: oracleX32(4, 3)},
		{name: "error/unknown column", text: "a + nope", cols: oracleAB("float32", oracleDims(3), oracleDims(3)), ownWords: true},
		{name: "error/uint8 column + 300", text: "a + 300 + b", cols: oracleAB("uint8", oracleDims(3), oracleDims(3))},
	}
}

// oracleSyntaxCases are Python's precedence and associativity, weak
// Python scalars that NumPy converts to the tensor's type before the
// operation (float16(0.1) == x, x * float32(0.3)), comparisons with
// Python integers out of the tensor type's range, and the extremes of
// integer types.
func oracleSyntaxCases() []oracleCase {
	near := func(dt string, lo, hi float64) []oracleCol { return []oracleCol{tcol("x", dt, 4, 3).in(lo, hi)} }
	i8 := []oracleCol{tcol("x", "int8", 4, 3).wide()}
	u8 := []oracleCol{tcol("x", "uint8", 4, 3).wide()}
	return []oracleCase{
		{name: "tail/x + (x + 0.5) + 1", text: "x + (x + 0.5) + 1", cols: oracleX32(1)},
		{name: "tail/x * (x * 2) * 3", text: "x * (x * 2) * 3", cols: oracleX32(1, 3)},
		{name: "tail/x - (x - 1) - 1", text: "x - (x - 1) - 1", cols: oracleX32(5)},
		{name: "tail/two columns", text: "(a - (b + 0.5)) * 2", cols: oracleAB("float32", oracleDims(3), oracleDims(3))},
		{name: "syntax/neg pow", text: "-x ** 2", cols: oracleX32(4, 3)},
		{name: "syntax/pow right assoc", text: "x ** 2 ** 0.5", cols: []oracleCol{tcol("x", "float64", 4, 3).in(0, 3)}},
		{name: "syntax/pow of constants", text: "x * 2 ** 3", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "syntax/sub left assoc", text: "x - 1 - 2", cols: i8},
		{name: "syntax/div left assoc", text: "x / 2 / 4", cols: oracleX32(4, 3)},
		{name: "syntax/mod times", text: "x % 3 * 2", cols: i8},
		{name: "syntax/invert and", text: "~x & 1", cols: i8},
		{name: "syntax/and or xor", text: "x & 3 | x ^ 5", cols: u8},
		{name: "syntax/shift-free compare", text: "(x + 1 > 2) == (x > 1)", cols: i8},
		{name: "weak/float16 == 0.1", text: "x == 0.1", cols: near("float16", 0.0999, 0.1001)},
		{name: "weak/float32 == 0.1", text: "x == 0.1", cols: near("float32", 0.0999999, 0.1000001)},
		{name: "weak/float16 + 0.1", text: "x + 0.1", cols: near("float16", -4, 4)},
		{name: "weak/float32 * 0.3", text: "x * 0.3", cols: near("float32", -4, 4)},
		{name: "weak/float32 / 0.7", text: "x / 0.7", cols: near("float32", -4, 4)},
		{name: "weak/float16 - 1.1", text: "1.1 - x", cols: near("float16", -4, 4)},
		{name: "weak/float32 minimum 0.3", text: "minimum(x, 0.3)", cols: near("float32", 0.29999, 0.30001)},
		{name: "weak/float32 where 0.3", text: "where(x > 0, x, 0.3)", cols: near("float32", -4, 4)},
		{name: "weak/uint8 < 300", text: "x < 300", cols: u8},
		{name: "weak/uint8 == -1", text: "x == -1", cols: u8},
		{name: "weak/int8 > -200", text: "x > -200", cols: i8},
		{name: "extreme/int8 abs", text: "abs(x)", cols: i8},
		{name: "extreme/int8 neg", text: "-x", cols: i8},
		{name: "extreme/int64 mean", text: "x.mean()", cols: []oracleCol{tcol("x", "int64", 4, 3).wide()}},
		{name: "extreme/uint64 sum", text: "x.sum(axis=1)", cols: []oracleCol{tcol("x", "uint64", 4, 3).wide()}},
		{name: "extreme/int round", text: "round(x)", cols: i8},
		{name: "astype/bool", text: "x.astype(bool)", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "astype/from bool", text: "(x > 0).astype(int8) - 1", cols: oracleX32(4, 3)},
		{name: "plain/new axis", text: "s[None] * 2", cols: []oracleCol{pcol("s", "float32")}},
		{name: "plain/astype", text: "s.astype(int8)", cols: []oracleCol{pcol("s", "int32").wide()}},
		{name: "error/uint8 // -1", text: "x // -1", cols: u8},
		{name: "error/chained comparison", text: "0 < x < 1", cols: oracleX32(4, 3), ownWords: true},
	}
}

// oracleMiscCases are constants at the edges of a type, division by
// zero, reductions after computing with keywords, and NumPy's np.
// prefix.
func oracleMiscCases() []oracleCase {
	i64 := []oracleCol{tcol("x", "int64", 4, 3)}
	return []oracleCase{
		{name: "const/int64 + 2**40", text: "x + 1099511627776", cols: i64},
		{name: "const/float32 * 1e300", text: "x * 1e300", cols: oracleX32(4, 3)},
		{name: "const/float32 + 1e-50", text: "x + 1e-50", cols: oracleX32(4, 3)},
		{name: "const/float16 * 70000.0", text: "x * 70000.0", cols: []oracleCol{tcol("x", "float16", 4, 3)}},
		{name: "const/float32 == 1e39", text: "x == 1e39", cols: oracleX32(4, 3)},
		{name: "const/int8 + 127", text: "x + 127", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "const/int8 - -128", text: "x - -128", cols: []oracleCol{tcol("x", "int8", 4, 3).wide()}},
		{name: "divide/float by 0", text: "x / 0", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "divide/0 by int", text: "0 / x", cols: []oracleCol{tcol("x", "int16", 4, 3).in(-2, 2)}},
		{name: "divide/int by int column", text: "a / b", cols: []oracleCol{tcol("a", "int8", 4, 3), tcol("b", "uint8", 4, 3).in(0, 2)}},
		{name: "reduce/keepdims negative axis", text: "(x * 2).sum(axis=-1, keepdims=True)", cols: oracleX32(2, 3, 4)},
		{name: "reduce/bool axis tuple", text: "(x > 0).sum(axis=(0, 1))", cols: oracleX32(2, 3, 4)},
		{name: "reduce/argmin computed", text: "(x - 1).argmin(axis=0)", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "reduce/argmax computed nan", text: "(x * 2).argmax(axis=1)", cols: []oracleCol{tcol("x", "float32", 4, 3).specials()}},
		{name: "reduce/var computed ddof", text: "(x * 2).var(axis=0, ddof=1)", cols: oracleX32(4, 3)},
		{name: "reduce/std two columns", text: "(a - b).std()", cols: oracleAB("float64", oracleDims(4, 3), oracleDims(4, 3))},
		{name: "reduce/min of where", text: "where(x > 0, x, 100).min(axis=0)", cols: []oracleCol{tcol("x", "int32", 4, 3)}},
		{name: "reduce/mean of bool column", text: "m.mean(axis=0)", cols: []oracleCol{tcol("m", "bool", 4, 3)}},
		{name: "reduce/function form", text: "sum(x * 2, axis=1)", cols: oracleX32(4, 3)},
		{name: "reduce/max function computed", text: "max(x - 1)", cols: []oracleCol{tcol("x", "uint8", 4, 3)}},
		{name: "np/exp", text: "np.exp(x)", cols: oracleX32(4, 3)},
		{name: "np/maximum", text: "np.maximum(x, 0)", cols: []oracleCol{tcol("x", "int16", 4, 3)}},
		{name: "np/max", text: "np.max(x * 2)", cols: oracleX32(4, 3)},
		{name: "where/three shapes", text: "where(a > 0, b, s)", cols: []oracleCol{tcol("a", "float32", 4, 1), tcol("b", "int16", 3), pcol("s", "float64")}},
		{name: "where/bool branches", text: "where(x > 0, x > 1, x < -1)", cols: oracleX32(4, 3)},
		{name: "compare/float16 and int16", text: "a < b", cols: []oracleCol{tcol("a", "float16", 4, 3), tcol("b", "int16", 4, 3)}},
		{name: "compare/uint64 and float", text: "x > 1.5", cols: []oracleCol{tcol("x", "uint64", 4, 3).wide()}},
	}
}
