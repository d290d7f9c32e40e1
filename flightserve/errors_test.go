package flightserve_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

// rawInfo calls GetFlightInfo with d.
func rawInfo(ctx context.Context, fc flight.Client, d *flight.FlightDescriptor) error {
	_, err := fc.GetFlightInfo(ctx, d)
	return err
}

// rawSchema calls GetSchema with d.
func rawSchema(ctx context.Context, fc flight.Client, d *flight.FlightDescriptor) error {
	_, err := fc.GetSchema(ctx, d)
	return err
}

// pathDesc returns a PATH descriptor of path.
func pathDesc(path string) *flight.FlightDescriptor {
	return &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{path}}
}

// cmdDesc returns a CMD descriptor holding the JSON ticket.
func cmdDesc(ticket string) *flight.FlightDescriptor {
	return &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: []byte(ticket)}
}

// putData returns the messages of a DoPut of the test schema to path.
func putData(path string) []*flight.FlightData {
	schema := flight.SerializeSchema(testSchema(), memory.DefaultAllocator)
	return []*flight.FlightData{{FlightDescriptor: pathDesc(path), DataHeader: schema[8:]}}
}

// TestClientErrors checks the code and message of every kind of refusal:
// files named relative to the served directory, whose absolute path no
// message holds, values cut, long paths refused as InvalidArgument
// rather than failing the transport.
func TestClientErrors(t *testing.T) {
	dir := testDir(t)
	writeTestFile(t, filepath.Join(dir, ".hidden.arrow"), 3, 3)
	writeTestFile(t, filepath.Join(dir, ".hid", "data.arrow"), 3, 3)
	if err := os.WriteFile(filepath.Join(dir, "bad.arrow"), []byte("not an arrow file at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem})
	fc := rawClient(t, addr)
	ctx := testCtx(t)
	long15 := strings.Repeat("a/", 15<<9) + "x.arrow" // 15 KiB of short elements
	long40 := strings.Repeat("b", 40<<10) + ".arrow"  // one 40 KiB element
	name256 := strings.Repeat("n", 250) + ".arrow"    // one element over 255 bytes
	path5k := strings.Repeat("d/", 2600) + "up.arrow" // over PATH_MAX, elements short
	column10k := strings.Repeat("c", 10<<10)          // echoed in the message
	for _, tc := range []struct {
		name string
		call func() error
		code codes.Code
		want string // in the message
	}{
		{"get unknown column", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","columns":["nosuch"]}`)) }, codes.InvalidArgument, `data.arrow: no column "nosuch"`},
		{"info unknown column", func() error { return rawInfo(ctx, fc, cmdDesc(`{"path":"sub/data.parquet","columns":["nosuch"]}`)) }, codes.InvalidArgument, `sub/data.parquet: no column "nosuch"`},
		{"get long column", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","columns":["`+column10k+`"]}`)) }, codes.InvalidArgument, "ccc..."},
		{"get bad file", func() error { return rawGet(ctx, fc, []byte(`{"path":"bad.arrow"}`)) }, codes.InvalidArgument, "bad.arrow"},
		{"schema bad file", func() error { return rawSchema(ctx, fc, pathDesc("bad.arrow")) }, codes.InvalidArgument, "bad.arrow"},
		{"get missing", func() error { return rawGet(ctx, fc, []byte(`{"path":"sub/missing.arrow"}`)) }, codes.NotFound, `"sub/missing.arrow" does not exist`},
		{"get 15 KiB path", func() error { return rawGet(ctx, fc, []byte(`{"path":"`+long15+`"}`)) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"get 40 KiB path", func() error { return rawGet(ctx, fc, []byte(`{"path":"`+long40+`"}`)) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"info 15 KiB path", func() error { return rawInfo(ctx, fc, pathDesc(long15)) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"schema 40 KiB path", func() error { return rawSchema(ctx, fc, pathDesc(long40)) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"get long element", func() error { return rawGet(ctx, fc, []byte(`{"path":"`+name256+`"}`)) }, codes.InvalidArgument, "exceeds 255 bytes"},
		{"get hidden file", func() error { return rawGet(ctx, fc, []byte(`{"path":".hidden.arrow"}`)) }, codes.PermissionDenied, "hidden"},
		{"info hidden file", func() error { return rawInfo(ctx, fc, pathDesc(".hidden.arrow")) }, codes.PermissionDenied, "hidden"},
		{"schema hidden directory", func() error { return rawSchema(ctx, fc, pathDesc(".hid/data.arrow")) }, codes.PermissionDenied, "hidden"},
		{"ticket key twice", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","path":"data.arrows"}`)) }, codes.InvalidArgument, `key "path" given twice`},
		{"ticket key twice in two cases", func() error { return rawInfo(ctx, fc, cmdDesc(`{"limit":1,"path":"data.arrow","Limit":2}`)) }, codes.InvalidArgument, `key "Limit" given twice`},
		{"ticket long unknown key", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","`+column10k+`":1}`)) }, codes.InvalidArgument, "ccc..."},
		{"expr long", func() error { return rawGet(ctx, fc, []byte(`{"path":"data.arrow","expr":"x[`+column10k+`"}`)) }, codes.InvalidArgument, "data.arrow"},
		{"put long element", func() error { return rawPut(ctx, fc, putData(name256)...) }, codes.InvalidArgument, "exceeds 255 bytes"},
		{"put long path", func() error { return rawPut(ctx, fc, putData(path5k)...) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"put 40 KiB path", func() error { return rawPut(ctx, fc, putData(long40)...) }, codes.InvalidArgument, "exceeds 4095 bytes"},
		{"put hidden file", func() error { return rawPut(ctx, fc, putData(".up.arrow")...) }, codes.PermissionDenied, "hidden"},
		{"put in hidden directory", func() error { return rawPut(ctx, fc, putData(".hid/up.arrow")...) }, codes.PermissionDenied, "hidden"},
		{"put existing", func() error { return rawPut(ctx, fc, putData("sub/data.parquet")...) }, codes.AlreadyExists, `"sub/data.parquet" exists`},
		{"put no directory", func() error { return rawPut(ctx, fc, putData("nodir/up.arrow")...) }, codes.NotFound, `"nodir" does not exist`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			msg := status.Convert(err).Message()
			if got := status.Code(err); got != tc.code {
				t.Errorf("code %v (%.300s), want %v", got, msg, tc.code)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("message %.300q lacks %q", msg, tc.want)
			}
			if !strings.HasPrefix(msg, "flightserve: ") {
				t.Errorf("message %.300q does not start with the package", msg)
			}
			for _, d := range []string{dir, resolved} {
				if strings.Contains(msg, d) {
					t.Errorf("message %.300q names the served directory %s", msg, d)
				}
			}
			if len(msg) > 1100 {
				t.Errorf("message of %d bytes", len(msg))
			}
		})
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 6 {
		t.Errorf("the served directory holds %d entries, want the 6 it had", len(ents))
	}
}
