package signature_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/fourd-dev/fourd/webhook/signature"
)

// A receiver verifies the raw body against X-Service-Signature before it
// parses anything.
func ExampleVerify() {
	secret := []byte("whsec_example")
	body := []byte(`{"event_id":"evt_01jd2x3y4z5a6b7c8d9e0f1g2h","type":"finding.created","created_at":"2026-11-21T05:21:10Z","data":{}}`)
	now := time.Unix(1763702470, 0)

	// What fourd sends.
	header := signature.Sign(secret, now.Unix(), body)

	// What the receiver checks, with the header values as received.
	fmt.Println(signature.Verify(secret, header, "1763702470", body, now))
	fmt.Println(signature.Verify(secret, header, "1763702470", []byte(`{"tampered":true}`), now))
	fmt.Println(signature.Verify(secret, header, "1763702470", body, now.Add(10*time.Minute)))
	// Output:
	// <nil>
	// signature: signature does not match
	// signature: timestamp too old
}

// VerifyRequest in an HTTP handler: read the raw body (bounded), verify,
// acknowledge quickly, process later.
func ExampleVerifyRequest() {
	secrets := [][]byte{[]byte(os.Getenv("WEBHOOK_SECRET"))}
	handler := func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		if err := signature.VerifyRequest(secrets, r.Header, body, time.Now()); err != nil {
			http.Error(w, "invalid signature", http.StatusUnauthorized)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
	_ = handler
	fmt.Println(strings.HasPrefix(signature.Sign([]byte("k"), 1, nil), signature.Prefix))
	// Output: true
}
