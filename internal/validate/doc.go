// Package validate checks record batches and arrays in full before they
// reach a writer or leave a reader: every invariant of the Arrow columnar
// format that Arrow C++'s ValidateFull checks, for every type arrow-go
// decodes, nested types included. arrow-go's IPC and Parquet writers trust
// their input and panic on, or silently copy, an array whose buffers
// contradict its type (string offsets past the data, list offsets past
// the child, dictionary indices past the dictionary); readers of outside
// data and writers of caller data call [Record] first.
//
// # Overview
//
// [Record] checks a batch (columns against the schema and the row count,
// then each column); [Array] checks one array under a given name, [Data]
// array data that need not make a valid array. They read the array data
// (arrow.ArrayData) directly and construct no array (but for binary and
// string views, checked by arrow-go's ValidateFull); they allocate the
// path of each child and the error.
//
// # Invariants checked
//
// For every array, children and dictionaries included: offset and length
// non-negative without overflow; the buffer count of the type's layout;
// each buffer at least as long as offset+length values of its width (bits
// for bitmaps, length+1 entries for offsets); the null count within
// [0,length] and equal to the zero bits of the validity bitmap (no bitmap:
// no nulls); unions and run-end-encoded arrays without a bitmap; children
// of the types the type names. Then by type:
//
//   - binary, string and their large forms: offsets non-negative,
//     non-decreasing and within the data; strings valid UTF-8 (non-null
//     values; one utf8.Valid over the data range when every value starts a
//     rune, a per-value pass only to find the bad row);
//   - binary and string views: arrow-go's ValidateFull (data buffer
//     ranges, prefixes, inline padding, UTF-8);
//   - list, large list, map: offsets as above, within the child; map keys
//     without nulls in the entries the map uses;
//   - list views: offsets and sizes non-negative, offset+size within the
//     child;
//   - fixed-size list: a child of (offset+length)*size elements;
//   - struct and sparse union: children of offset+length elements;
//   - unions: type ids among the type's codes, dense offsets within and
//     non-decreasing per child;
//   - dictionary: a dictionary of the value type, non-null indices within
//     it;
//   - run-end encoded: run ends without nulls, positive, strictly
//     increasing, the last covering offset+length, no more run ends than
//     values;
//   - extension types: their storage.
//
// Fixed-width types (decimals of every width, dates, times, timestamps,
// durations, intervals, fixed-size binary) are covered by the buffer
// sizes of their layout.
//
// # Cost
//
// O(1) per array of fixed-width values plus a bit count per validity
// bitmap; O(length) per offsets, views, indices or run ends buffer;
// O(bytes) for the UTF-8 of strings. A tensor column (a fixed-size list
// of primitives) costs two nodes and their bitmaps.
//
// # Errors
//
// Errors wrap arrow.ErrInvalid and read
// `validate: column "a.item" row 3: ...`: the column by its path (struct,
// list, map and union children by their field names, a dictionary as
// "dictionary"), and the row, counted from the start of the array named
// (for a child, its own slots), where one row is at fault. A panic of
// arrow-go met during the checks is returned as such an error too.
package validate
