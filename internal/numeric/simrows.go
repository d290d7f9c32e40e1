package numeric

// DotRows sets out[r] to Dot(x[r*stride : r*stride+len(q)], q) for every
// r < len(out), with the bits Dot gives each row, but float32 rows go
// through one kernel call for all of them, which prefetches the next
// rows as it reads (a scan of one query against many rows; with AVX-512
// where the CPU has it, the same operations on the same 32 partial sums).
// It panics if x is too short.
func DotRows[F Float](out, x []F, stride int, q []F) {
	simRows(out, x, stride, q, false)
}

// SquaredL2Rows is DotRows for SquaredL2.
func SquaredL2Rows[F Float](out, x []F, stride int, q []F) {
	simRows(out, x, stride, q, true)
}

func simRows[F Float](out, x []F, stride int, q []F, l2 bool) {
	rows, n := len(out), len(q)
	if rows == 0 {
		return
	}
	_ = x[:(rows-1)*stride+n]
	m := 0
	if x32, ok := any(x).([]float32); ok && useAVX2 && useFMA && n >= 32 {
		m = n &^ 31
		q32, o32 := any(q).([]float32), any(out).([]float32)
		k := dotRowsF32x32
		switch {
		case useAVX512 && l2:
			k = sqL2RowsF32x32Z
		case useAVX512:
			k = dotRowsF32x32Z
		case l2:
			k = sqL2RowsF32x32
		}
		k(&x32[0], stride*4, &q32[0], m, rows, &o32[0])
		if m == n {
			return
		}
	}
	for r := range out {
		row := x[r*stride : r*stride+n]
		switch {
		case m == 0 && l2:
			out[r] = SquaredL2(row, q)
		case m == 0:
			out[r] = Dot(row, q)
		case m < n && l2:
			out[r] += sqL2Go(row[m:], q[m:])
		case m < n:
			out[r] += dotGo(row[m:], q[m:])
		}
	}
}
