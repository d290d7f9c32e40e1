package tensorio

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/errs"
)

// TakeFile is Take of the open file f, for callers that opened it
// themselves (through an os.Root, say) so that no path is looked up
// twice: IPC files are mapped, Parquet files read by ranges through f,
// the other formats scanned as OpenFile reads them. It takes ownership of
// f and closes it. name stands for the file in errors and, unless
// WithFormat is given, tells the format by its extension; it is not
// opened. Options and errors are Take's.
func TakeFile(f *os.File, name string, rows []int64, opts ...Option) (arrow.RecordBatch, error) {
	c, err := newConfig(opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	for _, r := range rows {
		if r < 0 {
			f.Close()
			return nil, &Error{errs.Kind(ErrRowRange, "tensorio", "%s: row %d is negative", name, r)}
		}
	}
	format, err := c.formatOf(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	switch format {
	case IPCFile, Parquet:
		defer f.Close()
		head := make([]byte, SniffLen)
		n, _ := f.ReadAt(head, 0)
		if found := Sniff(head[:n]); c.format == "" && found != "" && found != format {
			return nil, &FormatError{Path: name, Named: format, Found: found}
		}
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if format == Parquet {
			return takeParquetAt(f, fi.Size(), name, rows, c)
		}
		fr, err := arrowipc.MapIPCFile(f, arrowipc.WithAllocator(c.mem))
		if err != nil {
			return nil, withPath(name, err)
		}
		defer fr.Close()
		return takeIPC(fr, name, rows, c)
	}
	r, err := OpenFile(f, name, scanOptions(c)...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return takeRead(r, name, rows, c)
}
