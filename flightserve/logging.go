package flightserve

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// logEvery is the least time between two lines of one kind.
const logEvery = time.Second

// Messages of the records of calls.
const (
	msgRejected = "rejected calls" // the client's error or a refusal
	msgFailed   = "failed calls"   // the server's error
	msgPanic    = "panic"          // a caught panic, with its stack
	msgCall     = "call"           // one call, at slog.LevelDebug
	msgUnmapped = "files read, not mapped: no read lease (another user's file, a file system without leases, or a file some process holds open for writing)"
)

// callLog writes the records of a server's calls: calls of a kind
// (message, code, method) are counted, and a kind writes at most one line
// a second, holding the count of calls since its last line and the
// details of the latest; a timer writes the count left at the end of the
// second. The zero callLog, and a nil one, log nothing.
type callLog struct {
	logger *slog.Logger
	mu     sync.Mutex
	kinds  map[logKind]*logEntry
}

type logKind struct {
	msg    string
	code   codes.Code
	method string
}

// logEntry is the state of one kind.
type logEntry struct {
	level   slog.Level
	count   int64       // calls since the last line
	last    time.Time   // of the last line
	timer   *time.Timer // writes count at last+logEvery, or nil
	gen     int64       // of timer: a timer stopped too late finds another
	details []slog.Attr // of the latest call
}

// newCallLog returns the log of a server logging to logger (nil: none).
func newCallLog(logger *slog.Logger) *callLog {
	return &callLog{logger: logger, kinds: map[logKind]*logEntry{}}
}

// ended records the end of call c with code and err; a call that
// panicked was logged by panicked.
func (l *callLog) ended(ctx context.Context, c *call, code codes.Code, err error, panicked bool) {
	if l == nil || l.logger == nil {
		return
	}
	if l.logger.Enabled(ctx, slog.LevelDebug) {
		l.logger.LogAttrs(ctx, slog.LevelDebug, msgCall, slog.String("method", c.method), slog.String("code", code.String()),
			slog.Duration("duration", time.Since(c.start)), slog.Int64("bytes_sent", c.sent), slog.Int64("bytes_received", c.received))
	}
	if panicked {
		return
	}
	switch classify(code) {
	case classRejected:
		l.event(logKind{msgRejected, code, c.method}, slog.LevelWarn, slog.String("error", cut(status.Convert(err).Message(), 256)))
	case classFailed:
		l.event(logKind{msgFailed, code, c.method}, slog.LevelError, slog.String("error", cut(status.Convert(err).Message(), 256)))
	}
}

// panicked records a panic caught in a call of method.
func (l *callLog) panicked(method string, p any, stack []byte) {
	if l == nil || l.logger == nil {
		return
	}
	l.event(logKind{msgPanic, codes.Internal, method}, slog.LevelError, slog.String("panic", panicText(p)), slog.String("stack", string(stack)))
}

// unmapped records a DoGet that reads the IPC file at path rather than
// map it, for lack of a read lease (at info level: such calls work, at
// the cost of a copy).
func (l *callLog) unmapped(path string) {
	if l == nil || l.logger == nil {
		return
	}
	l.event(logKind{msgUnmapped, codes.OK, "DoGet"}, slog.LevelInfo, slog.String("path", path))
}

// event counts a call of kind k, and writes its line unless the kind
// wrote one less than logEvery ago.
func (l *callLog) event(k logKind, level slog.Level, details ...slog.Attr) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.kinds[k]
	if e == nil {
		e = &logEntry{}
		l.kinds[k] = e
	}
	e.count++
	e.level, e.details = level, details
	if e.timer != nil {
		return
	}
	if wait := e.last.Add(logEvery).Sub(now); wait > 0 {
		e.gen++
		gen := e.gen
		e.timer = time.AfterFunc(wait, func() { l.fire(k, gen) })
		return
	}
	l.write(k, e, now)
}

// fire writes the line kind k's timer of generation gen waited for.
func (l *callLog) fire(k logKind, gen int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if e := l.kinds[k]; e != nil && e.timer != nil && e.gen == gen {
		e.timer = nil
		l.write(k, e, time.Now())
	}
}

// flush writes the counts of every kind at once and stops the timers; it
// returns once no line is being written.
func (l *callLog) flush() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, e := range l.kinds {
		if e.timer != nil {
			e.timer.Stop()
			e.timer = nil
			e.gen++
			l.write(k, e, time.Now())
		}
	}
}

// write writes the line of kind k and restarts its count; l.mu is held,
// so that the lines of a kind keep their order and flush waits for them.
func (l *callLog) write(k logKind, e *logEntry, now time.Time) {
	if e.count == 0 {
		return
	}
	attrs := append([]slog.Attr{slog.String("method", k.method), slog.String("code", k.code.String()), slog.Int64("count", e.count)}, e.details...)
	l.logger.LogAttrs(context.Background(), e.level, k.msg, attrs...)
	e.count, e.last, e.details = 0, now, nil
}

// Classes of the codes calls end with.
const (
	classOK       = iota
	classEnded    // the client canceled the call or its deadline passed
	classRejected // the client's error, or a refusal
	classFailed   // the server's error
)

// classify returns the class of code.
func classify(code codes.Code) int {
	switch code {
	case codes.OK:
		return classOK
	case codes.Canceled, codes.DeadlineExceeded:
		return classEnded
	case codes.Unknown, codes.Internal, codes.DataLoss, codes.Unavailable:
		return classFailed
	}
	return classRejected
}
