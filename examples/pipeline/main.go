// Command pipeline is an example program: it crops the images of a file,
// puts their channels first and writes them with each image's mean.
//
// It reads uint8 images (H, W, C) from the "image" column of a file of any
// format tensorio reads, crops 4 pixels off each side, puts the channels
// first and writes the result with each image's mean to OUT (.arrow,
// .parquet...):
//
//	go run ./examples/pipeline testdata/images.arrow out.parquet
package main

import (
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: pipeline IN OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "pipeline:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	r, err := tensorio.Open(in, tensorio.WithColumns("image")) // any format, by extension
	if err != nil {
		return err
	}
	defer r.Release()
	typ, ok := fixedshape.TypeOfField(r.Schema().Field(0))
	if !ok || typ.ElemType().ID() != arrow.UINT8 {
		return fmt.Errorf("%s: image is %v, not a column of uint8 tensors", in, r.Schema().Field(0).Type)
	}
	// x[4:-4, 4:-4].transpose(2, 0, 1): crop, then channels first.
	plan, err := expr.CompilePlan(expr.Transpose(expr.Subscript(expr.Input(typ), expr.Range(4, -4), expr.Range(4, -4)), 2, 0, 1))
	if err != nil {
		return err
	}
	chw, err := plan.ResultType() // the result's type, before any data
	if err != nil {
		return err
	}
	// The same crop's mean, one float64 per image, in NumPy's text form.
	meanExpr, err := expr.Parse("x[4:-4, 4:-4].mean()", expr.Input(typ))
	if err != nil {
		return err
	}
	meanPlan, err := expr.CompilePlan(meanExpr)
	if err != nil {
		return err
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "chw", Type: chw, Nullable: true}, {Name: "mean", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	w, err := tensorio.Create(out, schema) // OUT appears only when Close succeeds
	if err != nil {
		return err
	}
	defer w.Abort() // does nothing after a successful Close
	for r.Next() {  // each batch is lent until the next Next
		images := r.RecordBatch().Column(0).(*fixedshape.Array)
		res, err := plan.Eval(images)
		if err != nil {
			return err
		}
		mean, err := meanPlan.Eval(images)
		if err != nil {
			res.Release()
			return err
		}
		rec := array.NewRecordBatch(schema, []arrow.Array{res, mean}, int64(images.Len()))
		res.Release() // rec holds its own references
		mean.Release()
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			return err
		}
	}
	if err := r.Err(); err != nil {
		return err
	}
	return w.Close()
}
