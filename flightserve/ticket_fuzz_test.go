package flightserve_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

// FuzzParseTicket checks that ParseTicket never panics, that its errors
// carry code InvalidArgument and wrap arrow.ErrInvalid, and that a ticket
// it accepts keeps its fields through Marshal and ParseTicket again.
func FuzzParseTicket(f *testing.F) {
	for _, s := range []string{
		`{"path":"images/train.arrow","columns":["image"],"offset":8,"limit":16,"expr":"x[:, ::2].T"}`,
		`{"path":"a.parquet","rows":[5,17,9,5]}`,
		`{"path":"a.arrow","rows":[]}`,
		`{"path":"a.arrow","rows":[1],"limit":2}`,
		`{"path":"a.arrow","PATH":"b.arrow"}`,
		`{"path":"a.arrow","offset":-1}`,
		`{"path":"a.arrow"} {}`,
		`{"path":""}`,
		`{"path":"a.arrow","unknown":1}`,
		`[1,2]`,
		`{"path":"a.arrow","columns":null,"rows":null}`,
		`{"path":"a.arrow","columns":[]}`,
		`{"path":"\u00e9/\ud800.arrow","expr":"\u0000"}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tk, err := flightserve.ParseTicket(b)
		if err != nil {
			if status.Code(err) != codes.InvalidArgument || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("ParseTicket(%q) = %v (code %v), not InvalidArgument wrapping arrow.ErrInvalid", b, err, status.Code(err))
			}
			return
		}
		again, err := flightserve.ParseTicket(tk.Marshal())
		if err != nil {
			t.Fatalf("ParseTicket(%q) accepts %+v, whose JSON %s it refuses: %v", b, tk, tk.Marshal(), err)
		}
		if diff := cmp.Diff(tk, again); diff != "" {
			t.Fatalf("ParseTicket(%q) through Marshal (-first +again):\n%s", b, diff)
		}
	})
}
