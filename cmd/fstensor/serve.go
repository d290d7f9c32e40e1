package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
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
	maxUploadMiB               int
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
--tls-cert and --tls-key serve over TLS. Without them, keep --addr on a loopback address.

Hidden names (an element starting with "."), elements over 255 bytes and paths over 4095
bytes are refused. --max-upload-mib bounds each upload (default 1024 MiB), counted in
bytes received and in decoded bytes written; an upload over it, or one that would leave
the disk under 256 MiB free, is refused with RESOURCE_EXHAUSTED and leaves no file.
Errors name files relative to DIR.`,
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
	fs.IntVar(&sf.maxUploadMiB, "max-upload-mib", flightserve.DefaultMaxUploadBytes>>20, "the largest upload (DoPut) received or written, in MiB")
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
	if sf.batchKiB < 1 || sf.batchKiB > sf.maxMessageMiB<<9 {
		return fmt.Errorf("%w: --batch-kib %d is outside [1,%d] (half of --max-message-mib)", errUsage, sf.batchKiB, sf.maxMessageMiB<<9)
	}
	if sf.maxUploadMiB < 1 || sf.maxUploadMiB > maxUploadMiB {
		return fmt.Errorf("%w: --max-upload-mib %d is outside [1,%d]", errUsage, sf.maxUploadMiB, maxUploadMiB)
	}
	cfg := flightserve.Config{
		Dir:             dir,
		MaxMessageBytes: sf.maxMessageMiB << 20,
		MaxUploadBytes:  int64(sf.maxUploadMiB) << 20,
		BatchBytes:      sf.batchKiB << 10,
		Logf: func(format string, args ...any) {
			fmt.Fprintf(stderr, "fstensor serve: "+format+"\n", args...)
		},
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
		fmt.Fprintf(stderr, "fstensor serve: warning: %s is not a loopback address and calls are not protected by both --tls-cert and --token-file\n", lis.Addr())
	}
	fmt.Fprintf(stdout, "serving %s on %s://%s\n", s.Dir(), scheme, lis.Addr())
	if err := s.Serve(lis); err != nil && !errors.Is(err, net.ErrClosed) {
		return err
	}
	return nil
}
