package fixedshape_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
)

// FuzzDeserialize feeds arbitrary metadata and storage list sizes to
// Deserialize: no panics, and accepted types survive Serialize.
func FuzzDeserialize(f *testing.F) {
	f.Add(`{"shape":[3,4],"dim_names":["x","y"]}`, uint16(12), uint8(3))
	f.Add(`{"shape":[3,4,2],"permutation":[2,0,1]}`, uint16(24), uint8(9))
	f.Add(`{"shape":[]}`, uint16(1), uint8(0))
	f.Add(`{"shape":[2,3],"dim_names":null,"permutations":[1,0]}`, uint16(6), uint8(5))
	f.Add(`{"shape":[0]}`, uint16(1), uint8(1))
	elems := []arrow.DataType{
		arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int64,
		arrow.PrimitiveTypes.Uint8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint32, arrow.PrimitiveTypes.Uint64,
		arrow.FixedWidthTypes.Float16, arrow.PrimitiveTypes.Float32, arrow.PrimitiveTypes.Float64,
		arrow.FixedWidthTypes.Boolean, arrow.BinaryTypes.String,
	}
	f.Fuzz(func(t *testing.T, data string, listSize uint16, elem uint8) {
		if listSize == 0 {
			listSize = 1 // arrow-go cannot type a FixedSizeList of size 0
		}
		storage := arrow.FixedSizeListOf(int32(listSize), elems[int(elem)%len(elems)])
		got, err := (&fixedshape.Type{}).Deserialize(storage, data)
		if err != nil {
			t.Fatalf("Deserialize(%v, %q): %v", storage, data, err)
		}
		if u, ok := fixedshape.UnsupportedOf(got); ok {
			if !errors.Is(u.Reason(), arrow.ErrInvalid) || u.Serialize() != data || !arrow.TypeEqual(u.StorageType(), storage) {
				t.Fatalf("unsupported %v: reason %v", u, u.Reason())
			}
			return
		}
		typ := got.(*fixedshape.Type)
		if typ.ListSize() != int(listSize) {
			t.Fatalf("list size %d accepted for storage of %d", typ.ListSize(), listSize)
		}
		back, err := typ.Deserialize(storage, typ.Serialize())
		if err != nil || !arrow.TypeEqual(back, typ) {
			t.Fatalf("Serialize %s does not deserialize back: %v", typ.Serialize(), err)
		}
		_ = typ.String()
		_ = typ.ByteStrides()
	})
}
