package webhook

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// MaxURLLength bounds an endpoint URL.
const MaxURLLength = 2048

// urlField is the input field that URL validation errors are about.
const urlField = "url"

// ValidateURL checks an endpoint URL at registration: https only (or http to
// a loopback host when AllowLoopbackHTTP is set), an absolute URL with a
// host and no user info or fragment, at most MaxURLLength bytes, and no IP
// literal the policy refuses. It returns a validation_failed engine.Error
// about the "url" field. Hostnames are resolved only when a delivery dials
// them, where the policy is enforced again on the resolved address.
func (p AddressPolicy) ValidateURL(raw string) error {
	if raw == "" {
		return engine.FieldErrorf(urlField, "url is required")
	}
	if len(raw) > MaxURLLength {
		return engine.FieldErrorf(urlField, "url must be at most %d bytes", MaxURLLength)
	}
	for i := 0; i < len(raw); i++ {
		if raw[i] <= ' ' || raw[i] == 0x7f {
			return engine.FieldErrorf(urlField, "url must not contain spaces or control characters")
		}
	}
	u, err := url.Parse(raw)
	if err != nil || !u.IsAbs() || u.Opaque != "" {
		return engine.FieldErrorf(urlField, "url must be an absolute https URL")
	}
	if u.User != nil {
		return engine.FieldErrorf(urlField, "url must not contain user info")
	}
	if u.Fragment != "" || strings.Contains(raw, "#") {
		return engine.FieldErrorf(urlField, "url must not contain a fragment")
	}
	host := u.Hostname()
	if host == "" {
		return engine.FieldErrorf(urlField, "url must have a host")
	}
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return engine.FieldErrorf(urlField, "url has an invalid port")
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return engine.FieldErrorf(urlField, "url has an invalid port")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowLoopbackHTTP || !isLoopbackHost(host) {
			return engine.FieldErrorf(urlField, "url must use https")
		}
	default:
		return engine.FieldErrorf(urlField, "url must use https")
	}
	host = normalizeHost(host)
	addr, err := netip.ParseAddr(host)
	if err != nil && endsInNumber(host) {
		// Not a name: a resolver reads it as an IPv4 address in one of
		// inet_aton's spellings (012.0.0.1, 10.1, 0x7f000001…).
		var ok bool
		if addr, ok = parseInetAton(host); !ok {
			return engine.FieldErrorf(urlField, "url host is not a valid domain name or IP address")
		}
		err = nil
	}
	if err == nil {
		if err := p.CheckAddr(addr); err != nil {
			return engine.FieldErrorf(urlField, "url points to a %s", err.Error())
		}
		return nil
	}
	return checkHostname(host, p)
}

// checkHostname rejects names that can only mean an internal host.
func checkHostname(host string, p AddressPolicy) error {
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if isLoopbackHost(name) {
		if p.AllowLoopbackHTTP {
			return nil
		}
		return engine.FieldErrorf(urlField, "url must not point to localhost")
	}
	if !strings.Contains(name, ".") {
		return engine.FieldErrorf(urlField, "url host must be a fully qualified domain name")
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return engine.FieldErrorf(urlField, "url host is not a valid domain name")
		}
	}
	for _, suffix := range []string{".internal", ".local", ".localdomain", ".home.arpa"} {
		if strings.HasSuffix(name, suffix) {
			return engine.FieldErrorf(urlField, "url must not point to an internal domain (%s)", suffix)
		}
	}
	return nil
}

// isLoopbackHost reports whether host is a loopback IP literal or a
// localhost name.
func isLoopbackHost(host string) bool {
	name := strings.ToLower(strings.TrimSuffix(host, "."))
	if name == "localhost" || strings.HasSuffix(name, ".localhost") {
		return true
	}
	if ip := net.ParseIP(name); ip != nil {
		return ip.IsLoopback()
	}
	return false
}
