package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/fstensor/fstensor/tensorio"
)

// writeNpy writes float32 data of the given shape as a .npy file.
func writeNpy(t *testing.T, path string, shape []int, data []float32) {
	t.Helper()
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", tuple)
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	var b bytes.Buffer
	b.WriteString("\x93NUMPY\x01\x00")
	_ = binary.Write(&b, binary.LittleEndian, uint16(len(header)))
	b.WriteString(header)
	_ = binary.Write(&b, binary.LittleEndian, data)
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// searchFixture is an IPC file of 500 embeddings of shape (4,6) stored
// transposed (every 9th null) in batches of 128, and query files.
type searchFixture struct {
	col        *fixedshape.Array // the file's column
	typ, qtyp  *fixedshape.Type  // of the column and of the queries
	emb        string            // the IPC file
	one, batch string            // .npy files of one query and of 3
	qdata      []float32         // the 3 queries, in logical order
	row7       []float32         // row 7 of the column, in logical order
}

// newSearchFixture writes the files of a searchFixture into dir.
func newSearchFixture(t *testing.T, dir string) searchFixture {
	t.Helper()
	const n, d = 500, 24
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]float32, n*d)
	for i := range data {
		data[i] = float32(r.IntN(9) - 4) // small integers: exact scores and ties
	}
	valid := make([]bool, n)
	for i := range valid {
		valid[i] = i%9 != 4
	}
	fx := searchFixture{
		typ:  fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 6}, nil, []int{1, 0})),
		qtyp: fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4, 6}, nil, nil)),
		emb:  filepath.Join(dir, "emb.arrow"),
	}
	var err error
	if fx.col, err = fixedshape.FromSlice(fx.typ, data, valid); err != nil {
		t.Fatal(err)
	}
	schema := arrow.NewSchema([]arrow.Field{{Name: "emb", Type: fx.typ, Nullable: true}}, nil)
	w, err := tensorio.Create(fx.emb, schema)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 128 {
		s := array.NewSlice(fx.col, int64(i), int64(min(i+128, n)))
		rec := array.NewRecordBatch(schema, []arrow.Array{s}, int64(s.Len()))
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
		s.Release()
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	// Queries in logical order, as .npy files: one tensor and a batch of 3.
	fx.qdata = make([]float32, 3*d)
	for i := range fx.qdata {
		fx.qdata[i] = float32(r.IntN(9) - 4)
	}
	fx.one, fx.batch = filepath.Join(dir, "q1.npy"), filepath.Join(dir, "q3.npy")
	writeNpy(t, fx.one, []int{4, 6}, fx.qdata[:d])
	writeNpy(t, fx.batch, []int{3, 4, 6}, fx.qdata)
	c, _ := fixedshape.ColumnOf[float32](fx.col)
	fx.row7 = c.Tensor(7).AppendLogical(make([]float32, 0, d))
	return fx
}

// want returns the hits of package search for the queries q.
func (fx searchFixture) want(t *testing.T, q []float32, k int, m search.Metric) [][]search.Hit {
	t.Helper()
	qa, err := fixedshape.FromSlice(fx.qtyp, q, nil)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := search.NewTopK(fx.typ, qa, k, m)
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.Add(fx.col); err != nil {
		t.Fatal(err)
	}
	return tk.Results()
}

// TestSearchCommand runs search through the built binary on a
// searchFixture, and checks its rows and scores against package search on
// the same column.
func TestSearchCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	fx := newSearchFixture(t, t.TempDir())
	emb, one, batch, qdata, d := fx.emb, fx.one, fx.batch, fx.qdata, len(fx.row7)
	for _, tc := range []struct {
		name string
		args []string
		q    []float32
		k    int
		m    search.Metric
		base int64
	}{
		{"npy-one/dot", []string{"--query", one}, qdata[:d], 10, search.MetricDot, 0},
		{"npy-batch/l2", []string{"--query", batch, "--metric", "l2", "-k", "7"}, qdata, 7, search.MetricL2, 0},
		{"npy-batch/cosine", []string{"--query", batch, "--metric", "cosine", "-k", "3", "--column", "emb"}, qdata, 3, search.MetricCosine, 0},
		{"query-row/sqeuclidean", []string{"--query-row", emb + ":7", "--metric", "sqeuclidean", "-k", "5"}, fx.row7, 5, search.MetricSquaredL2, 0},
		{"k>rows", []string{"--query", one, "-k", "1000"}, qdata[:d], 1000, search.MetricDot, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := exec.Command(bin, append([]string{"search", emb, "--json"}, tc.args...)...).CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var got searchJSON
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			var wantJSON searchJSON
			wantJSON.Metric, wantJSON.Column, wantJSON.K = tc.m.String(), "emb", tc.k
			for j, hs := range fx.want(t, tc.q, tc.k, tc.m) {
				q := queryJSON{Query: j, Hits: []hitJSON{}}
				for _, h := range hs {
					q.Hits = append(q.Hits, hitJSON{Row: h.Row + tc.base, Score: jsonFloat(h.Score)})
				}
				wantJSON.Queries = append(wantJSON.Queries, q)
			}
			if diff := cmp.Diff(wantJSON, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	t.Run("text/rows", func(t *testing.T) {
		out, err := exec.Command(bin, "search", emb, "--query", one, "-k", "2", "--rows", "100:200").CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		if len(lines) != 3 || strings.Fields(lines[0])[3] != "dot" {
			t.Fatalf("output:\n%s", out)
		}
		sub := array.NewSlice(fx.col, 100, 200)
		defer sub.Release()
		qa, _ := fixedshape.FromSlice(fx.qtyp, qdata[:d], nil)
		hits, err := search.Search(oneBatch(t, sub.(*fixedshape.Array)), qa, 2, search.MetricDot)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range hits[0] {
			f := strings.Fields(lines[i+1])
			if want := []string{"0", strconv.Itoa(i + 1), strconv.FormatInt(h.Row+100, 10), strconv.FormatFloat(h.Score, 'g', -1, 32)}; !cmp.Equal(want, f) {
				t.Errorf("line %d = %q, want %q", i+1, f, want)
			}
		}
	})
	testSearchErrors(t, bin, fx)
}

// testSearchErrors checks the exit codes and messages of search's usage
// and input errors.
func testSearchErrors(t *testing.T, bin string, fx searchFixture) {
	emb, one := fx.emb, fx.one
	dir := filepath.Dir(emb)
	bad := filepath.Join(dir, "bad.npy")
	writeNpy(t, bad, []int{5}, make([]float32, 5))
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"no-query", nil, 2, "one of --query"},
		{"both-queries", []string{"--query", one, "--query-row", emb + ":1"}, 2, "one of --query"},
		{"bad-metric", []string{"--query", one, "--metric", "manhattan"}, 2, "--metric"},
		{"negative-k", []string{"--query", one, "-k", "-1"}, 2, "negative"},
		{"bad-row-spec", []string{"--query-row", emb}, 2, "FILE2:ROW"},
		{"row-past-end", []string{"--query-row", emb + ":900"}, 2, "no row 900"},
		{"query-shape", []string{"--query", bad}, 2, "shape"},
		{"no-column", []string{"--query", one, "--column", "nope"}, 2, "nope"},
		{"missing-query-file", []string{"--query", filepath.Join(dir, "none.npy")}, 1, "no such file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, append([]string{"search", emb}, tc.args...)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) || strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, stderr.String(), tc.code, tc.stderr)
			}
		})
	}
}

func oneBatch(t *testing.T, a *fixedshape.Array) array.RecordReader {
	t.Helper()
	schema := arrow.NewSchema([]arrow.Field{{Name: "emb", Type: a.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len()))
	defer rec.Release()
	rr, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
	if err != nil {
		t.Fatal(err)
	}
	return rr
}
