package tensorio

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
	"github.com/fstensor/fstensor/objstore"
)

var (
	// ErrNoFiles reports a dataset source that names no data file: an
	// empty directory, a glob that matches nothing. It wraps
	// fs.ErrNotExist.
	ErrNoFiles = fmt.Errorf("tensorio: no data files: %w", fs.ErrNotExist)
	// ErrSchema reports a file of a dataset whose schema differs from
	// that of the dataset's first file. It wraps arrow.ErrInvalid.
	ErrSchema = fmt.Errorf("tensorio: schemas differ: %w", arrow.ErrInvalid)
)

// Dataset is a list of files read as one table: the files of a
// directory, those a glob matches, or those a list names, with the
// columns of their Hive-style directory names ("label=3"). NewDataset
// finds the files and reads none of them; Open reads them in parallel, in
// order, and Take takes rows by their number over the whole dataset.
//
// A Dataset does not change once made, and is safe for concurrent use.
type Dataset struct {
	files  []string
	format []Format // per file
	parts  []*partColumn
	cfg    *config
}

// NewDataset finds the files of src, each entry a directory, a glob or a
// file, in the order of src:
//
//   - an s3:// URL ending in "/" is a prefix, listed (objstore's List,
//     through the client of WithStore) as a directory is walked; one whose
//     key holds a glob metacharacter is a glob over the keys (as below;
//     the components before the first with a metacharacter are the prefix
//     listed; "[*]" matches a literal "*"); another s3:// URL is one
//     object;
//   - a directory stands for the files below it, recursively, in the
//     order of their paths (byte-wise); names that start with "." or "_"
//     are skipped, files and directories alike (pyarrow.dataset's
//     default: hidden files, "_SUCCESS", "_metadata", the temporary files
//     of Create), and so are files whose extension names no format
//     (unless WithFormat is given, which reads every file so);
//   - an entry with a glob metacharacter ("*", "?", "[") that names no
//     existing file is a glob, filepath.Match's, whose matches are
//     taken in path order; a "**" component matches any number of
//     directories ("data/**/*.parquet"), and names below it that start
//     with "." or "_" are skipped as in a directory;
//   - any other entry is a file, taken whatever its name.
//
// The directories of a file's path below its directory or the glob's
// directory part (the components without metacharacters) that read
// "key=value" are Hive partitions: each key becomes a column, after the
// files' columns, whose value is that of the file's directory (see
// ParseHiveDir); HiveNull and a path without the key give null. A column
// is int64 when every value parses as a decimal integer, else a string
// (pyarrow infers int32, and a string once a value overflows it; polars
// and DuckDB int64). Files named by themselves have no partitions.
//
// Options: WithFormat (the format of every file, else each file's
// extension's). Errors: ErrNoFiles when src names no file; the errors of
// the operating system (a missing directory or file) as *fs.PathError;
// an invalid Hive name (ParseHiveDir) wrapping arrow.ErrInvalid; a file
// whose extension names no format, ErrFormat.
func NewDataset(src []string, opts ...Option) (*Dataset, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	d := &Dataset{cfg: c}
	var rel []string
	for _, s := range src {
		files, rels, err := expand(s, c)
		if err != nil {
			return nil, err
		}
		d.files = append(d.files, files...)
		rel = append(rel, rels...)
	}
	if len(d.files) == 0 {
		return nil, &Error{errs.Kind(ErrNoFiles, "tensorio", "no data files in %s", strings.Join(src, ", "))}
	}
	for _, p := range d.files {
		f, err := c.formatOf(p)
		if err != nil {
			return nil, err
		}
		d.format = append(d.format, f)
	}
	if d.parts, err = hivePartitions(rel); err != nil {
		return nil, err
	}
	return d, nil
}

// Files returns the paths of the dataset's files, in the order they are
// read, in a new slice.
func (d *Dataset) Files() []string { return slices.Clone(d.files) }

// Partitions returns the fields of the partition columns, in the order of
// the batches' columns after the files' own, in a new slice.
func (d *Dataset) Partitions() []arrow.Field {
	out := make([]arrow.Field, len(d.parts))
	for i, p := range d.parts {
		out[i] = arrow.Field{Name: p.name, Type: p.typ, Nullable: true}
	}
	return out
}

// IsDatasetPath reports whether Open cannot read path as one file and
// NewDataset should: a directory, or a name with a glob metacharacter
// ("*", "?", "[") that names no existing file; an s3:// URL ending in "/"
// or whose key holds a metacharacter.
func IsDatasetPath(path string) bool {
	if objstore.IsURL(path) {
		return strings.HasSuffix(path, "/") || hasMeta(urlKey(path))
	}
	fi, err := os.Stat(path)
	if err == nil {
		return fi.IsDir()
	}
	return hasMeta(path)
}

func hasMeta(path string) bool { return strings.ContainsAny(path, "*?[") }

// urlKey returns what follows the bucket of the URL u.
func urlKey(u string) string {
	_, rest, _ := strings.Cut(u, "://")
	_, key, _ := strings.Cut(rest, "/")
	return key
}

// skipName tells whether a directory listing skips name.
func skipName(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// expand returns the files of one source entry and their paths relative
// to its base directory (slash-separated; nil entries for a file named by
// itself, which has no partitions). With anyName, a directory's files
// need no known extension.
func expand(src string, c *config) (files, rel []string, err error) {
	anyName := c.format != ""
	if objstore.IsURL(src) {
		switch {
		case strings.HasSuffix(src, "/"):
			return listPrefix(src, anyName, nil, c)
		case hasMeta(urlKey(src)):
			return globURL(src, c)
		}
		return []string{src}, []string{path.Base(src)}, nil
	}
	fi, err := os.Stat(src)
	switch {
	case err == nil && fi.IsDir():
		files, rel, err = walk(src, anyName, nil)
	case err == nil || !hasMeta(src):
		if err != nil {
			return nil, nil, err
		}
		return []string{src}, []string{filepath.Base(src)}, nil
	default:
		files, rel, err = glob(src)
	}
	return files, rel, err
}

// walk lists the files below dir that match keeps (nil: every file of a
// known format, or with anyName every file), skipping names that start
// with "." or "_", sorted by path.
func walk(dir string, anyName bool, keep func(rel string) bool) (files, rel []string, err error) {
	err = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		if skipName(e.Name()) {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if e.IsDir() {
			return nil
		}
		r, _ := filepath.Rel(dir, p)
		r = filepath.ToSlash(r)
		switch {
		case keep != nil && !keep(r):
			return nil
		case keep == nil && !anyName:
			if _, err := FormatOf(p); err != nil {
				return nil
			}
		}
		files, rel = append(files, p), append(rel, r)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int { return strings.Compare(files[a], files[b]) })
	sf, sr := make([]string, len(idx)), make([]string, len(idx))
	for k, i := range idx {
		sf[k], sr[k] = files[i], rel[i]
	}
	return sf, sr, nil
}

// listPrefix lists the objects under the prefix url ("s3://b/data/") as
// a directory's files: keys in order, names (of any element below the
// prefix) starting with "." or "_" skipped, and keys that keep refuses or
// (keep nil) whose extension names no format unless anyName; rel is each
// key below the prefix.
func listPrefix(url string, anyName bool, keep func(rel string) bool, c *config) (files, rel []string, err error) {
	client, err := c.client()
	if err != nil {
		return nil, nil, err
	}
	entries, err := client.List(context.Background(), url)
	if err != nil {
		return nil, nil, err
	}
	u, err := objstore.ParseURL(url)
	if err != nil {
		return nil, nil, err
	}
	for _, e := range entries {
		r := strings.TrimPrefix(e.Key, u.Key)
		if r == "" || strings.HasSuffix(r, "/") || slices.ContainsFunc(strings.Split(r, "/"), skipName) {
			continue
		}
		switch {
		case keep != nil && !keep(r):
			continue
		case keep == nil && !anyName:
			if _, err := FormatOf(r); err != nil {
				continue
			}
		}
		files = append(files, objstore.URL{Bucket: u.Bucket, Key: e.Key}.String())
		rel = append(rel, r)
	}
	return files, rel, nil
}

// globURL lists the objects the s3:// URL pattern matches, as glob
// lists files: the key's components up to the first with a
// metacharacter are a prefix, listed; the keys below it match the
// components that follow ("**" any number of them).
func globURL(pattern string, c *config) (files, rel []string, err error) {
	u, err := objstore.ParseURL(pattern)
	if err != nil {
		return nil, nil, err
	}
	parts := strings.Split(u.Key, "/")
	k := 0
	for k < len(parts)-1 && !hasMeta(parts[k]) {
		k++
	}
	rest := parts[k:]
	if err := checkPattern(pattern, rest); err != nil {
		return nil, nil, err
	}
	prefix := objstore.URL{Bucket: u.Bucket, Key: strings.Join(parts[:k], "/")}.String()
	if k > 0 {
		prefix += "/"
	}
	return listPrefix(prefix, true, func(r string) bool { return matchParts(rest, strings.Split(r, "/")) }, c)
}

// checkPattern checks the components pat of the glob pattern.
func checkPattern(pattern string, pat []string) error {
	for _, p := range pat {
		if _, err := filepath.Match(p, ""); err != nil {
			return &Error{errs.Make("tensorio", "glob %q: %v", pattern, err)}
		}
	}
	return nil
}

// glob lists the files pattern matches, in path order, with their paths
// relative to its directory part. A "**" component matches any number of
// directories.
func glob(pattern string) (files, rel []string, err error) {
	parts := strings.Split(filepath.ToSlash(pattern), "/")
	k := 0
	for k < len(parts)-1 && !hasMeta(parts[k]) {
		k++
	}
	base := strings.Join(parts[:k], "/")
	if base == "" {
		base = "."
		if strings.HasPrefix(pattern, "/") {
			base = "/"
		}
	}
	rest := parts[k:]
	if err := checkPattern(pattern, rest); err != nil {
		return nil, nil, err
	}
	base = filepath.FromSlash(base)
	if _, err := os.Stat(base); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	return walk(base, true, func(r string) bool { return matchParts(rest, strings.Split(r, "/")) })
}

// matchParts tells whether the path components name match the pattern
// components pat, a "**" matching any number of components.
func matchParts(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		for i := 0; i <= len(name); i++ {
			if matchParts(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, _ := filepath.Match(pat[0], name[0])
	return ok && matchParts(pat[1:], name[1:])
}
