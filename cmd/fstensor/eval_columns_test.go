package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestEvalAddColumns checks that an expression naming columns adds its
// result as a new column (--as, default result) keeping the input's, and
// that -e NAME=EXPR adds several in one pass, with the values of the
// x-based expressions.
func TestEvalAddColumns(t *testing.T) {
	images := sample("images.arrow")
	dir := t.TempDir()
	ref := func(text, column string) string {
		out := filepath.Join(t.TempDir(), "ref.arrow")
		if code, _, stderr := runCmd(t, "eval", text, images, "--column", column, "-o", out); code != 0 {
			t.Fatalf("%s: code %d: %s", text, code, stderr)
		}
		a := readAnyColumn(t, out, column)
		defer a.Release()
		return a.String()
	}
	tests := []struct {
		name   string
		args   []string
		fields []string // the output columns
		want   map[string]string
	}{
		{"default name", []string{"eval", "image.max()", images}, []string{"image", "label", "result"},
			map[string]string{"result": ref("x.max()", "image")}},
		{"--as", []string{"eval", "image.astype(float32).mean(axis=(0, 1))", images, "--as", "m"}, []string{"image", "label", "m"},
			map[string]string{"m": ref("x.astype(float32).mean(axis=(0, 1))", "image")}},
		{"plain column", []string{"eval", "label * 2 + 1", images, "--as", "label"}, []string{"image", "label"},
			map[string]string{"label": "[1 3 5 1 3 5 1 3]"}},
		{"-e", []string{"eval", images, "-e", "lo=image.min()", "-e", "hi=x.max()", "-e", "n=norm(col(\"image\"), axis=(0, 1))"}, []string{"image", "label", "lo", "hi", "n"},
			map[string]string{"lo": ref("x.min()", "image"), "hi": ref("x.max()", "image"), "n": ref("norm(x, axis=(0, 1))", "image")}},
		{"-e graphs in one pass", []string{"eval", images, "-e", "n=(image > 100).sum()", "-e", "d=(image.astype(float32) - image.mean()).max()", "-e", "m=image.max()"},
			[]string{"image", "label", "n", "d", "m"},
			map[string]string{"n": ref("(x > 100).sum()", "image"), "d": ref("(x.astype(float32) - x.mean()).max()", "image"), "m": ref("x.max()", "image")}},
		{"x-based expression kept", []string{"eval", "x.max()", images}, []string{"image", "label"},
			map[string]string{"image": ref("x.max()", "image")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".arrow")
			code, _, stderr := runCmd(t, append(tt.args, "-o", out)...)
			if code != 0 {
				t.Fatalf("code %d: %s", code, stderr)
			}
			in, err := openInput(out, "", false)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, f := range in.Schema().Fields() {
				names = append(names, f.Name)
			}
			in.Close()
			if diff := cmp.Diff(tt.fields, names); diff != "" {
				t.Errorf("columns (-want +got):\n%s", diff)
			}
			for name, want := range tt.want {
				got := readAnyColumn(t, out, name)
				if diff := cmp.Diff(want, got.String()); diff != "" {
					t.Errorf("column %s (-want +got):\n%s", name, diff)
				}
				got.Release()
			}
			kept := readAnyColumn(t, out, "image")
			defer kept.Release()
			orig := readAnyColumn(t, images, "image")
			defer orig.Release()
			if tt.name != "x-based expression kept" && !array.Equal(orig, kept) {
				t.Errorf("the input column changed")
			}
		})
	}
}

// TestEvalAddColumnsErrors checks the refusals of expressions naming
// columns and of -e.
func TestEvalAddColumnsErrors(t *testing.T) {
	images := sample("images.arrow")
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown column", []string{"eval", "imag.max()", images}, 1, `unknown column "imag"`},
		{"two columns that do not broadcast", []string{"eval", "image + image[..., :2]", images}, 1, "operands could not be broadcast together"},
		{"-e without a name", []string{"eval", images, "-e", "image.max()"}, 2, "want NAME=EXPR"},
		{"no expression", []string{"eval", images}, 2, "EXPR and FILE"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "o.arrow")
			code, _, stderr := runCmd(t, append(tt.args, "-o", out)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("code %d, stderr %q: want %d and %q", code, stderr, tt.code, tt.want)
			}
		})
	}
}

// TestEvalLoad checks load("W.npy") in an expression: a projection by a
// (3, 2) float32 matrix that keeps the first two channels gives the
// first two channel means, and a missing file or a shape that does not
// fit is an error.
func TestEvalLoad(t *testing.T) {
	images := sample("images.arrow")
	dir := t.TempDir()
	w := filepath.Join(dir, "W.npy")
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3, 2}, nil, nil))
	a, err := fixedshape.FromSlice(typ, []float32{1, 0, 0, 1, 0, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	f, err := os.Create(w)
	if err != nil {
		t.Fatal(err)
	}
	if err := npy.WriteTensor(f, a, 0); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	means := "image.astype(float32).mean(axis=(0, 1))"
	run := func(text string) (int, string, string) {
		out := filepath.Join(t.TempDir(), "o.arrow")
		code, _, stderr := runCmd(t, "eval", text, images, "--as", "p", "-o", out)
		if code != 0 {
			return code, stderr, ""
		}
		col := readAnyColumn(t, out, "p")
		defer col.Release()
		return code, stderr, col.String()
	}
	_, _, want := run(means + "[:2]")
	code, stderr, got := run(fmt.Sprintf("%s @ load(%q)", means, w))
	if code != 0 || got != want {
		t.Fatalf("code %d (%s): got %s, want %s", code, stderr, got, want)
	}
	for _, tt := range []struct{ name, text, msg string }{
		{"missing file", fmt.Sprintf("%s @ load(%q)", means, filepath.Join(dir, "no.npy")), "no such file"},
		{"core dimension", fmt.Sprintf("image[0, 0, :2] @ load(%q)", w), "matmul: Input operand 1 has a mismatch in its core dimension 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if code, stderr, _ := run(tt.text); code != 1 || !strings.Contains(stderr, tt.msg) {
				t.Fatalf("code %d, stderr %q: want 1 and %q", code, stderr, tt.msg)
			}
		})
	}
}
