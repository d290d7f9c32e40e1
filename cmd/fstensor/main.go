// Command fstensor inspects, transforms, converts and draws the tensor
// columns of Arrow IPC, Parquet and NumPy files.
//
//	fstensor inspect FILE [--json]
//	fstensor eval EXPR FILE -o OUT [--column NAME]... [--compression lz4|zstd|none]
//	fstensor convert IN OUT [--from FORMAT] [--to FORMAT] [--compression lz4|zstd|none] [--column NAME]...
//	fstensor show FILE --column NAME --row I [--expr EXPR] [--layout hwc|chw] [--range MIN,MAX] -o OUT.png
//
// Formats are chosen by extension or flag: .arrow/.feather/.ipc (IPC
// file), .arrows/.stream (IPC stream), .parquet, and the single-column
// formats .npy (NumPy), .pb (varint-delimited TensorFlow TensorProto
// messages, one per tensor), .zio (one ZIO TENS message) and .dt
// (concatenated Decthings tensors). Run it without arguments for usage with
// examples on the bundled testdata/ files.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/internal/atomicfile"
)

const usage = `fstensor: inspect, transform, convert and draw tensor columns in Arrow, Parquet and NumPy files.

Usage:
  fstensor inspect FILE [--json]
  fstensor eval EXPR FILE -o OUT [--column NAME]... [--compression lz4|zstd|none]
  fstensor convert IN OUT [--from FORMAT] [--to FORMAT] [--compression lz4|zstd|none] [--column NAME]...
  fstensor show FILE --column NAME --row I [--expr EXPR] [--layout hwc|chw] [--range MIN,MAX] -o OUT.png

Formats by extension (or --from/--to NAME): .arrow .feather .ipc (arrow: IPC file),
.arrows .stream (arrows: IPC stream), .parquet (parquet), and single tensor columns:
.npy (npy, batch axis first), .pb (tfproto: varint-delimited TensorProto, one per tensor),
.zio (zio: one ZIO TENS message), .dt (decthings: concatenated tensors).
In EXPR, x is one tensor of the column: x[:, ::2, ::2], x[..., 0], x.T,
x.transpose(2, 0, 1), x.reshape(-1), and chains of these.

Examples (on the bundled samples):
  fstensor inspect testdata/images.arrow
  fstensor inspect --json testdata/permuted.arrow
  fstensor eval 'x[::2, ::2].transpose(2, 0, 1)' testdata/images.arrow -o small_chw.arrow
  fstensor convert testdata/nulls.arrow nulls.arrows --compression zstd
  fstensor convert testdata/embeddings.arrow embeddings.npy --column embedding
  fstensor convert testdata/permuted.arrow permuted.zio
  fstensor show testdata/images.arrow --column image --row 3 -o image3.png
  fstensor show testdata/embeddings.arrow --column embedding --row 0 -o embedding0.png
`

// errUsage marks errors caused by how the command was called (exit code 2).
var errUsage = errors.New("usage")

func main() {
	// Ctrl-C or a kill removes the temporary output files: nothing is
	// left half-written and no existing file is touched.
	atomicfile.HandleSignals()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code: 0 on success,
// 1 on failure, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return 0
	}
	var err error
	switch cmd, rest := args[0], args[1:]; cmd {
	case "inspect":
		err = cmdInspect(rest, stdout)
	case "eval":
		err = cmdEval(rest, stdout, stderr)
	case "convert":
		err = cmdConvert(rest, stdout)
	case "show":
		err = cmdShow(rest, stdout)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("%w: unknown command %q (want inspect, eval, convert or show)", errUsage, cmd)
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "fstensor: "+oneLine(err))
	if errors.Is(err, errUsage) {
		fmt.Fprintln(stderr, "run 'fstensor' without arguments for usage")
		return 2
	}
	return 1
}

// oneLine returns the message of err on one line (newlines in causes
// become spaces), followed, for an expression error, by the expression
// and a caret under the offending character.
func oneLine(err error) string {
	msg := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
	msg = strings.Join(strings.Fields(msg), " ")
	var ee *expr.Error
	if errors.As(err, &ee) && ee.Text != "" && ee.Pos >= 0 && ee.Pos <= len(ee.Text) && !strings.ContainsAny(ee.Text, "\n\r") {
		msg += "\n  " + ee.Text + "\n  " + strings.Repeat(" ", utf8.RuneCountInString(ee.Text[:ee.Pos])) + "^"
	}
	return msg
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// parseFlags parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, fmt.Errorf("%w: %s: %v", errUsage, fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func wantArgs(cmd string, pos []string, n int, what string) error {
	if len(pos) != n {
		return fmt.Errorf("%w: %s takes %s, got %d argument(s)", errUsage, cmd, what, len(pos))
	}
	return nil
}
