// Package jsontext holds the JSON pieces shared by the canonical
// extension metadata codecs (packages metadata and varshape): the string
// form Arrow C++ writes, a strict object splitter and the wording of
// Arrow C++'s errors.
package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// AppendString appends s as a JSON string the way RapidJSON's writer
// (used by Arrow C++) does: only '"', '\\' and control characters are
// escaped, the latter as \b \t \n \f \r or \u00XX with upper-case hex;
// other bytes, '/' and non-ASCII UTF-8 included, are written as they are.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789ABCDEF"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\b':
			dst = append(dst, `\b`...)
		case c == '\t':
			dst = append(dst, `\t`...)
		case c == '\n':
			dst = append(dst, `\n`...)
		case c == '\f':
			dst = append(dst, `\f`...)
		case c == '\r':
			dst = append(dst, `\r`...)
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}

// Object splits the JSON object data into its members. It refuses
// anything else, repeated keys and data after the object; the error text
// starts with "extension metadata" and quotes the start of data.
func Object(data []byte) (map[string]json.RawMessage, error) {
	invalid := func(err error) error {
		return fmt.Errorf("extension metadata %s is not valid JSON: %v", Clip(data), err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, invalid(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("extension metadata %s is not a JSON object", Clip(data))
	}
	fields := make(map[string]json.RawMessage)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, invalid(err)
		}
		key := tok.(string) // object keys are always strings
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, invalid(err)
		}
		if _, dup := fields[key]; dup {
			return nil, fmt.Errorf("extension metadata repeats the key %q", key)
		}
		fields[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, invalid(err)
	}
	if off := dec.InputOffset(); len(bytes.TrimSpace(data[off:])) != 0 {
		return nil, fmt.Errorf("extension metadata %s has data after the object", Clip(data))
	}
	return fields, nil
}

// IsNull reports whether raw is the JSON null.
func IsNull(raw json.RawMessage) bool { return string(raw) == "null" }

// Kind names the JSON kind of a value as RapidJSON does in Arrow C++'s
// messages: Null, False, True, Object, Array, String, Number ("nothing"
// for no value).
func Kind(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case 'n':
		return "Null"
	case 'f':
		return "False"
	case 't':
		return "True"
	case '{':
		return "Object"
	case '[':
		return "Array"
	case '"':
		return "String"
	}
	return "Number"
}

// Clip quotes data for an error message, cut after 64 bytes.
func Clip(data []byte) string {
	const n = 64
	if len(data) > n {
		return strconv.Quote(string(data[:n])) + "..."
	}
	return strconv.Quote(string(data))
}
