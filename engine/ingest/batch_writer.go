package ingest

import (
	"context"
	"iter"

	"github.com/fourd-dev/fourd/engine"
)

// BatchWriter is an inventory store that hands each stored batch of a bulk
// write back to ingest (store/clickhouse's): which of its ids are new to the
// tenant, with what announcing them needs (engine.ResourceBatch), so that
// ingest decides what to publish and announcing needs no read back.
type BatchWriter interface {
	// WriteResourceBatches stores the resources in batches and yields each
	// batch once its rows are stored, one at a time and in batch order;
	// the decoding of later batches and the storing go on meanwhile. A
	// batch whose rows are stored is yielded even when the write failed
	// later (a retry would find its resources known); then the write's
	// error is yielded last, with a zero batch. Stopping the loop stops
	// the write: what was stored stays stored. It ranges over resources on
	// a goroutine of its own, while the loop body runs, and has finished
	// with them when the loop ends.
	WriteResourceBatches(ctx context.Context, tenantID string, resources iter.Seq2[engine.Resource, error]) iter.Seq2[engine.ResourceBatch, error]
}

// writeAnnounced writes resources through w and publishes each stored
// batch's resource.added as it comes, in batch order. It returns how many
// resources were new. A publish error stops the write and is returned;
// the batches already published stay published.
func (s *Service) writeAnnounced(ctx context.Context, tenantID string, w BatchWriter, resources iter.Seq2[engine.Resource, error]) (int64, error) {
	copier := s.startLogCopier()
	var newIDs int64
	var werr error
	for b, err := range w.WriteResourceBatches(ctx, tenantID, resources) {
		if err != nil {
			werr = err
			break
		}
		newIDs += int64(len(b.NewIDs))
		if err := s.publishAdded(ctx, tenantID, b.Added, copier); err != nil {
			werr = err
			break
		}
	}
	if copier != nil {
		copier.close() // the committed events are in the event log
	}
	return newIDs, werr
}
