package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
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
	Unsupported   string   `json:"unsupported,omitempty"` // why a tensor column is read as its storage
	numeric       bool     // the statistics hold min/max/mean and NaN
	Stats         *stats   `json:"stats,omitempty"`
	Var           *varInfo `json:"variable_shape,omitempty"` // a variable-shape tensor column
}

// varInfo describes a variable-shape tensor column: its type's logical
// metadata and the histogram of its rows' logical shapes.
type varInfo struct {
	ElemType     string       `json:"elem_type"`
	NDim         int          `json:"ndim"`
	DimNames     []string     `json:"dim_names,omitempty"`
	Permutation  []int        `json:"permutation,omitempty"`
	UniformShape []int        `json:"uniform_shape,omitempty"` // -1 where rows differ
	Rows         int64        `json:"rows"`
	Nulls        int64        `json:"nulls"`
	Shapes       []shapeCount `json:"shapes"` // most rows first
}

// shapeCount is one entry of a shape histogram.
type shapeCount struct {
	Shape []int `json:"shape"`
	Rows  int   `json:"rows"`
}

// add counts the rows of a and their shapes.
func (v *varInfo) add(a *varshape.Array) error {
	hist, err := varshape.Shapes(a)
	if err != nil {
		return err
	}
	v.Rows += int64(a.Len())
	v.Nulls += int64(a.NullN())
	for _, h := range hist {
		i := slices.IndexFunc(v.Shapes, func(c shapeCount) bool { return slices.Equal(c.Shape, h.Shape) })
		if i < 0 {
			v.Shapes = append(v.Shapes, shapeCount{Shape: h.Shape})
			i = len(v.Shapes) - 1
		}
		v.Shapes[i].Rows += h.Rows
	}
	return nil
}

// sortShapes orders the histogram by rows, most first, then by shape.
func (v *varInfo) sortShapes() {
	slices.SortStableFunc(v.Shapes, func(a, b shapeCount) int {
		if a.Rows != b.Rows {
			return b.Rows - a.Rows
		}
		return slices.Compare(a.Shape, b.Shape)
	})
}

type inspectReport struct {
	File    string       `json:"file"`
	Format  string       `json:"format"`
	Rows    int64        `json:"rows"`
	Batches int          `json:"batches"`
	Columns []columnInfo `json:"columns"`
}

func newInspect(stdout io.Writer) *cobra.Command {
	var inf inputFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "inspect FILE",
		Short: "Print the columns of a file, with shape, layout and statistics of tensor columns",
		Long: `Inspect prints the schema of FILE and, for each tensor column, its element type, logical
shape, dimension names, permutation, physical shape, row and null counts, size and the
min/max/mean and NaN count of its elements; for a variable-shape tensor column, the
histogram of its rows' shapes. Names with control characters are printed quoted, in Go
syntax ("a\nb").

--json prints the same report as JSON. JSON has no NaN or infinities: a statistic that is
not finite is written as the string "NaN", "+Inf" or "-Inf"; a variable-shape column's
uniform_shape has -1 where rows differ.`,
		Example: `  fstensor inspect testdata/images.arrow
  fstensor inspect --json testdata/permuted.arrow
  fstensor inspect vectors.parquet --shape 768 --rows 0:1000`,
		Args: exactArgs(1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInspect(args[0], inf, asJSON, stdout)
		},
	}
	inf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON report (non-finite numbers as the strings \"NaN\", \"+Inf\", \"-Inf\")")
	return cmd
}

func runInspect(path string, inf inputFlags, asJSON bool, stdout io.Writer) error {
	pin, err := inf.parse(path)
	if err != nil {
		return err
	}
	in, err := pin.open(path)
	if err != nil {
		return err
	}
	defer in.Close()
	schema := in.Schema()
	rep := inspectReport{File: path, Format: string(in.Format())}
	for _, f := range schema.Fields() {
		ci := columnInfo{Name: f.Name, Type: f.Type.String()}
		if t, ok := f.Type.(*fixedshape.Type); ok {
			m := t.Metadata()
			ci.Tensor, ci.ElemType = true, t.ElemType().String()
			ci.Shape, ci.DimNames, ci.Permutation, ci.PhysicalShape = m.Shape(), m.DimNames(), m.Permutation(), m.PhysicalShape()
			ci.Stats = &stats{}
			ci.numeric = fixedshape.ElemNumeric(t.ElemType())
		}
		if t, ok := varshape.TypeOf(f.Type); ok {
			ci.Var = &varInfo{ElemType: t.ElemType().String(), NDim: t.NDim(), DimNames: t.DimNames(), Permutation: t.Permutation(), UniformShape: t.UniformShape(), Shapes: []shapeCount{}}
		}
		if u, ok := fixedshape.UnsupportedOf(f.Type); ok {
			ci.Type, ci.Unsupported = u.StorageType().String(), u.Reason().Error()
			if m, ok := u.Metadata(); ok {
				ci.Shape, ci.DimNames, ci.Permutation, ci.PhysicalShape = m.Shape(), m.DimNames(), m.Permutation(), m.PhysicalShape()
			}
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
					return fmt.Errorf("%s: column %q: %w", path, rep.Columns[i].Name, err)
				}
			}
			if a, ok := rec.Column(i).(*varshape.Array); ok {
				if err := rep.Columns[i].Var.add(a); err != nil {
					return fmt.Errorf("%s: column %q: %w", path, rep.Columns[i].Name, err)
				}
			}
		}
	}
	if err := in.Err(); err != nil {
		return err
	}
	for _, c := range rep.Columns {
		if c.Var != nil {
			c.Var.sortShapes()
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(rep)
	}
	printReport(stdout, rep)
	return nil
}

func printReport(w io.Writer, rep inspectReport) {
	fmt.Fprintf(w, "%s: %s, %d rows in %d batches, %d columns\n", printable(rep.File), rep.Format, rep.Rows, rep.Batches, len(rep.Columns))
	for _, c := range rep.Columns {
		if c.Unsupported != "" {
			fmt.Fprintf(w, "\n%s: tensor column read as its storage %s\n", printable(c.Name), printable(c.Type))
			if c.Shape != nil {
				fmt.Fprintf(w, "  shape           %s\n", metadata.FormatShape(c.Shape))
			}
			fmt.Fprintf(w, "  unsupported     %s\n", printable(c.Unsupported))
			continue
		}
		if c.Var != nil {
			printVar(w, c.Name, c.Var)
			continue
		}
		if !c.Tensor {
			fmt.Fprintf(w, "\n%s: %s\n", printable(c.Name), printable(c.Type))
			continue
		}
		fmt.Fprintf(w, "\n%s: tensor %s %s\n", printable(c.Name), c.ElemType, metadata.FormatShape(c.Shape))
		printLayout(w, c.DimNames, c.Permutation)
		fmt.Fprintf(w, "  physical shape  %s\n", metadata.FormatShape(c.PhysicalShape))
		s := c.Stats
		fmt.Fprintf(w, "  rows            %d (%d null)\n", s.Rows, s.Nulls)
		fmt.Fprintf(w, "  bytes           %d\n", s.Bytes)
		if s.True != nil {
			fmt.Fprintf(w, "  true            %d\n", *s.True)
		}
		if !c.numeric {
			continue
		}
		fmt.Fprintf(w, "  min/max/mean    %g / %g / %.6g\n", float64(s.Min), float64(s.Max), float64(s.Mean))
		fmt.Fprintf(w, "  NaN             %d\n", s.NaN)
	}
}

// printLayout prints a tensor column's dimension names and permutation,
// those it has.
func printLayout(w io.Writer, dimNames []string, perm []int) {
	if dimNames != nil {
		names := make([]string, len(dimNames))
		for i, n := range dimNames {
			names[i] = printable(n)
		}
		fmt.Fprintf(w, "  dim names       %s\n", strings.Join(names, ", "))
	}
	if perm != nil {
		fmt.Fprintf(w, "  permutation     %v\n", perm)
	}
}

// maxShapes is the number of shapes the text report lists for a
// variable-shape column; the JSON report has them all.
const maxShapes = 8

// printVar prints a variable-shape column's part of the text report.
func printVar(w io.Writer, name string, v *varInfo) {
	fmt.Fprintf(w, "\n%s: variable-shape tensor %s, %d dims\n", printable(name), v.ElemType, v.NDim)
	printLayout(w, v.DimNames, v.Permutation)
	if v.UniformShape != nil {
		dims := make([]string, len(v.UniformShape))
		for i, d := range v.UniformShape {
			dims[i] = "?"
			if d != varshape.Varies {
				dims[i] = strconv.Itoa(d)
			}
		}
		fmt.Fprintf(w, "  uniform shape   (%s)\n", strings.Join(dims, ","))
	}
	fmt.Fprintf(w, "  rows            %d (%d null)\n", v.Rows, v.Nulls)
	fmt.Fprintf(w, "  shapes          %d distinct\n", len(v.Shapes))
	for i, c := range v.Shapes {
		if i == maxShapes {
			fmt.Fprintf(w, "    ... %d more\n", len(v.Shapes)-maxShapes)
			break
		}
		fmt.Fprintf(w, "    %-14s %d rows\n", metadata.FormatShape(c.Shape), c.Rows)
	}
}

// printable returns s, or s quoted in Go syntax when it holds control or
// other non-printable characters (or is empty), so that no name can
// move the cursor, clear the screen or hide part of the report.
func printable(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool { return !unicode.IsPrint(r) && r != ' ' || r == utf8.RuneError }) {
		return s
	}
	return strconv.Quote(s)
}
