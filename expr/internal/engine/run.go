package engine

import (
	"sync"

	"github.com/fstensor/fstensor/internal/numeric"
)

// workspace is one worker's buffers, kept in the Program's pool between
// calls.
type workspace struct {
	slots   [][]byte
	cur     []operand // per node, the block's values
	scratch [][]uint64
	w, w2   walker
	dims    []int
	dense   []int
	rs      []int
	stbuf   [][]int
	sts     [][]int
	sts2    [][]int
	inbuf   [][]uint64 // per input: misaligned or Bool values
	nulls   []int
	lo, hi  int  // the rows of the worker's range
	stream  bool // the node writes an output column: stream its stores
	// pf holds the bytes of the next block of the dense inputs, which a
	// streamed root prefetches run by run.
	pf [][]byte
}

func (p *Program) newWorkspace() *workspace {
	return &workspace{cur: make([]operand, len(p.nodes))}
}

// scratchOf returns n elements of scratch buffer i.
func scratchOf[T any](ws *workspace, i, n int) []T {
	for len(ws.scratch) <= i {
		ws.scratch = append(ws.scratch, nil)
	}
	var z T
	var w int
	switch any(z).(type) {
	case uint8, int8:
		w = 1
	case uint16, int16:
		w = 2
	case uint32, int32, float32:
		w = 4
	default:
		w = 8
	}
	words := (n*w + 7) / 8
	if cap(ws.scratch[i]) < words {
		ws.scratch[i] = make([]uint64, words)
	}
	return as[T](bytesOf(ws.scratch[i][:words])[:n*w])
}

func (p *Program) getWorkspace() *workspace {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.pool); n > 0 {
		ws := p.pool[n-1]
		p.pool = p.pool[:n-1]
		return ws
	}
	ws := p.newWorkspace()
	ws.slots = make([][]byte, len(p.slotBytes))
	for i, b := range p.slotBytes {
		ws.slots[i] = newBuf(b * p.blockRows)
	}
	ws.nulls = make([]int, len(p.roots))
	return ws
}

func (p *Program) putWorkspace(ws *workspace) {
	p.mu.Lock()
	p.pool = append(p.pool, ws)
	p.mu.Unlock()
}

// Run evaluates rows [0, rows) of the columns in (one per Input of
// Compile) into out (one per root), and returns each root's null count.
// out[i].Values must hold rows × the root's size elements (Bool: bits
// from BitOffset) and is written whole; out[i].Valid, when not nil, holds
// rows bits from ValidOffset and is written: a row is null when any input
// the root reads is null there, and its values are zeros. A runtime error
// (an integer raised to a negative power at a row that is not null)
// returns an *Error naming the row; out is then partly written. Buffers
// shorter than stated, or not aligned to their element type, return an
// *Error. The outputs must not overlap the inputs or each other (the
// engine streams results past the caches while it reads). Run is safe
// for concurrent use; with Options.Workers > 1 it
// splits the rows into contiguous ranges of blocks, one per goroutine.
// RunCounts is Run without the allocation of the counts.
func (p *Program) Run(in []Column, rows int, out []Column) (nulls []int, err error) {
	nulls = make([]int, len(p.roots))
	if err := p.RunCounts(in, rows, out, nulls); err != nil {
		return nil, err
	}
	return nulls, nil
}

// RunCounts is Run writing each root's null count to nulls (len(nulls)
// roots, or nil for none) instead of a new slice: a caller running many
// short ranges (the rows of one shape in a variable-shape column)
// allocates nothing per call on one worker.
func (p *Program) RunCounts(in []Column, rows int, out []Column, nulls []int) error {
	if err := p.checkColumns(in, rows, out); err != nil {
		return err
	}
	if nulls != nil && len(nulls) != len(p.roots) {
		return errorf("%d null counts for %d roots", len(nulls), len(p.roots))
	}
	clear(nulls)
	step := p.blockRows
	if p.viewsOnly {
		step = max(step, (rows+p.workers-1)/p.workers)
	}
	blocks := (rows + step - 1) / step
	workers := min(p.workers, blocks)
	if workers <= 1 {
		ws := p.getWorkspace()
		defer p.putWorkspace(ws)
		err := p.runRange(ws, in, 0, rows, step, out)
		copy(nulls, ws.nulls)
		return err
	}
	var wg sync.WaitGroup
	errsAt := make([]error, workers)
	counts := make([][]int, workers)
	for k := range workers {
		lo := blocks * k / workers * step
		hi := min(rows, blocks*(k+1)/workers*step)
		step := step // a copy per goroutine: step itself stays on the stack
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws := p.getWorkspace()
			defer p.putWorkspace(ws)
			errsAt[k] = p.runRange(ws, in, lo, hi, step, out)
			counts[k] = append([]int(nil), ws.nulls...)
		}()
	}
	wg.Wait()
	for k := range workers {
		if errsAt[k] != nil {
			return errsAt[k]
		}
		if nulls != nil {
			for i, n := range counts[k] {
				nulls[i] += n
			}
		}
	}
	return nil
}

// runRange evaluates rows [lo, hi) in blocks of step rows, counting
// nulls into ws.nulls.
func (p *Program) runRange(ws *workspace, in []Column, lo, hi, step int, out []Column) error {
	clear(ws.nulls)
	ws.lo, ws.hi = lo, hi
	for i, c := range p.nodes {
		if c.konst != nil {
			ws.cur[i] = operand{b: c.konst}
		}
	}
	for b := lo; b < hi; b += step {
		if err := p.runBlock(ws, in, b, min(hi, b+step), out); err != nil {
			return err
		}
	}
	return nil
}

// runBlock evaluates rows [lo, hi).
func (p *Program) runBlock(ws *workspace, in []Column, lo, hi int, out []Column) error {
	rows := hi - lo
	p.nextBlock(ws, in, hi)
	for _, i := range p.sched {
		c := p.nodes[i]
		n := rows * c.size * c.width()
		if c.Op == OpInput {
			ws.cur[i] = p.readInput(ws, c, in[c.Input], lo, rows)
			continue
		}
		var dst []byte
		ri := p.directRoot(i)
		if ri >= 0 {
			dst = out[ri].Values[lo*c.size*c.width():][:n]
		} else {
			dst = ws.slots[c.slot][:n]
		}
		ws.stream = ri >= 0
		if err := p.eval(ws, c, dst, rows, lo, in); err != nil {
			return err
		}
		ws.cur[i] = operand{b: dst, rs: c.size}
	}
	p.writeRoots(ws, in, lo, rows, out)
	return nil
}

// directRoot returns the root that node i writes straight into, -1 for
// none.
func (p *Program) directRoot(i int) int {
	for ri, r := range p.roots {
		if r == i && p.rootDirect[ri] {
			return ri
		}
	}
	return -1
}

// nextBlock sets ws.pf to the bytes of the dense inputs of the block
// from row lo of the worker's range, none past its end.
func (p *Program) nextBlock(ws *workspace, in []Column, lo int) {
	ws.pf = ws.pf[:0]
	n := min(p.blockRows, ws.hi-lo)
	if n <= 0 {
		return
	}
	for k, c := range in {
		t := p.inputs[k]
		if t.DType == Bool {
			continue
		}
		size, _ := sizeOf(t.Shape)
		w := size * t.DType.Width()
		ws.pf = append(ws.pf, c.Values[lo*w:(lo+n)*w])
	}
}

// prefetchNext prefetches the share of the next block's inputs that
// matches run k of runs of the root being streamed.
func (ws *workspace) prefetchNext(k, runs int) {
	for _, b := range ws.pf {
		from, to := len(b)*k/runs, len(b)*(k+1)/runs
		numeric.Prefetch(b[from:to])
	}
}

// shareNext is prefetchNext for a kernel that prefetches as it stores:
// it returns the first input's share of run k, for the kernel, and
// prefetches the others' shares.
func (ws *workspace) shareNext(k, runs int) []byte {
	var first []byte
	for i, b := range ws.pf {
		from, to := len(b)*k/runs, len(b)*(k+1)/runs
		if i == 0 {
			first = b[from:to]
		} else {
			numeric.Prefetch(b[from:to])
		}
	}
	return first
}
