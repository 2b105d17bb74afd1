package findings

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// muteSetStale is how old an unfinished claim must be before another
// replica may build the set again (the claimer died or gave up).
const muteSetStale = 5 * time.Minute

// muteSetKey names the set of refs, in their order (the order decides
// which rule a finding shows as muting it).
func muteSetKey(refs []engine.MuteRef) string {
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
func (s *Service) muteSel(tenantID string, set *overrideSet, auditID string) ([]engine.MuteRef, string) {
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
		ctx, cancel := context.WithTimeout(context.Background(), engine.MuteApplyTimeout)
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
	b := engine.MuteSetBuild{TenantID: tenantID, AuditID: auditID, Key: muteSetKey(refs)}
	b.Build = b.Key + "." + hex.EncodeToString(nonce[:])
	claimed, err := st.ClaimMuteSet(ctx, b, now, now.Add(-muteSetStale))
	if err != nil {
		return err
	}
	if !claimed {
		// Built (perhaps long ago, and superseded since: current again) or
		// being built elsewhere, which supersedes the others when done.
		builds, err := st.BuiltMuteSets(ctx, tenantID, []string{auditID})
		if err != nil || !slices.ContainsFunc(builds, func(x engine.MuteSetBuild) bool { return x.Key == b.Key }) {
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
	if err != nil && !engine.IsNotFound(err) {
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
