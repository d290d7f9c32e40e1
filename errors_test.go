package fstensor_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
)

// TestErrorChain: an error that crosses packages (decthings wrapping
// metadata wrapping stride) is found under errors.As as each package's
// Error and under errors.Is as arrow.ErrInvalid, and each package names
// itself once.
func TestErrorChain(t *testing.T) {
	_, err := decthings.NewColumn([]decthings.Tensor{{Type: decthings.F32, Shape: []int{2, -1}}})
	var de *decthings.Error
	var me *metadata.Error
	var se *stride.Error
	if !errors.As(err, &de) || !errors.As(err, &me) || !errors.As(err, &se) || !errors.Is(err, arrow.ErrInvalid) {
		t.Fatalf("error %v; want a *decthings.Error wrapping a *metadata.Error wrapping a *stride.Error, and arrow.ErrInvalid", err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "decthings: ") || strings.Count(msg, "decthings: ") != 1 || strings.Count(msg, "metadata: ") != 1 {
		t.Errorf("message %q; want it to start with the package and name each package once", msg)
	}
}
