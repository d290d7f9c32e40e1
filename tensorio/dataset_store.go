package tensorio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/objstore"
)

// datasetStore is where a DatasetWriter writes its files, named relative
// to the dataset's root with "/" ("label=3/part-00000.parquet"): a local
// directory or a prefix of object storage.
type datasetStore interface {
	// names returns the names of the files directly in dir ("" for the
	// root); a dir that does not exist holds none.
	names(dir string) ([]string, error)
	// create starts writing the file at name, as Create does, but never
	// over an existing file (an error wrapping fs.ErrExist).
	create(name string, schema *arrow.Schema, opts []Option) (*Writer, error)
	// remove deletes the file at name, which the writer completed.
	remove(name string)
	// close ends the writing; with abort, what the store made for the
	// dataset (directories) goes too, when empty.
	close(abort bool) error
}

// emptyError is the error of a dataset root that holds files already.
func emptyError(dir, what string) error {
	return &fs.PathError{Op: "create dataset", Path: dir, Err: fmt.Errorf("%s not empty (add files with WithAddFiles): %w", what, fs.ErrExist)}
}

// openStore makes or checks the root of a dataset: dir, or the prefix of
// a URL (objstore.IsURL). Unless add, a root that holds files fails with
// an error wrapping fs.ErrExist.
func openStore(dir string, add bool, c *config) (datasetStore, error) {
	if objstore.IsURL(dir) {
		return openPrefixStore(dir, add, c)
	}
	return openDirStore(dir, add)
}

// dirStore is a local directory, written through an os.Root.
type dirStore struct {
	dir      string
	root     *os.Root
	madeDirs []string // the directories made, outermost first ("." the root)
}

func openDirStore(dir string, add bool) (*dirStore, error) {
	s := &dirStore{dir: dir}
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		s.madeDirs = append(s.madeDirs, ".")
	case err != nil:
		return nil, err
	case len(ents) > 0 && !add:
		return nil, emptyError(dir, "directory")
	}
	s.root, err = os.OpenRoot(dir)
	return s, err
}

func (s *dirStore) names(dir string) ([]string, error) {
	if dir == "" {
		dir = "."
	}
	ents, err := fs.ReadDir(s.root.FS(), dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	out := make([]string, len(ents))
	for i, e := range ents {
		out[i] = e.Name()
	}
	return out, nil
}

func (s *dirStore) create(name string, schema *arrow.Schema, opts []Option) (*Writer, error) {
	if err := s.mkdirs(path.Dir(name)); err != nil {
		return nil, err
	}
	return CreateIn(s.root, name, schema, opts...)
}

// mkdirs makes the directories of dir that do not exist, remembering
// them.
func (s *dirStore) mkdirs(dir string) error {
	if dir == "." {
		return nil
	}
	parts := strings.Split(dir, "/")
	for i := range parts {
		d := path.Join(parts[:i+1]...)
		if _, err := s.root.Stat(d); err == nil {
			continue
		}
		if err := s.root.Mkdir(d, 0o777); err != nil {
			return err
		}
		s.madeDirs = append(s.madeDirs, d)
	}
	return nil
}

func (s *dirStore) remove(name string) { s.root.Remove(name) }

func (s *dirStore) close(abort bool) error {
	if !abort {
		return s.root.Close()
	}
	for _, d := range slices.Backward(s.madeDirs) {
		if d != "." {
			s.root.Remove(d) // fails, leaving it, unless empty
		}
	}
	s.root.Close()
	if len(s.madeDirs) > 0 && s.madeDirs[0] == "." {
		os.Remove(s.dir)
	}
	return nil
}

// prefixStore is a prefix of object storage, "s3://bucket/prefix/": its
// files are objects, each written as Create writes one (appearing whole
// when complete), and it has no directories to make.
type prefixStore struct {
	client *objstore.Client
	prefix string // the URL of the root, ending with "/"
}

func openPrefixStore(dir string, add bool, c *config) (*prefixStore, error) {
	u, err := objstore.ParseURL(dir)
	if err != nil {
		return nil, err
	}
	client, err := c.client()
	if err != nil {
		return nil, err
	}
	if u.Key != "" && !strings.HasSuffix(u.Key, "/") {
		u.Key += "/"
	}
	s := &prefixStore{client: client, prefix: u.String()}
	if !add {
		ents, err := client.List(context.Background(), s.prefix)
		if err != nil {
			return nil, err
		}
		if len(ents) > 0 {
			return nil, emptyError(dir, "prefix")
		}
	}
	return s, nil
}

func (s *prefixStore) names(dir string) ([]string, error) {
	p := s.prefix
	if dir != "" {
		p += dir + "/"
	}
	ents, err := s.client.List(context.Background(), p)
	if err != nil {
		return nil, err
	}
	u, err := objstore.ParseURL(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if name := strings.TrimPrefix(e.Key, u.Key); !strings.Contains(name, "/") {
			out = append(out, name)
		}
	}
	return out, nil
}

// create starts the object at name as a new object only (S3 would
// replace one): the key is checked first, and the upload's Commit is
// conditional (objstore.IfAbsent), so that a writer adding files next
// to another's fails rather than overwrite them, as CreateIn does.
func (s *prefixStore) create(name string, schema *arrow.Schema, opts []Option) (*Writer, error) {
	url := s.prefix + name
	switch _, err := s.client.Open(context.Background(), url); {
	case err == nil:
		return nil, &fs.PathError{Op: "create", Path: url, Err: fs.ErrExist}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, err
	}
	return Create(url, schema, append(opts, WithStore(s.client), func(c *config) { c.newOnly = true })...)
}

func (s *prefixStore) remove(name string) {
	s.client.Delete(context.Background(), s.prefix+name)
}

func (s *prefixStore) close(bool) error { return nil }
