package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// cmdConvert copies the batches of one file into another format.
func cmdConvert(args []string, stdout io.Writer) error {
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
	if err := checkOutput(pos[1], outFormat, stdout, pos[0]); err != nil {
		return err
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
	return writeAll(pos[1], outFormat, schema, writeOptions{comp: comp}, stdout, in, func(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
		return projectBatch(schema, rec, idx), nil
	})
}

// writeAll writes every batch of in, transformed by fn (which returns a
// batch the caller releases), to path (or stdout for "-"). The file
// appears at path only when everything was written and synced; on any
// error whatever stood at path is left as it was.
func writeAll(path string, f format, schema *arrow.Schema, opts writeOptions, stdout io.Writer, in *input, fn func(arrow.RecordBatch) (arrow.RecordBatch, error)) (err error) {
	out, err := createOutput(path, f, schema, opts, stdout)
	if err != nil {
		return outputError(path, err)
	}
	for in.Next() {
		rec, err := fn(in.RecordBatch())
		if err != nil {
			out.Abort()
			return err
		}
		err = out.Write(rec)
		rec.Release()
		if err != nil {
			out.Abort()
			return outputError(path, err)
		}
	}
	if err := in.Err(); err != nil {
		out.Abort()
		return err
	}
	if err := out.Close(); err != nil {
		return outputError(path, err)
	}
	return nil
}

// outputError prefixes err with the output path unless it names it
// already (os errors do).
func outputError(path string, err error) error {
	if strings.Contains(err.Error(), path) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}
