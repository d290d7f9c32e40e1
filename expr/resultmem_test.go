package expr_test

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
)

// recycledBatch returns a batch of rows 256-float32 rows (x) with every
// seventh row null, and a plain float64 column s, all on Go's heap.
func recycledBatch(t *testing.T, rows int) arrow.RecordBatch {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{256}, nil, nil))
	vals := make([]float32, rows*256)
	for i := range vals {
		vals[i] = float32(i%1013)/64 - 7
	}
	valid := make([]bool, rows)
	for i := range valid {
		valid[i] = i%7 != 3
	}
	x, err := fixedshape.FromSlice(typ, vals, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Release()
	sb := array.NewFloat64Builder(memory.DefaultAllocator)
	defer sb.Release()
	for i := range rows {
		sb.Append(float64(i%5) + 0.5)
	}
	s := sb.NewArray()
	defer s.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}, {Name: "s", Type: arrow.PrimitiveTypes.Float64}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{x, s}, int64(rows))
}

// TestRecycledResults checks that results whose values reuse released
// results' memory (no WithAllocator) equal those on zeroed memory, null
// rows (zero-filled) included, whatever the recycled bytes held: a
// program that left any byte unwritten would show the poison.
func TestRecycledResults(t *testing.T) {
	const rows = 8192 // 8 MiB of float32 rows: above reuse.MinSize
	rec := recycledBatch(t, rows)
	defer rec.Release()
	for _, tc := range []struct{ name, text string }{
		{"copy", "x[::-1]"},
		{"chain-compute", "x * 2 + 1"},
		{"chain-reduce", "x.astype(float64).sum(axis=-1, keepdims=True) + x"},
		{"graph-normalize", "x / norm(x, axis=-1, keepdims=True)"},
		{"graph-plain", "x * s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fresh, err := expr.Compile(tc.text, rec.Schema(), expr.WithInput("x"), expr.WithAllocator(memory.NewGoAllocator()))
			if err != nil {
				t.Fatal(err)
			}
			want, err := fresh.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			p, err := expr.Compile(tc.text, rec.Schema(), expr.WithInput("x"))
			if err != nil {
				t.Fatal(err)
			}
			for _, poison := range []byte{0xff, 0x7f, 0xa5} {
				expr.PoisonRecycled(valuesLen(want.Column(0)), poison)
				got, err := p.Eval(rec)
				if err != nil {
					t.Fatal(err)
				}
				if !array.Equal(got.Column(0), want.Column(0)) {
					t.Errorf("poison %#x: result differs from the one on zeroed memory", poison)
				}
				got.Release()
			}
		})
	}
}

// TestRecycledReuse checks that evaluating in a loop, releasing each
// result, allocates the result's values once, not once per call. The
// buffers wait in a sync.Pool, which a garbage collection empties and
// whose items are per P: the test runs on one P with the collector off.
func TestRecycledReuse(t *testing.T) {
	if race.Enabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	const rows = 8192
	rec := recycledBatch(t, rows)
	defer rec.Release()
	p, err := expr.Compile("x / norm(x, axis=-1, keepdims=True)", rec.Schema())
	if err != nil {
		t.Fatal(err)
	}
	eval := func() {
		out, err := p.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		out.Release()
	}
	eval()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 4 {
		eval()
	}
	runtime.ReadMemStats(&after)
	result := uint64(rows * 256 * 4)
	if got := after.TotalAlloc - before.TotalAlloc; got >= result {
		t.Errorf("4 evaluations allocated %d bytes, want less than one result's %d", got, result)
	}
}

// valuesLen returns the length in bytes of a fixed-shape array's values
// buffer.
func valuesLen(a arrow.Array) int {
	return a.Data().Children()[0].Buffers()[1].Len()
}

// TestRecycledResultsAllocator checks that with WithAllocator of an
// allocator that offers a recycled variant (hugepage.Allocator), the
// values of results of reuse.MinSize or more come from that variant, here
// poisoned, and equal those computed into fresh memory.
func TestRecycledResultsAllocator(t *testing.T) {
	const rows = 8192
	rec := recycledBatch(t, rows)
	defer rec.Release()
	text := "x / norm(x, axis=-1, keepdims=True)"
	fresh, err := expr.Compile(text, rec.Schema(), expr.WithInput("x"), expr.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatal(err)
	}
	want, err := fresh.Eval(rec)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Release()
	for _, poison := range []byte{0xff, 0x7f} {
		rc := &testvec.Poisoned{Allocator: memory.NewGoAllocator(), Poison: poison}
		p, err := expr.Compile(text, rec.Schema(), expr.WithInput("x"), expr.WithAllocator(testvec.Recycler{Allocator: memory.NewGoAllocator(), Rc: rc}))
		if err != nil {
			t.Fatal(err)
		}
		got, err := p.Eval(rec)
		if err != nil {
			t.Fatal(err)
		}
		if rc.Allocations() == 0 {
			t.Errorf("poison %#x: the result values did not come from the recycled variant", poison)
		}
		if !array.Equal(got.Column(0), want.Column(0)) {
			t.Errorf("poison %#x: result differs from the one on zeroed memory", poison)
		}
		got.Release()
	}
}
