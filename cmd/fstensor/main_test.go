package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
)

func runCmd(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func sample(name string) string { return filepath.Join("..", "..", "testdata", name) }

// readPNG decodes the PNG file at path.
func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func TestUsage(t *testing.T) {
	code, out, _ := runCmd(t)
	if code != 0 || !strings.Contains(out, "fstensor inspect") {
		t.Errorf("no arguments: code %d, output %q", code, out)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"unknown command", []string{"frobnicate"}, 2},
		{"inspect without file", []string{"inspect"}, 2},
		{"unknown flag", []string{"inspect", "--bogus", sample("images.arrow")}, 2},
		{"missing file", []string{"inspect", "no-such-file.arrow"}, 1},
		{"unknown extension", []string{"inspect", "file.txt"}, 2},
		{"convert bad compression", []string{"convert", sample("images.arrow"), filepath.Join(t.TempDir(), "x.arrow"), "--compression", "gzip"}, 2},
		{"convert nulls to zio", []string{"convert", sample("nulls.arrow"), filepath.Join(t.TempDir(), "x.zio")}, 1},
		{"convert two columns to npy", []string{"convert", sample("images.arrow"), filepath.Join(t.TempDir(), "x.npy")}, 2},
		{"convert unknown --to", []string{"convert", sample("images.arrow"), filepath.Join(t.TempDir(), "x"), "--to", "hdf5"}, 2},
		{"convert unknown column", []string{"convert", sample("images.arrow"), filepath.Join(t.TempDir(), "x.arrow"), "--column", "nope"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.HasPrefix(stderr, "fstensor: ") {
				t.Errorf("code %d, stderr %q; want code %d", code, stderr, tt.code)
			}
		})
	}
}

func TestInspect(t *testing.T) {
	code, out, stderr := runCmd(t, "inspect", sample("permuted.arrow"))
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	for _, want := range []string{"arrow", "tensor float64 (4,3,2)", "permutation     [2 0 1]", "physical shape  (3,2,4)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, stderr = runCmd(t, "inspect", "--json", sample("nulls.arrow"))
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	if len(rep.Columns) != 1 || !rep.Columns[0].Tensor || rep.Columns[0].Stats == nil || rep.Columns[0].Stats.Nulls != 3 {
		t.Errorf("report %+v", rep)
	}
}

// TestConvertRoundTrip converts a sample through every format and back to
// an IPC file and compares the tensor column with the original.
func TestConvertRoundTrip(t *testing.T) {
	for _, tc := range []struct{ sample, column, via string }{
		{"permuted.arrow", "", "arrows"},
		{"permuted.arrow", "", "parquet"},
		{"images.arrow", "", "parquet"},
		{"embeddings.arrow", "embedding", "npy"},
		{"images.arrow", "image", "npy"},
		{"permuted.arrow", "", "pb"},
		{"images.arrow", "image", "zio"},
		{"permuted.arrow", "", "zio"},
		{"embeddings.arrow", "embedding", "dt"},
		{"permuted.arrow", "", "dt"},
	} {
		t.Run(tc.sample+"/via="+tc.via, func(t *testing.T) {
			dir := t.TempDir()
			mid := filepath.Join(dir, "mid."+tc.via)
			back := filepath.Join(dir, "back.arrow")
			args := []string{"convert", sample(tc.sample), mid, "--compression", "zstd"}
			if tc.via != "arrows" && tc.via != "parquet" {
				args = args[:3]
			}
			if tc.column != "" {
				args = append(args, "--column", tc.column)
			}
			if code, _, stderr := runCmd(t, args...); code != 0 {
				t.Fatalf("convert to %s: %s", tc.via, stderr)
			}
			if code, _, stderr := runCmd(t, "convert", mid, back); code != 0 {
				t.Fatalf("convert back: %s", stderr)
			}
			want := readTensorColumn(t, sample(tc.sample), tc.column)
			defer want.Release()
			got := readTensorColumn(t, back, "")
			defer got.Release()
			if !fixedshape.Equal(want, got) {
				t.Errorf("values differ after %s:\n%v\n%v", tc.via, want, got)
			}
		})
	}
}

// readTensorColumn reads the named (or first) tensor column of all batches
// of an IPC file, concatenated.
func readTensorColumn(t *testing.T, path, name string) *fixedshape.Array {
	t.Helper()
	in, err := openInput(path, "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	idx := tensorColumnIndex(in.Schema(), name)
	if idx < 0 {
		t.Fatalf("%s has no tensor column %q", path, name)
	}
	out, err := concatColumn(in, idx, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*fixedshape.Array)
}

func TestCorruptInput(t *testing.T) {
	data, err := os.ReadFile(sample("permuted.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{
		"truncated.arrow": data[:len(data)/2],
		"garbage.arrows":  []byte("not an arrow stream at all"),
		"garbage.parquet": []byte("PAR1 nonsense PAR1"),
		"garbage.npy":     []byte("\x93NUMPY\x01\x00\x10\x00{'descr': 'zz'}"),
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runCmd(t, "inspect", p); code != 1 {
			t.Errorf("%s: code %d, stderr %q; want 1", name, code, stderr)
		}
	}
}

func TestEval(t *testing.T) {
	out := filepath.Join(t.TempDir(), "small.arrow")
	code, _, stderr := runCmd(t, "eval", "x[::2, ::2].transpose(2, 0, 1)", sample("images.arrow"), "-o", out, "--compression", "lz4")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "image: uint8 (32,32,3) -> (3,16,16)") {
		t.Errorf("stderr %q lacks the shape summary", stderr)
	}
	src := readTensorColumn(t, sample("images.arrow"), "image")
	defer src.Release()
	dst := readTensorColumn(t, out, "image")
	defer dst.Release()
	sc, _ := fixedshape.ColumnOf[uint8](src)
	dc, err := fixedshape.ColumnOf[uint8](dst)
	if err != nil {
		t.Fatal(err)
	}
	if dc.Len() != sc.Len() {
		t.Fatalf("%d rows, want %d", dc.Len(), sc.Len())
	}
	for i := range sc.Len() {
		s, d := sc.Tensor(i), dc.Tensor(i)
		for c := range 3 {
			for h := range 16 {
				for w := range 16 {
					if d.At(c, h, w) != s.At(2*h, 2*w, c) {
						t.Fatalf("row %d [%d,%d,%d] = %d, want %d", i, c, h, w, d.At(c, h, w), s.At(2*h, 2*w, c))
					}
				}
			}
		}
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"syntax", []string{"eval", "x[:, 9", sample("images.arrow"), "-o", filepath.Join(t.TempDir(), "o.arrow")}, 1},
		{"out of range", []string{"eval", "x[:, 99]", sample("images.arrow"), "-o", filepath.Join(t.TempDir(), "o.arrow")}, 1},
		{"not a tensor column", []string{"eval", "x.T", sample("images.arrow"), "--column", "label", "-o", filepath.Join(t.TempDir(), "o.arrow")}, 2},
		{"no -o", []string{"eval", "x.T", sample("images.arrow")}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, _, stderr := runCmd(t, tt.args...); code != tt.code {
				t.Errorf("code %d (%s), want %d", code, stderr, tt.code)
			}
		})
	}
}

func TestShow(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
		w, h int
	}{
		{"rgb image", []string{sample("images.arrow"), "--column", "image", "--row", "3", "--scale", "1"}, 32, 32},
		{"one channel via expr", []string{sample("images.arrow"), "--row", "7", "--expr", "x[::2, :, 1]", "--scale", "1"}, 32, 16},
		{"chw layout", []string{sample("permuted.arrow"), "--row", "1", "--layout", "chw", "--range", "0,100", "--scale", "1"}, 2, 3},
		{"auto scale", []string{sample("images.arrow"), "--row", "3"}, 256, 256},
		{"auto scale, long side", []string{sample("permuted.arrow"), "--row", "1", "--layout", "chw"}, 128, 192},
		{"scale 3", []string{sample("images.arrow"), "--scale", "3"}, 96, 96},
		{"grid of 4", []string{sample("images.arrow"), "--grid", "4", "--scale", "1"}, 66, 66},
		{"grid of 3 from row 6", []string{sample("images.arrow"), "--grid", "3", "--row", "6", "--scale", "2"}, 130, 64},
		{"rows then row", []string{sample("images.arrow"), "--rows", "5:", "--row", "2", "--scale", "1"}, 32, 32},
		{"embedding line", []string{sample("embeddings.arrow"), "--column", "embedding"}, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".png")
			code, _, stderr := runCmd(t, append([]string{"show", "-o", out}, tt.args...)...)
			if code != 0 {
				t.Fatalf("code %d: %s", code, stderr)
			}
			img := readPNG(t, out)
			if b := img.Bounds(); tt.w > 0 && (b.Dx() != tt.w || b.Dy() != tt.h) {
				t.Errorf("image %dx%d, want %dx%d", b.Dx(), b.Dy(), tt.w, tt.h)
			}
		})
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
	}{
		{"null row", []string{sample("nulls.arrow"), "--row", "2"}, 1},
		{"row past the end", []string{sample("images.arrow"), "--row", "8"}, 2},
		{"bad range", []string{sample("images.arrow"), "--range", "5,1"}, 2},
		{"4-D", []string{sample("images.arrow"), "--expr", "x[None]"}, 1},
		{"0-D", []string{sample("images.arrow"), "--expr", "x[0, 0, 0]"}, 1},
		{"jpeg", []string{sample("images.arrow"), "-o", filepath.Join(dir, "x.jpg")}, 2},
		{"grid 0", []string{sample("images.arrow"), "--grid", "0"}, 2},
		{"row past --rows", []string{sample("images.arrow"), "--rows", "0:2", "--row", "2"}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, "err.png")
			if code, _, stderr := runCmd(t, append([]string{"show", "-o", out}, tt.args...)...); code != tt.code {
				t.Errorf("code %d (%s), want %d", code, stderr, tt.code)
			}
		})
	}
}
