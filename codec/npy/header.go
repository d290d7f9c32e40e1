package npy

import (
	"encoding/binary"
	"strconv"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// Magic is the six bytes every .npy file starts with.
const Magic = "\x93NUMPY"

// DefaultMaxHeaderSize is the default bound, in bytes, of the header
// dictionary a reader accepts; it is NumPy's own default (max_header_size
// of numpy.load).
const DefaultMaxHeaderSize = 10000

const (
	arrayAlign     = 64 // NumPy pads the header so data starts at a multiple of 64
	growthAxisMax  = 21 // NumPy's GROWTH_AXIS_MAX_DIGITS
	prefixLenV1    = 10 // magic, version, uint16 header length
	prefixLenV2    = 12 // magic, version, uint32 header length
	maxHeaderLenV1 = 1<<16 - 1
)

// Header is the parsed or to-be-written header of a .npy file.
type Header struct {
	// Major and Minor are the format version: 1.0, 2.0 or 3.0.
	Major, Minor int
	// Type is the element type: one of the fstensor element types.
	Type arrow.DataType
	// BigEndian is true when multi-byte elements are stored big-endian
	// (descr '>'); always false for 1-byte elements.
	BigEndian bool
	// FortranOrder is true when the data is stored column-major.
	FortranOrder bool
	// Shape is the array shape, outermost axis first.
	Shape []int
	// DataOffset is the byte offset of the data from the start of the
	// file: the length of magic, version, length field and header.
	DataOffset int
}

// Descr returns the NumPy dtype string of h, for example "<f4" or "|u1".
func (h Header) Descr() string {
	b, ok := descrOf(h.Type, h.BigEndian)
	if !ok {
		return ""
	}
	return b
}

// NumElements returns the element count of h.Shape, or an error wrapping
// arrow.ErrInvalid when it overflows int.
func (h Header) NumElements() (int, error) {
	n, err := stride.NumElements(h.Shape)
	if err != nil {
		return 0, errorf("shape %s: %v", metadata.FormatShape(h.Shape), err)
	}
	return n, nil
}

// DataSize returns the size of the data in bytes, or an error wrapping
// arrow.ErrInvalid when it overflows int.
func (h Header) DataSize() (int, error) {
	n, err := h.NumElements()
	if err != nil {
		return 0, err
	}
	w := elemWidth(h.Type)
	s, ok := stride.MulCheck(n, w)
	if !ok {
		return 0, errorf("shape %s of %d-byte elements overflows int", metadata.FormatShape(h.Shape), w)
	}
	return s, nil
}

// elemWidth returns the byte width in a .npy file of an element type
// (bool: one byte), 0 if it is not one.
func elemWidth(dt arrow.DataType) int {
	if dt == nil {
		return 0
	}
	switch dt.ID() {
	case arrow.BOOL, arrow.INT8, arrow.UINT8:
		return 1
	case arrow.INT16, arrow.UINT16, arrow.FLOAT16:
		return 2
	case arrow.INT32, arrow.UINT32, arrow.FLOAT32:
		return 4
	case arrow.INT64, arrow.UINT64, arrow.FLOAT64:
		return 8
	}
	return 0
}

// descrOf returns the NumPy descr of an element type, as numpy.save
// writes it ('|' for 1-byte types).
func descrOf(dt arrow.DataType, bigEndian bool) (string, bool) {
	w := elemWidth(dt)
	if w == 0 {
		return "", false
	}
	var kind byte
	switch dt.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64:
		kind = 'i'
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		kind = 'u'
	case arrow.BOOL:
		kind = 'b'
	default:
		kind = 'f'
	}
	order := byte('<')
	switch {
	case w == 1:
		order = '|'
	case bigEndian:
		order = '>'
	}
	return string([]byte{order, kind, byte('0' + w)}), true
}

// descrTypes are the element types of NumPy dtypes, by kind and size
// (the descr without its byte order).
var descrTypes = map[string]arrow.DataType{
	"i1": arrow.PrimitiveTypes.Int8, "i2": arrow.PrimitiveTypes.Int16,
	"i4": arrow.PrimitiveTypes.Int32, "i8": arrow.PrimitiveTypes.Int64,
	"u1": arrow.PrimitiveTypes.Uint8, "u2": arrow.PrimitiveTypes.Uint16,
	"u4": arrow.PrimitiveTypes.Uint32, "u8": arrow.PrimitiveTypes.Uint64,
	"b1": arrow.FixedWidthTypes.Boolean,
	"f2": arrow.FixedWidthTypes.Float16, "f4": arrow.PrimitiveTypes.Float32,
	"f8": arrow.PrimitiveTypes.Float64,
}

// parseDescr maps a NumPy descr to an element type and byte order.
func parseDescr(s string) (arrow.DataType, bool, error) {
	if s == "?" { // NumPy's one-character code of bool
		return arrow.FixedWidthTypes.Boolean, false, nil
	}
	if len(s) < 3 {
		return nil, false, errorf("\"descr\" %q is not a supported dtype", s)
	}
	order := s[0]
	dt := descrTypes[s[1:]]
	if dt == nil {
		return nil, false, errorf("\"descr\" %q is not a supported dtype (want b1, i1..i8, u1..u8, f2, f4, f8)", s)
	}
	w := elemWidth(dt)
	switch order {
	case '<':
		return dt, false, nil
	case '>':
		return dt, w > 1, nil
	case '|', '=':
		if w == 1 {
			return dt, false, nil
		}
	}
	return nil, false, errorf("\"descr\" %q has byte order %q (want '<' or '>', '|' only for 1-byte types)", s, order)
}

// prefixLen returns the length of magic, version and header-length field.
func prefixLen(major int) int {
	if major == 1 {
		return prefixLenV1
	}
	return prefixLenV2
}

// checkVersion refuses versions other than 1.0, 2.0 and 3.0.
func checkVersion(major, minor int) error {
	if (major == 1 || major == 2 || major == 3) && minor == 0 {
		return nil
	}
	return &Error{errs.Unsupported("npy", "version %d.%d is not supported (want 1.0, 2.0 or 3.0)", major, minor)}
}

// AppendHeader appends to dst the magic, version, length field and
// header dictionary of h, padded with spaces and a newline so that the
// data starts at a multiple of 64 bytes, byte for byte as numpy.save
// writes it (keys sorted, a growth margin after the shape). A zero
// h.Major picks the version as NumPy does: 1.0, or 2.0 when the header
// does not fit a 1.0 length field. h.DataOffset is ignored. Errors wrap
// arrow.ErrInvalid: an element type that is not an fstensor element type,
// an invalid shape, an unsupported version, a header too long for 1.0.
func AppendHeader(dst []byte, h Header) ([]byte, error) {
	descr, ok := descrOf(h.Type, h.BigEndian)
	if !ok {
		return dst, errorf("element type %v has no .npy dtype", h.Type)
	}
	if err := stride.CheckShape(h.Shape); err != nil {
		return dst, errorf("shape %s: %v", metadata.FormatShape(h.Shape), err)
	}
	if len(h.Shape) > metadata.MaxDims {
		return dst, errorf("shape has %d dimensions, more than %d", len(h.Shape), metadata.MaxDims)
	}
	var dict []byte
	dict = append(dict, "{'descr': '"...)
	dict = append(dict, descr...)
	dict = append(dict, "', 'fortran_order': "...)
	if h.FortranOrder {
		dict = append(dict, "True"...)
	} else {
		dict = append(dict, "False"...)
	}
	dict = append(dict, ", 'shape': "...)
	dict = appendTuple(dict, h.Shape)
	dict = append(dict, ", }"...)
	if len(h.Shape) > 0 {
		growth := h.Shape[0]
		if h.FortranOrder {
			growth = h.Shape[len(h.Shape)-1]
		}
		for range growthAxisMax - len(strconv.Itoa(growth)) {
			dict = append(dict, ' ')
		}
	}
	major, minor := h.Major, h.Minor
	if major == 0 && minor == 0 {
		major = 1
		if wrappedLen(len(dict), 1) > maxHeaderLenV1 {
			major = 2
		}
	}
	if err := checkVersion(major, minor); err != nil {
		return dst, err
	}
	hlen := wrappedLen(len(dict), major)
	if major == 1 && hlen > maxHeaderLenV1 {
		return dst, errorf("header of %d bytes is too long for version 1.0", hlen)
	}
	dst = append(dst, Magic...)
	dst = append(dst, byte(major), byte(minor))
	if major == 1 {
		dst = binary.LittleEndian.AppendUint16(dst, uint16(hlen))
	} else {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(hlen))
	}
	dst = append(dst, dict...)
	for range hlen - len(dict) - 1 {
		dst = append(dst, ' ')
	}
	return append(dst, '\n'), nil
}

// wrappedLen returns the header length NumPy writes for a dictionary of
// n bytes: the dictionary, spaces and a newline, so that the data starts
// at a multiple of 64 (at least one space... as in numpy's _wrap_header).
func wrappedLen(n, major int) int {
	hlen := n + 1
	pad := arrayAlign - (prefixLen(major)+hlen)%arrayAlign
	return hlen + pad
}

// appendTuple appends the Python repr of a tuple of ints.
func appendTuple(dst []byte, shape []int) []byte {
	dst = append(dst, '(')
	for i, d := range shape {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = strconv.AppendInt(dst, int64(d), 10)
	}
	if len(shape) == 1 {
		dst = append(dst, ',')
	}
	return append(dst, ')')
}

// ParseHeader parses the header at the start of b (a whole file or at
// least its header) and returns it with DataOffset set. maxHeaderSize
// bounds the header length field (0 means DefaultMaxHeaderSize). It never
// panics; errors wrap arrow.ErrInvalid: a bad magic, an unknown version,
// a header longer than the bound or than b, and a dictionary that is not
// exactly {'descr', 'fortran_order', 'shape'} with a supported simple
// dtype (object, structured, bool, complex, string and datetime dtypes
// are refused), a boolean and a tuple of non-negative ints whose element
// and byte counts fit int.
func ParseHeader(b []byte, maxHeaderSize int) (Header, error) {
	if maxHeaderSize <= 0 {
		maxHeaderSize = DefaultMaxHeaderSize
	}
	if len(b) < 8 {
		return Header{}, errorf("file of %d bytes is too short for magic and version", len(b))
	}
	if string(b[:6]) != Magic {
		return Header{}, errorf("magic %q is not %q", b[:6], Magic)
	}
	major, minor := int(b[6]), int(b[7])
	if err := checkVersion(major, minor); err != nil {
		return Header{}, err
	}
	pl := prefixLen(major)
	if len(b) < pl {
		return Header{}, errorf("file of %d bytes is too short for the header length field", len(b))
	}
	var hlen uint64
	if major == 1 {
		hlen = uint64(binary.LittleEndian.Uint16(b[8:10]))
	} else {
		hlen = uint64(binary.LittleEndian.Uint32(b[8:12]))
	}
	if hlen > uint64(maxHeaderSize) {
		return Header{}, errorf("header length %d exceeds the limit %d", hlen, maxHeaderSize)
	}
	if uint64(len(b)-pl) < hlen {
		return Header{}, errorf("header length %d exceeds the %d bytes after the length field", hlen, len(b)-pl)
	}
	h, err := parseDict(b[pl:pl+int(hlen)], major)
	if err != nil {
		return Header{}, err
	}
	h.Major, h.Minor = major, minor
	h.DataOffset = pl + int(hlen)
	return h, nil
}

// errorf returns an *Error wrapping arrow.ErrInvalid; a %w argument
// becomes a cause.
func errorf(format string, args ...any) error {
	return &Error{errs.Make("npy", format, args...)}
}

type base = errs.Base

// Error is the error type of the package. It matches arrow.ErrInvalid
// under errors.Is, the sentinel the error is an instance of
// ([ErrNullTensor], [ErrFill], fstensor.ErrOption) and its cause, if any
// (io.ErrUnexpectedEOF, an error of another package). Its message starts
// with "npy: ".
type Error struct{ base }

// wrapf returns an *Error wrapping arrow.ErrInvalid and err, whose text
// follows the formatted message.
func wrapf(err error, format string, args ...any) error {
	return &Error{errs.Make("npy", format+": %w", append(args, err)...)}
}
