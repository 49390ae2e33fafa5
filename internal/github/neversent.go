package github

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
)

// neverSent reports whether err, from sending a request, proves that the request never
// reached the server, so that even a write (a POST that creates a comment) can be sent
// again without risk of doing it twice: the connection was never made (connection
// refused, a DNS failure, no route) or its TLS handshake failed. Anything else (a reset
// or a timeout after the connection was made) may have come after GitHub read the
// request.
func neverSent(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	var rec tls.RecordHeaderError
	var alert tls.AlertError
	var verify *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.Is(err, http.ErrSchemeMismatch): // the client's name for a RecordHeaderError
		return true
	case errors.As(err, &dns), errors.As(err, &rec), errors.As(err, &alert), errors.As(err, &verify),
		errors.As(err, &unknownCA), errors.As(err, &host), errors.As(err, &invalid):
		return true
	case errors.As(err, &op):
		// "dial": connecting failed; "remote error": the server's TLS alert.
		return op.Op == "dial" || op.Op == "remote error"
	}
	return false
}
