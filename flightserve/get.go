package flightserve

import (
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
	"github.com/fstensor/fstensor/varshape"
)

// query is an opened ticket: the reader of its file and its plans.
type query struct {
	rel    string
	format tensorio.Format
	size   int64
	mtime  time.Time
	r      array.RecordReader // the file's batches, or the rows a ticket takes
	progs  []*expr.Program    // per column; nil passes the column
	added  *expr.Program      // the result of an expression naming columns, a last column
	schema *arrow.Schema
	mem    memory.Allocator
	refs   atomic.Int64  // open's caller's, and one per batchRefs of DoGet
	opened *atomic.Int64 // Server.queries
}

// retain adds a reference to q.
func (q *query) retain() { q.refs.Add(1) }

// close drops a reference; the last closes q's reader, which unmaps a
// mapped file. The caller of open drops its own; batches DoGet handed to
// gRPC hold q (batchRefs) until gRPC frees them, which may be after the
// handler returned.
func (q *query) close() {
	if q.refs.Add(-1) == 0 {
		q.r.Release()
		q.opened.Add(-1)
	}
}

// open resolves t's path, opens the file with t's columns and rows, and
// compiles t's expression for each tensor column.
func (s *Server) open(t Ticket) (*query, error) {
	if dir, err := s.isDir(t.Path); err == nil && dir {
		return nil, dirTicketError(t.Path)
	}
	file, f, fi, err := s.openRel(t.Path)
	if err != nil {
		return nil, err
	}
	opts := []tensorio.Option{tensorio.WithAllocator(s.mem)}
	if len(t.Columns) > 0 {
		opts = append(opts, tensorio.WithColumns(t.Columns...))
	}
	var r array.RecordReader
	if len(t.Rows) > 0 {
		r, err = takeRows(file, t, opts)
	} else {
		if f == tensorio.IPCFile && !s.noMmap {
			opts = append(opts, tensorio.WithLeasedMmap())
		}
		if t.Offset > 0 {
			opts = append(opts, tensorio.WithOffset(t.Offset))
		}
		if t.Limit > 0 {
			opts = append(opts, tensorio.WithLimit(t.Limit))
		}
		r, err = tensorio.OpenFile(file, t.Path, opts...)
		if tr, ok := r.(*tensorio.Reader); ok && err == nil && f == tensorio.IPCFile && !s.noMmap && !tr.Mapped() {
			s.logs.unmapped(t.Path)
		}
	}
	if err != nil {
		return nil, s.statusError(codes.InvalidArgument, "flightserve: %v", err)
	}
	q := &query{rel: t.Path, format: f, size: fi.Size(), mtime: fi.ModTime(), r: r, schema: r.Schema(), mem: s.mem, opened: &s.queries}
	if t.Expr != "" {
		if err := q.compile(t.Expr, expr.WithAllocator(s.mem), expr.WithLoad(s.loadConst)); err != nil {
			r.Release()
			return nil, s.statusError(exprCode(err), "flightserve: %s: %v", t.Path, err)
		}
	}
	q.refs.Store(1)
	s.queries.Add(1)
	return q, nil
}

// takeRows takes the rows t asks of file (tensorio.TakeFile, which
// closes it) as a reader of one batch.
func takeRows(file *os.File, t Ticket, opts []tensorio.Option) (array.RecordReader, error) {
	rec, err := tensorio.TakeFile(file, t.Path, t.Rows, opts...)
	if err != nil {
		return nil, err
	}
	defer rec.Release()
	return array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
}

// maxLoadBytes bounds the data of one constant an expression loads.
const maxLoadBytes = 256 << 20

// loadConst reads the constant of load(name) in a ticket's expression:
// the .npy file name relative to the served directory, opened through
// its os.Root as every file is (the same paths are refused), of at most
// maxLoadBytes of data.
func (s *Server) loadConst(name string) (expr.Const, error) {
	if err := checkRelForm(name); err != nil {
		return expr.Const{}, err
	}
	f, err := s.dir.Open(filepath.FromSlash(name))
	if err != nil {
		return expr.Const{}, openError(name, err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return expr.Const{}, statusf(codes.NotFound, "flightserve: load %q: not a regular file", clipString(name))
	}
	return npy.ReadConst(f, npy.WithAllocator(s.mem), npy.WithMaxDataSize(maxLoadBytes))
}

// compile compiles text for q's schema: an expression reading x replaces
// each tensor column by its result (x standing for that column); one
// that names its columns adds its result as a last column, "result".
func (q *query) compile(text string, base ...expr.Option) error {
	in := q.schema
	fields := in.Fields()
	var tensors []int
	for i, fd := range fields {
		if isTensor(fd.Type) {
			tensors = append(tensors, i)
		}
	}
	opts := base
	if len(tensors) > 0 {
		opts = append(opts, expr.WithInput(fields[tensors[0]].Name))
	}
	p, err := expr.Compile(text, in, opts...)
	if err != nil {
		return err
	}
	q.progs = make([]*expr.Program, len(fields))
	if !p.UsesX() {
		q.added = p
		fields = append(fields, p.Schema().Field(0))
	} else {
		for _, i := range tensors {
			if i != tensors[0] {
				p, err = expr.Compile(text, in, append(base, expr.WithInput(fields[i].Name))...)
				if err != nil {
					return fmt.Errorf("column %q: %w", clipString(fields[i].Name), err)
				}
			}
			q.progs[i] = p
			fields[i].Type = p.Schema().Field(0).Type
		}
	}
	md := in.Metadata()
	q.schema = arrow.NewSchema(fields, &md)
	return nil
}

// isTensor reports whether dt is a fixed- or variable-shape tensor type.
func isTensor(dt arrow.DataType) bool {
	if _, ok := fixedshape.TypeOf(dt); ok {
		return true
	}
	_, ok := varshape.TypeOf(dt)
	return ok
}

// DoGet streams the batches a ticket names, cut to about BatchBytes each,
// with the ticket's expression evaluated on the server. Batches are read,
// evaluated and sent one at a time; a client that goes away ends the
// call at the next batch.
func (s *Server) DoGet(tkt *flight.Ticket, stream flight.FlightService_DoGetServer) error {
	t, err := ParseTicket(tkt.GetTicket())
	if err != nil {
		return err
	}
	q, err := s.open(t)
	if err != nil {
		return err
	}
	defer q.close()
	fw := &frameWriter{stream: stream, q: q}
	w := ipc.NewWriterWithPayloadWriter(fw, ipc.WithSchema(q.schema), ipc.WithAllocator(s.mem))
	defer w.Close()
	ctx := stream.Context()
	rows := batchRows(q.r.Schema(), s.batch)
	for q.r.Next() {
		rec := q.r.RecordBatch()
		for lo := int64(0); lo < rec.NumRows(); lo += rows {
			if err := ctx.Err(); err != nil {
				return status.FromContextError(err).Err()
			}
			part := rec.NewSlice(lo, min(lo+rows, rec.NumRows()))
			out, err := q.eval(part)
			part.Release()
			if err != nil {
				return s.statusError(codes.InvalidArgument, "flightserve: %s: %v", t.Path, err)
			}
			fw.setBatch(out)
			err = w.Write(out)
			fw.setBatch(nil)
			out.Release()
			if err != nil {
				return err
			}
		}
	}
	if err := q.r.Err(); err != nil {
		return s.statusError(codes.InvalidArgument, "flightserve: %v", err)
	}
	return w.Close()
}

// eval applies q's programs to rec; it returns a new reference.
func (q *query) eval(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if q.progs == nil {
		rec.Retain()
		return rec, nil
	}
	cols := make([]arrow.Array, 0, q.schema.NumFields())
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i, c := range rec.Columns() {
		if q.progs[i] == nil {
			c.Retain()
			cols = append(cols, c)
			continue
		}
		// Eval rather than EvalColumn: an expression of x may read other
		// columns of the batch too.
		out, err := q.progs[i].Eval(rec)
		if err != nil {
			return nil, err
		}
		c := out.Column(0)
		c.Retain()
		out.Release()
		cols = append(cols, c)
	}
	if q.added != nil {
		out, err := q.added.Eval(rec)
		if err != nil {
			return nil, err
		}
		c := out.Column(0)
		c.Retain()
		out.Release()
		cols = append(cols, c)
	}
	return array.NewRecordBatch(q.schema, cols, rec.NumRows()), nil
}

// batchRows returns how many rows of schema make about n bytes, at
// least 1. Columns of variable width count 64 bytes a row.
func batchRows(schema *arrow.Schema, n int) int64 {
	var row int64
	for _, f := range schema.Fields() {
		row += fixedWidth(f.Type)
	}
	return max(int64(n)/max(row, 1), 1)
}

// fixedWidth returns the bytes of one value of t, or 64 for types of
// variable width, capped at 1<<40.
func fixedWidth(t arrow.DataType) int64 {
	switch t := t.(type) {
	case arrow.ExtensionType:
		return fixedWidth(t.StorageType())
	case *arrow.FixedSizeListType:
		w := fixedWidth(t.Elem())
		if int64(t.Len()) > (1<<40)/w {
			return 1 << 40
		}
		return int64(t.Len()) * w
	case arrow.FixedWidthDataType:
		return int64(max(t.BitWidth()/8, 1))
	}
	return 64
}
