package testvec

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// Releasing returns err, the error of a constructor, after releasing r
// when err is nil: a test that calls a constructor for its error alone
// returns Releasing(NewX(...)).
func Releasing[R interface{ Release() }](r R, err error) error {
	if err == nil {
		r.Release()
	}
	return err
}

// Closing returns err, the error of a constructor, or when it is nil the
// error of closing c: a test that calls a constructor for its error alone
// returns Closing(NewX(...)).
func Closing[C io.Closer](c C, err error) error {
	if err != nil {
		return err
	}
	return c.Close()
}

// ReadEveryBatch reads every record batch of r, the reader of numbered
// batches (an arrowipc.FileReader) a constructor returned with err,
// releasing each, then closes r; it returns err or the first error of a
// batch.
func ReadEveryBatch[R interface {
	NumRecords() int
	RecordBatch(i int) (arrow.RecordBatch, error)
	Close() error
}](r R, err error) error {
	if err != nil {
		return err
	}
	defer r.Close()
	for i := range r.NumRecords() {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return err
		}
		rec.Release()
	}
	return nil
}

// Drain reads r, the record reader a constructor returned with err, to
// its end, then releases it; it returns err or the reader's error.
func Drain[R interface {
	Next() bool
	Err() error
	Release()
}](r R, err error) error {
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
	}
	return r.Err()
}
