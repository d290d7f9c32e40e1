package bench

import (
	"fmt"
	"strconv"
	"strings"
)

// Size selects the batch sizes of the benchmark cases.
type Size int

const (
	// Small batches hold about 1 MiB (at least one tensor): the data stays
	// in cache, so per-call overhead shows.
	Small Size = iota + 1
	// Large batches hold about 128 MiB: the data streams from memory.
	Large
)

// String returns "small" or "large".
func (s Size) String() string {
	switch s {
	case Small:
		return "small"
	case Large:
		return "large"
	}
	return "Size(" + strconv.Itoa(int(s)) + ")"
}

// ParseSize reads a -size flag value: "small", "large" or "all" (both, in
// that order). Other text is an error.
func ParseSize(text string) ([]Size, error) {
	switch text {
	case "small":
		return []Size{Small}, nil
	case "large":
		return []Size{Large}, nil
	case "all":
		return []Size{Small, Large}, nil
	}
	return nil, fmt.Errorf("bench: size %q is not small, large or all", text)
}

// Bytes returns the approximate size in bytes of one batch of size s.
func (s Size) Bytes() int {
	if s == Large {
		return 128 << 20
	}
	return 1 << 20
}

// Case is one materialization benchmark: an fstensor expression over the
// tensors of a column and the NumPy expression that computes the same
// values over the whole batch array a of shape (Batch, Shape...).
type Case struct {
	// Op names the operation in benchmark names: "transpose", "slice"...
	Op string `json:"op"`
	// Expr is the fstensor expression text over one tensor x (package expr).
	Expr string `json:"expr"`
	// NumPy is a Python expression over the batch array a (and the module
	// np) whose value is the C-contiguous result, batch axis first.
	NumPy string `json:"numpy"`
	// DType is the element type: "float32" or "float64".
	DType string `json:"dtype"`
	// Batch is the number of tensors.
	Batch int `json:"batch"`
	// Shape is the logical shape of one input tensor.
	Shape []int `json:"shape"`
}

// Name returns the case's benchmark name, without the impl key:
// "op=transpose/dtype=float32/shape=8192x64x64" (batch first).
func (c Case) Name() string {
	return "op=" + c.Op + "/dtype=" + c.DType + "/shape=" + ShapeName(c.Batch, c.Shape)
}

// ElemWidth returns the element width of c.DType in bytes, 0 when unknown.
func (c Case) ElemWidth() int {
	switch c.DType {
	case "float32":
		return 4
	case "float64":
		return 8
	}
	return 0
}

// ShapeName returns "8192x64x64" for batch 8192 of shape (64, 64), the
// shape key of benchmark names.
func ShapeName(batch int, shape []int) string {
	var sb strings.Builder
	sb.WriteString(strconv.Itoa(batch))
	for _, d := range shape {
		sb.WriteByte('x')
		sb.WriteString(strconv.Itoa(d))
	}
	return sb.String()
}

// caseDef is a case without its batch size.
type caseDef struct {
	op, expr, numpy string
	shape           []int
	// twoD reports whether the operation is, per tensor, a 2-D matrix
	// operation that a matrix library (gonum) can run as well.
	twoD bool
}

var caseDefs = []caseDef{
	{"transpose", "x.T", "np.ascontiguousarray(a.transpose(0, 2, 1))", []int{64, 64}, true},
	{"transpose", "x.T", "np.ascontiguousarray(a.transpose(0, 2, 1))", []int{1024, 1024}, true},
	{"nchw-nhwc", "x.transpose(1, 2, 0)", "np.ascontiguousarray(a.transpose(0, 2, 3, 1))", []int{3, 224, 224}, true},
	{"nhwc-nchw", "x.transpose(2, 0, 1)", "np.ascontiguousarray(a.transpose(0, 3, 1, 2))", []int{224, 224, 3}, true},
	{"slice-rows", "x[16:48, :]", "a[:, 16:48, :].copy()", []int{64, 64}, true},
	{"slice-cols", "x[:, 16:48]", "a[:, :, 16:48].copy()", []int{64, 64}, true},
	{"index", "x[5, :]", "a[:, 5, :].copy()", []int{64, 64}, true},
	{"reshape", "x.reshape(-1)", "a.reshape(a.shape[0], -1).copy()", []int{64, 64}, false},
	{"fused", "x[16:48].T.reshape(-1)", "np.ascontiguousarray(a[:, 16:48].transpose(0, 2, 1)).reshape(a.shape[0], -1)", []int{64, 64}, true},
}

// Cases returns the materialization cases of size s with float32
// elements: transposes of small and large matrices, NCHW<->NHWC image
// layouts, row and column slices, an index, a reshape and a fused chain.
// Every size uses the same tensor shapes; only the batch differs.
func Cases(s Size) []Case {
	return cases(s, "float32", false)
}

// MatrixCases returns the cases whose per-tensor operation is a 2-D
// matrix operation (a transpose, a slice or row of a matrix; NCHW<->NHWC is
// the transpose of a C x HW matrix), with float64 elements, the only type
// of gonum's mat package.
func MatrixCases(s Size) []Case {
	return cases(s, "float64", true)
}

func cases(s Size, dtype string, twoD bool) []Case {
	width := 4
	if dtype == "float64" {
		width = 8
	}
	var out []Case
	for _, d := range caseDefs {
		if twoD && !d.twoD {
			continue
		}
		tensor := width
		for _, n := range d.shape {
			tensor *= n
		}
		batch := max(1, s.Bytes()/tensor)
		out = append(out, Case{Op: d.op, Expr: d.expr, NumPy: d.numpy, DType: dtype, Batch: batch, Shape: d.shape})
	}
	return out
}

// Pattern returns the value of element i of every benchmark input, in the
// physical (row-major) order of the batch: i mod 65521 (a prime, so rows
// and columns of power-of-two shapes differ). NumPy computes the same
// values as (np.arange(n) % 65521).astype(dtype), exactly.
func Pattern(i int) float64 {
	return float64(i % 65521)
}
