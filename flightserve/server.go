package flightserve

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Defaults of Config.
const (
	// DefaultMaxMessageBytes bounds one gRPC message, in and out: 64 MiB,
	// sixteen times gRPC's default, for batches of tensors.
	DefaultMaxMessageBytes = 64 << 20
	// DefaultBatchBytes is the size DoGet cuts batches to: 4 MiB.
	DefaultBatchBytes = 4 << 20
	// DefaultMaxStreams bounds the concurrent calls of one connection.
	DefaultMaxStreams = 64
	// DefaultEndpointBytes is the size GetFlightInfo cuts files into
	// endpoints at: 64 MiB.
	DefaultEndpointBytes = 64 << 20
	// MaxDirFiles bounds the files of a directory GetFlightInfo
	// describes.
	MaxDirFiles = 10000
)

// Flow control and buffers of connections, server and client.
const (
	windowBytes = 4 << 20
	bufferBytes = 256 << 10
)

// Config configures a Server.
type Config struct {
	// Dir is the served directory. Required.
	Dir string
	// Token, when not empty, is the bearer token every call must carry in
	// its "authorization" header ("Bearer TOKEN").
	Token string
	// TLS, when not nil, serves over TLS with this configuration.
	TLS *tls.Config
	// MaxMessageBytes bounds each gRPC message received or sent, in bytes
	// (DefaultMaxMessageBytes when 0; negative or below 1 MiB is an
	// error of New). An incoming message over it fails
	// its call with ResourceExhausted; it also bounds the body of each
	// uploaded IPC message.
	MaxMessageBytes int
	// MaxUploadBytes bounds one DoPut, in bytes: the bytes received
	// (metadata and bodies of its messages) and, apart, the decoded bytes
	// of the batches written (DefaultMaxUploadBytes when 0; negative is an
	// error of New). An upload over it fails with ResourceExhausted and
	// leaves no file.
	MaxUploadBytes int64
	// BatchBytes is the size in bytes DoGet cuts batches to, at least one
	// row each (DefaultBatchBytes when 0, at most MaxMessageBytes/2;
	// negative is an error of New).
	BatchBytes int
	// EndpointBytes is the size in bytes GetFlightInfo cuts a file into
	// endpoints at, so that a client's workers fetch them in parallel:
	// ranges of whole IPC record batches or Parquet row groups of about
	// this many bytes each (DefaultEndpointBytes when 0; negative: one
	// endpoint per file). IPC streams are never cut.
	EndpointBytes int64
	// Allocator allocates the batches read and written
	// (memory.DefaultAllocator when nil).
	Allocator memory.Allocator
	// NoMmap makes DoGet read IPC files batch by batch into Allocator's
	// memory instead of mapping them and handing gRPC buffers that point
	// into the mapping. Without it, a file is mapped under a read lease
	// (Linux; the server's user owns the file or has CAP_LEASE), so that
	// another process that truncates or rewrites it while a call sends
	// it waits while the server copies the file into memory, and the
	// call sends the file as it was; a file with no lease is read as
	// with NoMmap. With NoMmap, a call sending a file that shrinks fails
	// with an error instead, a rewrite costs no memory, and every byte
	// sent costs a copy.
	NoMmap bool
	// Logger, when not nil, receives the server's records (see the package
	// doc's Operations section): rejected and failed calls, counted, at
	// most one line a second of each kind; caught panics with their stack;
	// at slog.LevelDebug, one record per call. Nil logs nothing.
	Logger *slog.Logger
	// Metrics, when not nil, counts the server's calls, bytes and errors
	// (see Metrics); servers may share one.
	Metrics *Metrics
}

// Server serves the Arrow IPC and Parquet files of a directory over Arrow
// Flight: ListFlights, GetFlightInfo, GetSchema, DoGet and DoPut. Its
// methods are the gRPC handlers, safe for concurrent use; Serve runs them.
type Server struct {
	flight.BaseFlightServer
	root     string   // absolute, symbolic links resolved
	dir      *os.Root // root, through which every file is opened
	dirNames []string // absolute names of root that errors may carry
	maxPut   int64    // bytes of one DoPut, received and decoded
	token    string
	maxMsg   int
	batch    int
	mem      memory.Allocator
	noMmap   bool // Config.NoMmap
	logs     *callLog
	metrics  *Metrics
	health   *healthService
	running  atomic.Int64 // calls in their handlers
	queries  atomic.Int64 // opened queries not yet closed (query.close)
	grpc     *grpc.Server
	putMu    sync.Mutex
	putting  map[string]bool // paths of DoPut calls in progress
	parts    int64           // Config.EndpointBytes, resolved
	rowMu    sync.Mutex
	rowCache map[string]rowRanges
}

// New returns a Server of cfg. The directory must exist; the Server holds
// it open (an os.Root) for its life, and opens, creates and renames every
// file under it through it. Errors wrap arrow.ErrInvalid or are
// *fs.PathError values; an invalid Config value (a negative
// MaxUploadBytes or BatchBytes, a MaxMessageBytes below 1 MiB) is an
// *Error wrapping fstensor.ErrOption too, returned before the directory
// is opened.
func New(cfg Config) (*Server, error) {
	if cfg.Dir == "" {
		return nil, fmt.Errorf("flightserve: no directory to serve: %w", arrow.ErrInvalid)
	}
	maxPut, err := uploadLimit(cfg.MaxUploadBytes)
	if err != nil {
		return nil, err
	}
	if n := cfg.MaxMessageBytes; n != 0 && n < minMaxMessageBytes {
		return nil, optionError("Config.MaxMessageBytes", n, "want 0 for the default or 1 MiB (1048576) or more")
	}
	if cfg.BatchBytes < 0 {
		return nil, optionError("Config.BatchBytes", cfg.BatchBytes, "want 0 for the default or 1 or more")
	}
	abs, err := filepath.Abs(cfg.Dir)
	if err != nil {
		return nil, err
	}
	root, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("flightserve: %s is not a directory: %w", cfg.Dir, arrow.ErrInvalid)
	}
	dir, dirNames, err := openRoot(cfg.Dir, root)
	if err != nil {
		return nil, err
	}
	s := &Server{root: root, dir: dir, dirNames: dirNames, maxPut: maxPut, token: cfg.Token, maxMsg: cfg.MaxMessageBytes, batch: cfg.BatchBytes,
		mem: cfg.Allocator, putting: map[string]bool{}, rowCache: map[string]rowRanges{}, parts: cfg.EndpointBytes, noMmap: cfg.NoMmap}
	s.logs, s.metrics, s.health = newCallLog(cfg.Logger), cfg.Metrics, newHealth()
	if s.maxMsg <= 0 {
		s.maxMsg = DefaultMaxMessageBytes
	}
	if s.batch <= 0 {
		s.batch = DefaultBatchBytes
	}
	if s.parts == 0 {
		s.parts = DefaultEndpointBytes
	}
	s.batch = min(s.batch, s.maxMsg/2)
	if s.mem == nil {
		s.mem = memory.DefaultAllocator
	}
	opts := []grpc.ServerOption{
		grpc.MaxRecvMsgSize(s.maxMsg),
		grpc.MaxSendMsgSize(s.maxMsg),
		grpc.MaxConcurrentStreams(DefaultMaxStreams),
		// Windows of a few batches: gRPC's default 64 KiB stalls streams of
		// megabyte messages on round trips. They bound what clients send
		// (DoPut); DoGet's sending follows the client's windows, and
		// gRPC sends DATA frames of 16 KiB whatever the client allows.
		grpc.InitialWindowSize(windowBytes),
		grpc.InitialConnWindowSize(2 * windowBytes),
		grpc.WriteBufferSize(bufferBytes),
		grpc.ReadBufferSize(bufferBytes),
		// Every call, health checks included, goes through one
		// interceptor that recovers panics, checks the token, counts and
		// logs.
		grpc.ChainUnaryInterceptor(s.unary),
		grpc.ChainStreamInterceptor(s.stream),
		// Stop returns once every handler has returned (the batches
		// DoGet handed gRPC are released as gRPC frees them, see
		// batchRefs).
		grpc.WaitForHandlers(true),
		// DoGet's batches are handed to gRPC without a copy (codec.go).
		grpc.ForceServerCodecV2(newCodec()),
	}
	if cfg.TLS != nil {
		opts = append(opts, grpc.Creds(credentials.NewTLS(cfg.TLS)))
	}
	s.grpc = grpc.NewServer(opts...)
	flight.RegisterFlightServiceServer(s.grpc, s)
	healthpb.RegisterHealthServer(s.grpc, s.health)
	return s, nil
}

// Dir returns the served directory, absolute, symbolic links resolved.
func (s *Server) Dir() string { return s.root }

// Serve accepts connections on lis until Stop or GracefulStop; it
// returns nil after them.
func (s *Server) Serve(lis net.Listener) error {
	err := s.grpc.Serve(lis)
	if errors.Is(err, grpc.ErrServerStopped) {
		return nil
	}
	return err
}

// GracefulStop marks the health service NOT_SERVING, stops accepting
// calls and waits for those running, without bound (see Shutdown).
func (s *Server) GracefulStop() {
	s.health.shutdown()
	s.grpc.GracefulStop()
	s.logs.flush()
}

// Stop marks the health service NOT_SERVING, closes every connection
// and cancels every call at once; it returns once their handlers have
// returned.
func (s *Server) Stop() {
	s.health.shutdown()
	s.grpc.Stop()
	s.logs.flush()
}

// authorized checks the bearer token of a call of fullMethod: with a
// token set, the call must carry exactly one "authorization" header, of
// one value "Bearer TOKEN". Several headers are refused whatever they
// hold, so a client cannot try many tokens in one call. Health checks
// need no token, so that load balancers can probe.
func (s *Server) authorized(ctx context.Context, fullMethod string) error {
	if s.token == "" || isHealth(fullMethod) {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	vals := md.Get("authorization")
	switch {
	case len(vals) == 0:
		return status.Error(codes.Unauthenticated, "flightserve: no authorization header (want \"Bearer TOKEN\")")
	case len(vals) > 1:
		return status.Errorf(codes.Unauthenticated, "flightserve: %d authorization headers, want one bearer token", len(vals))
	}
	if tok, ok := strings.CutPrefix(vals[0], "Bearer "); ok && subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1 {
		return nil
	}
	return status.Error(codes.Unauthenticated, "flightserve: wrong bearer token")
}

// ListFlights sends a FlightInfo for every IPC and Parquet file under the
// served directory (hidden files and directories and links leading out
// are left out; files that fail to open too), each described by a PATH
// descriptor of its path's elements. The criteria are ignored.
func (s *Server) ListFlights(_ *flight.Criteria, stream flight.FlightService_ListFlightsServer) error {
	return fs.WalkDir(s.dir.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err := stream.Context().Err(); err != nil {
			return status.FromContextError(err).Err()
		}
		if err != nil || (p != "." && strings.HasPrefix(d.Name(), ".")) {
			if d != nil && d.IsDir() && p != "." {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		info, err := s.info(Ticket{Path: p})
		if err != nil {
			return nil // not served, or not readable
		}
		return stream.Send(info)
	})
}

// GetFlightInfo returns the schema (tensor extension included), row
// count, byte size and endpoints of a PATH descriptor naming a file or a
// directory, or of a CMD descriptor holding a ticket's JSON (schema and
// rows of the result). A file is cut into endpoints of about
// Config.EndpointBytes (whole record batches or row groups, the ticket
// of each taking its rows by offset and limit); a directory gives the
// endpoints of every IPC and Parquet file beneath it (hidden names left
// out), in path order, whose schemas must be equal. Each endpoint's
// app_metadata is the JSON {"rows":N,"bytes":B} of its part. The info's
// descriptor is d.
func (s *Server) GetFlightInfo(_ context.Context, d *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	t, err := descriptorTicket(d)
	if err != nil {
		return nil, err
	}
	info, err := s.info(t)
	if err != nil {
		return nil, err
	}
	info.FlightDescriptor = d // the descriptor asked about, as it came
	return info, nil
}

// GetSchema returns the schema GetFlightInfo would.
func (s *Server) GetSchema(_ context.Context, d *flight.FlightDescriptor) (*flight.SchemaResult, error) {
	t, err := descriptorTicket(d)
	if err != nil {
		return nil, err
	}
	q, err := s.open(t)
	if err != nil {
		return nil, err
	}
	defer q.close()
	return &flight.SchemaResult{Schema: flight.SerializeSchema(q.schema, s.mem)}, nil
}

// descriptorTicket returns the ticket a descriptor stands for.
func descriptorTicket(d *flight.FlightDescriptor) (Ticket, error) {
	switch {
	case d == nil:
		return Ticket{}, statusf(codes.InvalidArgument, "flightserve: no descriptor")
	case d.Type == flight.DescriptorPATH:
		return Ticket{Path: strings.Join(d.Path, "/")}, nil
	case d.Type == flight.DescriptorCMD:
		return ParseTicket(d.Cmd)
	}
	return Ticket{}, statusf(codes.InvalidArgument, "flightserve: descriptor type %v is neither PATH nor CMD", d.Type)
}
