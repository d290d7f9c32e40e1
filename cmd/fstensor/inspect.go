package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// columnInfo is one column of the inspect report.
type columnInfo struct {
	Name          string   `json:"name"`
	Type          string   `json:"type"`
	Tensor        bool     `json:"tensor"`
	ElemType      string   `json:"elem_type,omitempty"`
	Shape         []int    `json:"shape,omitempty"`
	DimNames      []string `json:"dim_names,omitempty"`
	Permutation   []int    `json:"permutation,omitempty"`
	PhysicalShape []int    `json:"physical_shape,omitempty"`
	Stats         *stats   `json:"stats,omitempty"`
}

type inspectReport struct {
	File    string       `json:"file"`
	Format  string       `json:"format"`
	Rows    int64        `json:"rows"`
	Batches int          `json:"batches"`
	Columns []columnInfo `json:"columns"`
}

func cmdInspect(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("inspect", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print a JSON report")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs("inspect", pos, 1, "one FILE"); err != nil {
		return err
	}
	in, err := openInput(pos[0], "")
	if err != nil {
		return err
	}
	defer in.Close()
	schema := in.Schema()
	rep := inspectReport{File: pos[0], Format: string(in.format)}
	for _, f := range schema.Fields() {
		ci := columnInfo{Name: f.Name, Type: f.Type.String()}
		if t, ok := f.Type.(*fixedshape.Type); ok {
			m := t.Metadata()
			ci.Tensor, ci.ElemType = true, t.ElemType().String()
			ci.Shape, ci.DimNames, ci.Permutation, ci.PhysicalShape = m.Shape(), m.DimNames(), m.Permutation(), m.PhysicalShape()
			ci.Stats = &stats{}
		}
		rep.Columns = append(rep.Columns, ci)
	}
	for in.Next() {
		rec := in.RecordBatch()
		rep.Batches++
		rep.Rows += rec.NumRows()
		for i := range rep.Columns {
			if a, ok := rec.Column(i).(*fixedshape.Array); ok {
				if err := rep.Columns[i].Stats.add(a); err != nil {
					return fmt.Errorf("%s: column %q: %w", pos[0], rep.Columns[i].Name, err)
				}
			}
		}
	}
	if err := in.Err(); err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printReport(stdout, rep)
	return nil
}

func printReport(w io.Writer, rep inspectReport) {
	fmt.Fprintf(w, "%s: %s, %d rows in %d batches, %d columns\n", rep.File, rep.Format, rep.Rows, rep.Batches, len(rep.Columns))
	for _, c := range rep.Columns {
		if !c.Tensor {
			fmt.Fprintf(w, "\n%s: %s\n", c.Name, c.Type)
			continue
		}
		fmt.Fprintf(w, "\n%s: tensor %s %s\n", c.Name, c.ElemType, metadata.FormatShape(c.Shape))
		if c.DimNames != nil {
			fmt.Fprintf(w, "  dim names       %s\n", strings.Join(c.DimNames, ", "))
		}
		if c.Permutation != nil {
			fmt.Fprintf(w, "  permutation     %v\n", c.Permutation)
		}
		fmt.Fprintf(w, "  physical shape  %s\n", metadata.FormatShape(c.PhysicalShape))
		s := c.Stats
		fmt.Fprintf(w, "  rows            %d (%d null)\n", s.Rows, s.Nulls)
		fmt.Fprintf(w, "  bytes           %d\n", s.Bytes)
		fmt.Fprintf(w, "  min/max/mean    %g / %g / %.6g\n", s.Min, s.Max, s.Mean)
		fmt.Fprintf(w, "  NaN             %d\n", s.NaN)
	}
}
