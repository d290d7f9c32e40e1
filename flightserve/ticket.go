package flightserve

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc/codes"
)

// maxTicketBytes bounds the JSON of a ticket or command descriptor.
const maxTicketBytes = 64 << 10

// Ticket names what a DoGet returns: a file under the served directory,
// and optionally some of its columns, a range of rows and an expression
// evaluated on the server. Its wire form is JSON, the bytes of a Flight
// Ticket (or of a command descriptor for GetFlightInfo and GetSchema):
//
//	{"path":"images/train.arrow","columns":["image"],"offset":8,"limit":16,"expr":"x[:, ::2].T"}
//	{"path":"emb.parquet","rows":[17,3,99]}
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
	// Rows, when not empty, takes these rows (numbers counted from 0 over
	// all batches) in this order, duplicates allowed, as tensorio.Take
	// does: IPC files by offset, Parquet files through the page index.
	// It excludes Offset and Limit. The JSON form refuses an empty list
	// (which a Ticket cannot tell from no list). A row the file lacks
	// fails the call (InvalidArgument, naming the row).
	Rows []int64 `json:"rows,omitempty"`
	// Expr, when not empty, is an expression of package expr (see
	// expr.Compile), evaluated on the server. One that reads x (such as
	// "x[:, ::2].T", "norm(x, axis=-1)", "x.mean()") replaces every tensor
	// column kept, fixed- or variable-shape, by its result, x standing for
	// that column; other columns pass unchanged. One that names a column
	// instead ("emb.sum(axis=0)", `col("a b").max()`) adds its result as
	// a last column, "result". The schema of GetSchema and GetFlightInfo
	// is the result's, known before any data.
	Expr string `json:"expr,omitempty"`
}

// Marshal returns the ticket's JSON.
func (t Ticket) Marshal() []byte {
	b, _ := json.Marshal(t) // strings, slices of strings and integers only
	return b
}

// descriptor returns the descriptor that stands for t: a PATH descriptor
// of its path's elements when t selects a whole file or directory, else a
// CMD descriptor holding its JSON.
func (t Ticket) descriptor() *flight.FlightDescriptor {
	if len(t.Columns) == 0 && t.Offset == 0 && t.Limit == 0 && t.Rows == nil && t.Expr == "" {
		return &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: strings.Split(t.Path, "/")}
	}
	return &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: t.Marshal()}
}

// ParseTicket decodes the JSON of a ticket. Unknown keys, keys given
// twice (in any case: encoding/json matches keys regardless of case),
// trailing data, a ticket over 64 KiB, a missing path and negative
// offsets or limits are errors with code InvalidArgument, which wrap
// arrow.ErrInvalid. An empty list of columns is read as none (all kept).
func ParseTicket(b []byte) (Ticket, error) {
	var t Ticket
	if len(b) > maxTicketBytes {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket of %d bytes exceeds %d", len(b), maxTicketBytes)
	}
	if err := checkKeys(b); err != nil {
		return t, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&t); err != nil {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket %q is not a JSON ticket: %s", clip(b), clipString(err.Error()))
	}
	if _, err := d.Token(); err != io.EOF {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket %q has data after its JSON object", clip(b))
	}
	if t.Path == "" {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket %q names no path", clip(b))
	}
	if len(t.Columns) == 0 {
		t.Columns = nil // "columns": [] keeps all, as no list does
	}
	if t.Rows != nil && len(t.Rows) == 0 {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket %q gives an empty list of rows", clip(b))
	}
	if len(t.Rows) > 0 && (t.Offset != 0 || t.Limit != 0) {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket %q gives rows with an offset or a limit", clip(b))
	}
	if t.Offset < 0 || t.Limit < 0 {
		return t, statusf(codes.InvalidArgument, "flightserve: ticket offset %d and limit %d must not be negative", t.Offset, t.Limit)
	}
	return t, nil
}

// checkKeys refuses a ticket whose JSON object holds a key twice, which
// encoding/json would take the last of. Keys are compared regardless of
// case, as encoding/json matches them to fields. JSON that is not an
// object passes: Decode reports it.
func checkKeys(b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	seen := map[string]bool{}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil
		}
		key, ok := tok.(string)
		if !ok {
			return nil
		}
		k := strings.ToLower(key)
		if seen[k] {
			return statusf(codes.InvalidArgument, "flightserve: ticket key %q given twice", clipString(key))
		}
		seen[k] = true
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil
		}
	}
	return nil
}
