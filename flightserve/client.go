package flightserve

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/batchreader"
)

// ClientOption configures Dial.
type ClientOption func(*clientConfig)

type clientConfig struct {
	token  string
	tls    *tls.Config
	maxMsg int
	batch  int
	mem    memory.Allocator
	err    error // of the first invalid option
}

// invalid records the error of an invalid option value, keeping the
// first.
func (c *clientConfig) invalid(name string, value any, why string) {
	if c.err == nil {
		c.err = optionError(name, value, why)
	}
}

// WithToken sends "Bearer tok" in the authorization header of every call.
// An empty tok is an invalid option.
func WithToken(tok string) ClientOption {
	return func(c *clientConfig) {
		if tok == "" {
			c.invalid("WithToken", tok, "want a token")
			return
		}
		c.token = tok
	}
}

// WithTLS connects over TLS with cfg (plaintext without it). A nil cfg
// is an invalid option.
func WithTLS(cfg *tls.Config) ClientOption {
	return func(c *clientConfig) {
		if cfg == nil {
			c.invalid("WithTLS", nil, "want a TLS configuration")
			return
		}
		c.tls = cfg
	}
}

// WithMaxMessageBytes bounds each gRPC message received or sent
// (DefaultMaxMessageBytes by default); Put cuts batches to half of it.
// An n below 1 MiB is an invalid option.
func WithMaxMessageBytes(n int) ClientOption {
	return func(c *clientConfig) {
		if n < minMaxMessageBytes {
			c.invalid("WithMaxMessageBytes", n, "want 1 MiB (1048576) or more")
			return
		}
		c.maxMsg = n
	}
}

// WithAllocator allocates the batches the client decodes and encodes
// (memory.DefaultAllocator by default). A nil mem is an invalid option.
func WithAllocator(mem memory.Allocator) ClientOption {
	return func(c *clientConfig) {
		if mem == nil {
			c.invalid("WithAllocator", nil, "want an allocator")
			return
		}
		c.mem = mem
	}
}

// Client calls a Flight server of this package (or any Flight server
// taking the same tickets). Every message it receives is checked before
// arrow-go decodes it. A Client is safe for concurrent use.
type Client struct {
	fc  flight.Client
	cfg clientConfig
}

// Dial connects to the Flight server at addr ("127.0.0.1:8815"). An
// invalid option value fails it, before it connects, with an *Error
// wrapping fstensor.ErrOption; a nil ClientOption is ignored.
func Dial(addr string, opts ...ClientOption) (*Client, error) {
	cfg := clientConfig{maxMsg: DefaultMaxMessageBytes, mem: memory.DefaultAllocator}
	for _, o := range opts {
		if o != nil {
			o(&cfg)
		}
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	cfg.batch = min(DefaultBatchBytes, cfg.maxMsg/2)
	creds := insecure.NewCredentials()
	if cfg.tls != nil {
		creds = credentials.NewTLS(cfg.tls)
	}
	fc, err := flight.NewClientWithMiddleware(addr, nil, nil,
		grpc.WithTransportCredentials(creds),
		grpc.WithInitialWindowSize(windowBytes),
		grpc.WithInitialConnWindowSize(2*windowBytes),
		grpc.WithWriteBufferSize(bufferBytes),
		grpc.WithReadBufferSize(bufferBytes),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(cfg.maxMsg), grpc.MaxCallSendMsgSize(cfg.maxMsg)))
	if err != nil {
		return nil, fmt.Errorf("flightserve: dial %s: %w", addr, err)
	}
	return &Client{fc: fc, cfg: cfg}, nil
}

// Close closes the connection.
func (c *Client) Close() error { return c.fc.Close() }

func (c *Client) ctx(ctx context.Context) context.Context {
	if c.cfg.token == "" {
		return ctx
	}
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+c.cfg.token)
}

// Info describes a file, a directory, or the result of a ticket.
type Info struct {
	// Ticket reads the whole of what Info describes (for a directory, it
	// names the directory, which DoGet refuses: read its Endpoints).
	Ticket Ticket
	Schema *arrow.Schema // tensor columns have fixedshape types
	Rows   int64         // -1 when unknown
	Bytes  int64         // of the whole file, or of the directory's files
	// Endpoints are the parts a client may fetch in parallel, in order:
	// together they hold every row of Ticket's result.
	Endpoints []Endpoint
}

// Endpoint is one part of a FlightInfo: the ticket that fetches it, and
// its rows and bytes as the server states them (-1 when it does not).
type Endpoint struct {
	Ticket Ticket
	Rows   int64
	Bytes  int64
}

func (c *Client) decodeInfo(fi *flight.FlightInfo) (Info, error) {
	var in Info
	if err := arrowipc.CheckSchemaMessage(fi.GetSchema()); err != nil {
		return in, fmt.Errorf("flightserve: flight info: %w", err)
	}
	schema, err := flight.DeserializeSchema(fi.GetSchema(), c.cfg.mem)
	if err != nil {
		return in, fmt.Errorf("flightserve: flight info: %w", err)
	}
	in.Schema, in.Rows, in.Bytes = schema, fi.GetTotalRecords(), fi.GetTotalBytes()
	for _, ep := range fi.GetEndpoint() {
		if ep.GetTicket() == nil {
			return in, fmt.Errorf("flightserve: flight info: an endpoint without a ticket: %w", arrow.ErrInvalid)
		}
		t, err := ParseTicket(ep.GetTicket().GetTicket())
		if err != nil {
			return in, err
		}
		e := Endpoint{Ticket: t, Rows: -1, Bytes: -1}
		if md := ep.GetAppMetadata(); len(md) > 0 {
			var n struct{ Rows, Bytes *int64 }
			if json.Unmarshal(md, &n) == nil && n.Rows != nil && n.Bytes != nil {
				e.Rows, e.Bytes = *n.Rows, *n.Bytes
			}
		}
		in.Endpoints = append(in.Endpoints, e)
	}
	d := fi.GetFlightDescriptor()
	switch {
	case d != nil && d.GetType() == flight.DescriptorCMD:
		if in.Ticket, err = ParseTicket(d.GetCmd()); err != nil {
			return in, err
		}
	case d != nil && d.GetType() == flight.DescriptorPATH:
		in.Ticket = Ticket{Path: strings.Join(d.GetPath(), "/")}
	case len(in.Endpoints) > 0:
		in.Ticket = in.Endpoints[0].Ticket
	}
	return in, nil
}

// List returns the files the server lists.
func (c *Client) List(ctx context.Context) ([]Info, error) {
	st, err := c.fc.ListFlights(c.ctx(ctx), &flight.Criteria{})
	if err != nil {
		return nil, err
	}
	var out []Info
	for {
		fi, err := st.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		in, err := c.decodeInfo(fi)
		if err != nil {
			return nil, err
		}
		out = append(out, in)
	}
}

// Info returns the schema and row count of what t selects.
func (c *Client) Info(ctx context.Context, t Ticket) (Info, error) {
	fi, err := c.fc.GetFlightInfo(c.ctx(ctx), &flight.FlightDescriptor{Type: flight.DescriptorCMD, Cmd: t.Marshal()})
	if err != nil {
		return Info{}, err
	}
	return c.decodeInfo(fi)
}

// Get calls DoGet with t and returns its batches as they arrive, tensor
// columns as fixedshape arrays. The caller releases the reader; releasing
// it before the end cancels the call.
func (c *Client) Get(ctx context.Context, t Ticket) (array.RecordReader, error) {
	ctx, cancel := context.WithCancel(c.ctx(ctx))
	st, err := c.fc.DoGet(ctx, &flight.Ticket{Ticket: t.Marshal()})
	if err != nil {
		cancel()
		return nil, err
	}
	next := func() ([]byte, []byte, error) {
		fd, err := st.Recv()
		if err != nil {
			return nil, nil, err
		}
		return fd.DataHeader, fd.DataBody, nil
	}
	rr, err := arrowipc.NewIPCMessageReader(next, arrowipc.WithAllocator(c.cfg.mem), arrowipc.WithBodySizeLimit(int64(c.cfg.maxMsg)))
	if err != nil {
		cancel()
		return nil, err
	}
	schema, nextBatch, closeMessages := batchreader.Take(rr)
	return batchreader.New(schema, nextBatch, func() error {
		err := closeMessages()
		cancel()
		return err
	}), nil
}

// Tensors calls DoGet with t and returns the tensor column named column
// of all its batches, concatenated into one array. The caller releases it.
func (c *Client) Tensors(ctx context.Context, t Ticket, column string) (*fixedshape.Array, error) {
	r, err := c.Get(ctx, t)
	if err != nil {
		return nil, err
	}
	defer r.Release()
	idx := r.Schema().FieldIndices(column)
	if len(idx) != 1 {
		return nil, fmt.Errorf("flightserve: the result has %d columns named %q: %w", len(idx), column, arrow.ErrInvalid)
	}
	typ, ok := fixedshape.TypeOfField(r.Schema().Field(idx[0]))
	if !ok {
		return nil, fmt.Errorf("flightserve: column %q is a %v, not a tensor column: %w", column, r.Schema().Field(idx[0]).Type, arrow.ErrInvalid)
	}
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for r.Next() {
		col := r.RecordBatch().Column(idx[0])
		col.Retain()
		parts = append(parts, col)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	var out arrow.Array
	if len(parts) == 0 {
		out = array.MakeArrayOfNull(c.cfg.mem, typ, 0)
	} else if out, err = array.Concatenate(parts, c.cfg.mem); err != nil {
		return nil, fmt.Errorf("flightserve: column %q: %w", column, err)
	}
	a, ok := out.(*fixedshape.Array)
	if !ok {
		out.Release()
		return nil, fmt.Errorf("flightserve: column %q came back as %T: %w", column, out, arrow.ErrInvalid)
	}
	return a, nil
}

// Put uploads the batches of r with DoPut as the new file path (relative
// to the served directory; the extension picks the format), cutting them
// to about 4 MiB, and returns the rows the server wrote.
func (c *Client) Put(ctx context.Context, path string, r array.RecordReader) (int64, error) {
	ctx, cancel := context.WithCancel(c.ctx(ctx))
	defer cancel()
	st, err := c.fc.DoPut(ctx)
	if err != nil {
		return 0, err
	}
	w := flight.NewRecordWriter(st, ipc.WithSchema(r.Schema()), ipc.WithAllocator(c.cfg.mem))
	w.SetFlightDescriptor(&flight.FlightDescriptor{Type: flight.DescriptorPATH, Path: []string{path}})
	rows := batchRows(r.Schema(), c.cfg.batch)
	werr := func() error {
		for r.Next() {
			rec := r.RecordBatch()
			for lo := int64(0); lo < rec.NumRows(); lo += rows {
				part := rec.NewSlice(lo, min(lo+rows, rec.NumRows()))
				err := w.Write(part)
				part.Release()
				if err != nil {
					return err
				}
			}
		}
		if err := r.Err(); err != nil {
			cancel() // the server must not write a partial file
			return err
		}
		return w.Close()
	}()
	if werr != nil && !errors.Is(werr, io.EOF) {
		return 0, werr
	}
	if err := st.CloseSend(); err != nil {
		return 0, err
	}
	var res PutResult
	for {
		pr, err := st.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, err
		}
		if err := json.Unmarshal(pr.GetAppMetadata(), &res); err != nil {
			return 0, fmt.Errorf("flightserve: put result %q: %w", pr.GetAppMetadata(), arrow.ErrInvalid)
		}
	}
	return res.Rows, nil
}
