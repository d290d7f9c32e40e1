package varshape

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/fstensor/fstensor/internal/jsontext"
	"github.com/fstensor/fstensor/metadata"
)

// parseJSON reads the extension metadata: a JSON object whose optional
// keys permutation, dim_names and uniform_shape may be absent or null.
// Unknown keys are ignored; "permutations" (arrow-rs's spelling) is read
// when "permutation" is absent.
func parseJSON(data []byte) (names []string, perm, uniform []int, err error) {
	if len(data) > metadata.MaxJSONSize {
		return nil, nil, nil, errorf("extension metadata is %d bytes, more than %d", len(data), metadata.MaxJSONSize)
	}
	if !utf8.Valid(data) {
		return nil, nil, nil, errorf("extension metadata is not valid UTF-8")
	}
	if len(bytes.TrimSpace(data)) == 0 {
		// Arrow C++ writes "{}" when there are no parameters; an empty
		// string means the same.
		return nil, nil, nil, nil
	}
	fields, err := jsontext.Object(data)
	if err != nil {
		return nil, nil, nil, errorf("%v", err)
	}
	key := "permutation"
	raw, ok := fields[key]
	if !ok || jsontext.IsNull(raw) {
		key = "permutations"
		raw, ok = fields[key]
	}
	if ok && !jsontext.IsNull(raw) {
		items, err := parseArray(key, raw)
		if err != nil {
			return nil, nil, nil, err
		}
		perm = make([]int, len(items))
		for i, it := range items {
			v, ok := parseInt(it)
			if !ok {
				return nil, nil, nil, errorf("%s must contain integers, got %s: %s", key, jsontext.Kind(it), it)
			}
			perm[i] = v
		}
	}
	if raw, ok := fields["dim_names"]; ok && !jsontext.IsNull(raw) {
		items, err := parseArray("dim_names", raw)
		if err != nil {
			return nil, nil, nil, err
		}
		names = make([]string, len(items))
		for i, it := range items {
			if it[0] != '"' {
				return nil, nil, nil, errorf("dim_names must contain strings, got %s: %s", jsontext.Kind(it), it)
			}
			if err := json.Unmarshal(it, &names[i]); err != nil {
				return nil, nil, nil, errorf("dim_names item %d: %v", i, err)
			}
		}
	}
	if raw, ok := fields["uniform_shape"]; ok && !jsontext.IsNull(raw) {
		items, err := parseArray("uniform_shape", raw)
		if err != nil {
			return nil, nil, nil, err
		}
		uniform = make([]int, len(items))
		for i, it := range items {
			if jsontext.IsNull(it) {
				uniform[i] = Varies
				continue
			}
			v, ok := parseInt(it)
			if !ok || v < 0 || v > math.MaxInt32 {
				return nil, nil, nil, errorf("uniform_shape must contain integers or nulls, got %s: %s", jsontext.Kind(it), it)
			}
			uniform[i] = v
		}
	}
	return names, perm, uniform, nil
}

func parseArray(key string, raw json.RawMessage) ([]json.RawMessage, error) {
	if len(raw) == 0 || raw[0] != '[' {
		return nil, errorf("%s must be an array, got %s: %s", key, jsontext.Kind(raw), jsontext.Clip(raw))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, errorf("%s: %v", key, err)
	}
	if len(items) > metadata.MaxDims {
		return nil, errorf("%s has %d items, more than %d", key, len(items), metadata.MaxDims)
	}
	if items == nil {
		items = []json.RawMessage{}
	}
	return items, nil
}

// parseInt reads a JSON integer that fits an int; 1.5, 1e3 and strings
// are not integers.
func parseInt(raw json.RawMessage) (int, bool) {
	if len(raw) == 0 || (raw[0] != '-' && (raw[0] < '0' || raw[0] > '9')) {
		return 0, false
	}
	v, err := strconv.ParseInt(string(raw), 10, strconv.IntSize)
	return int(v), err == nil
}
