package engine

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"
	"time"
)

// A mute set is the muted findings of one snapshot under one set of active
// rule versions (the refs a read honours, in their order), materialised
// when that set changes: when a rule is written, when an audit writes a new
// snapshot, and, for a change no write announces (a rule's expiry), by the
// sweep (SweepMuteSets) or the first read that finds it missing, whichever
// comes first. A set another replaced is deleted by the sweep a grace
// period later. Reads then anti-join one build of the
// set, one row per muted finding, and read its precomputed counts, instead
// of every rule's matches (docs/design/mute-rules.md).

// MuteSetBuild is one build of a mute set.
type MuteSetBuild struct {
	TenantID string
	AuditID  string
	// Key names the set: a hash of its ordered rule versions (muteSetKey).
	Key string
	// Build names this build's rows in the analytics store.
	Build string
	Muted int64
}

// MuteSetStore records which build of each mute set is complete
// (PostgreSQL); Config.MuteRules implements it when sets are kept.
type MuteSetStore interface {
	// ClaimMuteSet claims b's set for building under b.Build at now; it
	// reports false when the set is built, or claimed since staleBefore by
	// another build.
	ClaimMuteSet(ctx context.Context, b MuteSetBuild, now, staleBefore time.Time) (bool, error)
	// FinishMuteSet records the claimed build b complete with b.Muted
	// findings; readers use it from then on.
	FinishMuteSet(ctx context.Context, b MuteSetBuild, now time.Time) error
	// BuiltMuteSets returns the complete builds of the tenant's sets over
	// the given snapshots.
	BuiltMuteSets(ctx context.Context, tenantID string, auditIDs []string) ([]MuteSetBuild, error)
	// SupersedeMuteSets marks the snapshot's built sets other than keep
	// ("": all) superseded at now, and keep current again.
	SupersedeMuteSets(ctx context.Context, tenantID, auditID, keep string, now time.Time) error
	// LiveMuteSetAudits returns the tenant's snapshots with a built set
	// not superseded.
	LiveMuteSetAudits(ctx context.Context, tenantID string) ([]string, error)
	// TenantsWithExpiredMutes returns the tenants with a live, enabled
	// rule that expired in (after, until].
	TenantsWithExpiredMutes(ctx context.Context, after, until time.Time) ([]string, error)
	// DeleteSupersededMuteSets forgets up to limit sets superseded before
	// before and returns them, each to one caller only.
	DeleteSupersededMuteSets(ctx context.Context, before time.Time, limit int) ([]MuteSetBuild, error)
}

// MuteSetWriter materialises mute sets (ClickHouse); Config.MuteMatches
// implements it when sets are kept.
type MuteSetWriter interface {
	// PutMuteSet writes, under build, each open finding of the snapshot
	// that any of refs matched (once, with the first rule of refs that
	// matches it) and their counts, and returns how many.
	PutMuteSet(ctx context.Context, tenantID, auditID, build string, refs []MuteRef) (int64, error)
	// DeleteMuteSets deletes the rows of the builds.
	DeleteMuteSets(ctx context.Context, builds []MuteSetBuild) error
}

// muteSetStale is how old an unfinished claim must be before another
// replica may build the set again (the claimer died or gave up).
const muteSetStale = 5 * time.Minute

// muteSetKey names the set of refs, in their order (the order decides
// which rule a finding shows as muting it).
func muteSetKey(refs []MuteRef) string {
	h := sha256.New()
	for _, r := range refs {
		h.Write([]byte(r.RuleID))
		h.Write([]byte{':'})
		h.Write([]byte(strconv.Itoa(r.Version)))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// muteSets returns the set stores when both are configured.
func (s *Service) muteSets() (MuteSetStore, MuteSetWriter, bool) {
	st, ok1 := s.cfg.MuteRules.(MuteSetStore)
	w, ok2 := s.cfg.MuteMatches.(MuteSetWriter)
	return st, w, ok1 && ok2
}

// withMuteSets notes, for each snapshot with active mutes, the complete
// build of exactly their set, if there is one.
func (s *Service) withMuteSets(ctx context.Context, tenantID string, set *overrideSet) error {
	st, _, ok := s.muteSets()
	if !ok || len(set.mutes) == 0 {
		return nil
	}
	var audits []string
	seen := map[string]bool{}
	for _, m := range set.mutes {
		if !seen[m.AuditID] {
			seen[m.AuditID] = true
			audits = append(audits, m.AuditID)
		}
	}
	builds, err := st.BuiltMuteSets(ctx, tenantID, audits)
	if err != nil {
		return err
	}
	for _, b := range builds {
		if b.Key == muteSetKey(set.muteRefs(b.AuditID)) {
			if set.muteSets == nil {
				set.muteSets = map[string]string{}
			}
			set.muteSets[b.AuditID] = b.Build
		}
	}
	return nil
}

// muteSel is what a read of a snapshot honours of the mutes: the active
// rule versions applied to it and the build of their set ("" when not
// built yet: the read then uses the matches, and a build is started).
func (s *Service) muteSel(tenantID string, set *overrideSet, auditID string) ([]MuteRef, string) {
	refs := set.muteRefs(auditID)
	if len(refs) == 0 {
		return nil, ""
	}
	if b := set.muteSets[auditID]; b != "" {
		return refs, b
	}
	s.buildMuteSetLater(tenantID, auditID)
	return refs, ""
}

// buildMuteSetLater builds the snapshot's current set in the background,
// once at a time per snapshot in this process, when a read found it
// missing (a rule expired, or a build failed).
func (s *Service) buildMuteSetLater(tenantID, auditID string) {
	if _, _, ok := s.muteSets(); !ok {
		return
	}
	key := tenantID + "\x00" + auditID
	if _, busy := s.muteBuilds.LoadOrStore(key, struct{}{}); busy {
		return
	}
	go func() {
		defer s.muteBuilds.Delete(key)
		ctx, cancel := context.WithTimeout(context.Background(), muteApplyTimeout)
		defer cancel()
		if err := s.settleMuteSet(ctx, tenantID, auditID); err != nil {
			s.log.WarnContext(ctx, "building a mute set failed", "tenant_id", tenantID, "audit_id", auditID, "error", err)
		}
	}()
}

// settleMuteSet builds the set of the active rules applied to the
// snapshot, unless it is built (or being built elsewhere), and lets reads
// know. Reads are correct meanwhile: they read the rules' matches.
func (s *Service) settleMuteSet(ctx context.Context, tenantID, auditID string) error {
	st, w, ok := s.muteSets()
	if !ok || auditID == "" {
		return nil
	}
	// One build at a time per snapshot in this process: writes in a row
	// wait here, and the last one builds the set they all lead to (the
	// others find it built).
	defer s.muteBuildLocks.lock(tenantID + "\x00" + auditID)()
	now := s.now().UTC()
	mutes, err := s.cfg.MuteRules.ActiveMutes(ctx, tenantID, now)
	if err != nil {
		return err
	}
	refs := (&overrideSet{mutes: mutes}).muteRefs(auditID)
	if len(refs) == 0 {
		// No rule applies any more: no set is read.
		return st.SupersedeMuteSets(ctx, tenantID, auditID, "", now)
	}
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	b := MuteSetBuild{TenantID: tenantID, AuditID: auditID, Key: muteSetKey(refs)}
	b.Build = b.Key + "." + hex.EncodeToString(nonce[:])
	claimed, err := st.ClaimMuteSet(ctx, b, now, now.Add(-muteSetStale))
	if err != nil {
		return err
	}
	if !claimed {
		// Built (perhaps long ago, and superseded since: current again) or
		// being built elsewhere, which supersedes the others when done.
		builds, err := st.BuiltMuteSets(ctx, tenantID, []string{auditID})
		if err != nil || !slices.ContainsFunc(builds, func(x MuteSetBuild) bool { return x.Key == b.Key }) {
			return err
		}
		return st.SupersedeMuteSets(ctx, tenantID, auditID, b.Key, now)
	}
	start := time.Now()
	if b.Muted, err = w.PutMuteSet(ctx, tenantID, auditID, b.Build, refs); err != nil {
		return err
	}
	if err := st.FinishMuteSet(ctx, b, s.now().UTC()); err != nil {
		return err
	}
	if err := st.SupersedeMuteSets(ctx, tenantID, auditID, b.Key, s.now().UTC()); err != nil {
		return err
	}
	s.reads.invalidate(tenantID)
	s.log.InfoContext(ctx, "mute set built", "audit_id", auditID, "rules", len(refs), "muted", b.Muted,
		"total", time.Since(start).Round(time.Millisecond))
	return nil
}

// settleLatestMuteSet is settleMuteSet on the tenant's latest snapshot, if
// any; a failure is logged (reads stay correct, on the matches).
func (s *Service) settleLatestMuteSet(ctx context.Context, tenantID string) {
	if _, _, ok := s.muteSets(); !ok {
		return
	}
	auditID, err := s.latestSnapshot(ctx, tenantID)
	if err == nil {
		err = s.settleMuteSet(ctx, tenantID, auditID)
	}
	if err != nil && !IsNotFound(err) {
		s.log.WarnContext(ctx, "building a mute set failed", "tenant_id", tenantID, "error", err)
	}
}

// keyedLocks are mutexes by key, each dropped when no one holds or awaits
// it.
type keyedLocks struct {
	mu sync.Mutex
	m  map[string]*keyedLock
}

type keyedLock struct {
	mu   sync.Mutex
	refs int
}

// lock locks key's mutex and returns its unlock.
func (k *keyedLocks) lock(key string) func() {
	k.mu.Lock()
	if k.m == nil {
		k.m = map[string]*keyedLock{}
	}
	l := k.m[key]
	if l == nil {
		l = &keyedLock{}
		k.m[key] = l
	}
	l.refs++
	k.mu.Unlock()
	l.mu.Lock()
	return func() {
		l.mu.Unlock()
		k.mu.Lock()
		if l.refs--; l.refs == 0 {
			delete(k.m, key)
		}
		k.mu.Unlock()
	}
}
