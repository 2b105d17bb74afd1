package webhook

import (
	"errors"
	"fmt"
	"net/netip"
	"syscall"
)

// AddressPolicy decides which IP addresses deliveries may connect to. By
// default only public unicast addresses are allowed, so that an endpoint
// URL cannot make fourd reach its own network (SSRF): private, loopback,
// link-local (cloud metadata included), CGNAT, multicast, reserved and
// special-purpose ranges are refused. The check runs on the address being
// dialed, after DNS resolution, so a hostname that resolves (or later
// re-resolves) to an internal address is refused too.
type AddressPolicy struct {
	// AllowCIDRs lists ranges allowed despite the default rules, for
	// example a partner network reached over a private link.
	AllowCIDRs []netip.Prefix
	// AllowLoopbackHTTP allows loopback addresses, and plain http:// to a
	// loopback host, for development and tests. Never set in production.
	AllowLoopbackHTTP bool
}

// BlockedAddressError is returned when a delivery would connect to a
// refused address. Its message names the class, not the address, so it is
// safe to show the endpoint's owner.
type BlockedAddressError struct {
	Addr  netip.Addr
	Class string
}

func (e *BlockedAddressError) Error() string {
	return "destination address not allowed (" + e.Class + ")"
}

// blockedRange is a refused range and the class reported for it.
type blockedRange struct {
	prefix netip.Prefix
	class  string
}

// blockedRanges are checked in order; more specific entries come first so
// the reported class is the most telling one.
var blockedRanges = func() []blockedRange {
	var out []blockedRange
	add := func(class string, cidrs ...string) {
		for _, c := range cidrs {
			out = append(out, blockedRange{netip.MustParsePrefix(c), class})
		}
	}
	add("cloud metadata", "169.254.169.254/32", "169.254.170.2/32", "fd00:ec2::254/128", "100.100.100.200/32")
	add("unspecified", "0.0.0.0/8", "::/128")
	add("loopback", "127.0.0.0/8", "::1/128")
	add("private", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7")
	add("link-local", "169.254.0.0/16", "fe80::/10")
	add("shared address space (CGNAT)", "100.64.0.0/10")
	add("multicast", "224.0.0.0/4", "ff00::/8")
	add("broadcast", "255.255.255.255/32")
	add("reserved", "240.0.0.0/4", "192.0.0.0/24", "198.18.0.0/15", "::/96", "100::/64", "fec0::/10", "2001:10::/28", "2001:20::/28")
	add("documentation", "192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24", "2001:db8::/32", "3fff::/20")
	// IPv6 ranges that embed an IPv4 address and may be translated into
	// one inside the network: NAT64, 6to4, Teredo.
	add("IPv4 translation", "64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "2001::/32", "192.88.99.0/24")
	return out
}()

// CheckAddr returns nil when a delivery may connect to a, or a
// *BlockedAddressError naming the refused class.
func (p AddressPolicy) CheckAddr(a netip.Addr) error {
	a = a.Unmap().WithZone("")
	if !a.IsValid() {
		return &BlockedAddressError{Addr: a, Class: "invalid"}
	}
	for _, pfx := range p.AllowCIDRs {
		if pfx.Contains(a) {
			return nil
		}
	}
	if p.AllowLoopbackHTTP && a.IsLoopback() {
		return nil
	}
	for _, r := range blockedRanges {
		if r.prefix.Contains(a) {
			return &BlockedAddressError{Addr: a, Class: r.class}
		}
	}
	if !a.IsGlobalUnicast() {
		return &BlockedAddressError{Addr: a, Class: "not global unicast"}
	}
	return nil
}

// control is a net.Dialer.Control function: it runs after DNS resolution,
// right before connect(2), on the exact address being dialed.
func (p AddressPolicy) control(network, address string, _ syscall.RawConn) error {
	switch network {
	case "tcp", "tcp4", "tcp6":
	default:
		return fmt.Errorf("webhook: network %q not allowed", network)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return errors.New("webhook: unparsable dial address")
	}
	return p.CheckAddr(ap.Addr())
}
