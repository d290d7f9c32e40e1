package tensorio

import (
	"bufio"
	"context"
	"io"
	"path"
	"strings"
	"time"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/objstore"
)

// streamBuffer is the size of the reads of a format read front to back
// from object storage: each is one ranged GET.
const streamBuffer = 4 << 20

// WithStore makes Open and Take read s3:// URLs through client (its
// credentials, endpoint, retries and counters of requests and bytes)
// rather than through a client configured from the environment at each
// call (objstore.NewClient). A nil client is an invalid option.
func WithStore(client *objstore.Client) Option {
	return func(c *config) {
		if client == nil {
			c.invalid("WithStore", nil, "want a client")
			return
		}
		c.store = client
	}
}

// openObject opens the object at url with the client of WithStore or a
// new one.
func (c *config) openObject(url string) (*objstore.Object, error) {
	client, err := c.client()
	if err != nil {
		return nil, err
	}
	return client.Open(context.Background(), url)
}

// client returns the client of WithStore or a new one.
func (c *config) client() (*objstore.Client, error) {
	if c.store != nil {
		return c.store, nil
	}
	return objstore.NewClient(context.Background())
}

// createObject starts the upload of Create to url, which the signal
// handler of HandleSignals cancels while it is under way.
func createObject(url string, c *config) (target, error) {
	client, err := c.client()
	if err != nil {
		return nil, err
	}
	var uo []objstore.UploadOption
	if c.newOnly {
		uo = append(uo, objstore.IfAbsent())
	}
	up, err := client.Create(context.Background(), url, uo...)
	if err != nil {
		return nil, err
	}
	done := atomicfile.AddPending(func() { cancelWithin(up, cancelWait) })
	return &upload{Upload: up, done: done}, nil
}

// cancelWait bounds the wait of the signal handler for the abort of an
// upload (its retries may take longer), after which the program exits
// and the bucket's lifecycle rule deletes the parts.
const cancelWait = 5 * time.Second

// cancelWithin cancels up, waiting at most d for the server's answer.
func cancelWithin(up *objstore.Upload, d time.Duration) {
	done := make(chan struct{})
	go func() {
		up.Cancel()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// upload is an object upload as a target of Create.
type upload struct {
	*objstore.Upload
	done func() // unregisters it from the signal handler
}

func (u *upload) Commit() error {
	defer u.done()
	return u.Upload.Commit()
}

func (u *upload) Abort() error {
	defer u.done()
	return u.Upload.Abort()
}

// openURL is Open of a URL (see objstore.IsURL): the object at url is
// read by ranged reads, its format told by WithFormat or the key's
// extension and checked against its first bytes as Open checks a file's.
func openURL(url string, c *config) (*Reader, error) {
	f, err := c.formatOf(url)
	if err != nil {
		return nil, err
	}
	if err := checkOptions(f, c); err != nil {
		return nil, err
	}
	obj, err := c.openObject(url)
	if err != nil {
		return nil, err // objstore's errors name the URL
	}
	found := sniffObject(obj)
	if c.format == "" && found != "" && found != f {
		return nil, &FormatError{Path: url, Named: f, Found: found}
	}
	r := &Reader{format: f, path: url}
	if err := r.openObjectReader(obj, c); err != nil {
		if found != "" && found != f {
			return nil, &FormatError{Path: url, Named: f, Found: found, Explicit: true, Err: err}
		}
		return nil, withPath(url, err)
	}
	return r.ready(c)
}

// openObjectReader reads obj in r's format: IPC files and Parquet by
// ranged reads of what they need, the other formats front to back.
func (r *Reader) openObjectReader(obj *objstore.Object, c *config) error {
	src := source(obj)
	nothing := func() error { return nil }
	switch r.format {
	case IPCFile:
		fr, err := arrowipc.NewIPCFileReader(src, arrowipc.WithAllocator(c.mem))
		if err != nil {
			return err
		}
		r.readBatches(fr, fr.Close)
		return nil
	case Parquet:
		return r.startStream(src, nothing, c)
	case IPCStream:
		return r.startStream(bufio.NewReaderSize(src, streamBuffer), nothing, c)
	case NPZ:
		return r.openColumns(c, func() ([]string, []*fixedshape.Array, func() error, error) {
			names, cols, err := npy.ReadNPZ(obj, obj.Size(), npy.WithAllocator(c.mem))
			return names, cols, nil, err
		})
	}
	return r.openColumns(c, func() ([]string, []*fixedshape.Array, func() error, error) {
		col, err := readColumnStream(bufio.NewReaderSize(src, streamBuffer), r.format, c)
		name := c.name
		if name == "" {
			base := path.Base(r.path)
			name = strings.TrimSuffix(base, path.Ext(base))
		}
		return []string{name}, []*fixedshape.Array{col}, nil, err
	})
}

// openIPCForTake opens the IPC file at name for Take: mapped, or by
// ranged reads for a URL.
func openIPCForTake(name string, c *config) (*arrowipc.FileReader, error) {
	if !objstore.IsURL(name) {
		return arrowipc.OpenMappedIPCFile(name, arrowipc.WithAllocator(c.mem))
	}
	obj, err := c.openObject(name)
	if err != nil {
		return nil, err
	}
	if found := sniffObject(obj); c.format == "" && found != "" && found != IPCFile {
		return nil, &FormatError{Path: name, Named: IPCFile, Found: found}
	}
	return arrowipc.NewIPCFileReader(source(obj), arrowipc.WithAllocator(c.mem))
}

// objectSource is an object as the readers of IPC files and Parquet take
// it: an io.ReaderAt and io.Seeker (an io.SectionReader), with the
// object's Prefetch, which they call before reading a record batch or a
// column chunk.
type objectSource struct {
	*io.SectionReader
	obj *objstore.Object
}

func source(obj *objstore.Object) objectSource {
	return objectSource{io.NewSectionReader(obj, 0, obj.Size()), obj}
}

// Prefetch is the object's.
func (s objectSource) Prefetch(off, n int64) error { return s.obj.Prefetch(off, n) }

// PrefetchRanges is the object's.
func (s objectSource) PrefetchRanges(ranges [][2]int64) error { return s.obj.PrefetchRanges(ranges) }

// sniffObject returns the format the first bytes of obj show (see
// Sniff), "" for none and when they cannot be read, which reading the
// object reports.
func sniffObject(obj *objstore.Object) Format {
	head := make([]byte, min(SniffLen, obj.Size()))
	if _, err := obj.ReadAt(head, 0); err != nil {
		return ""
	}
	return Sniff(head)
}
