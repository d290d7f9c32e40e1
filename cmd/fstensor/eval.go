package main

import (
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// cmdEval applies an expression to tensor columns and writes the result;
// other columns pass through unchanged.
func cmdEval(args []string, stderr io.Writer) error {
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
	in, err := openInput(pos[1], "")
	if err != nil {
		return err
	}
	defer in.Close()

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
		rt, err := p.Type()
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
	md := schema.Metadata()
	outSchema := arrow.NewSchema(fields, &md)
	var opts []expr.Option
	if *relabel {
		opts = append(opts, expr.WithRelabel())
	}
	var rows, bytes int64
	progress := isTerminal(stderr)
	defer func() {
		if progress && rows > 0 {
			fmt.Fprintln(stderr)
		}
	}()
	return writeAll(*out, outFormat, outSchema, comp, in, func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		if progress {
			rows += rec.NumRows()
			for i := range plans {
				if plans[i] != nil {
					bytes += int64(len(rec.Column(i).(*fixedshape.Array).ValueBytes()))
				}
			}
			fmt.Fprintf(stderr, "\r%d rows, %.1f MiB of tensors", rows, float64(bytes)/(1<<20))
		}
		cols := make([]arrow.Array, rec.NumCols())
		defer func() {
			for i, c := range cols {
				if c != nil && plans[i] != nil {
					c.Release()
				}
			}
		}()
		for i := range cols {
			if plans[i] == nil {
				cols[i] = rec.Column(i)
				continue
			}
			res, err := plans[i].Eval(rec.Column(i).(*fixedshape.Array), opts...)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w", fields[i].Name, err)
			}
			cols[i] = res
		}
		return array.NewRecordBatch(outSchema, cols, rec.NumRows()), nil
	})
}

// applyExpr evaluates the expression text on every tensor of a.
func applyExpr(a *fixedshape.Array, text string) (*fixedshape.Array, error) {
	e, err := expr.Parse(text, expr.Input(a.TensorType()))
	if err != nil {
		return nil, err
	}
	return expr.Eval(e, a)
}
