package main

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/tensorio"
)

// serveFlags are the flags of serve.
type serveFlags struct {
	addr, tokenFile, cert, key string
	maxMessageMiB, batchKiB    int
	logFormat, logLevel        string
	metricsAddr                string
	shutdownTimeout            time.Duration
	maxUploadMiB               int
	endpointMiB                int
	noMmap                     bool
}

// newServe returns the serve command.
func newServe(stdout, stderr io.Writer) *cobra.Command {
	var sf serveFlags
	cmd := &cobra.Command{
		Use:   "serve DIR [--addr HOST:PORT]",
		Short: "Serve the Arrow IPC and Parquet files of a directory over Arrow Flight",
		Long: `Serve serves the Arrow IPC (.arrow .feather .ipc .arrows .stream) and Parquet files under
DIR over Arrow Flight until Ctrl-C or SIGTERM: ListFlights and GetFlightInfo (schema with
the tensor extension type, row counts), DoGet of a JSON ticket naming a file and optionally
columns, rows and an expression evaluated on the server, e.g.
  {"path":"images.arrow","columns":["image"],"offset":0,"limit":64,"expr":"x[:, ::2].T"}
and DoPut of a stream as a new file (PATH descriptor; written to a temporary file and
renamed when complete). It prints the address it listens on.

Paths are relative to DIR: "..", absolute paths and symbolic links leading out of DIR
are refused. --token-file makes every call carry exactly one "authorization: Bearer TOKEN"
header (none, two or more, or a wrong token: Unauthenticated); --tls-cert and --tls-key
serve over TLS. Without them, keep --addr on a loopback address.

Hidden names (an element starting with "."), elements over 255 bytes and paths over 4095
bytes are refused. --max-upload-mib bounds each upload (default 1024 MiB), counted in
bytes received and in decoded bytes written; an upload over it, or one that would leave
the disk under 256 MiB free, is refused with RESOURCE_EXHAUSTED and leaves no file.
Errors name files relative to DIR.

Running it:
  - The log goes to standard error (--log-format text or json, --log-level). Successful
    calls are not logged (one line each at debug); refused calls and server errors are
    counted and logged at most once a second per kind ("rejected calls" with method,
    code, count and the latest error); a panic in a handler is logged with its stack
    and answered with Internal, and the server keeps serving.
  - The standard gRPC health service (grpc.health.v1.Health) answers without the token:
    SERVING for "" and "arrow.flight.protocol.FlightService", NOT_SERVING once stopping.
  - --metrics-addr HOST:PORT serves Prometheus metrics at http://HOST:PORT/metrics
    (fstensor_flight_requests_total{code,method}, _rejected_total{code}, _panics_total,
    _bytes_sent_total, _bytes_received_total, _in_flight_calls), without a token.
  - SIGINT or SIGTERM stops gracefully: NOT_SERVING, no new calls, the calls running
    finish within --shutdown-timeout (then they are cut and serve exits 1); exit 0
    after a graceful stop. A second signal exits at once.`,
		Example: `  fstensor serve testdata --addr 127.0.0.1:8815
  fstensor serve data --addr 127.0.0.1:8815 --token-file token.txt --tls-cert cert.pem --tls-key key.pem
  fstensor serve data --addr 0.0.0.0:8815 --token-file token.txt --tls-cert cert.pem --tls-key key.pem \
    --metrics-addr 127.0.0.1:9815 --log-format json --shutdown-timeout 1m`,
		Args: exactArgs(1, "one DIR"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runServe(args[0], sf, stdout, stderr)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&sf.addr, "addr", "127.0.0.1:8815", "the address to listen on (port 0 picks a free port)")
	fs.StringVar(&sf.tokenFile, "token-file", "", "a file holding the bearer token every call must carry")
	fs.StringVar(&sf.cert, "tls-cert", "", "a PEM certificate (chain) to serve over TLS, with --tls-key")
	fs.StringVar(&sf.key, "tls-key", "", "the PEM private key of --tls-cert")
	fs.IntVar(&sf.maxMessageMiB, "max-message-mib", flightserve.DefaultMaxMessageBytes>>20, "the largest gRPC message received or sent, in MiB")
	fs.IntVar(&sf.batchKiB, "batch-kib", flightserve.DefaultBatchBytes>>10, "the size DoGet cuts batches to, in KiB")
	fs.StringVar(&sf.logFormat, "log-format", "text", "the format of the log on standard error: text (key=value) or json")
	fs.StringVar(&sf.logLevel, "log-level", "info", "the least level logged: debug (one line per call), info, warn (refused calls) or error")
	fs.StringVar(&sf.metricsAddr, "metrics-addr", "", "serve Prometheus metrics at http://HOST:PORT/metrics (none by default; no token: keep it private)")
	fs.DurationVar(&sf.shutdownTimeout, "shutdown-timeout", 30*time.Second, "on SIGINT or SIGTERM, how long calls running may take to finish before they are cut")
	mustComplete(cmd, "log-format", completeWords("text", "json"))
	mustComplete(cmd, "log-level", completeWords("debug", "info", "warn", "error"))
	fs.IntVar(&sf.maxUploadMiB, "max-upload-mib", flightserve.DefaultMaxUploadBytes>>20, "the largest upload (DoPut) received or written, in MiB")
	fs.IntVar(&sf.endpointMiB, "endpoint-mib", flightserve.DefaultEndpointBytes>>20, "GetFlightInfo cuts files into endpoints of about this many MiB (whole IPC batches or Parquet row groups) for parallel readers; 0: one endpoint a file")
	fs.BoolVar(&sf.noMmap, "no-mmap", false, "read IPC files batch by batch instead of mapping them: slower, and a file truncated or rewritten in place while it is sent fails that call instead of being copied into memory (a file is mapped only under a read lease, so it never kills the server)")
	return cmd
}

// maxUploadMiB bounds --max-upload-mib: 1 TiB.
const maxUploadMiB = 1 << 20

func runServe(dir string, sf serveFlags, stdout, stderr io.Writer) error {
	if (sf.cert == "") != (sf.key == "") {
		return fmt.Errorf("%w: --tls-cert and --tls-key go together", errUsage)
	}
	if sf.maxMessageMiB < 1 || sf.maxMessageMiB > 1024 {
		return fmt.Errorf("%w: --max-message-mib %d is outside [1,1024]", errUsage, sf.maxMessageMiB)
	}
	if sf.shutdownTimeout < 0 {
		return fmt.Errorf("%w: --shutdown-timeout %v is negative", errUsage, sf.shutdownTimeout)
	}
	if sf.batchKiB < 1 || sf.batchKiB > sf.maxMessageMiB<<9 {
		return fmt.Errorf("%w: --batch-kib %d is outside [1,%d] (half of --max-message-mib)", errUsage, sf.batchKiB, sf.maxMessageMiB<<9)
	}
	if sf.maxUploadMiB < 1 || sf.maxUploadMiB > maxUploadMiB {
		return fmt.Errorf("%w: --max-upload-mib %d is outside [1,%d]", errUsage, sf.maxUploadMiB, maxUploadMiB)
	}
	if sf.endpointMiB < 0 || sf.endpointMiB > maxUploadMiB {
		return fmt.Errorf("%w: --endpoint-mib %d is outside [0,%d]", errUsage, sf.endpointMiB, maxUploadMiB)
	}
	logger, err := newLogger(sf.logFormat, sf.logLevel, stderr)
	if err != nil {
		return err
	}
	cfg := flightserve.Config{
		Dir:             dir,
		MaxMessageBytes: sf.maxMessageMiB << 20,
		MaxUploadBytes:  int64(sf.maxUploadMiB) << 20,
		BatchBytes:      sf.batchKiB << 10,
		EndpointBytes:   int64(sf.endpointMiB) << 20,
		NoMmap:          sf.noMmap,
		Logger:          logger,
	}
	if sf.endpointMiB == 0 {
		cfg.EndpointBytes = -1
	}
	if sf.tokenFile != "" {
		b, err := os.ReadFile(sf.tokenFile)
		if err != nil {
			return err
		}
		cfg.Token = strings.TrimSpace(string(b))
		if cfg.Token == "" || strings.ContainsAny(cfg.Token, "\r\n") {
			return fmt.Errorf("token file %s must hold one non-empty line", sf.tokenFile)
		}
	}
	if sf.cert != "" {
		cert, err := tls.LoadX509KeyPair(sf.cert, sf.key)
		if err != nil {
			return fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		cfg.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	if sf.metricsAddr != "" {
		cfg.Metrics = new(flightserve.Metrics)
	}
	s, err := flightserve.New(cfg)
	if err != nil {
		return err
	}
	lis, err := net.Listen("tcp", sf.addr)
	if err != nil {
		return err
	}
	defer lis.Close()
	scheme := "grpc"
	if cfg.TLS != nil {
		scheme = "grpc+tls"
	}
	if ap, ok := lis.Addr().(*net.TCPAddr); ok && !ap.IP.IsLoopback() && (cfg.TLS == nil || cfg.Token == "") {
		logger.Warn("not a loopback address, and calls are not protected by both --tls-cert and --token-file", "addr", lis.Addr().String())
	}
	var web *http.Server
	if cfg.Metrics != nil {
		if web, err = serveMetrics(sf.metricsAddr, cfg.Metrics, logger); err != nil {
			return err
		}
		defer web.Close()
	}
	fmt.Fprintf(stdout, "serving %s on %s://%s\n", s.Dir(), scheme, lis.Addr())
	if web != nil {
		fmt.Fprintf(stdout, "metrics on http://%s/metrics\n", web.Addr)
	}
	return serveUntilSignal(s, lis, sf.shutdownTimeout, logger)
}

// serveUntilSignal serves on lis until SIGINT or SIGTERM, then shuts s
// down: health NOT_SERVING, no new calls, the calls running given
// timeout to finish, then cut (an error). It takes the signals over from
// main's handler; after the first, that handler is back, so a second
// signal exits at once.
func serveUntilSignal(s *flightserve.Server, lis net.Listener, timeout time.Duration, logger *slog.Logger) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	stopSignals()
	served := make(chan error, 1)
	go func() { served <- s.Serve(lis) }()
	var got os.Signal
	select {
	case err := <-served:
		if errors.Is(err, net.ErrClosed) {
			return nil
		}
		return err
	case got = <-sig:
	}
	stopSignals = tensorio.HandleSignals()
	logger.Info("shutting down", "signal", got.String(), "timeout", timeout)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	err := s.Shutdown(ctx)
	if serr := <-served; serr != nil && !errors.Is(serr, net.ErrClosed) {
		logger.Error("serve", "error", serr)
	}
	if err != nil {
		return fmt.Errorf("--shutdown-timeout %v passed: %w", timeout, err)
	}
	logger.Info("stopped")
	return nil
}

// newLogger returns the logger of --log-format and --log-level, writing
// to w.
func newLogger(format, level string, w io.Writer) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("%w: --log-level %q is not debug, info, warn or error", errUsage, level)
	}
	opts := &slog.HandlerOptions{Level: lv}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("%w: --log-format %q is not text or json", errUsage, format)
}

// serveMetrics serves m at http://addr/metrics until the returned
// server is closed; its Addr is the address listened on.
func serveMetrics(addr string, m *flightserve.Metrics, logger *slog.Logger) (*http.Server, error) {
	lis, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", m)
	web := &http.Server{Addr: lis.Addr().String(), Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	go func() {
		if err := web.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("metrics server stopped", "error", err)
		}
	}()
	return web, nil
}
