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

// PartSize is the size of the first parts of an Upload: 16 MiB. Every
// 1,000 parts the size doubles (up to 2 GiB; S3 takes 5 GiB), so that
// S3's 10,000 parts reach past its 5 TB object limit.
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
// upload), or in one PutObject request when they fit in the first part.
// Each part is sent while the next fills, up to the client's number of
// parts at once (WithUploadParts) over all its uploads; Write waits for
// a free one. An Upload is not safe for concurrent use (but Cancel).
type Upload struct {
	c        *Client
	ctx      context.Context
	sendCtx  context.Context    // of the parts' requests
	stop     context.CancelFunc // cancels sendCtx
	u        URL
	url      string
	buf      []byte
	sent     int   // the parts handed to send
	err      error // the first error: every later call returns it
	closed   bool
	ifAbsent *string // IfAbsent: "*", the If-None-Match of the last request

	mu        sync.Mutex // guards what Cancel and the parts' senders touch:
	id        *string    // the multipart upload's, once started
	cancelled bool
	parts     []types.CompletedPart // by part number - 1, as they are sent
	partErr   error                 // the first error of a part
	sending   sync.WaitGroup        // the parts being sent
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
	w.sendCtx, w.stop = context.WithCancel(ctx)
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

// Write adds p to the object, sending each part as it fills. A failed
// Write aborts the upload and returns the server's error (an
// *fs.PathError whose Op is "put"), which may be that of a part sent
// before.
func (w *Upload) Write(p []byte) (int, error) {
	if err := w.usable(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		// The first part's buffer grows as append grows it: a small
		// object (a dataset's file of one partition) holds about its own
		// size. The next parts take a part's size at once.
		size := w.partSize()
		if w.buf == nil && w.sent > 0 {
			w.buf = make([]byte, 0, size)
		}
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
	return int(min(int64(partBase)<<min(w.sent/1000, 20), maxPartSize))
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

// fail records err, stops the parts being sent, aborts the multipart
// upload and returns err.
func (w *Upload) fail(err error) error {
	w.err = err
	w.stopSending()
	w.abortParts()
	return err
}

// stopSending cancels the parts being sent and waits for their senders.
func (w *Upload) stopSending() {
	w.stop()
	w.sending.Wait()
}

// isCancelled reports whether Cancel ran.
func (w *Upload) isCancelled() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.cancelled
}

// partError returns the first error of a part sent.
func (w *Upload) partError() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.partErr
}

// flush hands the buffered bytes to a sender as the next part, starting
// the multipart upload first, once the client has a part free.
func (w *Upload) flush() error {
	if w.sent == maxParts {
		return w.fail(pathError("put", w.u, fmt.Errorf("more than S3's %d parts", maxParts)))
	}
	id, err := w.start()
	if err != nil {
		return w.fail(err)
	}
	if err := w.partError(); err != nil {
		return w.fail(err)
	}
	select {
	case w.c.parts <- struct{}{}:
	case <-w.sendCtx.Done(): // Cancel, or ctx's end
		err := pathError("put", w.u, w.sendCtx.Err())
		if w.isCancelled() {
			err = ErrUploadClosed
		}
		return w.fail(err)
	}
	w.mu.Lock()
	if w.cancelled {
		w.mu.Unlock()
		<-w.c.parts
		return w.fail(ErrUploadClosed)
	}
	// Under mu, as Cancel sets cancelled: no sender starts after Cancel
	// waits for them.
	w.sending.Add(1)
	w.parts = append(w.parts, types.CompletedPart{})
	w.mu.Unlock()
	w.sent++
	go w.send(id, int32(w.sent), w.buf)
	w.buf = nil
	return nil
}

// send uploads body as part num, records its ETag and checksums or the
// error, and frees the client's part.
func (w *Upload) send(id *string, num int32, body []byte) {
	defer w.sending.Done()
	defer func() { <-w.c.parts }()
	w.c.stats.requests.Add(1)
	out, err := w.c.s3.UploadPart(w.sendCtx, &s3.UploadPartInput{
		Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key), UploadId: id,
		PartNumber: aws.Int32(num), Body: bytes.NewReader(body), ContentLength: aws.Int64(int64(len(body))),
	})
	w.mu.Lock()
	defer w.mu.Unlock()
	if err != nil {
		if w.partErr == nil {
			w.partErr = pathError("put", w.u, err)
		}
		return
	}
	w.parts[num-1] = types.CompletedPart{
		PartNumber: aws.Int32(num), ETag: out.ETag,
		ChecksumCRC32: out.ChecksumCRC32, ChecksumCRC32C: out.ChecksumCRC32C, ChecksumCRC64NVME: out.ChecksumCRC64NVME,
		ChecksumSHA1: out.ChecksumSHA1, ChecksumSHA256: out.ChecksumSHA256,
	}
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
	defer w.stop()
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
	w.sending.Wait()
	w.mu.Lock()
	parts, err, cancelled := w.parts, w.partErr, w.cancelled
	w.mu.Unlock()
	switch {
	case err != nil:
		return w.fail(err)
	case cancelled:
		return w.fail(ErrUploadClosed)
	}
	w.c.stats.requests.Add(1)
	_, err = w.c.s3.CompleteMultipartUpload(w.ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(w.u.Bucket), Key: aws.String(w.u.Key), UploadId: id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
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
	w.stopSending()
	return w.abortParts()
}

// Cancel aborts the upload as Abort does, but may run concurrently with
// the other methods (from a signal handler): the parts being sent are
// stopped, those sent are deleted, and a Write or Commit under way, or
// later, fails.
func (w *Upload) Cancel() error {
	w.mu.Lock()
	w.cancelled = true
	w.mu.Unlock()
	w.stopSending()
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
