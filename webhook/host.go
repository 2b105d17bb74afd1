package webhook

import (
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// normalizeHost maps a URL's host the way an HTTP client does before it
// resolves it: Unicode compatibility forms folded to their ASCII
// equivalents (fullwidth digits "１２７" become "127", and the IDNA dot
// variants "．", "。" and "｡" become "."), then lower-cased. A host that is an
// address in a spelling netip refuses must still be recognised as one.
func normalizeHost(host string) string {
	if !isASCII(host) {
		host = norm.NFKC.String(host)
		host = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(host)
	}
	return strings.ToLower(host)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// endsInNumber reports whether host's last label is a number (decimal, or
// hexadecimal with 0x), which makes a resolver read the whole host as an
// IPv4 address rather than a name (WHATWG URL's "ends in a number").
func endsInNumber(host string) bool {
	host = strings.TrimSuffix(host, ".")
	last := host[strings.LastIndexByte(host, '.')+1:]
	if last == "" {
		return false
	}
	if strings.HasPrefix(last, "0x") {
		return strings.Trim(last[2:], "0123456789abcdef") == ""
	}
	return strings.Trim(last, "0123456789") == ""
}

// parseInetAton parses an IPv4 address as inet_aton(3), and so
// getaddrinfo, does: one to four parts separated by dots, each decimal,
// octal (a leading 0) or hexadecimal (0x); the last part fills the bytes
// the others leave, so "10.1" is 10.0.0.1 and "169.254.43518" is
// 169.254.169.254. A single trailing dot is ignored.
func parseInetAton(host string) (netip.Addr, bool) {
	parts := strings.Split(strings.TrimSuffix(host, "."), ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals [4]uint64
	for i, p := range parts {
		v, ok := parseAtonPart(p)
		if !ok {
			return netip.Addr{}, false
		}
		vals[i] = v
	}
	n := len(parts)
	for i := 0; i < n-1; i++ {
		if vals[i] > 0xff {
			return netip.Addr{}, false
		}
	}
	if rest := uint(8 * (5 - n)); vals[n-1] >= 1<<rest {
		return netip.Addr{}, false
	}
	var ip uint64
	for i := 0; i < n-1; i++ {
		ip |= vals[i] << uint(24-8*i)
	}
	ip |= vals[n-1]
	return netip.AddrFrom4([4]byte{byte(ip >> 24), byte(ip >> 16), byte(ip >> 8), byte(ip)}), true
}

// parseAtonPart parses one part of an inet_aton address.
func parseAtonPart(p string) (uint64, bool) {
	base := 10
	switch {
	case p == "":
		return 0, false
	case strings.HasPrefix(p, "0x"):
		p, base = p[2:], 16
		if p == "" {
			return 0, true // "0x" alone is zero, as inet_aton reads it
		}
	case len(p) > 1 && p[0] == '0':
		p, base = p[1:], 8
	}
	v, err := strconv.ParseUint(p, base, 32)
	if err != nil {
		return 0, false
	}
	return v, true
}
