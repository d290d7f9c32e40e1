package fixedshape

import (
	"reflect"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/metadata"
)

// Unsupported is the type of an `arrow.fixed_shape_tensor` column that
// cannot be a [Type]: its element type is neither one of [ElemTypeOK] nor
// bool (pyarrow accepts any value type, string and list included), its extension
// metadata is invalid, or its shape has no elements. [Type.Deserialize]
// returns it instead of an error, so that arrow-go's IPC, Parquet and C
// Data readers, which fail a whole schema when one extension type fails
// to deserialize, still open every other column of the file.
//
// An Unsupported column is its storage: its arrays are [UnsupportedArray]
// with the storage array the file holds, and it is written back with the
// extension name and the extension metadata exactly as read
// ([Unsupported.Serialize]), so converting a file keeps it unchanged.
// [Unsupported.Reason] says why it is no tensor type. [TypeOf] reports
// false for it. An Unsupported type is immutable and safe for concurrent
// use.
type Unsupported struct {
	arrow.ExtensionBase
	data   string
	reason error
}

var _ arrow.ExtensionType = (*Unsupported)(nil)

// NewUnsupported returns the type of a column with storage type storage
// and extension metadata data that is no tensor type because of reason
// (kept as given; nil becomes a generic reason). It panics if storage is
// nil.
func NewUnsupported(storage arrow.DataType, data string, reason error) *Unsupported {
	if storage == nil {
		panic("fixedshape: NewUnsupported with a nil storage type")
	}
	if reason == nil {
		reason = &Error{errs.Unsupported("fixedshape", "%s column of storage %v is not supported", ExtensionName, storage)}
	}
	return &Unsupported{ExtensionBase: arrow.ExtensionBase{Storage: storage}, data: data, reason: reason}
}

// UnsupportedOf returns dt as an unsupported tensor type, and whether it
// is one.
func UnsupportedOf(dt arrow.DataType) (*Unsupported, bool) {
	u, ok := dt.(*Unsupported)
	return u, ok && u != nil
}

// Reason returns why the column is no tensor type: the error
// [ParseType] gives for its storage and metadata, which wraps
// arrow.ErrInvalid (and arrow.ErrNotImplemented for a shape without
// elements).
func (u *Unsupported) Reason() error { return u.reason }

// Metadata returns the column's tensor metadata and true when the
// extension metadata is valid (the element type is what is not
// supported), or false when the metadata itself is invalid.
func (u *Unsupported) Metadata() (metadata.Metadata, bool) {
	m, err := metadata.Parse([]byte(u.data))
	return m, err == nil
}

// ArrayType returns the Go type of the arrays of this type,
// [UnsupportedArray].
func (*Unsupported) ArrayType() reflect.Type { return reflect.TypeOf(UnsupportedArray{}) }

// ExtensionName returns [ExtensionName].
func (*Unsupported) ExtensionName() string { return ExtensionName }

// Serialize returns the extension metadata exactly as it was read.
func (u *Unsupported) Serialize() string { return u.data }

// Deserialize is [Type.Deserialize].
func (*Unsupported) Deserialize(storage arrow.DataType, data string) (arrow.ExtensionType, error) {
	return (*Type)(nil).Deserialize(storage, data)
}

// ExtensionEquals reports whether other is an unsupported tensor type
// with an equal storage type and the same extension metadata text.
func (u *Unsupported) ExtensionEquals(other arrow.ExtensionType) bool {
	o, ok := other.(*Unsupported)
	return ok && u.data == o.data && arrow.TypeEqual(u.Storage, o.Storage)
}

// Fingerprint identifies the type by storage and metadata text.
func (u *Unsupported) Fingerprint() string {
	return "fixedshape.unsupported:" + u.Storage.Fingerprint() + ":" + u.data
}

// String returns extension<arrow.fixed_shape_tensor[unsupported,
// storage=..., metadata="..."]>.
func (u *Unsupported) String() string {
	return "extension<" + ExtensionName + "[unsupported, storage=" + u.Storage.String() + ", metadata=" + strconv.Quote(u.data) + "]>"
}

// UnsupportedArray is a column of [Unsupported] type: an extension array
// whose Storage is the column as the file holds it. It is reference
// counted like every arrow-go array.
type UnsupportedArray struct {
	array.ExtensionArrayBase
}

var _ array.ExtensionArray = (*UnsupportedArray)(nil)

// UnsupportedType returns the array's type.
func (a *UnsupportedArray) UnsupportedType() *Unsupported { return a.DataType().(*Unsupported) }
