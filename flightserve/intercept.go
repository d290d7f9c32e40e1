package flightserve

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// flightPrefix starts the full method names of Arrow Flight.
const flightPrefix = "/arrow.flight.protocol.FlightService/"

// errInternal is what a client sees of a caught panic: no value, path or
// stack of the server.
var errInternal = status.Error(codes.Internal, "flightserve: internal error")

// call is one call through the interceptors.
type call struct {
	s        *Server
	method   string // short: "DoGet", or "grpc.health.v1.Health/Check"
	start    time.Time
	sent     int64 // IPC bytes of the FlightData sent
	received int64 // and received
}

// begin starts a call of fullMethod.
func (s *Server) begin(fullMethod string) *call {
	s.running.Add(1)
	s.metrics.started()
	m, ok := strings.CutPrefix(fullMethod, flightPrefix)
	if !ok {
		m = strings.TrimPrefix(fullMethod, "/")
	}
	return &call{s: s, method: m, start: time.Now()}
}

// end ends c with the error of its handler, or a panic value p it
// recovered, and returns the error the client gets.
func (c *call) end(ctx context.Context, p any, err error) error {
	if p != nil {
		err = errInternal
		c.s.logs.panicked(c.method, p, debug.Stack())
	}
	c.s.running.Add(-1)
	code := status.Code(err)
	c.s.metrics.ended(c.method, code, p != nil)
	c.s.logs.ended(ctx, c, code, err, p != nil)
	return err
}

// unary is the interceptor of every unary call: it recovers a panic of
// the handler, checks the token, counts and logs.
func (s *Server) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
	c := s.begin(info.FullMethod)
	defer func() {
		p := recover()
		if p != nil {
			resp = nil
		}
		err = c.end(ctx, p, err)
	}()
	if err := s.authorized(ctx, info.FullMethod); err != nil {
		return nil, err
	}
	return h(ctx, req)
}

// stream is the interceptor of every streaming call, as unary; it also
// counts the IPC bytes of the FlightData sent and received.
func (s *Server) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
	c := s.begin(info.FullMethod)
	defer func() { err = c.end(ss.Context(), recover(), err) }()
	if err := s.authorized(ss.Context(), info.FullMethod); err != nil {
		return err
	}
	return h(srv, &countingStream{ServerStream: ss, c: c})
}

// countingStream counts the IPC bytes (metadata and body) of the
// FlightData messages of a call.
type countingStream struct {
	grpc.ServerStream
	c *call
}

func (cs *countingStream) SendMsg(m any) error {
	err := cs.ServerStream.SendMsg(m)
	if err != nil {
		return err
	}
	n := 0
	switch fd := m.(type) {
	case *flight.FlightData:
		n = len(fd.DataHeader) + len(fd.DataBody)
	case *frame:
		n = len(fd.header) + fd.n
	}
	cs.c.sent += int64(n)
	cs.c.s.metrics.addSent(n)
	return nil
}

func (cs *countingStream) RecvMsg(m any) error {
	err := cs.ServerStream.RecvMsg(m)
	if fd, ok := m.(*flight.FlightData); ok && err == nil {
		n := len(fd.DataHeader) + len(fd.DataBody)
		cs.c.received += int64(n)
		cs.c.s.metrics.addReceived(n)
	}
	return err
}

// panicText returns the text of a panic value, cut to 1 KiB.
func panicText(p any) string { return cut(fmt.Sprint(p), 1<<10) }

// cut returns s cut to at most n bytes, marked "..." when cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "..."
}
