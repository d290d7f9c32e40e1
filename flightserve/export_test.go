package flightserve

// QuoteLabel quotes a Prometheus label value, for the tests.
var QuoteLabel = quote

// SetMinFreeBytes sets the free space DoPut leaves and returns the
// function that restores it.
func SetMinFreeBytes(n int64) (restore func()) {
	old := minFreeBytes.Swap(n)
	return func() { minFreeBytes.Store(old) }
}
