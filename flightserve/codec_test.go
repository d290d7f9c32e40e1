package flightserve_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/protobuf/proto"

	"github.com/fstensor/fstensor/flightserve"
)

// TestMarshalFrame checks the frames DoGet marshals itself against the
// FlightData message protobuf reads back: header, body, and no other
// field.
func TestMarshalFrame(t *testing.T) {
	big := bytes.Repeat([]byte{7}, 200_000) // a body length of three varint bytes
	for _, tc := range []struct {
		header []byte
		body   [][]byte
	}{
		{[]byte("schema message"), nil},
		{[]byte{}, nil},
		{[]byte("batch"), [][]byte{[]byte("abc"), {}, []byte("defgh")}},
		{bytes.Repeat([]byte{1}, 300), [][]byte{big, big[:5]}},
	} {
		t.Run(fmt.Sprintf("header=%d/parts=%d", len(tc.header), len(tc.body)), func(t *testing.T) {
			b, err := flightserve.MarshalFrame(tc.header, tc.body...)
			if err != nil {
				t.Fatal(err)
			}
			var fd flight.FlightData
			if err := proto.Unmarshal(b, &fd); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fd.DataHeader, tc.header) || !bytes.Equal(fd.DataBody, bytes.Join(tc.body, nil)) ||
				fd.FlightDescriptor != nil || len(fd.AppMetadata) != 0 {
				t.Errorf("read back header %d bytes, body %d bytes, descriptor %v", len(fd.DataHeader), len(fd.DataBody), fd.FlightDescriptor)
			}
			// The same bytes as protobuf's own marshalling of the message.
			want, err := proto.MarshalOptions{Deterministic: true}.Marshal(&flight.FlightData{DataHeader: tc.header, DataBody: bytes.Join(tc.body, nil)})
			if err != nil {
				t.Fatal(err)
			}
			if len(tc.header) > 0 && !bytes.Equal(b, want) {
				t.Errorf("%d bytes differ from protobuf's %d", len(b), len(want))
			}
		})
	}
}
