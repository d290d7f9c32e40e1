package objstore

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/internal/errs"
)

// ErrURL reports a name that is not an s3:// URL of this package. It
// wraps arrow.ErrInvalid.
var ErrURL = fmt.Errorf("objstore: invalid URL: %w", arrow.ErrInvalid)

type base = errs.Base

// Error is the error type of this package's own errors: invalid URLs
// (wrapping ErrURL), invalid option values (fstensor.ErrOption). It
// matches arrow.ErrInvalid and its sentinel under errors.Is; its message
// starts with "objstore: ". Errors of the storage service are
// *fs.PathError values (see the package doc).
type Error struct{ base }

func urlError(url, why string) error {
	return &Error{errs.Kind(ErrURL, "objstore", "%q: %s", url, why)}
}

func optionError(name string, value any, why string) error {
	return &Error{errs.Option("objstore", name, value, why)}
}
