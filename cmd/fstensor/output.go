package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/parquetconv"
)

// stdoutName is the output path that means standard output.
const stdoutName = "-"

// checkOutput refuses, before anything is read, an output path that names
// one of the inputs (the same file, also through symbolic or hard links)
// or an existing file that is not a regular file, and standard output
// for a format that cannot stream or when it is a terminal.
func checkOutput(out string, f format, stdout io.Writer, inputs ...string) error {
	if out == stdoutName {
		if f == ipcFile || f == parquetF {
			return fmt.Errorf("%w: %s cannot be written to standard output (its footer is read by seeking); use --to arrows or name a file", errUsage, f)
		}
		if isTerminal(stdout) {
			return fmt.Errorf("%w: standard output is a terminal; redirect it or name a file", errUsage)
		}
		return nil
	}
	oi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !oi.Mode().IsRegular() {
		return fmt.Errorf("%w: output %s exists and is not a regular file; refusing to replace it", errUsage, out)
	}
	for _, in := range inputs {
		if ii, err := os.Stat(in); err == nil && os.SameFile(ii, oi) {
			return fmt.Errorf("%w: output %s is the input file %s; write to another file", errUsage, out, in)
		}
	}
	return nil
}

// output writes record batches to a file. Close writes what remains
// (footers, single-column files) and makes the file appear at its path;
// Abort discards it and leaves the path as it was.
type output interface {
	Write(arrow.RecordBatch) error
	Close() error
	Abort()
}

// batchWriter is what the format writers have in common.
type batchWriter interface {
	Write(arrow.RecordBatch) error
	Close() error
}

// createOutput starts writing a file of format f for schema at path, or
// on stdout for "-". Nothing appears at path before Close succeeds.
func createOutput(path string, f format, schema *arrow.Schema, opts writeOptions, stdout io.Writer) (output, error) {
	o := &fileOutput{w: stdout}
	if path != stdoutName {
		af, err := atomicfile.Create(path)
		if err != nil {
			return nil, err
		}
		o.file, o.w = af, af
	}
	var err error
	switch f {
	case ipcFile:
		o.bw, err = arrowconv.NewIPCFileWriter(o.w, schema, arrowconv.WithCompression(opts.comp))
	case ipcStream:
		o.bw, err = arrowconv.NewIPCStreamWriter(o.w, schema, arrowconv.WithCompression(opts.comp))
	case parquetF:
		o.bw, err = parquetconv.NewWriter(o.w, schema, parquetconv.WithCompression(parquetCompression(opts.comp)))
	default:
		var cw *columnWriter
		if cw, err = newColumnWriter(schema, f, opts); err == nil {
			o.bw = cw
		}
	}
	if err != nil {
		if o.file != nil {
			o.file.Abort()
		}
		return nil, err
	}
	return o, nil
}

// writeOptions are the output flags that formats read.
type writeOptions struct {
	comp     arrowconv.Compression
	fill     bool // write null tensors as tensors of fillWith (.npy, .npz)
	fillWith float64
	compress bool // deflate .npz members
}

// fileOutput writes through a format writer to a temporary file (or
// stdout), renamed over the target on Close.
type fileOutput struct {
	bw   batchWriter
	w    io.Writer
	file *atomicfile.File // nil for stdout
}

func (o *fileOutput) Write(rec arrow.RecordBatch) error { return o.bw.Write(rec) }

func (o *fileOutput) Close() error {
	err := o.bw.Close()
	if cw, ok := o.bw.(*columnWriter); ok && err == nil {
		if err = cw.flush(o.w); err != nil && strings.Contains(err.Error(), "(set FillNulls)") {
			// The library names its option; the command has a flag.
			err = &rewordedError{strings.Replace(err.Error(), "(set FillNulls)", "(write them with --fill-nulls VALUE)", 1), err}
		}
	}
	if o.file == nil {
		return err
	}
	if err != nil {
		o.file.Abort()
		return err
	}
	return o.file.Commit()
}

func (o *fileOutput) Abort() {
	if cw, ok := o.bw.(*columnWriter); ok {
		cw.release()
	}
	if o.file != nil {
		o.file.Abort()
	}
}

// rewordedError is an error with a message of the command's own.
type rewordedError struct {
	msg string
	err error
}

func (e *rewordedError) Error() string { return e.msg }
func (e *rewordedError) Unwrap() error { return e.err }

// columnWriter gathers the batches of the tensor columns and writes them
// in a single-column format (or .npz) on flush.
type columnWriter struct {
	format format
	names  []string
	opts   writeOptions
	chunks [][]arrow.Array // per column
}

func newColumnWriter(schema *arrow.Schema, f format, opts writeOptions) (*columnWriter, error) {
	if f != npzF && schema.NumFields() != 1 {
		return nil, fmt.Errorf("%w: %s holds one tensor column, the input has %d columns (pick one with --column)", errUsage, f, schema.NumFields())
	}
	w := &columnWriter{format: f, opts: opts, chunks: make([][]arrow.Array, schema.NumFields())}
	for _, fld := range schema.Fields() {
		if _, ok := fld.Type.(*fixedshape.Type); !ok {
			return nil, fmt.Errorf("%w: column %q is %v, not a tensor column (pick tensor columns with --column)", errUsage, fld.Name, fld.Type)
		}
		w.names = append(w.names, fld.Name)
	}
	return w, nil
}

func (w *columnWriter) Write(rec arrow.RecordBatch) error {
	for i := range w.chunks {
		col := rec.Column(i)
		col.Retain()
		w.chunks[i] = append(w.chunks[i], col)
	}
	return nil
}

func (w *columnWriter) Close() error { return nil }

func (w *columnWriter) release() {
	for _, cs := range w.chunks {
		for _, c := range cs {
			c.Release()
		}
	}
	w.chunks = nil
}

func (w *columnWriter) flush(dst io.Writer) error {
	defer w.release()
	cols := make([]*fixedshape.Array, len(w.chunks))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, cs := range w.chunks {
		switch len(cs) {
		case 0:
			return fmt.Errorf("no record batches to write")
		case 1:
			cs[0].Retain()
			cols[i] = cs[0].(*fixedshape.Array)
		default:
			col, err := array.Concatenate(cs, memory.DefaultAllocator)
			if err != nil {
				return err
			}
			cols[i] = col.(*fixedshape.Array)
		}
	}
	if w.format == npzF {
		return writeNPZ(dst, w.names, cols, w.opts)
	}
	return writeColumnFile(dst, w.format, cols[0], w.opts)
}
