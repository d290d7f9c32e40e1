package flightserve

import (
	"cmp"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"google.golang.org/grpc/codes"

	"github.com/fstensor/fstensor/tensorio"
)

// Limits of names in tickets and descriptors, those of Linux (NAME_MAX
// and PATH_MAX) and of most file systems.
const (
	maxNameBytes = 255  // one element of a path
	maxPathBytes = 4095 // a whole path, relative to the served directory
)

// openRoot opens the served directory dir as an os.Root, through which
// every file under it is opened, created and renamed, and returns it
// with the absolute names of the directory that errors may carry
// (longest first), for scrub.
func openRoot(dir, resolved string) (*os.Root, []string, error) {
	root, err := os.OpenRoot(resolved)
	if err != nil {
		return nil, nil, err
	}
	names := []string{resolved}
	if abs, err := filepath.Abs(dir); err == nil && abs != resolved {
		names = append(names, abs)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return root, names, nil
}

// checkRel checks the form of a relative path of a ticket or descriptor
// and returns its format: too long a path or element and a path not
// relative with "/" separators are InvalidArgument, ".", ".." and hidden
// elements (starting with ".") PermissionDenied.
func checkRel(rel string) (tensorio.Format, error) {
	if err := checkRelForm(rel); err != nil {
		return "", err
	}
	f, err := tensorio.FormatOf(rel)
	if err != nil || !servedFormat(f) {
		return "", statusf(codes.InvalidArgument, "flightserve: path %q is not an Arrow IPC or Parquet file (.arrow, .feather, .ipc, .arrows, .stream, .parquet)", clipString(rel))
	}
	return f, nil
}

// checkRelForm checks the form of a relative path, as checkRel does,
// whatever it names.
func checkRelForm(rel string) error {
	if len(rel) > maxPathBytes {
		return statusf(codes.InvalidArgument, "flightserve: path %q of %d bytes exceeds %d bytes", clipString(rel), len(rel), maxPathBytes)
	}
	if rel == "" || strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) || filepath.VolumeName(rel) != "" {
		return statusf(codes.InvalidArgument, "flightserve: path %q is not a relative path with / separators", clipString(rel))
	}
	for el := range strings.SplitSeq(rel, "/") {
		switch {
		case len(el) > maxNameBytes:
			return statusf(codes.InvalidArgument, "flightserve: path %q: element %q of %d bytes exceeds %d bytes", clipString(rel), clipString(el), len(el), maxNameBytes)
		case el == "" || el == "." || el == "..":
			return statusf(codes.PermissionDenied, "flightserve: path %q: element %q is refused", clipString(rel), el)
		case el[0] == '.':
			return statusf(codes.PermissionDenied, "flightserve: path %q: hidden element %q is refused", clipString(rel), clipString(el))
		}
	}
	return nil
}

// servedFormat reports whether files of format f are served.
func servedFormat(f tensorio.Format) bool {
	return f == tensorio.IPCFile || f == tensorio.IPCStream || f == tensorio.Parquet
}

// openRel opens the existing regular file rel under the served
// directory through the server's os.Root, so that no symbolic link, met
// at the time of opening, leads out of the directory, and returns it
// with its format and its information.
func (s *Server) openRel(rel string) (*os.File, tensorio.Format, fs.FileInfo, error) {
	format, err := checkRel(rel)
	if err != nil {
		return nil, "", nil, err
	}
	// O_NONBLOCK: opening a named pipe must not wait for a writer.
	f, err := s.dir.OpenFile(filepath.FromSlash(rel), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "", nil, openError(rel, err)
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, "", nil, statusf(codes.NotFound, "flightserve: path %q is not a regular file", clipString(rel))
	}
	return f, format, fi, nil
}

// checkNew checks that DoPut may write the new file rel: its directory
// exists under the served directory, and rel does not.
func (s *Server) checkNew(rel string) error {
	if _, err := checkRel(rel); err != nil {
		return err
	}
	if dir := path.Dir(rel); dir != "." {
		fi, err := s.dir.Stat(filepath.FromSlash(dir))
		if err != nil {
			return openError(dir, err)
		}
		if !fi.IsDir() {
			return statusf(codes.NotFound, "flightserve: %q is not a directory", clipString(dir))
		}
	}
	if _, err := s.dir.Lstat(filepath.FromSlash(rel)); !errors.Is(err, fs.ErrNotExist) {
		return statusf(codes.AlreadyExists, "flightserve: %q exists; DoPut writes new files only", clipString(rel))
	}
	return nil
}

// openError gives an error of opening rel through the os.Root a code,
// without saying where a symbolic link leads: NotFound for what does not
// exist, PermissionDenied for the rest (links leading out of the
// directory, files the server may not read).
func openError(rel string, err error) error {
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return statusf(codes.NotFound, "flightserve: path %q does not exist", clipString(rel))
	}
	return statusf(codes.PermissionDenied, "flightserve: path %q leads out of the served directory or cannot be read", clipString(rel))
}
