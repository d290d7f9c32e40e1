package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

// ErrNotRegular reports a target that exists but is not a regular file.
var ErrNotRegular = errors.New("atomicfile: not a regular file")

// maxLinks bounds the symbolic links followed to find the target, as the
// kernel's ELOOP limit does.
const maxLinks = 40

// File is a temporary file that becomes the target on Commit. It has no
// Close method, so a writer that closes its sink when it is an io.Closer
// cannot end the write: only Commit or Abort does. Its methods are not
// safe for concurrent use.
type File struct {
	f      *os.File
	path   string // the target path as the caller gave it, for errors
	target string // the resolved target path
	tmp    string
	done   bool
	root   *os.Root // of CreateIn, which target and tmp are relative to
}

// Create starts a new version of the file at path: a temporary file
// ".NAME.tmp-PID-RANDOM" (PID the process's, RANDOM 12 hex digits) in the
// directory of the resolved target (path with its symbolic links
// followed), with the permission bits of the existing target or, for a
// new file, 0666 less the umask. It first removes the temporary files of
// the same target that processes no longer running left behind (see
// RemoveStale). It fails with an error wrapping ErrNotRegular when the
// target exists but is not a regular file, and with a *fs.PathError
// naming path (never the temporary file) and wrapping fs.ErrNotExist
// when the target's directory does not exist. The caller ends the write
// with Commit or Abort.
func Create(path string) (*File, error) {
	target, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	perm := fs.FileMode(0o666)
	keep := false
	if fi, err := os.Stat(target); err == nil {
		if !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%w: %s is a %s", ErrNotRegular, path, kind(fi.Mode()))
		}
		perm, keep = fi.Mode().Perm(), true
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	RemoveStale(target)
	dir, base := filepath.Split(target)
	var f *os.File
	for range 100 {
		var tmp string
		if tmp, err = tempName(base); err != nil {
			return nil, err
		}
		f, err = openPending(filepath.Join(dir, tmp), perm)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, createError(path, filepath.Dir(target), err)
	}
	af := &File{f: f, path: path, target: target, tmp: f.Name()}
	if keep {
		// The umask applied at creation: set the target's bits exactly.
		if err := f.Chmod(perm); err != nil {
			af.Abort()
			return nil, af.outErr("chmod", err)
		}
	}
	return af, nil
}

// tempName returns a new name for a temporary file of the target named
// base: ".BASE.tmp-PID-RANDOM", the form RemoveStale recognizes.
func tempName(base string) (string, error) {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	return "." + base + ".tmp-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(rnd[:]), nil
}

// createError returns the error of creating the temporary file for path
// in dir as one about path: a missing directory is named as such.
func createError(path, dir string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return &fs.PathError{Op: "create", Path: path, Err: &noDirError{dir: dir}}
	}
	return &fs.PathError{Op: "create", Path: path, Err: errnoOf(err)}
}

// noDirError reports a missing directory. It wraps fs.ErrNotExist.
type noDirError struct{ dir string }

func (e *noDirError) Error() string { return "no directory " + strconv.Quote(e.dir) }
func (e *noDirError) Unwrap() error { return fs.ErrNotExist }

// errnoOf returns the cause of an error of package os without the path
// it names.
func errnoOf(err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err
	case errors.As(err, &le):
		return le.Err
	}
	return err
}

// outErr returns the error of operation op on the temporary file as a
// *fs.PathError about the target as the caller named it.
func (f *File) outErr(op string, err error) error {
	return &fs.PathError{Op: op, Path: f.path, Err: errnoOf(err)}
}

// Resolve returns path with the symbolic links of its last element
// followed, up to the file they lead to, which need not exist: the path
// Create replaces.
func Resolve(path string) (string, error) {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", &fs.PathError{Op: "resolve", Path: path, Err: errors.New("too many levels of symbolic links")}
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "directory"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// Write writes to the temporary file. Errors are *fs.PathError values
// naming the target.
func (f *File) Write(p []byte) (int, error) {
	n, err := f.f.Write(p)
	if err != nil {
		err = f.outErr("write", err)
	}
	return n, err
}

// Name returns the path of the file that Commit replaces (the target, its
// symbolic links followed).
func (f *File) Name() string { return f.target }

// TempName returns the path of the temporary file.
func (f *File) TempName() string { return f.tmp }

// Commit syncs the temporary file to disk, renames it over the target and
// syncs the directory. On failure the temporary file is removed and the
// target is left as it was. Commit after Commit or Abort returns an error
// wrapping os.ErrClosed. Errors are *fs.PathError values naming the
// target (or its directory), never the temporary file.
func (f *File) Commit() error {
	if f.done {
		return &fs.PathError{Op: "commit", Path: f.path, Err: os.ErrClosed}
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		f.Abort()
		return f.outErr("sync", err)
	}
	mu.Lock()
	err = f.publish()
	if err != nil {
		f.removeTemp()
	}
	delete(pending, f.pendingName())
	mu.Unlock()
	f.done = true
	if err != nil {
		return f.outErr("rename", err)
	}
	if f.root != nil {
		return syncRootDir(f.root, filepath.Dir(f.target))
	}
	return syncDir(filepath.Dir(f.target))
}

// Abort closes and removes the temporary file, leaving the target as it
// was. It does nothing after Commit or Abort.
func (f *File) Abort() error {
	if f.done {
		return nil
	}
	f.done = true
	f.f.Close()
	mu.Lock()
	err := f.removeTemp()
	delete(pending, f.pendingName())
	mu.Unlock()
	if err != nil {
		return f.outErr("remove", err)
	}
	return nil
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory are not an error.
func syncDir(dir string) error { return syncOpenedDir(os.Open(dir)) }

// syncOpenedDir syncs and closes d, a directory opened with error err
// (returned as is). File systems that cannot sync a directory are not an
// error.
func syncOpenedDir(d *os.File, err error) error {
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	if err != nil && !errors.Is(err, errors.ErrUnsupported) && !isInvalid(err) {
		return err
	}
	return nil
}

// pending holds the temporary files not yet committed or aborted, for the
// signal handler; mu also orders Commit's rename against the handler.
var (
	mu      sync.Mutex
	pending = map[string]bool{}
	aborts  = map[*func()]bool{} // of AddPending
)

// AddPending registers abort, which RemovePending (the signal handler)
// calls, for an output that is not a file, such as an upload; the
// returned function unregisters it, once the output is committed or
// aborted. abort may run concurrently with the output's own methods, and
// should return within seconds: the program exits after it.
func AddPending(abort func()) (done func()) {
	mu.Lock()
	defer mu.Unlock()
	key := &abort
	aborts[key] = true
	return func() {
		mu.Lock()
		defer mu.Unlock()
		delete(aborts, key)
	}
}

// openPending creates name exclusively and registers it as pending.
func openPending(name string, perm fs.FileMode) (*os.File, error) {
	mu.Lock()
	defer mu.Unlock()
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err == nil {
		pending[name] = true
	}
	return f, err
}

// RemovePending removes every pending temporary file and returns with the
// registry locked, so that no Commit can rename one afterwards: it is for
// a program about to exit, as the signal handler is.
func RemovePending() {
	mu.Lock()
	for name := range pending {
		os.Remove(name)
		delete(pending, name)
	}
	for abort := range aborts {
		(*abort)()
		delete(aborts, abort)
	}
}
