package flightserve

import (
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
)

// query is an opened ticket: the reader of its file and its plans.
type query struct {
	rel    string
	format tensorio.Format
	size   int64
	mtime  time.Time
	r      *tensorio.Reader
	plans  []*expr.Plan // per column; nil passes the column
	schema *arrow.Schema
	mem    memory.Allocator
}

func (q *query) close() { q.r.Release() }

// open resolves t's path, opens the file with t's columns and rows, and
// compiles t's expression for each tensor column.
func (s *Server) open(t Ticket) (*query, error) {
	file, f, fi, err := s.openRel(t.Path)
	if err != nil {
		return nil, err
	}
	opts := []tensorio.Option{tensorio.WithAllocator(s.mem)}
	if f == tensorio.IPCFile {
		opts = append(opts, tensorio.WithMmap())
	}
	if len(t.Columns) > 0 {
		opts = append(opts, tensorio.WithColumns(t.Columns...))
	}
	if t.Offset > 0 {
		opts = append(opts, tensorio.WithOffset(t.Offset))
	}
	if t.Limit > 0 {
		opts = append(opts, tensorio.WithLimit(t.Limit))
	}
	r, err := tensorio.OpenFile(file, t.Path, opts...)
	if err != nil {
		return nil, s.statusError(codes.InvalidArgument, "flightserve: %v", err)
	}
	q := &query{rel: t.Path, format: f, size: fi.Size(), mtime: fi.ModTime(), r: r, schema: r.Schema(), mem: s.mem}
	if t.Expr == "" {
		return q, nil
	}
	fields := q.schema.Fields()
	q.plans = make([]*expr.Plan, len(fields))
	n := 0
	for i, fd := range fields {
		typ, ok := fixedshape.TypeOfField(fd)
		if !ok {
			continue
		}
		e, err := expr.Parse(t.Expr, expr.Input(typ))
		if err == nil {
			q.plans[i], err = expr.CompilePlan(e)
		}
		var out *fixedshape.Type
		if err == nil {
			out, err = q.plans[i].Type()
		}
		if err != nil {
			r.Release()
			return nil, s.statusError(codes.InvalidArgument, "flightserve: %s: column %q: %v", t.Path, clipString(fd.Name), err)
		}
		fields[i].Type = out
		n++
	}
	if n == 0 {
		r.Release()
		return nil, s.statusError(codes.InvalidArgument, "flightserve: %s: expression %q but no tensor column", t.Path, clipString(t.Expr))
	}
	md := q.schema.Metadata()
	q.schema = arrow.NewSchema(fields, &md)
	return q, nil
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
	w := flight.NewRecordWriter(stream, ipc.WithSchema(q.schema), ipc.WithAllocator(s.mem))
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
			err = w.Write(out)
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

// eval applies q's plans to rec; it returns a new reference.
func (q *query) eval(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if q.plans == nil {
		rec.Retain()
		return rec, nil
	}
	cols := make([]arrow.Array, rec.NumCols())
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
	}()
	for i, c := range rec.Columns() {
		if q.plans[i] == nil {
			c.Retain()
			cols[i] = c
			continue
		}
		in, ok := c.(*fixedshape.Array)
		if !ok {
			return nil, status.Errorf(codes.Internal, "flightserve: column %d is a %T", i, c)
		}
		out, err := q.plans[i].Eval(in, expr.WithAllocator(q.mem))
		if err != nil {
			return nil, err
		}
		cols[i] = out
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
