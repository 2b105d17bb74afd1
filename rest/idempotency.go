package rest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"hash"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// Idempotency-Key on mutating POSTs (engine/idempotency.go has the rules):
// the first request with a key runs and its answer is kept; a retry with
// the same key, path and body gets that answer again, marked
// Idempotent-Replayed: true, without running. A key used for another
// request is 422, a retry while the first is under way 409. Only a
// successful answer is kept (engine.Service.FinishIdempotent); any other
// releases the key, so that a corrected retry runs again.

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
	prior, err := a.svc.BeginIdempotent(r.Context(), p, key, request)
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
		replay(w, prior)
		return nil
	}
	// From here the key is held: every way out completes or releases it.
	ctx := context.WithoutCancel(r.Context())
	release := func() {
		if err := a.svc.AbandonIdempotent(ctx, p, key); err != nil {
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
	if err := a.svc.FinishIdempotent(ctx, p, engine.IdempotencyRecord{Key: key, Request: request, BodyHash: sum.Sum(nil),
		Status: rec.code, ContentType: w.Header().Get("Content-Type"), Location: w.Header().Get("Location"),
		Body: rec.body.Bytes()}, !rec.overflow); err != nil {
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

// replay answers with a kept answer.
func replay(w http.ResponseWriter, rec *engine.IdempotencyRecord) {
	h := w.Header()
	if rec.ContentType != "" {
		h.Set("Content-Type", rec.ContentType)
	}
	if rec.Location != "" {
		h.Set("Location", rec.Location)
	}
	h.Set(headerReplayed, "true")
	h.Set("Content-Length", strconv.Itoa(len(rec.Body)))
	w.WriteHeader(rec.Status)
	_, _ = w.Write(rec.Body)
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
// statusWriter does) and up to engine.MaxIdempotentBody bytes of its body.
type answerRecorder struct {
	statusWriter
	body     bytes.Buffer
	overflow bool
}

func (w *answerRecorder) Write(p []byte) (int, error) {
	if !w.overflow {
		if w.body.Len()+len(p) > engine.MaxIdempotentBody {
			w.overflow = true
			w.body = bytes.Buffer{}
		} else {
			w.body.Write(p)
		}
	}
	return w.statusWriter.Write(p)
}
