package webhook

import (
	"errors"
	"strings"
	"testing"

	"github.com/fourd-dev/fourd/engine"
)

func TestValidateURL(t *testing.T) {
	strict := AddressPolicy{}
	dev := AddressPolicy{AllowLoopbackHTTP: true}
	tests := []struct {
		name   string
		policy AddressPolicy
		url    string
		want   string // "" when valid, else the message
	}{
		{"https", strict, "https://hooks.example.com/fourd", ""},
		{"https with port and query", strict, "https://hooks.example.com:8443/in?src=fourd", ""},
		{"trailing dot", strict, "https://hooks.example.com./in", ""},
		{"public IP literal", strict, "https://93.184.215.14/in", ""},
		{"http", strict, "http://hooks.example.com/in", "url must use https"},
		{"http to loopback without the dev flag", strict, "http://127.0.0.1:8080/in", "url must use https"},
		{"http to loopback in dev", dev, "http://127.0.0.1:8080/in", ""},
		{"http to localhost in dev", dev, "http://localhost:8080/in", ""},
		{"http to [::1] in dev", dev, "http://[::1]:8080/in", ""},
		{"http to a public host in dev", dev, "http://hooks.example.com/in", "url must use https"},
		{"ftp", strict, "ftp://hooks.example.com/", "url must use https"},
		{"empty", strict, "", "url is required"},
		{"relative", strict, "/hooks", "url must be an absolute https URL"},
		{"opaque", strict, "https:hooks.example.com", "url must be an absolute https URL"},
		{"no host", strict, "https:///path", "url must have a host"},
		{"user info", strict, "https://user:pass@hooks.example.com/", "url must not contain user info"},
		{"user only", strict, "https://user@hooks.example.com/", "url must not contain user info"},
		{"fragment", strict, "https://hooks.example.com/#x", "url must not contain a fragment"},
		{"space", strict, "https://hooks.example.com/a b", "url must not contain spaces or control characters"},
		{"newline", strict, "https://hooks.example.com/\n", "url must not contain spaces or control characters"},
		{"too long", strict, "https://hooks.example.com/" + strings.Repeat("a", MaxURLLength), "url must be at most 2048 bytes"},
		{"bad port", strict, "https://hooks.example.com:99999/", "url has an invalid port"},
		{"empty port", strict, "https://hooks.example.com:/", "url has an invalid port"},
		{"private IP literal", strict, "https://10.0.0.5/in", "url points to a destination address not allowed (private)"},
		{"metadata IP literal", strict, "https://169.254.169.254/latest/meta-data", "url points to a destination address not allowed (cloud metadata)"},
		{"IPv6 link-local literal", strict, "https://[fe80::1]/in", "url points to a destination address not allowed (link-local)"},
		{"mapped loopback literal", strict, "https://[::ffff:127.0.0.1]/in", "url points to a destination address not allowed (loopback)"},
		{"localhost", strict, "https://localhost/in", "url must not point to localhost"},
		{"sub.localhost", strict, "https://a.localhost/in", "url must not point to localhost"},
		{"single label", strict, "https://intranet/in", "url host must be a fully qualified domain name"},
		{"internal domain", strict, "https://metadata.google.internal/", "url must not point to an internal domain (.internal)"},
		{"mdns", strict, "https://printer.local/", "url must not point to an internal domain (.local)"},
		{"empty label", strict, "https://hooks..example.com/", "url host is not a valid domain name"},
		// Addresses in the spellings a resolver (inet_aton) accepts (issue 28).
		{"octal first part", strict, "https://012.0.0.1/", "url points to a destination address not allowed (private)"},
		{"octal loopback", strict, "https://0177.0.0.1/", "url points to a destination address not allowed (loopback)"},
		{"two parts", strict, "https://10.1/", "url points to a destination address not allowed (private)"},
		{"three parts", strict, "https://169.254.43518/", "url points to a destination address not allowed (cloud metadata)"},
		{"octal metadata", strict, "https://0251.0376.0251.0376/", "url points to a destination address not allowed (cloud metadata)"},
		{"single decimal", strict, "https://2130706433/", "url points to a destination address not allowed (loopback)"},
		{"single hex", strict, "https://0x7f000001/", "url points to a destination address not allowed (loopback)"},
		{"hex parts", strict, "https://0xA9.0xFE.0xA9.0xFE/", "url points to a destination address not allowed (cloud metadata)"},
		{"numeric trailing dot", strict, "https://10.0.0.1./", "url points to a destination address not allowed (private)"},
		{"fullwidth digits", strict, "https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/", "url points to a destination address not allowed (loopback)"},
		{"fullwidth dots", strict, "https://10\uff0e0\u30020\uff611/", "url points to a destination address not allowed (private)"},
		{"zero", strict, "https://0/", "url points to a destination address not allowed (unspecified)"},
		{"part too big", strict, "https://1.2.3.256/", "url host is not a valid domain name or IP address"},
		{"last part too big", strict, "https://1.16777216/", "url host is not a valid domain name or IP address"},
		{"bad octal", strict, "https://09.1.1.1/", "url host is not a valid domain name or IP address"},
		{"five parts", strict, "https://1.2.3.4.5/", "url host is not a valid domain name or IP address"},
		{"numeric last label", strict, "https://hooks.example.123/", "url host is not a valid domain name or IP address"},
		{"public in octal", strict, "https://0135.0270.0327.016/in", ""},
		{"public in two parts", strict, "https://93.12113678/in", ""},
		{"digits inside a name", strict, "https://hooks1.example2.com/in", ""},
		{"hex-looking name", strict, "https://0xcafe.example.com/in", ""},
		{"unicode name", strict, "https://h\u00e9\u00e9.example.com/in", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.policy.ValidateURL(tt.url)
			if tt.want == "" {
				if err != nil {
					t.Errorf("ValidateURL(%q) = %v, want nil", tt.url, err)
				}
				return
			}
			var e *engine.Error
			if !errors.As(err, &e) {
				t.Fatalf("ValidateURL(%q) = %v, want an engine.Error", tt.url, err)
			}
			got := engine.Error{Code: e.Code, Message: e.Message, Field: e.Field}
			want := engine.Error{Code: engine.CodeValidationFailed, Message: tt.want, Field: "url"}
			if got != want {
				t.Errorf("ValidateURL(%q) = %+v, want %+v", tt.url, got, want)
			}
		})
	}
}
