// Package s3server starts an S3-compatible server for tests: moto's
// server mode (python -m moto.server), a separate process that tests
// reach over HTTP on 127.0.0.1, never an in-process fake. It is test
// support: nothing outside _test.go files imports it.
//
// The interpreter is internal/pyrun's; tests skip, with a message, when
// it or moto is missing (.ci/run installs moto[server]).
package s3server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/fstensor/fstensor/internal/pyrun"
)

// Server is a running moto server.
type Server struct {
	// URL is the server's endpoint, "http://127.0.0.1:PORT".
	URL    string
	client *s3.Client
}

// startTimeout bounds the wait for the server to listen.
const startTimeout = 30 * time.Second

var listening = regexp.MustCompile(`Running on (http://127\.0\.0\.1:\d+)`)

// Start starts a moto server on a free port and stops it when t ends. It
// points the AWS environment of t at it (t.Setenv, so t must not be
// parallel): AWS_ENDPOINT_URL, test credentials and region us-east-1,
// and no shared config files, so that objstore.NewClient and every
// s3:// URL of the test reach the server. It skips t when Python or moto
// is missing.
func Start(t testing.TB) *Server {
	t.Helper()
	py := pyrun.Python(t, "moto.server")
	cmd := exec.Command(py, "-m", "moto.server", "-H", "127.0.0.1", "-p", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting moto: %v", err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	found := make(chan string, 1)
	var head bytes.Buffer // what moto printed before listening
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindSubmatch(sc.Bytes()); m != nil {
				found <- string(m[1])
				break
			}
			head.Write(sc.Bytes())
			head.WriteByte('\n')
		}
		close(found)
		io.Copy(io.Discard, stderr) // moto logs every request
	}()
	var url string
	select {
	case u, ok := <-found:
		if !ok {
			t.Fatalf("moto exited before listening:\n%s", head.Bytes())
		}
		url = u
	case <-time.After(startTimeout):
		t.Fatalf("moto did not listen within %v", startTimeout)
	}
	for k, v := range map[string]string{
		"AWS_ENDPOINT_URL": url, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
		"AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": os.DevNull, "AWS_SHARED_CREDENTIALS_FILE": os.DevNull,
		"AWS_ENDPOINT_URL_S3": "", "AWS_PROFILE": "", "AWS_SESSION_TOKEN": "", "AWS_MAX_ATTEMPTS": "",
	} {
		t.Setenv(k, v)
	}
	client := s3.New(s3.Options{
		BaseEndpoint: aws.String(url), Region: "us-east-1", UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider("test", "test", ""),
	})
	return &Server{URL: url, client: client}
}

// Bucket creates the bucket name.
func (s *Server) Bucket(t testing.TB, name string) {
	t.Helper()
	if _, err := s.client.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(name)}); err != nil {
		t.Fatalf("creating bucket %s: %v", name, err)
	}
}

// Put writes data as the object key of bucket.
func (s *Server) Put(t testing.TB, bucket, key string, data []byte) {
	t.Helper()
	_, err := s.client.PutObject(context.Background(), &s3.PutObjectInput{
		Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(data),
	})
	if err != nil {
		t.Fatalf("putting s3://%s/%s: %v", bucket, key, err)
	}
}

// PutFile writes the file at path as the object key of bucket.
func (s *Server) PutFile(t testing.TB, bucket, key, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Put(t, bucket, key, data)
}

// Uploads returns the number of multipart uploads of bucket started and
// neither completed nor aborted.
func (s *Server) Uploads(t testing.TB, bucket string) int {
	t.Helper()
	out, err := s.client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatalf("listing the uploads of %s: %v", bucket, err)
	}
	return len(out.Uploads)
}

// Get returns the object at key of bucket.
func (s *Server) Get(t testing.TB, bucket, key string) []byte {
	t.Helper()
	out, err := s.client.GetObject(context.Background(), &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		t.Fatalf("getting %s/%s: %v", bucket, key, err)
	}
	defer out.Body.Close()
	b, err := io.ReadAll(out.Body)
	if err != nil {
		t.Fatalf("getting %s/%s: %v", bucket, key, err)
	}
	return b
}
