package webhook

import (
	"context"
	"crypto/x509"
	"errors"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr  string
		class string // "" when allowed
	}{
		{"93.184.215.14", ""},
		{"8.8.8.8", ""},
		{"2606:4700:4700::1111", ""},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"172.31.255.255", "private"},
		{"172.32.0.1", ""},
		{"192.168.1.1", "private"},
		{"fc00::1", "private"},
		{"fd12:3456::1", "private"},
		{"127.0.0.1", "loopback"},
		{"127.255.0.1", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"::ffff:10.0.0.1", "private"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"169.254.169.254", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata"},
		{"169.254.170.2", "cloud metadata"},
		{"0.0.0.0", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"::", "unspecified"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"100.64.0.1", "shared address space (CGNAT)"},
		{"100.127.255.254", "shared address space (CGNAT)"},
		{"255.255.255.255", "broadcast"},
		{"240.0.0.1", "reserved"},
		{"198.18.0.1", "reserved"},
		{"192.0.0.8", "reserved"},
		{"192.0.2.1", "documentation"},
		{"2001:db8::1", "documentation"},
		{"64:ff9b::a00:1", "IPv4 translation"},
		{"2002:a00:1::", "IPv4 translation"},
		{"2001:0:a00:1::", "IPv4 translation"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			err := AddressPolicy{}.CheckAddr(netip.MustParseAddr(tt.addr))
			var blocked *BlockedAddressError
			switch {
			case tt.class == "" && err != nil:
				t.Errorf("CheckAddr() = %v, want allowed", err)
			case tt.class != "" && (!errors.As(err, &blocked) || blocked.Class != tt.class):
				t.Errorf("CheckAddr() = %v, want class %q", err, tt.class)
			}
		})
	}
}

func TestCheckAddrAllowList(t *testing.T) {
	p := AddressPolicy{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("10.20.0.0/16"), netip.MustParsePrefix("fd00:ec2::/32")}}
	tests := []struct {
		addr    string
		allowed bool
	}{
		{"10.20.3.4", true},
		{"10.21.3.4", false},
		{"::ffff:10.20.3.4", true},
		{"fd00:ec2::254", true}, // allow-listing beats even the metadata rule
		{"127.0.0.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			if err := p.CheckAddr(netip.MustParseAddr(tt.addr)); (err == nil) != tt.allowed {
				t.Errorf("CheckAddr() = %v, want allowed=%v", err, tt.allowed)
			}
		})
	}
	loop := AddressPolicy{AllowLoopbackHTTP: true}
	if err := loop.CheckAddr(netip.MustParseAddr("127.0.0.1")); err != nil {
		t.Errorf("AllowLoopbackHTTP: CheckAddr(127.0.0.1) = %v", err)
	}
	if err := loop.CheckAddr(netip.MustParseAddr("10.0.0.1")); err == nil {
		t.Error("AllowLoopbackHTTP allowed a private address")
	}
}

// TestDialerChecksResolvedAddress dials through the Sender's transport: the
// check sees the address a hostname resolves to, so a name pointing at an
// internal address (DNS rebinding) is refused before connect.
func TestDialerChecksResolvedAddress(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	s, err := NewSender(Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tests := []struct {
		addr  string
		class string
	}{
		{"localhost:" + port, "loopback"},
		{"127.0.0.1:" + port, "loopback"},
		{"169.254.169.254:80", "cloud metadata"},
		{"[fe80::1]:80", "link-local"},
		{"10.0.0.1:443", "private"},
		{"100.64.0.1:443", "shared address space (CGNAT)"},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			conn, err := s.transport.DialContext(ctx, "tcp", tt.addr)
			if err == nil {
				conn.Close()
				t.Fatal("dial succeeded")
			}
			var blocked *BlockedAddressError
			if !errors.As(err, &blocked) || blocked.Class != tt.class {
				t.Errorf("dial error = %v, want class %q", err, tt.class)
			}
			if strings.Contains(describeError(ctx, err, time.Second), "127.0.0.1") {
				t.Error("error text leaks the resolved address")
			}
		})
	}
}

// TestSendAllowListedTLS delivers over https to a loopback server that
// only the allow-list admits; without it the URL is refused.
func TestSendAllowListedTLS(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the untrusted case fails handshakes
	srv.StartTLS()
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	tests := []struct {
		name string
		cfg  Config
		want summary
	}{
		{"allow-listed", Config{RootCAs: pool, Addresses: AddressPolicy{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}},
			summary{Outcome: OutcomeSuccess, StatusCode: 200}},
		{"not allow-listed", Config{RootCAs: pool},
			summary{Outcome: OutcomeFailed, Error: "url points to a destination address not allowed (loopback)"}},
		{"allow-listed, untrusted certificate", Config{Addresses: AddressPolicy{AllowCIDRs: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}},
			summary{Outcome: OutcomeRetry, Error: "tls handshake failed: certificate not trusted for this host"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSender(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			got := summarize(s.Send(context.Background(), testDelivery(srv.URL)))
			if got != tt.want {
				t.Errorf("Send() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
