package arrowipc_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// schemaMessage returns the encapsulated Schema message of s (the
// start of an IPC stream; the end-of-stream marker follows it).
func checkSchemaMessageOf(t testing.TB, s *arrow.Schema) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkSchemaSample(t testing.TB) *arrow.Schema {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, []string{"h", "w"}, []int{1, 0}))
	md := arrow.NewMetadata([]string{"k"}, []string{"v"})
	return arrow.NewSchema([]arrow.Field{{Name: "t", Type: typ, Nullable: true}, {Name: "i", Type: arrow.PrimitiveTypes.Int64}}, &md)
}

func TestCheckSchemaMessage(t *testing.T) {
	valid := checkSchemaMessageOf(t, checkSchemaSample(t))
	n := binary.LittleEndian.Uint32(valid[4:])
	legacy := append([]byte(nil), valid[4:]...) // pre-1.0: no continuation marker
	hugeLen := append([]byte(nil), valid...)
	binary.LittleEndian.PutUint32(hugeLen[4:], 1<<30)
	negLen := append([]byte(nil), valid...)
	binary.LittleEndian.PutUint32(negLen[4:], 0xfffffff0)

	// A vector length (the first 1 after which the key "k" follows) set to 2^28
	// elements.
	hugeVec := append([]byte(nil), valid...)
	patched := false
	for p := 8; p+4 <= 8+int(n); p += 4 {
		if binary.LittleEndian.Uint32(hugeVec[p:]) == 1 && bytes.Contains(hugeVec[p:8+int(n)], []byte("k")) {
			cp := append([]byte(nil), hugeVec...)
			binary.LittleEndian.PutUint32(cp[p:], 1<<28)
			if arrowipc.CheckSchemaMessage(cp) != nil {
				hugeVec, patched = cp, true
				break
			}
		}
	}
	if !patched {
		t.Fatal("no vector length to patch")
	}

	tests := []struct {
		name string
		b    []byte
		ok   bool
	}{
		{"valid", valid, true},
		{"legacy prefix", legacy, true},
		{"empty", nil, false},
		{"marker only", valid[:4], false},
		{"truncated metadata", valid[:8+n-1], false},
		{"length too large", hugeLen, false},
		{"negative length", negLen, false},
		{"end of stream", []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0}, false},
		{"vector length beyond the buffer", hugeVec, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := arrowipc.CheckSchemaMessage(tt.b)
			if tt.ok {
				if err != nil {
					t.Fatalf("CheckSchemaMessage: %v", err)
				}
				r, err := ipc.NewReader(bytes.NewReader(tt.b))
				if err != nil {
					t.Fatalf("arrow-go cannot read a message that passed: %v", err)
				}
				r.Release()
				return
			}
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("CheckSchemaMessage = %v, want an error wrapping arrow.ErrInvalid", err)
			}
		})
	}
}

// FuzzCheckSchemaMessage feeds arbitrary bytes to CheckSchemaMessage;
// a message that passes must be decoded by arrow-go without a panic.
func FuzzCheckSchemaMessage(f *testing.F) {
	f.Add(checkSchemaMessageOf(f, checkSchemaSample(f)))
	f.Add(checkSchemaMessageOf(f, arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.ListOf(arrow.PrimitiveTypes.Uint8)}}, nil)))
	f.Fuzz(func(t *testing.T, b []byte) {
		err := arrowipc.CheckSchemaMessage(b)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error does not wrap arrow.ErrInvalid: %v", err)
			}
			return
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("arrow-go panicked on a message that passed: %v", r)
				}
			}()
			r, err := ipc.NewReader(bytes.NewReader(b))
			if err == nil {
				r.Release()
			}
		}()
	})
}
