package decthings

import (
	"math"
	"unicode/utf8"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// MaxDims is the largest dimension count of a serialized tensor: the format
// stores it in one byte.
const MaxDims = math.MaxUint8

// Media is one image, audio or video element: a file format name such as
// "png" or "mp3" and the file's bytes.
type Media struct {
	Format string
	Data   []byte
}

// Tensor is one Decthings tensor: its element type, its shape and its
// elements in row-major order. Exactly one element field is used, chosen by
// Type:
//
//   - numeric types and Boolean: Data, the little-endian elements
//     (Boolean: one byte each, 0 or 1), Size()*Type.Width() bytes;
//   - String: Strings, valid UTF-8;
//   - Binary: Binaries;
//   - Image, Audio, Video: Media.
//
// A Tensor returned by DecodeTensor shares Data, Binaries and Media[i].Data
// with the decoded bytes.
type Tensor struct {
	Type     Type
	Shape    []int
	Data     []byte
	Strings  []string
	Binaries [][]byte
	Media    []Media
}

// Size returns the number of elements, 1 for a 0-D tensor. It assumes a
// valid shape (as DecodeTensor returns).
func (t *Tensor) Size() int {
	n, _ := stride.NumElements(t.Shape)
	return n
}

// check validates t for encoding and returns its element count.
func (t *Tensor) check() (int, error) {
	if !t.Type.Valid() {
		return 0, errorf("invalid element type %d", uint8(t.Type))
	}
	if len(t.Shape) > MaxDims {
		return 0, errorf("shape has %d dimensions, the format holds at most %d", len(t.Shape), MaxDims)
	}
	n, err := stride.NumElements(t.Shape)
	if err != nil {
		return 0, wrap(err, "shape %s", metadata.FormatShape(t.Shape))
	}
	var got int
	switch {
	case t.Type.Width() > 0:
		if len(t.Data) != n*t.Type.Width() {
			return 0, errorf("%s tensor of shape %s needs %d data bytes, has %d", t.Type, metadata.FormatShape(t.Shape), n*t.Type.Width(), len(t.Data))
		}
		if t.Type == Boolean {
			for i, b := range t.Data {
				if b > 1 {
					return 0, errorf("boolean element %d is %d, not 0 or 1", i, b)
				}
			}
		}
		return n, nil
	case t.Type == String:
		got = len(t.Strings)
		for i, s := range t.Strings {
			if !utf8.ValidString(s) {
				return 0, errorf("string element %d is not valid UTF-8", i)
			}
		}
	case t.Type == Binary:
		got = len(t.Binaries)
	default:
		got = len(t.Media)
		for i, m := range t.Media {
			if len(m.Format) > math.MaxUint8 || !utf8.ValidString(m.Format) {
				return 0, errorf("%s element %d: format %q is not UTF-8 of at most 255 bytes", t.Type, i, clip(m.Format))
			}
		}
	}
	if got != n {
		return 0, errorf("%s tensor of shape %s needs %d elements, has %d", t.Type, metadata.FormatShape(t.Shape), n, got)
	}
	return n, nil
}

// elemLen returns the length varint's value for element i of a
// variable-size tensor.
func (t *Tensor) elemLen(i int) uint64 {
	switch t.Type {
	case String:
		return uint64(len(t.Strings[i]))
	case Binary:
		return uint64(len(t.Binaries[i]))
	}
	return uint64(1 + len(t.Media[i].Format) + len(t.Media[i].Data))
}

// AppendTensor appends the serialized form of t to dst, as the official
// clients write it: the type byte, the dimension count byte, each dimension
// as a varint, then the elements. Fixed-size elements follow directly;
// variable-size types first write a varint with the byte length of the whole
// element section, then per element a varint length and the bytes (media:
// length = 1 + len(Format) + len(Data), then one byte len(Format), Format,
// Data). Tensors written one after another form the concatenated form
// DecodeAll reads.
//
// Errors wrap arrow.ErrInvalid: an invalid type or shape, more than MaxDims
// dimensions, element data that does not match the shape, a Boolean byte
// other than 0 or 1, a string or format that is not UTF-8, a format longer
// than 255 bytes. dst is returned unchanged on error.
func AppendTensor(dst []byte, t *Tensor) ([]byte, error) {
	n, err := t.check()
	if err != nil {
		return dst, err
	}
	dst = append(dst, byte(t.Type), byte(len(t.Shape)))
	for _, d := range t.Shape {
		dst = AppendVarint(dst, uint64(d))
	}
	if t.Type.Width() > 0 {
		return append(dst, t.Data...), nil
	}
	var section uint64
	for i := range n {
		l := t.elemLen(i)
		section += uint64(VarintLen(l)) + l
	}
	dst = AppendVarint(dst, section)
	for i := range n {
		dst = AppendVarint(dst, t.elemLen(i))
		switch t.Type {
		case String:
			dst = append(dst, t.Strings[i]...)
		case Binary:
			dst = append(dst, t.Binaries[i]...)
		default:
			m := t.Media[i]
			dst = append(dst, byte(len(m.Format)))
			dst = append(dst, m.Format...)
			dst = append(dst, m.Data...)
		}
	}
	return dst, nil
}

// DecodeTensor reads one serialized tensor from the start of b and returns it
// with the number of bytes it took; the bytes after it (another tensor, in
// the concatenated form) are not read. The returned tensor shares Data,
// Binaries and media data with b.
//
// Every length is checked against the remaining input before anything is
// allocated: the element count must fit the bytes present, the section length
// of a variable-size type must equal the bytes its elements take (this
// refuses the section-less layout of the published documentation, which the
// official clients would mis-read too). Errors wrap arrow.ErrInvalid: an
// unknown type byte, a truncated input, an overflowing shape, a Boolean byte
// other than 0 or 1, a string or media format that is not UTF-8, a media
// element too short for its format.
func DecodeTensor(b []byte) (Tensor, int, error) {
	if len(b) < 2 {
		return Tensor{}, 0, errorf("tensor: %d bytes, need at least 2 for type and dimension count", len(b))
	}
	typ := Type(b[0])
	if !typ.Valid() {
		return Tensor{}, 0, errorf("tensor: unknown type byte %d", b[0])
	}
	ndim := int(b[1])
	pos := 2
	// Every dimension takes at least one byte: check before allocating.
	if len(b)-pos < ndim {
		return Tensor{}, 0, errorf("tensor: %d dimensions but only %d bytes follow", ndim, len(b)-pos)
	}
	shape := make([]int, ndim)
	for i := range shape {
		v, k, err := Varint(b[pos:])
		if err != nil {
			return Tensor{}, 0, wrap(err, "tensor: dimension %d", i)
		}
		if v > math.MaxInt {
			return Tensor{}, 0, errorf("tensor: dimension %d is %d, more than an int holds", i, v)
		}
		shape[i] = int(v)
		pos += k
	}
	n, err := stride.NumElements(shape)
	if err != nil {
		return Tensor{}, 0, wrap(err, "tensor: shape %s", metadata.FormatShape(shape))
	}
	t := Tensor{Type: typ, Shape: shape}
	rest := b[pos:]
	if w := typ.Width(); w > 0 {
		size, ok := stride.MulCheck(n, w)
		if !ok || size > len(rest) {
			return Tensor{}, 0, errorf("tensor: %s shape %s needs %d elements of %d bytes, only %d bytes follow", typ, metadata.FormatShape(shape), n, w, len(rest))
		}
		t.Data = rest[:size:size]
		if typ == Boolean {
			for i, v := range t.Data {
				if v > 1 {
					return Tensor{}, 0, errorf("tensor: boolean element %d is %d, not 0 or 1", i, v)
				}
			}
		}
		return t, pos + size, nil
	}
	section, k, err := Varint(rest)
	if err != nil {
		return Tensor{}, 0, wrap(err, "tensor: %s section length", typ)
	}
	rest = rest[k:]
	pos += k
	if section > uint64(len(rest)) {
		return Tensor{}, 0, errorf("tensor: %s section of %d bytes, only %d bytes follow", typ, section, len(rest))
	}
	sec := rest[:section]
	// Every element takes at least one byte (its length varint).
	if n > len(sec) {
		return Tensor{}, 0, errorf("tensor: %s shape %s has %d elements, the %d-byte section cannot hold them", typ, metadata.FormatShape(shape), n, len(sec))
	}
	switch typ {
	case String:
		t.Strings = make([]string, n)
	case Binary:
		t.Binaries = make([][]byte, n)
	default:
		t.Media = make([]Media, n)
	}
	off := 0
	for i := range n {
		l, k, err := Varint(sec[off:])
		if err != nil {
			return Tensor{}, 0, wrap(err, "tensor: %s element %d length", typ, i)
		}
		off += k
		if l > uint64(len(sec)-off) {
			return Tensor{}, 0, errorf("tensor: %s element %d of %d bytes overruns the section (%d bytes left); a section length varint may be missing", typ, i, l, len(sec)-off)
		}
		e := sec[off : off+int(l) : off+int(l)]
		off += int(l)
		switch typ {
		case String:
			if !utf8.Valid(e) {
				return Tensor{}, 0, errorf("tensor: string element %d is not valid UTF-8", i)
			}
			t.Strings[i] = string(e)
		case Binary:
			t.Binaries[i] = e
		default:
			if len(e) < 1 || int(e[0]) > len(e)-1 {
				return Tensor{}, 0, errorf("tensor: %s element %d of %d bytes is too short for its format", typ, i, len(e))
			}
			f := e[1 : 1+int(e[0])]
			if !utf8.Valid(f) {
				return Tensor{}, 0, errorf("tensor: %s element %d format is not valid UTF-8", typ, i)
			}
			t.Media[i] = Media{Format: string(f), Data: e[1+len(f):]}
		}
	}
	if off != len(sec) {
		return Tensor{}, 0, errorf("tensor: %s section length is %d, its elements take %d", typ, len(sec), off)
	}
	return t, pos + len(sec), nil
}

// DecodeAll reads tensors written one after another until b is used up.
// An empty b gives no tensors. At most maxTensors are read (0 means no
// limit other than the input length: each tensor takes at least 2 bytes).
// Errors are those of DecodeTensor, naming the tensor's index, and a count
// above maxTensors.
func DecodeAll(b []byte, maxTensors int) ([]Tensor, error) {
	var out []Tensor
	for i := 0; len(b) > 0; i++ {
		if maxTensors > 0 && i == maxTensors {
			return nil, errorf("more than %d tensors", maxTensors)
		}
		t, n, err := DecodeTensor(b)
		if err != nil {
			return nil, wrap(err, "tensor %d", i)
		}
		out = append(out, t)
		b = b[n:]
	}
	return out, nil
}

func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
