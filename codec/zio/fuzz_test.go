package zio_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
)

// FuzzDecode checks that Decode and ReadColumn never panic on a framed
// message, that their errors wrap arrow.ErrInvalid, that a decoded message
// encodes back to the same bytes when it used short size prefixes, and that
// a column read from it writes and reads back equal.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"0a5a494f3054454e537b7d18000000000000000000000000000000000100000000000000012a",
	} {
		b, _ := hex.DecodeString(s)
		f.Add(b)
	}
	for _, m := range []zio.Message{
		{Form: "TENS", Label: `{"TENS":{"tensors":[{"dtype":"u","part":0,"shape":[2,3],"word":1}]}}`, Payload: [][]byte{{0, 1, 2, 3, 4, 5}}},
		{Form: "FLOW", Label: `{"credit": 2, "TENS": {"tensors": [{"shape": [3, 2], "word": 2, "dtype": "i", "order": [0, 1], "ascend": [false, true]}]}}`, Payload: [][]byte{make([]byte, 12)}},
		{Form: "TENS", Label: `{"TENS":{"tensors":[{"dtype":"f","shape":[],"word":8},{"dtype":"f","shape":[],"word":8}]}}`, Payload: [][]byte{make([]byte, 8), make([]byte, 8)}},
		{Form: "TENS", Label: `{"TENS":{"tensors":[{"dtype":"f","shape":[2],"word":4,"metadata":{"dim_names":["x"]}}]}}`, Payload: [][]byte{make([]byte, 8)}},
		{Form: "TENS", Label: `{"TENS":{"tensors":[{"dtype":"b","shape":[3,2],"word":1,"order":[0,1]},{"dtype":"b","shape":[3,2],"word":1,"order":[0,1],"ascend":[false,true]}]}}`, Payload: [][]byte{{1, 0, 0, 1, 1, 1}, {0, 1, 0, 0, 1, 0}}},
		{Form: "TENS", Label: `{"TENS":{"tensors":[{"dtype":"b","shape":[],"word":1}]}}`, Payload: [][]byte{{2}}},
	} {
		b, err := m.AppendEncode(nil)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := zio.Decode(b)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Decode error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		out, err := m.AppendEncode(nil)
		if err != nil {
			t.Fatalf("AppendEncode of a decoded message: %v", err)
		}
		again, err := zio.Decode(out)
		if err != nil {
			t.Fatalf("Decode of re-encoding: %v", err)
		}
		if diff := cmp.Diff(m, again); diff != "" {
			t.Fatalf("decode/encode/decode (-first +second):\n%s", diff)
		}
		arr, err := zio.ReadColumn(m)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("ReadColumn error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		defer arr.Release()
		var m2 zio.Message
		if err := zio.AppendColumn(&m2, arr); err != nil {
			t.Fatalf("AppendColumn of a read column: %v", err)
		}
		back, err := zio.ReadColumn(&m2)
		if err != nil {
			t.Fatalf("ReadColumn of a written column: %v", err)
		}
		defer back.Release()
		if !fixedshape.Equal(arr, back) {
			t.Fatalf("column round trip differs:\n%v\n%v", arr, back)
		}
	})
}

// FuzzParseLabel checks that ParseLabel never panics, that its errors wrap
// arrow.ErrInvalid, and that a parsed label writes JSON that parses to the
// same label.
func FuzzParseLabel(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `{"TENS":{"tensors":[{"dtype":"f","part":1,"shape":[2,3,4],"word":4}]}}`,
		`{"credit": 2, "direction": "extract", "TENS": {"tensors": [{"shape": [2, 3], "word": 1, "dtype": "u"}], "metadata": {"source": "gen-tens"}}}`,
		`{"TENS":{"tensors":[{"shape":[3],"word":2,"dtype":"i","order":[0],"ascend":[false],"metadata":{"dim_names":["t"]},"pack":"dense"}],"x":1}}`,
		`{"TENS":{"tensors":[{"dtype":"b","part":0,"shape":[2,3],"word":1}]}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := zio.ParseLabel(s)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		out, err := l.AppendJSON(nil)
		if err != nil {
			t.Fatalf("AppendJSON of a parsed label: %v", err)
		}
		again, err := zio.ParseLabel(string(out))
		if err != nil {
			t.Fatalf("ParseLabel(%s): %v", out, err)
		}
		out2, err := again.AppendJSON(nil)
		if err != nil || string(out2) != string(out) {
			t.Fatalf("label not stable:\n%s\n%s", out, out2)
		}
		if l.TENS != nil {
			for i := range l.TENS.Tensors {
				if _, err := l.TENS.Tensors[i].TensorType(); err != nil && !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("TensorType error %v does not wrap arrow.ErrInvalid", err)
				}
			}
		}
	})
}
