// Package batchreader is the one implementation behind the public
// readers of record batches (packages arrowipc, parquetconv, tensorio and
// flightserve's client): a schema, a function that yields the next batch
// and one that closes the source, behind array.RecordReader.
package batchreader

import (
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// Next yields the next batch, which the caller then owns, or (nil, nil)
// at the end, or an error, which ends the reading.
type Next func() (arrow.RecordBatch, error)

// Reader yields the batches of a Next function as an array.RecordReader:
// Next advances, RecordBatch lends the current batch until the next call
// of Next, Close or the last Release, and Err tells why Next returned
// false. It is not safe for concurrent use.
type Reader struct {
	refs   atomic.Int64
	schema *arrow.Schema
	next   Next // nil at the end, after an error and once closed
	close  func() error
	cur    arrow.RecordBatch
	err    error
}

var _ array.RecordReader = (*Reader)(nil)

// New returns a Reader of the batches of schema that next yields. close,
// if not nil, runs once, at Close or the last Release.
func New(schema *arrow.Schema, next Next, close func() error) *Reader {
	r := &Reader{schema: schema, next: next, close: close}
	r.refs.Store(1)
	return r
}

// Checked returns next with every batch passed to check before it is
// handed out: a batch check refuses is released and its error returned.
func Checked(next Next, check func(arrow.RecordBatch) error) Next {
	return func() (arrow.RecordBatch, error) {
		rec, err := next()
		if err != nil || rec == nil {
			return rec, err
		}
		if err := check(rec); err != nil {
			rec.Release()
			return nil, err
		}
		return rec, nil
	}
}

// Take returns the schema, the Next function and the close function of
// rr and leaves rr empty, so that a reader built on them reads rr's
// source without a second reader in between. A Reader of this package
// that has not been advanced gives up its own functions; any other rr is
// read through its Next and released by close.
func Take(rr array.RecordReader) (*arrow.Schema, Next, func() error) {
	if r, ok := rr.(*Reader); ok && r.cur == nil && r.err == nil && r.next != nil && r.refs.Load() == 1 {
		next, close := r.next, r.close
		r.next, r.close = nil, nil
		r.refs.Store(0)
		if close == nil {
			close = func() error { return nil }
		}
		return r.schema, next, close
	}
	next := func() (arrow.RecordBatch, error) {
		if !rr.Next() {
			return nil, rr.Err()
		}
		rec := rr.RecordBatch()
		rec.Retain()
		return rec, nil
	}
	return rr.Schema(), next, func() error { rr.Release(); return nil }
}

// Schema returns the schema of the batches.
func (r *Reader) Schema() *arrow.Schema { return r.schema }

// Next advances to the next batch, releasing the current one, and
// reports whether there is one; at the end, on an error (see Err) and
// after Close it returns false.
func (r *Reader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.next == nil {
		return false
	}
	rec, err := r.next()
	if err != nil || rec == nil {
		r.err, r.next = err, nil
		return false
	}
	r.cur = rec
	return true
}

// RecordBatch returns the current batch, lent until the next call of
// Next, Close or the last Release; nil before the first Next and at the
// end. Retain it to keep it longer.
func (r *Reader) RecordBatch() arrow.RecordBatch { return r.cur }

// Record returns the current batch.
//
// Deprecated: use RecordBatch, as array.RecordReader does.
func (r *Reader) Record() arrow.RecordBatch { return r.cur }

// Err returns the error that stopped Next, nil at a clean end.
func (r *Reader) Err() error { return r.err }

// Retain adds a reference.
func (r *Reader) Retain() { r.refs.Add(1) }

// Release drops a reference; the last one closes the reader as Close
// does.
func (r *Reader) Release() {
	if r.refs.Add(-1) == 0 {
		r.Close()
	}
}

// Close releases the current batch and closes the source, whatever the
// references, and returns the error of closing it; Close after Close
// returns nil. Batches the caller retained stay valid unless the source
// says otherwise (a memory-mapped file).
func (r *Reader) Close() error {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	r.next = nil
	if r.close == nil {
		return nil
	}
	close := r.close
	r.close = nil
	return close()
}
