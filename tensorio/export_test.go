package tensorio

import (
	"os"

	"github.com/apache/arrow-go/v18/arrow"
)

// SetTestHook makes f run at the start of every Writer.Write ("write")
// and Writer.Close ("close") until the returned function restores the
// previous hook.
func SetTestHook(f func(op string)) (restore func()) {
	old := testHook
	testHook = f
	return func() { testHook = old }
}

// TakeTruncated takes rows of the IPC file at path as Take does, but
// truncates the file to size bytes after mapping it and before reading
// its batches. With unleased, the file is held open for writing while it
// is mapped, so that the system grants no lease on it, and truncated
// through that descriptor.
func TakeTruncated(path string, rows []int64, size int64, unleased bool, opts ...Option) (arrow.RecordBatch, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	truncate := func() error { return os.Truncate(path, size) }
	if unleased {
		w, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		defer w.Close()
		truncate = func() error { return w.Truncate(size) }
	}
	fr, err := openIPCForTake(path, c)
	if err != nil {
		return nil, err
	}
	defer fr.Close()
	if err := truncate(); err != nil {
		return nil, err
	}
	return takeIPC(fr, path, rows, c)
}
