package metadata

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/fstensor/fstensor/internal/jsontext"
)

// MaxJSONSize is the largest extension metadata string [Parse] reads.
const MaxJSONSize = 1 << 20

// MaxDims is the largest number of dimensions [Parse], [ParseShape] and
// [New] accept.
const MaxDims = 1024

// AppendJSON appends the canonical `arrow.fixed_shape_tensor` extension
// metadata of m to dst: compact JSON with the physical shape, then the
// permutation if one was given, then the physical dimension names if
// present. The bytes are those Arrow C++ writes.
func (m Metadata) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"shape":`...)
	dst = appendInts(dst, m.PhysicalShape())
	if m.perm != nil {
		dst = append(dst, `,"permutation":`...)
		dst = appendInts(dst, m.perm)
	}
	if m.names != nil {
		dst = append(dst, `,"dim_names":[`...)
		for i, n := range m.PhysicalDimNames() {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = jsontext.AppendString(dst, n)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// MarshalJSON returns m.AppendJSON(nil). It never fails.
func (m Metadata) MarshalJSON() ([]byte, error) { return m.AppendJSON(nil), nil }

// UnmarshalJSON replaces *m with the metadata parsed by [Parse].
func (m *Metadata) UnmarshalJSON(data []byte) error {
	v, err := Parse(data)
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// appendInts appends xs as a JSON array of integers to dst.
func appendInts(dst []byte, xs []int) []byte {
	return append(appendCommaInts(append(dst, '['), xs), ']')
}

// appendCommaInts appends xs to dst in decimal, separated by commas.
func appendCommaInts(dst []byte, xs []int) []byte {
	for i, x := range xs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = strconv.AppendInt(dst, int64(x), 10)
	}
	return dst
}

// Parse reads `arrow.fixed_shape_tensor` extension metadata (physical
// shape, permutation, physical dim_names) and returns the logical
// [Metadata].
//
// The input must be one JSON object of at most [MaxJSONSize] bytes with a
// `shape` array of non-negative integers that fit in an int (so at most
// math.MaxInt32 on a 32-bit platform); `permutation`, when present, must
// be a permutation of the right length and `dim_names` an array of strings
// of the right length. JSON null stands for an absent optional key; the
// plural `permutations` (written by arrow-rs) is read when `permutation` is
// absent and refused when both are present. Unknown keys are ignored;
// repeated keys are refused. Errors wrap arrow.ErrInvalid and name the key.
func Parse(data []byte) (Metadata, error) {
	if len(data) > MaxJSONSize {
		return Metadata{}, errorf("extension metadata is %d bytes, more than %d", len(data), MaxJSONSize)
	}
	if !utf8.Valid(data) {
		return Metadata{}, errorf("extension metadata is not valid UTF-8")
	}
	fields, err := jsontext.Object(data)
	if err != nil {
		return Metadata{}, errorf("%v", err)
	}
	raw, ok := fields["shape"]
	if !ok || jsontext.IsNull(raw) {
		return Metadata{}, errorf(`extension metadata %s has no "shape"`, jsontext.Clip(data))
	}
	shape, err := parseInts("shape", raw)
	if err != nil {
		return Metadata{}, err
	}
	for i, d := range shape {
		if d < 0 {
			return Metadata{}, errorf(`"shape" %v: dimension %d is negative`, shape, i)
		}
	}
	var perm []int
	permKey := "permutation"
	rawPerm, hasPerm := fields["permutation"]
	if rawPlural, ok := fields["permutations"]; ok && !jsontext.IsNull(rawPlural) {
		if hasPerm && !jsontext.IsNull(rawPerm) {
			return Metadata{}, errorf(`extension metadata has both "permutation" and "permutations"`)
		}
		rawPerm, hasPerm, permKey = rawPlural, true, "permutations"
	}
	if hasPerm && !jsontext.IsNull(rawPerm) {
		if perm, err = parseInts(permKey, rawPerm); err != nil {
			return Metadata{}, err
		}
		if perm == nil {
			perm = []int{}
		}
	}
	var names []string
	if raw, ok := fields["dim_names"]; ok && !jsontext.IsNull(raw) {
		if names, err = parseStrings("dim_names", raw); err != nil {
			return Metadata{}, err
		}
	}
	return FromPhysical(shape, names, perm)
}

// CheckListSize reports an error unless n, the list size of a storage
// FixedSizeList, equals the number of elements of one tensor.
func (m Metadata) CheckListSize(n int) error {
	if n != m.Size() {
		return errorf(`"shape" %v has %d elements but the storage list size is %d`, m.PhysicalShape(), m.Size(), n)
	}
	return nil
}

func parseInts(key string, raw json.RawMessage) ([]int, error) {
	items, err := parseArray(key, raw)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(items))
	for i, it := range items {
		if it[0] != '-' && (it[0] < '0' || it[0] > '9') {
			return nil, errorf("%q must contain integers, got %s", key, jsontext.Kind(it))
		}
		// Parse at the width of int: on a 32-bit platform a value above
		// math.MaxInt32 is out of range rather than truncated.
		v, err := strconv.ParseInt(string(it), 10, strconv.IntSize)
		if err != nil {
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, errorf("%q value %s is out of range", key, it)
			}
			return nil, errorf("%q must contain integers, got %s", key, jsontext.Kind(it))
		}
		out[i] = int(v)
	}
	return out, nil
}

func parseStrings(key string, raw json.RawMessage) ([]string, error) {
	items, err := parseArray(key, raw)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(items))
	for i, it := range items {
		if it[0] != '"' {
			return nil, errorf("%q must contain strings, got %s", key, jsontext.Kind(it))
		}
		if err := json.Unmarshal(it, &out[i]); err != nil {
			return nil, errorf("%q item %d: %v", key, i, err)
		}
	}
	return out, nil
}

func parseArray(key string, raw json.RawMessage) ([]json.RawMessage, error) {
	if raw[0] != '[' {
		return nil, errorf("%q must be an array, got %s", key, jsontext.Kind(raw))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errorf("%q: %v", key, err)
	}
	if len(items) > MaxDims {
		return nil, errorf("%q has %d items, more than %d", key, len(items), MaxDims)
	}
	return items, nil
}

var _ fmt.Stringer = Metadata{}
