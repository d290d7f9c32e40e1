package tensorio

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is a file format of tensor columns. Its value is the format's
// canonical name, as ParseFormat reads it.
type Format string

// The formats Open reads and Create writes.
const (
	IPCFile   Format = "arrow"     // Arrow IPC file (Feather v2): .arrow, .feather, .ipc
	IPCStream Format = "arrows"    // Arrow IPC stream: .arrows, .stream
	Parquet   Format = "parquet"   // Parquet with the Arrow schema stored: .parquet, .pq
	NPY       Format = "npy"       // NumPy .npy: one tensor column, the batch axis first
	NPZ       Format = "npz"       // NumPy .npz: one .npy member per tensor column
	TFProto   Format = "tfproto"   // TensorFlow TensorProto messages, varint-delimited: .pb
	ZIO       Format = "zio"       // one ZIO TENS message, single-part framing: .zio
	Decthings Format = "decthings" // Decthings tensors: .dt
)

// Formats returns every format, in the order of the documentation, in a
// new slice.
func Formats() []Format {
	return []Format{IPCFile, IPCStream, Parquet, NPY, NPZ, TFProto, ZIO, Decthings}
}

// TensorsOnly reports whether files of f hold tensor columns only: one
// column for .npy, .pb, .zio and .dt, one per member for .npz. Writers of
// these formats refuse other columns.
func (f Format) TensorsOnly() bool {
	switch f {
	case NPY, NPZ, TFProto, ZIO, Decthings:
		return true
	}
	return false
}

// Streams reports whether f can be written to a pipe: IPC files and
// Parquet cannot, since readers find their footer by seeking.
func (f Format) Streams() bool { return f != IPCFile && f != Parquet }

// ParseFormat returns the format a name or file extension (without the
// dot, any case) stands for: a canonical name or one of the extensions
// listed beside the constants. Other names fail with an error wrapping
// ErrFormat.
func ParseFormat(name string) (Format, error) {
	switch strings.ToLower(name) {
	case "arrow", "feather", "ipc":
		return IPCFile, nil
	case "arrows", "stream":
		return IPCStream, nil
	case "parquet", "pq":
		return Parquet, nil
	case "npy":
		return NPY, nil
	case "npz":
		return NPZ, nil
	case "tfproto", "pb":
		return TFProto, nil
	case "zio":
		return ZIO, nil
	case "decthings", "dt":
		return Decthings, nil
	}
	return "", formatError("unknown format %q (want arrow, arrows, parquet, npy, npz, tfproto, zio or decthings)", name)
}

// FormatOf returns the format the extension of path implies. An
// extension of no format fails with an error wrapping ErrFormat.
func FormatOf(path string) (Format, error) {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	f, err := ParseFormat(ext)
	if err != nil || ext == "" {
		return "", formatError("cannot tell the format of %s from its extension (use .arrow, .arrows, .parquet, .npy, .npz, .pb, .zio or .dt, or name the format)", path)
	}
	return f, nil
}

// SniffLen is the number of leading bytes of a file that Sniff needs.
const SniffLen = 16

// Sniff returns the format whose signature head, the first bytes of a
// file (SniffLen of them, or all of a shorter file), starts with, or ""
// for none: "PAR1" for Parquet, "ARROW1\0\0" for an IPC file, the
// continuation marker 0xFFFFFFFF and a metadata length for an IPC stream,
// "\x93NUMPY" for .npy, a zip entry or empty zip ("PK\x03\x04",
// "PK\x05\x06") for .npz, a framed "ZIO" prefix part for ZIO. TensorProto
// and Decthings files have no signature, nor have IPC streams of the
// format before Arrow 0.15 (no continuation marker), so they sniff as "".
func Sniff(head []byte) Format {
	b := string(head)
	switch {
	case strings.HasPrefix(b, "PAR1"):
		return Parquet
	case strings.HasPrefix(b, "ARROW1\x00\x00"):
		return IPCFile
	case len(b) >= 8 && strings.HasPrefix(b, "\xff\xff\xff\xff") && b[7] < 0x80:
		return IPCStream // a little-endian int32 length, not negative
	case strings.HasPrefix(b, "\x93NUMPY"):
		return NPY
	case strings.HasPrefix(b, "PK\x03\x04"), strings.HasPrefix(b, "PK\x05\x06"):
		return NPZ
	case len(b) >= 5 && b[0] != 0xff && b[1:4] == "ZIO" && isDigit(b[4]),
		len(b) >= 9 && b[0] == 0xff && b[5:8] == "ZIO" && isDigit(b[8]):
		return ZIO
	}
	return ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Describe returns what a file of format f is, with its article, for
// messages: "a Parquet file", "an Arrow IPC stream".
func (f Format) Describe() string {
	switch f {
	case IPCFile:
		return "an Arrow IPC file"
	case IPCStream:
		return "an Arrow IPC stream"
	case Parquet:
		return "a Parquet file"
	case NPY:
		return "a NumPy .npy file"
	case NPZ:
		return "a zip archive (.npz)"
	case TFProto:
		return "a file of TensorProto messages"
	case Decthings:
		return "a file of Decthings tensors"
	case ZIO:
		return "a ZIO message"
	}
	return "a " + string(f) + " file"
}

// FormatError reports a file whose first bytes are the signature of
// another format than the one it was opened as (see Sniff). It wraps
// ErrFormat, and so arrow.ErrInvalid.
type FormatError struct {
	Path     string
	Named    Format // the format of the extension, or the one given by WithFormat
	Found    Format // the format the bytes show
	Explicit bool   // Named came from WithFormat
	Err      error  // the error of reading the file as Named, when Explicit
}

// Error names the file, both formats and, for a format from the
// extension, the two ways out.
func (e *FormatError) Error() string {
	if e.Explicit {
		return fmt.Sprintf("tensorio: %s: reading it as %s: %v; its first bytes are those of %s", e.Path, e.Named, e.Err, e.Found.Describe())
	}
	return fmt.Sprintf("tensorio: %s is %s, not %s as its extension says: rename it or open it WithFormat(%q)", e.Path, e.Found.Describe(), e.Named, e.Found)
}

// Unwrap returns ErrFormat and, when Explicit, the error of reading the
// file as Named.
func (e *FormatError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrFormat, e.Err}
	}
	return []error{ErrFormat}
}
