package zio_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

// TestOrderIsBoost checks, for every permutation of a 4-D tensor, that the
// written "order" follows Boost's convention (order[0] the fastest axis:
// element strides increase along order) and that the column reads back
// equal with the same type, without copying the payload.
func TestOrderIsBoost(t *testing.T) {
	shape := []int{2, 3, 4, 5}
	for _, perm := range permutations(len(shape)) {
		typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Int32, metadata.MustNew(shape, nil, perm))
		data := make([]int32, typ.ListSize())
		for i := range data {
			data[i] = int32(i)
		}
		arr, err := fixedshape.FromSlice(typ, data, nil)
		if err != nil {
			t.Fatal(err)
		}
		var m zio.Message
		if err := zio.AppendTensor(&m, arr, 0); err != nil {
			t.Fatal(err)
		}
		l, err := zio.ParseLabel(m.Label)
		if err != nil {
			t.Fatal(err)
		}
		order := l.TENS.Tensors[0].Order
		if order == nil {
			order = []int{3, 2, 1, 0}
		}
		strides := typ.ElemStrides()
		if strides[order[0]] != 1 {
			t.Errorf("perm %v: order %v, fastest axis %d has stride %d", perm, order, order[0], strides[order[0]])
		}
		for k := 1; k < len(order); k++ {
			if strides[order[k]] <= strides[order[k-1]] {
				t.Errorf("perm %v: order %v, strides %v do not increase along it", perm, order, strides)
			}
		}
		got, err := zio.ReadColumn(&m)
		if err != nil {
			t.Fatal(err)
		}
		if !got.TensorType().ExtensionEquals(typ) || !fixedshape.Equal(arr, got) {
			t.Errorf("perm %v: read back %s, want %s", perm, got.TensorType(), typ)
		}
		if &got.ValueBytes()[0] != &arr.ValueBytes()[0] {
			t.Errorf("perm %v: ReadColumn copied an ascending aligned tensor", perm)
		}
		got.Release()
		arr.Release()
	}
}
