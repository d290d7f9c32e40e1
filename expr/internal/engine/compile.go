package engine

import (
	"encoding/binary"
	"slices"
	"sync"

	"github.com/fstensor/fstensor/internal/layout"
)

// Options tunes a Program's evaluation.
type Options struct {
	// Workers is the number of goroutines that split a Run's blocks, at
	// least 1 (0 is read as 1).
	Workers int
	// BlockBytes is the target size in bytes of one block's live buffers
	// (the inputs it reads, the outputs it writes and the intermediates
	// alive at once); 0 selects DefaultBlockBytes, or 4 MiB for a program
	// with no intermediate buffer.
	BlockBytes int
}

// DefaultBlockBytes is the block size of Options.BlockBytes 0: an eighth
// of a 2 MiB L2 cache, so that a block stays in it between the passes
// over it while other threads share the core (larger blocks measured
// slower on a loaded machine, smaller ones pay more per block).
const DefaultBlockBytes = 256 << 10

// Program is a compiled graph. It is immutable and safe for concurrent
// use; Run takes its buffers from a pool the Program keeps.
type Program struct {
	inputs []Input
	nodes  []*cnode // topological order, common sub-expressions merged
	sched  []int    // the nodes Run evaluates, in order
	roots  []int
	// rootDirect[i] tells that root i's node writes straight into
	// out[i] (its first root, not Bool, computed per row).
	rootDirect []bool
	slotBytes  []int // bytes per row of each pooled buffer
	blockRows  int
	// viewsOnly tells that every root is a view of a dense input written
	// straight into its output and nothing else runs: Run then hands each
	// worker its whole range as one block, as a Plan does, so that layout
	// tiles, prefetches and streams over the whole of it (blocks of 4 MiB
	// had made an index of 64x64 float32 rows 0.75-0.85x a Plan).
	viewsOnly bool
	workers   int

	mu    sync.Mutex
	pool  []*workspace
	bitMu sync.Mutex // bytes of bitmaps two workers share
}

// cnode is a node of a compiled program.
type cnode struct {
	*Node
	args  []int
	size  int    // elements per row
	konst []byte // the folded value (one row) of a node that reads no input
	slot  int    // pooled buffer, -1 for none
	into  int    // the consumer whose buffer the node writes, -1 for none
	final int    // the node whose buffer the node writes (itself if none)
	reads []int  // the inputs the node reads, sorted
	ewise *bplan // Binary, Where: broadcast strides of the operands
	rplan *rplan // Reduce: its iteration
	fused *fused // a root computed in one pass: its steps
	// packed is a MatMul's constant right operand packed for linalg
	// (*linalg.PackedF32 or *PackedF64), nil for none.
	packed any
	view   *layout.Plan // View: the copy of one row's view
}

func (c *cnode) width() int { return c.DType.Width() }

// Compile checks the graph of roots, which reads inputs, merges its
// structurally equal nodes, evaluates the nodes that read no input, and
// plans the evaluation of blocks of rows. A malformed graph (a shape or
// type that does not agree with its operands, an axis or a view out of
// range, a size that overflows, a cycle) fails with an *Error.
func Compile(inputs []Input, roots []*Node, o Options) (*Program, error) {
	if o.Workers < 0 || o.BlockBytes < 0 {
		return nil, errorf("options workers %d, block bytes %d", o.Workers, o.BlockBytes)
	}
	for i, in := range inputs {
		if !in.DType.valid() {
			return nil, errorf("input %d has invalid dtype %v", i, in.DType)
		}
		if _, err := sizeOf(in.Shape); err != nil {
			return nil, err
		}
	}
	p := &Program{inputs: inputs, workers: max(o.Workers, 1)}
	b := builder{p: p, ids: map[*Node]int{}, keys: map[string]int{}, state: map[*Node]uint8{}}
	for _, r := range roots {
		if r == nil {
			return nil, errorf("nil root")
		}
		id, err := b.add(r)
		if err != nil {
			return nil, err
		}
		p.roots = append(p.roots, id)
	}
	if err := p.fold(); err != nil {
		return nil, err
	}
	p.plan(o.BlockBytes)
	return p, nil
}

type builder struct {
	p     *Program
	ids   map[*Node]int
	keys  map[string]int
	state map[*Node]uint8 // 1 visiting
	key   []byte
}

// add adds n and its arguments, returning n's node index.
func (b *builder) add(n *Node) (int, error) {
	if id, ok := b.ids[n]; ok {
		return id, nil
	}
	if b.state[n] == 1 {
		return 0, errorf("the graph has a cycle")
	}
	b.state[n] = 1
	args := make([]int, len(n.Args))
	for i, a := range n.Args {
		if a == nil {
			return 0, errorf("op %v has a nil argument", n.Op)
		}
		id, err := b.add(a)
		if err != nil {
			return 0, err
		}
		args[i] = id
	}
	if err := checkNode(n, b.p.inputs); err != nil {
		return 0, err
	}
	orig := n
	if n.Op == OpReduce && exactCast(n.Args[0]) {
		// The integers the cast reads reduce to the same values (every
		// reduction computes in float64 or exactly): the cast is not
		// materialized for it.
		m := *n
		m.Args = []*Node{n.Args[0].Args[0]}
		n, args = &m, []int{b.p.nodes[args[0]].args[0]}
	}
	key := string(b.nodeKey(n, args))
	if id, ok := b.keys[key]; ok {
		b.ids[orig] = id
		return id, nil
	}
	size, _ := sizeOf(n.Shape)
	c := &cnode{Node: n, args: args, size: size, slot: -1, into: -1}
	var reads []int
	if n.Op == OpInput {
		reads = []int{n.Input}
	}
	for _, a := range args {
		reads = append(reads, b.p.nodes[a].reads...)
	}
	slices.Sort(reads)
	c.reads = slices.Compact(reads)
	if n.Op == OpBinary || n.Op == OpWhere {
		c.ewise = newBplan(n)
	}
	if n.Op == OpReduce {
		c.rplan = newRplan(n)
	}
	id := len(b.p.nodes)
	b.p.nodes = append(b.p.nodes, c)
	b.ids[orig], b.keys[key] = id, id
	return id, nil
}

// exactCast reports whether n casts integers to a float type that holds
// each of their values exactly (8- and 16-bit integers to float32, and
// 32-bit ones too to float64).
func exactCast(n *Node) bool {
	if n.Op != OpCast {
		return false
	}
	switch n.Args[0].DType {
	case Int8, Uint8, Int16, Uint16:
		return n.DType == Float32 || n.DType == Float64
	case Int32, Uint32:
		return n.DType == Float64
	}
	return false
}

// nodeKey encodes everything that defines n's value: equal keys, equal
// values.
func (b *builder) nodeKey(n *Node, args []int) []byte {
	k := b.key[:0]
	put := func(v int) { k = binary.AppendVarint(k, int64(v)) }
	put(int(n.Op))
	put(int(n.Fn))
	put(int(n.DType))
	put(len(n.Shape))
	for _, d := range n.Shape {
		put(d)
	}
	put(len(args))
	for _, a := range args {
		put(a)
	}
	switch n.Op {
	case OpInput:
		put(n.Input)
	case OpConst:
		put(len(n.Data))
		k = append(k, n.Data...)
	case OpView:
		put(n.Offset)
		for _, s := range n.Strides {
			put(s)
		}
	case OpReduce:
		for _, a := range n.Axes {
			put(a)
		}
		put(len(n.Axes))
		if n.Keep {
			put(1)
		}
		put(n.Ddof)
	case OpSimilarity:
		put(int(n.Metric))
	case OpConcat:
		put(n.Axis)
	}
	b.key = k
	return k
}

// fold evaluates the nodes that read no input, once, and lists the
// others in p.sched.
func (p *Program) fold() error {
	ws := p.newWorkspace()
	live := p.live()
	for i, c := range p.nodes {
		if !live[i] {
			continue // (a cast a reduction reads through)
		}
		if c.Op == OpView {
			lp, err := layout.NewPlan(c.width(), c.Shape, c.Strides, c.Offset)
			if err != nil {
				return errorf("view: %v", err)
			}
			c.view = &lp
		}
		if len(c.reads) > 0 {
			p.sched = append(p.sched, i)
			if c.Op == OpMatMul {
				p.pack(c)
			}
			continue
		}
		if c.Op == OpConst {
			c.konst = alignedCopy(c.Data)
			continue
		}
		c.konst = newBuf(c.size * c.width())
		for _, a := range c.args {
			ws.cur[a] = operand{b: p.nodes[a].konst}
		}
		if err := p.eval(ws, c, c.konst, 1, 0, nil); err != nil {
			return err
		}
	}
	return nil
}

// live returns which nodes the roots need.
func (p *Program) live() []bool {
	live := make([]bool, len(p.nodes))
	var mark func(i int)
	mark = func(i int) {
		if live[i] {
			return
		}
		live[i] = true
		for _, a := range p.nodes[i].args {
			mark(a)
		}
	}
	for _, r := range p.roots {
		mark(r)
	}
	return live
}

// newBuf returns n zero bytes aligned to 8.
func newBuf(n int) []byte {
	return bytesOf(make([]uint64, (n+7)/8))[:n]
}

func alignedCopy(b []byte) []byte {
	c := newBuf(len(b))
	copy(c, b)
	return c
}
