package bench_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/fstensor/fstensor/bench"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/google/go-cmp/cmp"
)

// numpyResult is one line of `numpy_bench.py CASES check`.
type numpyResult struct {
	Name   string `json:"name"`
	Shape  []int  `json:"shape"`
	SHA256 string `json:"sha256"`
}

// TestNumPy checks that every fstensor contender of BenchmarkMaterialize
// (EvalInto on one and two workers, Eval) computes NumPy's values for
// every case, float32 and float64, at the small size: the tensor shapes
// are those of the large size, only the batch is smaller. The benchmark
// script itself (numpy_bench.py check) computes NumPy's side.
func TestNumPy(t *testing.T) {
	cases := append(bench.Cases(bench.Small), bench.MatrixCases(bench.Small)...)
	js, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("numpy_bench.py")
	if err != nil {
		t.Fatal(err)
	}
	out := pyrun.Run(t, string(script), js, []string{"numpy"}, "-", "check")
	var want []numpyResult
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r numpyResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("numpy_bench.py check: %v in %q", err, sc.Text())
		}
		want = append(want, r)
	}
	if len(want) != len(cases) {
		t.Fatalf("numpy_bench.py check printed %d results for %d cases:\n%s", len(want), len(cases), out)
	}
	for i, c := range cases {
		t.Run(c.Name(), func(t *testing.T) {
			for _, impl := range []string{"expr-1", "expr-2", "eval"} {
				got := fstensorResult(t, c, impl)
				if diff := cmp.Diff(want[i], got); diff != "" {
					t.Errorf("impl=%s differs from NumPy's %s (-numpy +fstensor):\n%s", impl, c.NumPy, diff)
				}
			}
		})
	}
}

// fstensorResult evaluates case c with fstensor's impl (expr-1 and
// expr-2: EvalInto on one and two workers; eval: Eval) and describes the
// result as numpy_bench.py check does.
func fstensorResult(t *testing.T, c bench.Case, impl string) numpyResult {
	t.Helper()
	var arr *fixedshape.Array
	if c.DType == "float64" {
		arr = column[float64](t, c.Batch, c.Shape)
	} else {
		arr = column[float32](t, c.Batch, c.Shape)
	}
	defer arr.Release()
	p, err := expr.CompilePlan(expr.MustParse(c.Expr, expr.Input(arr.TensorType())))
	if err != nil {
		t.Fatal(err)
	}
	var result []byte
	switch impl {
	case "expr-1", "expr-2":
		workers := 1
		if impl == "expr-2" {
			workers = 2
		}
		result = make([]byte, c.Batch*p.Metadata().Size()*c.ElemWidth())
		if err := p.EvalInto(result, arr, expr.WithWorkers(workers)); err != nil {
			t.Fatal(err)
		}
	case "eval":
		out, err := p.Eval(arr)
		if err != nil {
			t.Fatal(err)
		}
		result = bytes.Clone(out.(*fixedshape.Array).ValueBytes())
		out.Release()
	default:
		t.Fatalf("unknown impl %q", impl)
	}
	sum := sha256.Sum256(result)
	return numpyResult{Name: c.Name(), Shape: append([]int{c.Batch}, p.Metadata().Shape()...), SHA256: hex.EncodeToString(sum[:])}
}
