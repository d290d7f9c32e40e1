package numeric

// Prefetch asks the caches to load b's whole 64-byte lines, which a
// caller reads soon: a pass that writes one block while the next one is
// on its way. It reads nothing and returns at once (no-op without the
// assembly).
func Prefetch(b []byte) { prefetch(b) }
