package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestMissingOutputDirectory: an output in a directory that does not
// exist is reported as such, by its name, never through the temporary
// file's.
func TestMissingOutputDirectory(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"convert", []string{"convert", sample("images.arrow"), filepath.Join(dir, "out", "x.arrow")}},
		{"convert npy", []string{"convert", sample("images.arrow"), filepath.Join(dir, "out", "x.npy"), "--column", "image"}},
		{"eval", []string{"eval", "x.T", sample("images.arrow"), "-o", filepath.Join(dir, "a", "b", "x.parquet")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != 1 || !strings.Contains(stderr, "no directory") || strings.Contains(stderr, ".tmp-") {
				t.Errorf("exit %d, stderr %q; want 1 and the missing directory named", code, stderr)
			}
		})
	}
}

// TestStaleTemporaries: a run onto an output removes the temporary files
// of that output left by processes that have exited, and keeps those of
// living processes and of other outputs.
func TestStaleTemporaries(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	dead, self := strconv.Itoa(exited.Process.Pid), strconv.Itoa(os.Getpid())
	dir := t.TempDir()
	out := filepath.Join(dir, "out.arrow")
	for _, name := range []string{".out.arrow.tmp-" + dead + "-0123456789ab", ".out.arrow.tmp-" + self + "-0123456789ab", ".other.arrow.tmp-" + dead + "-0123456789ab"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if code, stderr := runBin(t, "convert", sample("images.arrow"), out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	want := []string{".other.arrow.tmp-" + dead + "-0123456789ab", ".out.arrow.tmp-" + self + "-0123456789ab", "out.arrow"}
	if diff := cmp.Diff(want, testvec.DirNames(t, dir)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}

// TestKilledRun: the temporary file of a run killed with SIGKILL (no
// handler runs) is removed by the next run onto the same output.
func TestKilledRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in.arrows")
	out := filepath.Join(dir, "out.arrows")
	cmd, stderr := startMidRun(t, in, "convert", in, out)
	prefix := ".out.arrows.tmp-" + strconv.Itoa(cmd.Process.Pid) + "-"
	var tmp []string
	for deadline := time.Now().Add(20 * time.Second); len(tmp) == 0 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		tmp, _ = filepath.Glob(filepath.Join(dir, prefix+"*"))
	}
	if len(tmp) == 0 {
		t.Fatalf("no temporary file %s* appeared; stderr %q", prefix, stderr.String())
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(tmp[0]); err != nil {
		t.Fatalf("the killed run's temporary file: %v", err)
	}
	if code, stderr := runBin(t, "convert", sample("images.arrow"), out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if diff := cmp.Diff([]string{"in.arrows", "out.arrows"}, testvec.DirNames(t, dir)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}
