package search_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

func ExampleRowwise() {
	// Four 2x2 float32 tensors (the third null) and one query.
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	col, _ := fixedshape.FromSlice(typ, []float32{
		1, 0, 0, 0,
		1, 1, 1, 1,
		9, 9, 9, 9,
		0, 2, 0, 0,
	}, []bool{true, true, false, true})
	query, _ := fixedshape.FromSlice(typ, []float32{1, 1, 0, 0}, nil)

	for _, m := range []search.Metric{search.MetricDot, search.MetricCosine, search.MetricL2} {
		res, err := search.Rowwise(m, col, query, search.WithAllocator(memory.DefaultAllocator))
		if err != nil {
			panic(err)
		}
		fmt.Printf("%-6v %v %v\n", m, res.DataType(), res.(*array.Float32))
		res.Release()
	}
	// Output:
	// dot    float32 [1 2 (null) 2]
	// cosine float32 [0.70710677 0.70710677 (null) 0.70710677]
	// l2     float32 [1 1.4142135 (null) 1.4142135]
}

func ExampleSearch() {
	// Six embeddings of 3 elements in two record batches, two queries.
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3}, nil, nil))
	schema := arrow.NewSchema([]arrow.Field{{Name: "emb", Type: typ, Nullable: true}}, nil)
	batch := func(data ...float32) arrow.RecordBatch {
		col, _ := fixedshape.FromSlice(typ, data, nil)
		return array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	}
	r, _ := array.NewRecordReader(schema, []arrow.RecordBatch{
		batch(1, 0, 0, 0, 1, 0, 0, 0, 1),
		batch(1, 1, 0, 0, 1, 1, 2, 0, 0),
	})
	defer r.Release()
	queries, _ := fixedshape.FromSlice(typ, []float32{1, 0, 0, 0, 1, 1}, nil)

	hits, err := search.Search(r, queries, 3, search.MetricDot, search.WithColumn("emb"))
	if err != nil {
		panic(err)
	}
	for j, hs := range hits {
		fmt.Println("query", j, hs)
	}
	// Output:
	// query 0 [{5 2} {0 1} {3 1}]
	// query 1 [{4 2} {1 1} {2 1}]
}
