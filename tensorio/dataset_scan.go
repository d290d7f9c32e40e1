package tensorio

import (
	"cmp"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/errs"
)

// OpenDataset is NewDataset(src, opts...) followed by its Open(opts...):
// the files of the directories, globs and files of src read as one
// stream of batches.
func OpenDataset(src []string, opts ...Option) (*Reader, error) {
	d, err := NewDataset(src, opts...)
	if err != nil {
		return nil, err
	}
	return d.Open(opts...)
}

// Open reads the dataset's files as one stream of batches, in the order
// of Files: each file's batches as Open reads them, with the partition
// columns after the file's columns, holding the file's values (one value
// repeated over the batch's rows). The reader's schema is that of the
// first file read plus the partition columns; every other file must have
// the same column names, in the same order, of the same types (nullability
// and metadata aside), or the reader fails when it reaches it with an
// error wrapping ErrSchema that names the file and the first difference.
// Format returns the format of the first file read.
//
// Files are opened and decoded by WithWorkers(n) goroutines, each reading
// one file ahead of the one handed out, in order; a Parquet file is
// decoded with n/f workers of its own, f being min(n, the number of
// files), so that one large file is read in parallel too. The IPC or
// Parquet file after those being decoded is opened (its footer and
// schema read) while they are, so that with one worker too the opening
// of a file overlaps the decoding of the one before; a goroutine leaves
// the last batch of its file waiting to be handed out and takes the next
// file, so that decoding goes on over the files' boundaries as it does
// over a file's row groups. Memory is bounded by what is in flight: the
// batch lent, two decoded batches per goroutine (2n: one waiting to be
// handed out, one being decoded), what each file's own reader decodes
// ahead (for Parquet, one row group per worker of its own), and the
// footer of the file opened ahead.
//
// Options are Open's, read for every file (WithFormat only as given to
// NewDataset), and:
//
//   - WithColumns names file and partition columns alike, in the order
//     given; a name of neither fails with an error wrapping ErrMismatch;
//   - WithOffset and WithLimit count rows over the dataset: files whose
//     rows all fall before the offset are skipped by the row counts of
//     their footers (IPC files and Parquet; other formats are read to
//     count them), and no file after the last row asked is opened;
//   - WithMmap maps IPC and .npy files, whose batches then live until the
//     reader is closed, the mappings of every file read staying until
//     then.
//
// A file's column named as a partition fails Open with an error wrapping
// ErrMismatch. Errors name the file; they are Open's.
func (d *Dataset) Open(opts ...Option) (*Reader, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	c.store = cmp.Or(c.store, d.cfg.store) // WithStore given to NewDataset serves every call
	first, skipped, last, err := d.span(c)
	if err != nil {
		return nil, err
	}
	s := &scan{d: d, c: c, files: make([]int, 0, last-first)}
	for j := first; j < last; j++ {
		s.files = append(s.files, j)
	}
	fr, err := Open(d.files[first], s.fileOptions()...)
	if err != nil {
		return nil, err
	}
	if err := s.plan(fr.Schema()); err != nil {
		fr.Close()
		return nil, err
	}
	s.start(fr)
	r := &Reader{format: d.format[first], schema: s.out, next: s.next, close: s.close}
	if c.offset > skipped || c.limit >= 0 {
		lo, hi := c.offset-skipped, int64(-1)
		if c.limit >= 0 {
			if hi = lo + c.limit; hi < lo {
				hi = -1
			}
		}
		r.selectRows(lo, hi)
	}
	r.start()
	return r, nil
}

// span returns the files [first, last) that WithOffset and WithLimit
// need and the rows of the files skipped before first. first < last.
func (d *Dataset) span(c *config) (first int, skipped int64, last int, err error) {
	last = len(d.files)
	var counts []int64
	for first < len(d.files) && c.offset > 0 {
		n, known, err := fileRows(d.files[first], d.format[first], c)
		if err != nil {
			return 0, 0, 0, err
		}
		if !known || skipped+n > c.offset {
			break
		}
		counts = append(counts, n)
		skipped += n
		first++
	}
	if first == len(d.files) { // past the end: read the last file for the schema
		first--
		skipped -= counts[first]
	}
	if c.limit < 0 {
		return first, skipped, last, nil
	}
	pos, hi := skipped, c.offset+c.limit
	for k := first; k < len(d.files) && hi >= c.offset; k++ {
		if pos >= hi {
			return first, skipped, max(k, first+1), nil
		}
		n, known, err := fileRows(d.files[k], d.format[k], c)
		if err != nil || !known {
			return first, skipped, last, err
		}
		pos += n
	}
	return first, skipped, last, nil
}

// scan is the state of a dataset reader.
type scan struct {
	d     *Dataset
	c     *config
	files []int // indexes of the files read, in order

	fileSchema *arrow.Schema // the first file's
	out        *arrow.Schema
	pick       []int // per column of out: its file column, or -1-k for partition k

	order chan *fileOut
	done  chan struct{}
	sem   chan struct{}
	stop  sync.Once
	cur   *fileOut
	kept  []*Reader // mapped readers, closed with the scan

	workers int // of each file's Take (Dataset.Take)
}

// fileOut is what the goroutine of one file hands over: its batches, in
// order (one may wait in the channel while the next is decoded), then its
// error and reader once batches is closed.
type fileOut struct {
	batches chan arrow.RecordBatch
	err     error
	r       *Reader
}

// fileOptions returns the options each file is opened with.
func (s *scan) fileOptions() []Option {
	c := s.c
	n := len(s.files)
	workers := max(1, c.workers/min(c.workers, max(n, 1)))
	opts := []Option{WithAllocator(c.mem), WithWorkers(workers), WithBatchRows(c.batchRows)}
	if f := s.d.cfg.format; f != "" {
		opts = append(opts, WithFormat(f))
	}
	if c.mapped {
		opts = append(opts, WithMmap())
	}
	if c.copyAll {
		opts = append(opts, WithoutZeroCopy())
	}
	if c.single {
		opts = append(opts, WithSingleTensor())
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

// plan sets the output schema from the first file's schema, the
// partitions and WithColumns.
func (s *scan) plan(fs *arrow.Schema) error {
	s.fileSchema = fs
	for _, p := range s.d.parts {
		if fs.HasField(p.name) {
			return mismatch("%s: column %q is also a partition of the dataset", s.d.files[s.files[0]], p.name)
		}
	}
	var fields []arrow.Field
	add := func(name string) bool {
		if i := fs.FieldIndices(name); len(i) > 0 {
			s.pick, fields = append(s.pick, i[0]), append(fields, fs.Field(i[0]))
			return true
		}
		for k, p := range s.d.parts {
			if p.name == name {
				s.pick = append(s.pick, -1-k)
				fields = append(fields, arrow.Field{Name: p.name, Type: p.typ, Nullable: true})
				return true
			}
		}
		return false
	}
	names := s.c.columns
	if len(names) == 0 {
		for _, f := range fs.Fields() {
			names = append(names, f.Name)
		}
		for _, p := range s.d.parts {
			names = append(names, p.name)
		}
	}
	for _, n := range names {
		if !add(n) {
			cols := columnNames(fs)
			for _, p := range s.d.parts {
				cols += ", " + p.name
			}
			return mismatch("dataset: no column %q (columns: %s)", n, cols)
		}
	}
	md := fs.Metadata()
	s.out = arrow.NewSchema(fields, &md)
	return nil
}

// start launches the goroutine that hands the files to at most
// c.workers goroutines at once, in order; first is the open reader of
// the first file. The goroutine opens the next IPC or Parquet file
// (their footers, no batch: see opensAhead) while it waits for a
// goroutine to free up, so that the opening overlaps the decoding of
// the files before it.
func (s *scan) start(first *Reader) {
	w := s.c.workers
	s.order = make(chan *fileOut, w+1)
	s.done = make(chan struct{})
	s.sem = make(chan struct{}, w)
	opts := s.fileOptions()
	go func() {
		defer close(s.order)
		for k, j := range s.files {
			r, err := first, error(nil)
			if k > 0 {
				r = nil
				if s.opensAhead(j) {
					r, err = Open(s.d.files[j], opts...)
				}
			}
			stopped := func() {
				if r != nil {
					r.Close()
				}
			}
			select {
			case s.sem <- struct{}{}:
			case <-s.done:
				stopped()
				return
			}
			out := &fileOut{batches: make(chan arrow.RecordBatch, 1), err: err}
			select {
			case s.order <- out:
			case <-s.done:
				<-s.sem
				stopped()
				return
			}
			go s.produce(j, out, r, opts)
		}
	}()
}

// opensAhead reports whether file j is opened before a goroutine is free
// to read it: IPC files and Parquet files, whose opening reads their
// footer and schema only (a Parquet reader decodes from its first Next
// on). Files of other formats are read whole when opened, and are opened
// by the goroutine that reads them.
func (s *scan) opensAhead(j int) bool {
	f := s.d.format[j]
	return f == IPCFile || f == Parquet
}

// produce reads file j (from r, or else opening it, unless out holds the
// error of opening it) and hands its batches over, in order.
func (s *scan) produce(j int, out *fileOut, r *Reader, opts []Option) {
	defer func() { <-s.sem }()
	defer close(out.batches)
	if out.err != nil {
		return
	}
	if r == nil {
		var err error
		if r, err = Open(s.d.files[j], opts...); err != nil {
			out.err = err
			return
		}
	}
	out.r = r
	if err := schemaDiff(s.d.files[s.files[0]], s.fileSchema, s.d.files[j], r.Schema()); err != nil {
		out.err = err
		return
	}
	for r.Next() {
		rec, err := s.convert(j, r.RecordBatch())
		if err != nil {
			out.err = err
			return
		}
		select {
		case out.batches <- rec:
		case <-s.done:
			rec.Release()
			return
		}
	}
	out.err = r.Err()
}

// next returns the next batch of the files, in order.
func (s *scan) next() (arrow.RecordBatch, error) {
	for {
		if s.cur == nil {
			var ok bool
			if s.cur, ok = <-s.order; !ok {
				return nil, nil
			}
		}
		if rec, ok := <-s.cur.batches; ok {
			return rec, nil
		}
		err := s.finish(s.cur)
		s.cur = nil
		if err != nil {
			return nil, err
		}
	}
}

// finish ends a file whose batches were all handed over: its reader is
// closed, or kept until the scan closes when mapped.
func (s *scan) finish(out *fileOut) error {
	if out.r != nil {
		if s.c.mapped {
			s.kept = append(s.kept, out.r)
		} else if err := out.r.Close(); out.err == nil {
			out.err = err
		}
	}
	return out.err
}

// close stops the goroutines and releases what they decoded.
func (s *scan) close() error {
	s.stop.Do(func() { close(s.done) })
	if s.cur != nil {
		for rec := range s.cur.batches {
			rec.Release()
		}
		s.finish(s.cur)
		s.cur = nil
	}
	for out := range s.order {
		for rec := range out.batches {
			rec.Release()
		}
		s.finish(out)
	}
	for _, r := range s.kept {
		r.Close()
	}
	s.kept = nil
	return nil
}

// convert returns the batch of the output schema made of rec, a batch of
// file j: its columns picked, the partition values added.
func (s *scan) convert(j int, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, len(s.pick))
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for k, i := range s.pick {
		if i >= 0 {
			cols[k] = rec.Column(i)
			cols[k].Retain()
			continue
		}
		a, err := partitionArray(s.c.mem, s.d.parts[-1-i], j, int(rec.NumRows()))
		if err != nil {
			return nil, err
		}
		cols[k] = a
	}
	return array.NewRecordBatch(s.out, cols, rec.NumRows()), nil
}

// partitionArray returns a column of n rows of file j's value of p.
func partitionArray(mem memory.Allocator, p *partColumn, j, n int) (a arrow.Array, err error) {
	defer func() {
		if r := recover(); r != nil { // an allocation that failed
			a, err = nil, &Error{errs.Panic("tensorio", "partition column "+p.name, r)}
		}
	}()
	if !p.valid(j) {
		return array.MakeArrayOfNull(mem, p.typ, n), nil
	}
	switch p.typ.ID() {
	case arrow.INT64:
		b := array.NewInt64Builder(mem)
		defer b.Release()
		b.Reserve(n)
		v := p.int(j)
		for range n {
			b.UnsafeAppend(v)
		}
		return b.NewArray(), nil
	default:
		b := array.NewStringBuilder(mem)
		defer b.Release()
		v := p.values[j].text
		b.Reserve(n)
		b.ReserveData(n * len(v))
		for range n {
			b.Append(v)
		}
		return b.NewArray(), nil
	}
}

// schemaDiff returns nil when got, the schema of the file path, has the
// columns of want, that of the dataset's first file firstPath, or else
// an error wrapping ErrSchema that names path and the first difference.
func schemaDiff(firstPath string, want *arrow.Schema, path string, got *arrow.Schema) error {
	if why := columnsDiff(want, got); why != "" {
		return &Error{errs.Kind(ErrSchema, "tensorio", "%s %s, unlike %s, the dataset's first file", path, why, firstPath)}
	}
	return nil
}

// columnsDiff returns "" when got has the columns of want (names and
// types, in order), or else the first difference, as "has column ...",
// "lacks column ...".
func columnsDiff(want, got *arrow.Schema) string {
	for i, f := range want.Fields() {
		k := got.FieldIndices(f.Name)
		switch {
		case len(k) == 0:
			return fmt.Sprintf("lacks column %q (%v)", f.Name, f.Type)
		case !arrow.TypeEqual(f.Type, got.Field(k[0]).Type):
			return fmt.Sprintf("has column %q of type %v, not %v", f.Name, got.Field(k[0]).Type, f.Type)
		case k[0] != i:
			return fmt.Sprintf("has column %q at position %d, not %d", f.Name, k[0], i)
		}
	}
	if got.NumFields() == want.NumFields() {
		return ""
	}
	var extra []string
	for _, f := range got.Fields() {
		if !want.HasField(f.Name) {
			extra = append(extra, fmt.Sprintf("%q", f.Name))
		}
	}
	return "has column " + strings.Join(extra, ", ") + " too"
}
