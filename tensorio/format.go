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
	return "", &wrapped{msg: fmt.Sprintf("tensorio: unknown format %q (want arrow, arrows, parquet, npy, npz, tfproto, zio or decthings)", name), err: ErrFormat}
}

// FormatOf returns the format the extension of path implies. An
// extension of no format fails with an error wrapping ErrFormat.
func FormatOf(path string) (Format, error) {
	ext := strings.TrimPrefix(filepath.Ext(path), ".")
	f, err := ParseFormat(ext)
	if err != nil || ext == "" {
		return "", &wrapped{msg: fmt.Sprintf("tensorio: cannot tell the format of %s from its extension (use .arrow, .arrows, .parquet, .npy, .npz, .pb, .zio or .dt, or name the format)", path), err: ErrFormat}
	}
	return f, nil
}
