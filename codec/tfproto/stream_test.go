package tfproto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/internal/codectest"
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
	codectest.RunCountCases(t, []codectest.CountCase[tfproto.ReadOption]{
		{Name: "whole", In: stream, Want: 4},
		{Name: "whole, 4 expected", In: stream, Opts: []tfproto.ReadOption{tfproto.WithExpectedCount(4)}, Want: 4},
		{Name: "cut at a boundary", In: stream[:three], Want: 3},
		{Name: "cut at a boundary, 4 expected", In: stream[:three], Opts: []tfproto.ReadOption{tfproto.WithExpectedCount(4)}, WantErr: true},
		{Name: "whole, 3 expected", In: stream, Opts: []tfproto.ReadOption{tfproto.WithExpectedCount(3)}, WantErr: true},
		{Name: "cut inside a message", In: stream[:three+2], WantErr: true},
		{Name: "empty, 0 expected", In: nil, Opts: []tfproto.ReadOption{tfproto.WithExpectedCount(0)}, WantErr: true}, // no tensors make no column
	}, tfproto.ReadDelimited)
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
