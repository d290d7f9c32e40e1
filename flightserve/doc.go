// Package flightserve serves the Arrow IPC and Parquet files of a
// directory over Arrow Flight, built on arrow-go's arrow/flight and gRPC,
// and offers a client that returns tensor columns as fixedshape arrays.
// It is the only package of this module that links gRPC.
//
// # Overview
//
// New returns a Server of a Config (the directory, an optional bearer
// token, TLS, message and batch sizes, a logger and metrics); Serve runs
// it on a listener and Shutdown stops it. It answers:
//
//   - ListFlights: a FlightInfo for every .arrow, .feather, .ipc, .arrows,
//     .stream and .parquet file under the directory (hidden ones left out),
//     described by a PATH descriptor of its path's elements;
//   - GetFlightInfo and GetSchema: the schema, with the tensor extension
//     type, the row count and the byte size of the file or directory of a
//     PATH descriptor, or of the result of a ticket in a CMD descriptor.
//     GetFlightInfo cuts a file into endpoints of about
//     Config.EndpointBytes (whole IPC record batches or Parquet row
//     groups, skipped without decoding by the others' readers) and gives a
//     directory the endpoints of every IPC and Parquet file beneath it, so
//     that an engine's workers fetch them in parallel;
//   - DoGet: the batches a Ticket names (a file, columns, a row range or
//     rows by number (tensorio.TakeFile), an
//     expression of package expr evaluated on the server, such as
//     "x[:, ::2].T", "norm(x, axis=-1)", "x.mean()" or "dot(a, b)"
//     (an expression may read several columns of the batch), compiled by
//     expr.Compile for the file's schema, which gives the result schema
//     before any data), cut to about Config.BatchBytes;
//   - DoPut: an uploaded stream written as a new file, through
//     tensorio.CreateIn, so the file appears only once complete.
//
// Tickets are JSON (see Ticket); any Flight client, pyarrow.flight
// included, sends them as bytes. Dial returns a Client whose Tensors
// method fetches one tensor column.
//
// # Layout
//
// Tensor columns travel as Arrow's canonical arrow.fixed_shape_tensor
// extension: their physical storage and the extension metadata, as in an
// IPC stream. A column an expression produced is dense row-major; a
// result of one value per row (a full reduction, a similarity) is a plain
// column.
//
// # Memory
//
// Batches stream: DoGet reads, evaluates and sends one batch at a time
// (IPC files are memory-mapped), DoPut decodes and writes one uploaded
// batch at a time, so a call holds about one batch and gRPC's flow
// control windows. Batches come from Config.Allocator; uploaded bodies
// aligned to 8 bytes are used without a copy.
//
// DoGet hands gRPC the buffers of a batch of 16 KiB or more as they are,
// pointing into the mapped file or the batch (only the message header,
// padding, small buffers and those the IPC writer rewrites, such as a
// validity bitmap sliced off a byte boundary, are copied); gRPC copies
// them once more, into its write buffer. A batch, and the file it maps,
// thus stay until gRPC has written or dropped their buffers, which may be
// after the call returned: the file is closed (unmapped) when the call
// has returned and the last of them is freed. Buffers gRPC drops without
// freeing them (queued on a connection that closed) are released when
// the garbage collector finds them. A file is mapped only under a read
// lease (tensorio.WithLeasedMmap): a process that truncates or rewrites
// it then waits while the mapping becomes a copy of the file in memory,
// and the calls sending it finish with the bytes as they were; a file
// the system grants no lease on is read batch by batch instead, as
// Config.NoMmap reads every file. Without the lease, gRPC's writer would
// read pages that are gone and the process would die of SIGBUS.
//
// # Safety
//
// The Server opens the directory once, as an os.Root, and opens, creates
// and renames every file under it through it, so no symbolic link or
// rename that others make in the directory meanwhile leads a call out of
// it. Paths in tickets and descriptors are relative, with "/"
// separators; ".", ".." and hidden elements (starting with "."), and
// symbolic links leading out of the directory are refused
// (PermissionDenied); an element over 255 bytes or a path over 4095 bytes
// is InvalidArgument. Links that stay inside are followed. DoPut writes
// only new files, in directories that exist; an upload is bounded by
// Config.MaxUploadBytes (DefaultMaxUploadBytes, 1 GiB) in bytes received
// and in decoded bytes written, and stops while the disk would keep
// 256 MiB free (ResourceExhausted both). When Config.Token is set, every
// call but health checks carries exactly one "authorization" header
// holding "Bearer TOKEN", compared in constant time; no header, two or
// more (whatever they hold) or a wrong token is Unauthenticated. Each gRPC
// message is bounded by Config.MaxMessageBytes (ResourceExhausted). Every
// message uploaded to DoPut, and every message the Client receives, is
// checked by arrowipc.NewIPCMessageReader before arrow-go decodes it:
// arrow-go's own Flight reader trusts the flatbuffer metadata.
//
// # Operations
//
// Every call, health checks included, goes through one interceptor. It
// recovers a panic of a handler (the client gets Internal, "flightserve:
// internal error", and nothing of the panic; the server keeps serving),
// checks the token, counts the call in Config.Metrics and logs it to
// Config.Logger (log/slog):
//
//   - at slog.LevelDebug, every call writes a record ("call", with
//     method, code, duration and IPC bytes); successful calls write
//     nothing else;
//   - calls refused or failed by the client's error ("rejected calls",
//     slog.LevelWarn: InvalidArgument, NotFound, Unauthenticated and the
//     other codes but those below) and by the server's ("failed calls",
//     slog.LevelError: Unknown, Internal, DataLoss, Unavailable) are
//     counted per kind (code and method), and a kind
//     writes at most one line a second, with the count since its last
//     line and the latest error; a flood of refused calls writes a few
//     lines a second, whatever its rate; calls the client cancelled or
//     let time out (Canceled, DeadlineExceeded) are counted only;
//   - a caught panic is logged ("panic", slog.LevelError) with its value
//     and stack, at most once a second per method too.
//
// The standard gRPC health service (grpc.health.v1.Health) is registered
// and needs no token, so that load balancers can probe: SERVING for ""
// and FlightService until the server stops, NOT_SERVING from then on; a
// Watch sends NOT_SERVING and ends, so that it does not hold up a
// graceful stop. Metrics serves the counters for Prometheus. Shutdown
// stops gracefully within a context's deadline, then cuts the calls
// left; Stop, GracefulStop and Shutdown return once every handler has
// returned.
//
// # Errors
//
// The server's errors are gRPC status errors whose message starts with
// "flightserve: ": InvalidArgument (a malformed ticket, a key given twice
// in one, a file or stream that fails its checks, an expression that does
// not apply, a name too long), PermissionDenied (a path leading out, a
// hidden name), NotFound, AlreadyExists, Unauthenticated,
// ResourceExhausted (a size limit), Canceled, Unimplemented (an
// expression the engine does not evaluate, such as one combining a
// variable-shape column with another) and Internal for a caught panic.
// In the server's process (and from ParseTicket), an InvalidArgument
// error also wraps arrow.ErrInvalid. Their messages name files
// relative to the served directory, never by the server's absolute path,
// cut every value echoed to 200 bytes and the whole to 1 KiB. Client
// errors are those, or errors wrapping arrow.ErrInvalid for what the
// server sent. An invalid option
// of Dial or value of Config (a nil allocator or TLS configuration, an
// empty token, a message bound below 1 MiB, a negative size) is an *Error
// wrapping fstensor.ErrOption, returned before anything is connected or
// opened.
package flightserve
