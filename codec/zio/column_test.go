package zio_test

import (
	"encoding/json"
	"errors"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func buildColumn(t *testing.T, mem memory.Allocator, shape []int, names []string, perm []int, nulls []bool) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint16, metadata.MustNew(shape, names, perm))
	return testvec.Column[uint16](t, mem, typ, nulls, 100)
}

func TestColumnRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		shape     []int
		names     []string
		perm      []int
		nulls     []bool
		wantOrder []int
		wantErr   bool
	}{
		{name: "0-D", shape: []int{}, nulls: []bool{false, false}},
		{name: "non-square", shape: []int{2, 3}, names: []string{"y", "x"}, nulls: []bool{false, false, false}},
		{name: "transpose is Fortran order", shape: []int{2, 3}, perm: []int{1, 0}, nulls: []bool{false, false}, wantOrder: []int{0, 1}},
		{name: "3-cycle", shape: []int{2, 3, 4}, names: []string{"a", "b", "c"}, perm: []int{2, 0, 1}, nulls: []bool{false, false}, wantOrder: []int{0, 2, 1}},
		{name: "identity permutation is C order", shape: []int{2, 3}, perm: []int{0, 1}, nulls: []bool{false}},
		{name: "null tensor", shape: []int{2}, nulls: []bool{false, true}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			arr := buildColumn(t, mem, tt.shape, tt.names, tt.perm, tt.nulls)
			defer arr.Release()
			m := &zio.Message{Label: `{"app":{"x":1}}`}
			err := zio.AppendColumn(m, arr)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) || len(m.Payload) != 0 || m.Label != `{"app":{"x":1}}` {
					t.Fatalf("AppendColumn error = %v, message changed: %+v", err, m)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			l, err := zio.ParseLabel(m.Label)
			if err != nil {
				t.Fatal(err)
			}
			if l.Extra["app"] == nil {
				t.Errorf("label lost its other keys: %s", m.Label)
			}
			if diff := cmp.Diff(tt.wantOrder, l.TENS.Tensors[0].Order); diff != "" {
				t.Errorf("order (-want +got):\n%s", diff)
			}
			// Through the single-part framing, then split across two messages.
			back, got := encodeRead(t, m)
			defer got.Release()
			if !fixedshape.Equal(arr, got) {
				t.Errorf("round trip differs:\nwant %v\n got %v", arr, got)
			}
			if !got.TensorType().ExtensionEquals(arr.TensorType()) {
				t.Errorf("type %s, want %s", got.TensorType(), arr.TensorType())
			}
			m2 := &zio.Message{}
			if err := zio.AppendTensor(m2, arr, 0); err != nil {
				t.Fatal(err)
			}
			both, err := zio.ReadColumn(m2, back)
			if err != nil {
				t.Fatal(err)
			}
			defer both.Release()
			if both.Len() != arr.Len()+1 {
				t.Errorf("batched column has %d tensors, want %d", both.Len(), arr.Len()+1)
			}
		})
	}
}

// TestAscend checks that descending axes are flipped by ReadColumn.
func TestAscend(t *testing.T) {
	payload := []byte{0, 1, 2, 3, 4, 5} // u1, stored shape (2,3)
	tests := []struct {
		name   string
		order  string
		ascend string
		want   string
	}{
		{name: "all ascending", ascend: `[true,true]`, want: "[[[0,1,2],[3,4,5]]]"},
		{name: "rows descending", ascend: `[false,true]`, want: "[[[3,4,5],[0,1,2]]]"},
		{name: "columns descending", ascend: `[true,false]`, want: "[[[2,1,0],[5,4,3]]]"},
		{name: "both descending", ascend: `[false,false]`, want: "[[[5,4,3],[2,1,0]]]"},
		{name: "fortran, rows descending", order: `,"order":[0,1]`, ascend: `[false,true]`, want: "[[[2,5],[1,4],[0,3]]]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			shape := `[2,3]`
			if tt.order != "" {
				shape = `[3,2]`
			}
			label := `{"TENS":{"tensors":[{"shape":` + shape + `,"word":1,"dtype":"u","ascend":` + tt.ascend + tt.order + `}]}}`
			arr, err := zio.ReadColumn(&zio.Message{Label: label, Payload: [][]byte{payload}})
			if err != nil {
				t.Fatal(err)
			}
			defer arr.Release()
			if diff := cmp.Diff(tt.want, arr.String()); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadColumnErrors(t *testing.T) {
	tens := func(entries string) string { return `{"TENS":{"tensors":[` + entries + `]}}` }
	tests := []struct {
		name    string
		label   string
		payload [][]byte
		notImpl bool
	}{
		{name: "no TENS", label: `{"x":1}`},
		{name: "empty tensors", label: tens(``)},
		{name: "not json", label: `{`},
		{name: "not an object", label: `[1]`},
		{name: "TENS not an object", label: `{"TENS":1}`},
		{name: "tensors not an array", label: `{"TENS":{"tensors":{}}}`},
		{name: "entry not an object", label: tens(`1`)},
		{name: "shape missing", label: tens(`{"word":1,"dtype":"u"}`), payload: [][]byte{{0}}},
		{name: "word missing", label: tens(`{"shape":[1],"dtype":"u"}`), payload: [][]byte{{0}}},
		{name: "shape wrong type", label: tens(`{"shape":"x","word":1,"dtype":"u"}`)},
		{name: "negative dim", label: tens(`{"shape":[-1],"word":1,"dtype":"u"}`)},
		{name: "negative part", label: tens(`{"shape":[1],"word":1,"dtype":"u","part":-1}`), payload: [][]byte{{0}}},
		{name: "part out of range", label: tens(`{"shape":[1],"word":1,"dtype":"u","part":3}`), payload: [][]byte{{0}}},
		{name: "missing part", label: tens(`{"shape":[1],"word":1,"dtype":"u"}`)},
		{name: "part too short", label: tens(`{"shape":[2],"word":2,"dtype":"u"}`), payload: [][]byte{{0, 0, 0}}},
		{name: "bool byte 2", label: tens(`{"shape":[3],"word":1,"dtype":"b"}`), payload: [][]byte{{1, 0, 2}}},
		{name: "bool byte 255", label: tens(`{"shape":[],"word":1,"dtype":"b"}`), payload: [][]byte{{255}}},
		{name: "bool word 4", label: tens(`{"shape":[1],"word":4,"dtype":"b"}`), payload: [][]byte{{1, 0, 0, 0}}},
		{name: "bool part too long", label: tens(`{"shape":[1],"word":1,"dtype":"b"}`), payload: [][]byte{{1, 0}}},
		{name: "complex", label: tens(`{"shape":[1],"word":8,"dtype":"c"}`), payload: [][]byte{make([]byte, 8)}, notImpl: true},
		{name: "bad word", label: tens(`{"shape":[1],"word":3,"dtype":"f"}`), payload: [][]byte{make([]byte, 3)}},
		{name: "bad dtype", label: tens(`{"shape":[1],"word":1,"dtype":"x"}`), payload: [][]byte{{1}}},
		{name: "order not a permutation", label: tens(`{"shape":[2,2],"word":1,"dtype":"u","order":[0,0]}`), payload: [][]byte{make([]byte, 4)}},
		{name: "order wrong length", label: tens(`{"shape":[2,2],"word":1,"dtype":"u","order":[0]}`), payload: [][]byte{make([]byte, 4)}},
		{name: "ascend wrong length", label: tens(`{"shape":[2,2],"word":1,"dtype":"u","ascend":[true]}`), payload: [][]byte{make([]byte, 4)}},
		{name: "dim_names wrong type", label: tens(`{"shape":[2],"word":1,"dtype":"u","metadata":{"dim_names":"x"}}`), payload: [][]byte{make([]byte, 2)}},
		{name: "dim_names wrong length", label: tens(`{"shape":[2],"word":1,"dtype":"u","metadata":{"dim_names":["x","y"]}}`), payload: [][]byte{make([]byte, 2)}},
		{name: "size-0 dim", label: tens(`{"shape":[3,0],"word":1,"dtype":"u"}`), payload: [][]byte{{}}, notImpl: true},
		{name: "overflowing shape", label: tens(`{"shape":[4611686018427387904,4],"word":1,"dtype":"u"}`), payload: [][]byte{{}}},
		{name: "types differ", label: tens(`{"shape":[1],"word":1,"dtype":"u"},{"shape":[1],"word":1,"dtype":"i"}`), payload: [][]byte{{1}, {2}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := zio.ReadColumn(&zio.Message{Form: "TENS", Label: tt.label, Payload: tt.payload})
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("ReadColumn error = %v, want arrow.ErrInvalid", err)
			}
			if got := errors.Is(err, arrow.ErrNotImplemented); got != tt.notImpl {
				t.Errorf("errors.Is(err, ErrNotImplemented) = %v, want %v (%v)", got, tt.notImpl, err)
			}
		})
	}
}

func TestMessageErrors(t *testing.T) {
	coord := make([]byte, zio.CoordSize)
	partsTests := []struct {
		name  string
		parts [][]byte
	}{
		{name: "one part", parts: [][]byte{[]byte("ZIO0TENS")}},
		{name: "short prefix", parts: [][]byte{[]byte("ZIO0TEN"), coord}},
		{name: "bad magic", parts: [][]byte{[]byte("ZIP0TENS"), coord}},
		{name: "bad level", parts: [][]byte{[]byte("ZIOxTENS"), coord}},
		{name: "short coord", parts: [][]byte{[]byte("ZIO0TENS"), coord[:23]}},
	}
	for _, tt := range partsTests {
		t.Run("parts/"+tt.name, func(t *testing.T) {
			if _, err := zio.FromParts(tt.parts); !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("FromParts error = %v", err)
			}
		})
	}
	for _, b := range [][]byte{{5, 1, 2}, {255, 0, 0}, {255, 0, 0, 1, 0}} {
		if _, err := zio.SplitFrames(b, 0); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("SplitFrames(%x) error = %v", b, err)
		}
	}
	if _, err := zio.SplitFrames([]byte{0, 0, 0}, 2); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("SplitFrames over the part limit: error = %v", err)
	}
	for _, m := range []zio.Message{{Level: 10}, {Level: -1}, {Form: "TENSX"}} {
		if _, err := m.AppendEncode(nil); !errors.Is(err, arrow.ErrInvalid) {
			t.Errorf("AppendEncode(%+v) error = %v", m, err)
		}
	}
	if _, err := zio.ParseLabel(string(make([]byte, zio.MaxLabel+1))); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("ParseLabel of an oversized label: error = %v", err)
	}
}

func TestMessageRoundTrip(t *testing.T) {
	m := zio.Message{Level: 3, Form: "FLOW", Label: `{"flow":"DAT"}`, Origin: 1, Granule: 1 << 40, Seqno: 7,
		Payload: [][]byte{{}, make([]byte, 300), {1}}}
	enc, err := m.AppendEncode(nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := zio.Decode(enc)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&m, got); diff != "" {
		t.Errorf("Decode (-want +got):\n%s", diff)
	}
	short := zio.Message{Form: "AB"}
	parts, _ := short.Parts()
	if string(parts[0]) != "ZIO0AB  " {
		t.Errorf("short form prefix = %q", parts[0])
	}
}

func TestLabelKeepsUnknownKeys(t *testing.T) {
	in := `{"z":[1,2],"TENS":{"tensors":[{"shape":[2],"word":4,"dtype":"f","part":0,"pack":"dense","metadata":{"unit":"mV"}}],"metadata":{"run":5},"extra":true},"a":"<&>"}`
	l, err := zio.ParseLabel(in)
	if err != nil {
		t.Fatal(err)
	}
	out, err := l.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"TENS":{"extra":true,"metadata":{"run":5},"tensors":[{"dtype":"f","metadata":{"unit":"mV"},"pack":"dense","part":0,"shape":[2],"word":4}]},"a":"<&>","z":[1,2]}`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("AppendJSON (-want +got):\n%s", diff)
	}
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
}
