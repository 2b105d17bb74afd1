package audit

import (
	"context"
	"iter"

	"github.com/fourd-dev/fourd/engine"
)

// inventorySeq is the tenant's inventory as an iterator.
func (s *Service) inventorySeq(ctx context.Context, tenantID string) iter.Seq2[engine.Resource, error] {
	return engine.StreamSeq(func(fn func(engine.Resource) error) error {
		return s.cfg.Inventory.StreamResources(ctx, tenantID, fn)
	})
}
