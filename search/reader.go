package search

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/fixedshape"
)

// WithColumn names the column [Search] searches (default: the only tensor
// column of the schema).
func WithColumn(name string) Option {
	return func(c *config) { c.column, c.colIndex, c.indexSet = name, -1, false }
}

// WithColumnIndex gives the index in the schema of the column [Search]
// searches. A negative i is an invalid option; one past the schema's
// columns fails the search.
func WithColumnIndex(i int) Option {
	return func(c *config) {
		if i < 0 {
			c.invalid("WithColumnIndex", i, "want 0 or more")
			return
		}
		c.column, c.colIndex, c.indexSet = "", i, true
	}
}

// Search returns the k rows nearest to each query of queries under metric
// m among the rows of one tensor column of r's record batches, read batch
// by batch until r is exhausted, so the column need not fit in memory.
// Rows are numbered over all batches from 0; null tensors are skipped.
// The result has one slice of hits per query, nearest first (see
// [TopK.Results]). The column is chosen by [WithColumn] or
// [WithColumnIndex], or else is the schema's only tensor column. Search
// reads r but does not release it. Errors wrap arrow.ErrInvalid (a column
// that is missing, not a numeric tensor column or of another shape than
// the queries; see [NewTopK]); errors of the reader are returned as they
// are.
func Search(r array.RecordReader, queries *fixedshape.Array, k int, m Metric, opts ...Option) ([][]Hit, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	idx, typ, err := findColumn(r.Schema(), c)
	if err != nil {
		return nil, err
	}
	t, err := NewTopK(typ, queries, k, m)
	if err != nil {
		return nil, err
	}
	for r.Next() {
		col, ok := r.RecordBatch().Column(idx).(*fixedshape.Array)
		if !ok {
			return nil, fmt.Errorf("search: column %d is %v, not a tensor column: %w", idx, r.RecordBatch().Column(idx).DataType(), arrow.ErrInvalid)
		}
		if err := t.Add(col); err != nil {
			return nil, err
		}
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	return t.Results(), nil
}

// findColumn returns the index and tensor type of the searched column.
func findColumn(s *arrow.Schema, c config) (int, *fixedshape.Type, error) {
	idx := c.colIndex
	switch {
	case c.column != "":
		ids := s.FieldIndices(c.column)
		if len(ids) == 0 {
			return 0, nil, fmt.Errorf("search: no column %q: %w", c.column, arrow.ErrInvalid)
		}
		idx = ids[0]
	case c.indexSet:
		if idx < 0 || idx >= s.NumFields() {
			return 0, nil, fmt.Errorf("search: column index %d out of range [0, %d): %w", idx, s.NumFields(), arrow.ErrInvalid)
		}
	default:
		idx = -1
		for i, f := range s.Fields() {
			if _, ok := fixedshape.TypeOfField(f); ok {
				if idx >= 0 {
					return 0, nil, fmt.Errorf("search: columns %q and %q are tensor columns; name one: %w", s.Field(idx).Name, f.Name, arrow.ErrInvalid)
				}
				idx = i
			}
		}
		if idx < 0 {
			return 0, nil, fmt.Errorf("search: no tensor column: %w", arrow.ErrInvalid)
		}
	}
	typ, ok := fixedshape.TypeOfField(s.Field(idx))
	if !ok {
		return 0, nil, fmt.Errorf("search: column %q is %v, not a tensor column: %w", s.Field(idx).Name, s.Field(idx).Type, arrow.ErrInvalid)
	}
	return idx, typ, nil
}
