package parquetconv

// TensorFallbacks returns how many tensor column chunks were read by
// pqarrow instead of the fast path so far.
func TensorFallbacks() int64 { return tensorFallbacks.Load() }
