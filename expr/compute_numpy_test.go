package expr_test

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// computeScript evaluates each request's text with NumPy 2 on every
// tensor of a batch given as raw little-endian bytes, in a namespace
// where the functions of the text form are NumPy's (the similarities
// computed in float64 and cast to the promoted float type), and returns
// each result's dtype, shape and raw bytes, or the exception's text.
const computeScript = `
import base64, json, sys
import numpy as np
def promoted(x, c):
    return np.result_type(x, c if isinstance(c, (int, float)) else np.asarray(c))
def restype(x, c):
    t = promoted(x, c)
    return t if t.kind == "f" else np.dtype(np.float64)
def dot(x, c):
    if promoted(x, c).kind in "iu":
        return np.asarray((x * c).sum())
    return np.asarray(np.sum(x.astype(np.float64) * np.asarray(c, np.float64))).astype(restype(x, c))
def cosine(x, c):
    x64, c64 = x.astype(np.float64), np.broadcast_to(np.asarray(c, np.float64), x.shape)
    return np.asarray(np.sum(x64 * c64) / (np.sqrt(np.sum(x64 * x64)) * np.sqrt(np.sum(c64 * c64)))).astype(restype(x, c))
def l2sq(x, c):
    d = x.astype(np.float64) - np.asarray(c, np.float64)
    return np.asarray(np.sum(d * d)).astype(restype(x, c))
def l2(x, c):
    return np.sqrt(l2sq(x, c).astype(np.float64)).astype(restype(x, c))
ns = {"np": np, "abs": np.abs, "sqrt": np.sqrt, "sum": np.sum, "mean": np.mean, "min": np.min,
      "max": np.max, "argmax": np.argmax, "argmin": np.argmin, "norm": np.linalg.norm, "var": np.var, "std": np.std,
      "inf": np.inf, "nan": np.nan, "None": None, "True": True, "False": False,
      "dot": dot, "cosine": cosine, "l2": l2, "l2sq": l2sq}
for t in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"]:
    ns[t] = getattr(np, t)
out = []
np.seterr(all="ignore")
import warnings
warnings.simplefilter("ignore")
for r in json.load(sys.stdin):
    a = np.frombuffer(base64.b64decode(r["data"]), dtype=r["dtype"]).reshape([r["batch"]] + r["shape"])
    res = {"dtype": None, "shape": None, "values": [], "error": None}
    try:
        for i in range(r["batch"]):
            y = np.asarray(eval(r["text"], dict(ns, x=a[i])))
            res["dtype"] = str(y.dtype)
            res["shape"] = list(y.shape)
            res["values"].append(base64.b64encode(np.ascontiguousarray(y).astype(y.dtype.newbyteorder("<")).tobytes()).decode())
    except Exception as e:
        res = {"dtype": None, "shape": None, "values": [], "error": str(e)}
    out.append(res)
json.dump(out, sys.stdout)
`

type computeRequest struct {
	DType string `json:"dtype"`
	Shape []int  `json:"shape"`
	Batch int    `json:"batch"`
	Data  string `json:"data"`
	Text  string `json:"text"`
}

type computeResult struct {
	DType  *string  `json:"dtype"`
	Shape  []int    `json:"shape"`
	Values []string `json:"values"`
	Error  *string  `json:"error"`
}

// computeCase is an expression over a batch of random tensors of one
// element type and shape: integers uniform in [lo, hi], floats uniform in
// [lo, hi) with a few NaNs when nan is set.
type computeCase struct {
	name   string
	dtype  arrow.DataType
	shape  []int
	text   string
	lo, hi float64
	nan    bool
}

var (
	i8  = arrow.PrimitiveTypes.Int8
	i16 = arrow.PrimitiveTypes.Int16
	i32 = arrow.PrimitiveTypes.Int32
	i64 = arrow.PrimitiveTypes.Int64
	u8  = arrow.PrimitiveTypes.Uint8
	u16 = arrow.PrimitiveTypes.Uint16
	u32 = arrow.PrimitiveTypes.Uint32
	u64 = arrow.PrimitiveTypes.Uint64
	f16 = arrow.FixedWidthTypes.Float16
	f32 = arrow.PrimitiveTypes.Float32
	f64 = arrow.PrimitiveTypes.Float64
)

var allTypes = []arrow.DataType{i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64}

// perTypeExprs are the expressions run on every element type, over a
// 4x3 tensor.
var perTypeExprs = []string{
	"x + 3", "x - 7", "x * 2", "x / 4", "3 - x", "100 / x", "x * 1.5", "x + [1, 2, 3]", "x * [1.5, 2.5, -1.0]",
	"x - [[1], [2], [-3], [4]]", "x + float32([1, 2, 3])", "x * int16([2, 3, 4])", "x + uint8([1, 2, 3])",
	"x.astype(float32)", "x.astype(float16)", "x.astype(float64)", "x.astype(int64)", "x.astype(int8)", "x.astype(uint16)",
	"x.clip(-5, 50)", "x.clip(None, 20)", "x.clip(1.5, 30)", "abs(x)", "sqrt(abs(x))",
	"x.sum()", "x.sum(axis=0)", "x.sum(axis=1)", "x.sum(axis=(0, 1))", "x.sum(axis=-1, keepdims=True)", "x.sum(axis=())",
	"x.mean()", "x.mean(axis=0)", "x.mean(axis=(1, 0), keepdims=True)", "x.min()", "x.min(axis=1)", "x.max()", "x.max(axis=0, keepdims=True)",
	"x.argmax()", "x.argmax(axis=1)", "x.argmin()", "x.argmin(axis=0)", "norm(x)", "norm(x, axis=1)", "norm(x, axis=(0, 1))",
	"sum(x, axis=1)", "max(x)", "x.T.sum(axis=0)", "x[:, 1:].mean(axis=(0, 1))", "x[::-1, ::2].max(axis=1)", "x[1:3].argmax()",
	"(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])",
	"(x - [0.5, 0.25, 0.125]).sum(axis=0)", "x.mean() * 2", "x.sum(axis=0) - [1, 2, 3]", "sqrt(x.max(axis=0) * 1.0)",
	"dot(x, [1.0, -2.0, 0.5])", "cosine(x, [[1.0, 2.0, 3.0]])", "l2(x, float32([1, 2, 3]))", "l2sq(x, [0.5, 1.5, 2.5])",
	"x.astype(float32).mean(axis=(0, 1))", "(x + [[1], [2], [3], [4]]).argmax()",
	"x.var()", "x.std()", "x.var(axis=0)", "x.std(axis=1, ddof=1)", "x.var(axis=(0, 1), keepdims=True)", "var(x, axis=-1, ddof=2)",
	"std(x, axis=None, keepdims=True)", "x.var(axis=())", "x.std(axis=(1, 0), ddof=2)", "x.var(axis=0, ddof=4)", "x.std(ddof=12)",
	"x.var(ddof=20)", "x.T.std(axis=0, keepdims=True)", "x[:, 1:].astype(float64).std(axis=0)", "x[::-1, ::2].var(axis=1, ddof=1)",
	"x.var() * 2", "sqrt(x.var(axis=0))", "x.std(axis=0) - [1, 2, 3]", "(x * 0.5 + 3).var(axis=1)",
}

// shapeCases are the cases of particular shapes, element types and
// errors: 0-D tensors, size-0 dimensions, long runs, image layouts, and
// expressions NumPy refuses.
var shapeCases = []computeCase{
	{"0-D sum", f32, []int{}, "x.sum()", -1, 1, false},
	{"0-D astype", i16, []int{}, "x.astype(float16)", -1000, 1000, false},
	{"size-0 sum", f32, []int{3, 4}, "x[2:1].sum(axis=0)", -1, 1, false},
	{"size-0 mean", f64, []int{3, 4}, "x[:, 3:1].mean(axis=1)", -1, 1, false},
	{"size-0 min", f32, []int{3, 4}, "x[2:1].min(axis=0)", -1, 1, false},
	{"size-0 argmax", f32, []int{3, 4}, "x[2:1].argmax()", -1, 1, false},
	{"3-D axes", f32, []int{3, 4, 5}, "x.sum(axis=(0, 2))", -1, 1, true},
	{"3-D mean keepdims", f16, []int{3, 4, 5}, "x.mean(axis=(0, 2), keepdims=True)", -1, 1, false},
	{"3-D argmax axis", f64, []int{3, 4, 5}, "x.argmax(axis=2)", -1, 1, true},
	{"long sum float32", f32, []int{10000}, "x.sum()", 0, 1, false},
	{"long sum float16", f16, []int{3000}, "x.mean()", 0, 1, false},
	{"HWC normalize", u8, []int{6, 5, 3}, "(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", 0, 255, false},
	{"HWC normalize float64 lists", u8, []int{6, 5, 3}, "(x.astype(float32) / 255 - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]", 0, 255, false},
	{"fused crop mean", u8, []int{8, 64}, "x[:, 16:48].astype(float32).mean(axis=(0, 1))", 0, 255, false},
	{"transposed channel mean", u8, []int{3, 8, 8}, "x.transpose(1, 2, 0).astype(float32).mean(axis=(0, 1))", 0, 255, false},
	{"broadcast grows", f32, []int{4, 1}, "(x + [1.0, 2.0, 3.0]).sum(axis=0)", -1, 1, false},
	{"reshape copy then sum", f32, []int{4, 6}, "x.T.reshape(3, 8).sum(axis=1)", -1, 1, false},
	{"HWC channel mean", u8, []int{6, 5, 3}, "x.astype(float32).mean(axis=(0, 1))", 0, 255, false},
	{"HWC channel sum", u8, []int{6, 5, 3}, "x.sum(axis=(0, 1))", 0, 255, false},
	{"HWC float32 channel mean", f32, []int{6, 5, 3}, "x.mean(axis=(0, 1))", -1, 1, true},
	{"float32 mean of wide rows", f32, []int{5, 72}, "x.mean(axis=0)", -1, 1, false},
	{"float32 sum of wide rows 3-D", f32, []int{2, 3, 40}, "x.sum(axis=1)", -1, 1, false},
	{"float32 crop mean", f32, []int{6, 64}, "x[:, 16:48].mean(axis=(0, 1))", -1, 1, false},
	{"float32 crop sum of a 3-D crop", f32, []int{3, 5, 40}, "x[:, 1:4, 2:38].sum(axis=(1, 2))", -1, 1, false},
	{"float32 flipped crop mean", f32, []int{6, 40}, "x[::-1, 1:39].mean()", -1, 1, false},
	{"HWC channel norm", u8, []int{6, 5, 3}, "norm(x, axis=(0, 1))", 0, 255, false},
	{"dot float32", f32, []int{4, 3}, "dot(x, float32([1, -2, 0.5]))", -1, 1, true},
	{"cosine float32 column", f32, []int{4, 3}, "cosine(x, float32([[1], [2], [3], [4]]))", -1, 1, false},
	{"dot float32 scalar", f32, []int{4, 3}, "dot(x, float32(0.5))", -1, 1, false},
	{"dot float32 long", f32, []int{2, 300}, "dot(x, float32(" + longList(300) + "))", -1, 1, false},
	{"cosine float32 long", f32, []int{300}, "cosine(x, float32(" + longList(300) + "))", -1, 1, false},
	{"norm float32 long", f32, []int{3, 300}, "norm(x, axis=1)", -1, 1, false},
	{"max float32 long", f32, []int{3, 300}, "x.max(axis=-1)", -1, 1, true},
	{"min float32 long", f32, []int{3, 300}, "x.min(axis=-1)", -1, 1, false},
	{"sum float64 long", f64, []int{3, 3000}, "x.sum(axis=-1)", -1, 1, false},
	{"error axis", f32, []int{4, 3}, "x.sum(axis=2)", -1, 1, false},
	{"error axis negative", f32, []int{4, 3}, "x.min(axis=-3)", -1, 1, false},
	{"error duplicate axis", f32, []int{4, 3}, "x.sum(axis=(0, 0))", -1, 1, false},
	{"error broadcast", f32, []int{4, 3}, "x + [1.0, 2.0]", -1, 1, false},
	{"error empty min", f32, []int{4, 3}, "x[:, 2:1].min(axis=1)", -1, 1, false},
	{"error empty argmin", f32, []int{4, 3}, "x[4:].argmin()", -1, 1, false},
	{"error argmax tuple", f32, []int{4, 3}, "x.argmax(axis=(0, 1))", -1, 1, false},
	{"error python int", u8, []int{4, 3}, "x + 300", 0, 255, false},
	{"error python int negative", u8, []int{4, 3}, "x * -1", 0, 255, false},
	{"3-D norm", f32, []int{3, 4, 5}, "norm(x)", -1, 1, false},
	{"3-D norm keepdims", u8, []int{3, 4, 5}, "norm(x, keepdims=True)", 0, 255, false},
	{"3-D norm axis None", f64, []int{3, 4, 5}, "norm(x, axis=None, keepdims=True)", -1, 1, true},
	{"3-D norm matrix", i16, []int{3, 4, 5}, "norm(x, axis=(2, 0), keepdims=True)", -100, 100, false},
	{"3-D norm matrix float16", f16, []int{3, 4, 5}, "norm(x, axis=(0, 1))", -1, 1, false},
	{"error norm 3 axes", f32, []int{3, 4, 5}, "norm(x, axis=(0, 1, 2))", -1, 1, false},
	{"error norm empty axes", f32, []int{3, 4, 5}, "norm(x, axis=())", -1, 1, false},
	{"norm 1-tuple", f32, []int{3, 4, 5}, "norm(x, axis=(1,))", -1, 1, false},
	{"error norm duplicate axes", f32, []int{3, 4, 5}, "norm(x, axis=(1, -2))", -1, 1, false},
	{"error norm axis out of bounds", f32, []int{3, 4, 5}, "norm(x, axis=(5, 0))", -1, 1, false},
	{"error norm 2 axes of 1-D", f32, []int{5}, "norm(x, axis=(0, 1))", -1, 1, false},
	{"error norm 4 axes", f32, []int{2, 3, 4, 5}, "norm(x, axis=(0, 1, 2, 3))", -1, 1, false},
	{"4-D norm", f32, []int{2, 3, 4, 5}, "norm(x)", -1, 1, true},
	{"clip nan float32 long", f32, []int{2, 300}, "x.clip(nan, 0.5)", -1, 1, false},
	{"clip nan uint8 to float32", u8, []int{2, 300}, "x.astype(float32).clip(0, nan)", 0, 255, false},
	{"clip nan then sum", f32, []int{4, 3}, "x.clip(nan, None).sum(axis=0)", -1, 1, false},
	// Var and Std: offsets far from 0 (where E[x^2] - E[x]^2 loses
	// every digit), long runs merged across chunks, strided slots,
	// blocked channel reductions, sizes 0 and 1, errors.
	{"var offset 1e8 whole", f64, []int{3000}, "x.var()", 1e8, 1e8 + 1, false},
	{"var offset 1e8 rows", f64, []int{3, 1000}, "x.var(axis=1)", 1e8, 1e8 + 1, false},
	{"std offset 1e8 columns", f64, []int{1000, 3}, "x.std(axis=0, ddof=1)", 1e8, 1e8 + 1, false},
	{"std offset 1e8 strided", f64, []int{40, 30}, "x.T[::2].std(axis=1, ddof=2)", 1e8, 1e8 + 1, false},
	{"var offset 1e4 float32", f32, []int{3, 100}, "x.var(axis=1)", 1e4, 1e4 + 1, false},
	{"var float32 long", f32, []int{3, 3000}, "x.var(axis=-1)", -1, 1, false},
	{"std float32 long nan", f32, []int{3, 3000}, "x.std(axis=-1, ddof=1)", -1, 1, true},
	{"std float32 whole", f32, []int{64, 64}, "x.std()", -1, 1, false},
	{"var float16 long", f16, []int{2000}, "x.var()", 0, 1, false},
	{"var 3-D axes", f32, []int{3, 4, 5}, "x.var(axis=(0, 2))", -1, 1, true},
	{"std 3-D keepdims float16", f16, []int{3, 4, 5}, "x.std(axis=(0, 2), keepdims=True)", -1, 1, false},
	{"var 4-D", f64, []int{2, 3, 4, 5}, "x.var(axis=(1, 3), ddof=1)", -1, 1, true},
	{"HWC channel var", u8, []int{6, 5, 3}, "x.var(axis=(0, 1))", 0, 255, false},
	{"HWC float32 channel std", u8, []int{6, 5, 3}, "x.astype(float32).std(axis=(0, 1))", 0, 255, false},
	{"HWC float32 channel var wide", f32, []int{6, 5, 40}, "x.var(axis=(0, 1), ddof=1)", -1, 1, false},
	{"0-D var", f32, []int{}, "x.var()", -1, 1, false},
	{"0-D std ddof 1", f64, []int{}, "x.std(ddof=1)", -1, 1, false},
	{"size-1 var", f32, []int{1, 5}, "x.var(axis=0)", -1, 1, false},
	{"size-1 std ddof 1", f64, []int{1, 5}, "x.std(axis=0, ddof=1)", -1, 1, false},
	{"size-1 var ddof 2", i32, []int{5, 1}, "x.var(axis=1, ddof=2)", -100, 100, false},
	{"size-0 var", f32, []int{3, 4}, "x[2:1].var(axis=0)", -1, 1, false},
	{"size-0 std", f64, []int{3, 4}, "x[:, 3:1].std(axis=1)", -1, 1, false},
	{"size-0 var whole", i16, []int{3, 4}, "x[2:1].var()", -100, 100, false},
	{"var normalize", u8, []int{6, 5, 3}, "((x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])).var(axis=(0, 1))", 0, 255, false},
	{"error var ddof None", f32, []int{4, 3}, "x.var(ddof=None)", -1, 1, false},
	{"error std axis", f32, []int{4, 3}, "x.std(axis=2)", -1, 1, false},
	{"error var duplicate axis", f32, []int{4, 3}, "var(x, axis=(1, -1))", -1, 1, false},
}

func computeCases() []computeCase {
	var cs []computeCase
	// Every op on every element type, full range integers (wrap-around)
	// and floats with NaNs.
	for _, dt := range allTypes {
		lo, hi := -100.0, 100.0
		if dt == u8 || dt == u16 || dt == u32 || dt == u64 {
			lo = 0
		}
		isFloat := dt == f16 || dt == f32 || dt == f64
		for _, text := range perTypeExprs {
			nan := isFloat
			if isFloat && (text == "x.astype(int64)" || text == "x.astype(int8)" || text == "x.astype(uint16)") {
				nan = false // NumPy leaves NaN to integer undefined
			}
			if isFloat && text == "x.astype(uint16)" {
				continue // negatives to unsigned: undefined in NumPy
			}
			if !isFloat && (text == "x.astype(uint16)" && lo < 0) {
				continue
			}
			if text == "x.clip(-5, 50)" && (dt == u8 || dt == u16 || dt == u32 || dt == u64) {
				text = "x.clip(5, 50)"
			}
			cs = append(cs, computeCase{name: dt.String() + "/" + text, dtype: dt, shape: []int{4, 3}, text: text, lo: lo, hi: hi, nan: nan})
		}
		// Wrap-around over the whole range of small integers.
		if !isFloat {
			cs = append(cs, computeCase{name: dt.String() + "/wrap", dtype: dt, shape: []int{5, 7}, text: "x * 3 + 1", lo: -1e300, hi: 1e300})
			cs = append(cs, computeCase{name: dt.String() + "/sum wrap", dtype: dt, shape: []int{5, 7}, text: "x.sum(axis=1)", lo: -1e300, hi: 1e300})
			cs = append(cs, computeCase{name: dt.String() + "/var full range", dtype: dt, shape: []int{5, 7}, text: "x.var(axis=1)", lo: -1e300, hi: 1e300})
			cs = append(cs, computeCase{name: dt.String() + "/std full range", dtype: dt, shape: []int{5, 7}, text: "x.std(axis=0, ddof=1)", lo: -1e300, hi: 1e300})
		}
	}
	cs = append(cs, shapeCases...)
	// A NaN clip bound gives NaN (float64 for integer tensors).
	for _, dt := range allTypes {
		for _, text := range []string{"x.clip(nan, 1)", "x.clip(0, nan)", "x.clip(None, nan)", "x.clip(nan, nan)"} {
			cs = append(cs, computeCase{name: dt.String() + "/" + text, dtype: dt, shape: []int{4, 3}, text: text, lo: 0, hi: 100})
		}
	}
	// Dot of integers is (x * c).sum(), wrapping around.
	for _, dt := range allTypes {
		lo, hi := -100.0, 100.0
		if dt == u8 || dt == u16 || dt == u32 || dt == u64 {
			lo = 0
		}
		for _, text := range []string{"dot(x, 3)", "dot(x, [1, -2, 3])", "dot(x, int16([2, 3, 4]))", "dot(x, uint8([200, 3, 4]))", "dot(x, int8(-2))", "dot(x, 1000)"} {
			cs = append(cs, computeCase{name: dt.String() + "/" + text, dtype: dt, shape: []int{4, 3}, text: text, lo: lo, hi: hi, nan: dt == f16 || dt == f32 || dt == f64})
		}
		if dt != f16 && dt != f32 && dt != f64 {
			cs = append(cs, computeCase{name: dt.String() + "/dot wrap", dtype: dt, shape: []int{5, 7}, text: "dot(x, [7, 5, 3, 1, -1, -3, -5])", lo: -1e300, hi: 1e300})
		}
	}
	return cs
}

// longList returns the text of a list of n floats.
func longList(n int) string {
	b := []byte{'['}
	for i := range n {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%g", float64(i%7)-2.5)
	}
	return string(append(b, ']'))
}

// randomColumn returns batch random tensors of c's type as raw bytes.
func randomColumn(r *rand.Rand, c computeCase, batch int) []byte {
	size := 1
	for _, d := range c.shape {
		size *= d
	}
	n := batch * size
	w := c.dtype.(arrow.FixedWidthDataType).BitWidth() / 8
	b := make([]byte, n*w)
	for k := range n {
		var f float64
		if c.nan && r.IntN(25) == 0 {
			f = math.NaN()
		} else {
			f = c.lo + r.Float64()*(c.hi-c.lo)
		}
		u := r.Uint64()
		intv := func(bits int, signed bool) uint64 {
			if c.lo < -1e200 {
				return u
			}
			v := int64(math.Floor(f))
			return uint64(v)
		}
		switch c.dtype.ID() {
		case arrow.INT8, arrow.UINT8:
			b[k] = byte(intv(8, true))
		case arrow.INT16, arrow.UINT16:
			binary.LittleEndian.PutUint16(b[2*k:], uint16(intv(16, true)))
		case arrow.INT32, arrow.UINT32:
			binary.LittleEndian.PutUint32(b[4*k:], uint32(intv(32, true)))
		case arrow.INT64, arrow.UINT64:
			binary.LittleEndian.PutUint64(b[8*k:], intv(64, true))
		case arrow.FLOAT16:
			binary.LittleEndian.PutUint16(b[2*k:], float16.New(float32(f)).Uint16())
		case arrow.FLOAT32:
			binary.LittleEndian.PutUint32(b[4*k:], math.Float32bits(float32(f)))
		case arrow.FLOAT64:
			binary.LittleEndian.PutUint64(b[8*k:], math.Float64bits(f))
		}
	}
	return b
}

// decode returns raw little-endian values of the named NumPy dtype as
// float64 (floats) or as int64 bits (integers, in the float64's bits).
func decode(dtype string, b []byte) []float64 {
	var out []float64
	switch dtype {
	case "float16":
		for k := 0; k+2 <= len(b); k += 2 {
			out = append(out, float64(float16.FromBits(binary.LittleEndian.Uint16(b[k:])).Float32()))
		}
	case "float32":
		for k := 0; k+4 <= len(b); k += 4 {
			out = append(out, float64(math.Float32frombits(binary.LittleEndian.Uint32(b[k:]))))
		}
	case "float64":
		for k := 0; k+8 <= len(b); k += 8 {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b[k:])))
		}
	default:
		var w int
		fmt.Sscanf(dtype[len(dtype)-2:], "%d", &w)
		if w == 0 {
			fmt.Sscanf(dtype[len(dtype)-1:], "%d", &w)
		}
		w /= 8
		signed := dtype[0] == 'i'
		for k := 0; k+w <= len(b); k += w {
			var v uint64
			for j := w - 1; j >= 0; j-- {
				v = v<<8 | uint64(b[k+j])
			}
			if signed && w < 8 && v>>(8*w-1) == 1 {
				v |= ^uint64(0) << (8 * w)
			}
			out = append(out, float64(int64(v))) // exact for the values compared
			if w == 8 {
				out[len(out)-1] = math.Float64frombits(v)
			}
		}
	}
	return out
}

// close reports whether got matches want for a result of dtype from an
// input of dtype input: floats within a tolerance of the precisions
// (NaN matches NaN), integers exactly.
func close(dtype, input string, want, got float64, n int) bool {
	var rtol float64
	switch dtype {
	case "float16":
		rtol = 2e-3
	case "float32":
		rtol = 2e-6
	case "float64":
		rtol = 1e-12
	default:
		return math.Float64bits(want) == math.Float64bits(got)
	}
	// NumPy sums float16 and float32 in their own precision.
	switch input {
	case "float16":
		rtol = max(rtol, 2e-3)
	case "float32":
		rtol = max(rtol, 2e-6)
	}
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if math.IsInf(want, 0) || math.IsInf(got, 0) {
		return want == got
	}
	return math.Abs(want-got) <= rtol*float64(n)*(1+math.Abs(want))
}

// TestComputeNumPy checks result types, shapes, values and error texts of
// element-wise operations, reductions and similarities against NumPy 2 on
// the same random tensors, evaluated on one and two workers, with a null
// tensor appended (whose result must be null).
func TestComputeNumPy(t *testing.T) {
	cases := computeCases()
	r := rand.New(rand.NewPCG(15, 3))
	const batch = 3
	reqs := make([]computeRequest, len(cases))
	raw := make([][]byte, len(cases))
	for i, c := range cases {
		raw[i] = randomColumn(r, c, batch)
		reqs[i] = computeRequest{DType: numpyDType(c.dtype), Shape: c.shape, Batch: batch, Data: base64.StdEncoding.EncodeToString(raw[i]), Text: c.text}
	}
	results := askNumPy[computeResult](t, computeScript, reqs)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := results[i]
			typ, err := fixedshape.NewType(c.dtype, metadata.MustNew(c.shape, nil, nil))
			if err != nil {
				t.Fatal(err)
			}
			e, err := expr.Parse(c.text, expr.Input(typ))
			if want.Error != nil {
				var ee *expr.Error
				if !errors.As(err, &ee) || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("numpy fails with %q, Go with %v", *want.Error, err)
				}
				if diff := cmp.Diff(*want.Error, ee.Msg); diff != "" {
					t.Errorf("error text (-numpy +go):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			rt, err := planType(e)
			if err != nil {
				t.Fatal(err)
			}
			gotType := rt
			if ft, ok := rt.(*fixedshape.Type); ok {
				gotType = ft.ElemType()
				if diff := cmp.Diff(want.Shape, ft.Metadata().Shape(), cmpEmpty); diff != "" {
					t.Errorf("shape (-numpy +go):\n%s", diff)
				}
			} else if len(want.Shape) != 0 {
				t.Errorf("Go gives one value per tensor, numpy shape %v", want.Shape)
			}
			if diff := cmp.Diff(*want.DType, numpyDType(gotType)); diff != "" {
				t.Errorf("dtype (-numpy +go):\n%s", diff)
			}
			rows := evalRows(t, e, typ, raw[i], batch)
			size := e.Metadata().Size()
			for k := range batch {
				wb, _ := base64.StdEncoding.DecodeString(want.Values[k])
				wv := decode(*want.DType, wb)
				gv := decode(*want.DType, rows[k])
				if len(wv) != size || len(gv) != size {
					t.Fatalf("tensor %d: %d values from numpy, %d from Go, size %d", k, len(wv), len(gv), size)
				}
				n := 1
				for _, d := range c.shape {
					n = max(n, d)
				}
				for j := range wv {
					if !close(*want.DType, reqs[i].DType, wv[j], gv[j], n) {
						t.Fatalf("tensor %d element %d: numpy %v, Go %v (%s)", k, j, wv[j], gv[j], e)
					}
				}
			}
		})
	}
}

// evalRows evaluates e over the batch (plus a null tensor) with one and
// two workers and returns each tensor's result bytes; it fails the test
// when the ways disagree or the null tensor's result is not null.
func evalRows(t *testing.T, e expr.Expr, typ *fixedshape.Type, raw []byte, batch int) [][]byte {
	t.Helper()
	mem := testvec.CheckedMem(t)
	size := typ.ListSize()
	w := len(raw) / max(1, batch*size)
	if size == 0 {
		w = 1
	}
	buf := memory.NewBufferBytes(append(raw, make([]byte, size*w)...))
	valid := make([]byte, 1)
	for k := range batch {
		valid[0] |= 1 << k
	}
	child := array.NewData(typ.ElemType(), (batch+1)*size, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, batch+1, []*memory.Buffer{memory.NewBufferBytes(valid)}, []arrow.ArrayData{child}, 1, 0)
	defer data.Release()
	in := array.MakeFromData(data).(*fixedshape.Array)
	defer in.Release()
	var rows [][]byte
	for _, workers := range []int{1, 2} {
		out, err := evalPlan(e, in, expr.WithAllocator(mem), expr.WithWorkers(workers))
		if err != nil {
			t.Fatalf("Eval: %v", err)
		}
		if !out.IsNull(batch) || out.NullN() != 1 {
			t.Errorf("the null tensor's result is not null")
		}
		var vals []byte
		if fa, ok := out.(*fixedshape.Array); ok {
			vals = fa.ValueBytes()
		} else {
			vals = out.Data().Buffers()[1].Bytes()
		}
		n := len(vals) / (batch + 1)
		var got [][]byte
		for k := range batch {
			got = append(got, append([]byte(nil), vals[k*n:(k+1)*n]...))
		}
		if rows == nil {
			rows = got
		} else if diff := cmp.Diff(rows, got); diff != "" {
			t.Errorf("two workers differ from one:\n%s", diff)
		}
		out.Release()
	}
	return rows
}

// numpyDType is the NumPy name of an element type.
func numpyDType(t arrow.DataType) string {
	switch t.ID() {
	case arrow.FLOAT16:
		return "float16"
	case arrow.FLOAT32:
		return "float32"
	case arrow.FLOAT64:
		return "float64"
	}
	return t.String()
}
