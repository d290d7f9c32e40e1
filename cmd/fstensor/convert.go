package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/tensorio"
)

func newConvert(stdout io.Writer) *cobra.Command {
	var inf inputFlags
	var outf outputFlags
	var columns []string
	var dsf datasetFlags
	cmd := &cobra.Command{
		Use:   "convert IN -o OUT",
		Short: "Copy the batches of one file into another format",
		Long: `Convert copies the record batches of IN into OUT, in the format of OUT's extension (or --to).
OUT is named by -o/--output, as for eval and show, or as a second argument (convert IN OUT);
naming it both ways is a usage error. OUT is written to a temporary file and renamed over
OUT only when everything was written: on an error, Ctrl-C or SIGTERM an existing OUT is
left as it was. OUT may not be IN.

IN may be a dataset, as for every command: a directory or a glob of IPC and Parquet
files, read as one in path order, with a column for each Hive directory (label=3).
OUT is a dataset directory when it ends with a slash, or with
--partition-by or --target-file-mib: files part-00000.parquet (--to arrow: .arrow), each
written whole or not at all, under NAME=VALUE directories with --partition-by; an
existing directory that is not empty is refused unless --add-files adds files to it.`,
		Example: `  fstensor convert testdata/permuted.arrow -o permuted.parquet --compression zstd
  fstensor convert testdata/embeddings.arrow -o embeddings.npy --column embedding
  fstensor convert vectors.parquet -o vectors.arrow --shape 768     # plain lists of 768 floats as tensors
  fstensor convert big.arrows -o head.arrows --rows 0:100
  curl -s https://example.org/x.parquet | fstensor convert - -o x.arrow   # standard input, format sniffed
  fstensor convert data.pb -o data.arrow --name vec                        # the column of a single-column input
  fstensor convert testdata/nulls.arrow -o nulls.npy --fill-nulls -32768   # int16: a whole number in range
  fstensor convert testdata/images.arrow images.parquet                   # OUT as the second argument
  fstensor convert 'shards/*.parquet' -o all.arrow                          # a dataset into one file
  fstensor convert images.arrow -o images/ --partition-by label --target-file-mib 64
  fstensor eval 'x.astype(float32)' testdata/nulls.arrow -o nulls.npy --fill-nulls NaN`,
		Args: convertArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			out, err := convertOutput(args, outf.out)
			if err != nil {
				return err
			}
			if dsf.wanted(out) {
				return runConvertDataset(args[0], out, inf, outf, dsf, columns)
			}
			return runConvert(args[0], out, inf, outf, columns, stdout)
		},
	}
	inf.register(cmd)
	outf.register(cmd)
	cmd.Flags().StringArrayVar(&columns, "column", nil, "a column to keep (repeatable; default all)")
	dsf.register(cmd)
	return cmd
}

// convertArgs requires IN and, unless -o names OUT, OUT.
func convertArgs(cmd *cobra.Command, args []string) error {
	if len(args) != 1 && len(args) != 2 {
		return fmt.Errorf("%w: convert takes IN and -o OUT (or IN OUT), got %d argument(s)", errUsage, len(args))
	}
	return nil
}

// convertOutput returns the output path of convert: the second argument
// or the value of -o, which may not both be given.
func convertOutput(args []string, flag string) (string, error) {
	switch {
	case len(args) == 2 && flag != "":
		return "", fmt.Errorf("%w: convert takes OUT as -o OUT or as its second argument, not both (%s and -o %s)", errUsage, args[1], flag)
	case len(args) == 2:
		return args[1], nil
	case flag == "":
		return "", fmt.Errorf("%w: convert needs -o OUT", errUsage)
	}
	return flag, nil
}

// runConvert copies the batches of one file into another format.
func runConvert(inPath, outPath string, inf inputFlags, outf outputFlags, columns []string, stdout io.Writer) error {
	pin, err := inf.parse(inPath)
	if err != nil {
		return err
	}
	outFormat, opts, err := outf.parse(outPath, stdout, inPath)
	if err != nil {
		return err
	}
	var ropts []tensorio.Option
	if len(columns) > 0 {
		ropts = append(ropts, tensorio.WithColumns(columns...))
	}
	in, err := pin.open(inPath, ropts...)
	if err != nil {
		return err
	}
	defer in.Close()
	schema := func(arrow.RecordBatch) (*arrow.Schema, error) { return in.Schema(), nil }
	return writeAll(outPath, outFormat, schema, opts, stdout, in, outf.progress("convert", pin.total(inPath)), func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		rec.Retain()
		return rec, nil
	})
}

// writeAll writes every batch of in, transformed by fn (which returns a
// batch the caller releases), to path (or stdout for "-"), under the
// schema that schema returns once the first batch is read (nil when in
// has none), counting the rows and bytes of in's batches in prog. The
// file appears at path only when everything was written and synced; on
// any error whatever stood at path is left as it was.
func writeAll(path string, f tensorio.Format, schema func(first arrow.RecordBatch) (*arrow.Schema, error), opts []tensorio.Option, stdout io.Writer, in *tensorio.Reader, prog progress, fn func(arrow.RecordBatch) (arrow.RecordBatch, error)) (err error) {
	defer prog.finish()
	var first arrow.RecordBatch
	more := in.Next()
	if more {
		first = in.RecordBatch()
	} else if err := in.Err(); err != nil {
		return err
	}
	sc, err := schema(first)
	if err != nil {
		return err
	}
	// The errors of tensorio's writers name their file.
	out, err := createOutput(path, f, sc, opts, stdout)
	if err != nil {
		return err
	}
	for ; more; more = in.Next() {
		src := in.RecordBatch()
		rec, err := fn(src)
		if err != nil {
			out.Abort()
			return err
		}
		err = out.Write(rec)
		rec.Release()
		if err != nil {
			out.Abort()
			return err
		}
		prog.add(src.NumRows(), batchBytes(src))
	}
	if err := in.Err(); err != nil {
		out.Abort()
		return err
	}
	return closeOutput(out)
}

// withPath prefixes err with the path of the file it is about, unless
// an error of the operating system (*fs.PathError) names it already.
func withPath(path string, err error) error {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
