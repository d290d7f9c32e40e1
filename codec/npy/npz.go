package npy

import (
	"archive/zip"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fstensor/fstensor/fixedshape"
)

// NPZExt is the suffix of the member names of a .npz archive: the array
// named "x" is the member "x.npy", as numpy.savez names it.
const NPZExt = ".npy"

// npzTime is the modification time of every member: the earliest zip
// time, so that the same columns always give the same bytes.
var npzTime = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// WriteNPZ writes the columns cols to w as a .npz archive (a zip file) in
// which cols[i] is the member names[i]+".npy", written by [WriteColumn]
// with the options, in the order given; numpy.load reads it as a
// mapping from names[i] to the array. Members are deflated when
// [WithCompression](fstensor.Deflate), stored otherwise; the zip is streamed (sizes in data
// descriptors, Zip64 as needed), with a fixed 1980-01-01 modification
// time so that the output is deterministic. No columns give an empty
// archive, as numpy.savez with no arrays.
//
// Errors wrap arrow.ErrInvalid: names and cols of different lengths, a
// nil column, a name that repeats, holds a NUL byte or is not UTF-8,
// and everything WriteColumn refuses (null tensors without
// [WithFillNulls], for one). Names and the fill value (against every
// column's element type) are checked before anything is written; a
// column error leaves a partial archive in w. Write errors are returned
// as they come.
func WriteNPZ(w io.Writer, names []string, cols []*fixedshape.Array, opts ...WriteOption) error {
	c, err := newWriteConfig(opts)
	if err != nil {
		return err
	}
	if len(names) != len(cols) {
		return errorf("%d names for %d columns", len(names), len(cols))
	}
	seen := make(map[string]bool, len(names))
	for i, name := range names {
		switch {
		case cols[i] == nil:
			return errorf("column %q is nil", name)
		case seen[name]:
			return errorf("name %q repeats", name)
		case !utf8.ValidString(name):
			return errorf("name %q is not UTF-8", name)
		case strings.IndexByte(name, 0) >= 0:
			return errorf("name %q holds a NUL byte", name)
		}
		seen[name] = true
		if c.fillNulls {
			if err := CheckFill(cols[i].TensorType().ElemType(), c.fill); err != nil {
				return memberError(name+NPZExt, err)
			}
		}
	}
	method := zip.Store
	if c.deflate {
		method = zip.Deflate
	}
	zw := zip.NewWriter(w)
	for i, name := range names {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: name + NPZExt, Method: method, Modified: npzTime})
		if err != nil {
			return wrapf(err, "member %q", name+NPZExt)
		}
		if err := writeColumn(fw, cols[i], c); err != nil {
			return memberError(name+NPZExt, err)
		}
	}
	return zw.Close()
}

// memberError prefixes err with the member name, keeping one "npy: ".
func memberError(member string, err error) error {
	return wrapf(err, "member %q", member)
}
