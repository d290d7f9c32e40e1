package main

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/fstensor/fstensor/metadata"
)

// scale maps values in [lo, hi] to 0..255, clamping outside values; NaN
// maps to 0, and so does everything when lo == hi.
type scale struct{ lo, hi float64 }

func (s scale) byte(v float64) uint8 {
	if math.IsNaN(v) || s.hi <= s.lo {
		return 0
	}
	x := (v - s.lo) / (s.hi - s.lo) * 255
	return uint8(math.Round(math.Max(0, math.Min(255, x))))
}

// autoScale returns the range of the non-NaN values.
func autoScale(vals []float64) scale {
	s := scale{math.Inf(1), math.Inf(-1)}
	for _, v := range vals {
		if !math.IsNaN(v) {
			s.lo, s.hi = math.Min(s.lo, v), math.Max(s.hi, v)
		}
	}
	if math.IsInf(s.lo, 1) {
		return scale{}
	}
	return s
}

// render draws a tensor given by its logical values and shape: 2-D as
// grayscale, 3-D as H x W x C (layout "hwc") or C x H x W ("chw") with C
// in {1, 3, 4}, 1-D as a line chart.
func render(vals []float64, shape []int, layout string, s scale) (image.Image, error) {
	switch len(shape) {
	case 1:
		return lineChart(vals, s), nil
	case 2:
		h, w := shape[0], shape[1]
		img := image.NewGray(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.Pix[y*img.Stride+x] = s.byte(vals[y*w+x])
			}
		}
		return img, nil
	case 3:
		var h, w, c int
		var at func(y, x, ch int) float64
		switch layout {
		case "hwc":
			h, w, c = shape[0], shape[1], shape[2]
			at = func(y, x, ch int) float64 { return vals[(y*w+x)*c+ch] }
		case "chw":
			c, h, w = shape[0], shape[1], shape[2]
			at = func(y, x, ch int) float64 { return vals[(ch*h+y)*w+x] }
		default:
			return nil, fmt.Errorf("unknown --layout %q (want hwc or chw)", layout)
		}
		if c != 1 && c != 3 && c != 4 {
			return nil, fmt.Errorf("a %s image needs 1, 3 or 4 channels, the tensor has %d (shape %v); try --layout or --expr", layout, c, shape)
		}
		img := image.NewNRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				p := img.Pix[y*img.Stride+4*x:]
				switch c {
				case 1:
					g := s.byte(at(y, x, 0))
					p[0], p[1], p[2], p[3] = g, g, g, 255
				case 3:
					p[0], p[1], p[2], p[3] = s.byte(at(y, x, 0)), s.byte(at(y, x, 1)), s.byte(at(y, x, 2)), 255
				case 4:
					p[0], p[1], p[2], p[3] = s.byte(at(y, x, 0)), s.byte(at(y, x, 1)), s.byte(at(y, x, 2)), s.byte(at(y, x, 3))
				}
			}
		}
		return img, nil
	}
	if len(shape) == 0 {
		return nil, fmt.Errorf("cannot draw a 0-D tensor (a single value): show draws 1-D, 2-D and 3-D tensors; inspect prints its value range")
	}
	return nil, fmt.Errorf("cannot draw a %d-D tensor (shape %s): show draws 1-D, 2-D and 3-D tensors; select one with --expr, e.g. --expr '%s'", len(shape), metadata.FormatShape(shape), "x["+strings.Repeat("0, ", len(shape)-4)+"0]")
}

// Line chart geometry: one column of pixels per value, at least minWidth
// and at most maxWidth wide, chartHeight high, with a margin.
const (
	chartHeight = 120
	chartMargin = 4
	minWidth    = 200
	maxWidth    = 1024
)

// lineChart draws the values left to right as a black polyline on white,
// value s.lo at the bottom and s.hi at the top. More than maxWidth values
// are drawn as the span from the minimum to the maximum of the values
// under each pixel column.
func lineChart(vals []float64, s scale) image.Image {
	if len(vals) > maxWidth {
		return bandChart(vals, s)
	}
	step := max(1, (minWidth+len(vals)-1)/max(len(vals), 1))
	w := max(len(vals)*step, 1) + 2*chartMargin
	img := image.NewGray(image.Rect(0, 0, w, chartHeight))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	py := func(v float64) int {
		b := float64(s.byte(v)) / 255
		return chartMargin + int(math.Round((1-b)*float64(chartHeight-1-2*chartMargin)))
	}
	prevX, prevY := -1, 0
	for i, v := range vals {
		x, y := chartMargin+i*step, py(v)
		if prevX >= 0 {
			drawLine(img, prevX, prevY, x, y)
		} else {
			img.SetGray(x, y, color.Gray{})
		}
		prevX, prevY = x, y
	}
	return img
}

// chartY returns the pixel row of v in a chart scaled by s.
func chartY(v float64, s scale) int {
	b := float64(s.byte(v)) / 255
	return chartMargin + int(math.Round((1-b)*float64(chartHeight-1-2*chartMargin)))
}

// bandChart draws the values in maxWidth pixel columns, each a vertical
// segment from the minimum to the maximum of its values (NaN skipped),
// joined to the next column's span so the trace has no gaps.
func bandChart(vals []float64, s scale) image.Image {
	w := maxWidth + 2*chartMargin
	img := image.NewGray(image.Rect(0, 0, w, chartHeight))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	prevLo, prevHi := -1, -1
	n := int64(len(vals)) // c*n overflows a 32-bit int
	for c := range int64(maxWidth) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range vals[c*n/maxWidth : (c+1)*n/maxWidth] {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
		if lo > hi {
			prevLo = -1
			continue
		}
		top, bottom := chartY(hi, s), chartY(lo, s)
		if prevLo >= 0 {
			// Overlap the previous span: a step becomes a vertical line.
			top, bottom = min(top, prevHi), max(bottom, prevLo)
		}
		x := chartMargin + int(c)
		for y := top; y <= bottom; y++ {
			img.Pix[y*img.Stride+x] = 0
		}
		prevLo, prevHi = chartY(lo, s), chartY(hi, s)
	}
	return img
}

// drawLine draws a black segment with Bresenham's algorithm.
func drawLine(img *image.Gray, x0, y0, x1, y1 int) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		img.SetGray(x0, y0, color.Gray{})
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(x int) int { return max(x, -x) }

func sign(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
