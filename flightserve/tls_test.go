package flightserve_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/fstensor/fstensor/flightserve"
)

// selfSigned returns a certificate for 127.0.0.1 and a pool trusting it.
func selfSigned(t *testing.T) (tls.Certificate, *x509.CertPool) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fstensor test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

func TestTLS(t *testing.T) {
	cert, pool := selfSigned(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: testDir(t), Allocator: mem, Token: "tok",
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	c := dial(t, addr, flightserve.WithToken("tok"), flightserve.WithTLS(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	stillServes(t, c)

	plain := dial(t, addr, flightserve.WithToken("tok"))
	ctx := testCtx(t)
	_, err := plain.List(ctx)
	if got := status.Code(err); got != codes.Unavailable {
		t.Errorf("plaintext client: code %v (%v), want Unavailable", got, err)
	}
	untrusting := dial(t, addr, flightserve.WithToken("tok"), flightserve.WithTLS(&tls.Config{RootCAs: x509.NewCertPool(), MinVersion: tls.VersionTLS12}))
	_, err = untrusting.List(ctx)
	if got := status.Code(err); got != codes.Unavailable {
		t.Errorf("client not trusting the certificate: code %v (%v), want Unavailable", got, err)
	}
	stillServes(t, c)
}
