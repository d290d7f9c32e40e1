package objstore_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/objstore"
)

// FuzzParseURL checks that ParseURL never panics, that its errors wrap
// ErrURL and arrow.ErrInvalid, and that a URL it accepts prints back to
// itself.
func FuzzParseURL(f *testing.F) {
	for _, s := range []string{"s3://bucket/key.parquet", "s3://a.b-c/dir/", "s3://bkt", "gs://b/k", "s3:///k", "", "://", "s3://B/k"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u, err := objstore.ParseURL(s)
		if err != nil {
			if !errors.Is(err, objstore.ErrURL) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("ParseURL(%q) = %v, not wrapping ErrURL and arrow.ErrInvalid", s, err)
			}
			return
		}
		if !objstore.IsURL(s) {
			t.Fatalf("ParseURL(%q) accepts what IsURL refuses", s)
		}
		back := u.String()
		if u.Key == "" && s == objstore.Scheme+u.Bucket {
			back = s // "s3://bucket" prints as "s3://bucket/"
		}
		if back != s {
			t.Fatalf("ParseURL(%q).String() = %q", s, back)
		}
	})
}
