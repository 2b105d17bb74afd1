package rest

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

// A kept answer comes back as it was encoded; anything else is refused,
// never a panic.
func TestKeptAnswerRoundTrip(t *testing.T) {
	for _, a := range []keptAnswer{
		{status: 201, contentType: "application/json", location: "/v1/policies/pol_1", body: []byte(`{"id":"pol_1"}`)},
		{status: 202, body: []byte(`{}`)},
		{status: 204},
		{status: 303, location: "/v1/reports/rpt_1", body: bytes.Repeat([]byte{0xff}, 300)},
	} {
		got, err := decodeAnswer(a.encode())
		if err != nil || got.status != a.status || got.contentType != a.contentType || got.location != a.location ||
			!bytes.Equal(got.body, a.body) {
			t.Errorf("%+v came back as %+v, %v", a, got, err)
		}
		w := httptest.NewRecorder()
		got.replay(w)
		if w.Code != a.status || w.Header().Get("Idempotent-Replayed") != "true" || w.Header().Get("Location") != a.location ||
			!bytes.Equal(w.Body.Bytes(), a.body) {
			t.Errorf("replay of %+v: %d %v %q", a, w.Code, w.Header(), w.Body.Bytes())
		}
	}
	good := keptAnswer{status: 201, contentType: "application/json", location: "/x", body: []byte("{}")}.encode()
	for name, b := range map[string][]byte{
		"empty": nil, "another format": append([]byte{2}, good[1:]...), "status only": good[:2],
		"cut content type": good[:5], "no status": {answerFormat}, "status 0": {answerFormat, 0, 0, 0},
		"length past the end": {answerFormat, 201, 1, 0xc8, 0x01},
	} {
		if a, err := decodeAnswer(b); err == nil {
			t.Errorf("%s: decoded %+v", name, a)
		}
	}
}

func FuzzDecodeAnswer(f *testing.F) {
	f.Add(keptAnswer{status: 201, contentType: "application/json", location: "/x", body: []byte("{}")}.encode())
	f.Add([]byte{answerFormat, 0xc8, 0x01, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := decodeAnswer(b)
		if err != nil {
			return
		}
		if again, err := decodeAnswer(a.encode()); err != nil || again.status != a.status || again.contentType != a.contentType ||
			again.location != a.location || !bytes.Equal(again.body, a.body) {
			t.Errorf("%+v does not survive a round trip: %+v %v", a, again, err)
		}
	})
}
