package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateIn starts the new file name inside root (a name relative to
// root, as os.Root takes it): a temporary file in name's directory,
// created through root with 0666 less the umask. Every step (the
// creation, Commit's link and its removal of the temporary file, Abort)
// goes through root's methods, so no symbolic link or rename that others
// make in the tree meanwhile can lead a step out of root.
//
// Unlike Create, CreateIn writes new files only and follows no link at
// name: it fails with an error wrapping fs.ErrExist when name exists, and
// Commit fails so, leaving name as it is, when name appeared meanwhile.
// Commit makes the file appear at name by a hard link, falling back to a
// rename where the file system has no hard links (a file appearing
// between its check and the rename is then replaced). Name and TempName
// of the File are relative to root.
func CreateIn(root *os.Root, name string) (*File, error) {
	name = filepath.Clean(name)
	if _, err := root.Lstat(name); err == nil {
		return nil, &fs.PathError{Op: "create", Path: name, Err: fs.ErrExist}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	dir, base := filepath.Split(name)
	var f *os.File
	var err error
	for range 100 {
		var tmp string
		if tmp, err = tempName(base); err != nil {
			return nil, err
		}
		tmp = filepath.Join(dir, tmp)
		f, err = openPendingIn(root, tmp)
		if err == nil {
			return &File{f: f, target: name, tmp: tmp, root: root}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	return nil, err
}

// openPendingIn creates name in root exclusively and registers it as
// pending.
func openPendingIn(root *os.Root, name string) (*os.File, error) {
	mu.Lock()
	defer mu.Unlock()
	f, err := root.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
	if err == nil {
		pending[filepath.Join(root.Name(), name)] = true
	}
	return f, err
}

// pendingName is the name of the temporary file in the pending registry:
// a path, for RemovePending.
func (f *File) pendingName() string {
	if f.root != nil {
		return filepath.Join(f.root.Name(), f.tmp)
	}
	return f.tmp
}

// publish makes the temporary file the target: a rename over it, or for
// CreateIn a link that refuses an existing target.
func (f *File) publish() error {
	if f.root == nil {
		return os.Rename(f.tmp, f.target)
	}
	err := f.root.Link(f.tmp, f.target)
	if err == nil || errors.Is(err, fs.ErrExist) {
		if err == nil {
			f.root.Remove(f.tmp)
		}
		return err
	}
	// No hard links here (EPERM, ENOTSUP and the like): rename unless
	// the target appeared.
	if _, err := f.root.Lstat(f.target); !errors.Is(err, fs.ErrNotExist) {
		return &fs.PathError{Op: "create", Path: f.target, Err: fs.ErrExist}
	}
	return f.root.Rename(f.tmp, f.target)
}

// removeTemp removes the temporary file.
func (f *File) removeTemp() error {
	if f.root != nil {
		return f.root.Remove(f.tmp)
	}
	return os.Remove(f.tmp)
}

// syncRootDir makes a link or rename in dir, inside root, durable.
func syncRootDir(root *os.Root, dir string) error { return syncOpenedDir(root.Open(dir)) }
