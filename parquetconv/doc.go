// Package parquetconv writes and reads tensor columns (package
// fixedshape) in Parquet files.
//
// # Overview
//
//   - [NewWriter] writes record batches with tensor columns; [Writer.Close]
//     writes the footer.
//   - [OpenFile] and [NewReader] read them back as record batches whose
//     tensor columns are fixedshape arrays ([arrowconv.RecordReader]).
//
// A tensor column is stored as the Parquet LIST that pyarrow writes for a
// fixed_size_list (Parquet has no fixed-size list), with the Arrow schema
// stored in the file, so that pyarrow, Arrow C++ and arrow-go restore the
// arrow.fixed_shape_tensor type; readers that ignore the stored schema
// (DuckDB, polars) see variable-size lists of the physical elements.
//
// The package is apart from arrowconv because arrow-go's pqarrow imports
// its Flight and gRPC packages: a program that uses only tensors, IPC or
// C Data does not link them.
//
// # Memory
//
// Readers allocate decoded data from [WithAllocator]; the caller releases
// the reader, and each batch is valid until the next call of Next unless
// retained.
//
// # Errors
//
// Errors from outside data are *[Error] values that wrap
// arrow.ErrInvalid, plus their cause. Readers recover panics of arrow-go's
// decoders on malformed input and return them as errors.
package parquetconv
