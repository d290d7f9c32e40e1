package flightserve

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"google.golang.org/grpc/codes"
)

// numCodes is the number of gRPC codes, OK to Unauthenticated.
const numCodes = int(codes.Unauthenticated) + 1

// Metrics counts the calls of the servers given it in Config.Metrics, for
// Prometheus: ServeHTTP writes them in the text exposition format,
// version 0.0.4. The counters are
//
//	fstensor_flight_requests_total{code,method}  calls ended, by gRPC code and method
//	fstensor_flight_rejected_total{code}         calls refused or the client's error
//	fstensor_flight_panics_total                 panics caught in handlers
//	fstensor_flight_bytes_sent_total             IPC bytes of the FlightData sent (DoGet)
//	fstensor_flight_bytes_received_total         IPC bytes of the FlightData received (DoPut)
//	fstensor_flight_in_flight_calls              calls running (a gauge)
//
// Methods are the Flight method names ("DoGet") and, for other services,
// the full name without its leading slash ("grpc.health.v1.Health/Check");
// codes are the names of package codes ("OK", "NotFound"). Rejected
// calls are those ending with any code but OK, Canceled and
// DeadlineExceeded (the client ended them) and Unknown, Internal,
// DataLoss and Unavailable (the server failed). IPC bytes are
// those of the message metadata and body. Every call counts, refused ones
// and health checks included. The zero Metrics is ready to use; a Metrics
// is safe for concurrent use.
type Metrics struct {
	mu       sync.Mutex
	requests map[string]*[numCodes]atomic.Uint64 // by method
	rejected [numCodes]atomic.Uint64
	panics   atomic.Uint64
	sent     atomic.Uint64
	received atomic.Uint64
	inFlight atomic.Int64
}

// started counts a call starting; m may be nil.
func (m *Metrics) started() {
	if m != nil {
		m.inFlight.Add(1)
	}
}

// ended counts a call of method ending with code; m may be nil.
func (m *Metrics) ended(method string, code codes.Code, panicked bool) {
	if m == nil {
		return
	}
	m.inFlight.Add(-1)
	if int(code) >= numCodes {
		code = codes.Unknown
	}
	m.mu.Lock()
	if m.requests == nil {
		m.requests = map[string]*[numCodes]atomic.Uint64{}
	}
	byCode := m.requests[method]
	if byCode == nil {
		byCode = new([numCodes]atomic.Uint64)
		m.requests[method] = byCode
	}
	m.mu.Unlock()
	byCode[code].Add(1)
	if classify(code) == classRejected {
		m.rejected[code].Add(1)
	}
	if panicked {
		m.panics.Add(1)
	}
}

// addSent and addReceived count IPC bytes; m may be nil.
func (m *Metrics) addSent(n int) {
	if m != nil {
		m.sent.Add(uint64(n))
	}
}

func (m *Metrics) addReceived(n int) {
	if m != nil {
		m.received.Add(uint64(n))
	}
}

// ServeHTTP writes the metrics in Prometheus's text format to GET and
// HEAD requests; other methods get 405.
func (m *Metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "flightserve: metrics take GET", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	if r.Method == http.MethodHead {
		return
	}
	m.WriteTo(w)
}

// WriteTo writes the metrics in Prometheus's text format, version 0.0.4,
// to w: families in a fixed order, each with its HELP and TYPE lines,
// series sorted by their label values. It returns the bytes written and
// the first error of w.
func (m *Metrics) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	b := bufio.NewWriter(cw)
	family(b, "fstensor_flight_requests_total", "counter", "Flight calls ended, by gRPC status code and method.")
	m.mu.Lock()
	methods := make([]string, 0, len(m.requests))
	for k := range m.requests {
		methods = append(methods, k)
	}
	m.mu.Unlock()
	slices.Sort(methods)
	names := codeNames()
	for _, method := range methods {
		m.mu.Lock()
		byCode := m.requests[method]
		m.mu.Unlock()
		for _, c := range names {
			if n := byCode[c.code].Load(); n > 0 {
				fmt.Fprintf(b, "fstensor_flight_requests_total{code=%s,method=%s} %d\n", quote(c.name), quote(method), n)
			}
		}
	}
	family(b, "fstensor_flight_rejected_total", "counter", "Calls refused, or ended by the client's error, by gRPC status code.")
	for _, c := range names {
		if n := m.rejected[c.code].Load(); n > 0 {
			fmt.Fprintf(b, "fstensor_flight_rejected_total{code=%s} %d\n", quote(c.name), n)
		}
	}
	family(b, "fstensor_flight_panics_total", "counter", "Panics caught in handlers (the calls ended with Internal).")
	fmt.Fprintf(b, "fstensor_flight_panics_total %d\n", m.panics.Load())
	family(b, "fstensor_flight_bytes_sent_total", "counter", "IPC bytes (metadata and body) of the FlightData messages sent.")
	fmt.Fprintf(b, "fstensor_flight_bytes_sent_total %d\n", m.sent.Load())
	family(b, "fstensor_flight_bytes_received_total", "counter", "IPC bytes (metadata and body) of the FlightData messages received.")
	fmt.Fprintf(b, "fstensor_flight_bytes_received_total %d\n", m.received.Load())
	family(b, "fstensor_flight_in_flight_calls", "gauge", "Calls running.")
	fmt.Fprintf(b, "fstensor_flight_in_flight_calls %d\n", m.inFlight.Load())
	err := b.Flush()
	return cw.n, err
}

// family writes the HELP and TYPE lines of a metric.
func family(w io.Writer, name, typ, help string) {
	fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s %s\n", name, strings.NewReplacer(`\`, `\\`, "\n", `\n`).Replace(help), name, typ)
}

// quote returns v as a label value: quoted, with backslash, double quote
// and newline escaped.
func quote(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v) + `"`
}

type codeName struct {
	code codes.Code
	name string
}

// codeNames returns the codes sorted by name.
func codeNames() []codeName {
	out := make([]codeName, numCodes)
	for i := range out {
		out[i] = codeName{codes.Code(i), codes.Code(i).String()}
	}
	slices.SortFunc(out, func(a, b codeName) int { return strings.Compare(a.name, b.name) })
	return out
}

// countWriter counts the bytes written to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
