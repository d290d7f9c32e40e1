package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

func newEval(stdout, stderr io.Writer) *cobra.Command {
	var inf inputFlags
	var outf outputFlags
	var columns, outputs []string
	var as string
	var relabel, fixed bool
	cmd := &cobra.Command{
		Use:   "eval EXPR FILE -o OUT | eval FILE -o OUT -e NAME=EXPR...",
		Short: "Apply an expression to every tensor of tensor columns",
		Long: `Eval applies EXPR to every tensor of the tensor columns of FILE (or those named by --column)
and writes the result to OUT; the other columns are kept as they are (formats that hold tensor
columns only, .npy .npz .pb .zio .dt, keep the transformed ones). It streams batch by batch.

In EXPR, x is one tensor of the column: x[:, ::2, ::2], x[..., 0], x[None], x.T,
x.transpose(2, 0, 1), x.reshape(-1), and chains of these; axes are logical. After the
views it may compute, as NumPy: x.astype(float32), + - * / with numbers or constant lists
([0.5, 0.25, 0.1], float32([...])), x.clip(0, 1), abs(x), sqrt(x), one reduction (sum,
mean, min, max, argmax, argmin, var and std (with ddof=) with axis= and keepdims=,
norm(x, axis=...)) and dot/cosine/l2/l2sq(x, CONSTANT). A result with no axes left (x.mean()) is a plain column,
one value per row (a 0-D tensor column in .npy .npz .pb .zio .dt).

Beyond one chain, EXPR is any NumPy-style expression of tensor and plain columns:
x / norm(x, axis=-1, keepdims=True), x - x.mean(), a - b, dot(a, b), norm(a - b, axis=-1),
x * scale (a plain column, one number per row), comparisons (x > 100, bool tensors), & | ^ ~,
// % **, where, minimum, maximum, exp, log, log1p, expm1, tanh, floor, ceil, round, sign,
square, isnan, isfinite, any, all, reductions anywhere and nested (x.sum(axis=0).max()), views
after computing ((x * 2).T[0]), x @ W and matmul, einsum of two operands, concatenate and
stack, with NumPy's broadcasting and type promotion. load("W.npy") reads a constant from a
.npy file relative to the working directory (at most 256 MiB): x @ load("W.npy"). A row
is null in the result when a column the expression reads is null there.

With --relabel, a result that only relabels the input's elements (a transpose, a reshape
of a dense layout) shares the input's buffers under a type whose permutation describes
the layout, instead of being copied to row-major order; other results are copied.

A variable-shape tensor column (arrow.variable_shape_tensor: one shape per row) is
evaluated by runs of rows, one plan per distinct combination of row shapes. The
output type is decided before the first batch is written, from the expression and the
column type alone: a plain column when no axis is left (x.mean(), dot(x, CONSTANT)), a
fixed-shape column when no result axis depends on a size that varies between rows (x[0, 0],
x[..., 0] of a column whose other sizes are fixed, x.reshape(224, 224, 3), per-image channel
means x.astype(float32).mean(axis=(0, 1))), a variable-shape column otherwise, even when
the rows happen to agree (x[:224, :224] is smaller for a smaller image; x.astype(float32)
keeps each row's shape). With --fixed, a variable-shape result is written as a
fixed-shape column of the shape of the first valid row's result in the first batch; a
later row whose result has another shape stops eval with an error naming its column, batch
and row. So does a row the expression fails on (x.max() of an empty row, a constant that
does not broadcast against it), with that row's shape.

An expression that names columns instead of x (emb.sum(axis=0), norm(emb), price * 2,
col("a name").max() for a name that is not an identifier) adds its result as a new column,
named by --as (default result), and keeps the input columns, as with_columns does in pandas
and polars; a column of that name is replaced. Such a column may be a tensor column or a plain
numeric one (one number per row). -e NAME=EXPR, repeated, adds several such columns in one
pass over FILE (each batch is read once); in it x is the column of --column (when one is
given) or the only tensor column. Several -e expressions beyond one chain are evaluated
together, each column read once per batch and what they share computed once.

OUT is written to a temporary file and renamed over OUT only when everything was written:
on an error, Ctrl-C or SIGTERM an existing OUT is left as it was. OUT may not be FILE.`,
		Example: `  fstensor eval 'x[::2, ::2].transpose(2, 0, 1)' testdata/images.arrow -o small_chw.arrow
  fstensor eval '(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])' testdata/images.arrow -o normalized.arrow
  fstensor eval 'x.astype(float32).mean(axis=(0, 1))' testdata/images.arrow -o channel_means.arrow
  fstensor eval 'x.max()' testdata/images.arrow -o brightest.npy
  fstensor eval 'x.transpose(2, 0, 1)' testdata/images.arrow -o chw.arrow --relabel
  fstensor eval 'x[..., 0]' testdata/images.arrow --column image -o red.npy
  fstensor eval 'x.reshape(24, 32)' vectors.parquet --shape 768 -o grids.arrow
  fstensor eval 'x[:224, :224]' photos.arrow -o crops.parquet --fixed   # variable-size images
  fstensor eval 'x.astype(float32).mean(axis=(0, 1))' photos.arrow -o channel_means.parquet
  fstensor eval 'image.max()' testdata/images.arrow --as brightest -o with_max.arrow
  fstensor eval testdata/images.arrow -o stats.arrow -e 'lo=image.min()' -e 'hi=image.max()'
  fstensor eval 'x / norm(x, axis=-1, keepdims=True)' emb.arrow -o normalized.arrow
  fstensor eval 'norm(a - b, axis=-1)' pairs.arrow --as dist -o dist.arrow
  fstensor eval 'x @ load("W.npy")' emb.arrow -o projected.arrow`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(outputs) > 0 && len(args) == 1 {
				return nil
			}
			return exactArgs(2, "EXPR and FILE (or FILE and -e NAME=EXPR)")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			outs, err := parseOutputs(outputs)
			if err != nil {
				return err
			}
			text, file := "", args[0]
			if len(args) == 2 {
				text, file = args[0], args[1]
			}
			return runEval(text, file, as, outs, inf, outf, columns, relabel, fixed, stdout, stderr)
		},
	}
	inf.register(cmd)
	outf.register(cmd)
	fs := cmd.Flags()
	fs.StringArrayVar(&columns, "column", nil, "a tensor column to transform (repeatable; default every tensor column); the others are kept")
	fs.StringVar(&as, "as", "result", "the name of the column an expression naming columns (not x) adds")
	fs.StringArrayVarP(&outputs, "expr", "e", nil, "NAME=EXPR: add the column NAME computed by EXPR (repeatable; one pass over FILE)")
	fs.BoolVar(&relabel, "relabel", false, "write a result that only relabels the input (a transpose, a reshape) with the input's buffers and a permutation instead of copying")
	fs.BoolVar(&fixed, "fixed", false, "write the results of variable-shape columns as fixed-shape columns of the first valid row's result shape; a row whose result differs is an error")
	return cmd
}

// runEval applies an expression to tensor columns and writes the result;
// other columns pass through unchanged.
func runEval(text, inPath, as string, outputs []evalOutput, inf inputFlags, outf outputFlags, columns []string, relabel, fixed bool, stdout, stderr io.Writer) error {
	if outf.out == "" {
		return fmt.Errorf("%w: eval needs -o OUT", errUsage)
	}
	pin, err := inf.parse(inPath)
	if err != nil {
		return err
	}
	outFormat, wopts, err := outf.parse(outf.out, stdout, inPath)
	if err != nil {
		return err
	}
	in, err := pin.open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	// Results of 1 MiB or more reuse the mappings of the results released
	// before (mem.Recycled, through expr: written whole, not cleared)
	// instead of a new mapping per batch, whose clearing by the kernel
	// cost more than the evaluation.
	opts := []expr.Option{expr.WithAllocator(mem), expr.WithLoad(loadNPY)}
	if relabel {
		opts = append(opts, expr.WithRelabel())
	}
	ep, err := newEvalPlan(text, as, outputs, in.Schema(), columns, outFormat.TensorsOnly(), fixed, opts, stderr)
	if err != nil {
		return err
	}
	if !ep.any() {
		return fmt.Errorf("%w: %s has no tensor column to transform (plain lists of numbers become tensors with --shape)", errUsage, inPath)
	}
	var rows int64
	batch := 0
	return writeAll(outf.out, outFormat, ep.schema, wopts, stdout, in, outf.progress("eval", pin.total(inPath)), func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		first := rows
		rows += rec.NumRows()
		batch++
		return ep.apply(rec, batch, first)
	})
}

// parseOutputs parses the NAME=EXPR values of -e.
func parseOutputs(values []string) ([]evalOutput, error) {
	outs := make([]evalOutput, len(values))
	for k, v := range values {
		name, text, ok := strings.Cut(v, "=")
		if !ok || strings.TrimSpace(name) == "" || strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("%w: -e %q: want NAME=EXPR", errUsage, v)
		}
		outs[k] = evalOutput{name: strings.TrimSpace(name), text: text}
	}
	return outs, nil
}

// formatUniform prints a uniform shape with ? for free sizes: (?,?,3).
func formatUniform(u []int, ndim int) string {
	if u == nil {
		u = slices.Repeat([]int{varshape.Varies}, ndim)
	}
	parts := make([]string, len(u))
	for k, d := range u {
		parts[k] = "?"
		if d != varshape.Varies {
			parts[k] = strconv.Itoa(d)
		}
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// typeShape prints the shape of a fixed-shape type, the uniform shape
// of a variable-shape one, or a plain type as "float64 per row".
func typeShape(dt arrow.DataType) string {
	if vt, ok := varshape.TypeOf(dt); ok {
		return formatUniform(vt.UniformShape(), vt.NDim())
	}
	if ft, ok := dt.(*fixedshape.Type); ok {
		return metadata.FormatShape(ft.Shape())
	}
	return dt.String() + " per row"
}

// asTensors returns res, a plain column of one value per row, as a column
// of typ when typ is a 0-D tensor type (sharing res's buffers), and res
// itself otherwise. It releases res when it wraps it.
func asTensors(res arrow.Array, typ arrow.DataType) (arrow.Array, error) {
	ft, ok := typ.(*fixedshape.Type)
	if !ok {
		return res, nil
	}
	defer res.Release()
	d := res.Data()
	if d.Offset() != 0 {
		return nil, fmt.Errorf("a result of one value per row starts at offset %d, not 0", d.Offset())
	}
	// The 0-D tensors' validity is the values' validity; the child keeps it
	// too, as pyarrow writes null tensors.
	storage := array.NewData(ft.StorageType(), d.Len(), []*memory.Buffer{d.Buffers()[0]}, []arrow.ArrayData{d}, d.NullN(), 0)
	defer storage.Release()
	st := array.MakeFromData(storage)
	defer st.Release()
	return fixedshape.NewArray(ft, st)
}

// applyExpr evaluates the expression text on every tensor of a, read as
// x, into a tensor column.
func applyExpr(a *fixedshape.Array, text string) (*fixedshape.Array, error) {
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: a.DataType(), Nullable: true}}, nil)
	p, err := expr.Compile(text, schema)
	if err != nil {
		return nil, err
	}
	out, err := p.EvalColumn(a)
	if err != nil {
		return nil, err
	}
	res, ok := out.(*fixedshape.Array)
	if !ok {
		out.Release()
		return nil, fmt.Errorf("%w: %s gives one %v per tensor, not a tensor", errUsage, text, out.DataType())
	}
	return res, nil
}
