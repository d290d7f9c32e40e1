package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/flightserve"
)

// serveFlags are the flags of serve.
type serveFlags struct {
	addr, tokenFile, cert, key string
	maxMessageMiB, batchKiB    int
	logFormat, logLevel        string
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
are refused. --token-file makes every call carry "authorization: Bearer TOKEN";
--tls-cert and --tls-key serve over TLS. Without them, keep --addr on a loopback address.`,
		Example: `  fstensor serve testdata --addr 127.0.0.1:8815
  fstensor serve data --addr 127.0.0.1:8815 --token-file token.txt --tls-cert cert.pem --tls-key key.pem`,
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
	mustComplete(cmd, "log-format", completeWords("text", "json"))
	mustComplete(cmd, "log-level", completeWords("debug", "info", "warn", "error"))
	return cmd
}

func runServe(dir string, sf serveFlags, stdout, stderr io.Writer) error {
	if (sf.cert == "") != (sf.key == "") {
		return fmt.Errorf("%w: --tls-cert and --tls-key go together", errUsage)
	}
	if sf.maxMessageMiB < 1 || sf.maxMessageMiB > 1024 {
		return fmt.Errorf("%w: --max-message-mib %d is outside [1,1024]", errUsage, sf.maxMessageMiB)
	}
	if sf.batchKiB < 1 || sf.batchKiB > sf.maxMessageMiB<<9 {
		return fmt.Errorf("%w: --batch-kib %d is outside [1,%d] (half of --max-message-mib)", errUsage, sf.batchKiB, sf.maxMessageMiB<<9)
	}
	logger, err := newLogger(sf.logFormat, sf.logLevel, stderr)
	if err != nil {
		return err
	}
	cfg := flightserve.Config{
		Dir:             dir,
		MaxMessageBytes: sf.maxMessageMiB << 20,
		BatchBytes:      sf.batchKiB << 10,
		Logger:          logger,
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
	fmt.Fprintf(stdout, "serving %s on %s://%s\n", s.Dir(), scheme, lis.Addr())
	if err := s.Serve(lis); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
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
