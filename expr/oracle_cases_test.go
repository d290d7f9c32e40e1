package expr_test

import "strings"

// oracleKnown lists the cases of oracleCases (and, prefixed "fuzz/", the
// texts of FuzzNumPy's seeds) that fail because of a confirmed defect of
// package expr, each with what it is. The tests skip them while they
// fail and fail once they pass.
var oracleKnown = map[string]string{}

// oracleNumeric are the numeric dtypes, every one of expr's element types.
var oracleNumeric = []string{"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"}

// oracleIsFloat reports whether dtype is a float type.
func oracleIsFloat(dtype string) bool { return strings.HasPrefix(dtype, "float") }

// oracleChainExprs run on a 4x3 tensor x of every numeric dtype: the chain
// language (views, then arithmetic with constants, then one reduction).
var oracleChainExprs = []string{
	"x + 3", "x - 7", "x * 2", "x / 4", "3 - x", "12 / x", "x * 1.5", "x + [1, 2, 3]",
	"x * [1.5, 2.5, -1.0]", "x - [[1], [2], [3], [4]]", "x + float32([1, 2, 3])", "x * int16([2, 3, 4])",
	"x.astype(float32)", "x.astype(float16)", "x.astype(int64)", "abs(x)", "sqrt(abs(x))", "x.clip(1, 10)",
	"x.sum()", "x.sum(axis=0)", "x.mean(axis=1)", "x.min(axis=0)", "x.max()", "x.argmax(axis=1)",
	"x.argmin()", "norm(x, axis=1)", "x.var(axis=0)", "x.std(ddof=1)", "x.T[::-1, 1:]", "x[None, 1:3, ::2]",
	"x.reshape(2, 6)", "dot(x, [1.0, -2.0, 0.5])", "x[..., 1] * 2",
}

// oracleCases is the table of TestOracle.
func oracleCases() []oracleCase {
	var cs []oracleCase
	for _, dt := range oracleNumeric {
		for _, text := range oracleChainExprs {
			x := tcol("x", dt, 4, 3)
			if oracleIsFloat(dt) && text != "x.astype(int64)" {
				x = x.specials()
			}
			cs = append(cs, oracleCase{name: "chain/" + dt + "/" + text, text: text, cols: []oracleCol{x}})
		}
	}
	cs = append(cs, oracleChainCases()...)
	cs = append(cs, oracleLangCases()...)
	return cs
}

// oracleChainCases are the chain language's particular cases: layouts,
// wrap-around, promotion, 0-D tensors, size-0 axes, errors.
func oracleChainCases() []oracleCase {
	f32 := func(shape ...int) []oracleCol { return []oracleCol{tcol("x", "float32", shape...)} }
	return []oracleCase{
		{name: "view/3-cycle permutation", text: "x", cols: []oracleCol{tcol("x", "int16", 2, 3, 4).permuted(1, 2, 0)}},
		{name: "view/3-cycle permutation sum", text: "x.sum(axis=(0, 2))", cols: []oracleCol{tcol("x", "float32", 2, 3, 4).permuted(2, 0, 1)}},
		{name: "view/3-cycle permutation transpose", text: "x.transpose(2, 0, 1) * 2", cols: []oracleCol{tcol("x", "uint8", 2, 3, 4).permuted(1, 2, 0)}},
		{name: "view/permuted slice", text: "x[1:, ::-1]", cols: []oracleCol{tcol("x", "float64", 3, 5).permuted(1, 0)}},
		{name: "view/non-square transpose", text: "x.T", cols: f32(2, 5)},
		{name: "view/ellipsis", text: "x[..., ::2]", cols: f32(2, 3, 4)},
		{name: "view/new axis", text: "x[:, None, 1]", cols: f32(3, 4)},
		{name: "view/negative index", text: "x[-1]", cols: f32(3, 4)},
		{name: "view/reshape -1", text: "x.reshape(-1, 2)", cols: f32(3, 4)},
		{name: "view/reshape after transpose", text: "x.T.reshape(12)", cols: f32(3, 4)},
		{name: "view/step 3", text: "x[::3, 1::2]", cols: f32(7, 5)},
		{name: "0-D/identity", text: "x", cols: f32()},
		{name: "0-D/arith", text: "x * 2 + 1", cols: f32()},
		{name: "0-D/sum", text: "x.sum()", cols: []oracleCol{tcol("x", "int8")}},
		{name: "0-D/new axis", text: "x[None]", cols: f32()},
		{name: "0-D/astype", text: "x.astype(float16)", cols: []oracleCol{tcol("x", "int32").in(-70000, 70000)}},
		{name: "size-0/sum", text: "x[2:1].sum(axis=0)", cols: f32(3, 4)},
		{name: "size-0/mean", text: "x[:, 3:1].mean(axis=1)", cols: f32(3, 4)},
		{name: "size-0/result", text: "x[2:1]", cols: f32(3, 4)},
		{name: "size-0/var", text: "x[2:1].var()", cols: f32(3, 4)},
		{name: "wrap/uint8 * 2", text: "x * 2", cols: []oracleCol{tcol("x", "uint8", 3, 5).wide()}},
		{name: "wrap/int8 - 100", text: "x - 100", cols: []oracleCol{tcol("x", "int8", 3, 5).wide()}},
		{name: "wrap/int16 * 300", text: "x * 300", cols: []oracleCol{tcol("x", "int16", 3, 5).wide()}},
		{name: "wrap/int64 + 1", text: "x + 1", cols: []oracleCol{tcol("x", "int64", 3, 5).wide()}},
		{name: "wrap/uint64 * 3", text: "x * 3", cols: []oracleCol{tcol("x", "uint64", 3, 5).wide()}},
		{name: "wrap/int32 sum", text: "x.sum(axis=1)", cols: []oracleCol{tcol("x", "int32", 3, 5).wide()}},
		{name: "wrap/uint8 neg const", text: "200 - x", cols: []oracleCol{tcol("x", "uint8", 3, 5).wide()}},
		{name: "promote/uint8 + 1.5", text: "x + 1.5", cols: []oracleCol{tcol("x", "uint8", 3)}},
		{name: "promote/uint8 + 255", text: "x + 255", cols: []oracleCol{tcol("x", "uint8", 3)}},
		{name: "promote/int8 + int16 list", text: "x + int16([1, 2, 3])", cols: []oracleCol{tcol("x", "int8", 3)}},
		{name: "promote/int8 + uint8 list", text: "x + uint8([1, 2, 200])", cols: []oracleCol{tcol("x", "int8", 3)}},
		{name: "promote/int64 + uint64 list", text: "x + uint64([1, 2, 3])", cols: []oracleCol{tcol("x", "int64", 3)}},
		{name: "promote/float16 + int16 list", text: "x + int16([1, 2, 3])", cols: []oracleCol{tcol("x", "float16", 3)}},
		{name: "promote/float32 - float list", text: "x - [0.5]", cols: f32(3)},
		{name: "promote/int / int", text: "x / 3", cols: []oracleCol{tcol("x", "int32", 3)}},
		{name: "promote/sqrt uint8", text: "sqrt(x)", cols: []oracleCol{tcol("x", "uint8", 3)}},
		{name: "promote/sqrt int16", text: "sqrt(x)", cols: []oracleCol{tcol("x", "int16", 3).in(0, 300)}},
		{name: "float16/normalize", text: "(x - 1.5) / 2.5", cols: []oracleCol{tcol("x", "float16", 3, 4).specials()}},
		{name: "float16/sum", text: "x.sum(axis=1)", cols: []oracleCol{tcol("x", "float16", 3, 40)}},
		{name: "float16/norm", text: "norm(x)", cols: []oracleCol{tcol("x", "float16", 3, 4)}},
		{name: "nan/max propagates", text: "x.max(axis=1)", cols: []oracleCol{tcol("x", "float32", 3, 4).specials()}},
		{name: "nan/argmax first", text: "x.argmax(axis=1)", cols: []oracleCol{tcol("x", "float64", 3, 4).specials()}},
		{name: "nan/clip", text: "x.clip(-1, 1)", cols: []oracleCol{tcol("x", "float32", 3, 4).specials()}},
		{name: "nan/clip bound", text: "x.clip(nan, 1)", cols: []oracleCol{tcol("x", "int16", 3, 4)}},
		{name: "nan/inf arith", text: "x * inf", cols: []oracleCol{tcol("x", "float32", 3, 4).specials()}},
		{name: "nan/sum", text: "x.sum(axis=0)", cols: []oracleCol{tcol("x", "float64", 3, 4).specials()}},
		{name: "image/normalize", text: "(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", cols: []oracleCol{tcol("x", "uint8", 4, 5, 3).in(0, 255)}},
		{name: "image/channel mean", text: "x.astype(float32).mean(axis=(0, 1))", cols: []oracleCol{tcol("x", "uint8", 4, 5, 3).in(0, 255)}},
		{name: "image/channels first", text: "x.transpose(2, 0, 1)", cols: []oracleCol{tcol("x", "uint8", 4, 5, 3).in(0, 255)}},
		{name: "similarity/cosine", text: "cosine(x, float32([1, 2, 3]))", cols: f32(2, 3)},
		{name: "similarity/l2", text: "l2(x, [0.5, 1.5, 2.5])", cols: f32(3)},
		{name: "similarity/sqeuclidean", text: "sqeuclidean(x, float32([1, 0, -1]))", cols: f32(3)},
		{name: "similarity/dot int", text: "dot(x, [1, -2, 3])", cols: []oracleCol{tcol("x", "int16", 3)}},
		{name: "rows/many", text: "norm(x, axis=-1)", cols: f32(64), rows: 700},
		{name: "rows/many nulls", text: "x * 2 + 1", cols: []oracleCol{tcol("x", "float32", 33).nullAt(0, 5, 6, 7, 40, 299)}, rows: 300},
		{name: "rows/one", text: "x.mean()", cols: f32(5), rows: 1},
		{name: "plain/arith", text: "s * 2 + 1", cols: []oracleCol{pcol("s", "float32")}},
		{name: "plain/int", text: "s - 3", cols: []oracleCol{pcol("s", "int16")}},
		{name: "col/quoted", text: `col("x") * 2`, cols: f32(3)},
		{name: "error/broadcast", text: "x + [1.0, 2.0]", cols: f32(4, 3)},
		{name: "error/axis", text: "x.sum(axis=2)", cols: f32(4, 3)},
		{name: "error/axis negative", text: "x.min(axis=-3)", cols: f32(4, 3)},
		{name: "error/duplicate axis", text: "x.sum(axis=(0, 0))", cols: f32(4, 3)},
		{name: "error/uint8 + 300", text: "x + 300", cols: []oracleCol{tcol("x", "uint8", 3)}},
		{name: "error/uint8 * -1", text: "x * -1", cols: []oracleCol{tcol("x", "uint8", 3)}},
		{name: "error/empty max", text: "x[:, 2:1].max(axis=1)", cols: f32(4, 3)},
		{name: "error/index", text: "x[5]", cols: f32(4, 3)},
		{name: "error/too many indices", text: "x[1, 2, 0]", cols: f32(4, 3)},
		{name: "error/reshape", text: "x.reshape(5, 2)", cols: f32(4, 3)},
		{name: "error/norm 3 axes", text: "norm(x, axis=(0, 1, 2))", cols: f32(2, 3, 4)},
	}
}
