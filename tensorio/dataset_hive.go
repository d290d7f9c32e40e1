package tensorio

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
)

// HiveNull is the value of a Hive directory name that stands for a null
// partition value, as Hive, Spark, pyarrow, polars and DuckDB write it.
const HiveNull = "__HIVE_DEFAULT_PARTITION__"

// ParseHiveDir reads one directory name of a Hive-style layout,
// "key=value", with both parts percent-decoded (as pyarrow's default
// segment encoding "uri" writes them: "s=a%2Fb" is s = "a/b"). ok is
// false for a name without "=" or with an empty key: such directories
// carry no partition value. null reports the value HiveNull. A key or
// value with an invalid percent escape fails with an error wrapping
// arrow.ErrInvalid.
func ParseHiveDir(name string) (key, value string, null, ok bool, err error) {
	k, v, found := strings.Cut(name, "=")
	if !found || k == "" {
		return "", "", false, false, nil
	}
	if key, err = url.PathUnescape(k); err == nil {
		value, err = url.PathUnescape(v)
	}
	if err != nil {
		return "", "", false, false, &Error{errs.Make("tensorio", "directory %q: %v", name, err)}
	}
	if key == "" {
		return "", "", false, false, nil
	}
	return key, value, value == HiveNull, true, nil
}

// hiveDirName returns the directory name of a partition value, as
// ParseHiveDir reads it: key and value percent-encoded as pyarrow encodes
// them (a "/", "=", "%", space and other bytes outside the URL path
// characters), HiveNull for null.
func hiveDirName(key, value string, null bool) string {
	if null {
		return escapeHive(key) + "=" + HiveNull
	}
	return escapeHive(key) + "=" + escapeHive(value)
}

// escapeHive percent-encodes s for one path segment; "=" too, so that
// the first "=" of a name always ends the key.
func escapeHive(s string) string {
	return strings.ReplaceAll(url.PathEscape(s), "=", "%3D")
}

// partValue is one file's value of one partition column.
type partValue struct {
	set  bool // the file's path names the key
	null bool
	text string
}

// partColumn is a partition column: its name, the type its values take
// (int64 when every non-null value of every file parses as a decimal
// integer, else string), and each file's value.
type partColumn struct {
	name   string
	typ    arrow.DataType
	values []partValue // per file
}

// inferType sets the type of p from its values.
func (p *partColumn) inferType() {
	p.typ = arrow.PrimitiveTypes.Int64
	for _, v := range p.values {
		if !v.set || v.null {
			continue
		}
		if _, err := strconv.ParseInt(v.text, 10, 64); err != nil {
			p.typ = arrow.BinaryTypes.String
			return
		}
	}
}

// int returns the integer of value i (for an int64 column).
func (p *partColumn) int(i int) int64 {
	n, _ := strconv.ParseInt(p.values[i].text, 10, 64)
	return n
}

// valid tells whether file i has a non-null value.
func (p *partColumn) valid(i int) bool { return p.values[i].set && !p.values[i].null }

// hivePartitions returns the partition columns of files, rel[i] being
// the path of file i relative to its source's base directory (its
// directories only are read, slash-separated), in the order their keys
// first appear; a file whose path lacks a key has a null value. A path
// that names a key twice fails.
func hivePartitions(rel []string) ([]*partColumn, error) {
	var cols []*partColumn
	index := map[string]int{}
	for i, r := range rel {
		dirs := strings.Split(r, "/")
		seen := map[string]bool{}
		for _, d := range dirs[:len(dirs)-1] {
			key, value, null, ok, err := ParseHiveDir(d)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if seen[key] {
				return nil, &Error{errs.Make("tensorio", "%s: partition key %q appears twice in the path", r, key)}
			}
			seen[key] = true
			k, found := index[key]
			if !found {
				k = len(cols)
				index[key] = k
				cols = append(cols, &partColumn{name: key, values: make([]partValue, len(rel))})
			}
			cols[k].values[i] = partValue{set: true, null: null, text: value}
		}
	}
	for _, c := range cols {
		c.inferType()
	}
	return cols, nil
}
