package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"net/http"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// Idempotency-Key on mutating POSTs (engine/idempotency has the rules):
// the first request with a key runs and its answer is kept; a retry with
// the same key, path and body gets that answer again, marked
// Idempotent-Replayed: true, without running. A key used for another
// request is 422, a retry while the first is under way 409. Only a
// complete, successful (2xx or 3xx) answer is kept, encoded by rest
// (idempotency_answer.go) and stored by idempotency.Service.Finish;
// any other releases the key, so that a corrected retry runs again.

const (
	headerIdempotencyKey = "Idempotency-Key"
	headerReplayed       = "Idempotent-Replayed"
)

// withIdempotency runs h under the request's Idempotency-Key when it is a
// POST to /v1 that carries one.
func (a *api) withIdempotency(w http.ResponseWriter, r *http.Request, p engine.Principal, h handlerFunc) error {
	keys, ok := r.Header[headerIdempotencyKey]
	if !ok || r.Method != http.MethodPost || !strings.HasPrefix(r.URL.Path, "/v1/") {
		return h(w, r)
	}
	if len(keys) != 1 {
		return engine.Errorf(engine.CodeInvalidRequest, "send one Idempotency-Key header")
	}
	key := keys[0]
	request := r.Method + " " + r.URL.RequestURI()
	prior, err := a.idempotency.Begin(r.Context(), p, key, request)
	if err != nil {
		return err
	}
	sum := sha256.New()
	if prior != nil {
		if _, err := io.Copy(sum, r.Body); err != nil {
			return bodyReadError(err)
		}
		if err := prior.Replayable(sum.Sum(nil)); err != nil {
			return err
		}
		answer, err := decodeAnswer(prior.Answer)
		if err != nil {
			a.log.ErrorContext(r.Context(), "reading a kept idempotent answer", "err", err, "request_id", infoFrom(r.Context()).requestID)
			return errAnswerUnreadable
		}
		answer.replay(w)
		return nil
	}
	// From here the key is held: every way out completes or releases it.
	ctx := context.WithoutCancel(r.Context())
	release := func() {
		if err := a.idempotency.Abandon(ctx, p, key); err != nil {
			a.log.ErrorContext(ctx, "releasing an idempotency key", "err", err, "request_id", infoFrom(r.Context()).requestID)
		}
	}
	defer func() {
		if v := recover(); v != nil {
			release()
			panic(v)
		}
	}()
	r.Body = &hashedBody{ReadCloser: r.Body, sum: sum}
	rec := &answerRecorder{statusWriter: statusWriter{ResponseWriter: w}}
	err = h(rec, r)
	if err == nil {
		_, err = io.Copy(io.Discard, r.Body) // what the handler left, so the hash covers the body
		err = bodyReadError(err)
	}
	if err != nil {
		// The error is answered after this returns: nothing to keep.
		release()
		return err
	}
	if rec.overflow || rec.code < 200 || rec.code >= 400 {
		// Not a complete, successful answer: a corrected retry runs again.
		release()
		return nil
	}
	answer := keptAnswer{status: rec.code, contentType: w.Header().Get("Content-Type"),
		location: w.Header().Get("Location"), body: rec.body.Bytes()}
	if err := a.idempotency.Finish(ctx, p, engine.IdempotencyRecord{Key: key, Request: request, BodyHash: sum.Sum(nil),
		Answer: answer.encode()}); err != nil {
		// The answer is sent; only a retry's replay is lost (it runs again).
		a.log.ErrorContext(ctx, "keeping an idempotent answer", "err", err, "request_id", infoFrom(r.Context()).requestID)
		release()
	}
	return nil
}

func bodyReadError(err error) error {
	switch {
	case err == nil:
		return nil
	case isMaxBytes(err):
		return errTooLarge(err)
	case engine.ErrorCode(err) != engine.CodeInternal: // the body broke off (clientBody)
		return err
	default:
		return errBodyBroken
	}
}

// hashedBody hashes what is read from a request body.
type hashedBody struct {
	io.ReadCloser
	sum hash.Hash
}

func (b *hashedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.sum.Write(p[:n])
	return n, err
}

// answerRecorder passes an answer through and keeps its status (as
// statusWriter does) and up to engine.MaxIdempotentAnswer bytes of its
// body (engine keeps no more, headers included).
type answerRecorder struct {
	statusWriter
	body     bytes.Buffer
	overflow bool
}

func (w *answerRecorder) Write(p []byte) (int, error) {
	if !w.overflow {
		if w.body.Len()+len(p) > engine.MaxIdempotentAnswer {
			w.overflow = true
			w.body = bytes.Buffer{}
		} else {
			w.body.Write(p)
		}
	}
	return w.statusWriter.Write(p)
}
