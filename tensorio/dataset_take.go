package tensorio

import (
	"cmp"
	"errors"
	"os"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/parquetconv"
)

// fileRows returns the row count of the file at path (or s3:// URL) of
// format f from its footer: a Parquet file's metadata, the batches'
// metadata of an IPC file's footer (their bodies not read); known is
// false for the other formats.
func fileRows(path string, f Format, c *config) (n int64, known bool, err error) {
	switch f {
	case Parquet:
		n, err = parquetRows(path, c)
		return n, err == nil, withPath(path, err)
	case IPCFile:
		fr, err := openIPCForTake(path, c)
		if err != nil {
			return 0, false, withPath(path, err)
		}
		defer fr.Close()
		for i := range fr.NumRecords() {
			k, err := fr.BatchRows(i)
			if err != nil {
				return 0, false, withPath(path, err)
			}
			n += k
		}
		return n, true, nil
	}
	return 0, false, nil
}

// parquetRows returns the row count of a Parquet file's footer.
func parquetRows(path string, c *config) (int64, error) {
	if objstore.IsURL(path) {
		obj, err := c.openObject(path)
		if err != nil {
			return 0, err
		}
		return parquetconv.RowCount(source(obj), obj.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return parquetconv.RowCount(f, fi.Size())
}

// countRows returns the row count of file j: from its footer, or else by
// reading it.
func (d *Dataset) countRows(j int, c *config) (int64, error) {
	n, known, err := fileRows(d.files[j], d.format[j], c)
	if known || err != nil {
		return n, err
	}
	opts := []Option{WithAllocator(c.mem)}
	if d.cfg.format != "" {
		opts = append(opts, WithFormat(d.cfg.format))
	}
	r, err := Open(d.files[j], opts...)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	return n, r.Err()
}

// Take reads the rows of the dataset whose global numbers (counted from 0
// over its files, in the order of Files) are rows, and returns them as
// one record batch in the order of rows, as the package's Take does for
// one file: duplicates come twice, the batch is a copy in the memory of
// WithAllocator that the caller releases. The files' row counts come
// from their footers (IPC files, Parquet; the other formats are read to
// count them), and each file that holds rows asked is read by Take with
// the rows it holds, up to WithWorkers files at once (sharing the
// workers); the partition columns are added as in Open.
//
// Options: WithAllocator, WithColumns (file and partition columns, in the
// order given), WithWorkers, WithColumnName and WithShape, as Take reads
// them. Errors: a negative row, or one past the dataset's last, wraps
// ErrRowRange and names the row (and the dataset's row count); a file
// whose columns differ from those of the first file read wraps ErrSchema;
// the others are Take's and name the file.
func (d *Dataset) Take(rows []int64, opts ...Option) (arrow.RecordBatch, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	c.store = cmp.Or(c.store, d.cfg.store) // WithStore given to NewDataset serves every call
	for _, r := range rows {
		if r < 0 {
			return nil, &Error{errs.Kind(ErrRowRange, "tensorio", "dataset: row %d is negative", r)}
		}
	}
	files, local, fileOf, err := d.locate(rows, c)
	if err != nil {
		return nil, err
	}
	s := &scan{d: d, c: c, files: []int{0}}
	if len(files) > 0 {
		s.files[0] = files[0]
	}
	head, err := Take(d.files[s.files[0]], nil, s.takeOptions(nil)...)
	if err != nil {
		return nil, err
	}
	defer head.Release()
	if err := s.plan(head.Schema()); err != nil {
		return nil, err
	}
	var fileCols []string
	for _, i := range s.pick {
		if i >= 0 {
			fileCols = append(fileCols, s.fileSchema.Field(i).Name)
		}
	}
	if len(files) == 0 {
		return s.takeFile(s.files[0], nil, fileCols)
	}
	parts, err := s.takeFiles(files, local, fileCols)
	defer func() { releaseAll(parts) }()
	if err != nil {
		return nil, err
	}
	if len(parts) == 1 {
		parts[0].Retain()
		return parts[0], nil
	}
	picks := make([]pick, len(rows))
	at := make([]int64, len(files))
	for i := range rows {
		k := fileOf[i]
		picks[i] = pick{k, at[k]}
		at[k]++
	}
	return gather(c.mem, s.out, parts, picks)
}

// locate returns the files that hold rows (indexes into d.files, in
// order), the rows of each, local to it, in the order of rows, and for
// each row the position of its file in files. It counts the rows of the
// files up to the last row asked.
func (d *Dataset) locate(rows []int64, c *config) (files []int, local [][]int64, fileOf []int, err error) {
	var hi int64 = -1
	for _, r := range rows {
		hi = max(hi, r)
	}
	var starts []int64 // of the files counted, and their end
	var end int64
	for j := 0; j < len(d.files) && end <= hi; j++ {
		n, err := d.countRows(j, c)
		if err != nil {
			return nil, nil, nil, err
		}
		starts = append(starts, end)
		end += n
	}
	if hi >= end {
		return nil, nil, nil, &Error{errs.Kind(ErrRowRange, "tensorio", "dataset: row %d is out of range: the dataset has %d rows", hi, end)}
	}
	starts = append(starts, end)
	pos := map[int]int{}
	fileOf = make([]int, len(rows))
	for i, r := range rows {
		j, _ := slices.BinarySearch(starts, r+1)
		j-- // starts[j] <= r < starts[j+1]: not an empty file
		k, ok := pos[j]
		if !ok {
			k = len(files)
			pos[j] = k
			files = append(files, j)
			local = append(local, nil)
		}
		local[k] = append(local[k], r-starts[j])
		fileOf[i] = k
	}
	return files, local, fileOf, nil
}

// takeFiles takes the rows local[k] of each file files[k], up to
// WithWorkers files at once, the workers shared among them; the error is
// that of the first file in order that failed, and then no batch is
// returned.
func (s *scan) takeFiles(files []int, local [][]int64, fileCols []string) ([]arrow.RecordBatch, error) {
	parts := make([]arrow.RecordBatch, len(files))
	errs := make([]error, len(files))
	conc := min(s.c.workers, len(files))
	s.workers = max(1, s.c.workers/conc)
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	for k, j := range files {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			parts[k], errs[k] = s.takeFile(j, local[k], fileCols)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		for _, p := range parts {
			if p != nil {
				p.Release()
			}
		}
		for _, e := range errs {
			if e != nil {
				return nil, e
			}
		}
	}
	return parts, nil
}

// takeOptions returns the options of the package's Take for one file,
// keeping names of its columns.
func (s *scan) takeOptions(names []string) []Option {
	c := s.c
	opts := []Option{WithAllocator(c.mem), WithWorkers(max(s.workers, 1))}
	if f := s.d.cfg.format; f != "" {
		opts = append(opts, WithFormat(f))
	}
	if len(names) > 0 {
		opts = append(opts, WithColumns(names...))
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

// takeFile takes rows of file j, its columns fileCols, and returns them
// with the columns of s.out.
func (s *scan) takeFile(j int, rows []int64, fileCols []string) (arrow.RecordBatch, error) {
	path := s.d.files[j]
	rec, err := Take(path, rows, s.takeOptions(fileCols)...)
	if errors.Is(err, ErrMismatch) && !errors.Is(err, ErrFormat) {
		return nil, &Error{errs.Kind(ErrSchema, "tensorio", "%s lacks a column of %s, the dataset's first file: %v", path, s.d.files[s.files[0]], err)}
	}
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	if len(fileCols) > 0 {
		want := projected(s.fileSchema, fileCols)
		if err := schemaDiff(s.d.files[s.files[0]], want, path, rec.Schema()); err != nil {
			return nil, err
		}
	}
	cols := make([]arrow.Array, len(s.pick))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	k := 0
	for i, p := range s.pick {
		if p >= 0 {
			cols[i] = rec.Column(k)
			cols[i].Retain()
			k++
			continue
		}
		if cols[i], err = partitionArray(s.c.mem, s.d.parts[-1-p], j, int(rec.NumRows())); err != nil {
			return nil, err
		}
	}
	return array.NewRecordBatch(s.out, cols, rec.NumRows()), nil
}

// projected returns the schema of the columns names of schema.
func projected(schema *arrow.Schema, names []string) *arrow.Schema {
	fields := make([]arrow.Field, len(names))
	for k, n := range names {
		fields[k] = schema.Field(schema.FieldIndices(n)[0])
	}
	return arrow.NewSchema(fields, nil)
}
