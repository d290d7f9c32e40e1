// Command benchtool supports bench/run.sh: it prints the benchmark cases
// for numpy_bench.py and turns benchmark output into a Markdown report and
// SVG charts.
//
//	benchtool cases [-size small|large|all]
//	    prints bench.Cases and bench.MatrixCases of the sizes as JSON.
//	benchtool report [-o DIR] [-machine TEXT] [-command TEXT] FILE...
//	    reads Go benchmark lines (go test -bench, numpy_bench.py) from the
//	    files and writes DIR/results.md and DIR/materialize-float32.svg,
//	    DIR/materialize-float64.svg (medians over -count runs).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/fstensor/fstensor/bench"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "cases":
		err = casesCmd(os.Args[2:])
	case "report":
		err = reportCmd(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchtool:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: benchtool cases [-size small|large|all] | report [-o DIR] [-machine TEXT] [-command TEXT] FILE...")
	os.Exit(2)
}

func casesCmd(args []string) error {
	fs := flag.NewFlagSet("cases", flag.ExitOnError)
	size := fs.String("size", "all", "small, large or all")
	fs.Parse(args)
	sizes, err := bench.ParseSize(*size)
	if err != nil {
		return err
	}
	var cs []bench.Case
	for _, s := range sizes {
		cs = append(cs, bench.Cases(s)...)
		cs = append(cs, bench.MatrixCases(s)...)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	return enc.Encode(cs)
}
