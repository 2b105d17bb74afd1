package rest

import (
	"encoding/binary"
	"errors"
	"net/http"
	"strconv"

	"github.com/fourd-dev/fourd/engine"
)

// keptAnswer is what rest keeps of an answer for an Idempotency-Key
// replay; engine stores it as opaque bytes (IdempotencyRecord.Answer),
// sealed.
type keptAnswer struct {
	status      int
	contentType string
	location    string
	body        []byte
}

// answerFormat is the first byte of an encoded keptAnswer; another value
// is an encoding this build does not read.
const answerFormat = 1

// errAnswerUnreadable answers a kept answer this build cannot decode: the
// request may have had its effect, so the key is spent.
var errAnswerUnreadable = engine.Errorf(engine.CodeConflict,
	"the answer kept for this Idempotency-Key can no longer be read; send the request with a new key")

// encode lays the answer out as: format byte, status, Content-Type and
// Location (each uvarint-length-prefixed), then the body.
func (a keptAnswer) encode() []byte {
	b := make([]byte, 0, 1+3*binary.MaxVarintLen32+len(a.contentType)+len(a.location)+len(a.body))
	b = append(b, answerFormat)
	b = binary.AppendUvarint(b, uint64(a.status))
	b = binary.AppendUvarint(b, uint64(len(a.contentType)))
	b = append(b, a.contentType...)
	b = binary.AppendUvarint(b, uint64(len(a.location)))
	b = append(b, a.location...)
	return append(b, a.body...)
}

// decodeAnswer reads what encode wrote.
func decodeAnswer(b []byte) (keptAnswer, error) {
	var a keptAnswer
	if len(b) == 0 || b[0] != answerFormat {
		return a, errors.New("rest: kept answer: unknown format")
	}
	b = b[1:]
	status, n := binary.Uvarint(b)
	if n <= 0 || status < 100 || status > 999 {
		return a, errors.New("rest: kept answer: bad status")
	}
	a.status, b = int(status), b[n:]
	field := func() (string, bool) {
		l, n := binary.Uvarint(b)
		if n <= 0 || l > uint64(len(b)-n) {
			return "", false
		}
		s := string(b[n : n+int(l)])
		b = b[n+int(l):]
		return s, true
	}
	var ok1, ok2 bool
	a.contentType, ok1 = field()
	a.location, ok2 = field()
	if !ok1 || !ok2 {
		return keptAnswer{}, errors.New("rest: kept answer: truncated")
	}
	a.body = b
	return a, nil
}

// replay answers with a kept answer.
func (a keptAnswer) replay(w http.ResponseWriter) {
	h := w.Header()
	if a.contentType != "" {
		h.Set("Content-Type", a.contentType)
	}
	if a.location != "" {
		h.Set("Location", a.location)
	}
	h.Set(headerReplayed, "true")
	h.Set("Content-Length", strconv.Itoa(len(a.body)))
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}
