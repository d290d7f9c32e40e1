package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/tensorio"
)

// TestDatasetCommands writes images.arrow as a dataset partitioned by
// label and reads it back through every command.
func TestDatasetCommands(t *testing.T) {
	dir := t.TempDir()
	ds := filepath.Join(dir, "images")
	in := readTable(t, sample("images.arrow"))
	defer release(in)
	labels := in[1].(*array.Int64).Int64Values()
	if code, _, stderr := runCmd(t, "convert", sample("images.arrow"), "-o", ds+"/", "--partition-by", "label", "--target-file-mib", "1", "--compression", "zstd"); code != 0 {
		t.Fatalf("convert to a dataset: exit %d: %s", code, stderr)
	}
	var files []string
	filepath.WalkDir(ds, func(p string, e os.DirEntry, err error) error {
		if err == nil && !e.IsDir() {
			r, _ := filepath.Rel(ds, p)
			files = append(files, filepath.ToSlash(r))
		}
		return nil
	})
	var want []string
	for _, l := range labels {
		f := "label=" + string(rune('0'+l)) + "/part-00000.parquet"
		if !slices.Contains(want, f) {
			want = append(want, f)
		}
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, files); diff != "" {
		t.Fatalf("dataset files (-want +got)\n%s", diff)
	}

	tests := []struct {
		name string
		args []string
		out  string // a file the command writes, read back
		rows int
	}{
		{name: "convert a directory", args: []string{"convert", ds, "-o", filepath.Join(dir, "all.arrow")}, out: "all.arrow", rows: 8},
		{name: "convert a glob", args: []string{"convert", filepath.Join(ds, "label=1", "*.parquet"), "-o", filepath.Join(dir, "one.arrow")}, out: "one.arrow", rows: strings.Count(string(labelString(labels)), "1")},
		{name: "take", args: []string{"take", ds, "--rows", "7,0,7", "-o", filepath.Join(dir, "t.arrow")}, out: "t.arrow", rows: 3},
		{name: "take a sample of a glob", args: []string{"take", filepath.Join(ds, "**", "*.parquet"), "--sample", "5", "-o", filepath.Join(dir, "s.arrow")}, out: "s.arrow", rows: 5},
		{name: "eval", args: []string{"eval", "x.max()", ds, "--column", "image", "-o", filepath.Join(dir, "m.arrow")}, out: "m.arrow", rows: 8},
		{name: "rows of a dataset", args: []string{"convert", ds, "--rows", "2:6", "-o", filepath.Join(dir, "r.parquet")}, out: "r.parquet", rows: 4},
		{name: "inspect", args: []string{"inspect", ds}},
		{name: "search", args: []string{"search", ds, "--query-row", sample("images.arrow") + ":3", "-k", "2", "--metric", "l2"}},
		{name: "show", args: []string{"show", ds, "--grid", "4", "-o", filepath.Join(dir, "g.png")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if tt.out == "" {
				return
			}
			got := readTable(t, filepath.Join(dir, tt.out))
			defer release(got)
			if got[0].Len() != tt.rows {
				t.Errorf("%s has %d rows, want %d", tt.out, got[0].Len(), tt.rows)
			}
		})
	}

	t.Run("into a directory that is not empty", func(t *testing.T) {
		code, _, stderr := runCmd(t, "convert", sample("images.arrow"), "-o", ds+"/")
		if code == 0 || !strings.Contains(stderr, "not empty") {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
	t.Run("a file named with a star", func(t *testing.T) {
		star := filepath.Join(dir, "a*.arrow")
		copyFile(t, sample("images.arrow"), star)
		if code, _, stderr := runCmd(t, "convert", star, "-o", filepath.Join(dir, "star.parquet")); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if tensorio.IsDatasetPath(star) {
			t.Errorf("%s is read as a dataset", star)
		}
	})
}

// labelString returns the labels as digits.
func labelString(labels []int64) []byte {
	var b []byte
	for _, l := range labels {
		b = append(b, byte('0'+l))
	}
	return b
}
