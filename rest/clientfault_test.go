package rest

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// logRecords is a slog handler that keeps what is logged.
type logRecords struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (l *logRecords) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecords) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.recs = append(l.recs, r.Clone())
	return nil
}
func (l *logRecords) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecords) WithGroup(string) slog.Handler      { return l }

// errors returns the messages and attributes logged at ERROR.
func (l *logRecords) errors() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, r := range l.recs {
		if r.Level >= slog.LevelError {
			s := r.Message
			r.Attrs(func(a slog.Attr) bool { s += " " + a.String(); return true })
			out = append(out, s)
		}
	}
	return out
}

// socketAddress matches an IP address with a port, as net.OpError writes.
var socketAddress = regexp.MustCompile(`\d+\.\d+\.\d+\.\d+:\d+|\[[0-9a-f:]+\]:\d+`)

// A client that stalls in the middle of its body, or closes its side of
// the connection before sending all of it, gets 400 invalid_request on
// every POST — inventory, JSON bodies, and with an Idempotency-Key — with
// a message that names no socket address, and nothing is logged at ERROR
// (issue 28).
func TestClientFaultsAre4xx(t *testing.T) {
	logs := &logRecords{}
	e := newEnv(t, envOptions{findingsA: 2, findingsB: 2,
		config: func(c *Config) { c.Logger = slog.New(logs) },
		server: func(s *http.Server) { s.ReadTimeout = time.Second }})
	host := strings.TrimPrefix(e.url, "http://")
	line := `{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:cut-%d","name":"b"}` + "\n"
	for _, c := range []struct {
		name, path, contentType, idemKey, part string
	}{
		{"inventory", "/v1/resources", "application/x-ndjson", "", fmt.Sprintf(line, 1) + fmt.Sprintf(line, 2)},
		{"inventory, nothing yet", "/v1/resources", "application/x-ndjson", "", ""},
		{"json body", "/v1/policies", "application/json", "", `{"name":"cut","expression":"tr`},
		{"json body with an idempotency key", "/v1/policies", "application/json", "cut-1", `{"name":"cut","expression":"tr`},
	} {
		for _, how := range []string{"stalls", "closes"} {
			t.Run(c.name+"/"+how, func(t *testing.T) {
				conn, err := net.Dial("tcp", host)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close()
				head := "POST " + c.path + " HTTP/1.1\r\nHost: " + host + "\r\nAuthorization: Bearer " + e.tokA +
					"\r\nContent-Type: " + c.contentType + "\r\nContent-Length: 100000\r\n"
				if c.idemKey != "" {
					head += "Idempotency-Key: " + c.idemKey + how + "\r\n"
				}
				if _, err := io.WriteString(conn, head+"\r\n"+c.part); err != nil {
					t.Fatal(err)
				}
				if how == "closes" {
					if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
						t.Fatal(err)
					}
				}
				_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				if err != nil {
					t.Fatalf("no answer: %v", err)
				}
				defer res.Body.Close()
				b, _ := io.ReadAll(res.Body)
				if res.StatusCode != http.StatusBadRequest || errCode(b) != engine.CodeInvalidRequest {
					t.Errorf("%d %s, want 400 invalid_request", res.StatusCode, b)
				}
				if a := socketAddress.FindString(string(b)); a != "" {
					t.Errorf("the answer names the socket address %s: %s", a, b)
				}
			})
		}
	}
	if errs := logs.errors(); len(errs) > 0 {
		t.Errorf("client faults logged at ERROR:\n%s", strings.Join(errs, "\n"))
	}
}

// A chunked NDJSON upload (no Content-Length) over the inventory limit is
// 413 payload_too_large, and its message accounts for every line: how many
// were processed and stored before the limit, and that nothing after it
// was read; what it says was stored is what the tenant has (issue 28).
func TestChunkedInventoryOverTheLimit(t *testing.T) {
	const limit = 3 << 19 // 1.5 MiB: past what format detection reads ahead (1 MiB)
	e := newEnv(t, envOptions{findingsA: 2, findingsB: 2,
		config: func(c *Config) { c.InventoryMaxBodyBytes, c.MaxBodyBytes = limit, 16<<10 }})
	var body strings.Builder
	lines := 0
	for body.Len() < 2*limit {
		fmt.Fprintf(&body, `{"provider":"aws","account":"123456789012","region":"eu-west-1","type":"aws_s3_bucket","native_id":"arn:chunk-%05d","name":"bucket %d","attributes":{"pad":"%s"}}`+"\n",
			lines, lines, strings.Repeat("x", 100))
		if lines%50 == 7 { // a few invalid lines, rejected on the way
			body.WriteString(`{"provider":"aws","type":""}` + "\n")
		}
		lines++
	}
	req, err := http.NewRequest(http.MethodPost, e.url+"/v1/resources", io.NopCloser(strings.NewReader(body.String())))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = -1 // chunked
	req.Header.Set("Authorization", "Bearer "+e.tokA)
	req.Header.Set("Content-Type", "application/x-ndjson")
	res, err := e.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusRequestEntityTooLarge || errCode(b) != engine.CodePayloadTooLarge {
		t.Fatalf("%d %s, want 413 payload_too_large", res.StatusCode, b)
	}
	var eb errorBody
	_ = json.Unmarshal(b, &eb)
	m := regexp.MustCompile(`the (\d+) items before it were processed \((\d+) accepted and stored, (\d+) rejected\) and nothing after it was read`).
		FindStringSubmatch(eb.Error.Message)
	if m == nil {
		t.Fatalf("the message does not account for the lines: %q", eb.Error.Message)
	}
	processed, _ := strconv.Atoi(m[1])
	accepted, _ := strconv.Atoi(m[2])
	rejected, _ := strconv.Atoi(m[3])
	if accepted == 0 || rejected == 0 || processed != accepted+rejected || processed >= lines {
		t.Errorf("processed %d = accepted %d + rejected %d of %d lines", processed, accepted, rejected, lines)
	}
	stored := 0
	for cursor := ""; ; {
		page := getJSON[struct {
			Data []struct {
				NativeID string `json:"native_id"`
			}
			NextCursor *string `json:"next_cursor"`
		}](t, e, "/v1/resources?limit=200&type=aws_s3_bucket"+cursor, e.tokA)
		for _, r := range page.Data {
			if strings.HasPrefix(r.NativeID, "arn:chunk-") {
				stored++
			}
		}
		if page.NextCursor == nil {
			break
		}
		cursor = "&cursor=" + *page.NextCursor
	}
	if stored != accepted {
		t.Errorf("the tenant has %d of the upload's resources; the answer says %d were stored", stored, accepted)
	}
}
