package decthings

import (
	"errors"

	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"github.com/fstensor/fstensor/fixedshape"
)

// boolColumn packs the boolean contents of ts, one byte 0 or 1 per element,
// whose lengths NewColumn checked, into a bool column of typ.
func boolColumn(typ *fixedshape.Type, ts []Tensor) (*fixedshape.Array, error) {
	arr, err := rawcol.PackBools(typ, len(ts), func(i int) []byte { return ts[i].Data })
	if bad := (*rawcol.BadBool)(nil); errors.As(err, &bad) {
		return nil, errorf("column: tensor %d: boolean element %d is %d, not 0 or 1", bad.Tensor, bad.Elem, bad.Value)
	}
	if err != nil {
		return nil, wrap(err, "column")
	}
	return arr, nil
}
