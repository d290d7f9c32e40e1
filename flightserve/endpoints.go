package flightserve

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"

	"github.com/fstensor/fstensor/tensorio"
)

// rowRanges caches the parts of a file (tensorio.Split at the server's
// endpoint size), valid for its size and modification time.
type rowRanges struct {
	size   int64
	mtime  time.Time
	ranges []tensorio.RowRange
}

// rows returns the rows of all of rs.
func rows(rs []tensorio.RowRange) int64 {
	var n int64
	for _, r := range rs {
		n += r.Rows
	}
	return n
}

// info returns the FlightInfo of a ticket: of its file, or of every file
// of its directory.
func (s *Server) info(t Ticket) (*flight.FlightInfo, error) {
	dir, err := s.isDir(t.Path)
	if err != nil {
		return nil, err
	}
	if dir {
		return s.dirInfo(t)
	}
	schema, eps, rows, size, err := s.fileParts(t)
	if err != nil {
		return nil, err
	}
	return &flight.FlightInfo{
		Schema:           flight.SerializeSchema(schema, s.mem),
		FlightDescriptor: t.descriptor(),
		Endpoint:         eps,
		TotalRecords:     rows,
		TotalBytes:       size,
	}, nil
}

// isDir tells whether rel names a directory under the served one ("."
// is the served directory itself). A path with the extension of a
// served file is never taken for a directory.
func (s *Server) isDir(rel string) (bool, error) {
	if rel == "." {
		return true, nil
	}
	if f, err := tensorio.FormatOf(rel); err == nil && servedFormat(f) {
		return false, nil
	}
	if err := checkRelForm(rel); err != nil {
		return false, err
	}
	fi, err := s.dir.Stat(filepath.FromSlash(rel))
	if err != nil {
		return false, nil // opening it as a file reports why
	}
	return fi.IsDir(), nil
}

// fileParts opens t's file for the schema of t's result and returns it
// with the endpoints of the file's parts (one when t takes a range of
// rows itself), their rows and the file's size.
func (s *Server) fileParts(t Ticket) (*arrow.Schema, []*flight.FlightEndpoint, int64, int64, error) {
	q, err := s.open(t)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	defer q.close()
	if len(t.Rows) > 0 {
		n := int64(len(t.Rows))
		return q.schema, []*flight.FlightEndpoint{endpoint(t, n, -1)}, n, q.size, nil
	}
	ranges, err := s.ranges(q)
	if err != nil {
		return nil, nil, 0, 0, err
	}
	total := rows(ranges)
	if t.Offset > 0 || t.Limit > 0 || len(ranges) <= 1 {
		n := max(total-t.Offset, 0)
		if t.Limit > 0 {
			n = min(n, t.Limit)
		}
		return q.schema, []*flight.FlightEndpoint{endpoint(t, n, q.size)}, n, q.size, nil
	}
	eps := make([]*flight.FlightEndpoint, len(ranges))
	for i, r := range ranges {
		part := t
		part.Offset, part.Limit = r.Offset, r.Rows
		eps[i] = endpoint(part, r.Rows, r.Bytes)
	}
	return q.schema, eps, total, q.size, nil
}

// endpoint returns the endpoint of ticket t, of rows rows taking about
// bytes bytes.
func endpoint(t Ticket, rows, bytes int64) *flight.FlightEndpoint {
	md, _ := json.Marshal(struct {
		Rows  int64 `json:"rows"`
		Bytes int64 `json:"bytes"`
	}{rows, bytes})
	return &flight.FlightEndpoint{Ticket: &flight.Ticket{Ticket: t.Marshal()}, AppMetadata: md}
}

// dirInfo returns the FlightInfo of the files beneath t's directory, each
// read as t says (columns, rows, expression).
func (s *Server) dirInfo(t Ticket) (*flight.FlightInfo, error) {
	var files []string
	err := fs.WalkDir(s.dir.FS(), t.Path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != t.Path && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if f, err := tensorio.FormatOf(p); d.Type().IsRegular() && err == nil && servedFormat(f) {
			if len(files) == MaxDirFiles {
				return errTooManyFiles
			}
			files = append(files, p)
		}
		return nil
	})
	switch {
	case errors.Is(err, errTooManyFiles):
		return nil, statusf(codes.InvalidArgument, "flightserve: directory %q holds more than %d IPC and Parquet files", clipString(t.Path), MaxDirFiles)
	case err != nil:
		return nil, s.statusError(codes.NotFound, "flightserve: directory %q: %v", clipString(t.Path), err)
	case len(files) == 0:
		return nil, statusf(codes.NotFound, "flightserve: directory %q holds no IPC or Parquet file", clipString(t.Path))
	}
	info := &flight.FlightInfo{FlightDescriptor: t.descriptor()}
	var first *arrow.Schema
	for _, p := range files {
		ft := t
		ft.Path = p
		schema, eps, rows, size, err := s.fileParts(ft)
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = schema
			info.Schema = flight.SerializeSchema(schema, s.mem)
		} else if !schema.Equal(first) {
			return nil, statusf(codes.InvalidArgument, "flightserve: directory %q: the schema of %q differs from that of %q: %s", clipString(t.Path), clipString(p), clipString(files[0]), clipString(schemaDiff(first, schema)))
		}
		info.Endpoint = append(info.Endpoint, eps...)
		info.TotalRecords += rows
		info.TotalBytes += size
	}
	return info, nil
}

var errTooManyFiles = errors.New("too many files")

// schemaDiff says how schema b differs from a: the first field missing,
// added or of another type.
func schemaDiff(a, b *arrow.Schema) string {
	for i, f := range a.Fields() {
		if i >= b.NumFields() {
			return "no column " + f.Name
		}
		g := b.Field(i)
		if g.Name != f.Name {
			return "column " + g.Name + " where " + f.Name + " was"
		}
		if !arrow.TypeEqual(f.Type, g.Type) {
			return "column " + f.Name + " of type " + g.Type.String() + ", not " + f.Type.String()
		}
	}
	if b.NumFields() > a.NumFields() {
		return "an extra column " + b.Field(a.NumFields()).Name
	}
	return "other field attributes or metadata"
}

// ranges returns the parts of q's whole file, cached for its size and
// modification time.
func (s *Server) ranges(q *query) ([]tensorio.RowRange, error) {
	s.rowMu.Lock()
	c, ok := s.rowCache[q.rel]
	s.rowMu.Unlock()
	if ok && c.size == q.size && c.mtime.Equal(q.mtime) {
		return c.ranges, nil
	}
	f, _, fi, err := s.openRel(q.rel)
	if err != nil {
		return nil, err
	}
	target := s.parts
	if target < 0 {
		target = math.MaxInt64 // one endpoint a file
	}
	ranges, err := tensorio.Split(f, q.rel, target, tensorio.WithAllocator(s.mem))
	if err != nil {
		return nil, s.statusError(codes.InvalidArgument, "flightserve: %v", err)
	}
	s.rowMu.Lock()
	if len(s.rowCache) > 4096 {
		clear(s.rowCache)
	}
	s.rowCache[q.rel] = rowRanges{size: fi.Size(), mtime: fi.ModTime(), ranges: ranges}
	s.rowMu.Unlock()
	return ranges, nil
}

// dirTicketError is the error of a DoGet of a directory.
func dirTicketError(rel string) error {
	return statusf(codes.InvalidArgument, "flightserve: %q is a directory: GetFlightInfo of it returns the endpoints of its files", clipString(path.Clean(rel)))
}
