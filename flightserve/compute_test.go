package flightserve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

// TestTicketComputing evaluates in tickets the computations the README
// shows (normalize, standardize, a mask, softmax, a projection by a
// loaded matrix, a distance between two columns), and graphs over a
// variable-shape column, and compares each
// result with the same program evaluated on the local file.
func TestTicketComputing(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"embeddings.arrow", "images.arrow", "pairs.arrow", "proj.npy", "varshape/sizes.arrow"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	c := dial(t, serve(t, flightserve.Config{Dir: dir, Allocator: mem}))
	ctx := testCtx(t)
	load := func(name string) (expr.Const, error) {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			return expr.Const{}, err
		}
		defer f.Close()
		return npy.ReadConst(f)
	}
	for _, tc := range []struct{ name, path, text string }{
		{"normalize", "embeddings.arrow", "x / norm(x, axis=-1, keepdims=True)"},
		{"standardize", "images.arrow", "(x.astype(float32) - x.astype(float32).mean(axis=(0, 1), keepdims=True)) / x.astype(float32).std(axis=(0, 1), keepdims=True)"},
		{"mask", "images.arrow", "where(x > 128, x, 0)"},
		{"softmax", "embeddings.arrow", "exp(x - x.max()) / exp(x - x.max()).sum()"},
		{"projection", "pairs.arrow", `q @ load("proj.npy")`},
		{"distance", "pairs.arrow", "norm(q - d, axis=-1)"},
		{"variable-shape standardize", "sizes.arrow", "(x - x.mean(axis=(0, 1), keepdims=True)) / (x.std(axis=(0, 1), keepdims=True) + 1)"},
		{"variable-shape mask counted", "sizes.arrow", "(x > 128).sum(axis=(0, 1))"},
		{"variable-shape per-row number", "sizes.arrow", "image.astype(float32).max() * id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := c.Get(ctx, flightserve.Ticket{Path: tc.path, Expr: tc.text})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			if !r.Next() {
				t.Fatalf("no batch: %v", r.Err())
			}
			got := r.RecordBatch()
			local, err := tensorio.Open(filepath.Join(dir, tc.path))
			if err != nil {
				t.Fatal(err)
			}
			defer local.Release()
			if !local.Next() {
				t.Fatal(local.Err())
			}
			rec := local.RecordBatch()
			opts := []expr.Option{expr.WithLoad(load)}
			for i, f := range rec.Schema().Fields() {
				if _, ok := f.Type.(arrow.ExtensionType); ok {
					opts = append(opts, expr.WithInput(rec.Schema().Field(i).Name))
					break
				}
			}
			p, err := expr.Compile(tc.text, rec.Schema(), opts...)
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			// The served batch holds the file's columns with the result in
			// place of x, or after them.
			wcol := want.Column(int(want.NumCols()) - 1)
			gcol := got.Column(int(got.NumCols()) - 1)
			if p.UsesX() {
				idx := got.Schema().FieldIndices(p.Input())
				gcol = got.Column(idx[0])
				wcol = want.Column(want.Schema().FieldIndices(p.Input())[0])
			}
			if !arrow.TypeEqual(wcol.DataType(), gcol.DataType()) || !array.Equal(wcol, gcol) {
				t.Errorf("served %v\nwant %v", gcol, wcol)
			}
		})
	}
	// load reads beneath the served directory only.
	for _, name := range []string{"../proj.npy", ".hidden.npy", filepath.Join(dir, "proj.npy"), "missing.npy"} {
		_, err := c.Get(ctx, flightserve.Ticket{Path: "pairs.arrow", Expr: `q @ load("` + name + `")`})
		if status.Code(err) != codes.InvalidArgument || strings.Contains(status.Convert(err).Message(), dir) {
			t.Errorf("load(%q): %v, want InvalidArgument naming no directory of the server", name, err)
		}
	}
}
