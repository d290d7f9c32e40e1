package objstore

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"strings"
	"sync/atomic"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// DefaultMaxAttempts is the number of attempts of one request (the first
// and the retries) unless WithRetries or AWS_MAX_ATTEMPTS says otherwise.
const DefaultMaxAttempts = 5

// DefaultMaxBackoff is the longest wait between two attempts unless
// WithRetries says otherwise.
const DefaultMaxBackoff = 20 * time.Second

// DefaultUploadParts is the number of parts the uploads of a Client
// send at once, unless WithUploadParts says otherwise.
const DefaultUploadParts = 4

// defaultRegion is the region of a configuration that names none: S3
// needs one to sign requests, and S3-compatible servers take any.
const defaultRegion = "us-east-1"

// Client reads, lists and writes objects of S3 and S3-compatible
// servers. It is safe for concurrent use; its counters (Stats) add up the
// requests of every Object it opened.
type Client struct {
	s3      *s3.Client
	retryer *retry.Standard
	stats   counters
	parts   chan struct{} // a slot per part of its uploads being sent
}

// counters are the figures of Stats, updated atomically.
type counters struct {
	requests, bytes atomic.Int64
}

// Stats counts what a Client or an Object asked of the server.
type Stats struct {
	// Requests is the number of requests made (HEAD, GET, LIST, PUT,
	// DELETE and those of multipart uploads), each counted once whatever
	// its retries.
	Requests int64
	// BytesRead is the number of object bytes received by ranged GETs,
	// retried ones included.
	BytesRead int64
}

func (c *counters) stats() Stats {
	return Stats{Requests: c.requests.Load(), BytesRead: c.bytes.Load()}
}

// Option configures NewClient.
type Option func(*options)

type options struct {
	maxAttempts int
	maxBackoff  time.Duration
	retriesSet  bool // by WithRetries, which AWS_MAX_ATTEMPTS does not override
	endpoint    string
	uploadParts int
	err         error
}

// WithRetries sets the number of attempts of each request (1 means no
// retry) and the longest wait between two: the waits grow exponentially
// from 50 ms (1 s after throttling) with full jitter, up to maxBackoff.
// Defaults: DefaultMaxAttempts (or AWS_MAX_ATTEMPTS), DefaultMaxBackoff.
// maxAttempts below 1 or a maxBackoff not above 0 fails NewClient with
// an error wrapping fstensor.ErrOption.
func WithRetries(maxAttempts int, maxBackoff time.Duration) Option {
	return func(o *options) {
		switch {
		case maxAttempts < 1:
			o.err = optionError("WithRetries", maxAttempts, "at least one attempt is needed")
		case maxBackoff <= 0:
			o.err = optionError("WithRetries", maxBackoff, "the longest wait must be positive")
		default:
			o.maxAttempts, o.maxBackoff, o.retriesSet = maxAttempts, maxBackoff, true
		}
	}
}

// WithUploadParts sets the number of parts that the uploads of the
// client (Client.Create) send at once, all uploads together: each holds
// a part's bytes in memory while it is sent, so an upload holds at most
// n+1 parts (the one it fills). 1 sends one part at a time. Default:
// DefaultUploadParts. n below 1 fails NewClient with an error wrapping
// fstensor.ErrOption.
func WithUploadParts(n int) Option {
	return func(o *options) {
		if n < 1 {
			o.err = optionError("WithUploadParts", n, "at least one part must be sent at a time")
			return
		}
		o.uploadParts = n
	}
}

// WithEndpoint sends the requests to url (such as
// "http://127.0.0.1:9000") with path-style addressing, as
// AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL does, which it overrides.
func WithEndpoint(url string) Option {
	return func(o *options) { o.endpoint = url }
}

// NewClient returns a client configured as the AWS SDK configures one
// from the environment and the shared config and credentials files
// (AWS_ACCESS_KEY_ID, AWS_PROFILE, AWS_REGION, ~/.aws/config, ...):
// credentials, region (us-east-1 when none is set) and endpoint
// (AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL). With an endpoint set, requests
// use path-style addressing (http://host/bucket/key), as S3-compatible
// servers expect. Errors are those of loading the configuration.
func NewClient(ctx context.Context, opts ...Option) (*Client, error) {
	o := options{maxAttempts: DefaultMaxAttempts, maxBackoff: DefaultMaxBackoff, uploadParts: DefaultUploadParts}
	for _, opt := range opts {
		opt(&o)
	}
	if o.err != nil {
		return nil, o.err
	}
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, err
	}
	if cfg.Region == "" {
		cfg.Region = defaultRegion
	}
	retryer := retry.NewStandard(func(so *retry.StandardOptions) {
		so.MaxAttempts, so.MaxBackoff = o.maxAttempts, o.maxBackoff
		if !o.retriesSet && cfg.RetryMaxAttempts > 0 {
			so.MaxAttempts = cfg.RetryMaxAttempts
		}
	})
	client := s3.NewFromConfig(cfg, func(so *s3.Options) {
		if o.endpoint != "" {
			so.BaseEndpoint = aws.String(o.endpoint)
		}
		so.UsePathStyle = so.BaseEndpoint != nil
		so.Retryer = retryer
		// A checksum of the whole object cannot check a range: not asking
		// for it spares servers computing it at every ranged GET.
		so.ResponseChecksumValidation = aws.ResponseChecksumValidationWhenRequired
		so.DisableLogOutputChecksumValidationSkipped = true
		so.RetryMaxAttempts = 0 // retryer holds the count
	})
	return &Client{s3: client, retryer: retryer, parts: make(chan struct{}, o.uploadParts)}, nil
}

// Stats returns what the client asked of the server so far, over all its
// objects.
func (c *Client) Stats() Stats { return c.stats.stats() }

// listPageSize is the number of keys List asks for a page, 0 for the
// server's default (1000 on S3); tests set it.
var listPageSize int32

// Entry is an object found by List.
type Entry struct {
	Key  string // the object's key in the bucket
	Size int64  // in bytes
}

// List returns the objects whose keys start with the key of url, a
// prefix ("s3://bucket/data/" lists what lies under data/,
// "s3://bucket" the whole bucket), in the order of their keys (UTF-8
// binary order, as S3 lists them), reading every page of the listing.
// Errors: an invalid url is an *Error wrapping ErrURL; the server's errors
// are *fs.PathError values (a missing bucket wraps fs.ErrNotExist).
func (c *Client) List(ctx context.Context, url string) ([]Entry, error) {
	u, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	var out []Entry
	in := &s3.ListObjectsV2Input{Bucket: aws.String(u.Bucket), Prefix: aws.String(u.Key)}
	if listPageSize > 0 {
		in.MaxKeys = aws.Int32(listPageSize)
	}
	pages := s3.NewListObjectsV2Paginator(c.s3, in)
	for pages.HasMorePages() {
		c.stats.requests.Add(1)
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, pathError("list", u, err)
		}
		for _, o := range page.Contents {
			out = append(out, Entry{Key: aws.ToString(o.Key), Size: aws.ToInt64(o.Size)})
		}
	}
	return out, nil
}

// Put writes the size bytes of body as the object at url, in one
// PutObject request: the object appears whole when Put returns nil, and
// an object of the same key stays as it was when Put fails. S3 takes up
// to 5 GiB in one request. Errors are List's.
func (c *Client) Put(ctx context.Context, url string, body io.ReadSeeker, size int64) error {
	u, err := objectURL(url)
	if err != nil {
		return err
	}
	c.stats.requests.Add(1)
	_, err = c.s3.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(u.Bucket), Key: aws.String(u.Key),
		Body: body, ContentLength: aws.Int64(size),
	})
	if err != nil {
		return pathError("put", u, err)
	}
	return nil
}

// Delete removes the object at url. Deleting a key that holds no object
// is not an error (S3 answers it as a success). Errors are List's.
func (c *Client) Delete(ctx context.Context, url string) error {
	u, err := objectURL(url)
	if err != nil {
		return err
	}
	c.stats.requests.Add(1)
	if _, err := c.s3.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(u.Bucket), Key: aws.String(u.Key)}); err != nil {
		return pathError("delete", u, err)
	}
	return nil
}

// objectURL parses the URL of an object: a key is needed, and a key
// ending in "/" names a prefix, not an object.
func objectURL(url string) (URL, error) {
	u, err := ParseURL(url)
	if err != nil {
		return URL{}, err
	}
	if u.Key == "" || strings.HasSuffix(u.Key, "/") {
		return URL{}, urlError(url, "no key of an object")
	}
	return u, nil
}

// pathError returns the error of operation op on u that the server (or
// the connection to it) returned: an *fs.PathError whose Err wraps err
// and, for the HTTP statuses that mean it, fs.ErrNotExist (404),
// fs.ErrPermission (401, 403) or fs.ErrExist (412, a failed If-None-Match).
func pathError(op string, u URL, err error) error {
	var kind error
	var re *awshttp.ResponseError
	if errors.As(err, &re) {
		switch re.HTTPStatusCode() {
		case 404:
			kind = fs.ErrNotExist
		case 401, 403:
			kind = fs.ErrPermission
		case 412: // a conditional write (IfAbsent) found an object
			kind = fs.ErrExist
		}
	}
	return &fs.PathError{Op: op, Path: u.String(), Err: &serviceError{kind: kind, err: err}}
}

// serviceError is the Err of pathError's *fs.PathError.
type serviceError struct {
	kind error // fs.ErrNotExist, fs.ErrPermission or nil
	err  error
}

func (e *serviceError) Error() string {
	if e.kind != nil {
		return "objstore: " + e.kind.Error() + ": " + e.err.Error()
	}
	return "objstore: " + e.err.Error()
}

func (e *serviceError) Unwrap() []error {
	if e.kind == nil {
		return []error{e.err}
	}
	return []error{e.kind, e.err}
}
