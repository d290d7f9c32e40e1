package flightserve

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Bounds of what an error sent to a client echoes.
const (
	// maxEchoBytes bounds one value (a path, a column name, a ticket) in
	// an error message.
	maxEchoBytes = 200
	// maxMessageBytes bounds the whole message of a status: gRPC sends it
	// in a trailer, and trailers over the client's header list limit
	// (16 KiB by default) reach it as ResourceExhausted or a reset stream.
	maxMessageBytes = 1024
)

// clipString returns s cut to maxEchoBytes on a UTF-8 boundary, with
// "..." appended when cut.
func clipString(s string) string { return clipTo(s, maxEchoBytes) }

// clip returns b as a string cut as clipString cuts.
func clip(b []byte) string {
	if len(b) > maxEchoBytes {
		b = b[:maxEchoBytes+utf8.UTFMax]
	}
	return clipString(string(b))
}

// clipTo cuts s to at most n bytes and "...", on a UTF-8 boundary.
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// statusError returns a status error of code whose message is format
// and args, with the served directory's absolute path taken out (paths
// under it become relative to it) and cut to maxMessageBytes. Values
// that a client sent should be cut with clipString first, so that the
// message keeps its end.
func (s *Server) statusError(code codes.Code, format string, args ...any) error {
	return newStatus(code, clipTo(s.scrub(fmt.Sprintf(format, args...)), maxMessageBytes))
}

// scrub takes the absolute paths of the served directory out of msg:
// "DIR/a/b.arrow" becomes "a/b.arrow" and DIR alone ".". Errors of the
// operating system and of the readers name files by their absolute path.
func (s *Server) scrub(msg string) string {
	for _, dir := range s.dirNames {
		if !strings.Contains(msg, dir) {
			continue
		}
		msg = strings.ReplaceAll(msg, dir+string(filepath.Separator), "")
		msg = strings.ReplaceAll(msg, dir, ".")
	}
	return msg
}

// exprCode is the code of an expression a ticket carries that does not
// compile: Unimplemented for what the engine does not do (an error
// wrapping arrow.ErrNotImplemented, such as a bool result whose shape
// varies from row to row), InvalidArgument otherwise.
func exprCode(err error) codes.Code {
	if errors.Is(err, arrow.ErrNotImplemented) {
		return codes.Unimplemented
	}
	return codes.InvalidArgument
}

// statusf returns a status error of code whose message is format and
// args cut to maxMessageBytes, for messages that name no file of the
// server (values of a request, cut with clipString).
func statusf(code codes.Code, format string, args ...any) error {
	return newStatus(code, clipTo(fmt.Sprintf(format, args...), maxMessageBytes))
}

// newStatus returns the status error of code and msg; one of code
// InvalidArgument also wraps arrow.ErrInvalid, so that a Go caller of
// ParseTicket or of a Server's methods can test it with errors.Is.
func newStatus(code codes.Code, msg string) error {
	st := status.New(code, msg)
	if code == codes.InvalidArgument {
		return invalidError{st}
	}
	return st.Err()
}

// invalidError is a status error of code InvalidArgument that wraps
// arrow.ErrInvalid. gRPC sends its status (GRPCStatus).
type invalidError struct{ st *status.Status }

func (e invalidError) Error() string              { return e.st.Err().Error() }
func (e invalidError) GRPCStatus() *status.Status { return e.st }
func (e invalidError) Unwrap() error              { return arrow.ErrInvalid }
