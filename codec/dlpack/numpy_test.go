package dlpack_test

import (
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/google/go-cmp/cmp"
)

// buildCAPI builds testdata/capi as a C shared library in a temporary
// directory and returns its path. It skips the test when the go command,
// cgo or a C compiler is unavailable.
func buildCAPI(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goTool); err != nil {
			t.Skip("the go command is not available to build the C shared library")
		}
	}
	out, err := exec.Command(goTool, "env", "CGO_ENABLED", "CC").Output()
	if err != nil {
		t.Skipf("go env: %v", err)
	}
	env := strings.Fields(string(out))
	if len(env) < 2 || env[0] != "1" {
		t.Skipf("cgo is disabled (go env CGO_ENABLED, CC = %q): cannot build a C shared library", env)
	}
	if _, err := exec.LookPath(env[1]); err != nil {
		t.Skipf("no C compiler %q for cgo: %v", env[1], err)
	}
	lib := filepath.Join(t.TempDir(), "libfstcapi.so")
	cmd := exec.Command(goTool, "build", "-buildmode=c-shared", "-o", lib, "./testdata/capi")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build -buildmode=c-shared ./testdata/capi: %v\n%s", err, out)
	}
	return lib
}

// exportRequest is testdata/capi's: a column whose logical element k of
// tensor i is (i*size + k) % 100, exported whole (Column) or tensor
// Tensor alone.
type exportRequest struct {
	DType  string `json:"dtype"`
	Shape  []int  `json:"shape"`
	Perm   []int  `json:"perm,omitempty"`
	N      int    `json:"n"`
	Nulls  []int  `json:"nulls,omitempty"`
	Column bool   `json:"column"`
	Tensor int    `json:"tensor"`
	Legacy bool   `json:"legacy"`
}

// exportResult is what numpy_interop.py saw of np.from_dlpack's array.
type exportResult struct {
	Name                string    `json:"name"`
	Error               string    `json:"error"`
	OutstandingExported int64     `json:"outstanding_exported"`
	Consumed            bool      `json:"consumed"`
	MaxVersions         [][]int   `json:"max_versions"`
	DType               string    `json:"dtype"`
	Shape               []int     `json:"shape"`
	Strides             []int     `json:"strides"` // bytes
	Values              []float64 `json:"values"`
	SameData            bool      `json:"same_data"`
	Writeable           bool      `json:"writeable"`
	OutstandingHeld     int64     `json:"outstanding_held"`
	OutstandingAfter    int64     `json:"outstanding_after"`
	AllocatedAfter      int64     `json:"allocated_after"`
}

// importResult is what numpy_interop.py saw of Go importing a numpy
// export.
type importResult struct {
	Name           string    `json:"name"`
	ExportError    string    `json:"export_error"`
	CapsuleNamed   bool      `json:"capsule_named"`
	WantValues     []float64 `json:"want_values"`
	WantShape      []int     `json:"want_shape"`
	AliveBefore    bool      `json:"alive_before"`
	Error          string    `json:"error"`
	Invalid        bool      `json:"invalid"`
	Len            int       `json:"len"`
	Shape          []int     `json:"shape"`
	Perm           []int     `json:"perm"`
	Values         []float64 `json:"values"`
	SameData       bool      `json:"same_data"`
	AliveHeld      bool      `json:"alive_held"`
	Release        int       `json:"release"`
	AliveAfter     bool      `json:"alive_after"`
	AllocatedAfter int64     `json:"allocated_after"`
}

type exportCase struct {
	name        string
	req         exportRequest
	wantDType   string // numpy dtype.str
	wantShape   []int
	wantStrides []int // elements
	wantErr     bool  // Go refuses to export
}

var npyWidth = map[string]int{"int8": 1, "uint8": 1, "int16": 2, "uint16": 2, "float16": 2,
	"int32": 4, "uint32": 4, "float32": 4, "int64": 8, "uint64": 8, "float64": 8}

var npyDType = map[string]string{"int8": "|i1", "uint8": "|u1", "int16": "<i2", "uint16": "<u2", "float16": "<f2",
	"int32": "<i4", "uint32": "<u4", "float32": "<f4", "int64": "<i8", "uint64": "<u8", "float64": "<f8"}

func exportCases() []exportCase {
	cs := []exportCase{
		{name: "0-D tensor", req: exportRequest{DType: "float64", N: 2, Tensor: 1}, wantShape: []int{}, wantStrides: []int{}},
		{name: "column of 0-D", req: exportRequest{DType: "float32", N: 3, Column: true}, wantShape: []int{3}, wantStrides: []int{1}},
		{name: "non-square", req: exportRequest{DType: "float32", Shape: []int{3, 4}, N: 1}, wantShape: []int{3, 4}, wantStrides: []int{4, 1}},
		{name: "transposed", req: exportRequest{DType: "float32", Shape: []int{3, 4}, Perm: []int{1, 0}, N: 2, Tensor: 1},
			wantShape: []int{3, 4}, wantStrides: []int{1, 3}},
		{name: "3-cycle", req: exportRequest{DType: "float64", Shape: []int{2, 3, 4}, Perm: []int{2, 0, 1}, N: 1},
			wantShape: []int{2, 3, 4}, wantStrides: []int{1, 8, 2}},
		{name: "3-cycle column", req: exportRequest{DType: "int16", Shape: []int{2, 3, 4}, Perm: []int{2, 0, 1}, N: 2, Column: true},
			wantShape: []int{2, 2, 3, 4}, wantStrides: []int{24, 1, 8, 2}},
		{name: "transposed column", req: exportRequest{DType: "uint8", Shape: []int{2, 5}, Perm: []int{1, 0}, N: 3, Column: true},
			wantShape: []int{3, 2, 5}, wantStrides: []int{10, 1, 2}},
		{name: "empty column", req: exportRequest{DType: "float64", Shape: []int{2}, N: 0, Column: true},
			wantShape: []int{0, 2}, wantStrides: []int{2, 1}},
		{name: "null tensor", req: exportRequest{DType: "float32", Shape: []int{2}, N: 2, Nulls: []int{1}, Column: true}, wantErr: true},
	}
	for _, dt := range slices.Sorted(maps.Keys(npyWidth)) {
		cs = append(cs, exportCase{name: "dtype " + dt, req: exportRequest{DType: dt, Shape: []int{2, 3}, N: 2, Column: true},
			wantShape: []int{2, 2, 3}, wantStrides: []int{6, 3, 1}})
	}
	var out []exportCase
	for _, c := range cs {
		c.wantDType = npyDType[c.req.DType]
		out = append(out, c)
		c.name += "/legacy"
		c.req.Legacy = true
		out = append(out, c)
	}
	return out
}

// wantValues returns the logical values capsule exports for r.
func (r exportRequest) wantValues() []float64 {
	size := 1
	for _, d := range r.Shape {
		size *= d
	}
	first, n := r.Tensor, 1
	if r.Column {
		first, n = 0, r.N
	}
	out := []float64{}
	for i := first; i < first+n; i++ {
		for k := range size {
			out = append(out, float64((i*size+k)%100))
		}
	}
	return out
}

type importCase struct {
	name      string
	expr      string // numpy expression of the exported array
	legacy    bool
	column    bool
	allowCopy bool
	wantLen   int
	wantShape []int
	wantPerm  []int
	zeroCopy  bool
	wantErr   bool // Go refuses the import (an error wrapping arrow.ErrInvalid)
}

func importCases() []importCase {
	cs := []importCase{
		{name: "C order", expr: "np.arange(6, dtype='float32').reshape(2, 3)", wantLen: 1, wantShape: []int{2, 3}, zeroCopy: true},
		{name: "transposed", expr: "np.arange(6, dtype='float32').reshape(2, 3).T", wantLen: 1, wantShape: []int{3, 2}, wantPerm: []int{1, 0}, zeroCopy: true},
		{name: "3-cycle", expr: "np.arange(24, dtype='float64').reshape(3, 4, 2).transpose(2, 0, 1)", wantLen: 1, wantShape: []int{2, 3, 4},
			wantPerm: []int{2, 0, 1}, zeroCopy: true},
		{name: "0-D", expr: "np.array(2.5)", wantLen: 1, wantShape: []int{}, zeroCopy: true},
		{name: "0-D as column", expr: "np.array(2.5)", column: true, wantErr: true},
		{name: "column", expr: "np.arange(24, dtype='int32').reshape(4, 2, 3)", column: true, wantLen: 4, wantShape: []int{2, 3}, zeroCopy: true},
		{name: "column of transposed", expr: "np.arange(24, dtype='int64').reshape(4, 3, 2).transpose(0, 2, 1)", column: true,
			wantLen: 4, wantShape: []int{2, 3}, wantPerm: []int{1, 0}, zeroCopy: true},
		{name: "column batch not outermost", expr: "np.arange(24, dtype='uint16').reshape(3, 4, 2).transpose(2, 0, 1)", column: true, wantErr: true},
		{name: "column batch not outermost copied", expr: "np.arange(24, dtype='uint16').reshape(3, 4, 2).transpose(2, 0, 1)", column: true,
			allowCopy: true, wantLen: 2, wantShape: []int{3, 4}},
		{name: "empty column", expr: "np.zeros((0, 3), dtype='float32')", column: true, wantLen: 0, wantShape: []int{3}, zeroCopy: true},
		{name: "size-0 dimension", expr: "np.zeros((2, 0), dtype='float32')", wantErr: true},
		{name: "gapped", expr: "np.arange(6, dtype='float32')[::2]", wantErr: true},
		{name: "negative stride copied", expr: "np.arange(6, dtype='float32')[::-2]", allowCopy: true, wantLen: 1, wantShape: []int{3}},
		{name: "broadcast", expr: "np.broadcast_to(np.arange(3.0), (2, 3))", wantErr: true},
		{name: "broadcast copied", expr: "np.broadcast_to(np.arange(3.0), (2, 3))", allowCopy: true, wantLen: 1, wantShape: []int{2, 3}},
		{name: "read-only", expr: "np.frombuffer(bytes(range(16)), dtype='<u4').reshape(2, 2)", wantLen: 1, wantShape: []int{2, 2}, zeroCopy: true},
		{name: "unaligned", expr: "np.frombuffer(bytes(range(17)), dtype='<f4', offset=1)", wantErr: true},
		{name: "unaligned copied", expr: "np.frombuffer(bytes(range(17)), dtype='<u4', offset=1)", allowCopy: true, wantLen: 1, wantShape: []int{4}},
		{name: "bool", expr: "np.ones(3, dtype=bool)", wantErr: true},
		{name: "complex64", expr: "np.ones(3, dtype='complex64')", wantErr: true},
	}
	for _, dt := range slices.Sorted(maps.Keys(npyWidth)) {
		cs = append(cs, importCase{name: "dtype " + dt, expr: "np.arange(6).astype('" + dt + "').reshape(2, 3)",
			wantLen: 1, wantShape: []int{2, 3}, zeroCopy: true})
	}
	for _, c := range cs[:3] {
		c.name += "/legacy"
		c.legacy = true
		cs = append(cs, c)
	}
	return cs
}

// TestNumpyDLPack hands Go exports to numpy.from_dlpack and numpy exports
// to the Go importers, through a C shared library built from
// testdata/capi and driven by testdata/numpy_interop.py. It checks values,
// shapes and strides, that no element is copied, and that every deleter
// runs exactly once: Outstanding() back to 0 and the Arrow memory freed
// for exports, the numpy array collected for imports.
func TestNumpyDLPack(t *testing.T) {
	pyrun.Python(t, "numpy") // skip before the slow build
	lib := buildCAPI(t)
	script, err := os.ReadFile(filepath.Join("testdata", "numpy_interop.py"))
	if err != nil {
		t.Fatal(err)
	}
	ecs, ics := exportCases(), importCases()
	type wireExport struct {
		Name    string        `json:"name"`
		Request exportRequest `json:"request"`
	}
	type wireImport struct {
		Name      string `json:"name"`
		Expr      string `json:"expr"`
		Legacy    bool   `json:"legacy"`
		Column    bool   `json:"column"`
		AllowCopy bool   `json:"allow_copy"`
	}
	var in struct {
		Export []wireExport `json:"export"`
		Import []wireImport `json:"import"`
	}
	for _, c := range ecs {
		in.Export = append(in.Export, wireExport{c.name, c.req})
	}
	for _, c := range ics {
		in.Import = append(in.Import, wireImport{c.name, c.expr, c.legacy, c.column, c.allowCopy})
	}
	stdin, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("GODEBUG", "cgocheck=1")
	raw := pyrun.Run(t, string(script), stdin, []string{"numpy"}, lib)
	var out struct {
		Numpy  string         `json:"numpy"`
		Export []exportResult `json:"export"`
		Import []importResult `json:"import"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("script output: %v\n%s", err, raw)
	}
	if len(out.Export) != len(ecs) || len(out.Import) != len(ics) {
		t.Fatalf("%d export and %d import results for %d and %d cases", len(out.Export), len(out.Import), len(ecs), len(ics))
	}
	t.Logf("numpy %s", out.Numpy)
	for i, c := range ecs {
		t.Run("export/"+c.name, func(t *testing.T) { checkExport(t, c, out.Export[i]) })
	}
	for i, c := range ics {
		t.Run("import/"+c.name, func(t *testing.T) { checkImport(t, c, out.Import[i]) })
	}
}

func checkExport(t *testing.T, c exportCase, r exportResult) {
	if c.wantErr {
		if r.Error == "" {
			t.Errorf("export succeeded, want an error")
		}
		return
	}
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	w := npyWidth[c.req.DType]
	strides := []int{}
	for _, s := range c.wantStrides {
		strides = append(strides, s*w)
	}
	type facts struct {
		DType           string
		Shape, Strides  []int
		Values          []float64
		Consumed        bool
		SameData        bool
		Exported, Held  int64
		After, AllocEnd int64
	}
	want := facts{DType: c.wantDType, Shape: c.wantShape, Strides: strides, Values: c.req.wantValues(), Consumed: true, SameData: true,
		Exported: 1, Held: 1}
	got := facts{DType: r.DType, Shape: r.Shape, Strides: r.Strides, Values: r.Values, Consumed: r.Consumed, SameData: r.SameData,
		Exported: r.OutstandingExported, Held: r.OutstandingHeld, After: r.OutstandingAfter, AllocEnd: r.AllocatedAfter}
	if len(r.Values) == 0 {
		got.Strides = want.Strides // numpy normalizes the strides of empty arrays
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("numpy's view of the export (-want +got):\n%s", diff)
	}
	if !c.req.Legacy && len(r.Values) > 0 && r.Writeable {
		t.Errorf("numpy array over a READ_ONLY export is writeable")
	}
	if len(r.MaxVersions) != 1 || (!c.req.Legacy && (r.MaxVersions[0] == nil || r.MaxVersions[0][0] < 1)) {
		t.Errorf("__dlpack__ called with max_version %v, want once with 1.x", r.MaxVersions)
	}
}

func checkImport(t *testing.T, c importCase, r importResult) {
	if r.ExportError != "" || !r.CapsuleNamed {
		t.Fatalf("numpy export: %q, capsule named right: %v", r.ExportError, r.CapsuleNamed)
	}
	if !r.AliveBefore {
		t.Errorf("numpy's array died before the import: its capsule did not hold it")
	}
	if r.AliveAfter {
		t.Errorf("numpy's array outlived the import: the producer's deleter did not run")
	}
	if r.AllocatedAfter != 0 {
		t.Errorf("%d bytes of Go memory left allocated", r.AllocatedAfter)
	}
	if c.wantErr {
		if r.Error == "" || !r.Invalid {
			t.Errorf("import error %q (wraps arrow.ErrInvalid: %v), want an arrow.ErrInvalid error", r.Error, r.Invalid)
		}
		return
	}
	if r.Error != "" {
		t.Fatal(r.Error)
	}
	type facts struct {
		Len         int
		Shape, Perm []int
		Values      []float64
		SameData    bool
		AliveHeld   bool
		Release     int
	}
	want := facts{Len: c.wantLen, Shape: c.wantShape, Perm: c.wantPerm, Values: r.WantValues, SameData: c.zeroCopy && c.wantLen > 0,
		AliveHeld: c.zeroCopy}
	got := facts{Len: r.Len, Shape: r.Shape, Perm: r.Perm, Values: r.Values, SameData: r.SameData, AliveHeld: r.AliveHeld, Release: r.Release}
	if want.Values == nil {
		want.Values = []float64{}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Go's view of numpy's export (-want +got):\n%s", diff)
	}
}
