package metadata_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/metadata"
)

func TestFormatShape(t *testing.T) {
	tests := []struct {
		shape []int
		want  string
	}{
		{[]int{}, "()"},
		{nil, "()"},
		{[]int{3}, "(3,)"},
		{[]int{3, 4}, "(3,4)"},
		{[]int{3, 0, 4}, "(3,0,4)"},
		{[]int{2147483647, 1}, "(2147483647,1)"},
	}
	for _, tt := range tests {
		if got := metadata.FormatShape(tt.shape); got != tt.want {
			t.Errorf("FormatShape(%v) = %s, want %s", tt.shape, got, tt.want)
		}
		if got := string(metadata.AppendShape([]byte("x"), tt.shape)); got != "x"+tt.want {
			t.Errorf("AppendShape(x, %v) = %s", tt.shape, got)
		}
	}
}

// ifInt returns dims as a shape when each fits in an int, and nil (the
// table's "want an error") otherwise: on a 32-bit platform a dimension above
// math.MaxInt32 is out of range, where 64-bit reads it.
func ifInt(dims ...int64) []int {
	shape := make([]int, len(dims))
	for i, d := range dims {
		if strconv.IntSize == 32 && d > math.MaxInt32 {
			return nil
		}
		shape[i] = int(d)
	}
	return shape
}

func TestParseShape(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []int // nil: error
	}{
		{"0-D", "()", []int{}},
		{"0-D list", "[]", []int{}},
		{"one", "(3,)", []int{3}},
		{"one without comma", "(3)", []int{3}},
		{"non-square", "(3,4)", []int{3, 4}},
		{"list form", "[3,4]", []int{3, 4}},
		{"spaces", " ( 3 , 4 ) ", []int{3, 4}},
		{"trailing comma", "(3,4,)", []int{3, 4}},
		{"size-0", "(0,5)", []int{0, 5}},
		{"max int", "(" + strconv.Itoa(math.MaxInt) + ")", []int{math.MaxInt}},
		{"max int plus one", "(" + strconv.FormatUint(math.MaxInt+1, 10) + ")", nil},
		{"max int64", "(9223372036854775807)", ifInt(math.MaxInt64)},
		{"above 32 bits", "(4294967297,3)", ifInt(1<<32+1, 3)},
		{"negative", "(-1,2)", nil},
		{"plus sign", "(+1,2)", nil},
		{"missing comma", "(3 4)", nil},
		{"doubled comma", "(3,,4)", nil},
		{"lone comma", "(,)", nil},
		{"mismatched", "(3,4]", nil},
		{"unclosed", "(3,4", nil},
		{"no brackets", "3,4", nil},
		{"trailing text", "(3,4)x", nil},
		{"two tuples", "(3)(4)", nil},
		{"overflow", "(9223372036854775808)", nil},
		{"suffix", "(3L,)", nil},
		{"float", "(3.0,)", nil},
		{"hex", "(0x10,)", nil},
		{"empty", "", nil},
		{"nested", "((3))", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := metadata.ParseShape(tt.text)
			if tt.want == nil {
				if err == nil {
					t.Fatalf("ParseShape(%q) = %v, want error", tt.text, got)
				}
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseShape(%q): %v", tt.text, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseShape(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
	long := "(" + strings.Repeat("1,", metadata.MaxDims+1) + ")"
	if _, err := metadata.ParseShape(long); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("ParseShape of %d dims: %v, want an error", metadata.MaxDims+1, err)
	}
	if _, err := metadata.ParseShape(strings.Repeat(" ", metadata.MaxShapeText+1)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("ParseShape of overlong text: %v, want an error", err)
	}
}
