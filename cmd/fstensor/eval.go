package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func newEval(stdout, stderr io.Writer) *cobra.Command {
	var inf inputFlags
	var outf outputFlags
	var columns []string
	var relabel bool
	cmd := &cobra.Command{
		Use:   "eval EXPR FILE -o OUT",
		Short: "Apply an expression to every tensor of tensor columns",
		Long: `Eval applies EXPR to every tensor of the tensor columns of FILE (or those named by --column)
and writes the result to OUT; the other columns are kept as they are (formats that hold tensor
columns only, .npy .npz .pb .zio .dt, keep the transformed ones). It streams batch by batch.

In EXPR, x is one tensor of the column: x[:, ::2, ::2], x[..., 0], x[None], x.T,
x.transpose(2, 0, 1), x.reshape(-1), and chains of these; axes are logical.

With --relabel, a result that only relabels the input's elements (a transpose, a reshape
of a dense layout) shares the input's buffers under a type whose permutation describes
the layout, instead of being copied to row-major order; other results are copied.

OUT is written to a temporary file and renamed over OUT only when everything was written:
on an error, Ctrl-C or SIGTERM an existing OUT is left as it was. OUT may not be FILE.`,
		Example: `  fstensor eval 'x[::2, ::2].transpose(2, 0, 1)' testdata/images.arrow -o small_chw.arrow
  fstensor eval 'x.transpose(2, 0, 1)' testdata/images.arrow -o chw.arrow --relabel
  fstensor eval 'x[..., 0]' testdata/images.arrow --column image -o red.npy
  fstensor eval 'x.reshape(24, 32)' vectors.parquet --shape 768 -o grids.arrow`,
		Args: exactArgs(2, "EXPR and FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(args[0], args[1], inf, outf, columns, relabel, stdout, stderr)
		},
	}
	inf.register(cmd)
	outf.register(cmd, true)
	fs := cmd.Flags()
	fs.StringArrayVar(&columns, "column", nil, "a tensor column to transform (repeatable; default every tensor column); the others are kept")
	fs.BoolVar(&relabel, "relabel", false, "write a result that only relabels the input (a transpose, a reshape) with the input's buffers and a permutation instead of copying")
	return cmd
}

// runEval applies an expression to tensor columns and writes the result;
// other columns pass through unchanged.
func runEval(text, inPath string, inf inputFlags, outf outputFlags, columns []string, relabel bool, stdout, stderr io.Writer) error {
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
	var opts []expr.Option
	if relabel {
		opts = append(opts, expr.WithRelabel())
	}

	schema := in.Schema()
	targets, err := selectColumns(schema, columns)
	if err != nil {
		return err
	}
	plans := make([]*expr.Plan, schema.NumFields())
	fields := slices.Clone(schema.Fields())
	for _, i := range targets {
		typ, ok := fixedshape.TypeOfField(fields[i])
		if u, bad := fixedshape.UnsupportedOf(fields[i].Type); bad {
			if len(columns) > 0 {
				return fmt.Errorf("%w: column %q is a tensor column that cannot be transformed: %w", errUsage, fields[i].Name, u.Reason())
			}
			fmt.Fprintf(stderr, "%s: kept as it is: %v\n", printable(fields[i].Name), u.Reason())
			continue
		}
		if !ok {
			if len(columns) > 0 {
				return fmt.Errorf("%w: column %q is %v, not a tensor column", errUsage, fields[i].Name, fields[i].Type)
			}
			continue
		}
		e, err := expr.Parse(text, expr.Input(typ))
		if err != nil {
			return fmt.Errorf("column %q: %w", fields[i].Name, err)
		}
		p, err := expr.Compile(e)
		if err != nil {
			return fmt.Errorf("column %q: %w", fields[i].Name, err)
		}
		rt, err := resultType(p, typ, opts)
		if err != nil {
			return fmt.Errorf("column %q: %w", fields[i].Name, err)
		}
		plans[i] = p
		fields[i].Type = rt
		fmt.Fprintf(stderr, "%s: %s %s -> %s\n", fields[i].Name, typ.ElemType(), metadata.FormatShape(typ.Shape()), metadata.FormatShape(rt.Shape()))
	}
	if !slices.ContainsFunc(plans, func(p *expr.Plan) bool { return p != nil }) {
		return fmt.Errorf("%w: %s has no tensor column to transform (plain lists of numbers become tensors with --shape)", errUsage, inPath)
	}
	// Formats of tensor columns alone keep the transformed columns only.
	keep := make([]int, 0, len(fields))
	for i := range fields {
		if plans[i] != nil || !outFormat.TensorsOnly() {
			keep = append(keep, i)
		}
	}
	md := schema.Metadata()
	outFields := make([]arrow.Field, len(keep))
	for k, i := range keep {
		outFields[k] = fields[i]
	}
	outSchema := arrow.NewSchema(outFields, &md)
	var rows, bytes int64
	progress := isTerminal(stderr)
	defer func() {
		if progress && rows > 0 {
			fmt.Fprintln(stderr)
		}
	}()
	return writeAll(outf.out, outFormat, outSchema, wopts, stdout, in, func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		if progress {
			rows += rec.NumRows()
			for i := range plans {
				if plans[i] != nil {
					bytes += int64(len(rec.Column(i).(*fixedshape.Array).ValueBytes()))
				}
			}
			fmt.Fprintf(stderr, "\r%d rows, %.1f MiB of tensors", rows, float64(bytes)/(1<<20))
		}
		cols := make([]arrow.Array, len(keep))
		defer func() {
			for k, c := range cols {
				if c != nil && plans[keep[k]] != nil {
					c.Release()
				}
			}
		}()
		for k, i := range keep {
			if plans[i] == nil {
				cols[k] = rec.Column(i)
				continue
			}
			res, err := plans[i].Eval(rec.Column(i).(*fixedshape.Array), opts...)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", fields[i].Name, err)
			}
			cols[k] = res
			if !arrow.TypeEqual(res.DataType(), fields[i].Type) {
				return nil, fmt.Errorf("column %q: the result type %v differs from %v", fields[i].Name, res.DataType(), fields[i].Type)
			}
		}
		return array.NewRecordBatch(outSchema, cols, rec.NumRows()), nil
	})
}

// resultType returns the type of the arrays p returns with opts for input
// columns of type in: the type of its result on an empty column, which is
// a permuted relabelling of the input with WithRelabel when the plan
// allows one, and dense row-major otherwise.
func resultType(p *expr.Plan, in *fixedshape.Type, opts []expr.Option) (*fixedshape.Type, error) {
	if _, err := p.Type(); err != nil {
		return nil, err
	}
	empty, err := fixedshape.NewArrayFromBuffer(in, 0, memory.NewBufferBytes(nil))
	if err != nil {
		return nil, err
	}
	defer empty.Release()
	res, err := p.Eval(empty, opts...)
	if err != nil {
		return nil, err
	}
	defer res.Release()
	return res.TensorType(), nil
}

// applyExpr evaluates the expression text on every tensor of a.
func applyExpr(a *fixedshape.Array, text string) (*fixedshape.Array, error) {
	e, err := expr.Parse(text, expr.Input(a.TensorType()))
	if err != nil {
		return nil, err
	}
	return expr.Eval(e, a)
}
