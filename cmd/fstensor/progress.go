package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/fstensor/fstensor/parquetconv"
	"github.com/fstensor/fstensor/tensorio"
)

// progressDelay is how long a command works before its progress bar
// appears: shorter work shows none.
const progressDelay = 2 * time.Second

// progress reports the rows and bytes a command has done. The bar of a
// terminal is one kind; noProgress, the other, reports nothing.
type progress interface {
	// add counts rows and bytes more done.
	add(rows, bytes int64)
	// finish ends the report (the bar's last state, a new line).
	finish()
}

// noProgress reports nothing: --quiet, or standard error not a terminal.
type noProgress struct{}

func (noProgress) add(int64, int64) {}
func (noProgress) finish()          {}

// newProgress returns the progress of the work what on w: a bar that
// appears once the work has taken progressDelay, with rows and bytes
// done, the rate and, when total (rows) is not negative, the ETA; a
// spinner with the rates when it is. It returns noProgress when quiet or
// when w is not a terminal.
func newProgress(w io.Writer, quiet bool, what string, total int64) progress {
	f, ok := w.(*os.File)
	if quiet || !ok || !term.IsTerminal(int(f.Fd())) {
		return noProgress{}
	}
	return &barProgress{w: w, what: what, total: total, start: time.Now()}
}

// barProgress is the progress bar of a terminal (schollz/progressbar),
// made once the work has taken progressDelay.
type barProgress struct {
	mu          sync.Mutex // take adds from a ticker while it reads
	w           io.Writer
	what        string
	total       int64 // rows, -1 for unknown
	start       time.Time
	rows, bytes int64
	bar         *progressbar.ProgressBar
}

func (p *barProgress) add(rows, bytes int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rows += rows
	p.bytes += bytes
	if p.bar == nil {
		if time.Since(p.start) < progressDelay {
			return
		}
		p.bar = progressbar.NewOptions64(p.total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetItsString("rows"),
			progressbar.OptionShowIts(),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(p.total >= 0),
			progressbar.OptionSetElapsedTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionOnCompletion(func() { fmt.Fprintln(p.w) }),
			progressbar.OptionFullWidth(),
		)
		rows = p.rows // those before the bar too
	}
	p.bar.Describe(fmt.Sprintf("%s: %s, %s/s", p.what, sizeText(p.bytes), sizeText(int64(float64(p.bytes)/time.Since(p.start).Seconds()))))
	p.bar.Add64(rows)
}

func (p *barProgress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.bar == nil:
	case p.total < 0 || p.rows == p.total:
		p.bar.Finish()
	default: // stopped short (an error): the bar stays where it was
		p.bar.Exit()
		fmt.Fprintln(p.w)
	}
}

// sizeText writes n bytes as 12 B, 3.4 MB, 1.2 GB.
func sizeText(n int64) string {
	switch {
	case n < 1e3:
		return fmt.Sprintf("%d B", n)
	case n < 1e6:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// batchBytes returns the bytes of the buffers of rec's columns (their
// children's too): what a batch weighs, for the progress.
func batchBytes(rec arrow.RecordBatch) int64 {
	var n int64
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += int64(b.Len())
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// cheapRowCount returns the rows of the file at path when its footer
// says (Parquet), else -1: the total of a progress bar.
func cheapRowCount(path string, f tensorio.Format) int64 {
	if f != tensorio.Parquet || path == stdinName {
		return -1
	}
	r, err := os.Open(path)
	if err != nil {
		return -1
	}
	defer r.Close()
	fi, err := r.Stat()
	if err != nil {
		return -1
	}
	n, err := parquetconv.RowCount(r, fi.Size())
	if err != nil {
		return -1
	}
	return n
}
