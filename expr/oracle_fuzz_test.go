package expr_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
)

// FuzzNumPy generates a well-typed expression over one or two columns of
// random dtypes and shapes from the fuzz bytes (oracleGen) and checks it
// as TestOracle and TestOracleAgain check a case: against NumPy when
// Python with NumPy is found (one process for the whole run, fed one case
// per line), and otherwise that Compile and Eval do not panic and fail
// only with errors wrapping arrow.ErrInvalid; with or without NumPy, on a
// slice of the batch, on 3 workers, built in Go and printed.
func FuzzNumPy(f *testing.F) {
	for _, seed := range [][]byte{
		[]byte("a"), []byte("\x01\x02\x03\x04\x05\x06\x07\x08"), []byte("x*2+1 where(x > 0)"),
		[]byte("\x09\x03\x02\x04\x01\x11\x21\x31\x41\x51\x61\x71"), []byte("normalize rows"),
	} {
		f.Add(seed)
	}
	py := oracleServe(f)
	dir, err := filepath.Abs(filepath.Join("testdata", "oracle"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c := oracleGen(b)
		d := oracleGenerate(string(b), c.cols, c.rows)
		problems := oracleAgain(t, c, d)
		if py == nil {
			oracleNoPanic(t, c, d)
		} else {
			want, err := py.ask(d.request(c.text, dir))
			if err != nil {
				t.Fatal(err)
			}
			problems = append(oracleCheck(t, c, d, want), problems...)
		}
		known, isKnown := oracleKnown["fuzz/"+c.text]
		switch {
		case isKnown && len(problems) == 0:
			t.Errorf("%s: passes now; remove it from oracleKnown (%s)", c.text, known)
		case isKnown:
			t.Skipf("known failure (%s): %s: %s", known, c.text, strings.Join(problems, "; "))
		case len(problems) > 0:
			t.Errorf("%s over %s:\n%s", c.text, oracleDescribe(c.cols), strings.Join(problems, "\n"))
		}
	})
}

// oracleDescribe prints the columns of a case.
func oracleDescribe(cols []oracleCol) string {
	var s []string
	for _, c := range cols {
		kind := "tensor"
		if c.plain {
			kind = "plain"
		}
		s = append(s, fmt.Sprintf("%s %s %s %v perm %v", c.name, kind, c.dtype, c.shape, c.perm))
	}
	return strings.Join(s, ", ")
}

// oracleNoPanic compiles and evaluates a case without NumPy: errors must
// wrap arrow.ErrInvalid.
func oracleNoPanic(t *testing.T, c oracleCase, d oracleData) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := d.record(t)
	defer rec.Release()
	p, err := expr.Compile(c.text, rec.Schema(), expr.WithAllocator(mem))
	if err != nil {
		if !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: Compile: %v does not wrap arrow.ErrInvalid", c.text, err)
		}
		return
	}
	out, err := p.Eval(rec)
	if err != nil {
		if !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("%s: Eval: %v does not wrap arrow.ErrInvalid", c.text, err)
		}
		return
	}
	out.Release()
}

// oracleProc is a Python process running numpy_eval.py line by line.
type oracleProc struct {
	mu  sync.Mutex
	in  *json.Encoder
	out *bufio.Reader
}

// oracleServe starts numpy_eval.py in its line mode, or returns nil when
// no Python with NumPy is found (in the places internal/pyrun looks:
// $FSTENSOR_PYTHON, the repository's .venv, python3 on the PATH). The
// process ends when the test binary closes its standard input at exit.
func oracleServe(tb testing.TB) *oracleProc {
	var py string
	for _, p := range []string{os.Getenv("FSTENSOR_PYTHON"), filepath.Join("..", ".venv", "bin", "python"), "python3"} {
		if p != "" && exec.Command(p, "-c", "import numpy").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		tb.Logf("no Python with NumPy: checking errors and panics only")
		return nil
	}
	cmd := exec.Command(py, filepath.Join("testdata", "oracle", "numpy_eval.py"), "lines")
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return &oracleProc{in: json.NewEncoder(in), out: bufio.NewReader(out)}
}

// ask returns NumPy's answer to one case.
func (p *oracleProc) ask(q oracleRequest) (oracleAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var a oracleAnswer
	if err := p.in.Encode(q); err != nil {
		return a, err
	}
	line, err := p.out.ReadBytes('\n')
	if err != nil {
		return a, fmt.Errorf("numpy_eval.py: %v", err)
	}
	return a, json.Unmarshal(line, &a)
}

// oracleFuzzBytes hands out the fuzz bytes as small choices; past the
// end every choice is 0.
type oracleFuzzBytes struct {
	b []byte
	i int
}

func (r *oracleFuzzBytes) next(n int) int {
	if r.i >= len(r.b) {
		return 0
	}
	r.i++
	return int(r.b[r.i-1]) % n
}

// oracleNode is a generated sub-expression: its text, the shape of its
// value and its kind ('b' bool, 'i' integer, 'f' float). An inexact node
// is a float that expr and NumPy may round differently (exp, tanh, float
// sums and means): no comparison, floor, sign, floor division, remainder,
// argmax, any or all is taken of it, whose results would differ by more
// than a rounding, and no exp or tanh, which would amplify one.
type oracleNode struct {
	text    string
	shape   []int
	kind    byte
	inexact bool
}

// oracleKindOf is the kind of a NumPy dtype.
func oracleKindOf(dtype string) byte {
	switch {
	case dtype == "bool":
		return 'b'
	case oracleIsFloat(dtype):
		return 'f'
	}
	return 'i'
}

// oracleBroadcast is NumPy's broadcast of two shapes.
func oracleBroadcast(a, b []int) ([]int, bool) {
	n := max(len(a), len(b))
	out := make([]int, n)
	for k := range n {
		da, db := 1, 1
		if i := len(a) - n + k; i >= 0 {
			da = a[i]
		}
		if i := len(b) - n + k; i >= 0 {
			db = b[i]
		}
		switch {
		case da == db || db == 1:
			out[k] = da
		case da == 1:
			out[k] = db
		default:
			return nil, false
		}
	}
	return out, true
}

// oracleGen makes a case from fuzz bytes: column a of a random dtype and
// shape (of up to 3 dimensions of up to 4, maybe permuted), maybe a
// column b broadcasting against it (the same shape, its trailing axes, a
// plain column), 1 to 33 rows, and an expression of depth up to 3 over
// them.
func oracleGen(b []byte) oracleCase {
	r := &oracleFuzzBytes{b: b}
	dtypes := append([]string{"bool"}, oracleNumeric...)
	s := make([]int, r.next(4))
	for k := range s {
		s[k] = 1 + r.next(4)
	}
	a := tcol("a", dtypes[r.next(len(dtypes))], s...)
	if len(s) == 3 && r.next(2) == 1 {
		a = a.permuted(1, 2, 0)
	}
	if oracleKindOf(a.dtype) == 'f' && r.next(3) == 0 {
		a = a.specials()
	}
	cols := []oracleCol{a}
	switch r.next(4) {
	case 1:
		cols = append(cols, tcol("b", dtypes[r.next(len(dtypes))], s...))
	case 2:
		cols = append(cols, tcol("b", dtypes[r.next(len(dtypes))], s[min(len(s), 1):]...))
	case 3:
		cols = append(cols, pcol("b", oracleNumeric[r.next(len(oracleNumeric))]))
	}
	g := oracleGenerator{r: r, cols: cols}
	n := g.expr(3)
	rows := []int{4, 1, 2, 3, 5, 9, 17, 33}[r.next(8)] // last: the seeds' expressions stay
	return oracleCase{name: n.text, text: n.text, cols: cols, rows: rows, loose: true}
}

// oracleGenerator builds random expressions over its columns.
type oracleGenerator struct {
	r    *oracleFuzzBytes
	cols []oracleCol
}

// leaf is a column.
func (g *oracleGenerator) leaf() oracleNode {
	c := g.cols[g.r.next(len(g.cols))]
	return oracleNode{text: c.name, shape: c.shape, kind: oracleKindOf(c.dtype)}
}

// constant is a Python scalar suited to a kind: small non-negative
// integers (in range of every integer type), floats for floats.
func (g *oracleGenerator) constant(kind byte) oracleNode {
	if kind == 'f' && g.r.next(2) == 0 {
		return oracleNode{text: []string{"0.5", "1.5", "-2.25", "3.0"}[g.r.next(4)], kind: 'f'}
	}
	return oracleNode{text: fmt.Sprint(g.r.next(6)), kind: 'i'}
}

// numeric turns a bool node into an integer one.
func numeric(n oracleNode) oracleNode {
	if n.kind == 'b' {
		return oracleNode{text: "(" + n.text + ").astype(int16)", shape: n.shape, kind: 'i'}
	}
	return n
}

// expr is a random expression of at most depth levels.
func (g *oracleGenerator) expr(depth int) oracleNode {
	if depth == 0 {
		return g.leaf()
	}
	switch g.r.next(9) {
	case 0:
		return g.leaf()
	case 7:
		return g.linalg(depth)
	case 1, 2:
		return g.binary(depth)
	case 3:
		return g.unary(depth)
	case 4:
		return g.reduce(depth)
	case 5:
		return g.view(depth)
	case 6:
		return g.where(depth)
	}
	x := g.expr(depth - 1)
	t := []string{"float32", "int16", "uint8", "float64"}[g.r.next(4)]
	if oracleKindOf(t) != 'f' && (x.kind == 'f' || !slices.ContainsFunc(g.cols, func(c oracleCol) bool { return c.name == x.text })) {
		// NumPy leaves a float out of an integer type's range to the
		// platform, and integers of two columns may promote to float64.
		t = "float32"
	}
	return oracleNode{text: "(" + x.text + ").astype(" + t + ")", shape: x.shape, kind: oracleKindOf(t), inexact: x.inexact}
}

// operand is the right operand of a binary operation with x: a
// sub-expression that broadcasts against x, or else a constant.
func (g *oracleGenerator) operand(depth int, x oracleNode) (oracleNode, []int) {
	if g.r.next(3) > 0 {
		y := g.expr(depth - 1)
		if s, ok := oracleBroadcast(x.shape, y.shape); ok {
			return y, s
		}
	}
	return g.constant(x.kind), x.shape
}

// binary is arithmetic, a comparison or a bitwise operation.
func (g *oracleGenerator) binary(depth int) oracleNode {
	x := g.expr(depth - 1)
	y, s := g.operand(depth, x)
	kind := max(x.kind, y.kind) // 'b' < 'f' < 'i': fixed below
	if x.kind == 'f' || y.kind == 'f' {
		kind = 'f'
	}
	op := []string{"+", "-", "*", "/", "<", ">=", "==", "minimum", "maximum", "&", "//", "%"}[g.r.next(12)]
	inexact := x.inexact || y.inexact
	if inexact && op != "+" && op != "*" && op != "/" && op != "minimum" && op != "maximum" {
		op = "-"
	}
	switch op {
	case "<", ">=", "==":
		return oracleNode{text: "(" + x.text + " " + op + " " + y.text + ")", shape: s, kind: 'b'}
	case "minimum", "maximum":
		return oracleNode{text: op + "(" + x.text + ", " + y.text + ")", shape: s, kind: kind, inexact: inexact}
	case "&":
		if kind == 'f' {
			op = "*"
		} else {
			return oracleNode{text: "(" + x.text + " & " + y.text + ")", shape: s, kind: kind}
		}
	case "//", "%":
		if kind == 'f' {
			op = "-" // float floor division is in the table; here integers only
		}
	}
	x, y = numeric(x), numeric(y)
	if op == "/" {
		kind = 'f'
	} else if kind == 'b' {
		kind = 'i'
	}
	return oracleNode{text: "(" + x.text + " " + op + " " + y.text + ")", shape: s, kind: kind, inexact: inexact}
}

// unary is a negation or an element-wise function.
func (g *oracleGenerator) unary(depth int) oracleNode {
	x := g.expr(depth - 1)
	if x.kind == 'b' {
		return oracleNode{text: "~" + x.text, shape: x.shape, kind: 'b'}
	}
	f := []string{"-", "abs", "square", "tanh", "exp", "isnan", "sign", "floor"}[g.r.next(8)]
	if x.inexact && (f == "sign" || f == "floor" || f == "exp" || f == "tanh") {
		f = "abs" // exp and tanh would amplify a rounding difference
	}
	switch f {
	case "-":
		return oracleNode{text: "(-" + x.text + ")", shape: x.shape, kind: x.kind, inexact: x.inexact}
	case "tanh", "exp":
		return oracleNode{text: f + "(" + x.text + ")", shape: x.shape, kind: 'f', inexact: true}
	case "isnan":
		return oracleNode{text: f + "(" + x.text + ")", shape: x.shape, kind: 'b'}
	default:
		return oracleNode{text: f + "(" + x.text + ")", shape: x.shape, kind: x.kind, inexact: x.inexact}
	}
}

// reduce reduces over one axis or all of them.
func (g *oracleGenerator) reduce(depth int) oracleNode {
	x := g.expr(depth - 1)
	f := []string{"sum", "max", "min", "mean", "any", "all", "argmax"}[g.r.next(7)]
	if x.inexact && (f == "any" || f == "all" || f == "argmax") {
		f = "max"
	}
	kind, inexact := x.kind, x.inexact
	switch f {
	case "sum":
		if kind == 'b' {
			kind = 'i'
		}
		inexact = inexact || kind == 'f'
	case "mean":
		kind, inexact = 'f', true
	case "any", "all":
		kind = 'b'
	case "argmax":
		kind = 'i'
	}
	keep := g.r.next(2) == 1 && f != "argmax"
	axis := -1
	if len(x.shape) > 0 && g.r.next(3) > 0 {
		axis = g.r.next(len(x.shape))
	}
	var shape []int
	args := ""
	switch {
	case axis >= 0:
		args = fmt.Sprintf("axis=%d", axis)
		for k, d := range x.shape {
			if k != axis {
				shape = append(shape, d)
			} else if keep {
				shape = append(shape, 1)
			}
		}
	case keep:
		for range x.shape {
			shape = append(shape, 1)
		}
	}
	if keep {
		args = strings.TrimPrefix(args+", keepdims=True", ", ")
	}
	if shape == nil {
		shape = []int{}
	}
	return oracleNode{text: "(" + x.text + ")." + f + "(" + args + ")", shape: shape, kind: kind, inexact: inexact}
}

// view transposes, flips, slices or adds an axis.
func (g *oracleGenerator) view(depth int) oracleNode {
	x := g.expr(depth - 1)
	s := x.shape
	switch g.r.next(4) {
	case 0:
		t := slices.Clone(s)
		slices.Reverse(t)
		return oracleNode{text: "(" + x.text + ").T", shape: t, kind: x.kind, inexact: x.inexact}
	case 1:
		if len(s) > 0 {
			return oracleNode{text: "(" + x.text + ")[::-1]", shape: s, kind: x.kind, inexact: x.inexact}
		}
	case 2:
		if len(s) > 0 && s[0] > 1 {
			return oracleNode{text: "(" + x.text + ")[1:]", shape: append([]int{s[0] - 1}, s[1:]...), kind: x.kind, inexact: x.inexact}
		}
	}
	return oracleNode{text: "(" + x.text + ")[None]", shape: append([]int{1}, s...), kind: x.kind, inexact: x.inexact}
}

// where selects between two sub-expressions by a comparison.
func (g *oracleGenerator) where(depth int) oracleNode {
	c := g.expr(depth - 1)
	if c.inexact {
		c = g.leaf()
	}
	if c.kind != 'b' {
		c = oracleNode{text: "(" + c.text + " > 0)", shape: c.shape, kind: 'b'}
	}
	x, s := g.operand(depth, c)
	y, s2 := g.operand(depth, oracleNode{shape: s, kind: x.kind, inexact: x.inexact})
	kind := max(x.kind, y.kind)
	if x.kind == 'f' || y.kind == 'f' {
		kind = 'f'
	}
	return oracleNode{text: "where(" + c.text + ", " + x.text + ", " + y.text + ")", shape: s2, kind: kind, inexact: x.inexact || y.inexact}
}

// linalg is a matrix product, a norm, a dot product or a concatenation
// of a sub-expression with itself or with another of its shape.
func (g *oracleGenerator) linalg(depth int) oracleNode {
	x := numeric(g.expr(depth - 1))
	inexact := x.inexact || x.kind == 'f'
	switch g.r.next(4) {
	case 0:
		if n := len(x.shape); n == 1 || n == 2 {
			shape := []int{}
			if n == 2 {
				shape = []int{x.shape[0], x.shape[0]}
			}
			return oracleNode{text: "(" + x.text + " @ (" + x.text + ").T)", shape: shape, kind: x.kind, inexact: inexact}
		}
	case 1:
		// Of a column only: NumPy squares float16 in float16, so that the
		// norm of exp(x) overflows where expr's (in float64) does not.
		if l := g.leaf(); len(l.shape) > 0 {
			k := g.r.next(len(l.shape))
			shape := slices.Delete(slices.Clone(l.shape), k, k+1)
			return oracleNode{text: fmt.Sprintf("norm(%s, axis=%d)", l.text, k), shape: shape, kind: 'f', inexact: true}
		}
	case 2:
		y := g.expr(depth - 1)
		if _, ok := oracleBroadcast(x.shape, y.shape); ok && slices.Equal(x.shape, y.shape) {
			return oracleNode{text: "dot(" + x.text + ", " + numeric(y).text + ")", shape: []int{}, kind: max(x.kind, y.kind), inexact: true}
		}
	}
	if len(x.shape) == 0 {
		return oracleNode{text: "stack((" + x.text + ", " + x.text + " * 2))", shape: []int{2}, kind: x.kind, inexact: x.inexact}
	}
	k := g.r.next(len(x.shape))
	shape := slices.Clone(x.shape)
	shape[k] *= 2
	return oracleNode{text: fmt.Sprintf("concatenate((%s, %s * 2), axis=%d)", x.text, x.text, k), shape: shape, kind: x.kind, inexact: x.inexact}
}
