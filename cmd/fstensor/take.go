package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
)

// takeFlags are the flags of take: exactly one of rows, rowsFrom and
// sample says which rows.
type takeFlags struct {
	from, rows, rowsFrom string
	sample               int64
	seed                 uint64
	columns              []string
}

func newTake(stdout io.Writer) *cobra.Command {
	var tf takeFlags
	var outf outputFlags
	cmd := &cobra.Command{
		Use:   "take FILE (--rows LIST | --rows-from IDS.npy | --sample N [--seed S]) -o OUT",
		Short: "Copy the rows of a file with the given numbers into another file",
		Long: `Take copies the rows of FILE whose numbers (counting from 0 over all batches) are
given into OUT, as one batch, in the order given: a row given twice comes twice. The
rows are named by exactly one of --rows (a comma-separated list), --rows-from (a 1-D
int64 or int32 .npy file of row numbers) and --sample N (N distinct rows drawn
uniformly at random with the seed --seed, in the order drawn, not sorted). A row
number the file lacks is an error that names it and the file's row count.

IPC files (.arrow) are mapped and read by offset: only the batches up to the last row
asked are decoded, and only the rows asked are copied. Parquet files are read by
ranges through their page index: the footer, the index and only the pages that hold
the rows asked (tensor columns; other columns and files without an index, the column
chunks of the row groups that hold them); write them with convert --page-size 16KiB
for cheaper takes. Other formats are read whole, up to the last row asked. --sample
counts the file's rows first (IPC files through their batches' headers, Parquet
through its footer, other formats by reading them). OUT is written as convert writes it (format from its extension or
--to; - for standard output): to a temporary file renamed over OUT only when
everything was written.`,
		Example: `  fstensor take testdata/embeddings.arrow --rows 5,1,5 -o picked.arrow
  fstensor take testdata/images.arrow --rows-from ids.npy --column image -o picked.npy
  fstensor take testdata/images.arrow --sample 4 --seed 7 -o sample.parquet`,
		Args: exactArgs(1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("sample") {
				tf.sample = -1
			} else if tf.sample < 0 {
				return fmt.Errorf("%w: --sample %d: want a row count of 0 or more", errUsage, tf.sample)
			}
			return runTake(args[0], tf, outf, stdout)
		},
	}
	outf.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&tf.from, "from", "", "input format: "+strings.Join(formatNames, ", ")+" (default: from the extension, which the file's first bytes must not contradict)")
	fs.StringVar(&tf.rows, "rows", "", "the rows to take, e.g. 5,17,9 (counting from 0 over all batches; repeats allowed)")
	fs.StringVar(&tf.rowsFrom, "rows-from", "", "a .npy file of row numbers: a 1-D array of int64 or int32")
	fs.Int64Var(&tf.sample, "sample", 0, "take N distinct rows drawn uniformly at random (in the order drawn)")
	fs.Uint64Var(&tf.seed, "seed", 1, "the seed of --sample: the same seed draws the same rows")
	fs.StringArrayVar(&tf.columns, "column", nil, "a column to keep (repeatable; default all)")
	mustComplete(cmd, "from", completeWords(formatNames...))
	return cmd
}

// runTake copies the rows the flags name of the file at path to out.
func runTake(path string, tf takeFlags, outf outputFlags, stdout io.Writer) error {
	if path == stdinName {
		return fmt.Errorf("%w: take reads a file, not standard input", errUsage)
	}
	if outf.out == "" {
		return fmt.Errorf("%w: take needs -o OUT", errUsage)
	}
	if _, err := inputFormat(path, tf.from); err != nil {
		return err
	}
	outFormat, wopts, err := outf.parse(outf.out, stdout, path)
	if err != nil {
		return err
	}
	opts := []tensorio.Option{tensorio.WithAllocator(mem)}
	if tf.from != "" {
		f, _ := tensorio.ParseFormat(tf.from)
		opts = append(opts, tensorio.WithFormat(f))
	}
	if len(tf.columns) > 0 {
		opts = append(opts, tensorio.WithColumns(tf.columns...))
	}
	rows, err := tf.rowList(path, opts)
	if err != nil {
		return err
	}
	prog := outf.progress("take", -1)
	defer prog.finish()
	done := make(chan struct{})
	go func() { // the bar appears, as a spinner, while Take reads
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				prog.add(0, 0)
			}
		}
	}()
	rec, err := takeAny(path, rows, opts...)
	close(done)
	if err != nil {
		return inputError(err)
	}
	defer rec.Release()
	prog.add(rec.NumRows(), batchBytes(rec))
	w, err := createOutput(outf.out, outFormat, rec.Schema(), wopts, stdout)
	if err != nil {
		return err
	}
	if err := w.Write(rec); err != nil {
		w.Abort()
		return err
	}
	return closeOutput(w)
}

// rowList returns the rows the flags name; opts open the file at path to
// count its rows for --sample.
func (tf takeFlags) rowList(path string, opts []tensorio.Option) ([]int64, error) {
	n := 0
	for _, set := range []bool{tf.rows != "", tf.rowsFrom != "", tf.sample >= 0} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%w: take needs exactly one of --rows, --rows-from and --sample", errUsage)
	}
	switch {
	case tf.rows != "":
		return parseRowList(tf.rows)
	case tf.rowsFrom != "":
		return readRowsNPY(tf.rowsFrom)
	}
	count := int64(-1)
	if f, err := formatOf(path, tf.from); err == nil {
		count = cheapRowCount(path, f) // Parquet: its footer
	}
	if count < 0 {
		var err error
		if count, err = countRows(path, opts); err != nil {
			return nil, err
		}
	}
	if tf.sample > count {
		return nil, fmt.Errorf("%w: --sample %d: %s has %d rows", errUsage, tf.sample, path, count)
	}
	return sampleRows(tf.sample, count, tf.seed), nil
}

// parseRowList reads a comma-separated list of row numbers (0 or more,
// spaces around them allowed). Errors wrap arrow.ErrInvalid and errUsage.
func parseRowList(s string) ([]int64, error) {
	fields := strings.Split(s, ",")
	rows := make([]int64, 0, len(fields))
	for _, f := range fields {
		f = strings.TrimSpace(f)
		r, err := strconv.ParseInt(f, 10, 64)
		if err != nil || r < 0 {
			return nil, &usageError{
				msg: fmt.Sprintf("--rows %q: %q is not a row number (want numbers of 0 or more, e.g. 5,17,9)", s, f),
				err: arrow.ErrInvalid,
			}
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// readRowsNPY reads the row numbers of a 1-D int64 or int32 .npy file.
func readRowsNPY(path string) ([]int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	a, err := npy.ReadTensor(f, npy.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer a.Release()
	bad := func(why string) error {
		return &usageError{msg: fmt.Sprintf("--rows-from %s: %s (want a 1-D array of int64 or int32)", path, why), err: arrow.ErrInvalid}
	}
	if a.TensorType().NDim() != 1 {
		return nil, bad(fmt.Sprintf("an array of %d dimensions", a.TensorType().NDim()))
	}
	if c, err := fixedshape.ColumnOf[int64](a); err == nil {
		return c.Tensor(0).AppendLogical(nil), nil
	}
	c, err := fixedshape.ColumnOf[int32](a)
	if err != nil {
		return nil, bad("an array of " + a.TensorType().ElemType().String())
	}
	var rows []int64
	for v := range c.Tensor(0).All() {
		rows = append(rows, int64(v))
	}
	return rows, nil
}

// countRows returns the number of rows of the file at path, opened with
// opts (IPC files mapped: their batches are not copied).
func countRows(path string, opts []tensorio.Option) (int64, error) {
	r, err := openAny(path, append(opts, tensorio.WithMmap())...)
	if err != nil {
		return 0, inputError(err)
	}
	defer r.Close()
	var n int64
	for r.Next() {
		n += r.RecordBatch().NumRows()
	}
	return n, r.Err()
}

// sampleRows returns n distinct rows of [0, count) drawn uniformly at
// random by a generator seeded with seed, in the order drawn: the first n
// steps of a Fisher-Yates shuffle of the rows, whose swaps a map keeps.
func sampleRows(n, count int64, seed uint64) []int64 {
	rng := rand.New(rand.NewPCG(seed, 0))
	swapped := make(map[int64]int64, n)
	at := func(i int64) int64 {
		if v, ok := swapped[i]; ok {
			return v
		}
		return i
	}
	rows := make([]int64, n)
	for i := range n {
		j := i + rng.Int64N(count-i)
		rows[i], swapped[j] = at(j), at(i)
	}
	return rows
}
