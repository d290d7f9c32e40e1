// Package tensorio reads and writes record batches with tensor columns in
// every format of this module, chosen by file extension or by name: one
// reader loop and one safe writer for Arrow IPC files and streams,
// Parquet, NumPy .npy and .npz, TensorFlow TensorProto, ZIO and Decthings.
//
// # Overview
//
// Open returns a Reader, an arrow-go array.RecordReader: the same
// Next/RecordBatch/Err loop for every format, with options to keep some
// columns (WithColumns), rows (WithOffset, WithLimit), cut batches
// (WithBatchRows), map files (WithMmap), name the column of a
// single-column file (WithColumnName) and read plain FixedSizeList or
// list columns of numbers as tensors (WithShape). Create returns a Writer
// whose file appears at its path only when Close succeeds; NewWriter writes
// to any io.Writer, such as standard output, and NewReader reads the
// formats that can be read front to back (IPC streams, .npy, .pb, .zio,
// .dt) from any io.Reader, such as standard input. OpenFile and CreateIn
// do the same for a file the caller opened and for a new file inside an
// os.Root, for servers that must not look a path up twice. Take copies
// the rows of a file with the given numbers, in the order given, into one
// batch: IPC files by offset through a mapping, Parquet files by ranged
// reads of the pages that hold them (through the page index the writer
// writes), other formats by a scan.
//
// Writers take WithRowMajor, which writes permuted tensor columns in
// logical row-major order for readers that get permutations wrong
// (pyarrow's to_numpy_ndarray, Ray Data), and WithPageBytes, the size of
// Parquet pages (small pages make Take read less).
//
//	r, err := tensorio.Open("images.parquet")
//	...
//	defer r.Release()
//	for r.Next() {
//		rec := r.RecordBatch() // lent until the next Next
//		...
//	}
//	if err := r.Err(); err != nil { ... }
//
// Open and Take also read s3:// URLs through package objstore: IPC files
// and Parquet by ranged reads of what they decode (a projection of a
// Parquet file reads the footer and the chunks of its columns; a Take of
// an IPC file the metadata of the batches and the bodies of those that
// hold the rows asked), the other formats front to back. Create writes an
// s3:// URL as a streamed multipart upload (the object appears on Close),
// and CreateDataset an s3:// prefix as objects. WithStore gives the
// client, its retries and its counters of requests and bytes read.
//
// # Datasets
//
// NewDataset finds the files of directories, globs ("data/**/*.parquet")
// and lists, which Dataset.Open (or OpenDataset) reads as one Reader: in
// the order of their paths, in parallel (WithWorkers goroutines, memory
// bounded by the batches in flight), with a column for each Hive
// directory "key=value" (ParseHiveDir), WithColumns, WithOffset and
// WithLimit over the whole dataset (whole files skipped by the row counts
// of their footers), and a clear error (ErrSchema) naming the first file
// whose columns differ. Dataset.Take takes rows by their number over the
// dataset through Take. CreateDataset writes a dataset: files
// "part-00000.parquet" of a target size (WithTargetFileSize), under Hive
// directories by the values of columns (WithPartitionBy), each written
// as Create writes a file, which pyarrow.dataset, polars, DuckDB and Ray
// Data read back.
//
// Open checks the first bytes of a file against its extension (Sniff):
// a Parquet file named x.arrow fails with a *FormatError that says so,
// rather than with the IPC reader's complaint about a missing footer.
// WithFormat overrides the extension and the check.
//
// The package links every codec (and with Parquet, arrow-go's pqarrow):
// programs that need one format import that format's package instead.
//
// # Memory
//
// A Reader lends its batches: each is valid until the next call of Next,
// Close or the last Release, unless the caller retains it. Retained
// batches outlive the reader, except those of a mapped file (WithMmap),
// whose buffers point into the mapping that Close unmaps. Batches are
// allocated from WithAllocator, except what the .pb, .zio and .dt codecs
// decode. The writers of tensors-only formats (.npy, .npz, .pb, .zio, .dt)
// retain every batch until Close, which concatenates each column and
// writes it; the others write each batch as it comes and retain nothing.
//
// # Safety of files
//
// Create writes a temporary file ".NAME.tmp-PID-RANDOM" in the target's
// directory, after removing those of the same target whose process (PID)
// no longer runs, as after a SIGKILL.
// Writer.Close writes what remains, syncs the file, renames it over the
// target and syncs the directory; Writer.Abort and every failed Close
// remove it. Until Close succeeds whatever stood at the target is left
// byte for byte; a symbolic link as target keeps the link and replaces the
// file it points to; a replaced file keeps its permission bits. A target
// that exists but is not a regular file is refused (ErrNotRegular).
// HandleSignals extends this to SIGINT and SIGTERM.
//
// # Errors
//
// Errors name the file's path. Errors of a file's contents wrap
// arrow.ErrInvalid (the codecs' and converters' error types); ErrFormat
// reports an unknown format or extension and, through *FormatError, a
// file whose bytes are of another format than its name says; ErrMismatch
// options or schemas that do not fit a file or format; fstensor.ErrOption
// an invalid option value (a nil allocator, a negative count, zero
// workers, an unknown codec), which every entry point reports before it
// opens or creates anything; ErrClosed a writer used after Close or
// Abort; ErrSchema a dataset's file whose columns differ from the first
// file's, ErrNoFiles a dataset source that names no file. The package's own errors are *Error values. Errors of the operating system are *fs.PathError values; those of
// a writer name its target, never the temporary file (a missing directory
// is "create DIR/NAME: no directory "DIR"").
//
// Every batch given to Writer.Write is validated in full
// (arrowconv.ValidateRecord) before any writer sees it, as every batch a
// reader returns is: an invalid batch (string offsets past their data,
// a null count that contradicts its bitmap, any invariant Arrow C++'s
// ValidateFull checks, in any column) is an error wrapping
// arrow.ErrInvalid that names the column and row, and is never copied to
// an output. A panic below Write or Close (arrow-go's writers trust their
// input) is returned as an error wrapping arrow.ErrInvalid with the panic
// value. A failed Write, or Close, aborts the writer: no temporary file
// is left.
package tensorio
