package main

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

const images = "../../testdata/images.arrow"

// expected computes the result from images.arrow by hand, element by
// element through the logical index: the crops, channels first, as
// physical values, and the means.
func expected(t *testing.T) (chw [][]uint8, means []float64) {
	t.Helper()
	r, err := arrowipc.OpenIPCFile(images)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	idx := r.Schema().FieldIndices("image")[0]
	for b := range r.NumRecords() {
		rec, err := r.RecordBatch(b)
		if err != nil {
			t.Fatal(err)
		}
		col, err := fixedshape.ColumnOf[uint8](rec.Column(idx).(*fixedshape.Array))
		if err != nil {
			t.Fatal(err)
		}
		for i := range col.Len() {
			x := col.Tensor(i)
			h, w, c := x.Dim(0), x.Dim(1), x.Dim(2)
			var out []uint8
			sum := 0.0
			for k := range c {
				for y := 4; y < h-4; y++ {
					for z := 4; z < w-4; z++ {
						out = append(out, x.At(y, z, k))
						sum += float64(x.At(y, z, k))
					}
				}
			}
			chw = append(chw, out)
			means = append(means, sum/float64(len(out)))
		}
		rec.Release()
	}
	return chw, means
}

// readOutput reads the chw and mean columns of the pipeline's output.
func readOutput(t *testing.T, path string) (shape []int, chw [][]uint8, means []float64) {
	t.Helper()
	var rr interface {
		Next() bool
		RecordBatch() arrow.RecordBatch
		Err() error
		Release()
	}
	if strings.HasSuffix(path, ".parquet") {
		pr, err := parquetconv.OpenFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rr = pr
	} else {
		fr, err := arrowipc.OpenIPCFile(path)
		if err != nil {
			t.Fatal(err)
		}
		defer fr.Close()
		recs := make([]arrow.RecordBatch, fr.NumRecords())
		for i := range recs {
			if recs[i], err = fr.RecordBatch(i); err != nil {
				t.Fatal(err)
			}
		}
		ar, err := array.NewRecordReader(fr.Schema(), recs)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			r.Release()
		}
		rr = ar
	}
	defer rr.Release()
	for rr.Next() {
		rec := rr.RecordBatch()
		col, err := fixedshape.ColumnOf[uint8](rec.Column(0).(*fixedshape.Array))
		if err != nil {
			t.Fatal(err)
		}
		shape = col.Array().TensorType().Shape()
		for i := range col.Len() {
			chw = append(chw, col.Tensor(i).AppendLogical(nil))
		}
		means = append(means, rec.Column(1).(*array.Float64).Float64Values()...)
	}
	if err := rr.Err(); err != nil {
		t.Fatal(err)
	}
	return shape, chw, means
}

func TestPipeline(t *testing.T) {
	wantCHW, wantMeans := expected(t)
	dir := t.TempDir()
	pq := filepath.Join(dir, "images.parquet")
	for _, tt := range []struct{ name, in, out string }{
		{"arrow to parquet", images, filepath.Join(dir, "a.parquet")},
		{"arrow to arrow", images, filepath.Join(dir, "a.arrow")},
		{"parquet to arrow", pq, filepath.Join(dir, "b.arrow")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.in == pq {
				// A Parquet input made from images.arrow by the pipeline's
				// own reader and writer.
				convert(t, images, pq)
			}
			// The program allocates from memory.DefaultAllocator: a checked
			// one in its place shows leaks. Not for a Parquet output, whose
			// arrow-go column writers keep level buffers from
			// DefaultAllocator in a sync.Pool for later writers.
			prev := memory.DefaultAllocator
			if !strings.HasSuffix(tt.out, ".parquet") {
				mem := testvec.CheckedMem(t)
				memory.DefaultAllocator = mem
			}
			err := run(tt.in, tt.out)
			memory.DefaultAllocator = prev
			if err != nil {
				t.Fatal(err)
			}
			shape, chw, means := readOutput(t, tt.out)
			if diff := cmp.Diff([]int{3, 24, 24}, shape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantCHW, chw); diff != "" {
				t.Errorf("tensors (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(wantMeans, means, cmp.Comparer(func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Abs(a) })); diff != "" {
				t.Errorf("means (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPipelineFailureKeepsOutput checks that a failing run leaves an
// existing output as it was and no temporary file.
func TestPipelineFailureKeepsOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.arrow")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run("../../testdata/permuted.arrow", out); err == nil {
		t.Fatal("no error for a file without an image column")
	}
	if err := run(images, filepath.Join(dir, "out.csv")); err == nil {
		t.Fatal("no error for an unknown output format")
	}
	if b, err := os.ReadFile(out); err != nil || string(b) != "old" {
		t.Errorf("output now %q, %v", b, err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("files left: %v", ents)
	}
}

// convert copies a file into another format with tensorio.
func convert(t *testing.T, in, out string) {
	t.Helper()
	r, err := tensorio.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Release()
	w, err := tensorio.Create(out, r.Schema())
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for r.Next() {
		if err := w.Write(r.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestCommand runs the program as CI and docs/computing.md do.
func TestCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.parquet")
	cmd := exec.Command("go", "run", ".", images, out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	_, chw, means := readOutput(t, out)
	wantCHW, wantMeans := expected(t)
	if len(chw) != len(wantCHW) || len(means) != len(wantMeans) {
		t.Errorf("%d tensors and %d means, want %d", len(chw), len(means), len(wantCHW))
	}
	b, _ := exec.Command("go", "run", ".").CombinedOutput()
	if !strings.Contains(string(b), "usage: pipeline IN OUT") {
		t.Errorf("without arguments: %s", b)
	}
}

// TestREADME checks that the pipeline section of docs/computing.md shows
// this program's code.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../../docs/computing.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Pipeline\n.*?```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("docs/computing.md has no Go block under ## Pipeline")
	}
	if !strings.Contains(string(src), string(m[1])) {
		t.Errorf("the pipeline code of docs/computing.md is not in main.go:\n%s", m[1])
	}
}
