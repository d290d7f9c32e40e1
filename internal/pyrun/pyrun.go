// Package pyrun runs Python scripts from tests that check fstensor against
// pyarrow and NumPy. It is test support: nothing outside _test.go files
// imports it.
//
// The interpreter is $FSTENSOR_PYTHON, else the repository's .venv, else
// python3 on the PATH. Tests skip, with a message, when it or a module they
// need is missing; CI installs them, so there they run.
package pyrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Python returns the interpreter to use, after checking that it imports
// every module named; it skips the test otherwise.
func Python(t testing.TB, modules ...string) string {
	t.Helper()
	py := interpreter()
	if py == "" {
		t.Skip("python not found: set FSTENSOR_PYTHON or create .venv (see .ci/run)")
	}
	for _, m := range modules {
		if out, err := exec.Command(py, "-c", "import "+m).CombinedOutput(); err != nil {
			t.Skipf("%s cannot import %s (%v): %s", py, m, err, bytes.TrimSpace(out))
		}
	}
	return py
}

func interpreter() string {
	if py := os.Getenv("FSTENSOR_PYTHON"); py != "" {
		return py
	}
	_, file, _, _ := runtime.Caller(0)
	venv := filepath.Join(filepath.Dir(file), "..", "..", ".venv", "bin", "python")
	if _, err := os.Stat(venv); err == nil {
		return venv
	}
	if py, err := exec.LookPath("python3"); err == nil {
		return py
	}
	return ""
}

// Run runs script with the given arguments under the interpreter returned
// by Python(t, modules...), feeding stdin, and returns its standard output.
// A failing script fails the test with its standard error.
func Run(t testing.TB, script string, stdin []byte, modules []string, args ...string) []byte {
	t.Helper()
	py := Python(t, modules...)
	cmd := exec.Command(py, append([]string{"-c", script}, args...)...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, stderr.Bytes())
	}
	return out
}
