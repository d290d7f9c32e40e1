package tensorio

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// datasetOptions are the options of CreateDataset.
type datasetOptions struct {
	targetBytes int64 // 0: no limit
	partitionBy []string
	addFiles    bool
}

// WithTargetFileSize makes CreateDataset start a new file once a file
// holds n bytes of rows, counted as the Arrow bytes of the rows written
// (their values and offsets, before encoding and compression): a file
// ends before the row that would take it past n, but holds at least one
// row, and rows are never split between files. n == 0 (the default) puts
// every row of a partition in one file; a negative n is an invalid
// option.
func WithTargetFileSize(n int64) Option {
	return atLeast("WithTargetFileSize", n, 0, "want a byte count of 1 or more, or 0 for no limit", func(c *config) *int64 { return &c.dataset.targetBytes })
}

// WithPartitionBy makes CreateDataset write the rows of each distinct
// value of the named columns (integers or strings) under a Hive
// directory "name=value" per column, in the order given
// ("label=3/part-00000.parquet"), and drops the columns from the files,
// as pyarrow.dataset.write_dataset does with partitioning_flavor="hive".
// Values are percent-encoded as ParseHiveDir reads them; null is
// HiveNull. Read back, a column comes back as int64 when every value is
// a decimal integer (a string column of "007" too), else as a string
// (see NewDataset).
func WithPartitionBy(names ...string) Option {
	return func(c *config) { c.dataset.partitionBy = append([]string(nil), names...) }
}

// WithAddFiles lets CreateDataset write into a directory that holds files
// already: the new files take numbers after the highest "part-N" of their
// directory, and never replace a file.
func WithAddFiles() Option { return func(c *config) { c.dataset.addFiles = true } }

// DatasetWriter writes record batches as a dataset: files "part-00000.ext"
// (numbered from 0 in each directory) of about a target size, optionally
// under Hive partition directories, which NewDataset, pyarrow.dataset,
// polars and DuckDB read back (see CreateDataset). A DatasetWriter is not
// safe for concurrent use.
type DatasetWriter struct {
	store     datasetStore
	dir       string
	schema    *arrow.Schema // of the batches written
	fields    []int         // the columns of the files
	files     *arrow.Schema // their schema
	parts     []int         // the partition columns
	ext       string
	opts      []Option
	mem       memory.Allocator
	target    int64
	add       bool
	open      map[string]*partFile // by directory, relative to root
	next      map[string]int       // the next file number of a directory
	committed []string             // the files written, relative to root
	closed    bool
}

// partFile is the file being written in one directory.
type partFile struct {
	w     *Writer
	name  string
	bytes float64
}

// CreateDataset starts writing a dataset of schema under the directory
// dir, made if it does not exist (with its parents). Files are written
// in the format of WithFormat, Parquet by default (IPC files and streams
// too; the other formats hold single tensor columns and are refused,
// ErrMismatch), each as Create writes one: a temporary file renamed to
// its name when complete, so that a reader never sees part of a file.
// Options: WithFormat, WithCompression, WithAllocator, WithTargetFileSize,
// WithPartitionBy, WithAddFiles.
//
// A dir that holds anything fails with an error wrapping fs.ErrExist
// unless WithAddFiles is given. A partition column the schema lacks, or
// of a type other than an integer or a string, and a partitioning of
// every column, fail with an error wrapping ErrMismatch. The caller ends
// the writer with Close or Abort.
//
// Each partition directory has one file open until it reaches the target
// size or Close: a dataset of many partitions holds as many open files
// (and, for Parquet, their footers' metadata) while it is written.
//
// A dir written as a URL (objstore.IsURL), "s3://bucket/prefix/", is a
// prefix of object storage, through the client of WithStore (or one from
// the environment): each file is an object that Create writes (it
// appears whole when complete), the prefix must hold no object unless
// WithAddFiles is given, there are no directories to make, and Abort
// deletes the objects completed.
func CreateDataset(dir string, schema *arrow.Schema, opts ...Option) (*DatasetWriter, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	w := &DatasetWriter{dir: dir, schema: schema, target: c.dataset.targetBytes, add: c.dataset.addFiles,
		open: map[string]*partFile{}, next: map[string]int{}}
	format := c.format
	if format == "" {
		format = Parquet
	}
	if err := w.plan(format, c); err != nil {
		return nil, err
	}
	if w.store, err = openStore(dir, w.add, c); err != nil {
		return nil, err
	}
	w.mem = c.mem
	w.opts = []Option{WithFormat(format), WithAllocator(c.mem), WithCompression(c.compression)}
	return w, nil
}

// plan checks the format and the partition columns and sets the files'
// schema.
func (w *DatasetWriter) plan(format Format, c *config) error {
	if _, err := ParseFormat(string(format)); err != nil {
		return err
	}
	switch format {
	case Parquet:
		w.ext = ".parquet"
	case IPCFile:
		w.ext = ".arrow"
	case IPCStream:
		w.ext = ".arrows"
	default:
		return mismatch("a dataset is written as Parquet, IPC files or IPC streams, not %s", format)
	}
	for _, name := range c.dataset.partitionBy {
		i := w.schema.FieldIndices(name)
		if len(i) == 0 {
			return mismatch("WithPartitionBy: no column %q (columns: %s)", name, columnNames(w.schema))
		}
		if !partitionType(w.schema.Field(i[0]).Type) {
			return mismatch("WithPartitionBy: column %q is %v; partition by integers or strings", name, w.schema.Field(i[0]).Type)
		}
		w.parts = append(w.parts, i[0])
	}
	var fields []arrow.Field
	for i, f := range w.schema.Fields() {
		if !slices.Contains(w.parts, i) {
			w.fields, fields = append(w.fields, i), append(fields, f)
		}
	}
	if len(fields) == 0 {
		return mismatch("WithPartitionBy: every column is a partition; the files would hold none")
	}
	md := w.schema.Metadata()
	w.files = arrow.NewSchema(fields, &md)
	return checkSchema(format, w.files, c)
}

func partitionType(t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64,
		arrow.STRING, arrow.LARGE_STRING:
		return true
	}
	return false
}

// Files returns the files written so far, those not yet complete too,
// relative to the dataset's directory (slash-separated), in a new slice.
func (w *DatasetWriter) Files() []string {
	out := slices.Clone(w.committed)
	for _, f := range w.open {
		out = append(out, f.name)
	}
	slices.Sort(out)
	return out
}

// Write writes the rows of rec, whose schema must have the columns of the
// writer's (names and types), to the files of their partitions. Rows of
// one partition that follow each other in rec are written as zero-copy
// slices; the others are first copied together. A failed Write aborts
// the writer (see Abort).
func (w *DatasetWriter) Write(rec arrow.RecordBatch) (err error) {
	if w.closed {
		return ErrClosed
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if why := columnsDiff(w.schema, rec.Schema()); why != "" {
		return mismatch("dataset %s: the batch %s, unlike the writer's schema", w.dir, why)
	}
	if len(w.parts) == 0 {
		return w.writeRows("", rec)
	}
	groups, keys := w.group(rec)
	for _, key := range keys {
		part, err := w.rows(rec, groups[key])
		if err != nil {
			return err
		}
		err = w.writeRows(key, part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// group returns the rows of rec by the directory of their partition, and
// the directories in the order they first appear.
func (w *DatasetWriter) group(rec arrow.RecordBatch) (map[string][]int64, []string) {
	groups := map[string][]int64{}
	var keys []string
	var b strings.Builder
	for row := range rec.NumRows() {
		b.Reset()
		for k, i := range w.parts {
			col := rec.Column(i)
			if k > 0 {
				b.WriteByte('/')
			}
			name := w.schema.Field(i).Name
			if col.IsNull(int(row)) {
				b.WriteString(hiveDirName(name, "", true))
			} else {
				b.WriteString(hiveDirName(name, valueText(col, int(row)), false))
			}
		}
		key := b.String()
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], row)
	}
	return groups, keys
}

// valueText returns the text of value i of an integer or string column.
func valueText(col arrow.Array, i int) string {
	switch a := col.(type) {
	case *array.String:
		return a.Value(i)
	case *array.LargeString:
		return a.Value(i)
	case *array.Uint64:
		return strconv.FormatUint(a.Value(i), 10)
	}
	return col.ValueStr(i) // the other integers, in decimal
}

// rows returns the rows of rec, the files' columns only: a slice when
// they follow each other, else a copy.
func (w *DatasetWriter) rows(rec arrow.RecordBatch, rows []int64) (arrow.RecordBatch, error) {
	lo, hi := rows[0], rows[len(rows)-1]+1
	whole := project(w.files, w.fieldsOrNil(), rec)
	defer whole.Release()
	if hi-lo == int64(len(rows)) {
		return whole.NewSlice(lo, hi), nil
	}
	picks := make([]pick, len(rows))
	for i, r := range rows {
		picks[i] = pick{0, r}
	}
	return gather(w.mem, w.files, []arrow.RecordBatch{whole}, picks)
}

// fieldsOrNil returns the files' columns for project, nil for all.
func (w *DatasetWriter) fieldsOrNil() []int {
	if len(w.parts) == 0 {
		return nil
	}
	return w.fields
}

// writeRows writes rec to the files of directory dir ("" for the
// dataset's own), starting new files as the target size asks.
func (w *DatasetWriter) writeRows(dir string, rec arrow.RecordBatch) error {
	per := rowBytes(rec)
	for off := int64(0); off < rec.NumRows(); {
		f := w.open[dir]
		if f == nil {
			var err error
			if f, err = w.newFile(dir); err != nil {
				return err
			}
		}
		n := rec.NumRows() - off
		if w.target > 0 && per > 0 {
			room := int64((float64(w.target) - f.bytes) / per)
			if room < 1 && f.bytes > 0 { // full: the next file
				if err := w.finish(dir); err != nil {
					return err
				}
				continue
			}
			n = min(n, max(room, 1))
		}
		part := rec.NewSlice(off, off+n)
		err := f.w.Write(part)
		part.Release()
		if err != nil {
			delete(w.open, dir) // Write aborted it
			return err
		}
		f.bytes += per * float64(n)
		off += n
	}
	return nil
}

// newFile starts the next file of directory dir.
func (w *DatasetWriter) newFile(dir string) (*partFile, error) {
	k, ok := w.next[dir]
	if !ok && w.add {
		var err error
		if k, err = w.firstFree(dir); err != nil {
			return nil, err
		}
	}
	name := path.Join(dir, fmt.Sprintf("part-%05d%s", k, w.ext))
	w.next[dir] = k + 1
	fw, err := w.store.create(name, w.files, w.opts)
	if err != nil {
		return nil, err
	}
	f := &partFile{w: fw, name: name}
	w.open[dir] = f
	return f, nil
}

// firstFree returns the number after the highest "part-N" file of dir.
func (w *DatasetWriter) firstFree(dir string) (int, error) {
	names, err := w.store.names(dir)
	if err != nil {
		return 0, err
	}
	next := 0
	for _, name := range names {
		num, ok := strings.CutPrefix(strings.TrimSuffix(name, path.Ext(name)), "part-")
		if n, err := strconv.Atoi(num); ok && err == nil && n >= next {
			next = n + 1
		}
	}
	return next, nil
}

// finish closes the file of directory dir, which then appears whole.
func (w *DatasetWriter) finish(dir string) error {
	f := w.open[dir]
	delete(w.open, dir)
	if err := f.w.Close(); err != nil {
		return err
	}
	w.committed = append(w.committed, f.name)
	return nil
}

// Close finishes every file, each appearing whole at its name. A failed
// Close aborts the writer (see Abort). Close after Close or Abort returns
// ErrClosed.
func (w *DatasetWriter) Close() error {
	if w.closed {
		return ErrClosed
	}
	dirs := make([]string, 0, len(w.open))
	for d := range w.open {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		if err := w.finish(d); err != nil {
			w.Abort()
			return err
		}
	}
	w.closed = true
	return w.store.close(false)
}

// Abort discards the dataset: the files being written are removed as
// Writer.Abort removes them, the files this writer completed are removed
// too, and so are the directories it made, when empty. Files that were
// there before (WithAddFiles) are left. Abort after Close or Abort does
// nothing.
func (w *DatasetWriter) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	for _, f := range w.open {
		f.w.Abort()
	}
	w.open = nil
	for _, name := range w.committed {
		w.store.remove(name)
	}
	w.store.close(true)
}

// rowBytes returns the Arrow bytes of one row of rec, on average: fixed
// widths exactly, tensor and list values and string bytes by their
// offsets or sizes.
func rowBytes(rec arrow.RecordBatch) float64 {
	n := rec.NumRows()
	if n == 0 {
		return 0
	}
	var total float64
	for _, col := range rec.Columns() {
		total += colBytes(col)
	}
	return total / float64(n)
}

// colBytes returns the Arrow bytes of the values of col (not of the
// buffers it may be a slice of, where that is cheap to tell).
func colBytes(col arrow.Array) float64 {
	n := float64(col.Len())
	dt := col.DataType()
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
		col = col.(array.ExtensionArray).Storage()
	}
	switch t := dt.(type) {
	case arrow.FixedWidthDataType:
		return n * float64(t.BitWidth()) / 8
	case *arrow.FixedSizeListType:
		if ew, ok := t.Elem().(arrow.FixedWidthDataType); ok {
			return n * float64(t.Len()) * float64(ew.BitWidth()) / 8
		}
	case *arrow.StringType, *arrow.BinaryType:
		a := col.(array.BinaryLike)
		if a.Len() > 0 {
			return n*4 + float64(a.ValueOffset64(a.Len()-1)+int64(a.ValueLen(a.Len()-1))-a.ValueOffset64(0))
		}
		return 0
	}
	if col.Data().Offset() == 0 {
		return float64(arraySize(col))
	}
	return n * 8 // a slice of a nested column: a guess
}

// arraySize returns the bytes of the buffers of col and its children.
func arraySize(col arrow.Array) int64 {
	var total int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				total += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	walk(col.Data())
	return total
}
