package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// RemoveStale removes the temporary files that Create made for the
// target path (its symbolic links already followed, as Create resolves
// them) in processes that no longer run: the regular files of the
// target's directory named exactly ".NAME.tmp-PID-RANDOM", with NAME the
// target's base name, PID a process number other than this process's
// and RANDOM 12 lower-case hex digits, for which no process PID exists
// (kill(PID, 0) fails with ESRCH). A file of a living process, of
// another target or of another pattern (such as ".NAME.tmp-RANDOM", as
// earlier versions wrote) is left alone, and so is everything on systems
// without Unix signals. Errors are ignored: this is housekeeping.
//
// PIDs are those of the process's PID namespace: a directory that
// processes of several namespaces (containers) write into can see the
// temporary file of a living writer of another namespace as stale.
func RemoveStale(target string) {
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	prefix := "." + base + ".tmp-"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	self := os.Getpid()
	for _, e := range ents {
		pid, ok := tempPID(e.Name(), prefix)
		if !ok || pid == self || !e.Type().IsRegular() || alive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

// tempPID returns the PID of a temporary file name prefix+"PID-RANDOM",
// reporting whether name has exactly that form.
func tempPID(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	p, rnd, ok := strings.Cut(rest, "-")
	if !ok || len(rnd) != 12 || len(p) == 0 || len(p) > 10 || p[0] == '0' {
		return 0, false
	}
	for _, c := range []byte(rnd) {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return 0, false
		}
	}
	for _, c := range []byte(p) {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	pid, err := strconv.Atoi(p)
	return pid, err == nil && pid > 0
}
