package flightserve_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/flightserve"
)

// wantOptionError fails t unless err is a *flightserve.Error wrapping
// fstensor.ErrOption and arrow.ErrInvalid.
func wantOptionError(t *testing.T, err error) {
	t.Helper()
	var fe *flightserve.Error
	if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &fe) {
		t.Errorf("error %v, want a *flightserve.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
	}
}

// TestInvalidClientOptions: Dial refuses an invalid option value before
// it connects.
func TestInvalidClientOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  flightserve.ClientOption
	}{
		{"nil allocator", flightserve.WithAllocator(nil)},
		{"nil TLS", flightserve.WithTLS(nil)},
		{"empty token", flightserve.WithToken("")},
		{"zero message bytes", flightserve.WithMaxMessageBytes(0)},
		{"negative message bytes", flightserve.WithMaxMessageBytes(-1)},
		{"message bytes below 1 MiB", flightserve.WithMaxMessageBytes(1<<20 - 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := flightserve.Dial("127.0.0.1:1", tt.opt)
			if err == nil {
				c.Close()
			}
			wantOptionError(t, err)
		})
	}
}

// TestInvalidConfig: New refuses an invalid Config value before it opens
// the directory (here one that does not exist).
func TestInvalidConfig(t *testing.T) {
	dir := t.TempDir() + "/missing"
	tests := []struct {
		name string
		cfg  flightserve.Config
	}{
		{"negative message bytes", flightserve.Config{Dir: dir, MaxMessageBytes: -1}},
		{"message bytes below 1 MiB", flightserve.Config{Dir: dir, MaxMessageBytes: 1000}},
		{"negative upload bytes", flightserve.Config{Dir: dir, MaxUploadBytes: -1}},
		{"negative batch bytes", flightserve.Config{Dir: dir, BatchBytes: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := flightserve.New(tt.cfg)
			if err == nil {
				s.Stop()
			}
			wantOptionError(t, err)
		})
	}
}
