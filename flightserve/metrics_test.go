package flightserve_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

var metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)

// parseExposition parses Prometheus's text format, version 0.0.4, as a
// scraper would, and checks what promtool checks of it: HELP then TYPE
// before the samples of each family, families once and contiguous,
// counters named _total, label names valid, sorted and unique, series
// unique. It returns the samples by series ("name{a=\"x\",b=\"y\"}").
func parseExposition(text string) (map[string]float64, error) {
	if !strings.HasSuffix(text, "\n") {
		return nil, errors.New("no newline at the end")
	}
	out := map[string]float64{}
	seen := map[string]bool{}
	var family, typ, help string
	for line := range strings.Lines(text) {
		line = strings.TrimSuffix(line, "\n")
		if rest, ok := strings.CutPrefix(line, "# HELP "); ok {
			name, _, _ := strings.Cut(rest, " ")
			if seen[name] || !metricName.MatchString(name) {
				return nil, fmt.Errorf("family %q repeated or misnamed", name)
			}
			seen[name], family, help, typ = true, name, rest, ""
			continue
		}
		if rest, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, ty, _ := strings.Cut(rest, " ")
			if name != family || help == "" || typ != "" || (ty != "counter" && ty != "gauge") {
				return nil, fmt.Errorf("TYPE line %q out of place", line)
			}
			if ty == "counter" && !strings.HasSuffix(name, "_total") {
				return nil, fmt.Errorf("counter %s not named _total", name)
			}
			typ = ty
			continue
		}
		name, rest, _ := strings.Cut(line, "{")
		labels, value := "", rest
		if rest == "" {
			name, value, _ = strings.Cut(line, " ")
		} else {
			var ok bool
			labels, value, ok = strings.Cut(rest, "} ")
			if !ok {
				return nil, fmt.Errorf("sample %q", line)
			}
		}
		if name != family || typ == "" {
			return nil, fmt.Errorf("sample %q outside its family %s", line, family)
		}
		ls, err := canonicalLabels(labels)
		if err != nil {
			return nil, err
		}
		key := name + "{" + ls + "}"
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("series %s twice", key)
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return nil, fmt.Errorf("sample %q: %v", line, err)
		}
		out[key] = v
	}
	return out, nil
}

// canonicalLabels parses `a="x",b="y"`, checks names and order, and
// returns them unescaped and requoted.
func canonicalLabels(s string) (string, error) {
	var names, parts []string
	for s != "" {
		name, rest, ok := strings.Cut(s, `="`)
		if !ok || !metricName.MatchString(name) {
			return "", fmt.Errorf("labels %q", s)
		}
		var val strings.Builder
		i := 0
		for ; i < len(rest) && rest[i] != '"'; i++ {
			if rest[i] == '\\' && i+1 < len(rest) {
				i++
				switch rest[i] {
				case 'n':
					val.WriteByte('\n')
				case '\\', '"':
					val.WriteByte(rest[i])
				default:
					return "", fmt.Errorf("escape \\%c in %q", rest[i], s)
				}
				continue
			}
			val.WriteByte(rest[i])
		}
		if i == len(rest) {
			return "", fmt.Errorf("unterminated label value in %q", s)
		}
		names = append(names, name)
		parts = append(parts, fmt.Sprintf("%s=%q", name, val.String()))
		s = strings.TrimPrefix(rest[i+1:], ",")
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		return "", fmt.Errorf("label names %v not sorted and unique", names)
	}
	return strings.Join(parts, ","), nil
}

// scrape gets the metrics at url.
func scrape(t *testing.T, url string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/plain; version=0.0.4; charset=utf-8" {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, ct)
	}
	got, err := parseExposition(string(body))
	if err != nil {
		t.Fatalf("%v in\n%s", err, body)
	}
	return got
}

func TestMetrics(t *testing.T) {
	dir := testDir(t)
	mem := &panicAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
	t.Cleanup(func() { mem.AssertSize(t, 0) })
	m := new(flightserve.Metrics)
	_, addr := startServer(t, flightserve.Config{Dir: dir, Token: "s3cret", Allocator: mem, Metrics: m})
	web := httptest.NewServer(m)
	defer web.Close()
	fc := rawClient(t, addr)
	ctx := metadata.AppendToOutgoingContext(testCtx(t), "authorization", "Bearer s3cret")

	// Two DoGets, counting the IPC bytes received; the messages of the
	// first are uploaded again as a new file.
	var got int
	var msgs []*flight.FlightData
	for i := range 2 {
		st, err := fc.DoGet(ctx, &flight.Ticket{Ticket: flightserve.Ticket{Path: "data.arrow"}.Marshal()})
		if err != nil {
			t.Fatal(err)
		}
		for {
			fd, err := st.Recv()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got += len(fd.DataHeader) + len(fd.DataBody)
			if i == 0 {
				msgs = append(msgs, &flight.FlightData{DataHeader: fd.DataHeader, DataBody: fd.DataBody})
			}
		}
	}
	var put int
	for _, fd := range msgs {
		put += len(fd.DataHeader) + len(fd.DataBody)
	}
	msgs[0].FlightDescriptor = &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"copy.arrow"}}
	if err := rawPut(ctx, fc, msgs...); !errors.Is(err, io.EOF) {
		t.Fatalf("DoPut: %v", err)
	}
	// Refused calls and a panic.
	if _, err := fc.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"missing.arrow"}}); status.Code(err) != codes.NotFound {
		t.Fatalf("missing: %v", err)
	}
	for range 3 {
		if err := rawGet(testCtx(t), fc, flightserve.Ticket{Path: "data.arrow"}.Marshal()); status.Code(err) != codes.Unauthenticated {
			t.Fatalf("without the token: %v", err)
		}
	}
	mem.armed.Store(true)
	if _, err := fc.GetFlightInfo(ctx, &flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{"data.arrow"}}); status.Code(err) != codes.Internal {
		t.Fatalf("panic: %v", err)
	}

	want := map[string]float64{
		`fstensor_flight_requests_total{code="OK",method="DoGet"}`:               2,
		`fstensor_flight_requests_total{code="Unauthenticated",method="DoGet"}`:  3,
		`fstensor_flight_requests_total{code="OK",method="DoPut"}`:               1,
		`fstensor_flight_requests_total{code="NotFound",method="GetFlightInfo"}`: 1,
		`fstensor_flight_requests_total{code="Internal",method="GetFlightInfo"}`: 1,
		`fstensor_flight_rejected_total{code="NotFound"}`:                        1,
		`fstensor_flight_rejected_total{code="Unauthenticated"}`:                 3,
		`fstensor_flight_panics_total{}`:                                         1,
		`fstensor_flight_bytes_sent_total{}`:                                     float64(got),
		`fstensor_flight_bytes_received_total{}`:                                 float64(put),
		`fstensor_flight_in_flight_calls{}`:                                      0,
	}
	if diff := cmp.Diff(want, scrape(t, web.URL+"/metrics")); diff != "" {
		t.Errorf("metrics (-want +got):\n%s", diff)
	}
	if got == 0 || put == 0 {
		t.Errorf("%d bytes sent, %d received", got, put)
	}
}

func TestMetricsText(t *testing.T) {
	var m flightserve.Metrics
	var b strings.Builder
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	got, err := parseExposition(b.String())
	if err != nil {
		t.Fatalf("%v in\n%s", err, b.String())
	}
	if diff := cmp.Diff(map[string]float64{
		`fstensor_flight_panics_total{}`:         0,
		`fstensor_flight_bytes_sent_total{}`:     0,
		`fstensor_flight_bytes_received_total{}`: 0,
		`fstensor_flight_in_flight_calls{}`:      0,
	}, got); diff != "" {
		t.Errorf("zero Metrics (-want +got):\n%s", diff)
	}
	for _, v := range []string{"DoGet", `a"b`, `c\d`, "e\nf", `\"`, ""} {
		t.Run("label "+v, func(t *testing.T) {
			text := "# HELP x_total h\n# TYPE x_total counter\nx_total{a=" + flightserve.QuoteLabel(v) + "} 1\n"
			got, err := parseExposition(text)
			if err != nil {
				t.Fatalf("%v in %q", err, text)
			}
			if diff := cmp.Diff(map[string]float64{fmt.Sprintf("x_total{a=%q}", v): 1}, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// The parser refuses what a scraper would.
	for _, bad := range []string{
		"x_total 1\n",
		"# HELP x_total h\n# TYPE x_total counter\nx_total{b=\"1\",a=\"2\"} 1\n",
		"# HELP x_total h\n# TYPE x_total counter\nx_total{a=\"1\\q\"} 1\n",
		"# HELP x h\n# TYPE x counter\nx 1\n",
	} {
		t.Run(bad, func(t *testing.T) {
			if _, err := parseExposition(bad); err == nil {
				t.Errorf("accepted %q", bad)
			}
		})
	}
}
