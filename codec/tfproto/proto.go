package tfproto

import (
	"encoding/binary"
	"github.com/fstensor/fstensor/codec/internal/rawcol"
	"math"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Field numbers of tensorflow.TensorProto and tensorflow.TensorShapeProto.
const (
	fieldDType         = 1
	fieldShape         = 2
	fieldVersionNumber = 3
	fieldContent       = 4
	fieldFloatVal      = 5
	fieldDoubleVal     = 6
	fieldIntVal        = 7
	fieldStringVal     = 8
	fieldInt64Val      = 10
	fieldBoolVal       = 11
	fieldHalfVal       = 13
	fieldUint32Val     = 16
	fieldUint64Val     = 17

	fieldShapeDim         = 2
	fieldShapeUnknownRank = 3
	fieldDimSize          = 1
	fieldDimName          = 2
)

// MaxDims is the largest number of dimensions Decode accepts.
const MaxDims = metadata.MaxDims

// DefaultMaxBytes is the largest element data Decode materializes from the
// typed *_val fields (which can describe a large tensor in a few bytes, as a
// repeated last value).
const DefaultMaxBytes = 1 << 28

// Tensor is one decoded TensorProto, or one to encode.
//
// Content holds the elements of a numeric or Bool tensor in C (row-major)
// order, little-endian, Size()*DType.Width() bytes: Bool one byte 0 or 1
// each, Half and BFloat16 their 16-bit patterns. Strings holds the elements
// of a String tensor. DimNames is nil when no dimension has a name, and
// otherwise has one entry per dimension ("" for an unnamed one).
//
// A Tensor from Decode whose data came from tensor_content shares Content
// with the decoded bytes; Strings elements share them too.
type Tensor struct {
	DType    DataType
	Shape    []int
	DimNames []string
	Content  []byte
	Strings  [][]byte
}

// Size returns the number of elements, 1 for a 0-D tensor. It assumes a
// valid shape.
func (t *Tensor) Size() int {
	n, _ := stride.NumElements(t.Shape)
	return n
}

// AppendTensor appends t as a serialized TensorProto to dst: dtype (field 1),
// tensor_shape (field 2, each dim with its size and name, proto3 defaults
// left out) and the data, in tensor_content (field 4) for numeric and Bool
// tensors, as string_val (field 8) for String tensors. The bytes are those
// protobuf's own serializer writes for the same message.
//
// Errors wrap arrow.ErrInvalid: an unsupported dtype, an invalid shape, more
// than MaxDims dimensions, DimNames of the wrong length, Content or Strings
// not matching the shape, a Bool byte other than 0 or 1. dst is returned
// unchanged on error.
func AppendTensor(dst []byte, t *Tensor) ([]byte, error) {
	if !t.DType.Supported() {
		return dst, unsupported("dtype %s is not supported", t.DType)
	}
	if len(t.Shape) > MaxDims {
		return dst, errorf("shape has %d dimensions, more than %d", len(t.Shape), MaxDims)
	}
	n, err := stride.NumElements(t.Shape)
	if err != nil {
		return dst, wrap(err, "shape %s", metadata.FormatShape(t.Shape))
	}
	if t.DimNames != nil && len(t.DimNames) != len(t.Shape) {
		return dst, errorf("%d dim names for %d dimensions", len(t.DimNames), len(t.Shape))
	}
	if t.DType == String {
		if len(t.Strings) != n {
			return dst, errorf("DT_STRING tensor of shape %s needs %d strings, has %d", metadata.FormatShape(t.Shape), n, len(t.Strings))
		}
	} else {
		size, ok := stride.MulCheck(n, t.DType.Width())
		if !ok || len(t.Content) != size {
			return dst, errorf("%s tensor of shape %s needs %d content bytes, has %d", t.DType, metadata.FormatShape(t.Shape), size, len(t.Content))
		}
		if t.DType == Bool {
			for i, b := range t.Content {
				if b > 1 {
					return dst, errorf("DT_BOOL element %d is %d, not 0 or 1", i, b)
				}
			}
		}
	}
	dst = protowire.AppendTag(dst, fieldDType, protowire.VarintType)
	dst = protowire.AppendVarint(dst, uint64(t.DType))
	var shape []byte
	for i, d := range t.Shape {
		var dim []byte
		if d != 0 {
			dim = protowire.AppendTag(dim, fieldDimSize, protowire.VarintType)
			dim = protowire.AppendVarint(dim, uint64(d))
		}
		if t.DimNames != nil && t.DimNames[i] != "" {
			dim = protowire.AppendTag(dim, fieldDimName, protowire.BytesType)
			dim = protowire.AppendString(dim, t.DimNames[i])
		}
		shape = protowire.AppendTag(shape, fieldShapeDim, protowire.BytesType)
		shape = protowire.AppendBytes(shape, dim)
	}
	dst = protowire.AppendTag(dst, fieldShape, protowire.BytesType)
	dst = protowire.AppendBytes(dst, shape)
	if t.DType == String {
		for _, s := range t.Strings {
			dst = protowire.AppendTag(dst, fieldStringVal, protowire.BytesType)
			dst = protowire.AppendBytes(dst, s)
		}
		return dst, nil
	}
	if len(t.Content) > 0 {
		dst = protowire.AppendTag(dst, fieldContent, protowire.BytesType)
		dst = protowire.AppendBytes(dst, t.Content)
	}
	return dst, nil
}

// valField returns the typed *_val field that holds elements of d.
func valField(d DataType) protowire.Number {
	switch d {
	case Float:
		return fieldFloatVal
	case Double:
		return fieldDoubleVal
	case Int8, Int16, Int32, Uint8, Uint16:
		return fieldIntVal
	case Int64:
		return fieldInt64Val
	case Uint32:
		return fieldUint32Val
	case Uint64:
		return fieldUint64Val
	case Bool:
		return fieldBoolVal
	case Half, BFloat16:
		return fieldHalfVal
	case String:
		return fieldStringVal
	}
	return 0
}

// Decode reads a serialized TensorProto. It is DecodeMax with
// DefaultMaxBytes.
func Decode(b []byte) (Tensor, error) { return DecodeMax(b, DefaultMaxBytes) }

// DecodeMax reads a serialized TensorProto: the dtype, the shape with its
// dim names, and the elements from tensor_content when it is not empty, else
// from the typed *_val field of the dtype, packed or not: as TensorFlow's
// Tensor::FromProto does, a list shorter than the element count repeats its
// last value and an empty one gives zeros. Those materialized elements may
// take at most maxBytes; tensor_content is shared, never copied.
//
// Errors wrap arrow.ErrInvalid: malformed protobuf, an unsupported dtype
// (complex, quantized, resource, variant: also arrow.ErrNotImplemented), an
// unknown rank or a dimension of unknown (-1) or negative size (a dense
// tensor needs its full shape), more than MaxDims dimensions, an
// overflowing shape, tensor_content of the wrong length or on a DT_STRING
// tensor, more *_val values than elements (TensorFlow ignores the excess;
// this is stricter), a Bool value other than 0 or 1, data beyond maxBytes.
// Unknown fields and the *_val fields of other dtypes are skipped, as
// protobuf parsers do.
func DecodeMax(b []byte, maxBytes int) (Tensor, error) {
	var (
		dtype       DataType
		dims        = []int{}
		names       []string
		named       bool
		unknownRank bool
		content     []byte
		vals        []rawVal
	)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return Tensor{}, protoErr(n, "tag")
		}
		b = b[n:]
		switch {
		case num == fieldDType && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return Tensor{}, protoErr(n, "dtype")
			}
			dtype = DataType(int32(v))
			b = b[n:]
			continue
		case num == fieldShape && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return Tensor{}, protoErr(n, "tensor_shape")
			}
			var err error
			if dims, names, named, unknownRank, err = decodeShape(v, dims, names, named, unknownRank); err != nil {
				return Tensor{}, err
			}
			b = b[n:]
			continue
		case num == fieldContent && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return Tensor{}, protoErr(n, "tensor_content")
			}
			content = v
			b = b[n:]
			continue
		case num >= fieldFloatVal && num <= fieldUint64Val && num != fieldContent && num != 9 && num != 12 && num != 14 && num != 15:
			v, n := consumeAny(b, num, typ)
			if n < 0 {
				return Tensor{}, protoErr(n, "field "+itoa(int(num)))
			}
			vals = append(vals, rawVal{num: num, typ: typ, b: v})
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return Tensor{}, protoErr(n, "field "+itoa(int(num)))
		}
		b = b[n:]
	}
	if !dtype.Supported() {
		return Tensor{}, unsupported("dtype %s is not supported", dtype)
	}
	if unknownRank {
		return Tensor{}, errorf("tensor_shape has an unknown rank; a dense tensor needs its shape")
	}
	for i, d := range dims {
		if d < 0 {
			return Tensor{}, errorf("tensor_shape dim %d has size %d (unknown); a dense tensor needs its shape", i, d)
		}
	}
	n, err := stride.NumElements(dims)
	if err != nil {
		return Tensor{}, wrap(err, "tensor_shape %s", metadata.FormatShape(dims))
	}
	t := Tensor{DType: dtype, Shape: dims}
	if named {
		t.DimNames = names
	}
	if len(content) > 0 {
		if dtype == String {
			return Tensor{}, errorf("DT_STRING tensor has tensor_content")
		}
		size, ok := stride.MulCheck(n, dtype.Width())
		if !ok || len(content) != size {
			return Tensor{}, errorf("%s tensor of shape %s has %d bytes of tensor_content, needs %d", dtype, metadata.FormatShape(dims), len(content), size)
		}
		if dtype == Bool {
			for i, v := range content {
				if v > 1 {
					return Tensor{}, errorf("DT_BOOL element %d is %d, not 0 or 1", i, v)
				}
			}
		}
		t.Content = content[:len(content):len(content)]
		return t, nil
	}
	if err := fillVals(&t, n, vals, maxBytes); err != nil {
		return Tensor{}, err
	}
	return t, nil
}

type rawVal struct {
	num protowire.Number
	typ protowire.Type
	b   []byte // the field's value: a varint/fixed value's bytes or a packed run
}

func consumeAny(b []byte, num protowire.Number, typ protowire.Type) ([]byte, int) {
	switch typ {
	case protowire.BytesType:
		v, n := protowire.ConsumeBytes(b)
		return v, n
	default:
		n := protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, n
		}
		return b[:n], n
	}
}

func decodeShape(b []byte, dims []int, names []string, named, unknownRank bool) ([]int, []string, bool, bool, error) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, nil, false, false, protoErr(n, "tensor_shape tag")
		}
		b = b[n:]
		switch {
		case num == fieldShapeDim && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, nil, false, false, protoErr(n, "tensor_shape dim")
			}
			if len(dims) == MaxDims {
				return nil, nil, false, false, errorf("tensor_shape has more than %d dims", MaxDims)
			}
			size, name, err := decodeDim(v)
			if err != nil {
				return nil, nil, false, false, err
			}
			dims = append(dims, size)
			names = append(names, name)
			named = named || name != ""
			b = b[n:]
			continue
		case num == fieldShapeUnknownRank && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return nil, nil, false, false, protoErr(n, "tensor_shape unknown_rank")
			}
			unknownRank = v != 0
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return nil, nil, false, false, protoErr(n, "tensor_shape field "+itoa(int(num)))
		}
		b = b[n:]
	}
	return dims, names, named, unknownRank, nil
}

func decodeDim(b []byte) (int, string, error) {
	var size int64
	var name string
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return 0, "", protoErr(n, "dim tag")
		}
		b = b[n:]
		switch {
		case num == fieldDimSize && typ == protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return 0, "", protoErr(n, "dim size")
			}
			size = int64(v)
			b = b[n:]
			continue
		case num == fieldDimName && typ == protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return 0, "", protoErr(n, "dim name")
			}
			name = string(v)
			b = b[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, b)
		if n < 0 {
			return 0, "", protoErr(n, "dim field "+itoa(int(num)))
		}
		b = b[n:]
	}
	if size > math.MaxInt || size < math.MinInt {
		return 0, "", errorf("dim size %d does not fit an int", size)
	}
	return int(size), name, nil
}

// fillVals materializes the *_val elements of t's dtype into t.Content (or
// t.Strings), repeating the last value up to n elements.
func fillVals(t *Tensor, n int, vals []rawVal, maxBytes int) error {
	field := valField(t.DType)
	if t.DType == String {
		var strs [][]byte
		for _, v := range vals {
			if v.num != field || v.typ != protowire.BytesType {
				continue
			}
			if len(strs) == n {
				return errorf("DT_STRING tensor of shape %s has more than %d string_val", metadata.FormatShape(t.Shape), n)
			}
			strs = append(strs, v.b[:len(v.b):len(v.b)])
		}
		if n > 0 && len(strs) == 0 {
			// An empty list gives empty strings; the count is bounded by maxBytes
			// through the 24-byte slice headers.
			if _, ok := stride.MulCheck(n, 24); !ok || n*24 > maxBytes {
				return errorf("DT_STRING tensor of %d elements is more than the %d-byte limit", n, maxBytes)
			}
			strs = make([][]byte, n)
			for i := range strs {
				strs[i] = []byte{}
			}
		}
		for len(strs) < n {
			if _, ok := stride.MulCheck(n, 24); !ok || n*24 > maxBytes {
				return errorf("DT_STRING tensor of %d elements is more than the %d-byte limit", n, maxBytes)
			}
			strs = append(strs, strs[len(strs)-1])
		}
		t.Strings = strs
		return nil
	}
	w := t.DType.Width()
	size, ok := stride.MulCheck(n, w)
	if !ok || size > maxBytes {
		return errorf("%s tensor of shape %s needs %d bytes, more than the %d-byte limit", t.DType, metadata.FormatShape(t.Shape), size, maxBytes)
	}
	out := rawcol.AlignedBytes(size)
	k := 0 // elements written
	put := func(x uint64) error {
		if k == n {
			return errorf("%s tensor of shape %s has more than %d values", t.DType, metadata.FormatShape(t.Shape), n)
		}
		if t.DType == Bool && x > 1 {
			return errorf("DT_BOOL value %d is not 0 or 1", x)
		}
		switch w {
		case 1:
			out[k] = byte(x)
		case 2:
			binary.LittleEndian.PutUint16(out[2*k:], uint16(x))
		case 4:
			binary.LittleEndian.PutUint32(out[4*k:], uint32(x))
		case 8:
			binary.LittleEndian.PutUint64(out[8*k:], x)
		}
		k++
		return nil
	}
	for _, v := range vals {
		if v.num != field {
			continue
		}
		var err error
		switch field {
		case fieldFloatVal:
			err = eachFixed(v, protowire.Fixed32Type, 4, put)
		case fieldDoubleVal:
			err = eachFixed(v, protowire.Fixed64Type, 8, put)
		default:
			err = eachVarint(v, put)
		}
		if err != nil {
			return err
		}
	}
	if k > 0 {
		last := out[(k-1)*w : k*w]
		for i := k; i < n; i++ {
			copy(out[i*w:], last)
		}
	}
	t.Content = out
	return nil
}

// eachFixed calls put for each fixed-width value of a packed run or a single
// unpacked value.
func eachFixed(v rawVal, wire protowire.Type, w int, put func(uint64) error) error {
	switch v.typ {
	case wire:
	case protowire.BytesType:
		if len(v.b)%w != 0 {
			return errorf("packed field %d of %d bytes is not a whole number of %d-byte values", v.num, len(v.b), w)
		}
	default:
		return errorf("field %d has wire type %d", v.num, v.typ)
	}
	for b := v.b; len(b) > 0; b = b[w:] {
		var x uint64
		if w == 4 {
			x = uint64(binary.LittleEndian.Uint32(b))
		} else {
			x = binary.LittleEndian.Uint64(b)
		}
		if err := put(x); err != nil {
			return err
		}
	}
	return nil
}

// eachVarint calls put for each varint of a packed run or a single unpacked
// value.
func eachVarint(v rawVal, put func(uint64) error) error {
	if v.typ != protowire.VarintType && v.typ != protowire.BytesType {
		return errorf("field %d has wire type %d", v.num, v.typ)
	}
	for b := v.b; len(b) > 0; {
		x, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return protoErr(n, "field "+itoa(int(v.num)))
		}
		if err := put(x); err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}

func protoErr(n int, what string) error {
	return wrap(protowire.ParseError(n), "%s", what)
}
