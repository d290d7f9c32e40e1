package npy_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// seedCase is one case of testdata/seed_systems.json.
type seedCase struct {
	ID     string `json:"id"`
	System string `json:"system"`
	Input  struct {
		Hex     string          `json:"hex"`
		Shape   []int           `json:"shape"`
		Descr   string          `json:"descr"`
		Values  json.RawMessage `json:"values_row_major"`
		Version []int           `json:"version"`
	} `json:"input"`
	Expected struct {
		Hex          string          `json:"hex"`
		Version      []int           `json:"version"`
		HeaderLen    int             `json:"header_len"`
		DataOffset   int             `json:"data_offset"`
		Error        bool            `json:"error"`
		Shape        []int           `json:"shape"`
		FortranOrder bool            `json:"fortran_order"`
		Descr        string          `json:"descr"`
		Logical      json.RawMessage `json:"logical_row_major"`
	} `json:"expected"`
}

// seedCases returns the cases of one system, their input and expected
// result decoded.
func seedCases(t testing.TB, system string) []seedCase {
	t.Helper()
	var out []seedCase
	for _, s := range testvec.Seeds(t, system) {
		c := seedCase{ID: s.ID, System: s.System}
		if err := json.Unmarshal(s.Input, &c.Input); err != nil {
			t.Fatalf("%s: input: %v", s.ID, err)
		}
		if err := json.Unmarshal(s.Expected, &c.Expected); err != nil {
			t.Fatalf("%s: expected: %v", s.ID, err)
		}
		out = append(out, c)
	}
	return out
}

// flatten flattens nested JSON arrays of numbers or booleans.
func flatten(t testing.TB, raw json.RawMessage) []float64 {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	out := []float64{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				walk(e)
			}
		case float64:
			out = append(out, x)
		case bool:
			if x {
				out = append(out, 1)
			} else {
				out = append(out, 0)
			}
		}
	}
	walk(v)
	return out
}

// TestSeedVectors runs every npy vector: bytes numpy wrote are parsed and
// decoded to the listed values, and bytes we write for the same logical
// array are identical; invalid inputs are refused.
func TestSeedVectors(t *testing.T) {
	for _, c := range seedCases(t, "npy") {
		t.Run(c.ID, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			opts := []npy.ReadOption{npy.WithAllocator(mem)}
			if c.Expected.Error {
				in := testvec.Hex(t, c.Input.Hex)
				if _, err := npy.ParseHeader(in, 0); !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("ParseHeader error = %v, want arrow.ErrInvalid", err)
				}
				if _, err := npy.ReadTensor(bytes.NewReader(in), opts...); !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("ReadTensor error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			in := testvec.Hex(t, c.Input.Hex)
			want := flatten(t, c.Expected.Logical)
			descr, shape := c.Expected.Descr, c.Expected.Shape
			if len(in) == 0 {
				in = testvec.Hex(t, c.Expected.Hex)
				want = flatten(t, c.Input.Values)
				descr, shape = c.Input.Descr, c.Input.Shape
			}
			h, err := npy.ParseHeader(in, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(shape, h.Shape); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			if got := h.Descr(); got != descr {
				t.Errorf("descr = %q, want %q", got, descr)
			}
			if c.Expected.DataOffset != 0 && h.DataOffset != c.Expected.DataOffset {
				t.Errorf("data offset = %d, want %d", h.DataOffset, c.Expected.DataOffset)
			}
			for _, read := range []struct {
				name string
				fn   func() (*fixedshape.Array, error)
			}{
				{"decode", func() (*fixedshape.Array, error) { return npy.DecodeTensor(in, opts...) }},
				{"read", func() (*fixedshape.Array, error) { return npy.ReadTensor(bytes.NewReader(in), opts...) }},
			} {
				t.Run(read.name, func(t *testing.T) {
					a, err := read.fn()
					if errors.Is(err, arrow.ErrNotImplemented) && len(want) == 0 {
						return // size-0 shapes cannot be a fixedshape.Type
					}
					if err != nil {
						t.Fatal(err)
					}
					defer a.Release()
					if diff := cmp.Diff(want, logical(t, a)); diff != "" {
						t.Errorf("values (-want +got):\n%s", diff)
					}
				})
			}
			if c.Expected.Hex == "" {
				return
			}
			// Write the same logical array and compare bytes. The
			// Fortran case is a tensor with the reversed permutation,
			// the transposed 3-D case a 3-cycle permutation.
			var perm []int
			switch {
			case h.FortranOrder:
				perm = reversedPerm(len(shape))
			case c.ID == "npy-f4-transposed-3d":
				perm = []int{2, 0, 1}
			}
			m, err := metadata.New(shape, nil, perm)
			if err != nil {
				t.Fatal(err)
			}
			if m.Size() == 0 {
				// A size-0 dimension cannot be a tensor type; write a
				// column of 0 tensors of the trailing shape instead.
				m = metadata.MustNew(shape[1:], nil, nil)
				if shape[0] != 0 || m.Size() == 0 {
					t.Fatalf("unexpected size-0 shape %v", shape)
				}
				a := fromLogical(t, h.Type, m, nil, nil)
				defer a.Release()
				checkWrite(t, c, func(b *bytes.Buffer) error { return npy.WriteColumn(b, a, versionOpts(c)...) })
				return
			}
			a := fromLogical(t, h.Type, m, want, nil)
			defer a.Release()
			checkWrite(t, c, func(b *bytes.Buffer) error { return npy.WriteTensor(b, a, 0, versionOpts(c)...) })
		})
	}
}

func versionOpts(c seedCase) []npy.WriteOption {
	o := []npy.WriteOption{npy.WithBigEndian(len(c.Input.Descr) > 0 && c.Input.Descr[0] == '>')}
	if len(c.Input.Version) == 2 {
		o = append(o, npy.WithVersion(c.Input.Version[0], c.Input.Version[1]))
	}
	return o
}

func checkWrite(t *testing.T, c seedCase, write func(*bytes.Buffer) error) {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(c.Expected.Hex, hex.EncodeToString(b.Bytes())); diff != "" {
		t.Errorf("written bytes (-want +got):\n%s", diff)
	}
}
