package main

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/spf13/cobra"

	"github.com/fstensor/fstensor/tensorio"
)

// An input path that is a directory, or a glob ("data/*.parquet",
// "data/**/*.arrow") that names no existing file, is a dataset: its files
// read as one, with the columns of Hive directories ("label=3"), through
// tensorio.OpenDataset. Every command reads its input through openAny,
// takeAny and inputFormat, which choose.

// openAny opens path as one file, or as a dataset when it is a directory
// or a glob.
func openAny(path string, opts ...tensorio.Option) (*tensorio.Reader, error) {
	if tensorio.IsDatasetPath(path) {
		return tensorio.OpenDataset([]string{path}, opts...)
	}
	return tensorio.Open(path, opts...)
}

// takeAny takes rows of the file or dataset at path.
func takeAny(path string, rows []int64, opts ...tensorio.Option) (arrow.RecordBatch, error) {
	if !tensorio.IsDatasetPath(path) {
		return tensorio.Take(path, rows, opts...)
	}
	d, err := tensorio.NewDataset([]string{path}, opts...)
	if err != nil {
		return nil, err
	}
	return d.Take(rows, opts...)
}

// inputFormat returns the format of the input at path: that of --from
// (from) or of its extension, and for a dataset that of --from or of its
// first file's extension.
func inputFormat(path, from string) (tensorio.Format, error) {
	if from != "" || path == stdinName || !tensorio.IsDatasetPath(path) {
		return formatOf(path, from)
	}
	d, err := tensorio.NewDataset([]string{path})
	if err != nil {
		return "", err
	}
	return formatOf(d.Files()[0], "")
}

// datasetFlags are convert's flags for an output dataset.
type datasetFlags struct {
	partitionBy []string
	targetMiB   int64
	addFiles    bool
}

func (f *datasetFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringArrayVar(&f.partitionBy, "partition-by", nil, "write OUT as a dataset directory partitioned by this integer or string column: OUT/NAME=VALUE/part-00000.parquet, the column dropped from the files (repeatable: nested directories in the order given)")
	fs.Int64Var(&f.targetMiB, "target-file-mib", 0, "write OUT as a dataset directory of files of about this many MiB of Arrow data each (rows are never split; default: one file per partition)")
	fs.BoolVar(&f.addFiles, "add-files", false, "write OUT as a dataset directory, adding files to one that holds some (numbered after its part-N files)")
}

// wanted tells whether the output out is a dataset directory: a flag
// asks for one, or out ends with a slash. (A directory named without the
// slash is refused as an output file is.)
func (f datasetFlags) wanted(out string) bool {
	return len(f.partitionBy) > 0 || f.targetMiB != 0 || f.addFiles || strings.HasSuffix(out, "/")
}

// writeDataset writes the batches of in to a new dataset directory dir
// (Parquet unless --to names arrow or arrows), with the output flags'
// compression.
func writeDataset(dir string, in *tensorio.Reader, outf outputFlags, f datasetFlags) error {
	if dir == stdoutName {
		return fmt.Errorf("%w: a dataset is a directory, not standard output", errUsage)
	}
	if f.targetMiB < 0 {
		return fmt.Errorf("%w: --target-file-mib %d is negative", errUsage, f.targetMiB)
	}
	opts := []tensorio.Option{tensorio.WithAllocator(mem), tensorio.WithTargetFileSize(f.targetMiB << 20)}
	if len(f.partitionBy) > 0 {
		opts = append(opts, tensorio.WithPartitionBy(f.partitionBy...))
	}
	if f.addFiles {
		opts = append(opts, tensorio.WithAddFiles())
	}
	if outf.to != "" {
		ff, err := formatOf("", outf.to)
		if err != nil {
			return err
		}
		opts = append(opts, tensorio.WithFormat(ff))
	}
	comp, err := parseCompression(strings.ToLower(outf.compression))
	if err != nil {
		return err
	}
	opts = append(opts, tensorio.WithCompression(comp))
	w, err := tensorio.CreateDataset(dir, in.Schema(), opts...)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w: output directory %s is not empty; pass --add-files to add files to it", errUsage, dir)
	}
	if err != nil {
		return usageIf(err)
	}
	for in.Next() {
		if err := w.Write(in.RecordBatch()); err != nil {
			return err // Write aborted w
		}
	}
	if err := in.Err(); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}

// runConvertDataset copies the batches of the input at inPath (a file or
// a dataset) into the new dataset directory outDir.
func runConvertDataset(inPath, outDir string, inf inputFlags, outf outputFlags, f datasetFlags, columns []string) error {
	pin, err := inf.parse(inPath)
	if err != nil {
		return err
	}
	if outf.fillNulls != "" {
		return fmt.Errorf("%w: --fill-nulls is for .npy and .npz; a dataset keeps null tensors", errUsage)
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
	return writeDataset(outDir, in, outf, f)
}
