package tensorio

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
)

// ErrRowRange reports a row number that Take cannot take: a negative one
// or one past the file's last row. It wraps arrow.ErrInvalid.
var ErrRowRange = fmt.Errorf("tensorio: row out of range: %w", arrow.ErrInvalid)

// Take reads the rows of the file at path whose global numbers (counted
// from 0 over all its batches) are rows, and returns them as one record
// batch, in the order of rows: a row asked twice comes twice, an empty
// rows gives a batch of no rows. Null rows stay null. The batch is a copy
// in the memory of WithAllocator, which the caller releases; it shares
// nothing with the file.
//
// IPC files are mapped (read by ranged reads for an s3:// URL) and read
// by offset: Take reads the metadata of the batches of the file's footer
// in order up to the last one that holds a row asked (to count their
// rows), decodes only the batches that hold rows asked, and copies only
// those rows. Parquet files (local or s3://) are read by ranges
// (parquetconv.Take): the footer, the page index of the columns asked
// and, in the row groups that hold rows asked, only the pages of tensor
// columns that hold them (whole column chunks for other columns and for
// files without a page index). The other formats (IPC streams, .npy,
// .npz, .pb, .zio, .dt) are scanned: Take reads the whole file up to its
// last row asked (to its end when a row is out of range), keeping a copy
// of the rows asked only.
//
// Rows are copied whole, as runs of consecutive rows: a tensor column's
// row copies its values as one range, whatever the column's type (the
// copy is arrow-go's array.Concatenate of slices, which takes every
// type).
//
// Options: WithFormat, WithAllocator, WithColumns (the columns of the
// batch, in that order), WithWorkers, WithColumnName and WithShape (for
// the scanned formats, as Open reads them), WithStore (for an s3:// URL,
// which Take reads as Open does); the others are ignored.
//
// Errors: a negative row, or one the file lacks, is an error wrapping
// ErrRowRange (and arrow.ErrInvalid) that names the row and the file's
// row count (for a negative row, no count is read). The other errors are
// Open's and name the path.
func Take(path string, rows []int64, opts ...Option) (arrow.RecordBatch, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if r < 0 {
			return nil, &Error{errs.Kind(ErrRowRange, "tensorio", "%s: row %d is negative", path, r)}
		}
	}
	f, err := c.formatOf(path)
	if err != nil {
		return nil, err
	}
	if f != IPCFile && f != Parquet {
		return takeScan(path, rows, c)
	}
	if found := sniffFile(path); c.format == "" && found != "" && found != f {
		return nil, &FormatError{Path: path, Named: f, Found: found}
	}
	if f == Parquet {
		return takeParquet(path, rows, c)
	}
	return takeIPCFile(path, rows, c)
}

// takeParquet takes rows of the Parquet file at path by ranged reads of
// its footer, page index and the pages that hold them.
func takeParquet(path string, rows []int64, c *config) (arrow.RecordBatch, error) {
	var src io.ReaderAt
	var size int64
	if objstore.IsURL(path) {
		obj, err := c.openObject(path)
		if err != nil {
			return nil, err
		}
		src, size = source(obj), obj.Size()
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			return nil, err
		}
		src, size = f, fi.Size()
	}
	return takeParquetAt(src, size, path, rows, c)
}

// takeParquetAt takes rows of the Parquet file of size bytes read from
// src, named path in errors.
func takeParquetAt(src io.ReaderAt, size int64, path string, rows []int64, c *config) (arrow.RecordBatch, error) {
	opts := []parquetconv.Option{parquetconv.WithAllocator(c.mem)}
	if len(c.columns) > 0 {
		opts = append(opts, parquetconv.WithColumns(c.columns...))
	}
	rec, err := parquetconv.Take(src, size, rows, opts...)
	switch {
	case errors.Is(err, parquetconv.ErrRowRange):
		return nil, &Error{errs.Kind(ErrRowRange, "tensorio", "%s: %w", path, err)}
	case errors.Is(err, parquetconv.ErrColumn):
		return nil, mismatch("%s: %w", path, err)
	}
	return rec, withPath(path, err)
}

// pick is where one row of Take's result comes from: row row of batch
// src.
type pick struct {
	src int
	row int64
}

// wanted is the rows asked, by row: at[k] is the position in rows of the
// k-th smallest row.
type wanted struct {
	rows []int64
	at   []int
	next int // into at: the smallest row not yet found
}

func newWanted(rows []int64) *wanted {
	at := make([]int, len(rows))
	for i := range at {
		at[i] = i
	}
	slices.SortStableFunc(at, func(a, b int) int { return cmp.Compare(rows[a], rows[b]) })
	return &wanted{rows: rows, at: at}
}

// done tells whether every row asked was found.
func (w *wanted) done() bool { return w.next == len(w.at) }

// in calls found for every row asked below end (rows are counted over
// the file), smallest first, with its position in rows; it returns the
// number of distinct rows among them.
func (w *wanted) in(end int64, found func(pos int, row int64, first bool)) int {
	distinct := 0
	for ; w.next < len(w.at) && w.rows[w.at[w.next]] < end; w.next++ {
		pos := w.at[w.next]
		first := w.next == 0 || w.rows[w.at[w.next-1]] != w.rows[pos]
		if first {
			distinct++
		}
		found(pos, w.rows[pos], first)
	}
	return distinct
}

// outOfRange returns the error of the smallest row not found in a file of
// count rows.
func (w *wanted) outOfRange(path string, count int64) error {
	return &Error{errs.Kind(ErrRowRange, "tensorio", "%s: row %d is out of range: the file has %d rows", path, w.rows[w.at[w.next]], count)}
}

// takeIPCFile takes rows of the IPC file at path, mapped.
func takeIPCFile(path string, rows []int64, c *config) (arrow.RecordBatch, error) {
	fr, err := openIPCForTake(path, c)
	if err != nil {
		return nil, withPath(path, err)
	}
	defer fr.Close()
	return takeIPC(fr, path, rows, c)
}

// takeIPC takes rows of the IPC file read by fr, named path in errors.
// A mapped file truncated meanwhile fails it with an error.
func takeIPC(fr *arrowipc.FileReader, path string, rows []int64, c *config) (out arrow.RecordBatch, err error) {
	defer guardFaults(path)(&err)
	schema, idx, err := projection(path, fr.Schema(), c.columns)
	if err != nil {
		return nil, err
	}
	w := newWanted(rows)
	picks := make([]pick, len(rows))
	all := make([]int, fr.NumRecords())
	for i := range all {
		all[i] = i
	}
	// The batches that hold rows asked, from their metadata: on object
	// storage, asked for many batches at once.
	var held []int
	var start int64
	asked := 0
	for i := 0; i < len(all) && !w.done(); i++ {
		if i >= asked {
			asked = i + fr.Prefetch(all[i:], false)
		}
		n, err := fr.BatchRows(i) // the body is read only if rows are asked of it
		if err != nil {
			return nil, withPath(path, err)
		}
		if w.in(start+n, func(pos int, row int64, _ bool) { picks[pos] = pick{len(held), row - start} }) > 0 {
			held = append(held, i)
		}
		start += n
	}
	if !w.done() {
		return nil, w.outOfRange(path, start) // every batch was read
	}
	srcs := make([]arrow.RecordBatch, 0, len(held))
	defer func() { releaseAll(srcs) }()
	asked = 0
	for k, i := range held {
		if k >= asked {
			asked = k + fr.Prefetch(held[k:], true)
		}
		rec, err := fr.RecordBatch(i)
		if err != nil {
			return nil, withPath(path, err)
		}
		srcs = append(srcs, project(schema, idx, rec))
		rec.Release()
	}
	out, err = gather(c.mem, schema, srcs, picks)
	return out, withPath(path, err)
}

// takeScan takes rows of a file of any format by reading its batches in
// order and keeping a copy of the rows asked.
func takeScan(path string, rows []int64, c *config) (arrow.RecordBatch, error) {
	r, err := Open(path, scanOptions(c)...)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return takeRead(r, path, rows, c)
}

// scanOptions returns the options of c that a scanning Take passes to
// Open.
func scanOptions(c *config) []Option {
	opts := []Option{WithAllocator(c.mem), WithWorkers(c.workers)}
	if c.format != "" {
		opts = append(opts, WithFormat(c.format))
	}
	if len(c.columns) > 0 {
		opts = append(opts, WithColumns(c.columns...))
	}
	if c.name != "" {
		opts = append(opts, WithColumnName(c.name))
	}
	if c.shape != nil {
		opts = append(opts, WithShape(*c.shape))
	}
	if c.store != nil {
		opts = append(opts, WithStore(c.store))
	}
	return opts
}

// takeRead takes rows of what r reads, named path in errors.
func takeRead(r *Reader, path string, rows []int64, c *config) (arrow.RecordBatch, error) {
	var kept []arrow.RecordBatch // the distinct rows asked of each batch read, in order
	defer func() { releaseAll(kept) }()
	w := newWanted(rows)
	picks := make([]pick, len(rows))
	var start int64
	for !w.done() && r.Next() {
		rec := r.RecordBatch()
		n := rec.NumRows()
		var local []pick // the distinct rows of rec, smallest first
		w.in(start+n, func(pos int, row int64, first bool) {
			if first {
				local = append(local, pick{0, row - start})
			}
			picks[pos] = pick{len(kept), int64(len(local) - 1)}
		})
		start += n
		if len(local) == 0 {
			continue
		}
		part, err := gather(c.mem, r.Schema(), []arrow.RecordBatch{rec}, local)
		if err != nil {
			return nil, withPath(path, err)
		}
		kept = append(kept, part)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if !w.done() {
		return nil, w.outOfRange(path, start)
	}
	out, err := gather(c.mem, r.Schema(), kept, picks)
	return out, withPath(path, err)
}

// projection returns the schema of the columns names of schema (all of
// them when names is empty) and their indices in it.
func projection(path string, schema *arrow.Schema, names []string) (*arrow.Schema, []int, error) {
	if len(names) == 0 {
		return schema, nil, nil
	}
	idx := make([]int, len(names))
	fields := make([]arrow.Field, len(names))
	for k, n := range names {
		i := schema.FieldIndices(n)
		if len(i) == 0 {
			return nil, nil, mismatch("%s: no column %q (columns: %s)", path, n, columnNames(schema))
		}
		idx[k], fields[k] = i[0], schema.Field(i[0])
	}
	md := schema.Metadata()
	return arrow.NewSchema(fields, &md), idx, nil
}

// project returns a new reference to rec, or with idx, a batch of its
// columns idx under schema.
func project(schema *arrow.Schema, idx []int, rec arrow.RecordBatch) arrow.RecordBatch {
	if idx == nil {
		rec.Retain()
		return rec
	}
	cols := make([]arrow.Array, len(idx))
	for k, i := range idx {
		cols[k] = rec.Column(i)
	}
	return array.NewRecordBatch(schema, cols, rec.NumRows())
}

func releaseAll(recs []arrow.RecordBatch) {
	for _, r := range recs {
		r.Release()
	}
}

// gather returns a batch of schema whose rows are those picks name, in
// order, copied from srcs into mem: each run of consecutive rows of one
// source is one slice, and each column the concatenation of its slices.
func gather(mem memory.Allocator, schema *arrow.Schema, srcs []arrow.RecordBatch, picks []pick) (out arrow.RecordBatch, err error) {
	type run struct {
		src    int
		lo, hi int64
	}
	var runs []run
	for _, p := range picks {
		if k := len(runs) - 1; k >= 0 && runs[k].src == p.src && runs[k].hi == p.row {
			runs[k].hi++
			continue
		}
		runs = append(runs, run{p.src, p.row, p.row + 1})
	}
	cols := make([]arrow.Array, schema.NumFields())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		if r := recover(); r != nil {
			out, err = nil, &Error{errs.Panic("tensorio", "copying rows", r)}
		}
	}()
	parts := make([]arrow.Array, len(runs))
	for j := range cols {
		if t, ok := schema.Field(j).Type.(*fixedshape.Type); ok && t.ElemWidth() > 0 && len(picks) > 0 {
			if cols[j], err = gatherTensors(mem, t, srcs, j, picks); err != nil {
				return nil, fmt.Errorf("tensorio: column %q: %w", schema.Field(j).Name, err)
			}
			continue
		}
		if len(runs) == 0 {
			b := array.NewBuilder(mem, schema.Field(j).Type)
			cols[j] = b.NewArray()
			b.Release()
			continue
		}
		for i, r := range runs {
			parts[i] = array.NewSlice(srcs[r.src].Column(j), r.lo, r.hi)
		}
		cols[j], err = array.Concatenate(parts, mem)
		for _, p := range parts {
			p.Release()
		}
		if err != nil {
			return nil, fmt.Errorf("tensorio: column %q: %w", schema.Field(j).Name, err)
		}
	}
	return array.NewRecordBatch(schema, cols, int64(len(picks))), nil
}

// gatherTensors returns the tensors picks name of column j of srcs, a
// tensor column of type t whose elements are whole bytes, copied row by
// row into a new column of mem: one copy of each row's bytes, null rows
// zero-filled and cleared in a new validity bitmap.
func gatherTensors(mem memory.Allocator, t *fixedshape.Type, srcs []arrow.RecordBatch, j int, picks []pick) (arrow.Array, error) {
	cols := make([]*fixedshape.Array, len(srcs))
	vals := make([][]byte, len(srcs))
	for i, rec := range srcs {
		a, ok := rec.Column(j).(*fixedshape.Array)
		if !ok || !arrow.TypeEqual(a.DataType(), t) {
			return nil, fmt.Errorf("batch %d holds %v, not %v", i, rec.Column(j).DataType(), t)
		}
		cols[i], vals[i] = a, a.ValueBytes()
	}
	rowBytes := t.ListSize() * t.ElemWidth()
	child := memory.NewResizableBuffer(mem)
	defer child.Release()
	child.Resize(len(picks) * rowBytes)
	dst := child.Bytes()
	var valid *memory.Buffer
	nulls := 0
	for i, p := range picks {
		out := dst[i*rowBytes : (i+1)*rowBytes]
		if cols[p.src].IsNull(int(p.row)) {
			if valid == nil {
				valid = memory.NewResizableBuffer(mem)
				defer valid.Release()
				valid.Resize(int(bitutil.BytesForBits(int64(len(picks)))))
				vb := valid.Bytes()
				for k := range vb {
					vb[k] = 0xff
				}
			}
			bitutil.ClearBit(valid.Bytes(), i)
			clear(out)
			nulls++
			continue
		}
		copy(out, vals[p.src][int(p.row)*rowBytes:])
	}
	st := t.StorageType().(*arrow.FixedSizeListType)
	cd := array.NewData(st.Elem(), len(picks)*t.ListSize(), []*memory.Buffer{nil, child}, nil, 0, 0)
	defer cd.Release()
	fd := array.NewData(st, len(picks), []*memory.Buffer{valid}, []arrow.ArrayData{cd}, nulls, 0)
	defer fd.Release()
	storage := array.MakeFromData(fd)
	defer storage.Release()
	out, err := fixedshape.NewArray(t, storage)
	if err != nil {
		return nil, err
	}
	return out, nil
}
