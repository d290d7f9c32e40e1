// Package format reads and writes the parts of the Parquet format that
// package parquetconv decodes itself rather than through arrow-go: the
// Thrift compact protocol of the footer and page headers ([ReadFooter],
// [ParsePageHeader]) and the RLE/bit-packed hybrid encoding of levels and
// dictionary indices ([LevelEncoder], [HybridReader], [DecodeHybrid],
// [AllEqual], [RepWalker]).
//
// Nothing here panics on outside bytes: errors are *[Error] values
// wrapping arrow.ErrInvalid whose text names no package (parquetconv
// wraps them in its own error, which does).
package format
