package expr_test

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/float16"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/stride"
)

// The oracle tests evaluate an expression text with expr.Compile and
// Program.Eval on a record batch, and the same text with NumPy 2 row by
// row (testdata/oracle/numpy_eval.py, one Python process for a whole
// table), and compare the result's dtype and shape (from Program.Schema,
// before any data), its null rows and its values.
//
// Values are compared by the functions the expression calls, the least
// exact deciding (oracleTolerance):
//
//   - bit-exact (NaN matching any NaN): integer and bool results, and
//     float results of + - * / // % sqrt abs, comparisons, where, floor,
//     ceil, round, sign, square, astype, views, concatenate, stack,
//     argmax, argmin, any, all. float16 arithmetic is exact too: rounding
//     a float32 or float64 result of + - * / sqrt to float16 gives the
//     correctly rounded float16.
//   - bit-exact but for the sign of a zero: minimum, maximum, clip, min
//     and max, whose result for +0 and -0 NumPy leaves to its loops
//     (minimum(-0.0, 0) is -0.0 in float16 and +0.0 in float32 and
//     float64, whose SIMD loops return the second of equal operands).
//   - within 2 ULP of NumPy's result: exp, log, log1p, expm1, tanh and
//     float ** (Go's math in float64 rounded against NumPy's float32 and
//     float16 loops).
//   - within 16 ULP of the largest finite magnitude among the row's
//     input elements, NumPy's result elements and the result of the same
//     expression over the magnitudes of the inputs (for dot(a, b),
//     sum(|a * b|), the scale of the rounding errors of a sum): sum,
//     mean, var, std, norm, dot, cosine, l2, sqeuclidean, @, matmul,
//     einsum (the order of accumulation differs: expr accumulates floats
//     in float64 or in the search kernels' 32 partial sums, NumPy
//     pairwise in the input's type).
//
// An ULP is the result type's, or that of the least precise float type
// the expression may compute in when that is coarser (oracleCaseEps):
// the ULP of float32 for float32 inputs whose result is float64.

// oracleResult is a result column read back: its elements in logical
// order, each as the little-endian bits of its width, per row (nil for
// a null row).
type oracleResult struct {
	dtype string
	shape []int
	rows  [][]uint64
}

// oracleRead reads a result column: a fixed-shape tensor column or a
// plain column (one 0-D value per row).
func oracleRead(arr arrow.Array) (oracleResult, error) {
	typ, ok := fixedshape.TypeOf(arr.DataType())
	res := oracleResult{shape: []int{}}
	values, base := arr, 0
	var strides []int
	if ok {
		res.shape = typ.Metadata().AppendShape(nil)
		strides = typ.Metadata().ElemStrides()
		res.dtype = oracleDTypeName(typ.ElemType())
		fa, isFixed := arr.(*fixedshape.Array)
		if !isFixed {
			return res, fmt.Errorf("a %T of type %v", arr, arr.DataType())
		}
		st := fa.Storage().(*array.FixedSizeList)
		values, base = st.ListValues(), st.Data().Offset()
	} else {
		res.dtype = oracleDTypeName(arr.DataType())
	}
	size := oracleSize(res.shape)
	vd := values.Data()
	if len(vd.Buffers()) < 2 || vd.Buffers()[1] == nil {
		return res, fmt.Errorf("no values buffer in a %v column", vd.DataType())
	}
	raw := vd.Buffers()[1].Bytes()
	w := oracleWidth(res.dtype)
	for i := range arr.Len() {
		if arr.IsNull(i) {
			res.rows = append(res.rows, nil)
			continue
		}
		row := make([]uint64, 0, size)
		for off := range stride.Offsets(res.shape, strides) {
			j := vd.Offset() + (base+i)*size + off
			if res.dtype == "bool" {
				row = append(row, uint64(raw[j/8]>>(j%8)&1))
				continue
			}
			var b [8]byte
			copy(b[:w], raw[j*w:])
			row = append(row, binary.LittleEndian.Uint64(b[:]))
		}
		res.rows = append(res.rows, row)
	}
	return res, nil
}

// oracleDecode reads NumPy's bytes of one row as elements of dtype.
func oracleDecode(dtype string, b []byte) []uint64 {
	w := oracleWidth(dtype)
	var out []uint64
	for k := 0; k+w <= len(b); k += w {
		var e [8]byte
		copy(e[:w], b[k:k+w])
		out = append(out, binary.LittleEndian.Uint64(e[:]))
	}
	return out
}

// oracleFloat is the float64 value of an element's bits, and whether the
// dtype is a float type.
func oracleFloat(dtype string, bits uint64) (float64, bool) {
	switch dtype {
	case "float16":
		return float64(float16.FromBits(uint16(bits)).Float32()), true
	case "float32":
		return float64(math.Float32frombits(uint32(bits))), true
	case "float64":
		return math.Float64frombits(bits), true
	}
	return 0, false
}

// oracleMagnitude returns the largest finite magnitude among row i's
// input elements.
func (d oracleData) magnitude(i int) float64 {
	m := 0.0
	for k, c := range d.cols {
		w := oracleWidth(c.dtype)
		size := oracleSize(c.shape)
		for _, bits := range oracleDecode(c.dtype, d.bytes[k][i*size*w:(i+1)*size*w]) {
			f, ok := oracleFloat(c.dtype, bits)
			if !ok {
				if strings.HasPrefix(c.dtype, "uint") || c.dtype == "bool" {
					f = float64(bits)
				} else {
					sh := 64 - 8*uint(w)
					f = float64(int64(bits<<sh) >> sh)
				}
			}
			if !math.IsInf(f, 0) && !math.IsNaN(f) {
				m = max(m, math.Abs(f))
			}
		}
	}
	return m
}

// oracleTolerance is how exactly a case's float results must match (see
// the comment at the top of this file).
type oracleTolerance int

const (
	oracleExact oracleTolerance = iota
	oracleExactZeros
	oracleULP
	oracleAccum
)

var (
	oracleIdent   = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|@|\*\*`)
	oracleAccumFn = []string{"sum", "mean", "var", "std", "norm", "dot", "cosine", "l2", "sqeuclidean", "l2sq", "@", "matmul", "einsum"}
	oracleULPFn   = []string{"exp", "log", "log1p", "expm1", "tanh", "**"}
	oracleZerosFn = []string{"minimum", "maximum", "clip", "min", "max"}
)

// oracleToleranceOf is the tolerance of an expression text.
func oracleToleranceOf(text string) oracleTolerance {
	tol := oracleExact
	for _, w := range oracleIdent.FindAllString(text, -1) {
		switch {
		case slices.Contains(oracleAccumFn, w):
			return oracleAccum
		case slices.Contains(oracleULPFn, w):
			tol = oracleULP
		case slices.Contains(oracleZerosFn, w):
			tol = max(tol, oracleExactZeros)
		}
	}
	return tol
}

// oracleEps is the machine epsilon of a float dtype.
func oracleEps(dtype string) float64 {
	switch dtype {
	case "float16":
		return 0x1p-10
	case "float32":
		return 0x1p-23
	}
	return 0x1p-52
}

// oracleOrdered maps a float's bits to an integer in the order of the
// floats, so that the difference of two is their distance in ULP.
func oracleOrdered(dtype string, bits uint64) int64 {
	w := 8 * uint(oracleWidth(dtype))
	sign := uint64(1) << (w - 1)
	if bits&sign != 0 {
		return -int64(bits &^ sign)
	}
	return int64(bits)
}

// oracleMatch reports whether got matches NumPy's want (elements of
// dtype) under tol, with mag the magnitude of oracleAccum and eps the
// epsilon of an ULP (oracleCaseEps).
func oracleMatch(dtype string, tol oracleTolerance, want, got uint64, mag, eps float64) bool {
	wf, isFloat := oracleFloat(dtype, want)
	if !isFloat {
		return want == got
	}
	gf, _ := oracleFloat(dtype, got)
	switch {
	case math.IsNaN(wf) || math.IsNaN(gf):
		return math.IsNaN(wf) && math.IsNaN(gf)
	case want == got:
		return true
	case tol == oracleExactZeros && wf == 0 && gf == 0:
		return true
	case tol <= oracleExactZeros || math.IsInf(wf, 0) || math.IsInf(gf, 0):
		return false
	case tol == oracleULP && eps == oracleEps(dtype):
		d := oracleOrdered(dtype, want) - oracleOrdered(dtype, got)
		return d >= -2 && d <= 2
	case tol == oracleULP:
		return math.Abs(wf-gf) <= 2*eps*math.Abs(wf)
	}
	return math.Abs(wf-gf) <= 16*eps*max(math.Abs(wf), mag)
}

// oracleCaseEps is the epsilon of the least precise float type a case
// may compute in: its result's, and that of every dtype its inputs have
// or its text names, where bool and 8-bit integers count as float16 and
// 16-bit integers as float32 (NumPy computes sqrt, exp... of them in
// those types).
func oracleCaseEps(result, text string, cols []oracleCol) float64 {
	eps := 0.0
	if oracleIsFloat(result) {
		eps = oracleEps(result)
	}
	computes := map[string]string{"bool": "float16", "int8": "float16", "uint8": "float16", "int16": "float32",
		"uint16": "float32", "float16": "float16", "float32": "float32"}
	for dt, ft := range computes {
		if strings.Contains(text, dt) || slices.ContainsFunc(cols, func(c oracleCol) bool { return c.dtype == dt }) {
			eps = max(eps, oracleEps(ft))
		}
	}
	return eps
}

// oracleCheck evaluates one case with expr and returns the ways it
// differs from NumPy's answer (none: it matches).
func oracleCheck(t testing.TB, c oracleCase, d oracleData, want oracleAnswer) []string {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := d.record(t)
	defer rec.Release()
	opts := []expr.Option{expr.WithAllocator(mem), expr.WithLoad(oracleLoad)}
	if slices.ContainsFunc(c.cols, func(c oracleCol) bool { return c.name == "x" }) {
		opts = append(opts, expr.WithInput("x"))
	}
	p, err := expr.Compile(c.text, rec.Schema(), opts...)
	if want.Error != nil && (!c.evalErr || err != nil) {
		if err == nil {
			return []string{fmt.Sprintf("NumPy fails (%s: %s), Compile does not", want.Kind, *want.Error)}
		}
		var problems []string
		if !errors.Is(err, arrow.ErrInvalid) {
			problems = append(problems, fmt.Sprintf("Compile's error does not wrap arrow.ErrInvalid: %v", err))
		}
		if !c.evalErr && !c.ownWords && !strings.Contains(err.Error(), strings.TrimSpace(*want.Error)) {
			problems = append(problems, fmt.Sprintf("error words: NumPy %q, Go %q", *want.Error, err.Error()))
		}
		return problems
	}
	if slices.Contains(want.Shape, 0) && want.Error == nil {
		// fixedshape cannot represent a size-0 dimension (expr/doc.go).
		if !errors.Is(err, arrow.ErrNotImplemented) {
			return []string{fmt.Sprintf("NumPy's result has shape %v; Compile: %v", want.Shape, err)}
		}
		return nil
	}
	if err != nil {
		return []string{fmt.Sprintf("Compile: %v", err)}
	}
	var problems []string
	if want.Error == nil {
		f := p.Schema().Field(0)
		gotDType, gotShape := oracleDTypeName(f.Type), []int{}
		if ft, ok := fixedshape.TypeOf(f.Type); ok {
			gotDType, gotShape = oracleDTypeName(ft.ElemType()), ft.Metadata().AppendShape(nil)
		}
		if gotDType != want.DType || !slices.Equal(gotShape, want.Shape) {
			problems = append(problems, fmt.Sprintf("Schema: %s %v, NumPy %s %v", gotDType, gotShape, want.DType, want.Shape))
		}
	}
	out, err := p.Eval(rec)
	if want.Error != nil {
		if err == nil {
			out.Release()
			return append(problems, fmt.Sprintf("NumPy fails on the data (%s), Eval does not", *want.Error))
		}
		if !errors.Is(err, arrow.ErrInvalid) {
			problems = append(problems, fmt.Sprintf("Eval's error does not wrap arrow.ErrInvalid: %v", err))
		}
		return problems
	}
	if err != nil {
		return append(problems, fmt.Sprintf("Eval: %v", err))
	}
	defer out.Release()
	if !arrow.TypeEqual(out.Schema().Field(0).Type, p.Schema().Field(0).Type) {
		problems = append(problems, fmt.Sprintf("Eval's type %v is not Schema's %v", out.Schema().Field(0).Type, p.Schema().Field(0).Type))
	}
	got, err := oracleRead(out.Column(0))
	if err != nil {
		return append(problems, err.Error())
	}
	if got.dtype != want.DType || !slices.Equal(got.shape, want.Shape) {
		return append(problems, fmt.Sprintf("result: %s %v, NumPy %s %v", got.dtype, got.shape, want.DType, want.Shape))
	}
	tol := oracleToleranceOf(c.text)
	if c.loose && tol == oracleULP {
		tol = oracleAccum
	}
	eps := oracleEps(want.DType)
	if tol > oracleExactZeros {
		eps = oracleCaseEps(want.DType, c.text, c.cols)
	}
	return append(problems, oracleCompareRows(tol, eps, d, want, got)...)
}

// oracleCompareRows compares the values and null rows of a result with
// NumPy's: the first differing element of each row.
func oracleCompareRows(tol oracleTolerance, eps float64, d oracleData, want oracleAnswer, got oracleResult) []string {
	var problems []string
	if len(got.rows) != len(want.Rows) {
		return []string{fmt.Sprintf("%d result rows, NumPy %d", len(got.rows), len(want.Rows))}
	}
	for i, wr := range want.Rows {
		if wr == nil || got.rows[i] == nil {
			if (wr == nil) != (got.rows[i] == nil) {
				problems = append(problems, fmt.Sprintf("row %d: null %v, NumPy null %v", i, got.rows[i] == nil, wr == nil))
			}
			continue
		}
		wb, err := base64.StdEncoding.DecodeString(*wr)
		if err != nil {
			return append(problems, err.Error())
		}
		wv := oracleDecode(want.DType, wb)
		if len(wv) != len(got.rows[i]) {
			problems = append(problems, fmt.Sprintf("row %d: %d elements, NumPy %d", i, len(got.rows[i]), len(wv)))
			continue
		}
		mag := d.magnitude(i)
		if i < len(want.Scales) {
			mag = max(mag, want.Scales[i])
		}
		for _, w := range wv {
			if f, ok := oracleFloat(want.DType, w); ok && !math.IsInf(f, 0) && !math.IsNaN(f) {
				mag = max(mag, math.Abs(f))
			}
		}
		for j, w := range wv {
			if g := got.rows[i][j]; !oracleMatch(want.DType, tol, w, g, mag, eps) {
				problems = append(problems, fmt.Sprintf("row %d element %d: %s, NumPy %s", i, j, oracleFormat(want.DType, g), oracleFormat(want.DType, w)))
				break
			}
		}
	}
	return problems
}

// oracleFormat prints an element of dtype.
func oracleFormat(dtype string, bits uint64) string {
	if f, ok := oracleFloat(dtype, bits); ok {
		return fmt.Sprintf("%v (%#x)", f, bits)
	}
	return fmt.Sprintf("%#x", bits)
}

// oracleLoad reads the constant of load(name) from testdata/oracle.
func oracleLoad(name string) (expr.Const, error) {
	f, err := os.Open(filepath.Join("testdata", "oracle", filepath.Base(name)))
	if err != nil {
		return expr.Const{}, err
	}
	defer f.Close()
	a, err := npy.ReadTensor(f)
	if err != nil {
		return expr.Const{}, err
	}
	defer a.Release()
	switch a.TensorType().ElemType().ID() {
	case arrow.INT16:
		return oracleConst[int16](a)
	case arrow.FLOAT32:
		return oracleConst[float32](a)
	case arrow.FLOAT64:
		return oracleConst[float64](a)
	}
	return expr.Const{}, fmt.Errorf("%s: %v elements", name, a.TensorType().ElemType())
}

// oracleConst is the one tensor of a as a constant.
func oracleConst[T int16 | float32 | float64](a *fixedshape.Array) (expr.Const, error) {
	c, err := fixedshape.ColumnOf[T](a)
	if err != nil {
		return expr.Const{}, err
	}
	t := c.Tensor(0)
	return expr.Array(t.Shape(), t.AppendLogical(nil)), nil
}

// oracleAsk runs numpy_eval.py once over every request.
func oracleAsk(t testing.TB, reqs []oracleRequest) []oracleAnswer {
	t.Helper()
	script, err := os.ReadFile(filepath.Join("testdata", "oracle", "numpy_eval.py"))
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	var answers []oracleAnswer
	if err := json.Unmarshal(pyrun.Run(t, string(script), stdin, []string{"numpy"}), &answers); err != nil {
		t.Fatal(err)
	}
	if len(answers) != len(reqs) {
		t.Fatalf("NumPy answered %d cases of %d", len(answers), len(reqs))
	}
	return answers
}

// TestOracle checks every case of oracleCases against NumPy: Compile's
// result type, Eval's values and null rows, and the errors NumPy raises.
// A case of oracleKnown must fail (its entry says how); once it passes,
// the entry goes.
func TestOracle(t *testing.T) {
	testvec.CheckedMem(t) // the leak check of the cases is their own
	cases := oracleCases()
	dir, err := filepath.Abs(filepath.Join("testdata", "oracle"))
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	datas := make([]oracleData, len(cases))
	reqs := make([]oracleRequest, len(cases))
	for i, c := range cases {
		if names[c.name] {
			t.Fatalf("two cases named %q", c.name)
		}
		names[c.name] = true
		rows := c.rows
		if rows == 0 {
			rows = 4
		}
		datas[i] = oracleGenerate(c.name, c.cols, rows)
		reqs[i] = datas[i].request(c.text, dir)
	}
	answers := oracleAsk(t, reqs)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			problems := oracleCheck(t, c, datas[i], answers[i])
			known, isKnown := oracleKnown[c.name]
			switch {
			case isKnown && len(problems) == 0:
				t.Errorf("%s: passes now; remove it from oracleKnown (%s)", c.text, known)
			case isKnown:
				t.Skipf("known failure (%s): %s: %s", known, c.text, strings.Join(problems, "; "))
			case len(problems) > 0:
				t.Errorf("%s:\n%s", c.text, strings.Join(problems, "\n"))
			}
		})
	}
}
