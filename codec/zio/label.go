package zio

import (
	"bytes"
	"encoding/json"
)

// MaxLabel is the longest label ParseLabel reads, in bytes.
const MaxLabel = 16 << 20

// MaxTensors is the largest number of entries of TENS.tensors ParseLabel
// accepts.
const MaxTensors = 1 << 16

// Label is the label object of a TENS message: the "TENS" key, decoded, and
// every other top-level key kept as it was, so that rewriting a label keeps
// what other applications put there.
type Label struct {
	TENS  *Tens                      // nil when the label has no "TENS" key
	Extra map[string]json.RawMessage // the other keys
}

// Tens is the value of the "TENS" key: the tensor descriptions, the
// application metadata object and any other keys, kept.
type Tens struct {
	Tensors  []TensorInfo
	Metadata json.RawMessage            // TENS.metadata, nil when absent
	Extra    map[string]json.RawMessage // the other keys
}

// TensorInfo is one entry of TENS.tensors.
//
// Shape is the logical shape (Boost extents). Order, when not nil, is the
// storage order in Boost's convention: Order[0] is the fastest-varying axis
// and Order[n-1] the slowest, so C order is [n-1, ..., 0] (the default) and
// Fortran order [0, ..., n-1]. Ascend, when not nil, tells per axis whether
// it is stored in ascending index order (the default). Part is the payload
// index of the tensor's elements; nil means the entry's index in Tensors.
// Metadata is the per-tensor application object; this package keeps its
// dimension names there under "dim_names" (a JSON array of strings).
type TensorInfo struct {
	Shape    []int
	Word     int    // bytes per element
	DType    string // NumPy kind: "f", "i", "u", "b", "c"
	Part     *int
	Order    []int
	Ascend   []bool
	Metadata map[string]json.RawMessage
	Extra    map[string]json.RawMessage
}

// ParseLabel reads a label. An empty label is an empty object, as ZIO's
// readers treat it. The label must be a JSON object of at most MaxLabel
// bytes; "TENS", when present, an object whose "tensors" is an array of at
// most MaxTensors objects with the keys of TensorInfo ("shape", "word" and
// "dtype" required), of the right JSON
// types ("shape" non-negative integers, "word" an integer, "dtype" a string,
// "part" a non-negative integer, "order" integers, "ascend" booleans,
// "metadata" an object). Unknown keys are kept in Extra. Errors wrap
// arrow.ErrInvalid. Values are not cross-checked here (a permutation,
// lengths, dtype and word): TensorInfo.TensorType does that.
func ParseLabel(label string) (Label, error) {
	if len(label) > MaxLabel {
		return Label{}, errorf("label of %d bytes is longer than %d", len(label), MaxLabel)
	}
	var l Label
	if label == "" {
		return l, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal([]byte(label), &top); err != nil || top == nil {
		return Label{}, errorf("label %q is not a JSON object", clip(label))
	}
	if raw, ok := top["TENS"]; ok {
		delete(top, "TENS")
		t, err := parseTens(raw)
		if err != nil {
			return Label{}, err
		}
		l.TENS = t
	}
	if len(top) > 0 {
		l.Extra = top
	}
	return l, nil
}

func parseTens(raw json.RawMessage) (*Tens, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, errorf("label: TENS %s is not an object", clip(string(raw)))
	}
	t := &Tens{}
	if r, ok := obj["tensors"]; ok {
		delete(obj, "tensors")
		var entries []json.RawMessage
		if err := json.Unmarshal(r, &entries); err != nil {
			return nil, errorf("label: TENS.tensors %s is not an array", clip(string(r)))
		}
		if len(entries) > MaxTensors {
			return nil, errorf("label: TENS.tensors has %d entries, more than %d", len(entries), MaxTensors)
		}
		t.Tensors = make([]TensorInfo, len(entries))
		for i, e := range entries {
			if err := t.Tensors[i].parse(e); err != nil {
				return nil, wrap(err, "label: TENS.tensors[%d]", i)
			}
		}
	}
	if r, ok := obj["metadata"]; ok {
		delete(obj, "metadata")
		t.Metadata = r
	}
	if len(obj) > 0 {
		t.Extra = obj
	}
	return t, nil
}

func (ti *TensorInfo) parse(raw json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return errorf("%s is not an object", clip(string(raw)))
	}
	field := func(key string, v any) error {
		r, ok := obj[key]
		if !ok {
			return nil
		}
		delete(obj, key)
		if err := json.Unmarshal(r, v); err != nil {
			return errorf("%q %s is not of the right type", key, clip(string(r)))
		}
		return nil
	}
	for _, key := range []string{"shape", "word", "dtype"} {
		if _, ok := obj[key]; !ok {
			return errorf("required key %q is missing", key)
		}
	}
	var part *int
	for _, f := range []struct {
		key string
		v   any
	}{
		{"shape", &ti.Shape}, {"word", &ti.Word}, {"dtype", &ti.DType}, {"part", &part},
		{"order", &ti.Order}, {"ascend", &ti.Ascend}, {"metadata", &ti.Metadata},
	} {
		if err := field(f.key, f.v); err != nil {
			return err
		}
	}
	for i, d := range ti.Shape {
		if d < 0 {
			return errorf("\"shape\" %v: dimension %d is negative", ti.Shape, i)
		}
	}
	if part != nil && *part < 0 {
		return errorf("\"part\" %d is negative", *part)
	}
	ti.Part = part
	if len(obj) > 0 {
		ti.Extra = obj
	}
	return nil
}

// AppendJSON appends the label as compact JSON with keys sorted, the form
// ZIO's C++ writer (nlohmann::json over std::map) produces; other keys are
// written back as they were read (compacted). It fails, wrapping
// arrow.ErrInvalid, only when an Extra or Metadata value is not valid JSON.
func (l *Label) AppendJSON(dst []byte) ([]byte, error) {
	top := map[string]any{}
	for k, v := range l.Extra {
		top[k] = v
	}
	if l.TENS != nil {
		top["TENS"] = l.TENS.object()
	}
	return appendSorted(dst, top)
}

func (t *Tens) object() map[string]any {
	obj := map[string]any{}
	for k, v := range t.Extra {
		obj[k] = v
	}
	tensors := make([]map[string]any, len(t.Tensors))
	for i := range t.Tensors {
		tensors[i] = t.Tensors[i].object()
	}
	obj["tensors"] = tensors
	if t.Metadata != nil {
		obj["metadata"] = t.Metadata
	}
	return obj
}

func (ti *TensorInfo) object() map[string]any {
	obj := map[string]any{}
	for k, v := range ti.Extra {
		obj[k] = v
	}
	shape := ti.Shape
	if shape == nil {
		shape = []int{}
	}
	obj["shape"] = shape
	obj["word"] = ti.Word
	obj["dtype"] = ti.DType
	if ti.Part != nil {
		obj["part"] = *ti.Part
	}
	if ti.Order != nil {
		obj["order"] = ti.Order
	}
	if ti.Ascend != nil {
		obj["ascend"] = ti.Ascend
	}
	if ti.Metadata != nil {
		md := map[string]any{}
		for k, v := range ti.Metadata {
			md[k] = v
		}
		obj["metadata"] = md
	}
	return obj
}

// appendSorted writes v compactly, map keys sorted, without HTML escaping.
func appendSorted(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return dst, wrap(err, "label")
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
