// Package objstore reads objects of S3 and S3-compatible servers (MinIO,
// Ceph, moto, ...) as io.ReaderAt values, through the AWS SDK for Go v2,
// so that readers of random-access formats (Parquet footers and column
// chunks, IPC footers and record batches) fetch only the byte ranges
// they need.
//
// # Overview
//
//   - URLs: s3://bucket/key ([ParseURL], [URL]); [IsURL] tells a URL from
//     a file path.
//   - [NewClient] configures a [Client] from the environment and the
//     shared config files as the AWS SDK does, with [WithRetries],
//     [WithEndpoint] and [WithUploadParts].
//   - [Client.Open] returns an [Object]: its [Object.Size] from one HEAD,
//     then one ranged GET per [Object.ReadAt]. [Client.List] lists the
//     keys and sizes under a prefix, page by page; [Client.Put] writes an
//     object in one request, and [Client.Create] returns an [Upload] that
//     writes one as a stream (a multipart upload of [PartSize] parts,
//     [DefaultUploadParts] sent at once), the
//     object appearing whole on [Upload.Commit] (only where the key is
//     free, with [IfAbsent]); [Client.Delete] removes one.
//   - [Object.Prefetch] reads a range in one GET and serves the reads
//     inside it from memory: readers that know what they will read (a
//     Parquet column chunk, an IPC record batch) call it first.
//     [Object.PrefetchRanges] reads several ranges with concurrent GETs
//     ([MaxConcurrentGets] at once): a Parquet take asks for the pages
//     of all the row groups it reads at once.
//   - [Stats] counts the requests and the bytes read, per [Object] and
//     per [Client].
//
// # Configuration
//
// Credentials, region and endpoint come from the standard AWS
// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_PROFILE, AWS_REGION, AWS_ENDPOINT_URL_S3,
// AWS_ENDPOINT_URL, AWS_MAX_ATTEMPTS) and the shared config and
// credentials files (~/.aws/config, ~/.aws/credentials), as the AWS CLI
// reads them. With a custom endpoint, requests use path-style
// addressing (http://host/bucket/key), which S3-compatible servers
// expect. A configuration without a region gets us-east-1.
//
// # Retries
//
// Requests are retried by the SDK's standard retryer, configured here:
// on throttling, 5xx answers and connection errors, up to
// [DefaultMaxAttempts] attempts, waiting a random time (full jitter)
// that grows exponentially from 50 ms (1 s after throttling) up to
// [DefaultMaxBackoff]; a client-wide token bucket stops retrying when
// most requests fail. The SDK does not retry a GET whose body breaks off
// after its headers arrived: [Object.ReadAt] asks again for the missing
// bytes only, as many times and with the same waits.
//
// # Consistency
//
// An [Object] reads the version of the object that [Client.Open] saw:
// its ranged GETs carry the ETag of the HEAD (If-Match), so that an
// object replaced while it is read fails the reads rather than mixing
// two versions' bytes.
//
// # Other stores
//
// gs:// and az:// URLs are refused. gocloud.dev/blob would read them
// through one API, but it links the Google Cloud and Azure SDKs and
// their gRPC and auth stacks into every program that reads a file
// (package tensorio imports this one), and its reader is a stream
// rather than an io.ReaderAt; Google Cloud Storage also serves the S3
// API (https://storage.googleapis.com with HMAC keys), which this
// package reaches through AWS_ENDPOINT_URL_S3.
//
// # Errors
//
// An invalid URL or option value is an *[Error] wrapping [ErrURL] or
// fstensor.ErrOption, and arrow.ErrInvalid. Errors of the server or the
// connection are *fs.PathError values whose Path is the URL and whose
// Op is "open", "read", "list", "put", "abort" or "delete", as errors
// of the operating system are for files: a missing key or bucket (HTTP
// 404) wraps fs.ErrNotExist, a refused request (401, 403)
// fs.ErrPermission, a conditional write that found an object (412)
// fs.ErrExist, and each wraps the SDK's error (errors.As finds its
// *smithy.OperationError and *awshttp.ResponseError).
package objstore
