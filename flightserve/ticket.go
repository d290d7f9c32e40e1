package flightserve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/tensorio"
)

// maxTicketBytes bounds the JSON of a ticket or command descriptor.
const maxTicketBytes = 64 << 10

// Ticket names what a DoGet returns: a file under the served directory,
// and optionally some of its columns, a range of rows and an expression
// evaluated on the server. Its wire form is JSON, the bytes of a Flight
// Ticket (or of a command descriptor for GetFlightInfo and GetSchema):
//
//	{"path":"images/train.arrow","columns":["image"],"offset":8,"limit":16,"expr":"x[:, ::2].T"}
//
// Every field but Path may be left out.
type Ticket struct {
	// Path is the file, relative to the served directory, with "/" as
	// separator. "..", ".", empty elements, absolute paths and symbolic
	// links leading out of the directory are refused.
	Path string `json:"path"`
	// Columns keeps these columns, in this order; empty keeps all.
	Columns []string `json:"columns,omitempty"`
	// Offset skips the first Offset rows, counted over all batches.
	Offset int64 `json:"offset,omitempty"`
	// Limit, when positive, stops after Limit rows.
	Limit int64 `json:"limit,omitempty"`
	// Expr, when not empty, is an expression of package expr in x (such as
	// "x[:, ::2].T") applied to every tensor column kept; other columns
	// pass unchanged.
	Expr string `json:"expr,omitempty"`
}

// Marshal returns the ticket's JSON.
func (t Ticket) Marshal() []byte {
	b, _ := json.Marshal(t) // strings, slices of strings and integers only
	return b
}

// ParseTicket decodes the JSON of a ticket. Unknown keys, trailing data,
// a ticket over 64 KiB, a missing path and negative offsets or limits are
// errors with code InvalidArgument.
func ParseTicket(b []byte) (Ticket, error) {
	var t Ticket
	if len(b) > maxTicketBytes {
		return t, status.Errorf(codes.InvalidArgument, "flightserve: ticket of %d bytes exceeds %d", len(b), maxTicketBytes)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil {
		return t, status.Errorf(codes.InvalidArgument, "flightserve: ticket %q is not a JSON ticket: %v", clip(b), err)
	}
	if _, err := d.Token(); err != io.EOF {
		return t, status.Errorf(codes.InvalidArgument, "flightserve: ticket %q has data after its JSON object", clip(b))
	}
	if t.Path == "" {
		return t, status.Errorf(codes.InvalidArgument, "flightserve: ticket %q names no path", clip(b))
	}
	if t.Offset < 0 || t.Limit < 0 {
		return t, status.Errorf(codes.InvalidArgument, "flightserve: ticket offset %d and limit %d must not be negative", t.Offset, t.Limit)
	}
	return t, nil
}

// clip shortens b for an error message.
func clip(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

// servedFormat reports whether files of format f are served.
func servedFormat(f tensorio.Format) bool {
	return f == tensorio.IPCFile || f == tensorio.IPCStream || f == tensorio.Parquet
}

// checkRel checks the form of a relative path of a ticket or descriptor
// and returns its format.
func checkRel(rel string) (tensorio.Format, error) {
	if rel == "" || strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return "", status.Errorf(codes.InvalidArgument, "flightserve: path %q is not a relative path with / separators", rel)
	}
	for _, el := range strings.Split(rel, "/") {
		if el == "" || el == "." || el == ".." {
			return "", status.Errorf(codes.PermissionDenied, "flightserve: path %q: element %q is refused", rel, el)
		}
	}
	f, err := tensorio.FormatOf(rel)
	if err != nil || !servedFormat(f) {
		return "", status.Errorf(codes.InvalidArgument, "flightserve: path %q is not an Arrow IPC or Parquet file (.arrow, .feather, .ipc, .arrows, .stream, .parquet)", rel)
	}
	return f, nil
}

// within reports whether the cleaned absolute path p is root or under it.
func within(root, p string) bool {
	prefix := root
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	return p == root || strings.HasPrefix(p, prefix)
}

// resolve returns the path of an existing regular file rel under the
// served directory, refusing paths and symbolic links that leave it.
func (s *Server) resolve(rel string) (string, tensorio.Format, error) {
	f, err := checkRel(rel)
	if err != nil {
		return "", "", err
	}
	p := filepath.Join(s.root, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		if os.IsNotExist(err) {
			return "", "", status.Errorf(codes.NotFound, "flightserve: path %q does not exist", rel)
		}
		return "", "", status.Errorf(codes.NotFound, "flightserve: path %q cannot be resolved", rel)
	}
	if !within(s.root, real) {
		return "", "", status.Errorf(codes.PermissionDenied, "flightserve: path %q leads out of the served directory", rel)
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return "", "", status.Errorf(codes.NotFound, "flightserve: path %q is not a regular file", rel)
	}
	return real, f, nil
}

// resolveNew returns the path where DoPut writes the new file rel: its
// directory must exist under the served directory, the file must not.
func (s *Server) resolveNew(rel string) (string, error) {
	if _, err := checkRel(rel); err != nil {
		return "", err
	}
	p := filepath.Join(s.root, filepath.FromSlash(rel))
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", status.Errorf(codes.NotFound, "flightserve: directory of %q does not exist", rel)
	}
	if !within(s.root, dir) {
		return "", status.Errorf(codes.PermissionDenied, "flightserve: path %q leads out of the served directory", rel)
	}
	p = filepath.Join(dir, filepath.Base(p))
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		return "", status.Errorf(codes.AlreadyExists, "flightserve: %q exists; DoPut writes new files only", rel)
	}
	return p, nil
}

// errorStatus gives err a gRPC code: its own, or InvalidArgument.
func errorStatus(err error) error {
	if _, ok := status.FromError(err); ok {
		return err
	}
	return status.Error(codes.InvalidArgument, fmt.Sprint(err))
}
