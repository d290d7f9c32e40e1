package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestRecycledInput runs convert and eval on IPC and Parquet files of
// several batches (row groups) above hugepage.MinSize (uncompressed and
// ZSTD, with null tensors) with a new command allocator, then again after filling its
// kept mappings with poison bytes: the outputs must hold the input's
// values, and the allocator must keep a freed mapping for the next batch
// (the readers take its recycled variant) and leave none mapped.
func TestRecycledInput(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("hugepage maps buffers on Linux only")
	}
	const rows, dim, batches = 8200, 128, 4 // 4.2 MB a batch
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{dim}, nil, nil))
	vals := make([]float32, rows*dim)
	valid := make([]bool, rows)
	for i := range vals {
		vals[i] = float32(i%1000) - 500
	}
	for i := range valid {
		valid[i] = i%5 != 3
	}
	col, err := fixedshape.FromSlice(typ, vals, valid)
	if err != nil {
		t.Fatal(err)
	}
	defer col.Release()
	rec := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil), []arrow.Array{col}, rows)
	defer rec.Release()
	twice, err := applyExpr(col, "x * 2")
	if err != nil {
		t.Fatal(err)
	}
	defer twice.Release()
	for _, codec := range []arrowipc.Compression{arrowipc.Uncompressed, arrowipc.ZSTD} {
		t.Run("codec="+codec.String(), func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.arrow")
			var buf bytes.Buffer
			w, err := arrowipc.NewIPCFileWriter(&buf, rec.Schema(), arrowipc.WithCompression(codec))
			if err != nil {
				t.Fatal(err)
			}
			for range batches {
				if err := w.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(in, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			inPQ := filepath.Join(dir, "in.parquet")
			buf.Reset()
			pw, err := parquetconv.NewWriter(&buf, rec.Schema(), parquetconv.WithCompression(codec), parquetconv.WithRowGroupRows(rows))
			if err != nil {
				t.Fatal(err)
			}
			for range batches {
				if err := pw.Write(rec); err != nil {
					t.Fatal(err)
				}
			}
			if err := pw.Close(); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(inPQ, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			defer func(old *hugepage.Allocator) { mem = old }(mem)
			for _, tc := range []struct {
				name string
				args []string
				want *fixedshape.Array
			}{
				{"convert", []string{"convert", in, filepath.Join(dir, "convert.arrow")}, col},
				{"eval", []string{"eval", "x * 2", in, "-o", filepath.Join(dir, "eval.arrow")}, twice},
				{"convert parquet", []string{"convert", inPQ, filepath.Join(dir, "convert_pq.arrow")}, col},
				{"eval parquet", []string{"eval", "x * 2", inPQ, "-o", filepath.Join(dir, "eval_pq.arrow")}, twice},
			} {
				t.Run(tc.name, func(t *testing.T) {
					mem = newAllocator()
					defer mem.Trim()
					for _, poison := range []bool{false, true} {
						if poison {
							poisonKept(mem, 0xff)
						}
						if code, _, stderr := runCmd(t, tc.args...); code != 0 {
							t.Fatalf("%v: %s", tc.args, stderr)
						}
						if n, _ := mem.Kept(); n < 1 {
							t.Errorf("no freed mapping kept for the next batch")
						}
						if n, _ := mem.Mapped(); n != 0 {
							t.Errorf("%d buffers still mapped after the command", n)
						}
						checkBatches(t, tc.args[len(tc.args)-1], tc.want, batches)
					}
				})
			}
		})
	}
}

// poisonKept fills hugepage.MaxKept recycled mappings of a, of 6 MiB,
// with b and frees them, so that a keeps them for its next recycled
// allocations.
func poisonKept(a *hugepage.Allocator, b byte) {
	sizes := make([]int, hugepage.MaxKept)
	for k := range sizes {
		sizes[k] = 6 << 20
	}
	testvec.FillFreed(a.Recycled(), b, sizes...)
}

// checkBatches checks that the IPC file at path holds n batches, each
// with want as its first column, read into fresh memory.
func checkBatches(t *testing.T, path string, want *fixedshape.Array, n int) {
	t.Helper()
	r, err := arrowipc.OpenIPCFile(path, arrowipc.WithAllocator(memory.NewCheckedAllocator(memory.NewGoAllocator())))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.NumRecords() != n {
		t.Fatalf("%d batches, want %d", r.NumRecords(), n)
	}
	for i := range n {
		got, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		if g, ok := got.Column(0).(*fixedshape.Array); !ok || !fixedshape.Equal(want, g) {
			t.Errorf("batch %d differs from the input's values", i)
		}
		got.Release()
	}
}
