package objstore

import (
	"strings"
	"unicode/utf8"
)

// URL is the address of an object or of a prefix of keys in a bucket:
// s3://Bucket/Key.
type URL struct {
	Bucket string
	Key    string // the object's key, or a prefix of keys; may be empty
}

// String returns the URL as text, "s3://" + Bucket + "/" + Key.
func (u URL) String() string { return Scheme + u.Bucket + "/" + u.Key }

// Scheme is the prefix of the URLs the package reads.
const Scheme = "s3://"

// maxKeyLen is the longest key S3 takes, in bytes of UTF-8.
const maxKeyLen = 1024

// IsURL reports whether name is written as a URL, "scheme://...", with a
// scheme of letters, digits, '+', '-' and '.' that starts with a letter
// (RFC 3986), rather than as a file path. It tells names to give to
// [ParseURL] (which supports s3:// only) from local paths: a file path
// that looks like a URL is read as one.
func IsURL(name string) bool {
	scheme, _, ok := strings.Cut(name, "://")
	if !ok || scheme == "" {
		return false
	}
	for i, r := range scheme {
		letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
		if !letter && (i == 0 || !(r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// ParseURL parses "s3://bucket/key". The bucket follows S3's naming
// rules (3 to 63 lowercase letters, digits, '.' and '-', starting and
// ending with a letter or digit); the key, which may be empty (a prefix
// for [Client.List]; [Client.Open] refuses it), is valid UTF-8 of at most
// 1024 bytes, taken as written (no percent-decoding: S3 keys may hold
// '%', '?' and '#'). Other schemes (gs://, az://, http://) are refused:
// see the package doc. Errors wrap ErrURL and arrow.ErrInvalid and quote
// s.
func ParseURL(s string) (URL, error) {
	if !IsURL(s) {
		return URL{}, urlError(s, "not a URL (want s3://bucket/key)")
	}
	if !strings.HasPrefix(s, Scheme) {
		scheme, _, _ := strings.Cut(s, "://")
		return URL{}, urlError(s, "scheme "+scheme+":// is not supported (s3:// only)")
	}
	bucket, key, _ := strings.Cut(s[len(Scheme):], "/")
	if bucket == "" {
		return URL{}, urlError(s, "no bucket")
	}
	if why := checkBucket(bucket); why != "" {
		return URL{}, urlError(s, "bucket "+why)
	}
	if !utf8.ValidString(key) {
		return URL{}, urlError(s, "key is not valid UTF-8")
	}
	if len(key) > maxKeyLen {
		return URL{}, urlError(s, "key is longer than 1024 bytes")
	}
	return URL{Bucket: bucket, Key: key}, nil
}

// checkBucket returns why name is not a valid bucket name, or "".
func checkBucket(name string) string {
	if len(name) < 3 || len(name) > 63 {
		return "name must be 3 to 63 characters long"
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '.' && c != '-' || i == 0 || i == len(name)-1) {
			return "name may hold lowercase letters, digits, '.' and '-', and start and end with a letter or digit"
		}
	}
	return ""
}
