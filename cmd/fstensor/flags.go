package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// inputFlags are the flags that say how to read an input file.
type inputFlags struct {
	from, rows, shape, dimNames, perm, name string
	single                                  bool
}

func (f *inputFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&f.from, "from", "", "input format: "+strings.Join(formatNames, ", ")+" (default: from the extension, which the file's first bytes must not contradict)")
	fs.StringVar(&f.rows, "rows", "", "only rows A:B (A included, B not, counting from 0 over all batches; A: and :B too)")
	fs.StringVar(&f.shape, "shape", "", "read FixedSizeList and list columns of numbers as tensors of this logical shape, e.g. 768 or 3,224,224")
	fs.StringVar(&f.dimNames, "dim-names", "", "with --shape: the dimension names, e.g. C,H,W")
	fs.StringVar(&f.perm, "permutation", "", "with --shape: the permutation of the stored layout (as in the extension metadata), e.g. 1,2,0")
	fs.BoolVar(&f.single, "single", false, "read a .npy file as one tensor (one row) instead of a column with the batch axis first")
	fs.StringVar(&f.name, "name", "", "the column name of a .npy, .pb, .zio or .dt input (default: the file's base name without its extension, x for data/x.npy; tensor for standard input)")
	mustComplete(cmd, "from", completeWords(formatNames...))
}

// parsed is what the input flags say, checked.
type parsedInput struct {
	format tensorio.Format // of --from or else of the extension; "" for standard input without --from
	from   tensorio.Format // of --from, "" without it
	lo, hi int64           // rows [lo, hi); hi < 0 for no end
	tensor *metadata.Metadata
	single bool
	name   string // of the column of a single-column input, "" for the default
}

// parse checks the flags for the input at path.
func (f *inputFlags) parse(path string) (parsedInput, error) {
	p := parsedInput{hi: -1, single: f.single, name: f.name}
	var err error
	if path != stdinName || f.from != "" {
		// Standard input without --from: its first bytes tell.
		if p.format, err = inputFormat(path, f.from); err != nil {
			return p, err
		}
	}
	if f.from != "" {
		p.from = p.format
	}
	if f.single && p.format != "" && p.format != tensorio.NPY {
		return p, fmt.Errorf("%w: --single reads .npy files, not %s", errUsage, p.format)
	}
	if f.name != "" && p.format != "" && (!p.format.TensorsOnly() || p.format == tensorio.NPZ) {
		return p, fmt.Errorf("%w: --name names the column of a .npy, .pb, .zio or .dt input; %s files name their columns (pick them with --column)", errUsage, p.format)
	}
	if f.rows != "" {
		if p.lo, p.hi, err = parseRows(f.rows); err != nil {
			return p, err
		}
	}
	if f.shape == "" {
		if f.dimNames != "" || f.perm != "" {
			return p, fmt.Errorf("%w: --dim-names and --permutation describe a --shape", errUsage)
		}
		return p, nil
	}
	shape, err := parseInts("--shape", f.shape)
	if err != nil {
		return p, err
	}
	var names []string
	if f.dimNames != "" {
		names = strings.Split(f.dimNames, ",")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
	}
	var perm []int
	if f.perm != "" {
		if perm, err = parseInts("--permutation", f.perm); err != nil {
			return p, err
		}
	}
	m, err := metadata.New(shape, names, perm)
	if err != nil {
		return p, fmt.Errorf("%w: --shape %s: %v", errUsage, f.shape, err)
	}
	p.tensor = &m
	return p, nil
}

// open opens the input at path as the flags say, with opts.
func (p parsedInput) open(path string, opts ...tensorio.Option) (*tensorio.Reader, error) {
	if p.tensor != nil {
		opts = append(opts, tensorio.WithShape(*p.tensor))
	}
	if p.lo > 0 {
		opts = append(opts, tensorio.WithOffset(p.lo))
	}
	if p.hi >= 0 {
		opts = append(opts, tensorio.WithLimit(p.hi-p.lo))
	}
	if p.name != "" {
		opts = append(opts, tensorio.WithColumnName(p.name))
	}
	return openInput(path, p.from, p.single, opts...)
}

// openRows opens the rows [i, i+n) of the rows the flags select.
func (p parsedInput) openRows(path string, i, n int64) (*tensorio.Reader, error) {
	lo, hi := p.lo+i, p.lo+i+n
	if p.hi >= 0 {
		lo, hi = min(lo, p.hi), min(hi, p.hi)
	}
	q := p
	q.lo, q.hi = lo, hi
	return q.open(path)
}

// parseRows reads A:B, A: or :B.
func parseRows(s string) (lo, hi int64, err error) {
	a, b, ok := strings.Cut(s, ":")
	bad := func() (int64, int64, error) {
		return 0, 0, fmt.Errorf("%w: --rows %q is not A:B with 0 <= A <= B (A: and :B too)", errUsage, s)
	}
	if !ok {
		return bad()
	}
	hi = -1
	if a = strings.TrimSpace(a); a != "" {
		if lo, err = strconv.ParseInt(a, 10, 64); err != nil || lo < 0 {
			return bad()
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if hi, err = strconv.ParseInt(b, 10, 64); err != nil || hi < lo {
			return bad()
		}
	}
	return lo, hi, nil
}

// parseInts reads a comma-separated list of integers.
func parseInts(flag, s string) ([]int, error) {
	s = strings.Trim(strings.TrimSpace(s), "()[]")
	var v []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" && len(v) > 0 {
			continue // a trailing comma, as in (768,)
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%w: %s %q is not a list of integers like 3,224,224", errUsage, flag, s)
		}
		v = append(v, n)
	}
	return v, nil
}

// outputFlags are the flags that say how to write an output file, and
// whether to show progress.
type outputFlags struct {
	out, to, compression, fillNulls, pageSize string
	rowMajor, quiet                           bool
	cmd                                       *cobra.Command // whose standard error shows progress
}

func (f *outputFlags) register(cmd *cobra.Command) {
	f.cmd = cmd
	fs := cmd.Flags()
	fs.BoolVar(&f.rowMajor, "row-major", false, "write permuted tensor columns in logical row-major order, permutation dropped, for readers that get permutations wrong (pyarrow's to_numpy_ndarray, Ray Data)")
	fs.StringVar(&f.pageSize, "page-size", "", "the data page size of a Parquet output, e.g. 16KiB (default: one page per uncompressed tensor column chunk, which readers map without a copy; 1MiB pages when compressed): smaller pages make take of compressed files read less, scans a little slower")
	fs.BoolVar(&f.quiet, "quiet", false, "show no progress bar (one is shown on a terminal's standard error once the work has taken 2 seconds)")
	fs.StringVarP(&f.out, "output", "o", "", "the output file (format from its extension, or --to); - for standard output")
	fs.StringVar(&f.to, "to", "", "output format: "+strings.Join(formatNames, ", ")+" (default: from the extension)")
	fs.StringVar(&f.compression, "compression", "none", "compression: none, lz4 or zstd (IPC, Parquet); deflate (.npz)")
	fs.StringVar(&f.fillNulls, "fill-nulls", "", "write null tensors as tensors filled with this value (.npy and .npz have no nulls): NaN or any number for float columns, a whole number in range for integer columns, 0 or 1 for bool; other values are refused")
	mustComplete(cmd, "to", completeWords(formatNames...))
	mustComplete(cmd, "compression", completeWords("none", "lz4", "zstd", "deflate"))
}

// parse checks the flags for the output path; stdout is where "-" goes.
func (f *outputFlags) parse(path string, stdout io.Writer, inputs ...string) (tensorio.Format, []tensorio.Option, error) {
	var o []tensorio.Option
	to := f.to
	if path == stdoutName && to == "" {
		to = string(tensorio.IPCStream)
	}
	ff, err := formatOf(path, to)
	if err != nil {
		return "", o, err
	}
	switch c := strings.ToLower(f.compression); {
	case c == "deflate" && ff == tensorio.NPZ:
		o = append(o, tensorio.WithCompression(tensorio.Deflate))
	case ff == tensorio.NPZ && c != "" && c != "none":
		return "", o, fmt.Errorf("%w: .npz members are compressed with --compression deflate, not %s", errUsage, f.compression)
	case c == "deflate":
		return "", o, fmt.Errorf("%w: --compression deflate is for .npz", errUsage)
	default:
		comp, err := parseCompression(c)
		if err != nil {
			return "", o, err
		}
		if comp != tensorio.Uncompressed && ff.TensorsOnly() {
			return "", o, fmt.Errorf("%w: --compression %s is for IPC and Parquet, not %s", errUsage, f.compression, ff)
		}
		o = append(o, tensorio.WithCompression(comp))
	}
	if f.fillNulls != "" {
		v, err := strconv.ParseFloat(strings.TrimSpace(f.fillNulls), 64)
		if err != nil && !strings.EqualFold(strings.TrimSpace(f.fillNulls), "nan") {
			return "", o, fmt.Errorf("%w: --fill-nulls %q is not a number", errUsage, f.fillNulls)
		}
		if err != nil {
			v = math.NaN()
		}
		if ff != tensorio.NPY && ff != tensorio.NPZ {
			return "", o, fmt.Errorf("%w: --fill-nulls is for .npy and .npz, which have no null tensors; %s keeps them", errUsage, ff)
		}
		o = append(o, tensorio.WithFillNulls(v))
	}
	if f.rowMajor {
		o = append(o, tensorio.WithRowMajor())
	}
	if f.pageSize != "" {
		n, err := parseByteSize(f.pageSize)
		if err != nil || n < 1 {
			return "", o, fmt.Errorf("%w: --page-size %q is not a size like 16384, 16KiB or 1MiB", errUsage, f.pageSize)
		}
		if ff != tensorio.Parquet {
			return "", o, fmt.Errorf("%w: --page-size is for Parquet, not %s", errUsage, ff)
		}
		o = append(o, tensorio.WithPageBytes(n))
	}
	if err := checkOutput(path, ff, stdout, inputs...); err != nil {
		return "", o, err
	}
	return ff, o, nil
}

// progress returns the progress of the work what on the command's
// standard error, total rows long (-1 for unknown): nothing with --quiet,
// when standard error is not a terminal or the flags were not registered.
func (f *outputFlags) progress(what string, total int64) progress {
	if f.cmd == nil {
		return noProgress{}
	}
	return newProgress(f.cmd.ErrOrStderr(), f.quiet, what, total)
}

// total returns the rows the flags select of the input at path when its
// footer tells its row count cheaply (cheapRowCount), else -1.
func (p parsedInput) total(path string) int64 {
	n := cheapRowCount(path, p.format)
	if n < 0 {
		return -1
	}
	hi := n
	if p.hi >= 0 {
		hi = min(p.hi, n)
	}
	return max(0, hi-min(p.lo, hi))
}

// parseByteSize reads a byte count: digits, optionally followed by K, KB,
// KiB, M, MB or MiB (all powers of 1024).
func parseByteSize(s string) (int, error) {
	s = strings.TrimSpace(s)
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"KB", 1 << 10}, {"K", 1 << 10}, {"MiB", 1 << 20}, {"MB", 1 << 20}, {"M", 1 << 20}} {
		if strings.HasSuffix(strings.ToUpper(s), strings.ToUpper(u.suffix)) {
			s, mult = strings.TrimSpace(s[:len(s)-len(u.suffix)]), u.mult
			break
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > math.MaxInt32/mult {
		return 0, fmt.Errorf("size %q", s)
	}
	return n * mult, nil
}
