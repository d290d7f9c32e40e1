package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/tensorio"
)

// pngF is show's image format; tensorio reads and writes the others.
const pngF tensorio.Format = "png"

// formatOf returns the format named by override, or else the one the
// file extension implies, with errors worded for the flags.
func formatOf(path, override string) (tensorio.Format, error) {
	if override != "" {
		f, err := tensorio.ParseFormat(override)
		if err != nil {
			return "", fmt.Errorf("%w: unknown format %q (want arrow, arrows, parquet, npy, npz, tfproto, zio or decthings)", errUsage, override)
		}
		return f, nil
	}
	f, err := tensorio.FormatOf(path)
	if err != nil {
		return "", fmt.Errorf("%w: cannot tell the format of %s from its extension (use .arrow, .arrows, .parquet, .npy, .npz, .pb, .zio or .dt, or --to/--from)", errUsage, path)
	}
	return f, nil
}

// openInput opens path in the format from (of --from; "" for the
// extension's, which the file's first bytes must not contradict) with the
// options. With single, a .npy file is one tensor (a column of one row).
// Errors name the path once; options that do not fit the file, and a
// file whose bytes show another format than its name, are usage errors.
func openInput(path string, from tensorio.Format, single bool, opts ...tensorio.Option) (*tensorio.Reader, error) {
	if path == stdinName {
		return openStdin(from, single, opts)
	}
	f := from
	if f == "" {
		var err error
		if f, err = inputFormat(path, ""); err != nil {
			return nil, err
		}
	}
	if single && f != tensorio.NPY {
		return nil, fmt.Errorf("%w: --single reads .npy files, not %s", errUsage, f)
	}
	opts = append([]tensorio.Option{tensorio.WithAllocator(mem)}, opts...)
	if from != "" {
		opts = append(opts, tensorio.WithFormat(from))
	}
	if single {
		opts = append(opts, tensorio.WithSingleTensor())
	}
	r, err := openAny(path, opts...)
	if err != nil {
		return nil, inputError(err)
	}
	return r, nil
}

// stdinName is the input path that means standard input.
const stdinName = "-"

// stdin is what the input "-" reads.
var stdin io.Reader = os.Stdin

// openStdin opens standard input in the format from, or else the one its
// first bytes show. IPC streams, .npy, .pb, .zio and .dt are read as they
// come; IPC files, Parquet and .npz, read by seeking, are first copied to
// a temporary file in os.TempDir, removed once opened (the reader keeps
// it open) and in any case when the command ends.
func openStdin(from tensorio.Format, single bool, opts []tensorio.Option) (*tensorio.Reader, error) {
	br := bufio.NewReader(stdin)
	f := from
	if f == "" {
		head, _ := br.Peek(tensorio.SniffLen)
		if f = tensorio.Sniff(head); f == "" {
			return nil, fmt.Errorf("%w: cannot tell the format of standard input from its first bytes; name it with --from (%s)", errUsage, strings.Join(formatNames, ", "))
		}
	}
	if single && f != tensorio.NPY {
		return nil, fmt.Errorf("%w: --single reads .npy files, and standard input is %s", errUsage, f.Describe())
	}
	opts = append([]tensorio.Option{tensorio.WithAllocator(mem), tensorio.WithFormat(f)}, opts...)
	if single {
		opts = append(opts, tensorio.WithSingleTensor())
	}
	if f != tensorio.IPCFile && f != tensorio.Parquet && f != tensorio.NPZ {
		r, err := tensorio.NewReader(br, opts...)
		if err != nil {
			return nil, inputError(&rewordedError{"standard input: " + err.Error(), err})
		}
		return r, nil
	}
	tmp, err := os.CreateTemp("", "fstensor-stdin-*."+string(f))
	if err != nil {
		return nil, fmt.Errorf("standard input: %w", err)
	}
	name := tmp.Name()
	atExit = append(atExit, func() { os.Remove(name) })
	_, err = io.Copy(tmp, br)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return nil, fmt.Errorf("standard input: copying it to a temporary file: %w", err)
	}
	r, err := tensorio.Open(name, opts...)
	os.Remove(name) // Unix: the reader keeps the open file
	if err != nil {
		return nil, inputError(&rewordedError{strings.ReplaceAll(err.Error(), name, "standard input"), err})
	}
	return r, nil
}

// atExit holds the functions run calls when the command has ended.
var atExit []func()

// inputError words an error of opening an input for the command's flags.
func inputError(err error) error {
	var fe *tensorio.FormatError
	if !errors.As(err, &fe) {
		return usageIf(err)
	}
	if fe.Explicit {
		return &usageError{msg: strings.Replace(err.Error(), "tensorio: ", "", 1) + " (--from " + string(fe.Found) + " reads it)", err: err}
	}
	return &usageError{msg: fmt.Sprintf("%s is %s: rename it or pass --from %s", fe.Path, fe.Found.Describe(), fe.Found), err: err}
}

// usageIf marks an error of tensorio's options as a usage error, its
// message without the package name.
func usageIf(err error) error {
	if !errors.Is(err, tensorio.ErrMismatch) && !errors.Is(err, tensorio.ErrFormat) {
		return err
	}
	return &usageError{msg: strings.Replace(err.Error(), "tensorio: ", "", 1), err: err}
}

// usageError is a usage error (exit code 2) with a message of its own.
type usageError struct {
	msg string
	err error
}

func (e *usageError) Error() string   { return e.msg }
func (e *usageError) Unwrap() []error { return []error{errUsage, e.err} }

// parseCompression reads the --compression flag for IPC and Parquet.
func parseCompression(s string) (tensorio.Compression, error) {
	switch c, err := fstensor.ParseCompression(s); {
	case err == nil && (c == fstensor.Uncompressed || c == fstensor.LZ4 || c == fstensor.ZSTD):
		return c, nil
	}
	return 0, fmt.Errorf("%w: unknown compression %q (want none, lz4 or zstd)", errUsage, s)
}

// selectColumns returns the indices of the named columns, all when names is
// empty.
func selectColumns(schema *arrow.Schema, names []string) ([]int, error) {
	if len(names) == 0 {
		idx := make([]int, schema.NumFields())
		for i := range idx {
			idx[i] = i
		}
		return idx, nil
	}
	var idx []int
	for _, n := range names {
		i := schema.FieldIndices(n)
		if len(i) == 0 {
			return nil, fmt.Errorf("%w: no column %q (columns: %s)", errUsage, n, columnNames(schema))
		}
		idx = append(idx, i[0])
	}
	return idx, nil
}

func columnNames(schema *arrow.Schema) string {
	var names []string
	for _, f := range schema.Fields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

// concatColumn reads column idx of the remaining batches of r and returns
// them concatenated into new buffers from alloc, which outlive r (a
// mapped file's buffers die with its Close). It returns errNoRows when no
// batch is left, and r's error when reading fails.
func concatColumn(r array.RecordReader, idx int, alloc memory.Allocator) (arrow.Array, error) {
	var parts []arrow.Array
	defer func() {
		for _, p := range parts {
			p.Release()
		}
	}()
	for r.Next() {
		c := r.RecordBatch().Column(idx)
		c.Retain()
		parts = append(parts, c)
	}
	if err := r.Err(); err != nil {
		return nil, err
	}
	if len(parts) == 0 {
		return nil, errNoRows
	}
	return array.Concatenate(parts, alloc)
}
