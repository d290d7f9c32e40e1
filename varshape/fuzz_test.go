package varshape_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/varshape"
)

// FuzzDeserialize checks that any metadata either fails with
// arrow.ErrInvalid or gives a type whose serialization reads back equal
// and byte-identical.
func FuzzDeserialize(f *testing.F) {
	for _, s := range []string{
		`{}`, ``, `{"permutation":[0,1,2],"dim_names":["x","y","z"],"uniform_shape":[null,1,null]}`,
		`{"permutation":[2,0,1]}`, `{"uniform_shape":[1.5,null,null]}`, `{"dim_names":[1,2,3]}`,
		`{"permutations":[1,2,0]}`, `{"shape":(3,4)}`, `{"dim_names":["a\u0000","b","c"]}`,
	} {
		f.Add(s)
	}
	st := varshape.StorageOf(arrow.PrimitiveTypes.Int16, 3)
	f.Fuzz(func(t *testing.T, data string) {
		typ, err := (&varshape.Type{}).Deserialize(st, data)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			return
		}
		s := typ.(*varshape.Type).Serialize()
		back, err := typ.Deserialize(st, s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if !typ.ExtensionEquals(back.(arrow.ExtensionType)) || back.(*varshape.Type).Serialize() != s {
			t.Fatalf("%q -> %s -> %s", data, s, back.(*varshape.Type).Serialize())
		}
	})
}
