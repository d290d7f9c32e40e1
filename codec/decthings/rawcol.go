package decthings

import (
	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/fixedshape"
)

// newArray is rawcol.NewArray with this package's errors.
func newArray(typ *fixedshape.Type, raw []byte) (*fixedshape.Array, error) {
	arr, err := rawcol.NewArray(typ, raw)
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}
