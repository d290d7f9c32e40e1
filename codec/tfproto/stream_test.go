package tfproto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/tfproto"
)

// TestDelimitedExpectedCount cuts a length-delimited stream of four
// messages at and between message boundaries: a cut at a boundary reads
// as fewer tensors unless WithExpectedCount says how many there are.
func TestDelimitedExpectedCount(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	arr := buildColumn[int16](t, mem, arrow.PrimitiveTypes.Int16, []int{2, 3}, nil, nil, []bool{false, false, false, false})
	defer arr.Release()
	msgs, err := tfproto.AppendColumn(nil, arr)
	if err != nil {
		t.Fatal(err)
	}
	stream := tfproto.AppendDelimited(nil, msgs)
	three := len(tfproto.AppendDelimited(nil, msgs[:3]))
	tests := []struct {
		name    string
		in      []byte
		opts    []tfproto.ReadOption
		want    int // tensors read; 0: an error
		wantErr bool
	}{
		{name: "whole", in: stream, want: 4},
		{name: "whole, 4 expected", in: stream, opts: []tfproto.ReadOption{tfproto.WithExpectedCount(4)}, want: 4},
		{name: "cut at a boundary", in: stream[:three], want: 3},
		{name: "cut at a boundary, 4 expected", in: stream[:three], opts: []tfproto.ReadOption{tfproto.WithExpectedCount(4)}, wantErr: true},
		{name: "whole, 3 expected", in: stream, opts: []tfproto.ReadOption{tfproto.WithExpectedCount(3)}, wantErr: true},
		{name: "cut inside a message", in: stream[:three+2], wantErr: true},
		{name: "empty, 0 expected", in: nil, opts: []tfproto.ReadOption{tfproto.WithExpectedCount(0)}, wantErr: true}, // no tensors make no column
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tfproto.ReadDelimited(tt.in, tt.opts...)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("ReadDelimited error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if got.Len() != tt.want {
				t.Errorf("read %d tensors, want %d", got.Len(), tt.want)
			}
		})
	}
}

func TestSplitDelimitedLimit(t *testing.T) {
	// Every zero byte is an empty message.
	if _, err := tfproto.SplitDelimited(make([]byte, tfproto.MaxMessages)); err != nil {
		t.Fatalf("MaxMessages messages: %v", err)
	}
	_, err := tfproto.SplitDelimited(make([]byte, tfproto.MaxMessages+1))
	if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("MaxMessages+1 messages: got %v, want an ErrInvalid naming the limit", err)
	}
}
