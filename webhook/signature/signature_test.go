package signature

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	testSecret = []byte("whsec_test_secret_0123456789")
	testBody   = []byte(`{"event_id":"evt_01jd2x3y4z5a6b7c8d9e0f1g2h","type":"finding.created","data":{}}`)
	testNow    = time.Unix(1763702470, 0)
)

func TestSignFormat(t *testing.T) {
	got := Sign(testSecret, testNow.Unix(), testBody)
	if !strings.HasPrefix(got, Prefix) || len(got) != headerLen {
		t.Fatalf("Sign() = %q, want %q and %d hex digits", got, Prefix, 64)
	}
	if err := checkFormat(got); err != nil {
		t.Fatalf("checkFormat(Sign()) = %v", err)
	}
	if other := Sign(testSecret, testNow.Unix()+1, testBody); other == got {
		t.Fatal("signatures of different timestamps are equal")
	}
}

func TestVerify(t *testing.T) {
	ts := strconv.FormatInt(testNow.Unix(), 10)
	good := Sign(testSecret, testNow.Unix(), testBody)
	tests := []struct {
		name   string
		secret []byte
		header string
		ts     string
		body   []byte
		now    time.Time
		opts   []Option
		want   error
	}{
		{name: "valid", header: good, want: nil},
		{name: "valid at the tolerance edge (past)", now: testNow.Add(300 * time.Second), want: nil},
		{name: "valid at the tolerance edge (future)", now: testNow.Add(-300 * time.Second), want: nil},
		{name: "tampered body", body: append([]byte(nil), append(testBody, ' ')...), want: ErrMismatch},
		{name: "empty body against signed body", body: []byte{}, want: ErrMismatch},
		{name: "wrong secret", secret: []byte("whsec_other"), want: ErrMismatch},
		{name: "no secret", secret: []byte{}, want: ErrNoSecret},
		{name: "old timestamp", now: testNow.Add(301 * time.Second), want: ErrTimestampTooOld},
		{name: "future timestamp", now: testNow.Add(-301 * time.Second), want: ErrTimestampInFuture},
		{name: "tolerance widened", now: testNow.Add(time.Hour), opts: []Option{WithTolerance(2 * time.Hour)}, want: nil},
		{name: "tolerance narrowed", now: testNow.Add(61 * time.Second), opts: []Option{WithTolerance(time.Minute)}, want: ErrTimestampTooOld},
		{name: "non-positive tolerance ignored", now: testNow.Add(299 * time.Second), opts: []Option{WithTolerance(0)}, want: nil},
		{name: "timestamp of another attempt", ts: strconv.FormatInt(testNow.Unix()+1, 10), want: ErrMismatch},
		{name: "missing timestamp", ts: "-", want: ErrMissingTimestamp},
		{name: "timestamp not a number", ts: "yesterday", want: ErrInvalidTimestamp},
		{name: "timestamp with sign", ts: "+" + ts, want: ErrInvalidTimestamp},
		{name: "negative timestamp", ts: "-" + ts, want: ErrInvalidTimestamp},
		{name: "timestamp in milliseconds", ts: ts + "000", now: testNow, want: ErrTimestampInFuture},
		{name: "timestamp overflowing", ts: strings.Repeat("9", 30), want: ErrInvalidTimestamp},
		{name: "timestamp with fraction", ts: ts + ".5", want: ErrInvalidTimestamp},
		{name: "missing signature", header: "-", want: ErrMissingSignature},
		{name: "no prefix", header: good[len(Prefix):], want: ErrMalformedSignature},
		{name: "other algorithm", header: "sha512=" + good[len(Prefix):], want: ErrMalformedSignature},
		{name: "bad hex", header: good[:len(good)-1] + "g", want: ErrMalformedSignature},
		{name: "uppercase hex", header: Prefix + strings.ToUpper(good[len(Prefix):]), want: ErrMalformedSignature},
		{name: "too short", header: good[:len(good)-2], want: ErrMalformedSignature},
		{name: "too long", header: good + "00", want: ErrMalformedSignature},
		{name: "multiple values", header: good + "," + good, want: ErrMalformedSignature},
		{name: "multiple values with space", header: good + " " + Sign([]byte("x"), 1, nil), want: ErrMalformedSignature},
		{name: "well-formed but wrong", header: Prefix + strings.Repeat("0", 64), want: ErrMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			secret, header, tsv, body, now := testSecret, good, ts, testBody, testNow
			if tt.secret != nil {
				secret = tt.secret
			}
			if tt.header == "-" {
				header = ""
			} else if tt.header != "" {
				header = tt.header
			}
			if tt.ts == "-" {
				tsv = ""
			} else if tt.ts != "" {
				tsv = tt.ts
			}
			if tt.body != nil {
				body = tt.body
			}
			if !tt.now.IsZero() {
				now = tt.now
			}
			if err := Verify(secret, header, tsv, body, now, tt.opts...); !errors.Is(err, tt.want) {
				t.Errorf("Verify() = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestVerifyRequest(t *testing.T) {
	oldSecret, newSecret := []byte("whsec_old"), []byte("whsec_new")
	ts := testNow.Unix()
	headers := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return h
	}
	tsv := strconv.FormatInt(ts, 10)
	sigNew, sigOld := Sign(newSecret, ts, testBody), Sign(oldSecret, ts, testBody)
	tests := []struct {
		name    string
		secrets [][]byte
		h       http.Header
		want    error
	}{
		{"new secret, one header", [][]byte{newSecret}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew), nil},
		{"receiver still on the old secret during rotation", [][]byte{oldSecret},
			headers(HeaderTimestamp, tsv, HeaderSignature, sigNew, HeaderSignaturePrevious, sigOld), nil},
		{"receiver already on the new secret during rotation", [][]byte{newSecret},
			headers(HeaderTimestamp, tsv, HeaderSignature, sigNew, HeaderSignaturePrevious, sigOld), nil},
		{"receiver holding both secrets", [][]byte{oldSecret, newSecret}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew), nil},
		{"receiver on the old secret after the grace period", [][]byte{oldSecret}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew), ErrMismatch},
		{"unknown secret", [][]byte{[]byte("whsec_other")},
			headers(HeaderTimestamp, tsv, HeaderSignature, sigNew, HeaderSignaturePrevious, sigOld), ErrMismatch},
		{"no secrets", nil, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew), ErrNoSecret},
		{"only empty secrets", [][]byte{{}}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew), ErrNoSecret},
		{"missing timestamp", [][]byte{newSecret}, headers(HeaderSignature, sigNew), ErrMissingTimestamp},
		{"two timestamps", [][]byte{newSecret}, headers(HeaderTimestamp, tsv, HeaderTimestamp, tsv, HeaderSignature, sigNew), ErrInvalidTimestamp},
		{"missing signature", [][]byte{newSecret}, headers(HeaderTimestamp, tsv), ErrMissingSignature},
		{"only the previous signature", [][]byte{oldSecret}, headers(HeaderTimestamp, tsv, HeaderSignaturePrevious, sigOld), ErrMissingSignature},
		{"two signature headers", [][]byte{newSecret}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew, HeaderSignature, sigOld), ErrMalformedSignature},
		{"malformed previous", [][]byte{newSecret}, headers(HeaderTimestamp, tsv, HeaderSignature, sigNew, HeaderSignaturePrevious, "sha256=zz"), ErrMalformedSignature},
		{"stale timestamp", [][]byte{newSecret}, headers(HeaderTimestamp, strconv.FormatInt(ts-600, 10), HeaderSignature, Sign(newSecret, ts-600, testBody)), ErrTimestampTooOld},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := VerifyRequest(tt.secrets, tt.h, testBody, testNow); !errors.Is(err, tt.want) {
				t.Errorf("VerifyRequest() = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestErrorsDistinct(t *testing.T) {
	all := []error{ErrNoSecret, ErrMissingTimestamp, ErrInvalidTimestamp, ErrTimestampTooOld,
		ErrTimestampInFuture, ErrMissingSignature, ErrMalformedSignature, ErrMismatch}
	for i, a := range all {
		for j, b := range all {
			if i != j && errors.Is(a, b) {
				t.Errorf("%v is %v", a, b)
			}
		}
	}
}

func BenchmarkSign(b *testing.B) {
	body := []byte(strings.Repeat("x", 1024))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		Sign(testSecret, 1763702470, body)
	}
}

func BenchmarkVerify(b *testing.B) {
	body := []byte(strings.Repeat("x", 1024))
	sig := Sign(testSecret, testNow.Unix(), body)
	ts := strconv.FormatInt(testNow.Unix(), 10)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if err := Verify(testSecret, sig, ts, body, testNow); err != nil {
			b.Fatal(err)
		}
	}
}
