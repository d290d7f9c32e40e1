package arrowipc

import (
	"errors"
	"io"
	"os"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc/internal/verify"
	"github.com/fstensor/fstensor/internal/batchreader"
	"github.com/fstensor/fstensor/internal/mmap"
)

// readOptions returns the ipc options of a reader configured by c and
// the budgeted allocator through which the reader must run its decodes.
func (c *config) readOptions() ([]ipc.Option, *budgetAllocator) {
	mem := newBudgetAllocator(c.mem, decodeBudget(c.bodyLimit))
	return []ipc.Option{
		ipc.WithAllocator(mem),
		ipc.WithBodySizeLimit(c.bodyLimit),
		ipc.WithMetadataSizeLimit(verify.MaxMetadataSize),
	}, mem
}

// writeOptions returns the ipc options of a writer configured by cfg.
func (c *config) writeOptions(schema *arrow.Schema) ([]ipc.Option, error) {
	opts := []ipc.Option{ipc.WithAllocator(c.mem), ipc.WithSchema(schema)}
	switch c.compression {
	case Uncompressed:
	case LZ4:
		opts = append(opts, ipc.WithLZ4())
	case ZSTD:
		opts = append(opts, ipc.WithZstd())
	}
	return opts, nil
}

// FileReader reads the record batches of an Arrow IPC file. Tensor
// columns come back as fixedshape arrays (the package registers the
// extension type) and are validated before they are returned. A
// FileReader is safe for concurrent calls of RecordBatch, which decode
// one batch at a time.
type FileReader struct {
	r      *ipc.FileReader
	check  *fileCheck
	mem    *budgetAllocator
	closer io.Closer // the file or the mapping; nil for NewIPCFileReader
	mapped bool

	// prefetch is the Prefetch method of the source of NewIPCFileReader
	// (objstore.Object's), or nil.
	prefetch func(off, n int64) error
	src      ipc.ReadAtSeeker // of NewIPCFileReader, or nil
}

// OpenIPCFile opens the Arrow IPC file at path and reads its schema and
// footer. Record batches are read into memory from the allocator of
// [WithAllocator]: they stay valid after Close. Options: [WithAllocator],
// [WithBodySizeLimit].
//
// Errors from the file wrap arrow.ErrInvalid; a tensor column whose
// extension metadata is invalid fails the whole schema (arrow-go's
// behaviour), with the key and value named. The footer and dictionaries
// are checked before arrow-go decodes them, each record batch's metadata
// before RecordBatch decodes it (see the package doc, Errors).
func OpenIPCFile(path string, opts ...Option) (*FileReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%w", err) // the error names path
	}
	r, err := newFileReader(f, false, cfg)
	if err != nil {
		f.Close()
		return nil, openError(path, err)
	}
	r.closer = f
	return r, nil
}

// OpenMappedIPCFile opens the Arrow IPC file at path by mapping it into
// memory (read-only; on systems without mmap the file is read whole).
// Uncompressed record batches are zero-copy: their buffers, and so the
// tensor views taken from them, point into the mapping, which Close
// unmaps. Record batches and every view of them must therefore not be
// used after Close. Compressed bodies are decompressed into memory from
// [WithAllocator]. The mapping holds a read lease on the file where the
// system grants one, so that a change to the file cannot fault the
// batches (see the package doc, Memory). Options: [WithAllocator],
// [WithBodySizeLimit], [WithLeaseRequired]. arrow-go v18.8.0's mapped
// reader cannot read dictionary-encoded
// columns: such a file fails to open (use [OpenIPCFile]).
func OpenMappedIPCFile(path string, opts ...Option) (*FileReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, errorf("%w", err) // the error names path
	}
	defer f.Close()
	m, err := mapFile(f, cfg)
	if err != nil {
		return nil, errorf("%w", err) // the error names path
	}
	return newMappedFileReader(m, path, cfg)
}

// MapIPCFile reads the Arrow IPC file f as [OpenMappedIPCFile] reads a
// path, by mapping it into memory; errors name f.Name(). The mapping does
// not need f: Close unmaps it but does not close f, which the caller may
// close at once.
func MapIPCFile(f *os.File, opts ...Option) (*FileReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	m, err := mapFile(f, cfg)
	if err != nil {
		return nil, errorf("%w", err) // the error names the file
	}
	return newMappedFileReader(m, f.Name(), cfg)
}

// mapFile maps f under a read lease, or without one where the system
// grants none and cfg does not require it, sharing the mapping with the
// other readers of the file open at the time (mmap.MapFileShared).
func mapFile(f *os.File, cfg *config) (*mmap.Mapping, error) {
	return mmap.MapFileShared(f, cfg.leaseOnly)
}

// newMappedFileReader reads the IPC file of mapping m, named path in
// errors, and closes m on error.
func newMappedFileReader(m *mmap.Mapping, path string, cfg *config) (*FileReader, error) {
	r, err := func() (r *FileReader, err error) {
		defer recovered(&err, "ipc file")
		data := m.Bytes()
		check, err := checkFile(int64(len(data)), bytesFunc(data))
		if err != nil {
			return nil, err
		}
		o, mem := cfg.readOptions()
		var fr *ipc.FileReader
		mem.run(func() bool { fr, err = ipc.NewMappedFileReader(data, o...); return err == nil })
		if err != nil {
			return nil, err
		}
		mem.plainFor(fr.Schema())
		return &FileReader{r: fr, check: check, mem: mem, mapped: true}, nil
	}()
	if err != nil {
		m.Close()
		return nil, openError(path, err)
	}
	r.closer = m
	return r, nil
}

// NewIPCFileReader reads an Arrow IPC file from r, copying record
// batches into memory from [WithAllocator]. Close does not close r. When
// r has a method Prefetch(off, n int64) error (an object of package
// objstore, through tensorio), RecordBatch calls it with the bytes of
// the batch before it checks and decodes them, so that they are read
// once.
// Options: [WithAllocator], [WithBodySizeLimit].
func NewIPCFileReader(r ipc.ReadAtSeeker, opts ...Option) (*FileReader, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return newFileReader(r, false, cfg)
}

func newFileReader(r ipc.ReadAtSeeker, mapped bool, cfg *config) (fr *FileReader, err error) {
	defer recovered(&err, "ipc file")
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, errorf("ipc file: %w", err)
	}
	check, err := checkFile(size, readerAtFunc(r))
	if err != nil {
		return nil, err
	}
	o, mem := cfg.readOptions()
	var ir *ipc.FileReader
	mem.run(func() bool { ir, err = ipc.NewFileReader(r, o...); return err == nil })
	if err != nil {
		return nil, errorf("ipc file: %w", err)
	}
	mem.plainFor(ir.Schema())
	fr = &FileReader{r: ir, check: check, mem: mem, mapped: mapped, src: r}
	if p, ok := r.(interface{ Prefetch(off, n int64) error }); ok {
		fr.prefetch = p.Prefetch
	}
	return fr, nil
}

// Schema returns the file's schema.
func (r *FileReader) Schema() *arrow.Schema { return r.r.Schema() }

// NumRecords returns the number of record batches in the file.
func (r *FileReader) NumRecords() int { return r.r.NumRecords() }

// Mapped reports whether the reader's batches point into a memory
// mapping of the file (see [OpenMappedIPCFile]).
func (r *FileReader) Mapped() bool { return r.mapped }

// RecordBatch reads record batch i, 0 <= i < NumRecords. The caller owns
// it and releases it. Errors wrap arrow.ErrInvalid (arrow.ErrIndex too
// for an i out of range).
func (r *FileReader) RecordBatch(i int) (rec arrow.RecordBatch, err error) {
	if i < 0 || i >= r.r.NumRecords() {
		return nil, errorf("record batch %d out of range [0,%d): %w", i, r.r.NumRecords(), arrow.ErrIndex)
	}
	if r.prefetch != nil { // the checks and the decoding read the block
		blk := r.check.batches[i]
		r.prefetch(blk.Offset, int64(blk.Meta)+blk.Body)
	}
	if err := r.check.batch(i); err != nil {
		return nil, err
	}
	defer recovered(&err, "ipc file")
	r.mem.run(func() bool { rec, err = r.r.RecordBatchAt(i); return err == nil })
	if err != nil {
		return nil, errorf("ipc file: record batch %d: %w", i, err)
	}
	if err := arrowconv.ValidateRecord(rec); err != nil {
		rec.Release()
		return nil, errorf("record batch %d: %w", i, err)
	}
	return rec, nil
}

// BatchRows returns the number of rows of record batch i, 0 <= i <
// NumRecords, read from the batch's metadata alone: the message is
// checked as RecordBatch checks it, but its body is neither read nor
// checked. Over ranged reads (NewIPCFileReader on an object of package
// objstore) it costs one read of the metadata, a few hundred bytes, so
// that a reader can find the batches that hold some rows without
// reading the others. Errors are RecordBatch's.
func (r *FileReader) BatchRows(i int) (int64, error) {
	if i < 0 || i >= r.r.NumRecords() {
		return 0, errorf("record batch %d out of range [0,%d): %w", i, r.r.NumRecords(), arrow.ErrIndex)
	}
	return r.check.rows(i)
}

// Close releases the reader and closes the file or unmaps it (see
// [OpenMappedIPCFile] for what that means for the batches read).
func (r *FileReader) Close() error {
	err := r.r.Close()
	if r.closer != nil {
		if cerr := r.closer.Close(); err == nil {
			err = cerr
		}
		r.closer = nil
	}
	return err
}

// NewIPCStreamReader reads an Arrow IPC stream from r: the schema at
// once, then one record batch per call of Next, each validated in full
// (arrowconv.ValidateRecord) before Next hands it out; a batch lives until
// the next call of Next or Release. Options:
// [WithAllocator], [WithBodySizeLimit]. Each message's metadata is
// read as it arrives (at most 64 MiB) and checked before arrow-go
// decodes it (see the package doc, Errors); its body is allocated at its
// stated length once that is within the body size limit. Errors wrap
// arrow.ErrInvalid. The caller releases the reader; it does not close r.
func NewIPCStreamReader(r io.Reader, opts ...Option) (rr array.RecordReader, err error) {
	defer recovered(&err, "ipc stream")
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	o, mem := cfg.readOptions()
	return newMessagesReader(newMessageReader(r, mem, cfg.bodyLimit), mem, o, "ipc stream")
}

// newMessagesReader returns a reader of the batches arrow-go decodes
// from mr, each decode under mem's budget (what a failed one allocated is
// freed); what names the source in errors.
func newMessagesReader(mr ipc.MessageReader, mem *budgetAllocator, o []ipc.Option, what string) (array.RecordReader, error) {
	var ir *ipc.Reader
	var err error
	mem.run(func() bool {
		ir, err = ipc.NewReaderFromMessageReader(mr, o...)
		return err == nil
	})
	if err != nil {
		return nil, errorf("%s: %w", what, err)
	}
	mem.plainFor(ir.Schema())
	next := func() (rec arrow.RecordBatch, err error) {
		defer recovered(&err, what)
		var ok bool
		mem.run(func() bool {
			ok = ir.Next()
			return ok || ir.Err() == nil || errors.Is(ir.Err(), io.EOF)
		})
		if !ok {
			if err := ir.Err(); err != nil && !errors.Is(err, io.EOF) {
				return nil, errorf("%s: %w", what, err)
			}
			return nil, nil
		}
		rec = ir.RecordBatch()
		rec.Retain()
		return rec, nil
	}
	closeIR := func() error { ir.Release(); return nil }
	return batchreader.New(ir.Schema(), batchreader.Checked(next, arrowconv.ValidateRecord), closeIR), nil
}

// IPCWriter writes record batches to an Arrow IPC file or stream.
type IPCWriter struct {
	schema *arrow.Schema
	file   *ipc.FileWriter
	stream *ipc.Writer
}

// NewIPCFileWriter starts an Arrow IPC file of the given schema on w.
// Options: [WithAllocator], [WithCompression] (LZ4 or ZSTD bodies).
// Close writes the footer; it does not close w.
func NewIPCFileWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*IPCWriter, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	o, err := cfg.writeOptions(schema)
	if err != nil {
		return nil, err
	}
	fw, err := ipc.NewFileWriter(w, o...)
	if err != nil {
		return nil, errorf("ipc file: %w", err)
	}
	return &IPCWriter{schema: schema, file: fw}, nil
}

// NewIPCStreamWriter starts an Arrow IPC stream of the given schema on
// w. Options: [WithAllocator], [WithCompression]. Close writes the
// end-of-stream marker; it does not close w.
func NewIPCStreamWriter(w io.Writer, schema *arrow.Schema, opts ...Option) (*IPCWriter, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	o, err := cfg.writeOptions(schema)
	if err != nil {
		return nil, err
	}
	return &IPCWriter{schema: schema, stream: ipc.NewWriter(w, o...)}, nil
}

// Write writes one record batch, whose schema must equal the writer's.
// The batch is validated in full first ([arrowconv.ValidateRecord]): an invalid one
// is refused before anything of it is written. Sliced columns are written
// with only their own rows. A panic of arrow-go's writer is returned as
// an error wrapping arrow.ErrInvalid; the output is then to be discarded.
// It does not take ownership of rec.
func (w *IPCWriter) Write(rec arrow.RecordBatch) (err error) {
	defer recoveredWrite(&err, "ipc write")
	if !rec.Schema().Equal(w.schema) {
		return errorf("record schema %v does not match the writer's %v", rec.Schema(), w.schema)
	}
	if err := arrowconv.ValidateRecord(rec); err != nil {
		return err
	}
	if w.file != nil {
		err = w.file.Write(rec)
	} else {
		err = w.stream.Write(rec)
	}
	if err != nil {
		return errorf("ipc write: %w", err)
	}
	return nil
}

// Close finishes the file or stream. A panic of arrow-go's writer is
// returned as an error wrapping arrow.ErrInvalid.
func (w *IPCWriter) Close() (err error) {
	defer recoveredWrite(&err, "ipc close")
	if w.file != nil {
		err = w.file.Close()
	} else {
		err = w.stream.Close()
	}
	if err != nil {
		return errorf("ipc close: %w", err)
	}
	return nil
}
