package objstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// Object is an object of a bucket opened for reading: an io.ReaderAt of
// Size bytes whose every ReadAt is one ranged GET (Range: bytes=a-b),
// made with the context Open was given, unless Prefetch holds the bytes.
// It is safe for concurrent ReadAt and Prefetch calls. An Object holds
// no connection, and no buffer but those of Prefetch, which the garbage
// collector frees with it: it needs no Close.
type Object struct {
	c     *Client
	ctx   context.Context
	url   URL
	size  int64
	etag  string
	stats counters
	held  held // of Prefetch
}

var _ io.ReaderAt = (*Object)(nil)

// Open opens the object at url with one HEAD request, which gives its
// size and ETag. The reads that follow ask for that version of the
// object (If-Match): an object replaced meanwhile fails them rather than
// mixing the bytes of two versions. ctx is kept for the reads.
//
// Errors: an invalid url, or one without a key, is an *Error wrapping
// ErrURL (and arrow.ErrInvalid); the server's errors are *fs.PathError
// values naming url, wrapping fs.ErrNotExist for a missing key or bucket
// and fs.ErrPermission for a refused request.
func (c *Client) Open(ctx context.Context, url string) (*Object, error) {
	u, err := ParseURL(url)
	if err != nil {
		return nil, err
	}
	if u.Key == "" {
		return nil, urlError(url, "no key")
	}
	c.stats.requests.Add(1)
	head, err := c.s3.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(u.Bucket), Key: aws.String(u.Key)})
	if err != nil {
		return nil, pathError("open", u, err)
	}
	o := &Object{c: c, ctx: ctx, url: u, size: aws.ToInt64(head.ContentLength), etag: aws.ToString(head.ETag)}
	o.stats.requests.Add(1)
	return o, nil
}

// URL returns the object's URL.
func (o *Object) URL() string { return o.url.String() }

// Size returns the object's size in bytes, as HEAD gave it.
func (o *Object) Size() int64 { return o.size }

// Stats returns what the object asked of the server: its HEAD and its
// GETs.
func (o *Object) Stats() Stats { return o.stats.stats() }

// ReadAt reads len(p) bytes at offset off of the object with one ranged
// GET, as io.ReaderAt does: it returns io.EOF when fewer bytes remain
// (and no request when none do). A GET whose body breaks off (a
// connection reset) is asked again for the bytes still missing, as many
// times as the client retries a request, waiting as it does; the SDK
// retries the GET itself on throttling, 5xx answers and connection
// errors. Errors are *fs.PathError values naming the URL.
func (o *Object) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "read", Path: o.URL(), Err: fmt.Errorf("objstore: negative offset %d", off)}
	}
	if off >= o.size {
		return 0, io.EOF
	}
	want := p
	if rest := o.size - off; int64(len(want)) > rest {
		want = want[:rest]
	}
	if len(want) == 0 {
		return 0, nil
	}
	if b, ok := o.held.lookup(off, int64(len(want))); ok {
		n := copy(want, b)
		if len(want) < len(p) {
			return n, io.EOF
		}
		return n, nil
	}
	n := 0
	for attempt := 1; ; attempt++ {
		k, err := o.get(want[n:], off+int64(n))
		n += k
		if err == nil {
			break
		}
		if !broken(err) || attempt >= o.c.retryer.MaxAttempts() || o.ctx.Err() != nil {
			return n, err
		}
		if err := o.wait(attempt, err); err != nil {
			return n, err
		}
	}
	if len(want) < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// get fills p with the bytes at off of the object in one ranged GET; it
// returns how many it read before an error. An error reading the body is
// a *fs.PathError wrapping errBroken.
func (o *Object) get(p []byte, off int64) (int, error) {
	o.countRequest()
	rng := "bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(off+int64(len(p))-1, 10)
	in := &s3.GetObjectInput{Bucket: aws.String(o.url.Bucket), Key: aws.String(o.url.Key), Range: aws.String(rng)}
	if o.etag != "" {
		in.IfMatch = aws.String(o.etag)
	}
	out, err := o.c.s3.GetObject(o.ctx, in)
	if err != nil {
		return 0, pathError("read", o.url, err)
	}
	defer out.Body.Close()
	if l := out.ContentLength; l != nil && *l != int64(len(p)) {
		return 0, &fs.PathError{Op: "read", Path: o.URL(), Err: fmt.Errorf("objstore: asked for %s, the server sent %d bytes (Content-Range %q)", rng, *l, aws.ToString(out.ContentRange))}
	}
	n, err := io.ReadFull(out.Body, p)
	o.countBytes(n)
	if err != nil {
		return n, &fs.PathError{Op: "read", Path: o.URL(), Err: fmt.Errorf("objstore: %w after %d of %d bytes of %s: %w", errBroken, n, len(p), rng, err)}
	}
	return n, nil
}

// countRequest adds a GET to the counters of o and its client.
func (o *Object) countRequest() {
	o.stats.requests.Add(1)
	o.c.stats.requests.Add(1)
}

// countBytes adds n bytes received to the counters of o and its client.
func (o *Object) countBytes(n int) {
	o.stats.bytes.Add(int64(n))
	o.c.stats.bytes.Add(int64(n))
}

// errBroken marks a GET whose body broke off.
var errBroken = errors.New("body broke off")

func broken(err error) bool { return errors.Is(err, errBroken) }

// wait sleeps as the client's retryer waits before attempt+1.
func (o *Object) wait(attempt int, cause error) error {
	d, err := o.c.retryer.RetryDelay(attempt, cause)
	if err != nil {
		return cause
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-o.ctx.Done():
		return &fs.PathError{Op: "read", Path: o.URL(), Err: o.ctx.Err()}
	}
}
