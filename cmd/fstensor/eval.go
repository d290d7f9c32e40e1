package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// cmdEval applies an expression to tensor columns and writes the result;
// other columns pass through unchanged.
func cmdEval(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	out := fs.String("o", "", "the output file (format from its extension, or --to)")
	to := fs.String("to", "", "output format: arrow, arrows, parquet, npy, tfproto, zio or decthings")
	compression := fs.String("compression", "none", "IPC or Parquet compression: none, lz4 or zstd")
	relabel := fs.Bool("relabel", false, "where the result is a relabelling of the input (a transpose, a reshape of a dense layout), share the input buffer instead of copying")
	var columns stringList
	fs.Var(&columns, "column", "a tensor column to transform (repeatable; default every tensor column)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs("eval", pos, 2, "EXPR and FILE"); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: eval needs -o OUT", errUsage)
	}
	outFormat, err := formatOf(*out, *to)
	if err != nil {
		return err
	}
	comp, err := parseCompression(*compression)
	if err != nil {
		return err
	}
	if err := checkOutput(*out, outFormat, stdout, pos[1]); err != nil {
		return err
	}
	in, err := openInput(pos[1], "")
	if err != nil {
		return err
	}
	defer in.Close()
	var opts []expr.Option
	if *relabel {
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
		typ, ok := fields[i].Type.(*fixedshape.Type)
		if !ok {
			if len(columns) > 0 {
				return fmt.Errorf("%w: column %q is %v, not a tensor column", errUsage, fields[i].Name, fields[i].Type)
			}
			continue
		}
		e, err := expr.Parse(pos[0], expr.Input(typ))
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
		return fmt.Errorf("%w: %s has no tensor column to transform", errUsage, pos[1])
	}
	// Formats of tensor columns alone keep the transformed columns only.
	keep := make([]int, 0, len(fields))
	for i := range fields {
		if plans[i] != nil || !outFormat.tensorsOnly() {
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
	return writeAll(*out, outFormat, outSchema, writeOptions{comp: comp}, stdout, in, func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
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
