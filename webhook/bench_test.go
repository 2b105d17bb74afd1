package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// BenchmarkSendVsBareClient posts the same bodies to a fast loopback
// receiver with Sender.Send (signing, SSRF-checked dialer, bounded read,
// classification) and with a bare http.Client, alternating within each
// iteration so both see the same conditions, and reports both rates and
// their ratio.
func BenchmarkSendVsBareClient(b *testing.B) {
	for _, size := range []int{512, 16 << 10} {
		b.Run(byteSize(size), func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.Copy(io.Discard, r.Body)
				w.WriteHeader(http.StatusNoContent)
			}))
			defer srv.Close()
			s := mustSender(b, Config{Timeout: 10 * time.Second, Now: time.Now})
			d := testDelivery(srv.URL + "/hooks")
			d.Body = []byte(`{"event_id":"evt_01jd2x3y4z5a6b7c8d9e0f1g2h","type":"finding.created","data":{"pad":"` +
				strings.Repeat("x", size-100) + `"}}`)
			bare := &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
			defer bare.CloseIdleConnections()
			ctx := context.Background()

			var senderTime, bareTime time.Duration
			for b.Loop() {
				t0 := time.Now()
				if r := s.Send(ctx, d); r.Outcome != OutcomeSuccess {
					b.Fatalf("Send() = %+v", r)
				}
				t1 := time.Now()
				req, _ := http.NewRequestWithContext(ctx, http.MethodPost, d.URL, bytes.NewReader(d.Body))
				req.Header.Set("Content-Type", "application/json")
				resp, err := bare.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				senderTime += t1.Sub(t0)
				bareTime += time.Since(t1)
			}
			n := float64(b.N)
			b.ReportMetric(n/senderTime.Seconds(), "sender-deliveries/s")
			b.ReportMetric(n/bareTime.Seconds(), "bare-posts/s")
			b.ReportMetric(bareTime.Seconds()/senderTime.Seconds(), "sender/bare-ratio")
		})
	}
}

func byteSize(n int) string {
	if n >= 1<<10 {
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}
