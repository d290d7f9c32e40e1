package tensorio

import (
	"errors"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/atomicfile"
)

// OpenFile reads the open file f as Open reads a path, for callers that
// opened the file themselves (through an os.Root, say) so that no path is
// looked up twice. It takes ownership of f: the reader closes it, and so
// does a failed OpenFile. name stands for the file in errors and, unless
// WithFormat is given, tells the format by its extension; it is not
// opened. f is read from its current offset for streams and Parquet,
// whole for IPC files (mapped with WithMmap: the mapping outlives f, which
// is closed at once).
//
// OpenFile reads the formats that are read batch by batch: IPC files, IPC
// streams and Parquet; the others fail with an error wrapping ErrMismatch.
// Options and errors are Open's.
func OpenFile(f *os.File, name string, opts ...Option) (*Reader, error) {
	c, err := newConfig(opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	format, err := c.formatOf(name)
	if err != nil {
		f.Close()
		return nil, err
	}
	r := &Reader{format: format, path: name, file: f}
	switch format {
	case IPCFile:
		err = r.openIPCFile(c)
	case IPCStream, Parquet:
		err = r.openStream(c)
	default:
		f.Close()
		return nil, mismatch("OpenFile reads IPC files, IPC streams and Parquet, not %s (use Open)", format)
	}
	if err != nil {
		return nil, withPath(name, err)
	}
	return r.ready(c)
}

// takeFile returns the file of OpenFile, which the caller now owns, or
// else opens the reader's path.
func (r *Reader) takeFile() (*os.File, error) {
	if f := r.file; f != nil {
		r.file = nil
		return f, nil
	}
	return os.Open(r.path)
}

// openIPCFileFrom opens the IPC file of OpenFile: mapped (then closed)
// with WithMmap (with WithLeasedMmap, where the system grants a lease),
// else read through the file, which Close closes.
func (r *Reader) openIPCFileFrom(c *config) error {
	f, _ := r.takeFile()
	var fr *arrowipc.FileReader
	var err error
	closeFile := f.Close
	mapped := c.mapped
	if mapped {
		fr, err = arrowipc.MapIPCFile(f, c.mapOptions()...)
		mapped = !errors.Is(err, arrowipc.ErrNoLease) // else read it
	}
	if mapped {
		f.Close()
		closeFile = func() error { return nil }
		r.mapped = err == nil
	} else {
		fr, err = arrowipc.NewIPCFileReader(f, arrowipc.WithAllocator(c.mem))
	}
	if err != nil {
		closeFile()
		return err
	}
	r.readBatches(fr, func() error {
		err := fr.Close()
		if cerr := closeFile(); err == nil {
			err = cerr
		}
		return err
	})
	return nil
}

// CreateIn starts writing a new file of schema at name inside root (a
// name relative to root, as os.Root takes it), as Create does at a path,
// but through root: the temporary file ".NAME.tmp-*" is created in name's
// directory, and Close makes it appear at name, by root's methods, so
// that no symbolic link or rename others make in the tree meanwhile can
// lead the write out of root.
//
// Unlike Create, CreateIn writes new files only: a name that exists (a
// symbolic link included, which is not followed) fails CreateIn with an
// error wrapping fs.ErrExist, and Close so, removing the temporary file,
// when name appeared meanwhile. The new file gets 0666 less the umask.
// Options and other errors are Create's; errors name name.
func CreateIn(root *os.Root, name string, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	return create(name, schema, opts, func(*config) (target, error) { return createFile(atomicfile.CreateIn(root, name)) })
}
