package numeric

// RowOp is a reduction of RowsF32.
type RowOp uint8

// The reductions of RowsF32.
const (
	RowSum   RowOp = iota // SumF32 of each row
	RowSumSq              // SumSqF32 of each row
)

// RowsF32 sets out[r] to the reduction op of row r, the n float32 from
// x[r*stride], for every r < len(out).
// Each result has the bits the one-row function gives, but rows of up to
// 2048 elements go through one kernel call for all of them, which keeps
// the input streaming across row boundaries. It panics if x or c is too
// short.
func RowsF32(op RowOp, out []float64, x []float32, n, stride int) {
	rows := len(out)
	if rows == 0 {
		return
	}
	if n <= 0 {
		clear(out)
		return
	}
	_ = x[(rows-1)*stride+n-1]
	m := 0
	if n <= leafF32 {
		m = rowsF32(op, out, x, n, stride)
	}
	for r := range out {
		row := x[r*stride : r*stride+n]
		switch {
		case m == 0:
			out[r] = rowF32(op, row)
		case m < n:
			// The one-row functions add their Go tail to the kernel's
			// sum the same way.
			out[r] += tailF32(op, row[m:])
		}
	}
}

// rowF32 is the one-row function of op.
func rowF32(op RowOp, x []float32) float64 {
	if op == RowSumSq {
		return SumSqF32(x)
	}
	return SumF32(x)
}

// tailF32 is the Go loop the one-row function of op runs over the
// elements its kernel leaves.
func tailF32(op RowOp, x []float32) float64 {
	if op == RowSumSq {
		return sumSqTail(x)
	}
	return sumF32Go(x)
}
