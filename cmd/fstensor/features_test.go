package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"github.com/spf13/pflag"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestHelp checks that every command's --help and -h list every flag of
// the command and exit 0, and that --version and completion work.
func TestHelp(t *testing.T) {
	root := newRoot(nil, nil)
	for _, sub := range root.Commands() {
		name := sub.Name()
		if name == "help" || name == "completion" {
			continue
		}
		for _, h := range []string{"--help", "-h"} {
			t.Run(name+"/"+h, func(t *testing.T) {
				code, out, stderr := runCmd(t, name, h)
				if code != 0 || stderr != "" {
					t.Fatalf("code %d, stderr %q", code, stderr)
				}
				sub.Flags().VisitAll(func(f *pflag.Flag) {
					if !strings.Contains(out, "--"+f.Name) {
						t.Errorf("usage lacks --%s:\n%s", f.Name, out)
					}
				})
				if !strings.Contains(out, "Usage:") || !strings.Contains(out, "Examples:") {
					t.Errorf("usage:\n%s", out)
				}
			})
		}
	}
	for _, f := range []string{"--to", "--from", "--relabel", "--shape", "--rows", "--column", "--fill-nulls", "--single", "--dim-names", "--permutation"} {
		if _, out, _ := runCmd(t, "eval", "--help"); !strings.Contains(out, f) {
			t.Errorf("eval --help lacks %s", f)
		}
	}
	if code, out, _ := runCmd(t, "--version"); code != 0 || !strings.HasPrefix(out, "fstensor ") {
		t.Errorf("--version: code %d, %q", code, out)
	}
	for _, shell := range []string{"bash", "zsh", "fish"} {
		if code, out, stderr := runCmd(t, "completion", shell); code != 0 || !strings.Contains(out, "fstensor") {
			t.Errorf("completion %s: code %d, %d bytes, %s", shell, code, len(out), stderr)
		}
	}
	code, _, stderr := runCmd(t, "inspectt", sample("images.arrow"))
	if code != 2 || !strings.Contains(stderr, "did you mean inspect?") || !strings.Contains(stderr, "fstensor --help") {
		t.Errorf("misspelt command: code %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "convert", "--bogus", sample("images.arrow"), "x.arrow")
	if code != 2 || !strings.Contains(stderr, "fstensor convert --help") {
		t.Errorf("unknown flag: code %d, %q", code, stderr)
	}
}

// writePlainLists writes an IPC file with a FixedSizeList<float32, 6>
// column "fsl", a list<float32> column "list" of 6 numbers a row (row 1
// null) and a FixedSizeList<int32, 4> column "other", and returns the 18
// floats of "fsl".
func writePlainLists(t *testing.T, path string, listRow2 int) []float32 {
	t.Helper()
	mem := memory.NewGoAllocator()
	vals := make([]float32, 18)
	for i := range vals {
		vals[i] = float32(i) + 0.5
	}
	fb := array.NewFixedSizeListBuilder(mem, 6, arrow.PrimitiveTypes.Float32)
	defer fb.Release()
	lb := array.NewListBuilder(mem, arrow.PrimitiveTypes.Float32)
	defer lb.Release()
	ob := array.NewFixedSizeListBuilder(mem, 4, arrow.PrimitiveTypes.Int32)
	defer ob.Release()
	for r := range 3 {
		fb.Append(true)
		fb.ValueBuilder().(*array.Float32Builder).AppendValues(vals[r*6:(r+1)*6], nil)
		n := 6
		if r == 2 {
			n = listRow2
		}
		if r == 1 {
			lb.AppendNull()
		} else {
			lb.Append(true)
			lb.ValueBuilder().(*array.Float32Builder).AppendValues(vals[r*6:r*6+n], nil)
		}
		ob.Append(true)
		ob.ValueBuilder().(*array.Int32Builder).AppendValues([]int32{1, 2, 3, 4}, nil)
	}
	cols := []arrow.Array{fb.NewArray(), lb.NewArray(), ob.NewArray()}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "fsl", Type: cols[0].DataType(), Nullable: true},
		{Name: "list", Type: cols[1].DataType(), Nullable: true},
		{Name: "other", Type: cols[2].DataType(), Nullable: true},
	}, nil)
	rec := array.NewRecordBatch(schema, cols, 3)
	defer rec.Release()
	for _, c := range cols {
		c.Release()
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := arrowipc.NewIPCFileWriter(f, schema)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return vals
}

func TestShape(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.arrow")
	vals := writePlainLists(t, plain, 6)
	code, out, stderr := runCmd(t, "inspect", plain, "--shape", "2,3", "--dim-names", "h,w")
	if code != 0 {
		t.Fatalf("inspect --shape: %s", stderr)
	}
	for _, want := range []string{"fsl: tensor float32 (2,3)", "list: tensor float32 (2,3)", "dim names       h, w", "rows            3 (1 null)", "other: fixed_size_list<item: int32, nullable>[4]"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// Converted, the columns are tensor columns of the same values.
	conv := filepath.Join(dir, "tensors.arrow")
	if code, _, stderr := runCmd(t, "convert", plain, conv, "--shape", "2,3", "--permutation", "1,0"); code != 0 {
		t.Fatalf("convert --shape: %s", stderr)
	}
	for _, col := range []string{"fsl", "list"} {
		got := readTensorColumn(t, conv, col)
		typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}))
		valid := []bool{true, col == "fsl", true}
		data := vals
		if col == "list" {
			data = append(append(append([]float32(nil), vals[:6]...), make([]float32, 6)...), vals[12:]...)
		}
		want, err := fixedshape.FromSlice(typ, data, valid)
		if err != nil {
			t.Fatal(err)
		}
		if !fixedshape.Equal(want, got) {
			t.Errorf("column %s:\n%v\nwant\n%v", col, got, want)
		}
		want.Release()
		got.Release()
	}
	// eval works on the plain column, through --shape.
	if code, _, stderr := runCmd(t, "eval", "x.T", plain, "--shape", "6", "-o", filepath.Join(dir, "e.arrow"), "--shape", "2,3"); code != 0 {
		t.Errorf("eval --shape: %s", stderr)
	}
	short := filepath.Join(dir, "short.arrow")
	writePlainLists(t, short, 5)
	for _, tt := range []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"list of the wrong length", []string{"inspect", short, "--shape", "6"}, 1, "row 2 holds 5 elements, not 6"},
		{"no matching column", []string{"inspect", sample("images.arrow"), "--shape", "7"}, 2, "no FixedSizeList of 7 numbers"},
		{"names without shape", []string{"inspect", plain, "--dim-names", "a,b"}, 2, "--dim-names and --permutation describe a --shape"},
		{"bad shape", []string{"inspect", plain, "--shape", "2,x"}, 2, "not a list of integers"},
		{"bad permutation", []string{"inspect", plain, "--shape", "2,3", "--permutation", "0,0"}, 2, "permutation"},
		{"not a tensor column", []string{"eval", "x.T", plain, "--column", "other", "-o", filepath.Join(dir, "o.arrow")}, 2, "not a tensor column"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("code %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.msg)
			}
		})
	}
}

func TestRows(t *testing.T) {
	dir := t.TempDir()
	all := readTensorColumn(t, sample("images.arrow"), "image")
	defer all.Release()
	for _, tt := range []struct {
		rows   string
		lo, hi int64
	}{
		{"2:5", 2, 5},
		{"6:", 6, 8},
		{":3", 0, 3},
		{"0:0", 0, 0},
		{"7:100", 7, 8},
	} {
		t.Run(tt.rows, func(t *testing.T) {
			out := filepath.Join(dir, "rows.arrows")
			if code, _, stderr := runCmd(t, "convert", sample("images.arrow"), out, "--rows", tt.rows); code != 0 {
				t.Fatalf("convert --rows: %s", stderr)
			}
			_, rep, _ := runCmd(t, "inspect", out, "--json")
			var r inspectReport
			if err := json.Unmarshal([]byte(rep), &r); err != nil {
				t.Fatal(err)
			}
			if r.Rows != tt.hi-tt.lo {
				t.Fatalf("%d rows, want %d", r.Rows, tt.hi-tt.lo)
			}
			if r.Rows == 0 {
				return
			}
			got := readTensorColumn(t, out, "image")
			defer got.Release()
			want := array.NewSlice(all, tt.lo, tt.hi).(*fixedshape.Array)
			defer want.Release()
			if !fixedshape.Equal(want, got) {
				t.Error("rows differ")
			}
		})
	}
	for _, bad := range []string{"5:2", "x", "-1:", "3"} {
		if code, _, _ := runCmd(t, "inspect", sample("images.arrow"), "--rows", bad); code != 2 {
			t.Errorf("--rows %q: code %d, want 2", bad, code)
		}
	}
}

func TestNPZ(t *testing.T) {
	dir := t.TempDir()
	for _, comp := range []string{"none", "deflate"} {
		t.Run(comp, func(t *testing.T) {
			z := filepath.Join(dir, comp+".npz")
			if code, _, stderr := runCmd(t, "eval", "x.T", sample("images.arrow"), "-o", z, "--compression", comp); code != 0 {
				t.Fatalf("eval to .npz: %s", stderr)
			}
			back := filepath.Join(dir, comp+".arrow")
			if code, _, stderr := runCmd(t, "convert", z, back); code != 0 {
				t.Fatalf("convert from .npz: %s", stderr)
			}
			plain := filepath.Join(dir, comp+"-plain.arrow")
			if code, _, stderr := runCmd(t, "eval", "x.T", sample("images.arrow"), "-o", plain); code != 0 {
				t.Fatal(stderr)
			}
			want := readTensorColumn(t, plain, "image")
			defer want.Release()
			got := readTensorColumn(t, back, "image")
			defer got.Release()
			if !fixedshape.Equal(want, got) {
				t.Error("values differ after .npz")
			}
		})
	}
	if code, _, _ := runCmd(t, "convert", sample("permuted.arrow"), filepath.Join(dir, "x.npz"), "--compression", "zstd"); code != 2 {
		t.Errorf(".npz with zstd: code %d, want 2", code)
	}
}

func TestSingleAndFill(t *testing.T) {
	dir := t.TempDir()
	col := readTensorColumn(t, sample("permuted.arrow"), "")
	defer col.Release()
	one := filepath.Join(dir, "one.npy")
	var buf bytes.Buffer
	if err := npy.WriteTensor(&buf, col, 1); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(one, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr := runCmd(t, "inspect", one, "--single")
	if code != 0 || !strings.Contains(out, "1 rows") || !strings.Contains(out, "tensor float64 (4,3,2)") {
		t.Errorf("--single: code %d, %s%s", code, out, stderr)
	}
	code, out, _ = runCmd(t, "inspect", one)
	if code != 0 || !strings.Contains(out, "4 rows") || !strings.Contains(out, "tensor float64 (3,2)") {
		t.Errorf("without --single: code %d, %s", code, out)
	}
	if code, _, _ := runCmd(t, "inspect", sample("images.arrow"), "--single"); code != 2 {
		t.Errorf("--single on .arrow: code %d, want 2", code)
	}

	filled := filepath.Join(dir, "filled.npy")
	if code, _, stderr := runCmd(t, "convert", sample("nulls.arrow"), filled); code != 1 || !strings.Contains(stderr, "--fill-nulls") {
		t.Errorf("nulls to .npy: code %d, %q; want 1 and a hint", code, stderr)
	}
	if code, _, stderr := runCmd(t, "convert", sample("nulls.arrow"), filled, "--fill-nulls", "-1"); code != 0 {
		t.Fatalf("--fill-nulls: %s", stderr)
	}
	got := readTensorColumn(t, filled, "")
	defer got.Release()
	src := readTensorColumn(t, sample("nulls.arrow"), "")
	defer src.Release()
	if got.Len() != src.Len() || got.NullN() != 0 {
		t.Errorf("%d rows, %d null; want %d, 0", got.Len(), got.NullN(), src.Len())
	}
	if code, _, _ := runCmd(t, "convert", sample("nulls.arrow"), filepath.Join(dir, "x.arrow"), "--fill-nulls", "0"); code != 2 {
		t.Errorf("--fill-nulls to .arrow: code %d, want 2", code)
	}
}

func TestInspectFrom(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "images.bin")
	copyFile(t, sample("images.arrow"), bin)
	if code, out, stderr := runCmd(t, "inspect", bin, "--from", "arrow"); code != 0 || !strings.Contains(out, "image: tensor uint8") {
		t.Errorf("--from arrow: code %d, %s%s", code, out, stderr)
	}
	if code, _, _ := runCmd(t, "inspect", bin); code != 2 {
		t.Errorf("no --from: code %d, want 2", code)
	}
}

// TestInspectNonFinite reads the statistics of a column holding NaN and
// -Inf as JSON.
func TestInspectNonFinite(t *testing.T) {
	code, out, stderr := runCmd(t, "inspect", "--json", filepath.Join("testdata", "inspect_json_inf.arrow"))
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if !strings.Contains(out, `"min": "-Inf"`) {
		t.Errorf("no \"-Inf\" string:\n%s", out)
	}
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	s := rep.Columns[0].Stats
	if !math.IsInf(float64(s.Min), -1) || s.NaN == 0 {
		t.Errorf("stats %+v", s)
	}
	for _, tt := range []struct {
		v    float64
		want string
	}{{math.NaN(), `"NaN"`}, {math.Inf(1), `"+Inf"`}, {math.Inf(-1), `"-Inf"`}, {1.5, `1.5`}, {0, `0`}} {
		b, err := json.Marshal(jsonFloat(tt.v))
		if err != nil || string(b) != tt.want {
			t.Errorf("%v: %s %v, want %s", tt.v, b, err, tt.want)
		}
		var back jsonFloat
		if err := json.Unmarshal(b, &back); err != nil || !(float64(back) == tt.v || math.IsNaN(tt.v) && math.IsNaN(float64(back))) {
			t.Errorf("%s read back as %v, %v", b, back, err)
		}
	}
}

// TestInspectControlChars checks that dimension names with a newline and
// a NUL are printed escaped.
func TestInspectControlChars(t *testing.T) {
	code, out, stderr := runCmd(t, "inspect", filepath.Join("testdata", "dimnames_control_chars.arrow"))
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	if strings.ContainsRune(out, 0) || strings.Contains(out, "a\nb") {
		t.Errorf("raw control characters in the report:\n%q", out)
	}
	if !strings.Contains(out, `dim names       "a\nb", "\x00"`) {
		t.Errorf("names not quoted:\n%s", out)
	}
	for _, tt := range []struct{ in, want string }{{"image", "image"}, {"a b", "a b"}, {"", `""`}, {"\x1b[2J", `"\x1b[2J"`}, {"é", "é"}, {"\xff", `"\xff"`}} {
		if got := printable(tt.in); got != tt.want {
			t.Errorf("printable(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// TestShowLongLine draws an 8,000,000-element 1-D tensor, generated here,
// as a min/max chart of bounded width.
func TestShowLongLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	const n = 8_000_000
	h := fmt.Sprintf("{'descr': '|i1', 'fortran_order': False, 'shape': (1, %d), }", n)
	h += strings.Repeat(" ", (64-(10+len(h)+1)%64)%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), binary.LittleEndian.AppendUint16(nil, uint16(len(h)))...)
	b = append(b, h...)
	for i := range n {
		b = append(b, byte(i*7))
	}
	line := filepath.Join(dir, "line8M.npy")
	if err := os.WriteFile(line, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "line.png")
	start := time.Now()
	cmd := exec.Command(buildBinary(t), "show", line, "-o", out)
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, msg)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	if rss := cmd.ProcessState.SysUsage(); rss != nil {
		t.Logf("usage %+v", rss)
	}
	img := readPNG(t, out)
	if diff := cmp.Diff([2]int{maxWidth + 2*chartMargin, chartHeight}, [2]int{img.Bounds().Dx(), img.Bounds().Dy()}); diff != "" {
		t.Errorf("size (-want +got):\n%s", diff)
	}
}

func TestErrorWording(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"nope.arrow", "nope.arrows", "nope.parquet", "nope.npy", "nope.npz"} {
		p := filepath.Join(dir, name)
		code, _, stderr := runCmd(t, "inspect", p)
		if code != 1 || strings.Count(stderr, p) != 1 || strings.Count(stderr, "open") != 1 {
			t.Errorf("%s: code %d, %q", name, code, stderr)
		}
	}
	code, _, stderr := runCmd(t, "show", sample("images.arrow"), "--expr", "x[0, 0, 0]", "-o", filepath.Join(dir, "x.png"))
	if code != 1 || strings.Contains(stderr, "x[0]") || !strings.Contains(stderr, "0-D") {
		t.Errorf("0-D: code %d, %q", code, stderr)
	}
	code, _, stderr = runCmd(t, "show", sample("images.arrow"), "--expr", "x[None, None]", "-o", filepath.Join(dir, "x.png"))
	if code != 1 || !strings.Contains(stderr, "--expr 'x[0, 0]'") {
		t.Errorf("5-D: code %d, %q", code, stderr)
	}
	// The eval of a single tensor column to .npy needs no other --column.
	if code, _, stderr := runCmd(t, "eval", "x[..., 0]", sample("images.arrow"), "--column", "image", "-o", filepath.Join(dir, "red.npy")); code != 0 {
		t.Errorf("eval to .npy: %s", stderr)
	}
}

// TestStdout writes an IPC stream to standard output and refuses formats
// that need a file.
func TestStdout(t *testing.T) {
	code, out, stderr := runCmd(t, "convert", sample("permuted.arrow"), "-")
	if code != 0 {
		t.Fatalf("code %d: %s", code, stderr)
	}
	rr, err := arrowipc.NewIPCStreamReader(strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	n := 0
	for rr.Next() {
		n += int(rr.RecordBatch().NumRows())
	}
	if rr.Err() != nil || n != 3 {
		t.Errorf("%d rows, %v", n, rr.Err())
	}
	for _, to := range []string{"arrow", "parquet"} {
		if code, _, _ := runCmd(t, "convert", sample("permuted.arrow"), "-", "--to", to); code != 2 {
			t.Errorf("--to %s on stdout: code %d, want 2", to, code)
		}
	}
	if code, out, _ := runCmd(t, "show", sample("images.arrow"), "-o", "-"); code != 0 || !strings.HasPrefix(out, "\x89PNG") {
		t.Errorf("show to stdout: code %d", code)
	}
}
