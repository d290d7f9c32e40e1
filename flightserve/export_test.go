package flightserve

// QuoteLabel quotes a Prometheus label value, for the tests.
var QuoteLabel = quote

// SetMinFreeBytes sets the free space DoPut leaves and returns the
// function that restores it.
func SetMinFreeBytes(n int64) (restore func()) {
	old := minFreeBytes.Swap(n)
	return func() { minFreeBytes.Store(old) }
}

// MarshalFrame marshals an IPC message of header and body parts as DoGet
// sends it, through the server's codec.
func MarshalFrame(header []byte, body ...[]byte) ([]byte, error) {
	f := &frame{header: header}
	for _, b := range body {
		f.Write(b)
	}
	bs, err := newCodec().Marshal(f)
	if err != nil {
		return nil, err
	}
	defer bs.Free()
	return bs.Materialize(), nil
}
