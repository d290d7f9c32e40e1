// Command fstensor inspects, transforms, converts, samples, searches and
// draws the tensor columns of Arrow IPC, Parquet and NumPy files, and serves them
// over Arrow Flight.
//
//	fstensor inspect FILE [--json]
//	fstensor eval EXPR FILE -o OUT [--column NAME]... [--relabel] [--fixed]
//	fstensor convert IN -o OUT [--from FORMAT] [--to FORMAT] [--column NAME]... [--name NAME]
//	fstensor show FILE [--column NAME] [--row I] [--grid N] -o OUT.png
//	fstensor take FILE (--rows 5,17,9 | --rows-from IDS.npy | --sample N [--seed S]) -o OUT
//	fstensor search FILE (--query Q.npy | --query-row FILE2:ROW) [--metric M] [-k K]
//	fstensor serve DIR [--addr HOST:PORT]
//
// Every command that writes a file names it with -o/--output (convert
// also takes OUT as a second argument, as before). Every command takes
// --help. Formats are chosen by extension or flag:
// .arrow/.feather/.ipc (IPC file), .arrows/.stream (IPC stream),
// .parquet, .npz (NumPy archive, one member per tensor column) and the
// single-column formats .npy (NumPy), .pb (varint-delimited TensorFlow
// TensorProto messages, one per tensor), .zio (one ZIO TENS message) and
// .dt (concatenated Decthings tensors). An input whose first bytes show
// another format than its extension is refused unless --from names the
// format. "-" as the input reads standard input (IPC files, Parquet and
// .npz through a temporary file).
//
// An output is written to a temporary file beside it and renamed over it
// only when the whole write succeeded: a failure, Ctrl-C or SIGTERM leaves
// an existing file as it was. An output that is an input, or that exists
// and is not a regular file, is refused before anything is read.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/tensorio"
)

const rootLong = `fstensor inspects, transforms, converts, samples, searches and draws tensor columns in Arrow,
Parquet and NumPy files, and serves them over Arrow Flight.

Formats by extension (or --from/--to NAME): .arrow .feather .ipc (arrow: IPC file),
.arrows .stream (arrows: IPC stream), .parquet (parquet), .npz (npz: one member per
tensor column), and single tensor columns: .npy (npy, batch axis first), .pb (tfproto:
varint-delimited TensorProto, one per tensor), .zio (zio: one ZIO TENS message),
.dt (decthings: concatenated tensors). A file whose first bytes show another format
than its extension is refused ("x.arrow is a Parquet file: rename it or pass --from
parquet"); --from wins. The column of a single-column input is named after the file
(x for data/x.npy), or --name.

"-" as the input reads standard input, in the format of --from or else the one its
first bytes show (.pb and .dt have no signature: name them with --from); its
single-column formats name the column "tensor" unless --name. IPC streams, .npy,
.pb, .zio and .dt are read as they come; IPC files, Parquet and .npz, read by
seeking, are first copied to a temporary file in $TMPDIR (or /tmp), removed when
the command ends, on errors too. "-" as the output writes to standard output
(arrows by default, or --to).

The commands that write a file (eval, convert, take, show) name it with -o/--output; convert
also takes it as a second argument (convert IN OUT). Outputs are written to a temporary
file beside the target and renamed over it only when everything was written: an
error, Ctrl-C or SIGTERM leaves an existing file as it was. The temporary file (.OUT.tmp-PID-RANDOM) of a run killed outright is removed
by the next run onto OUT once no process PID runs. An output that is the input (also
through a link), exists and is not a regular file, or lies in a directory that does
not exist is refused. Errors exit with 1, usage errors with 2.`

const rootExample = `  fstensor inspect testdata/images.arrow
  fstensor inspect --json testdata/permuted.arrow
  fstensor eval 'x[::2, ::2].transpose(2, 0, 1)' testdata/images.arrow -o small_chw.arrow
  fstensor convert testdata/nulls.arrow -o nulls.arrows --compression zstd
  fstensor convert testdata/embeddings.arrow -o embeddings.npy --column embedding
  fstensor convert testdata/permuted.arrow -o permuted.zio
  fstensor show testdata/images.arrow --column image --row 3 -o image3.png
  fstensor show testdata/embeddings.arrow --column embedding --row 0 -o embedding0.png
  fstensor take testdata/embeddings.arrow --rows 5,1,5 -o rows.arrow
  fstensor search testdata/embeddings.arrow --query-row testdata/embeddings.arrow:3 -k 4`

// mem allocates the Arrow buffers the command reads and writes: buffers
// of 4 MiB or more on huge pages, as NumPy's arrays. The IPC readers take
// its Recycled variant (see arrowipc's Memory), so that a batch is read
// into the mappings of the batch released before it instead of new ones
// the kernel clears; so do the values of eval's results (see expr's
// WithAllocator).
var mem = newAllocator()

// newAllocator returns the allocator of the command; without options
// hugepage.NewAllocator does not fail.
func newAllocator() *hugepage.Allocator {
	a, err := hugepage.NewAllocator()
	if err != nil {
		panic(err)
	}
	return a
}

// errUsage marks errors caused by how the command was called (exit code 2).
var errUsage = errors.New("usage")

// stopSignals stops the handling of SIGINT and SIGTERM that main
// installs; serve takes the signals over.
var stopSignals = func() {}

func main() {
	// Ctrl-C or a kill removes the temporary output files: nothing is
	// left half-written and no existing file is touched.
	stopSignals = tensorio.HandleSignals()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code: 0 on success,
// 1 on failure, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) int {
	defer func() {
		for _, f := range atExit {
			f()
		}
		atExit = nil
	}()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "fstensor: "+oneLine(err))
	if errors.Is(err, errUsage) {
		if cmd == nil {
			cmd = root
		}
		fmt.Fprintf(stderr, "run '%s --help' for usage\n", cmd.CommandPath())
		return 2
	}
	return 1
}

// version returns the module version the binary was built from.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// newRoot returns the command tree, writing to stdout and stderr.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "fstensor",
		Short:         "Inspect, transform, convert and draw tensor columns",
		Long:          rootLong,
		Example:       rootExample,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			var names []string
			for _, c := range cmd.Commands() {
				if c.IsAvailableCommand() && c.Name() != "completion" {
					names = append(names, c.Name())
				}
			}
			msg := fmt.Sprintf("unknown command %q (want %s)", args[0], strings.Join(names, ", "))
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "; did you mean " + s[0] + "?"
			}
			return fmt.Errorf("%w: %s", errUsage, msg)
		},
	}
	root.SuggestionsMinimumDistance = 2
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetVersionTemplate("fstensor {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w: %s: %v", errUsage, c.Name(), err)
	})
	root.AddCommand(newInspect(stdout), newEval(stdout, stderr), newConvert(stdout), newShow(stdout), newServe(stdout, stderr), newSearch(stdout), newTake(stdout))
	return root
}

// exactArgs requires n positional arguments, described by what.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return fmt.Errorf("%w: %s takes %s, got %d argument(s)", errUsage, cmd.Name(), what, len(args))
		}
		return nil
	}
}

// formatNames are the values of --from and --to.
var formatNames = []string{"arrow", "arrows", "parquet", "npy", "npz", "tfproto", "zio", "decthings"}

// completeWords completes a flag from a fixed list of words.
func completeWords(words ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(words, cobra.ShellCompDirectiveNoFileComp)
}

// mustComplete registers flag completions; the flags exist.
func mustComplete(cmd *cobra.Command, flag string, f cobra.CompletionFunc) {
	if err := cmd.RegisterFlagCompletionFunc(flag, f); err != nil {
		panic(err)
	}
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
