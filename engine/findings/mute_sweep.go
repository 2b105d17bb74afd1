package findings

import (
	"context"
	"errors"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// Mute set upkeep (issue 33 §1). A rule's expiry changes the set a
// snapshot's reads honour without any write to announce it, so the sweep
// builds the new set soon after, instead of the first read after the
// expiry (which answers from the rules' matches meanwhile, slowly at
// scale). And a set another replaced is never read again once no cache
// names its build: the sweep deletes it a grace period after.

const (
	// MuteSweepInterval is how often `fourd serve` sweeps the mute sets.
	MuteSweepInterval = 30 * time.Second
	// muteSetGrace is how long a superseded set is kept: longer than a
	// read cache keeps naming a build once the rules change (it reloads on
	// their notification, and at the expiry it knows of), and than any
	// read (an export) takes.
	muteSetGrace = 15 * time.Minute
	// muteSweepLookback is how far back the first sweep of a process
	// looks for expiries (later sweeps look back to the previous one).
	muteSweepLookback = 24 * time.Hour
	// muteSweepBatch bounds the superseded sets one sweep deletes.
	muteSweepBatch = 500
)

// SweepMuteSets brings the sets of the tenants whose rules expired since
// the previous sweep up to their active rules (each snapshot with a live
// set, and the latest), and deletes the sets superseded longer ago than
// the grace period. Every replica may sweep: the builds are claimed and
// each deletion is returned to one sweeper only.
func (o *Operator) SweepMuteSets(ctx context.Context) (MuteSweep, error) {
	s := o.s
	var out MuteSweep
	st, w, ok := s.muteSets()
	if !ok {
		return out, nil
	}
	now := s.now().UTC()
	s.muteSweepMu.Lock()
	after := s.muteSweptUntil
	s.muteSweepMu.Unlock()
	if after.IsZero() {
		after = now.Add(-muteSweepLookback)
	}
	tenants, err := st.TenantsWithExpiredMutes(ctx, after, now)
	if err != nil {
		return out, err
	}
	var errs []error
	for _, tenantID := range tenants {
		n, err := s.settleTenantMuteSets(ctx, st, tenantID)
		out.Settled += n
		errs = append(errs, err)
	}
	if err := errors.Join(errs...); err == nil {
		// A tenant that failed is looked at again next time.
		s.muteSweepMu.Lock()
		s.muteSweptUntil = now
		s.muteSweepMu.Unlock()
	}
	gone, err := st.DeleteSupersededMuteSets(ctx, now.Add(-muteSetGrace), muteSweepBatch)
	if err == nil && len(gone) > 0 {
		if err = w.DeleteMuteSets(ctx, gone); err != nil {
			s.log.ErrorContext(ctx, "deleting the rows of superseded mute sets failed; they stay unread",
				"builds", len(gone), "error", err)
		}
	}
	out.Deleted = len(gone)
	return out, errors.Join(append(errs, err)...)
}

// settleTenantMuteSets settles the sets of the tenant's snapshots that
// have a live one, and of its latest snapshot; it returns how many.
func (s *Service) settleTenantMuteSets(ctx context.Context, st MuteSetStore, tenantID string) (int, error) {
	audits, err := st.LiveMuteSetAudits(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	latest, err := s.latestSnapshot(ctx, tenantID)
	switch {
	case err == nil:
		audits = append(audits, latest)
	case !engine.IsNotFound(err):
		return 0, err
	}
	seen, n := map[string]bool{}, 0
	for _, auditID := range audits {
		if seen[auditID] {
			continue
		}
		seen[auditID] = true
		if err := s.settleMuteSet(ctx, tenantID, auditID); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// MuteSweep is what one Operator.SweepMuteSets did.
type MuteSweep struct {
	// Settled is how many snapshots' sets were brought up to the active
	// rules (built, or found built) after an expiry.
	Settled int
	// Deleted is how many superseded sets were deleted.
	Deleted int
}
