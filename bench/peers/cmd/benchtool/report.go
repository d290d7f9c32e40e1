package main

import (
	"flag"
	"fmt"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// impls are the contenders of the materialization tables, in column order.
var impls = []struct{ key, title string }{
	{"expr", "fstensor (2 workers)"},
	{"expr-w1", "fstensor (1 worker)"},
	{"eval", "fstensor Eval (allocating)"},
	{"numpy", "NumPy"},
	{"gonum", "gonum mat"},
	{"gorgonia", "gorgonia tensor"},
	{"copy", "copy()"},
	{"relabel", "fstensor relabel (zero-copy)"},
}

// peerImpls are the contenders fstensor is compared with.
var peerImpls = []string{"numpy", "gonum", "gorgonia"}

func reportCmd(args []string) error {
	fs := flag.NewFlagSet("report", flag.ExitOnError)
	dir := fs.String("o", "out", "output directory")
	machine := fs.String("machine", "", "machine description for the report")
	command := fs.String("command", "", "the command that produced the results")
	fs.Parse(args)
	results, err := parseFiles(fs.Args())
	if err != nil {
		return err
	}
	if len(results) == 0 {
		return fmt.Errorf("no benchmark lines in %v", fs.Args())
	}
	var md strings.Builder
	fmt.Fprintf(&md, "# fstensor benchmark results\n\n")
	if *machine != "" {
		fmt.Fprintf(&md, "Machine: %s\n\n", *machine)
	}
	if *command != "" {
		fmt.Fprintf(&md, "Command: `%s`\n\n", *command)
	}
	fmt.Fprintf(&md, "Medians over the runs of each benchmark; throughput in GB/s (10^9 bytes of result per second); zero-copy results in time per call.\n\n")
	memcpy := memcpyLines(results)
	for _, dtype := range []string{"float32", "float64"} {
		rows := materializeRows(results, dtype)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&md, "## Materialization, %s\n\n", dtype)
		writeMaterializeTable(&md, rows)
		writeSlower(&md, rows)
		svg := "materialize-" + dtype + ".svg"
		if err := chart(filepath.Join(*dir, svg), dtype, rows, memcpy); err != nil {
			return err
		}
		fmt.Fprintf(&md, "![materialization %s](%s)\n\n", dtype, svg)
	}
	fmt.Fprintf(&md, "## Everything else\n\n| benchmark | time/op | throughput | allocs/op |\n|---|---:|---:|---:|\n")
	for _, r := range results {
		if r.group == "Materialize" {
			continue
		}
		fmt.Fprintf(&md, "| %s/%s | %s | %s | %.0f |\n", r.group, r.name, fmtNs(r.nsOp), fmtGBs(r.mbS), r.allocs)
	}
	return os.WriteFile(filepath.Join(*dir, "results.md"), []byte(md.String()), 0o644)
}

// row is one materialization case with every contender's result.
type row struct {
	name string // op=.../dtype=.../shape=...
	op   string
	by   map[string]*result
}

func materializeRows(results []*result, dtype string) []*row {
	var rows []*row
	index := map[string]*row{}
	for _, r := range results {
		if r.group != "Materialize" || r.keys["dtype"] != dtype {
			continue
		}
		name := withoutImpl(r.name)
		rw := index[name]
		if rw == nil {
			rw = &row{name: name, op: r.keys["op"], by: map[string]*result{}}
			index[name] = rw
			rows = append(rows, rw)
		}
		rw.by[r.keys["impl"]] = r
	}
	return rows
}

func writeMaterializeTable(md *strings.Builder, rows []*row) {
	var cols []int
	for i, im := range impls {
		for _, rw := range rows {
			if rw.by[im.key] != nil {
				cols = append(cols, i)
				break
			}
		}
	}
	md.WriteString("| case |")
	for _, i := range cols {
		md.WriteString(" " + impls[i].title + " |")
	}
	md.WriteString("\n|---|" + strings.Repeat("---:|", len(cols)) + "\n")
	for _, rw := range rows {
		md.WriteString("| " + strings.ReplaceAll(rw.name, "/", " ") + " |")
		for _, i := range cols {
			r := rw.by[impls[i].key]
			switch {
			case r == nil:
				md.WriteString(" |")
			case impls[i].key == "relabel" || r.mbS == 0:
				md.WriteString(" " + fmtNs(r.nsOp) + " |")
			default:
				md.WriteString(" " + fmtGBs(r.mbS) + " |")
			}
		}
		md.WriteString("\n")
	}
	md.WriteString("\n")
}

// writeSlower lists the cases where a peer beats fstensor's default
// (impl=expr) by more than 5%.
func writeSlower(md *strings.Builder, rows []*row) {
	var lines []string
	for _, rw := range rows {
		ours := rw.by["expr"]
		if ours == nil || ours.mbS == 0 {
			continue
		}
		for _, p := range peerImpls {
			if r := rw.by[p]; r != nil && r.mbS > ours.mbS*1.05 {
				lines = append(lines, fmt.Sprintf("- %s: %s %s vs fstensor %s (%.2fx)", rw.name, p, fmtGBs(r.mbS), fmtGBs(ours.mbS), r.mbS/ours.mbS))
			}
		}
	}
	if len(lines) == 0 {
		md.WriteString("fstensor (2 workers) is not slower than any peer here by more than 5%.\n\n")
		return
	}
	md.WriteString("Where fstensor (2 workers) is slower than a peer:\n\n" + strings.Join(lines, "\n") + "\n\n")
}

// memcpyLines returns the copy() bandwidth of one and two goroutines at
// the largest size measured, in MB/s (0 when not measured).
func memcpyLines(results []*result) [2]float64 {
	var out [2]float64
	for _, size := range []string{"small", "large"} {
		for _, r := range results {
			if r.group == "Memcpy" && r.keys["size"] == size {
				g, _ := strconv.Atoi(r.keys["goroutines"])
				if g == 1 || g == 2 {
					out[g-1] = r.mbS
				}
			}
		}
	}
	return out
}

// chart draws the throughput of each contender per operation, using for
// each operation its largest batch, with the copy() bandwidth as lines.
func chart(path, dtype string, rows []*row, memcpy [2]float64) error {
	// Keep the largest batch of each op and tensor shape.
	best := map[string]*row{}
	var keys []string
	for _, rw := range rows {
		shape := rw.by[firstImpl(rw)].keys["shape"]
		batch, tensor, _ := strings.Cut(shape, "x")
		key := rw.op + " " + tensor
		cur := best[key]
		if cur == nil {
			keys = append(keys, key)
		}
		if cur == nil || atoi(batch) > atoi(strings.SplitN(cur.by[firstImpl(cur)].keys["shape"], "x", 2)[0]) {
			best[key] = rw
		}
	}
	var contenders []string
	for _, im := range impls {
		if im.key == "relabel" || im.key == "eval" {
			continue
		}
		for _, k := range keys {
			if r := best[k].by[im.key]; r != nil && r.mbS > 0 {
				contenders = append(contenders, im.key)
				break
			}
		}
	}
	p := plot.New()
	p.Title.Text = "Materialization throughput, " + dtype + " (largest batch per case)"
	p.Y.Label.Text = "GB/s of result"
	p.NominalX(keys...)
	p.X.Tick.Label.Rotation = 0.6
	p.X.Tick.Label.XAlign = -0.9
	p.X.Tick.Label.YAlign = -0.2
	p.Legend.Top = true
	w := vg.Points(60) / vg.Length(len(contenders)+1)
	for i, c := range contenders {
		vals := make(plotter.Values, len(keys))
		for j, k := range keys {
			if r := best[k].by[c]; r != nil {
				vals[j] = r.mbS / 1000
			}
		}
		bars, err := plotter.NewBarChart(vals, w)
		if err != nil {
			return err
		}
		bars.LineStyle.Width = 0
		bars.Color = plotutil.Color(i)
		bars.Offset = w * vg.Length(2*i-len(contenders)+1) / 2
		p.Add(bars)
		p.Legend.Add(title(c), bars)
	}
	for g, v := range memcpy {
		if v == 0 {
			continue
		}
		line, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: v / 1000}, {X: float64(len(keys)) - 0.5, Y: v / 1000}})
		if err != nil {
			return err
		}
		line.Color = color.Black
		if g == 1 {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(line)
		p.Legend.Add(fmt.Sprintf("copy() bandwidth, %d goroutine(s)", g+1), line)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return p.Save(vg.Length(max(8, len(keys)))*vg.Inch*1.1, 6*vg.Inch, path)
}

func firstImpl(rw *row) string {
	keys := make([]string, 0, len(rw.by))
	for k := range rw.by {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[0]
}

func title(key string) string {
	for _, im := range impls {
		if im.key == key {
			return im.title
		}
	}
	return key
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func fmtGBs(mbs float64) string {
	if mbs == 0 {
		return ""
	}
	return fmt.Sprintf("%.2f GB/s", mbs/1000)
}

func fmtNs(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.2f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}
