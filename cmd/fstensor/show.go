package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/atomicfile"
)

// cmdShow draws one tensor of a column as a PNG image.
func cmdShow(args []string, stdout io.Writer) (err error) {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	column := fs.String("column", "", "the tensor column (default: the first)")
	row := fs.Int("row", 0, "the row (tensor) to draw, counting from 0 over all batches")
	exprText := fs.String("expr", "", "an expression applied to the tensor first, e.g. 'x[..., 0]'")
	layout := fs.String("layout", "", "hwc or chw for 3-D tensors (default: chw when the first dim is named C or has size 1, 3 or 4 and the last does not)")
	rng := fs.String("range", "", "MIN,MAX mapped to black and white (default: the tensor's own range)")
	out := fs.String("o", "", "the PNG file to write")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs("show", pos, 1, "one FILE"); err != nil {
		return err
	}
	if *out == "" {
		return fmt.Errorf("%w: show needs -o OUT.png", errUsage)
	}
	if err := checkOutput(*out, pngF, stdout, pos[0]); err != nil {
		return err
	}
	if *out != stdoutName && !strings.EqualFold(filepath.Ext(*out), ".png") {
		return fmt.Errorf("%w: show writes PNG images: name the output OUT.png (or - for standard output), not %s", errUsage, *out)
	}
	if *row < 0 {
		return fmt.Errorf("%w: --row %d is negative", errUsage, *row)
	}
	var sc *scale
	if *rng != "" {
		lo, hi, ok := strings.Cut(*rng, ",")
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if !ok || err1 != nil || err2 != nil || !(l < h) {
			return fmt.Errorf("%w: --range %q is not MIN,MAX with MIN < MAX", errUsage, *rng)
		}
		sc = &scale{l, h}
	}
	one, err := readRow(pos[0], *column, *row)
	if err != nil {
		return err
	}
	defer one.Release()
	if *exprText != "" {
		res, err := applyExpr(one, *exprText)
		if err != nil {
			return err
		}
		defer res.Release()
		one = res
	}
	if one.IsNull(0) {
		return fmt.Errorf("row %d of %s is null", *row, pos[0])
	}
	vals, err := logicalValues(one, 0)
	if err != nil {
		return err
	}
	typ := one.TensorType()
	shape := typ.Shape()
	if *layout == "" {
		*layout = guessLayout(shape, typ.DimNames())
	}
	if *layout != "hwc" && *layout != "chw" {
		return fmt.Errorf("%w: --layout %q (want hwc or chw)", errUsage, *layout)
	}
	if sc == nil {
		s := autoScale(vals)
		sc = &s
	}
	img, err := render(vals, shape, *layout, *sc)
	if err != nil {
		return err
	}
	return writePNG(*out, img, stdout)
}

// writePNG writes img to path (through a temporary file renamed over it)
// or to stdout for "-".
func writePNG(path string, img image.Image, stdout io.Writer) error {
	if path == stdoutName {
		bw := bufio.NewWriter(stdout)
		return errors.Join(png.Encode(bw, img), bw.Flush())
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := errors.Join(png.Encode(bw, img), bw.Flush()); err != nil {
		f.Abort()
		return outputError(path, err)
	}
	return f.Commit()
}

// guessLayout picks chw when the names say so, or when the first axis looks
// like channels and the last does not.
func guessLayout(shape []int, names []string) string {
	if len(shape) != 3 {
		return "hwc"
	}
	if len(names) == 3 {
		switch {
		case strings.EqualFold(names[0], "c"):
			return "chw"
		case strings.EqualFold(names[2], "c"):
			return "hwc"
		}
	}
	channels := func(n int) bool { return n == 1 || n == 3 || n == 4 }
	if channels(shape[0]) && !channels(shape[2]) {
		return "chw"
	}
	return "hwc"
}

// readRow returns row i of the named (or first) tensor column of a file as
// a one-tensor array.
func readRow(path, column string, i int) (*fixedshape.Array, error) {
	in, err := openInput(path, "")
	if err != nil {
		return nil, err
	}
	defer in.Close()
	idx := -1
	for k, f := range in.Schema().Fields() {
		if _, ok := f.Type.(*fixedshape.Type); ok && (column == "" || f.Name == column) {
			idx = k
			break
		}
	}
	if idx < 0 {
		if column == "" {
			return nil, fmt.Errorf("%s has no tensor column", path)
		}
		return nil, fmt.Errorf("%w: %s has no tensor column %q (columns: %s)", errUsage, path, column, columnNames(in.Schema()))
	}
	seen := 0
	for in.Next() {
		rec := in.RecordBatch()
		if n := int(rec.NumRows()); i < seen+n {
			// Copy the row out: a mapped file's buffers die with Close.
			one := array.NewSlice(rec.Column(idx), int64(i-seen), int64(i-seen+1))
			defer one.Release()
			owned, err := array.Concatenate([]arrow.Array{one}, memory.DefaultAllocator)
			if err != nil {
				return nil, err
			}
			return owned.(*fixedshape.Array), nil
		} else {
			seen += n
		}
	}
	if err := in.Err(); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("%w: --row %d, but %s has %d rows", errUsage, i, path, seen)
}
