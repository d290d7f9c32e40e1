package flightserve

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// FlightService is the name of the Arrow Flight service, as health checks
// name it.
const FlightService = "arrow.flight.protocol.FlightService"

// healthPrefix starts the full method names of the health service, which
// take no token.
const healthPrefix = "/grpc.health.v1.Health/"

// healthService is the standard gRPC health service (grpc.health.v1):
// SERVING for "" and FlightService until the server stops, then
// NOT_SERVING.
type healthService struct {
	*health.Server
	once     sync.Once
	stopping chan struct{} // closed when the server stops
}

func newHealth() *healthService {
	h := &healthService{Server: health.NewServer(), stopping: make(chan struct{})}
	h.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	h.SetServingStatus(FlightService, healthpb.HealthCheckResponse_SERVING)
	return h
}

// shutdown makes every service NOT_SERVING, for good.
func (h *healthService) shutdown() {
	h.once.Do(func() {
		h.Server.Shutdown()
		close(h.stopping)
	})
}

// Watch sends the status of the service, and when the server stops,
// NOT_SERVING and the end of the stream, so that a watcher does not hold
// up a graceful stop (health.Server's Watch would run until the client
// ends it).
func (h *healthService) Watch(req *healthpb.HealthCheckRequest, stream healthpb.Health_WatchServer) error {
	st := healthpb.HealthCheckResponse_SERVICE_UNKNOWN
	if resp, err := h.Check(stream.Context(), req); err == nil {
		st = resp.GetStatus()
	}
	if err := stream.Send(&healthpb.HealthCheckResponse{Status: st}); err != nil {
		return err
	}
	select {
	case <-stream.Context().Done():
		return status.FromContextError(stream.Context().Err()).Err()
	case <-h.stopping:
	}
	if st == healthpb.HealthCheckResponse_SERVING {
		return stream.Send(&healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_NOT_SERVING})
	}
	return nil
}

// isHealth reports whether fullMethod is of the health service.
func isHealth(fullMethod string) bool { return strings.HasPrefix(fullMethod, healthPrefix) }

// Shutdown stops the server gracefully: the health service reports
// NOT_SERVING, no new call or connection is accepted, and the calls
// running go on until they end. If ctx ends first, the calls left are
// cancelled (as by Stop). Shutdown returns once every handler has
// returned: nil after a graceful stop, or an error wrapping ctx.Err()
// that counts the calls cut.
func (s *Server) Shutdown(ctx context.Context) error {
	s.health.shutdown()
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		err = fmt.Errorf("flightserve: shutdown: %d calls cut: %w", s.running.Load(), context.Cause(ctx))
		s.grpc.Stop()
		<-done
	}
	s.logs.flush()
	return err
}
