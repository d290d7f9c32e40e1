//go:build unix

package atomicfile_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// exitedPID returns the PID of a process that has exited and been
// reaped.
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// TestRemoveStale: Create removes the temporary files of its target whose
// process has exited, and nothing else: not those of living processes
// (this one, a child), of other targets, of other name patterns, nor
// directories.
func TestRemoveStale(t *testing.T) {
	dead := strconv.Itoa(exitedPID(t))
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		child.Process.Kill()
		child.Wait()
	}()
	self, living := strconv.Itoa(os.Getpid()), strconv.Itoa(child.Process.Pid)
	dir := t.TempDir()
	files := map[string]bool{ // name: removed
		".out.tmp-" + dead + "-0123456789ab":   true,
		".out.tmp-" + self + "-0123456789ab":   false,
		".out.tmp-" + living + "-0123456789ab": false,
		".out.tmp-0123456789ab":                false, // earlier versions' name
		".out.tmp-" + dead + "-0123456789AB":   false,
		".out.tmp-" + dead + "-0123456789a":    false,
		".out.tmp-" + dead + "-0123456789abc":  false,
		".out.tmp-0" + dead + "-0123456789ab":  false,
		".out.tmp-" + dead + "x-0123456789ab":  false,
		".other.tmp-" + dead + "-0123456789ab": false,
		"out.tmp-" + dead + "-0123456789ab":    false,
	}
	for name := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	subdir := ".out.tmp-" + dead + "-ba9876543210"
	if err := os.Mkdir(filepath.Join(dir, subdir), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := atomicfile.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	if want := ".out.tmp-" + self + "-"; !strings.HasPrefix(filepath.Base(f.TempName()), want) {
		t.Errorf("temporary file %s, want a name starting with %s", f.TempName(), want)
	}
	want := []string{filepath.Base(f.TempName()), subdir}
	for name, removed := range files {
		if !removed {
			want = append(want, name)
		}
	}
	got := testvec.DirNames(t, dir)
	if diff := cmp.Diff(sortedCopy(want), sortedCopy(got)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// TestKilledWriter: the temporary file of a writer killed with SIGKILL,
// which no handler can remove, is removed by the next Create of the same
// target.
func TestKilledWriter(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out")
	cmd, line, err := startHelper(t, path)
	cmd.Process.Kill()
	cmd.Wait()
	tmp := strings.TrimSpace(line)
	if err != nil || !strings.Contains(tmp, ".out.tmp-"+strconv.Itoa(cmd.Process.Pid)+"-") {
		t.Fatalf("helper said %q, %v", line, err)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the killed writer's temporary file: %v", err)
	}
	f := write(t, path, "new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"out"}, testvec.DirNames(t, dir)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}
