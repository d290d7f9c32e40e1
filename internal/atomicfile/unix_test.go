//go:build unix

package atomicfile_test

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

func TestNewFileMode(t *testing.T) {
	umask := syscall.Umask(0o022)
	defer syscall.Umask(umask)
	path := filepath.Join(t.TempDir(), "new")
	if err := write(t, path, "x").Commit(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644 (0666 less umask 022)", fi.Mode().Perm())
	}
}

// TestMain runs the helper process of TestSignal when asked to.
func TestMain(m *testing.M) {
	if path := os.Getenv("ATOMICFILE_HELPER"); path != "" {
		helper(path)
		return
	}
	os.Exit(m.Run())
}

// helper starts a write of path, prints the temporary file's name and
// waits for a signal.
func helper(path string) {
	atomicfile.HandleSignals()
	f, err := atomicfile.Create(path)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(3)
	}
	f.Write([]byte("partial"))
	fmt.Println(f.TempName())
	select {}
}

// startHelper starts the helper process on path and returns it with the
// first line it printed (the temporary file's name) and the error of
// reading that line.
func startHelper(t *testing.T, path string) (*exec.Cmd, string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "ATOMICFILE_HELPER="+path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	return cmd, line, err
}

func TestSignal(t *testing.T) {
	tests := []struct {
		name string
		sig  syscall.Signal
		code int
	}{
		{"SIGINT", syscall.SIGINT, 130},
		{"SIGTERM", syscall.SIGTERM, 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd, line, err := startHelper(t, path)
			if err != nil || !strings.Contains(line, ".out.tmp-") {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("helper said %q, %v", line, err)
			}
			if _, err := os.Stat(strings.TrimSpace(line)); err != nil {
				t.Errorf("temporary file: %v", err)
			}
			cmd.Process.Signal(tt.sig)
			err = cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tt.code {
				t.Errorf("exit %v, want code %d", err, tt.code)
			}
			if got := testvec.DirNames(t, dir); len(got) != 1 || got[0] != "out" {
				t.Errorf("directory holds %v, want [out]", got)
			}
			if got := readString(t, path); got != "old" {
				t.Errorf("target %q, want %q", got, "old")
			}
		})
	}
}
