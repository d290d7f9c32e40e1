package flightserve

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/arrowconv"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/tensorio"
)

// PutResult is the JSON of the one PutResult that a successful DoPut
// sends as its app metadata.
type PutResult struct {
	Path string `json:"path"` // as the descriptor named it
	Rows int64  `json:"rows"`
}

// DoPut writes the uploaded stream as a new file at the path of its PATH
// descriptor, in the format of its extension. The file must not exist and
// its directory must exist under the served directory. Every message is
// checked (arrowipc.NewIPCMessageReader) before arrow-go decodes it, and
// each batch is written as it arrives through tensorio.CreateIn, inside
// the served directory's os.Root: the file appears only when the whole
// stream was written, and nothing is left on an error or a client gone
// away. An upload is bounded by Config.MaxUploadBytes, in bytes received
// and in decoded bytes written, and by the free space of the disk
// (ResourceExhausted).
func (s *Server) DoPut(stream flight.FlightService_DoPutServer) error {
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	d := first.GetFlightDescriptor()
	if d == nil || d.Type != flight.DescriptorPATH {
		return statusf(codes.InvalidArgument, "flightserve: DoPut needs a PATH descriptor naming the new file")
	}
	rel := strings.Join(d.Path, "/")
	if err := s.checkNew(rel); err != nil {
		return err
	}
	if !s.claim(rel) {
		return statusf(codes.AlreadyExists, "flightserve: %q is being written by another call", clipString(rel))
	}
	defer s.unclaim(rel)
	up := &upload{s: s, rel: rel}
	if err := up.checkFree(); err != nil {
		return err
	}

	pending := first
	next := func() ([]byte, []byte, error) {
		for {
			fd := pending
			pending = nil
			if fd == nil {
				var err error
				if fd, err = stream.Recv(); err != nil {
					return nil, nil, err
				}
			}
			if err := up.receive(len(fd.DataHeader) + len(fd.DataBody) + len(fd.AppMetadata)); err != nil {
				return nil, nil, err
			}
			if len(fd.DataHeader) > 0 {
				return fd.DataHeader, fd.DataBody, nil
			}
			if len(fd.DataBody) > 0 {
				return nil, nil, statusf(codes.InvalidArgument, "flightserve: a message body without metadata")
			}
		}
	}
	rr, err := arrowipc.NewIPCMessageReader(next, arrowipc.WithAllocator(s.mem), arrowipc.WithBodySizeLimit(int64(s.maxMsg)))
	if err != nil {
		return s.putError(rel, err)
	}
	defer rr.Release()
	w, err := tensorio.CreateIn(s.dir, filepath.FromSlash(rel), rr.Schema(), tensorio.WithAllocator(s.mem))
	if err != nil {
		return s.putError(rel, err)
	}
	defer w.Abort()
	var rows int64
	for rr.Next() {
		rec := rr.RecordBatch()
		if err := up.write(arrowconv.RecordBytes(rec)); err != nil {
			return err
		}
		if err := w.Write(rec); err != nil {
			return s.putError(rel, err)
		}
		rows += rec.NumRows()
	}
	if err := rr.Err(); err != nil {
		return s.putError(rel, err)
	}
	if err := stream.Context().Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	if err := w.Close(); err != nil {
		return s.putError(rel, err)
	}
	meta, _ := json.Marshal(PutResult{Path: rel, Rows: rows})
	return stream.Send(&flight.PutResult{AppMetadata: meta})
}

// putError gives an error of DoPut a code: that of a gRPC error it
// wraps, AlreadyExists for a file that appeared meanwhile, Canceled for
// a stream cut short, or InvalidArgument.
func (s *Server) putError(rel string, err error) error {
	rel = clipString(rel)
	var se interface{ GRPCStatus() *status.Status }
	switch {
	case errors.As(err, &se) && se.GRPCStatus().Code() != codes.Unknown:
		return s.statusError(se.GRPCStatus().Code(), "flightserve: %s: %v", rel, err)
	case errors.Is(err, fs.ErrExist):
		return s.statusError(codes.AlreadyExists, "flightserve: %q exists; DoPut writes new files only", rel)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return s.statusError(codes.Canceled, "flightserve: %s: stream ended early: %v", rel, err)
	}
	return s.statusError(codes.InvalidArgument, "flightserve: %s: %v", rel, err)
}

// claim marks path as written by a call; false if another call is.
func (s *Server) claim(path string) bool {
	s.putMu.Lock()
	defer s.putMu.Unlock()
	if s.putting[path] {
		return false
	}
	s.putting[path] = true
	return true
}

func (s *Server) unclaim(path string) {
	s.putMu.Lock()
	delete(s.putting, path)
	s.putMu.Unlock()
}
