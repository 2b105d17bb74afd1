package main

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/fourd-dev/fourd/webhook/signature"
)

// maxBody bounds a webhook body; fourd sends at most 256 KiB.
const maxBody = 1 << 20

// event is the envelope fourd posts.
type event struct {
	ID        string          `json:"event_id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// receiver verifies, deduplicates and queues webhook requests; workers
// process the queue, so the response goes out in well under fourd's 10 s
// timeout.
type receiver struct {
	secrets [][]byte
	seen    *dedup
	queue   chan event
	log     *slog.Logger
	now     func() time.Time
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "could not read body", http.StatusBadRequest)
		return
	}
	// Verify the raw bytes before parsing anything.
	if err := signature.VerifyRequest(rc.secrets, r.Header, body, rc.now()); err != nil {
		rc.log.Warn("rejected webhook", "reason", err, "remote", r.RemoteAddr)
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
	var ev event
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || ev.Type == "" {
		http.Error(w, "invalid event envelope", http.StatusBadRequest)
		return
	}
	if ev.ID != r.Header.Get(signature.HeaderEventID) || ev.Type != r.Header.Get(signature.HeaderEvent) {
		http.Error(w, "event headers do not match the body", http.StatusBadRequest)
		return
	}
	if !rc.seen.add(ev.ID, rc.now()) {
		rc.log.Info("duplicate event acknowledged", "event_id", ev.ID, "type", ev.Type)
		w.WriteHeader(http.StatusOK)
		return
	}
	select {
	case rc.queue <- ev:
		w.WriteHeader(http.StatusAccepted)
	default:
		// Full: let fourd retry later rather than block its request.
		rc.seen.forget(ev.ID)
		w.Header().Set("Retry-After", "30")
		http.Error(w, "busy", http.StatusServiceUnavailable)
	}
}

// work processes queued events until the queue is closed.
func (rc *receiver) work() {
	for ev := range rc.queue {
		attrs := []any{"event_id", ev.ID, "type", ev.Type, "created_at", ev.CreatedAt}
		if ev.Type == "finding.created" {
			var d struct {
				Finding struct {
					ID, Severity, Title string
				} `json:"finding"`
			}
			if json.Unmarshal(ev.Data, &d) == nil {
				attrs = append(attrs, "finding", d.Finding.ID, "severity", d.Finding.Severity, "title", d.Finding.Title)
			}
		}
		rc.log.Info("processed event", attrs...)
	}
}
