package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/parquetconv"
)

// format is a file format the command reads and writes.
type format string

const (
	ipcFile   format = "arrow"   // Arrow IPC file (Feather v2)
	ipcStream format = "arrows"  // Arrow IPC stream
	parquetF  format = "parquet" // Parquet with the Arrow schema stored
	npyF      format = "npy"     // NumPy .npy, one tensor column
	npzF      format = "npz"     // NumPy .npz, one .npy member per tensor column
	tfprotoF  format = "tfproto" // TensorFlow TensorProto messages, varint-delimited
	zioF      format = "zio"     // one ZIO TENS message, single-part framing
	dtF       format = "decthings"
	pngF      format = "png" // show's images
)

// tensorsOnly reports whether a format holds tensor columns only (one,
// but for .npz).
func (f format) tensorsOnly() bool {
	return f == npyF || f == npzF || f == tfprotoF || f == zioF || f == dtF
}

// formatOf returns the format named by override, or else the one the
// file extension implies.
func formatOf(path, override string) (format, error) {
	name := override
	if name == "" {
		name = strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	}
	switch name {
	case "arrow", "feather", "ipc":
		return ipcFile, nil
	case "arrows", "stream":
		return ipcStream, nil
	case "parquet", "pq":
		return parquetF, nil
	case "npy":
		return npyF, nil
	case "npz":
		return npzF, nil
	case "tfproto", "pb":
		return tfprotoF, nil
	case "zio":
		return zioF, nil
	case "decthings", "dt":
		return dtF, nil
	}
	if override != "" {
		return "", fmt.Errorf("%w: unknown format %q (want arrow, arrows, parquet, npy, npz, tfproto, zio or decthings)", errUsage, override)
	}
	return "", fmt.Errorf("%w: cannot tell the format of %s from its extension (use .arrow, .arrows, .parquet, .npy, .npz, .pb, .zio or .dt, or --to/--from)", errUsage, path)
}

// input yields the record batches of a file, in order.
type input struct {
	format format
	path   string
	schema *arrow.Schema
	next   func() (arrow.RecordBatch, error) // nil, nil at the end
	close  func() error
	cur    arrow.RecordBatch
	err    error
}

// openInput opens path in the given format ("" for the extension's).
// With single, a .npy file is one tensor (a column of one row). Errors
// name the path once.
func openInput(path string, f format, single bool) (*input, error) {
	if f == "" {
		var err error
		if f, err = formatOf(path, ""); err != nil {
			return nil, err
		}
	}
	if single && f != npyF {
		return nil, fmt.Errorf("%w: --single reads .npy files, not %s", errUsage, f)
	}
	in := &input{format: f, path: path}
	switch f {
	case ipcFile, ipcStream, parquetF:
		file, err := os.Open(path)
		if err != nil {
			return nil, err // *os.PathError names the path
		}
		var rr *arrowconv.RecordReader
		switch f {
		case ipcFile:
			// The plain reader reads one batch at a time, so memory stays
			// bounded by the largest batch (a mapping would count the whole
			// file as resident).
			r, err := arrowconv.NewIPCFileReader(file)
			if err != nil {
				file.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			i := 0
			in.schema = r.Schema()
			in.close = func() error { return errors.Join(r.Close(), file.Close()) }
			in.next = func() (arrow.RecordBatch, error) {
				if i == r.NumRecords() {
					return nil, nil
				}
				i++
				return r.RecordBatch(i - 1)
			}
			return in, nil
		case parquetF:
			rr, err = parquetconv.NewReader(file, parquetReadOptions()...)
		default:
			rr, err = arrowconv.NewIPCStreamReader(file)
		}
		if err != nil {
			file.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		in.schema = rr.Schema()
		in.close = func() error {
			rr.Release()
			return file.Close()
		}
		in.next = func() (arrow.RecordBatch, error) {
			if !rr.Next() {
				return nil, rr.Err()
			}
			rec := rr.RecordBatch()
			rec.Retain()
			return rec, nil
		}
	default:
		var names []string
		var cols []*fixedshape.Array
		if f == npzF {
			var err error
			if names, cols, err = readNPZ(path); err != nil {
				return nil, withPath(path, err)
			}
		} else {
			col, err := readColumnFile(path, f, single)
			if err != nil {
				return nil, withPath(path, err)
			}
			names, cols = []string{strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))}, []*fixedshape.Array{col}
		}
		fields := make([]arrow.Field, len(cols))
		arrs := make([]arrow.Array, len(cols))
		for i, c := range cols {
			defer c.Release()
			fields[i], arrs[i] = arrow.Field{Name: names[i], Type: c.DataType(), Nullable: true}, c
			if c.Len() != cols[0].Len() {
				return nil, fmt.Errorf("%s: member %q has %d tensors, %q has %d: the columns of a table need as many rows", path, names[i], c.Len(), names[0], cols[0].Len())
			}
		}
		if len(cols) == 0 {
			return nil, fmt.Errorf("%s: no tensor column", path)
		}
		in.schema = arrow.NewSchema(fields, nil)
		rec := array.NewRecordBatch(in.schema, arrs, int64(cols[0].Len()))
		in.close = func() error { return nil }
		in.next = func() (arrow.RecordBatch, error) {
			r := rec
			rec = nil
			return r, nil
		}
	}
	return in, nil
}

// Schema returns the schema of every batch.
func (in *input) Schema() *arrow.Schema { return in.schema }

// Next advances to the next batch, releasing the previous one. It returns
// false at the end and on error (see Err).
func (in *input) Next() bool {
	if in.cur != nil {
		in.cur.Release()
		in.cur = nil
	}
	if in.err != nil {
		return false
	}
	in.cur, in.err = in.next()
	if in.err != nil {
		in.err = fmt.Errorf("%s: %w", in.path, in.err)
	}
	return in.cur != nil
}

// RecordBatch returns the current batch, valid until the next call of Next.
func (in *input) RecordBatch() arrow.RecordBatch { return in.cur }

// Err returns the error that ended the iteration, if any.
func (in *input) Err() error { return in.err }

// Close releases the current batch and the file.
func (in *input) Close() error {
	if in.cur != nil {
		in.cur.Release()
		in.cur = nil
	}
	return in.close()
}

// parseCompression reads the --compression flag.
func parseCompression(s string) (arrowconv.Compression, error) {
	switch strings.ToLower(s) {
	case "", "none":
		return arrowconv.Uncompressed, nil
	case "lz4":
		return arrowconv.LZ4, nil
	case "zstd":
		return arrowconv.ZSTD, nil
	}
	return 0, fmt.Errorf("%w: unknown compression %q (want none, lz4 or zstd)", errUsage, s)
}

// parquetCompression returns the Parquet codec of an IPC one.
func parquetCompression(c arrowconv.Compression) parquetconv.Compression {
	switch c {
	case arrowconv.LZ4:
		return parquetconv.LZ4
	case arrowconv.ZSTD:
		return parquetconv.ZSTD
	}
	return parquetconv.Uncompressed
}

// selectColumns returns the indices of the named columns, all when names is
// empty.
func selectColumns(schema *arrow.Schema, names []string) ([]int, error) {
	if len(names) == 0 {
		idx := make([]int, schema.NumFields())
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	var idx []int
	for _, n := range names {
		i := schema.FieldIndices(n)
		if len(i) == 0 {
			return nil, fmt.Errorf("%w: no column %q (columns: %s)", errUsage, n, columnNames(schema))
		}
		idx = append(idx, i[0])
	}
	return idx, nil
}

func columnNames(schema *arrow.Schema) string {
	var names []string
	for _, f := range schema.Fields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// projectSchema returns the schema restricted to the columns idx.
func projectSchema(schema *arrow.Schema, idx []int) *arrow.Schema {
	fields := make([]arrow.Field, len(idx))
	for k, i := range idx {
		fields[k] = schema.Field(i)
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md)
}

// projectBatch returns rec restricted to the columns idx, with schema.
func projectBatch(schema *arrow.Schema, rec arrow.RecordBatch, idx []int) arrow.RecordBatch {
	cols := make([]arrow.Array, len(idx))
	for k, i := range idx {
		cols[k] = rec.Column(i)
	}
	return array.NewRecordBatch(schema, cols, rec.NumRows())
}

// parquetReadOptions are the options of the Parquet reader: row groups
// decoded on every processor.
func parquetReadOptions() []parquetconv.Option {
	return []parquetconv.Option{parquetconv.WithWorkers(runtime.GOMAXPROCS(0))}
}
