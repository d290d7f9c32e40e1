package main

import (
	"bufio"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/atomicfile"
)

// showFlags are the flags of show.
type showFlags struct {
	column, exprText, layout, rng, out string
	row, grid, scale                   int
}

// autoSize is the size small images are upscaled to (their longer side,
// by a whole factor) when --scale is not given.
const autoSize = 256

func newShow(stdout io.Writer) *cobra.Command {
	var inf inputFlags
	var sf showFlags
	cmd := &cobra.Command{
		Use:   "show FILE -o OUT.png",
		Short: "Draw tensors of a column as a PNG image",
		Long: `Show draws tensor --row of a tensor column (the first one, or --column), or --grid N tensors
from --row on, side by side, as a PNG image. 2-D tensors are gray, 3-D ones H x W x C
(or --layout chw) with C in {1, 3, 4}, 1-D ones a line chart (a long one as the min and max
of the values under each of at most 1024 pixel columns). Values are scaled from the tensor's
own range (or --range MIN,MAX) to 0..255. Images whose longer side is under 256 pixels are
enlarged by a whole factor (--scale N sets the factor, --scale 1 keeps the tensor's size).

OUT must end in .png (or be - for standard output); it is written to a temporary file
and renamed over OUT only when complete.`,
		Example: `  fstensor show testdata/images.arrow --column image --row 3 -o image3.png
  fstensor show testdata/images.arrow --grid 8 --scale 2 -o grid.png
  fstensor show testdata/images.arrow --row 7 --expr 'x[..., 1]' -o green7.png
  fstensor show testdata/embeddings.arrow --column embedding -o embedding0.png`,
		Args: exactArgs(1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runShow(args[0], inf, sf, stdout)
		},
	}
	inf.register(cmd)
	fs := cmd.Flags()
	fs.StringVarP(&sf.out, "output", "o", "", "the PNG file to write; - for standard output")
	fs.StringVar(&sf.column, "column", "", "the tensor column (default: the first)")
	fs.IntVar(&sf.row, "row", 0, "the row (tensor) to draw, counting from 0 over all batches (after --rows)")
	fs.IntVar(&sf.grid, "grid", 1, "draw N tensors from --row on, in a grid")
	fs.IntVar(&sf.scale, "scale", 0, "enlarge images N times (default: small images to about 256 pixels)")
	fs.StringVar(&sf.exprText, "expr", "", "an expression applied to the tensor first, e.g. 'x[..., 0]'")
	fs.StringVar(&sf.layout, "layout", "", "hwc or chw for 3-D tensors (default: chw when the first dim is named C or has size 1, 3 or 4 and the last does not)")
	fs.StringVar(&sf.rng, "range", "", "MIN,MAX mapped to black and white (default: the tensor's own range)")
	mustComplete(cmd, "layout", completeWords("hwc", "chw"))
	return cmd
}

// maxGrid bounds --grid.
const maxGrid = 1024

func runShow(path string, inf inputFlags, sf showFlags, stdout io.Writer) error {
	if sf.out == "" {
		return fmt.Errorf("%w: show needs -o OUT.png", errUsage)
	}
	if err := checkOutput(sf.out, pngF, stdout, path); err != nil {
		return err
	}
	if sf.out != stdoutName && !strings.EqualFold(filepath.Ext(sf.out), ".png") {
		return fmt.Errorf("%w: show writes PNG images only: name the output OUT.png (or - for standard output), not %s", errUsage, sf.out)
	}
	switch {
	case sf.row < 0:
		return fmt.Errorf("%w: --row %d is negative", errUsage, sf.row)
	case sf.grid < 1 || sf.grid > maxGrid:
		return fmt.Errorf("%w: --grid %d is not in 1..%d", errUsage, sf.grid, maxGrid)
	case sf.scale < 0 || sf.scale > 64:
		return fmt.Errorf("%w: --scale %d is not in 1..64", errUsage, sf.scale)
	}
	if sf.layout != "" && sf.layout != "hwc" && sf.layout != "chw" {
		return fmt.Errorf("%w: --layout %q (want hwc or chw)", errUsage, sf.layout)
	}
	var sc *scale
	if sf.rng != "" {
		lo, hi, ok := strings.Cut(sf.rng, ",")
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		if !ok || err1 != nil || err2 != nil || !(l < h) {
			return fmt.Errorf("%w: --range %q is not MIN,MAX with MIN < MAX", errUsage, sf.rng)
		}
		sc = &scale{l, h}
	}
	pin, err := inf.parse(path)
	if err != nil {
		return err
	}
	rows, err := readRows(pin, path, sf.column, sf.row, sf.grid)
	if err != nil {
		return err
	}
	defer rows.Release()
	if sf.exprText != "" {
		res, err := applyExpr(rows, sf.exprText)
		if err != nil {
			return err
		}
		defer res.Release()
		rows = res
	}
	if sf.grid == 1 && rows.IsNull(0) {
		return fmt.Errorf("row %d of %s is null", sf.row, path)
	}
	typ := rows.TensorType()
	shape := typ.Shape()
	layout := sf.layout
	if layout == "" {
		layout = guessLayout(shape, typ.DimNames())
	}
	fc, err := floatsOf(rows)
	if err != nil {
		return err
	}
	tiles := make([]image.Image, rows.Len())
	vals := make([]float64, 0, typ.ListSize())
	for i := range rows.Len() {
		if rows.IsNull(i) {
			continue
		}
		vals = fc.appendLogical(vals[:0], i)
		s := sc
		if s == nil {
			a := autoScale(vals)
			s = &a
		}
		if tiles[i], err = render(vals, shape, layout, *s); err != nil {
			return err
		}
	}
	return writePNG(sf.out, compose(tiles, len(shape) == 1, sf.scale), stdout)
}

// compose enlarges the tiles (nil for null tensors) by factor (0: to
// about autoSize, not for charts) and lays them out in a grid on gray.
func compose(tiles []image.Image, chart bool, factor int) image.Image {
	var w, h int
	for _, t := range tiles {
		if t != nil {
			w, h = max(w, t.Bounds().Dx()), max(h, t.Bounds().Dy())
		}
	}
	if factor == 0 {
		factor = 1
		if !chart && max(w, h) > 0 {
			factor = max(1, min(64, autoSize/max(w, h)))
		}
	}
	if len(tiles) == 1 && factor == 1 {
		return tiles[0]
	}
	const gap = 2
	cols := 1
	for cols*cols < len(tiles) {
		cols++
	}
	rows := (len(tiles) + cols - 1) / cols
	tw, th := w*factor, h*factor
	out := image.NewNRGBA(image.Rect(0, 0, cols*tw+(cols-1)*gap, rows*th+(rows-1)*gap))
	if len(tiles) > 1 {
		draw.Draw(out, out.Bounds(), image.NewUniform(color.Gray{Y: 128}), image.Point{}, draw.Src)
	}
	for i, t := range tiles {
		if t == nil {
			continue
		}
		x0, y0 := (i%cols)*(tw+gap), (i/cols)*(th+gap)
		b := t.Bounds()
		for y := range b.Dy() * factor {
			for x := range b.Dx() * factor {
				out.Set(x0+x, y0+y, t.At(b.Min.X+x/factor, b.Min.Y+y/factor))
			}
		}
	}
	return out
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
		return withPath(path, err)
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

// readRows returns rows i..i+n-1 (fewer at the end of the file) of the
// named (or first) tensor column of a file as an array of its own.
func readRows(pin parsedInput, path, column string, i, n int) (*fixedshape.Array, error) {
	in, err := pin.openRows(path, int64(i), int64(n))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	idx := tensorColumnIndex(in.Schema(), column)
	if idx < 0 {
		if column == "" {
			return nil, fmt.Errorf("%w: %s has no tensor column (plain lists of numbers become tensors with --shape)", errUsage, path)
		}
		return nil, fmt.Errorf("%w: %s has no tensor column %q (columns: %s)", errUsage, path, column, columnNames(in.Schema()))
	}
	// Copy the rows out: a mapped file's buffers die with Close.
	owned, err := concatColumn(in, idx, mem)
	if err == nil && owned.Len() == 0 {
		owned.Release()
		err = errNoRows
	}
	if errors.Is(err, errNoRows) {
		return nil, fmt.Errorf("%w: --row %d is past the last row of %s", errUsage, i, path)
	}
	if err != nil {
		return nil, err
	}
	return owned.(*fixedshape.Array), nil
}

// tensorColumnIndex returns the index of the first fixed-shape tensor
// column of schema named name (any name when name is ""), or -1.
func tensorColumnIndex(schema *arrow.Schema, name string) int {
	for i, f := range schema.Fields() {
		if _, ok := f.Type.(*fixedshape.Type); ok && (name == "" || f.Name == name) {
			return i
		}
	}
	return -1
}
