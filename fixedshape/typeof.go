package fixedshape

import "github.com/apache/arrow-go/v18/arrow"

// TypeOf returns dt as a tensor type, and whether it is one: the checked
// form of the type assertion dt.(*Type). Every column read through this
// module (IPC, Parquet, C Data, the codecs) with the
// `arrow.fixed_shape_tensor` extension has such a type, and so do fields of
// schemas built by [NewType]. A nil dt is no tensor type.
func TypeOf(dt arrow.DataType) (*Type, bool) {
	t, ok := dt.(*Type)
	return t, ok && t != nil
}

// TypeOfField returns the tensor type of field f, and whether its type is
// one; see [TypeOf].
func TypeOfField(f arrow.Field) (*Type, bool) { return TypeOf(f.Type) }
