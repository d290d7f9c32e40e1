package tensorio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/parquet"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/batchreader"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
)

// Reader yields the record batches of a file in order, in the manner of
// arrow-go's array.RecordReader, which it implements: Next advances,
// RecordBatch returns the current batch, which the reader lends until the
// next call of Next (Retain it to keep it), and Err tells why Next
// returned false. Tensor columns come back as fixedshape arrays. A Reader
// is not safe for concurrent use.
type Reader struct {
	format Format
	path   string
	file   *os.File // of OpenFile, until an opening takes it

	// What the opening and the selections build, until start hands it
	// to br.
	schema *arrow.Schema
	next   func() (arrow.RecordBatch, error) // nil, nil at the end
	close  func() error
	ranged bool // the opening already applied WithOffset and WithLimit
	mapped bool // the file is mapped (Mapped)

	br *batchreader.Reader
}

var _ array.RecordReader = (*Reader)(nil)

// Open opens the file at path and reads its schema. The format is that of
// WithFormat or else of the extension (see Format). Options: WithFormat,
// WithAllocator, WithColumns, WithOffset, WithLimit, WithBatchRows,
// WithMmap, WithSingleTensor, WithColumnName, WithShape, WithWorkers,
// WithStore.
//
// A path written as a URL (objstore.IsURL), "s3://bucket/key", is an
// object read through package objstore with the client of WithStore, or
// else one configured from the environment (objstore.NewClient), by
// ranged reads: IPC files and Parquet read the footer, then only what
// they decode (the batches; the column chunks of WithColumns), the other
// formats are read front to back, 4 MiB a request. WithMmap is ignored
// there. Errors of the server are *fs.PathError values naming the URL
// (wrapping fs.ErrNotExist for a missing key or bucket); a URL of
// another scheme (http://, gs://) or without a bucket or key is an error
// wrapping objstore.ErrURL and arrow.ErrInvalid.
//
// IPC files are read one batch at a time (WithMmap maps them), IPC streams
// and Parquet files batch by batch as they come; .npy, .npz, .pb, .zio and
// .dt files are read whole at Open and yield one batch, whose one column
// is named after the file (its base name without the extension) or by
// WithColumnName (a .npz file's columns after its members).
//
// Open reads the first bytes of a regular file (see Sniff): a file whose
// bytes show another format than its extension fails with a
// *FormatError, before it is read as the extension says; with WithFormat
// the bytes are read as told, and an error of reading them is a
// *FormatError too when they show another format.
//
// Errors name the path. Those of the file's contents wrap
// arrow.ErrInvalid; an unknown format or a *FormatError wraps ErrFormat,
// options that do not fit the file ErrMismatch; errors of the operating
// system are *fs.PathError values. The caller ends the reader with Close
// or Release.
func Open(path string, opts ...Option) (*Reader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if objstore.IsURL(path) {
		return openURL(path, c)
	}
	explicit := c.format != ""
	f, err := c.formatOf(path)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(f, c); err != nil {
		return nil, err
	}
	found := sniffFile(path)
	if !explicit && found != "" && found != f {
		return nil, &FormatError{Path: path, Named: f, Found: found}
	}
	r := &Reader{format: f, path: path}
	switch f {
	case IPCFile:
		err = r.openIPCFile(c)
	case IPCStream, Parquet:
		err = r.openStream(c)
	default:
		err = r.openFileColumns(c)
	}
	if err != nil {
		if found != "" && found != f {
			return nil, &FormatError{Path: path, Named: f, Found: found, Explicit: true, Err: err}
		}
		return nil, withPath(path, err)
	}
	return r.ready(c)
}

// ready ends Open and OpenFile: it applies WithShape and starts the
// reader, closing it on failure.
func (r *Reader) ready(c *config) (*Reader, error) {
	if err := r.shape(c); err != nil {
		r.Close()
		return nil, err
	}
	r.start()
	return r, nil
}

// checkOptions refuses options that do not fit format f.
func checkOptions(f Format, c *config) error {
	if c.single && f != NPY {
		return mismatch("WithSingleTensor reads .npy files, not %s", f)
	}
	if c.name != "" && (!f.TensorsOnly() || f == NPZ) {
		return mismatch("WithColumnName names the column of .npy, .pb, .zio and .dt files; %s files name their columns", f)
	}
	return nil
}

// NewReader reads the record batches of r, a stream such as standard
// input or a pipe, read once from start to end. The format is that of
// WithFormat or else the one r's first bytes show (see Sniff), which
// NewReader peeks at through a buffer. IPC streams are read batch by
// batch; .npy, .pb, .zio and .dt streams are read whole and yield one
// batch whose column is named by WithColumnName, "tensor" without it.
// IPC files, Parquet and .npz need random access (their directory is at
// their end) and fail with an error wrapping ErrMismatch: Open them as
// files. Options are Open's but for WithMmap, which is ignored.
//
// Errors are Open's, without a path; a stream whose format its bytes do
// not show and WithFormat does not name fails with an error wrapping
// ErrFormat. NewReader does not close r; the caller ends the reader with
// Close or Release, which stops reading r.
func NewReader(r io.Reader, opts ...Option) (*Reader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(r)
	f := c.format
	if f == "" {
		head, _ := br.Peek(SniffLen)
		if f = Sniff(head); f == "" {
			return nil, formatError("cannot tell the format of the stream from its first bytes (name it with WithFormat)")
		}
	} else if _, err := ParseFormat(string(f)); err != nil {
		return nil, err
	}
	if err := checkOptions(f, c); err != nil {
		return nil, err
	}
	if f == IPCFile || f == Parquet || f == NPZ {
		return nil, mismatch("%s needs random access (its directory is at its end) and cannot be read from a stream; open it as a file", f.Describe())
	}
	rd := &Reader{format: f}
	if f == IPCStream {
		err = rd.startStream(br, func() error { return nil }, c)
	} else {
		err = rd.openColumns(c, func() ([]string, []*fixedshape.Array, func() error, error) {
			col, err := readColumnStream(br, f, c)
			name := c.name
			if name == "" {
				name = "tensor"
			}
			return []string{name}, []*fixedshape.Array{col}, nil, err
		})
	}
	if err != nil {
		return nil, err
	}
	if err := rd.shape(c); err != nil {
		rd.Close()
		return nil, err
	}
	rd.start()
	return rd, nil
}

// sniffFile returns the format the first bytes of the regular file at
// path show (see Sniff): "" for none, for a file that is not regular (a
// named pipe would lose the bytes read) and when it cannot be read, which
// opening it reports.
func sniffFile(path string) Format {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	file, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer file.Close()
	head := make([]byte, SniffLen)
	n, _ := io.ReadFull(file, head)
	return Sniff(head[:n])
}

func (r *Reader) openIPCFile(c *config) error {
	if r.file != nil {
		return r.openIPCFileFrom(c)
	}
	var fr *arrowipc.FileReader
	var err error
	if c.mapped {
		fr, err = arrowipc.OpenMappedIPCFile(r.path, c.mapOptions()...)
		r.mapped = err == nil
	}
	if !c.mapped || errors.Is(err, arrowipc.ErrNoLease) {
		fr, err = arrowipc.OpenIPCFile(r.path, arrowipc.WithAllocator(c.mem))
	}
	if err != nil {
		return err
	}
	r.readBatches(fr, fr.Close)
	return nil
}

// readBatches makes the reader yield the record batches of fr in order;
// close ends fr and what it reads from.
func (r *Reader) readBatches(fr *arrowipc.FileReader, close func() error) {
	i := 0
	r.schema = fr.Schema()
	r.close = close
	r.next = func() (arrow.RecordBatch, error) {
		if i == fr.NumRecords() {
			return nil, nil
		}
		i++
		return fr.RecordBatch(i - 1)
	}
}

func (r *Reader) openStream(c *config) error {
	file, err := r.takeFile()
	if err != nil {
		return err // *fs.PathError names the path once
	}
	return r.startStream(file, file.Close, c)
}

// startStream reads the IPC stream or (from an *os.File) the Parquet file
// src batch by batch; closeSrc ends it, on error too.
func (r *Reader) startStream(src io.Reader, closeSrc func() error, c *config) error {
	var rr array.RecordReader
	var err error
	if r.format == Parquet {
		file, ok := src.(parquet.ReaderAtSeeker) // an *os.File, or an object's
		if !ok {
			closeSrc()
			return mismatch("Parquet needs random access and cannot be read from a stream")
		}
		popts := []parquetconv.Option{parquetconv.WithAllocator(c.mem), parquetconv.WithWorkers(c.workers)}
		if c.batchRows > 0 {
			popts = append(popts, parquetconv.WithBatchRows(c.batchRows))
		}
		if c.offset > 0 || c.limit >= 0 {
			// Row groups outside the rows are neither read nor decoded.
			popts = append(popts, parquetconv.WithRows(c.offset, c.limit))
			r.ranged = true
		}
		if len(c.columns) > 0 { // the chunks of the other columns are not read
			popts = append(popts, parquetconv.WithColumns(c.columns...))
		}
		if c.copyAll {
			popts = append(popts, parquetconv.WithoutZeroCopy())
		}
		rr, err = parquetconv.NewReader(file, popts...)
	} else {
		rr, err = arrowipc.NewIPCStreamReader(src, arrowipc.WithAllocator(c.mem))
	}
	if err != nil {
		closeSrc()
		return err
	}
	var closeRR func() error
	r.schema, r.next, closeRR = batchreader.Take(rr)
	r.close = func() error {
		closeRR()
		return closeSrc()
	}
	return nil
}

// openFileColumns reads a file of a tensors-only format whole, as one
// batch.
func (r *Reader) openFileColumns(c *config) error {
	return r.openColumns(c, func() ([]string, []*fixedshape.Array, func() error, error) {
		if r.format == NPZ {
			names, cols, err := readNPZ(r.path, c)
			return names, cols, nil, err
		}
		col, closer, err := readColumnFile(r.path, r.format, c)
		name := c.name
		if name == "" {
			name = strings.TrimSuffix(filepath.Base(r.path), filepath.Ext(r.path))
		}
		return []string{name}, []*fixedshape.Array{col}, closer, err
	})
}

// openColumns makes the columns that load reads, with their names and
// the function that unmaps them (nil if none), the one batch of r.
func (r *Reader) openColumns(c *config, load func() ([]string, []*fixedshape.Array, func() error, error)) error {
	names, cols, closer, err := load()
	if err != nil {
		return err
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	fail := func(err error) error {
		if closer != nil {
			closer()
		}
		return err
	}
	if len(cols) == 0 {
		return fail(fmt.Errorf("tensorio: no tensor column: %w", arrow.ErrInvalid))
	}
	fields := make([]arrow.Field, len(cols))
	arrs := make([]arrow.Array, len(cols))
	for i, col := range cols {
		if col.Len() != cols[0].Len() {
			return fail(fmt.Errorf("tensorio: member %q has %d tensors, %q has %d: the columns of a table need as many rows: %w", names[i], col.Len(), names[0], cols[0].Len(), arrow.ErrInvalid))
		}
		fields[i], arrs[i] = arrow.Field{Name: names[i], Type: col.DataType(), Nullable: true}, col
	}
	r.schema = arrow.NewSchema(fields, nil)
	rec := array.NewRecordBatch(r.schema, arrs, int64(cols[0].Len()))
	r.close = func() error {
		if rec != nil {
			rec.Release()
			rec = nil
		}
		if closer != nil {
			return closer()
		}
		return nil
	}
	r.next = func() (arrow.RecordBatch, error) {
		out := rec
		rec = nil
		return out, nil
	}
	return nil
}

// Format returns the format of the file.
func (r *Reader) Format() Format { return r.format }

// Mapped reports whether the reader's IPC file is mapped into memory:
// opened with WithMmap, or with WithLeasedMmap and granted a lease (a
// server tells so the files it reads instead). Other formats report
// false.
func (r *Reader) Mapped() bool { return r.mapped }

// start hands what the opening built to the reader of the batches; the
// errors of the batches name the path.
func (r *Reader) start() {
	next, path := r.next, r.path
	if path != "" {
		inner := next
		next = func() (arrow.RecordBatch, error) {
			rec, err := inner()
			return rec, withPath(path, err)
		}
	}
	r.br = batchreader.New(r.schema, next, r.close)
	r.next, r.close = nil, nil
}

// Schema returns the schema of every batch.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next advances to the next batch, releasing the current one. It returns
// false at the end, on error (see Err) and after Close.
func (r *Reader) Next() bool { return r.br.Next() }

// RecordBatch returns the current batch, lent until the next call of
// Next, Close or the last Release; nil before the first Next and at the
// end.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.br.RecordBatch() }

// Record returns the current batch.
//
// Deprecated: use RecordBatch, as array.RecordReader does.
func (r *Reader) Record() arrow.RecordBatch { return r.br.RecordBatch() }

// Err returns the error that ended the iteration, nil at the end of the
// file.
func (r *Reader) Err() error { return r.br.Err() }

// Retain adds a reference to the reader.
func (r *Reader) Retain() { r.br.Retain() }

// Release removes a reference; the last one closes the reader as Close
// does.
func (r *Reader) Release() { r.br.Release() }

// Close releases the current batch and closes the file, whatever the
// references, and returns the error of closing the file. Batches the
// caller retained stay valid, except those of a mapped file (WithMmap).
// Close after Close returns nil.
func (r *Reader) Close() error {
	if r.br == nil { // the opening failed after the file was opened
		close := r.close
		r.close = nil
		return close()
	}
	return r.br.Close()
}

// withPath prefixes err with a file's path unless it names it already:
// errors of the operating system (*fs.PathError) and of arrowipc's file
// openers (*arrowipc.Error with a Path) do.
func withPath(path string, err error) error {
	if err == nil {
		return err
	}
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) && pe.Path == path {
		return err
	}
	if ie := (*arrowipc.Error)(nil); errors.As(err, &ie) && ie.Path == path {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
