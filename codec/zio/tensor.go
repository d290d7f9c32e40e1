package zio

import (
	"encoding/json"
	"github.com/fstensor/fstensor/codec/internal/rawcol"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Form is the message form of tensor messages.
const Form = "TENS"

// dimNamesKey is the per-tensor metadata key holding the dimension names.
const dimNamesKey = "dim_names"

// ElemType returns the Arrow element type of a TENS (dtype, word) pair:
// f2, f4, f8 float16/32/64; i1..i8 int8..int64; u1..u8 uint8..uint64; b1
// bool (one byte 0 or 1 per element on the wire, as ZIO's C++ writes a
// bool array; bit-packed in the column). The complex "c" kind is valid TENS
// but has no fixedshape element type: it is refused with an error wrapping
// arrow.ErrInvalid and arrow.ErrNotImplemented. Any other pair, "b" with a
// word other than 1 included, is an error wrapping arrow.ErrInvalid.
func ElemType(dtype string, word int) (arrow.DataType, error) {
	var dt arrow.DataType
	switch dtype + string(rune('0'+word)) {
	case "f2":
		dt = arrow.FixedWidthTypes.Float16
	case "f4":
		dt = arrow.PrimitiveTypes.Float32
	case "f8":
		dt = arrow.PrimitiveTypes.Float64
	case "i1":
		dt = arrow.PrimitiveTypes.Int8
	case "i2":
		dt = arrow.PrimitiveTypes.Int16
	case "i4":
		dt = arrow.PrimitiveTypes.Int32
	case "i8":
		dt = arrow.PrimitiveTypes.Int64
	case "u1":
		dt = arrow.PrimitiveTypes.Uint8
	case "u2":
		dt = arrow.PrimitiveTypes.Uint16
	case "u4":
		dt = arrow.PrimitiveTypes.Uint32
	case "u8":
		dt = arrow.PrimitiveTypes.Uint64
	case "b1":
		dt = arrow.FixedWidthTypes.Boolean
	}
	if dt != nil && word >= 1 && word <= 8 {
		return dt, nil
	}
	if dtype == "c" {
		return nil, unsupported("dtype %q word %d has no fixed-shape element type", dtype, word)
	}
	return nil, errorf("dtype %q word %d is not a TENS element type", dtype, word)
}

// DType returns the TENS dtype and word of an Arrow element type ("b" and
// 1 for bool), and false for a type that is not a tensor element type (nil
// included).
func DType(dt arrow.DataType) (dtype string, word int, ok bool) {
	if dt == nil {
		return "", 0, false
	}
	switch dt.ID() {
	case arrow.BOOL:
		return "b", 1, true
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		dtype = "f"
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		dtype = "i"
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		dtype = "u"
	default:
		return "", 0, false
	}
	return dtype, dt.(arrow.FixedWidthDataType).BitWidth() / 8, true
}

// TensorType returns the fixedshape type of the tensor ti describes: its
// element type (ElemType), its logical shape, its dimension names (from
// Metadata["dim_names"]) and the permutation that stores it in the given
// Order. Ascend is not part of the type: ReadColumn flips descending axes
// by copying. Errors wrap arrow.ErrInvalid: an element type, an Order that
// is not a permutation of the axes, an Ascend or dim_names of the wrong
// length, an invalid shape (and, from fixedshape.NewType, a shape with no
// elements).
func (ti *TensorInfo) TensorType() (*fixedshape.Type, error) {
	dt, err := ElemType(ti.DType, ti.Word)
	if err != nil {
		return nil, err
	}
	n := len(ti.Shape)
	var perm []int
	if ti.Order != nil {
		if len(ti.Order) != n {
			return nil, errorf("order %v has %d entries for %d dimensions", ti.Order, len(ti.Order), n)
		}
		if err := stride.CheckPermutation(ti.Order); err != nil {
			return nil, wrap(err, "order %v", ti.Order)
		}
		// Physical axis j (0 slowest) holds logical axis q[j]; perm = q^-1.
		q := make([]int, n)
		for j := range q {
			q[j] = ti.Order[n-1-j]
		}
		if !stride.IsIdentity(q) {
			perm = stride.Invert(nil, q)
		}
	}
	if ti.Ascend != nil && len(ti.Ascend) != n {
		return nil, errorf("ascend %v has %d entries for %d dimensions", ti.Ascend, len(ti.Ascend), n)
	}
	var names []string
	if raw, ok := ti.Metadata[dimNamesKey]; ok {
		if err := json.Unmarshal(raw, &names); err != nil {
			return nil, errorf("metadata %q %s is not an array of strings", dimNamesKey, clip(string(raw)))
		}
	}
	m, err := metadata.New(ti.Shape, names, perm)
	if err != nil {
		return nil, wrap(err, "shape %s", metadata.FormatShape(ti.Shape))
	}
	typ, err := fixedshape.NewType(dt, m)
	if err != nil {
		return nil, wrap(err, "shape %s", metadata.FormatShape(ti.Shape))
	}
	return typ, nil
}

// infoOf returns the description of a tensor of typ stored at payload part.
func infoOf(typ *fixedshape.Type, part int) (TensorInfo, error) {
	dtype, word, ok := DType(typ.ElemType())
	if !ok {
		return TensorInfo{}, errorf("element type %s has no TENS dtype", typ.ElemType())
	}
	m := typ.Metadata()
	ti := TensorInfo{Shape: m.Shape(), Word: word, DType: dtype, Part: &part}
	if m.HasPermutation() && !stride.IsIdentity(m.Permutation()) {
		q := stride.Invert(nil, m.Permutation())
		n := len(q)
		ti.Order = make([]int, n)
		for k := range ti.Order {
			ti.Order[k] = q[n-1-k]
		}
	}
	if m.HasDimNames() {
		raw, err := json.Marshal(m.DimNames())
		if err != nil {
			return TensorInfo{}, wrap(err, "dim names")
		}
		ti.Metadata = map[string]json.RawMessage{dimNamesKey: raw}
	}
	return ti, nil
}

// AppendTensor adds tensor i of arr to m as zio::tens::append does: its
// physical bytes become a new payload part, shared with the column (not
// copied; a bool tensor is written as a new part of one byte 0 or 1 per
// element, in physical order), and an entry is appended to the label's TENS.tensors with "part"
// the new part's index, the logical "shape", "word" and "dtype", the storage
// "order" when the column's permutation is not the identity, and the
// dimension names in the entry's "metadata". The form becomes TENS; the
// label is rewritten with keys sorted, keeping its other keys.
//
// Errors wrap arrow.ErrInvalid: a label that ParseLabel refuses, an array
// failing Validate, a null tensor (TENS has no nulls). m is unchanged on
// error. It panics if i is out of range.
func AppendTensor(m *Message, arr *fixedshape.Array, i int) error {
	if i < 0 || i >= arr.Len() {
		panic("zio: tensor index out of range")
	}
	return appendTensors(m, arr, i, i+1)
}

// AppendColumn adds every tensor of arr to m, in order, as AppendTensor
// does: one payload part and one TENS.tensors entry each. m is unchanged on
// error.
func AppendColumn(m *Message, arr *fixedshape.Array) error {
	return appendTensors(m, arr, 0, arr.Len())
}

func appendTensors(m *Message, arr *fixedshape.Array, from, to int) error {
	l, err := ParseLabel(m.Label)
	if err != nil {
		return err
	}
	if err := arr.Validate(); err != nil {
		return wrap(err, "column")
	}
	for i := from; i < to; i++ {
		if arr.IsNull(i) {
			return nullTensor("tensor %d is null; TENS has no null tensors", i)
		}
	}
	if l.TENS == nil {
		l.TENS = &Tens{}
	}
	payload := m.Payload
	for i := from; i < to; i++ {
		ti, err := infoOf(arr.TensorType(), len(payload))
		if err != nil {
			return err
		}
		l.TENS.Tensors = append(l.TENS.Tensors, ti)
		if fixedshape.BitElem(arr.TensorType().ElemType()) {
			payload = append(payload, boolBytes(arr, i))
		} else {
			payload = append(payload, rawcol.TensorBytes(arr, i))
		}
	}
	label, err := l.AppendJSON(nil)
	if err != nil {
		return err
	}
	m.Form, m.Label, m.Payload = Form, string(label), payload
	return nil
}

// ReadColumn returns every tensor described by the TENS labels of msgs, in
// order, as one fixedshape column. All must have the same type (element
// type, shape, dimension names and order). A single tensor stored ascending
// and aligned is wrapped without copying, sharing its payload part;
// otherwise the tensors are copied into one Go-owned buffer, and an axis
// with "ascend": false is flipped by that copy. Bool tensors (dtype "b",
// one byte 0 or 1 per element) are always copied, packed into bits.
//
// Messages whose label has no "TENS" key (whatever their form) are skipped.
//
// Errors wrap arrow.ErrInvalid: no tensors at all, a label ParseLabel
// refuses, a description TensorType refuses,
// differing types, a "part" outside the payload, a part whose size is not the
// tensor's byte size, a bool element byte other than 0 or 1 (the error names
// the message, the tensor entry and the element's index in the part).
func ReadColumn(msgs ...*Message) (*fixedshape.Array, error) {
	var (
		typ  *fixedshape.Type
		srcs []tensorSrc
	)
	for k, m := range msgs {
		l, err := ParseLabel(m.Label)
		if err != nil {
			return nil, wrap(err, "message %d", k)
		}
		if l.TENS == nil {
			continue
		}
		for j := range l.TENS.Tensors {
			ti := &l.TENS.Tensors[j]
			t, err := ti.TensorType()
			if err != nil {
				return nil, wrap(err, "message %d TENS.tensors[%d]", k, j)
			}
			if typ == nil {
				typ = t
			} else if !t.ExtensionEquals(typ) {
				return nil, errorf("message %d TENS.tensors[%d] is %s, the first tensor is %s", k, j, t, typ)
			}
			part := j
			if ti.Part != nil {
				part = *ti.Part
			}
			if part >= len(m.Payload) {
				return nil, errorf("message %d TENS.tensors[%d]: part %d, the message has %d payload parts", k, j, part, len(m.Payload))
			}
			data := m.Payload[part]
			if want := t.ListSize() * wordOf(t); len(data) != want {
				return nil, errorf("message %d TENS.tensors[%d]: part %d has %d bytes, shape %s of %d-byte words needs %d", k, j, part, len(data), metadata.FormatShape(ti.Shape), ti.Word, want)
			}
			if fixedshape.BitElem(t.ElemType()) {
				if e, v := badBool(data); e >= 0 {
					return nil, errorf("message %d TENS.tensors[%d]: part %d: bool element %d is %d, not 0 or 1", k, j, part, e, v)
				}
			}
			srcs = append(srcs, tensorSrc{info: ti, data: data})
		}
	}
	if len(srcs) == 0 {
		return nil, errorf("no TENS tensors in %d messages", len(msgs))
	}
	if fixedshape.BitElem(typ.ElemType()) {
		return boolColumn(typ, srcs)
	}
	if len(srcs) == 1 && !descending(srcs[0].info.Ascend) {
		return newArray(typ, srcs[0].data)
	}
	size := typ.ListSize() * typ.ElemWidth()
	buf := rawcol.AlignedBytes(len(srcs) * size)
	for i, s := range srcs {
		dst := buf[i*size : (i+1)*size]
		if descending(s.info.Ascend) {
			flip(dst, s.data, typ, s.info.Ascend)
		} else {
			copy(dst, s.data)
		}
	}
	return newArray(typ, buf)
}

// tensorSrc is one tensor ReadColumn found: its description and its
// payload part.
type tensorSrc struct {
	info *TensorInfo
	data []byte
}

// wordOf returns the size in bytes of one element of typ on the wire: its
// element width, 1 for bool.
func wordOf(typ *fixedshape.Type) int {
	if fixedshape.BitElem(typ.ElemType()) {
		return 1
	}
	return typ.ElemWidth()
}

func descending(ascend []bool) bool {
	for _, a := range ascend {
		if !a {
			return true
		}
	}
	return false
}
