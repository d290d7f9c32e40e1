package engine_test

import (
	"unsafe"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func unsafeBytes(w []uint64) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w))
}

func nullRow(cols []column, inputs []engine.Input, r *engine.Node, row int) bool {
	reads := map[int]bool{}
	var walk func(n *engine.Node)
	walk = func(n *engine.Node) {
		if n.Op == engine.OpInput {
			reads[n.Input] = true
		}
		for _, a := range n.Args {
			walk(a)
		}
	}
	walk(r)
	for k := range reads {
		if v := cols[k].col.Valid; v != nil && v[row/8]>>(row%8)&1 == 0 {
			return true
		}
	}
	return false
}

// runProgram runs p and decodes each root's rows; a null row must be
// all zeros and is returned as zeros.
func runProgram(p *engine.Program, cols []column, roots []*engine.Node, rows int) ([][]rval, []int, error) {
	var in []engine.Column
	for _, c := range cols {
		in = append(in, c.col)
	}
	out := make([]engine.Column, len(roots))
	for i, r := range roots {
		n := numel(r.Shape) * rows
		if r.DType == engine.Bool {
			out[i].Values = make([]byte, (n+7)/8)
		} else {
			out[i].Values = unsafeBytes(make([]uint64, (n*r.DType.Width()+7)/8))[:n*r.DType.Width()]
		}
		out[i].Valid = make([]byte, (rows+7)/8)
	}
	nulls, err := p.Run(in, rows, out)
	if err != nil {
		return nil, nil, err
	}
	got := make([][]rval, len(roots))
	for i, r := range roots {
		size := numel(r.Shape)
		for row := range rows {
			var v rval
			for j := range size {
				k := row*size + j
				if r.DType == engine.Bool {
					v.i = append(v.i, int64(out[i].Values[k/8]>>(k%8)&1))
					continue
				}
				f, x := decode(r.DType, out[i].Values, k)
				if isF(r.DType) {
					v.f = append(v.f, f)
				} else {
					v.i = append(v.i, x)
				}
			}
			got[i] = append(got[i], v)
		}
	}
	return got, nulls, nil
}

// reference evaluates roots row by row; a null row is all zeros.
func reference(inputs []engine.Input, cols []column, roots []*engine.Node, rows int) ([][]rval, error) {
	want := make([][]rval, len(roots))
	for row := range rows {
		var ins []rval
		for _, c := range cols {
			ins = append(ins, c.rows[row])
		}
		memo := map[*engine.Node]rval{}
		for i, r := range roots {
			if nullRow(cols, inputs, r, row) {
				size := numel(r.Shape)
				var v rval
				for range size {
					if isF(r.DType) {
						v.f = append(v.f, 0)
					} else {
						v.i = append(v.i, 0)
					}
				}
				want[i] = append(want[i], v)
				continue
			}
			v, err := refEval(r, ins, memo)
			if err != nil {
				return nil, err
			}
			want[i] = append(want[i], v)
		}
	}
	return want, nil
}
