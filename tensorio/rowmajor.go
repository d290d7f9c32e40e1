package tensorio

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
)

// WithRowMajor makes writers write every tensor column whose type has a
// permutation materialized in logical row-major order: the column's
// type loses its permutation and keeps its logical shape and dimension
// names, and each tensor's elements are copied into that order (package
// expr's dense evaluation of the column itself), so that readers that
// mishandle the permutation read the right elements. pyarrow's
// FixedShapeTensorArray.to_numpy_ndarray (pyarrow 26) and Ray Data,
// which goes through it, are such readers: they read transpositions
// right but not 3-cycles (under [2 0 1] they return other elements,
// under [1 2 0] they fail). fstensor reads permuted columns right
// without it. Columns without a permutation are written as they are. The file's schema is
// the schema given to Create or NewWriter with those types replaced;
// Write takes batches of the schema given. It costs one copy of the
// permuted columns' elements per batch, in WithWorkers goroutines.
func WithRowMajor() Option { return func(c *config) { c.rowMajor = true } }

// rowMajor is the conversion of WithRowMajor: the plan of each permuted
// column (nil for the others) and the schema written.
type rowMajor struct {
	plans  []*expr.Plan
	in     *arrow.Schema // the schema given
	schema *arrow.Schema // the schema written
}

// newRowMajor returns the conversion of schema's permuted tensor
// columns, or nil when it has none.
func newRowMajor(schema *arrow.Schema) (*rowMajor, error) {
	fields := schema.Fields()
	rm := &rowMajor{plans: make([]*expr.Plan, len(fields)), in: schema}
	found := false
	for i, f := range fields {
		t, ok := f.Type.(*fixedshape.Type)
		if !ok || isIdentity(t.Permutation()) {
			continue
		}
		p, err := expr.CompilePlan(expr.Input(t))
		if err != nil {
			return nil, err
		}
		if fields[i].Type, err = p.ResultType(); err != nil {
			return nil, err
		}
		rm.plans[i], found = p, true
	}
	if !found {
		return nil, nil
	}
	md := schema.Metadata()
	rm.schema = arrow.NewSchema(fields, &md)
	return rm, nil
}

// isIdentity reports whether perm is empty or 0, 1, 2, ...
func isIdentity(perm []int) bool {
	for i, p := range perm {
		if p != i {
			return false
		}
	}
	return true
}

// apply returns rec with its permuted columns materialized in row-major
// order, under rm.schema; the caller releases it.
func (rm *rowMajor) apply(rec arrow.RecordBatch, c *config) (arrow.RecordBatch, error) {
	cols := slices.Clone(rec.Columns())
	var made []arrow.Array
	defer func() {
		for _, a := range made {
			a.Release()
		}
	}()
	for i, p := range rm.plans {
		if p == nil {
			continue
		}
		in, ok := cols[i].(*fixedshape.Array)
		if !ok {
			return nil, mismatch("column %q is %v, not a tensor column", rec.Schema().Field(i).Name, cols[i].DataType())
		}
		out, err := p.Eval(in, expr.WithAllocator(c.mem), expr.WithWorkers(c.workers))
		if err != nil {
			return nil, err
		}
		made = append(made, out)
		cols[i] = out
	}
	return array.NewRecordBatch(rm.schema, cols, rec.NumRows()), nil
}
