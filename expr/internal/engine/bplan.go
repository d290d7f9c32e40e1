package engine

// bplan holds the element strides of a Binary or Where node's operands
// over the node's shape: a broadcast axis has stride 0.
type bplan struct {
	st [][]int // per operand, one per axis of the node's Shape
}

func newBplan(n *Node) *bplan {
	pl := &bplan{}
	for _, a := range n.Args {
		dense := denseStrides(a.Shape)
		st := make([]int, len(n.Shape))
		for i := range n.Shape {
			k := len(n.Shape) - 1 - i // axes from the end
			if k < len(a.Shape) {
				j := len(a.Shape) - 1 - k
				if a.Shape[j] != 1 {
					st[i] = dense[j]
				}
			}
		}
		pl.st = append(pl.st, st)
	}
	return pl
}

// setup starts w's walk over rows rows of node c: operand 0 is the
// destination, then c's arguments with their row strides rs.
func (pl *bplan) setup(ws *workspace, c *cnode, rows int, rs []int) {
	nd := len(c.Shape) + 1
	ws.dims = append(ws.dims[:0], rows)
	ws.dims = append(ws.dims, c.Shape...)
	ws.sts = ws.sts[:0]
	for k := range len(rs) + 1 {
		if len(ws.stbuf) <= k {
			ws.stbuf = append(ws.stbuf, nil)
		}
		st := ws.stbuf[k][:0]
		if k == 0 {
			st = append(st, c.size)
			st = append(st, denseStrides2(ws, c.Shape)...)
		} else {
			st = append(st, rs[k-1])
			st = append(st, pl.st[k-1]...)
		}
		ws.stbuf[k] = st[:nd]
		ws.sts = append(ws.sts, ws.stbuf[k])
	}
	ws.w.init(ws.dims, ws.sts)
}

// denseStrides2 is denseStrides into ws's buffer.
func denseStrides2(ws *workspace, shape []int) []int {
	st := ws.dense[:0]
	for range shape {
		st = append(st, 0)
	}
	s := 1
	for i := len(shape) - 1; i >= 0; i-- {
		st[i] = s
		s *= shape[i]
	}
	ws.dense = st
	return st
}
