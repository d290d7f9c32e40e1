package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowconv"
)

// cmdConvert copies the batches of one file into another format.
func cmdConvert(args []string) error {
	fs := flag.NewFlagSet("convert", flag.ContinueOnError)
	from := fs.String("from", "", "input format (default: from IN's extension)")
	to := fs.String("to", "", "output format: arrow, arrows, parquet, npy, tfproto, zio or decthings (default: from OUT's extension)")
	compression := fs.String("compression", "none", "IPC or Parquet compression: none, lz4 or zstd")
	var columns stringList
	fs.Var(&columns, "column", "a column to keep (repeatable; default all)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if err := wantArgs("convert", pos, 2, "IN and OUT"); err != nil {
		return err
	}
	outFormat, err := formatOf(pos[1], *to)
	if err != nil {
		return err
	}
	comp, err := parseCompression(*compression)
	if err != nil {
		return err
	}
	var inFormat format
	if *from != "" {
		if inFormat, err = formatOf(pos[0], *from); err != nil {
			return err
		}
	}
	in, err := openInput(pos[0], inFormat)
	if err != nil {
		return err
	}
	defer in.Close()
	idx, err := selectColumns(in.Schema(), columns)
	if err != nil {
		return err
	}
	schema := projectSchema(in.Schema(), idx)
	return writeAll(pos[1], outFormat, schema, comp, in, func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		return projectBatch(schema, rec, idx), nil
	})
}

// writeAll writes every batch of in, transformed by f (which returns a
// batch the caller releases), to a new file at path. A failure removes the
// partial file.
func writeAll(path string, f format, schema *arrow.Schema, comp arrowconv.Compression, in *input, fn func(arrow.RecordBatch) (arrow.RecordBatch, error)) (err error) {
	out, err := createOutput(path, f, schema, comp)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	for in.Next() {
		rec, err := fn(in.RecordBatch())
		if err != nil {
			return err
		}
		err = out.Write(rec)
		rec.Release()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
	if err := in.Err(); err != nil {
		return err
	}
	return nil
}
