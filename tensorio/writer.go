package tensorio

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
)

// Writer writes record batches to a file in one of the formats. A Writer
// made by Create writes to a temporary file beside the target that Close
// renames over it once everything was written and synced (for an s3://
// URL, to a multipart upload that Close completes); until then, and for
// ever after Abort or a failed Close, whatever stood at the target is
// left byte for byte. A Writer is not safe for concurrent use.
type Writer struct {
	format Format
	path   string
	file   target // nil for NewWriter
	w      io.Writer
	bw     interface {
		Write(arrow.RecordBatch) error
		Close() error
	} // IPC and Parquet
	cols   *columns // tensors-only formats
	cfg    *config
	rm     *rowMajor // WithRowMajor, when a column is permuted
	closed bool
}

// Create starts writing a file of schema at path, in the format of
// WithFormat or else of the extension. Nothing appears at path before
// Close succeeds: the batches go to a temporary file ".NAME.tmp-*" in the
// directory of the target (path with its symbolic links followed), which
// Close syncs and renames over the target; a replaced file keeps its
// permission bits, a new one gets 0666 less the umask. Options: WithFormat,
// WithCompression, WithFillNulls, WithAllocator, WithRowMajor (and
// WithWorkers for it), WithPageBytes.
//
// Tensors-only formats (.npy, .npz, .pb, .zio, .dt) need a schema of
// tensor columns (one but for .npz), and hold the batches, retained, until
// Close writes them as one column each. Create refuses a target that
// exists but is not a regular file with an error wrapping
// ErrNotRegular, and a schema, codec or fill value (WithFillNulls) the
// format or a column cannot hold with an error wrapping ErrMismatch,
// before creating anything.
//
// The temporary file of a process killed before Close or Abort stays
// behind until the next Create of the same target removes it, the process
// being gone (its name carries the PID); HandleSignals removes them on
// SIGINT and SIGTERM.
//
// A path written as a URL (objstore.IsURL), "s3://bucket/key", is written
// as the object of that key, through the client of WithStore (or one
// configured from the environment, as Open's): the bytes go out as they
// are written, in parts of objstore.PartSize bytes (objstore.Upload),
// and the object appears, whole, when Close succeeds; until then, and
// for ever after Abort or a failed Close, an object of that key stays as
// it was and the parts uploaded are deleted. HandleSignals aborts the
// uploads under way. A key ending in "/" is an error wrapping
// objstore.ErrURL.
func Create(path string, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	if objstore.IsURL(path) {
		return create(path, schema, opts, func(c *config) (target, error) { return createObject(path, c) })
	}
	return create(path, schema, opts, func(*config) (target, error) { return createFile(atomicfile.Create(path)) })
}

// target is where a Writer of Create writes until Commit makes it appear
// or Abort discards it: a temporary file (atomicfile) or an upload.
type target interface {
	io.Writer
	Commit() error
	Abort() error
}

// createFile is the target of a temporary file, or the error creating it.
func createFile(f *atomicfile.File, err error) (target, error) {
	if err != nil {
		return nil, err
	}
	return f, nil
}

// create is Create and CreateIn once the target is chosen: it checks
// opts, and schema against the format of path, before open creates the
// target; errors name path.
func create(path string, schema *arrow.Schema, opts []Option, open func(*config) (target, error)) (*Writer, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	f := c.format
	if f == "" {
		var err error
		if f, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	if err := checkSchema(f, schema, c); err != nil {
		return nil, withPath(path, err)
	}
	af, err := open(c)
	if err != nil {
		return nil, err
	}
	w, err := newWriter(af, f, schema, c)
	if err != nil {
		af.Abort()
		return nil, withPath(path, err)
	}
	w.file, w.path = af, path
	return w, nil
}

// NewWriter starts writing schema to w in the format of WithFormat, which
// it needs: for standard output, a pipe or a buffer. Close writes what
// remains (a footer, the columns of a tensors-only format) and does not
// close w; IPC files and Parquet need a footer found by seeking and are
// written anyway, for a w that becomes a file. Options and errors are
// Create's.
func NewWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*Writer, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if c.format == "" {
		return nil, formatError("NewWriter needs WithFormat")
	}
	if err := checkSchema(c.format, schema, c); err != nil {
		return nil, err
	}
	return newWriter(w, c.format, schema, c)
}

// ErrNotRegular reports a target of Create that exists but is not a
// regular file (a directory, a device, a named pipe or socket).
var ErrNotRegular = atomicfile.ErrNotRegular

// checkSchema refuses what format f cannot hold before anything is
// created.
func checkSchema(f Format, schema *arrow.Schema, c *config) error {
	if _, err := ParseFormat(string(f)); err != nil {
		return err
	}
	switch {
	case c.compression == Deflate && f != NPZ:
		return mismatch("Deflate compresses .npz members, not %s", f)
	case f == NPZ && c.compression != Uncompressed && c.compression != Deflate:
		return mismatch(".npz members are compressed with Deflate only")
	case f.TensorsOnly() && f != NPZ && c.compression != Uncompressed:
		return mismatch("%s has no compression", f)
	case (c.compression == Snappy || c.compression == Gzip) && f != Parquet:
		return mismatch("%s compresses Parquet pages, not %s", c.compression, f)
	case c.fill && f != NPY && f != NPZ:
		return mismatch("WithFillNulls is for .npy and .npz, which have no null tensors; %s keeps them", f)
	}
	if !f.TensorsOnly() {
		return nil
	}
	if f != NPZ && schema.NumFields() != 1 {
		return mismatch("%s holds one tensor column, the schema has %d columns", f, schema.NumFields())
	}
	for _, fld := range schema.Fields() {
		if _, ok := fixedshape.TypeOf(fld.Type); !ok {
			return mismatch("column %q is %v, not a tensor column", fld.Name, fld.Type)
		}
	}
	if c.fill {
		return checkFill(schema, c.fillWith)
	}
	return nil
}

func newWriter(w io.Writer, f Format, schema *arrow.Schema, c *config) (*Writer, error) {
	out := &Writer{format: f, w: w, cfg: c}
	var err error
	if c.rowMajor {
		if out.rm, err = newRowMajor(schema); err != nil {
			return nil, err
		}
		if out.rm != nil {
			schema = out.rm.schema
		}
	}
	switch f {
	case IPCFile, IPCStream:
		o := []arrowipc.Option{arrowipc.WithCompression(c.compression), arrowipc.WithAllocator(c.mem)}
		if f == IPCFile {
			out.bw, err = arrowipc.NewIPCFileWriter(w, schema, o...)
		} else {
			out.bw, err = arrowipc.NewIPCStreamWriter(w, schema, o...)
		}
	case Parquet:
		o := []parquetconv.Option{parquetconv.WithCompression(c.compression), parquetconv.WithAllocator(c.mem)}
		if c.pageBytes > 0 {
			o = append(o, parquetconv.WithPageBytes(c.pageBytes))
		}
		out.bw, err = parquetconv.NewWriter(w, schema, o...)
	default:
		out.cols = &columns{chunks: make([][]arrow.Array, schema.NumFields())}
		for _, fld := range schema.Fields() {
			out.cols.names = append(out.cols.names, fld.Name)
		}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Format returns the format written.
func (w *Writer) Format() Format { return w.format }

// Write writes rec, whose schema must be the writer's. Every batch is
// validated in full first (arrowconv.ValidateRecord: offsets, UTF-8, null
// counts, nested children, dictionaries, unions, run ends and tensors of
// every column) before any writer sees it: an invalid batch is an error
// wrapping arrow.ErrInvalid that names the column and row, and nothing of
// it reaches the output. Tensors-only formats retain its columns until
// Close. A panic below Write (in arrow-go's writers) is returned as an
// error wrapping arrow.ErrInvalid with the panic value. A failed Write
// aborts the writer (see Abort: the temporary file is removed, retained
// batches released, later calls return ErrClosed).
func (w *Writer) Write(rec arrow.RecordBatch) (err error) {
	if w.closed {
		return ErrClosed
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	defer w.recoverAbort(&err, "write")
	if testHook != nil {
		testHook("write")
	}
	if w.rm != nil {
		if !rec.Schema().Equal(w.rm.in) {
			return mismatch("record schema %v does not match the writer's %v", rec.Schema(), w.rm.in)
		}
		if rec, err = w.rm.apply(rec, w.cfg); err != nil {
			return withPath(w.path, err)
		}
		defer rec.Release()
	}
	if w.cols != nil {
		// The IPC and Parquet writers validate each batch themselves
		// (arrowconv.ValidateRecord) before arrow-go sees it; the codecs
		// of the tensors-only formats do not.
		if err := arrowconv.ValidateRecord(rec); err != nil {
			return withPath(w.path, fmt.Errorf("tensorio: %w", err))
		}
		if int(rec.NumCols()) != len(w.cols.chunks) {
			return mismatch("a batch of %d columns for a schema of %d", rec.NumCols(), len(w.cols.chunks))
		}
		for i := range w.cols.chunks {
			col := rec.Column(i)
			if _, ok := col.(*fixedshape.Array); !ok {
				return mismatch("column %q is %v, not a tensor column", w.cols.names[i], col.DataType())
			}
			col.Retain()
			w.cols.chunks[i] = append(w.cols.chunks[i], col)
		}
		return nil
	}
	return withPath(w.path, w.bw.Write(rec))
}

// testHook, set by tests only (export_test.go), runs at the start of
// Write and Close with "write" or "close"; tests plant panics through it.
var testHook func(op string)

// recoverAbort is deferred by Write and Close: a panic becomes an error
// wrapping arrow.ErrInvalid that carries the panic value, and the writer
// is aborted.
func (w *Writer) recoverAbort(errp *error, op string) {
	r := recover()
	if r == nil {
		return
	}
	w.closed = false // Close marks it closed before writing
	w.Abort()
	*errp = withPath(w.path, &Error{errs.Make("tensorio", "%s: %s writer panicked: %v", op, w.format, r)})
}

// Close writes what remains and, for a Writer made by Create, syncs the
// temporary file and renames it over the target. On any error the
// temporary file is removed and the target left as it was; a panic below
// Close is returned as an error wrapping arrow.ErrInvalid, as in Write.
// Close after Close or Abort returns ErrClosed.
func (w *Writer) Close() (err error) {
	if w.closed {
		return ErrClosed
	}
	defer w.recoverAbort(&err, "close")
	w.closed = true
	if testHook != nil {
		testHook("close")
	}
	if w.cols != nil {
		err = w.cols.flush(w.w, w.format, w.cfg)
	} else {
		err = w.bw.Close()
	}
	if w.file == nil {
		return err
	}
	if err != nil {
		w.file.Abort()
		return withPath(w.path, err)
	}
	return w.file.Commit()
}

// Abort discards what was written: the temporary file is removed and the
// target left as it was (for NewWriter, what reached w stays there). It
// releases the retained batches and does nothing after Close or Abort.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	if w.cols != nil {
		w.cols.release()
	}
	if w.file != nil {
		w.file.Abort()
	}
}

// HandleSignals removes the temporary files of every writer not yet
// closed or aborted, and exits with code 128+N (130 for SIGINT, 143 for
// SIGTERM), when the process receives SIGINT or SIGTERM, as a shell
// reports a program killed by the signal. Close and the handler exclude
// each other, so an interrupted program leaves either the old target or
// the whole new file. The returned function stops the handling.
func HandleSignals() (stop func()) { return atomicfile.HandleSignals() }

// columns gathers the batches of tensor columns for a tensors-only
// format.
type columns struct {
	names  []string
	chunks [][]arrow.Array // per column
}

func (c *columns) release() {
	for _, cs := range c.chunks {
		for _, a := range cs {
			a.Release()
		}
	}
	c.chunks = nil
}

// flush writes the gathered columns, concatenated, to dst.
func (c *columns) flush(dst io.Writer, f Format, cfg *config) error {
	defer c.release()
	cols := make([]*fixedshape.Array, len(c.chunks))
	defer func() {
		for _, a := range cols {
			if a != nil {
				a.Release()
			}
		}
	}()
	for i, cs := range c.chunks {
		switch len(cs) {
		case 0:
			return fmt.Errorf("tensorio: %s: no record batches to write: %w", f, arrow.ErrInvalid)
		case 1:
			cs[0].Retain()
			cols[i] = cs[0].(*fixedshape.Array)
		default:
			a, err := array.Concatenate(cs, cfg.mem)
			if err != nil {
				return err
			}
			cols[i] = a.(*fixedshape.Array)
		}
	}
	return writeColumns(dst, f, c.names, cols, cfg)
}
