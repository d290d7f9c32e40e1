package objstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// PartSize is the size of the first parts of an Upload: 16 MiB, so that
// an upload holds at most one part in memory. Every 1,000 parts the size
// doubles (up to 2 GiB; S3 takes 5 GiB), so that S3's 10,000 parts reach
// past its 5 TB object limit.
const PartSize = 16 << 20

// Limits of S3's multipart uploads, and the largest part made here
// (2 GiB, which int holds on 32-bit systems too).
const (
	maxParts    = 10_000
	maxPartSize = math.MaxInt32
)

// ErrUploadClosed is returned by the methods of an Upload after Commit or
// Abort.
var ErrUploadClosed = errors.New("objstore: the upload is committed or aborted")

// Upload writes an object of S3 as a stream: nothing appears at its URL
// before Commit succeeds, and an object of the same key stays as it was
// until then, and for ever after Abort or a failed Write or Commit. The
// bytes written go out in parts of PartSize bytes and more (a multipart
// upload, one part in memory and one request at a time), or in one
// PutObject request when they fit in the first part. An Upload is not
// safe for concurrent use.
type Upload struct {
	c        *Client
	ctx      context.Context
	u        URL
	url      string
	buf      []byte
	parts    []types.CompletedPart
	err      error // the first error: every later call returns it
	closed   bool
	ifAbsent *string // IfAbsent: "*", the If-None-Match of the last request

	mu        sync.Mutex // guards id and cancelled, which Cancel reads
	id        *string    // the multipart upload's, once started
	cancelled bool
}

// Create starts writing the object at url; ctx bounds every request of
// the upload. Options: IfAbsent. Errors: an invalid url (or one without a
// key) is an *Error wrapping ErrURL; nothing is asked of the server
// before the first part is full or Commit.
func (c *Client) Create(ctx context.Context, url string, opts ...UploadOption) (*Upload, error) {
	u, err := objectURL(url)
	if err != nil {
		return nil, err
	}
	w := &Upload{c: c, ctx: ctx, u: u, url: url}
	for _, o := range opts {
		o(w)
	}
	return w, nil
}

// UploadOption configures Client.Create.
type UploadOption func(*Upload)

// IfAbsent makes the upload create a new object only: Commit fails with
// an error wrapping fs.ErrExist, and leaves the key as it is, when the
// key holds an object by then (S3's conditional write, If-None-Match: *,
// checked by the server as the object appears).
func IfAbsent() UploadOption { return func(w *Upload) { w.ifAbsent = aws.String("*") } }

// Name returns the URL the upload writes.
func (w *Upload) Name() string { return w.url }

// Write adds p to the object, uploading each part as it fills. A failed
// Write aborts the upload and returns the server's error (an
// *fs.PathError whose Op is "put").
func (w *Upload) Write(p []byte) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		// The buffer grows as append grows it: a small object (a dataset's
		// file of one partition) holds about its own size.
		size := w.partSize()
		k := min(len(p), size-len(w.buf))
		w.buf = append(w.buf, p[:k]...)
		p = p[k:]
		if len(w.buf) == size {
			if err := w.flush(); err != nil {
				return 0, err
			}
		}
	}
	return n, nil
}

// partSize is the size of the part being filled.
func (w *Upload) partSize() int {
	return int(min(int64(partBase)<<min(len(w.parts)/1000, 20), maxPartSize))
}

// partBase is PartSize but in tests, which make parts of S3's smallest
// size, 5 MiB.
var partBase = PartSize

// usable returns the error that ends the upload, if any.
func (w *Upload) usable() error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrUploadClosed
	}
	return nil
}

// fail records err, aborts the multipart upload and returns err.
func (w *Upload) fail(err error) error {
	w.err = err
	w.abortParts()
	return err
}

// flush uploads the buffered bytes as the next part, starting the
// multipart upload first.
func (w *Upload) flush() error {
	if len(w.parts) == maxParts {
		return w.fail(pathError("put", w.u, fmt.Errorf("more than S3's %d parts", maxParts)))
	}
	id, err := w.start()
	if err != nil {
		return w.fail(err)
	}
	num := int32(len(w.parts) + 1)
	w.c.stats.requests.Add(1)
	out, err := w.c.s3.UploadPart(w.ctx, &s3.UploadPartInput{
		Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key), UploadId: id,
		PartNumber: aws.Int32(num), Body: bytes.NewReader(w.buf), ContentLength: aws.Int64(int64(len(w.buf))),
	})
	if err != nil {
		return w.fail(pathError("put", w.u, err))
	}
	w.parts = append(w.parts, types.CompletedPart{
		PartNumber: aws.Int32(num), ETag: out.ETag,
		ChecksumCRC32: out.ChecksumCRC32, ChecksumCRC32C: out.ChecksumCRC32C, ChecksumCRC64NVME: out.ChecksumCRC64NVME,
		ChecksumSHA1: out.ChecksumSHA1, ChecksumSHA256: out.ChecksumSHA256,
	})
	w.buf = w.buf[:0]
	return nil
}

// start returns the ID of the multipart upload, starting it the first
// time.
func (w *Upload) start() (*string, error) {
	w.mu.Lock()
	id, cancelled := w.id, w.cancelled
	w.mu.Unlock()
	if cancelled {
		return nil, ErrUploadClosed
	}
	if id != nil {
		return id, nil
	}
	w.c.stats.requests.Add(1)
	out, err := w.c.s3.CreateMultipartUpload(w.ctx, &s3.CreateMultipartUploadInput{Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key)})
	if err != nil {
		return nil, pathError("put", w.u, err)
	}
	w.mu.Lock()
	w.id, cancelled = out.UploadId, w.cancelled
	w.mu.Unlock()
	if cancelled { // Cancel ran meanwhile and found nothing to abort
		w.abortParts()
		return nil, ErrUploadClosed
	}
	return out.UploadId, nil
}

// Commit writes what remains and makes the object appear at its URL,
// whole. On error the upload is aborted and the object of that key, if
// any, stays as it was.
func (w *Upload) Commit() error {
	if err := w.usable(); err != nil {
		return err
	}
	w.closed = true
	w.mu.Lock()
	id, cancelled := w.id, w.cancelled
	w.mu.Unlock()
	if cancelled {
		return ErrUploadClosed
	}
	if id == nil {
		w.c.stats.requests.Add(1)
		_, err := w.c.s3.PutObject(w.ctx, &s3.PutObjectInput{
			Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key),
			Body: bytes.NewReader(w.buf), ContentLength: aws.Int64(int64(len(w.buf))),
			IfNoneMatch: w.ifAbsent,
		})
		w.buf = nil
		if err != nil {
			w.err = pathError("put", w.u, err)
		}
		return w.err
	}
	if len(w.buf) > 0 {
		if err := w.flush(); err != nil {
			return err // the parts are aborted
		}
	}
	w.buf = nil
	w.c.stats.requests.Add(1)
	_, err := w.c.s3.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key), UploadId: id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: w.parts},
		IfNoneMatch:     w.ifAbsent,
	})
	if err != nil {
		return w.fail(pathError("put", w.u, err))
	}
	return nil
}

// Abort discards the upload: the parts uploaded are deleted
// (AbortMultipartUpload) and the object of that key, if any, stays as it
// was. It returns the error of the abort request; after Commit or Abort
// it does nothing and returns nil.
func (w *Upload) Abort() error {
	if w.closed {
		return nil
	}
	w.closed = true
	w.buf = nil
	return w.abortParts()
}

// Cancel aborts the upload as Abort does, but may run concurrently with
// the other methods (from a signal handler): the parts uploaded so far
// are deleted, and a Write or Commit under way, or later, fails.
func (w *Upload) Cancel() error {
	w.mu.Lock()
	w.cancelled = true
	w.mu.Unlock()
	return w.abortParts()
}

// abortParts deletes the parts of a started multipart upload, once.
func (w *Upload) abortParts() error {
	w.mu.Lock()
	id := w.id
	w.id = nil
	w.mu.Unlock()
	if id == nil {
		return nil
	}
	w.c.stats.requests.Add(1)
	// A cancelled ctx must not leave the parts behind (S3 bills them).
	ctx := context.WithoutCancel(w.ctx)
	_, err := w.c.s3.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key), UploadId: id})
	if err != nil {
		return pathError("abort", w.u, err)
	}
	return nil
}
