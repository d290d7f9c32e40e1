//go:build !unix

package arrowconv

import "os"

// mapping holds a whole file in memory where mmap is not available.
type mapping struct {
	data []byte
}

// mapFile reads the file at path into memory.
func mapFile(path string) (*mapping, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &mapping{data: data}, nil
}

// Close drops the data.
func (m *mapping) Close() error {
	m.data = nil
	return nil
}
