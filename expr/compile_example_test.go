package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// A Program is compiled for a schema: it knows its result type before
// any data, and evaluates record batches.
func ExampleCompile() {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2}, nil, nil))
	schema := arrow.NewSchema([]arrow.Field{{Name: "emb", Type: typ}, {Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)
	p, err := expr.Compile("norm(emb, axis=-1)", schema, expr.WithName("norms"))
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Schema())

	emb, _ := fixedshape.FromSlice(typ, []float32{3, 4, 1, 0, 0, 0, 6, 8}, nil)
	defer emb.Release()
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	b.AppendValues([]int64{7, 9}, nil)
	id := b.NewArray()
	defer id.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{emb, id}, 2)
	defer rec.Release()
	out, err := p.Eval(rec)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(out.Column(0))
	// Output:
	// schema:
	//   fields: 1
	//     - norms: type=extension<arrow.fixed_shape_tensor[value_type=float, shape=[2]]>, nullable
	// [[5,1] [0,10]]
}
