package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/fixedshape"
)

// runBin runs the built command and returns its exit code and stderr.
func runBin(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return exitAndStderr(t, exec.Command(buildBinary(t), args...))
}

// exitAndStderr runs cmd and returns its exit code and stderr.
func exitAndStderr(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), stderr.String()
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// snapshot records the names and contents of the files of a directory.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range es {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			m[e.Name()] = "-> " + l
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m[e.Name()] = string(b)
		default:
			m[e.Name()] = fi.Mode().String()
		}
	}
	return m
}

func sameSnapshot(t *testing.T, before, after map[string]string) {
	t.Helper()
	for name, b := range before {
		if a, ok := after[name]; !ok {
			t.Errorf("%s is gone", name)
		} else if a != b {
			t.Errorf("%s changed (%d bytes, was %d)", name, len(a), len(b))
		}
	}
	for name := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("%s was left behind", name)
		}
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestOutputIsInput checks that an output naming the input, directly,
// through a symbolic link or through a hard link, is refused and that the
// file is left as it was.
func TestOutputIsInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, ext := range []string{"arrow", "arrows", "parquet"} {
		for _, how := range []string{"same path", "symlink", "hard link"} {
			for _, cmd := range []string{"convert", "eval"} {
				t.Run(ext+"/"+how+"/"+cmd, func(t *testing.T) {
					dir := t.TempDir()
					in := filepath.Join(dir, "y."+ext)
					if code, stderr := runBin(t, "convert", sample("images.arrow"), in); code != 0 {
						t.Fatal(stderr)
					}
					out := in
					switch how {
					case "symlink":
						out = filepath.Join(dir, "link."+ext)
						if err := os.Symlink("y."+ext, out); err != nil {
							t.Fatal(err)
						}
					case "hard link":
						out = filepath.Join(dir, "hard."+ext)
						if err := os.Link(in, out); err != nil {
							t.Fatal(err)
						}
					}
					before := snapshot(t, dir)
					args := []string{"convert", in, out}
					if cmd == "eval" {
						args = []string{"eval", "x.T", in, "-o", out}
					}
					code, stderr := runBin(t, args...)
					if code != 2 || !strings.Contains(stderr, "is the input file") {
						t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
					}
					sameSnapshot(t, before, snapshot(t, dir))
				})
			}
		}
	}
}

// writeTwoBatchStream writes an IPC stream of two batches of images.arrow
// and returns its bytes.
func twoBatchStream(t *testing.T) []byte {
	t.Helper()
	in, err := openInput(sample("images.arrow"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if !in.Next() {
		t.Fatal(in.Err())
	}
	var buf bytes.Buffer
	w, err := arrowipc.NewIPCStreamWriter(&buf, in.Schema())
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := w.Write(in.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// startMidRun makes the named pipe in, starts the built command with args
// reading it, and feeds it the schema and the first batch of
// [twoBatchStream]: the command is then mid-run, waiting for more input.
// The pipe is closed and the command killed when the test ends.
func startMidRun(t *testing.T, in string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	if err := syscall.Mkfifo(in, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(buildBinary(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	feed, err := os.OpenFile(in, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { feed.Close() })
	stream := twoBatchStream(t)
	if _, err := feed.Write(stream[:len(stream)/2+500]); err != nil {
		t.Fatal(err)
	}
	return cmd, &stderr
}

// TestFailureKeepsOutput checks that a run that fails in the second batch
// of its input leaves an existing output byte for byte as it was, and
// leaves no temporary file.
func TestFailureKeepsOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	stream := twoBatchStream(t)
	inputs := map[string][]byte{
		"cut short": stream[:len(stream)-200],
		"corrupt":   append(stream[:len(stream)-200:len(stream)-200], bytes.Repeat([]byte{0xff}, 200)...),
	}
	for name, data := range inputs {
		for _, ext := range []string{"arrow", "arrows", "parquet", "npy", "npz"} {
			for _, cmd := range []string{"convert", "eval"} {
				t.Run(name+"/"+ext+"/"+cmd, func(t *testing.T) {
					dir := t.TempDir()
					in := filepath.Join(dir, "in.arrows")
					if err := os.WriteFile(in, data, 0o644); err != nil {
						t.Fatal(err)
					}
					out := filepath.Join(dir, "old."+ext)
					if err := os.WriteFile(out, []byte("the user's precious data"), 0o600); err != nil {
						t.Fatal(err)
					}
					before := snapshot(t, dir)
					args := []string{"convert", in, out, "--column", "image"}
					if cmd == "eval" {
						args = []string{"eval", "x.T", in, "-o", out, "--column", "image"}
					}
					code, stderr := runBin(t, args...)
					t.Log(stderr)
					if code != 1 || strings.Contains(stderr, "panic") {
						t.Errorf("exit %d, stderr %q; want 1", code, stderr)
					}
					sameSnapshot(t, before, snapshot(t, dir))
					if fi, err := os.Stat(out); err == nil && fi.Mode().Perm() != 0o600 {
						t.Errorf("mode %v", fi.Mode())
					}
				})
			}
		}
	}
}

// TestNotRegularOutput checks that a device, a named pipe or a directory
// given as the output is refused and left alone.
func TestNotRegularOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.arrows")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.arrow")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		args []string
	}{
		{"device", []string{"convert", sample("images.arrow"), os.DevNull, "--to", "arrows"}},
		{"device eval", []string{"eval", "x.T", sample("images.arrow"), "-o", os.DevNull, "--to", "arrow"}},
		{"device show", []string{"show", sample("images.arrow"), "-o", os.DevNull}},
		{"named pipe", []string{"convert", sample("images.arrow"), fifo}},
		{"directory", []string{"convert", sample("images.arrow"), sub}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := snapshot(t, dir)
			devBefore, err := os.Stat(os.DevNull)
			if err != nil {
				t.Fatal(err)
			}
			code, stderr := runBin(t, tt.args...)
			if code != 2 || !strings.Contains(stderr, "not a regular file") {
				t.Errorf("exit %d, stderr %q; want 2 and a refusal", code, stderr)
			}
			sameSnapshot(t, before, snapshot(t, dir))
			if devAfter, err := os.Stat(os.DevNull); err != nil || !os.SameFile(devBefore, devAfter) || devAfter.Mode() != devBefore.Mode() {
				t.Errorf("%s changed: %v %v", os.DevNull, devAfter, err)
			}
		})
	}
}

// TestInterrupt sends SIGINT while the command writes (its input is a
// named pipe the test feeds slowly) and checks that the old output is
// intact and no partial file is left.
func TestInterrupt(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, ext := range []string{"arrows", "arrow", "parquet"} {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(ext+"/"+sig.String(), func(t *testing.T) {
				dir := t.TempDir()
				in := filepath.Join(dir, "in.arrows")
				out := filepath.Join(dir, "old."+ext)
				if err := os.WriteFile(out, []byte("old contents"), 0o644); err != nil {
					t.Fatal(err)
				}
				// Wait for the temporary file: the command is mid-run.
				cmd, stderr := startMidRun(t, in, "eval", "x.T", in, "-o", out)
				tmp := ""
				for deadline := time.Now().Add(20 * time.Second); tmp == "" && time.Now().Before(deadline); {
					if m, _ := filepath.Glob(filepath.Join(dir, ".old."+ext+".tmp-*")); len(m) > 0 {
						tmp = m[0]
					} else {
						time.Sleep(10 * time.Millisecond)
					}
				}
				if tmp == "" {
					t.Fatalf("no temporary file appeared; stderr %q", stderr.String())
				}
				cmd.Process.Signal(sig)
				err := cmd.Wait()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != 128+int(sig) {
					t.Errorf("exit %v, want %d; stderr %q", err, 128+int(sig), stderr.String())
				}
				got := snapshot(t, dir)
				want := map[string]string{"in.arrows": "prw-r--r--", "old." + ext: "old contents"}
				if len(got) != 2 || got["old."+ext] != want["old."+ext] {
					t.Errorf("directory after the signal: %d entries, old.%s = %q", len(got), ext, got["old."+ext])
				}
			})
		}
	}
}

// TestRelabel checks that eval --relabel writes the same logical values as
// a copying eval, for expressions that relabel and ones that cannot.
func TestRelabel(t *testing.T) {
	for _, e := range []string{"x.T", "x.transpose(2, 0, 1)", "x.transpose(1, 0, 2)", "x.reshape(-1)", "x.reshape(32, 96)", "x[::2]", "x[..., 0]", "x", "x.T.T", "x[None]"} {
		for _, ext := range []string{"arrow", "arrows", "parquet", "npy"} {
			t.Run(e+"/"+ext, func(t *testing.T) {
				dir := t.TempDir()
				plain, relabel := filepath.Join(dir, "plain."+ext), filepath.Join(dir, "relabel."+ext)
				args := []string{"eval", e, sample("images.arrow"), "--column", "image"}
				if code, _, stderr := runCmd(t, append(args, "-o", plain)...); code != 0 {
					t.Fatalf("eval: %s", stderr)
				}
				code, _, stderr := runCmd(t, append(args, "-o", relabel, "--relabel")...)
				if code != 0 || strings.Contains(stderr, "panic") {
					t.Fatalf("eval --relabel: code %d, %s", code, stderr)
				}
				want := readTensorColumn(t, plain, "")
				defer want.Release()
				got := readTensorColumn(t, relabel, "")
				defer got.Release()
				if !fixedshape.Equal(want, got) {
					t.Errorf("--relabel changed the values:\n%v\n%v", want, got)
				}
				if ext == "arrow" && (e == "x.T" || e == "x.transpose(2, 0, 1)") && got.TensorType().Permutation() == nil {
					t.Errorf("%s with --relabel: type %v has no permutation", e, got.DataType())
				}
			})
		}
	}
}
