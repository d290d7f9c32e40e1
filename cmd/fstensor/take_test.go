package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

func TestParseRowList(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []int64
		err  bool
	}{
		{name: "list", in: "5,17,9", want: []int64{5, 17, 9}},
		{name: "repeats and spaces", in: " 3 , 3,0 ", want: []int64{3, 3, 0}},
		{name: "largest", in: "9223372036854775807", want: []int64{1<<63 - 1}},
		{name: "empty", in: "", err: true},
		{name: "empty item", in: "1,,2", err: true},
		{name: "trailing comma", in: "5,", err: true},
		{name: "negative", in: "4,-1", err: true},
		{name: "overflow", in: "9223372036854775808", err: true},
		{name: "not a number", in: "1e3", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseRowList(tt.in)
			if tt.err {
				if !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, errUsage) {
					t.Fatalf("parseRowList(%q) = %v, %v; want a usage error wrapping arrow.ErrInvalid", tt.in, got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("parseRowList(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// FuzzParseRowList: no panic, errors wrap arrow.ErrInvalid, and a list
// parsed prints back (joined by commas) to a list that parses the same.
func FuzzParseRowList(f *testing.F) {
	f.Add("5,17,9")
	f.Fuzz(func(t *testing.T, s string) {
		rows, err := parseRowList(s)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("parseRowList(%q): %v does not wrap arrow.ErrInvalid", s, err)
			}
			return
		}
		var b strings.Builder
		for i, r := range rows {
			if r < 0 {
				t.Fatalf("parseRowList(%q) gave row %d", s, r)
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strings.TrimSpace(strings.Split(s, ",")[i]))
		}
		again, err := parseRowList(b.String())
		if err != nil || !slices.Equal(rows, again) {
			t.Fatalf("parseRowList(%q) = %v, and of %q = %v, %v", s, rows, b.String(), again, err)
		}
	})
}

func TestSampleRows(t *testing.T) {
	tests := []struct {
		name     string
		n, count int64
	}{
		{name: "none", n: 0, count: 0},
		{name: "some", n: 10, count: 1000},
		{name: "all", n: 50, count: 50},
		{name: "of many", n: 5, count: 1 << 40},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := sampleRows(tt.n, tt.count, 7)
			if diff := cmp.Diff(got, sampleRows(tt.n, tt.count, 7)); diff != "" {
				t.Errorf("the same seed drew other rows (-first +second):\n%s", diff)
			}
			seen := map[int64]bool{}
			for _, r := range got {
				if r < 0 || r >= tt.count || seen[r] {
					t.Fatalf("sampleRows(%d, %d) = %v: a row repeats or is out of range", tt.n, tt.count, got)
				}
				seen[r] = true
			}
			if int64(len(got)) != tt.n {
				t.Errorf("sampleRows(%d, %d) gave %d rows", tt.n, tt.count, len(got))
			}
		})
	}
	if slices.IsSorted(sampleRows(20, 1000, 7)) {
		t.Errorf("rows come sorted, not in the order drawn")
	}
}

// writeIDs writes the values as a 1-D .npy array of T to path.
func writeIDs[T int32 | int64 | float32](t *testing.T, path string, elem arrow.DataType, shape []int, values []T) {
	t.Helper()
	typ := fixedshape.MustNewType(elem, metadata.MustNew(shape, nil, nil))
	a, err := fixedshape.FromSlice(typ, values, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := npy.WriteTensor(f, a, 0); err != nil {
		t.Fatal(err)
	}
}

// TestTakeBinary runs take through the built binary and compares what it
// writes with the rows of the input read whole.
func TestTakeBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	in := sample("embeddings.arrow")
	writeIDs(t, filepath.Join(dir, "ids64.npy"), arrow.PrimitiveTypes.Int64, []int{3}, []int64{15, 0, 15})
	writeIDs(t, filepath.Join(dir, "ids32.npy"), arrow.PrimitiveTypes.Int32, []int{2}, []int32{2, 7})
	writeIDs(t, filepath.Join(dir, "ids2d.npy"), arrow.PrimitiveTypes.Int64, []int{1, 2}, []int64{2, 7})
	writeIDs(t, filepath.Join(dir, "idsf.npy"), arrow.PrimitiveTypes.Float32, []int{2}, []float32{2, 7})
	tests := []struct {
		name string
		args []string
		rows []int64 // nil: the number drawn by --sample
		code int
		in   string // default embeddings.arrow, the only one read back
		out  string // default out.arrow
	}{
		{name: "rows", args: []string{"--rows", "5,1,5"}, rows: []int64{5, 1, 5}},
		{name: "rows to parquet", args: []string{"--rows", "15,0", "--to", "parquet"}, rows: []int64{15, 0}},
		{name: "rows-from int64", args: []string{"--rows-from", filepath.Join(dir, "ids64.npy")}, rows: []int64{15, 0, 15}},
		{name: "rows-from int32", args: []string{"--rows-from", filepath.Join(dir, "ids32.npy")}, rows: []int64{2, 7}},
		{name: "sample", args: []string{"--sample", "16", "--seed", "3"}},
		{name: "out of range", args: []string{"--rows", "3,16"}, code: 1},
		{name: "negative", args: []string{"--rows", "-1"}, code: 2},
		{name: "no rows flag", args: nil, code: 2},
		{name: "two rows flags", args: []string{"--rows", "1", "--sample", "1"}, code: 2},
		{name: "sample too many", args: []string{"--sample", "17"}, code: 2},
		{name: "rows-from 2-D", args: []string{"--rows-from", filepath.Join(dir, "ids2d.npy")}, code: 2},
		{name: "rows-from float", args: []string{"--rows-from", filepath.Join(dir, "idsf.npy")}, code: 2},
		{name: "unknown column", args: []string{"--rows", "1", "--column", "nope"}, code: 2},
		// The .npy writer fails at Close, once the temporary file is written.
		{name: "null to npy", args: []string{"--rows", "0,1,2"}, code: 1, in: sample("nulls.arrow"), out: "out.npy"},
	}
	want := readTable(t, in)
	defer release(want)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sub := t.TempDir()
			src, out := in, filepath.Join(sub, "out.arrow")
			if tt.in != "" {
				src, out = tt.in, filepath.Join(sub, tt.out)
			}
			cmd := exec.Command(bin, append([]string{"take", src, "-o", out}, tt.args...)...)
			msg, err := cmd.CombinedOutput()
			code := 0
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Fatalf("exit code %d, want %d: %s", code, tt.code, msg)
			}
			ents, _ := os.ReadDir(sub)
			if code != 0 {
				if len(ents) != 0 {
					t.Errorf("a failed take left %v", ents)
				}
				return
			}
			var opts []tensorio.Option
			if slices.Contains(tt.args, "parquet") {
				opts = append(opts, tensorio.WithFormat(tensorio.Parquet))
			}
			got := readTable(t, out, opts...)
			defer release(got)
			if tt.rows == nil { // --sample 16 of 16: every row once
				if got[0].Len() != 16 {
					t.Fatalf("--sample 16 gave %d rows", got[0].Len())
				}
				return
			}
			for j := range want {
				if got[j].Len() != len(tt.rows) {
					t.Fatalf("column %d has %d rows, want %d", j, got[j].Len(), len(tt.rows))
				}
				for i, r := range tt.rows {
					if !array.SliceEqual(want[j], r, r+1, got[j], int64(i), int64(i+1)) {
						t.Errorf("column %d row %d is not row %d of the input", j, i, r)
					}
				}
			}
		})
	}
}

// readTable reads every column of the file at path, concatenated.
func readTable(t *testing.T, path string, opts ...tensorio.Option) []arrow.Array {
	t.Helper()
	r, err := tensorio.Open(path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	chunks := make([][]arrow.Array, r.Schema().NumFields())
	for r.Next() {
		for j := range chunks {
			c := r.RecordBatch().Column(j)
			c.Retain()
			chunks[j] = append(chunks[j], c)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	out := make([]arrow.Array, len(chunks))
	for j, cs := range chunks {
		out[j], err = array.Concatenate(cs, memory.DefaultAllocator)
		release(cs)
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func release(as []arrow.Array) {
	for _, a := range as {
		a.Release()
	}
}
