package clickhouse

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	ch "github.com/ClickHouse/clickhouse-go/v2"
)

// The q index (resource_tokens, migration 0020; issue 33 §3), built by
// ClickHouse from the resources table, never sent by the writers: a first
// import's client pays nothing for it (a writer-built index cost +13…+27 %
// of its client CPU, over issue 30's budget).
//
// A window is the 8 bytes of a resource's lower-cased name and native id
// (joined by a newline) that start where a run of ASCII letters and digits
// starts after a separator (any other byte), packed big-endian into a
// UInt64, short ones padded with zeros: "lg-eip-4242" has the window
// "4242" (the runs "lg" and "eip" are stop tokens, and the start of the
// text starts none). Packed so, the windows starting with a prefix are a
// range of the key, and a q holding a separator followed by a letter or
// digit ("lg-eip-4242", "i-0abc…", "synthetic CRITICAL") finds every
// resource that can hold it in one range (qWindows): where q holds there,
// a window of the resource starts with the (first 8 bytes of the) rest of
// q. A q without such a place ("prod", "4242") may be inside any token and
// keeps the scan. A window may run past the name into the native id: more
// bytes after a q's prefix, never fewer, so it stays in the q's range.
// Stop tokens (one character, or up to three letters: "arn", "aws", "us",
// "i", "1") start no window: on most resources of a kind, they cost rows
// and narrow little; a q's run that is not a stop token is the prefix of
// none.
//
// Only ASCII is indexed: a resource whose name or native id holds a
// character that is not ASCII (whose case-insensitive match ClickHouse
// may fold to ASCII: the Kelvin sign and k) gets the window 0, which every
// indexed q reads too; a q with a byte that is not ASCII keeps the scan.
// Readers check every candidate's latest version against the exact q, so
// a shared window adds candidates, never an answer.
//
// Building (buildQIndex) is one INSERT … SELECT on the server, over the
// tenant's resources rows in the parts written since its last build, then
// a row of resource_tokens_built saying how far the index goes: a block
// number (a part's name holds the range of its blocks; one server numbers
// blocks as it commits them, so every block numbered up to the greatest of
// the table's active parts before the build's read was committed, and is
// read by it). A q reads its candidates from the index and scans only the
// parts with a greater block (rows written since, or parts merged with
// them) for the rest: its answers are always the scan's. (A merged part is
// indexed again by the next build: its rows repeat the index's, which the
// table's ReplacingMergeTree folds as it merges.) A tenant is built
// after a bulk write of at least qIndexBuildAfter resources, on its first
// q with a window, and again by a q at most every qIndexRebuildEvery (what was written
// since), by the processes that enable it (EnableQIndexBuilds: fourd
// serve). Cluster mode does not read or build it: replicas number blocks
// before they commit them.

// nonASCIIWindow is the window of every resource whose name or native id
// holds a character that is not ASCII; no other window is 0 (a window
// starts with a letter or digit).
const nonASCIIWindow = 0

// useQIndex is whether the q filter reads its candidates from
// resource_tokens; tests turn it off to compare with the scan.
var useQIndex = true

// maxQCandidates is the most candidates a window of q may have for the
// index to answer (more: the scan).
var maxQCandidates = 256

// maxQWindows is how many of q's windows are read, longest first.
const maxQWindows = 3

// qIndexBuildAfter is how many resources a bulk write must have written
// for it to start a build of its tenant's index (a smaller write's rows
// are scanned by the q's that follow, and indexed by their rebuilds).
var qIndexBuildAfter int64 = 10_000

// qIndexRebuildEvery is how often at most a q starts a build of its
// tenant's index; qIndexBuildTimeout bounds one build.
const (
	qIndexRebuildEvery = time.Minute
	qIndexBuildTimeout = 15 * time.Minute
)

// qIndexBuilt counts the builds done and qIndexAnswers the q's whose
// candidates came from the index, for tests.
var qIndexBuilt, qIndexAnswers atomic.Int64

// partMaxBlock is the greatest block number of the part holding a row
// (a part's name is partition_minblock_maxblock_level[_mutation]).
const partMaxBlock = "toUInt64(splitByChar('_', _part)[3])"

// qIndexUpto is the scalar subquery of how far a tenant's index goes (0:
// nothing indexed), with the tenant id as its argument.
const qIndexUpto = "(SELECT max(upto) FROM resource_tokens_built WHERE tenant_id = ?)"

// qIndexSelect computes the index rows of a tenant's resources in the
// parts past a block: its arguments are the tenant id and the block,
// twice. chunks are the runs of letters and digits with the separators
// after them (from the first run on); a run's start is where its chunk
// starts, off (the separators before the first run) plus the chunks
// before. The WHERE drops the run at the start of the text (off = 0) and
// stop tokens, read from the run's first four bytes b1…b4: one byte, or
// up to three letters.
const qIndexSelect = `SELECT tenant, reinterpretAsUInt64(reverse(substring(concat(substring(s, off + e - length(c) + 1, 8), '\0\0\0\0\0\0\0\0'), 1, 8))) AS token, id
FROM (
    SELECT cityHash64(tenant_id) AS tenant, id, s, extractAll(s, '[a-z0-9]+[^a-z0-9]*') AS chunks,
        arrayCumSum(arrayMap(x -> length(x), chunks)) AS ends, length(s) - ends[-1] AS off
    FROM (SELECT tenant_id, id, concat(lower(name), '\n', lower(native_id)) AS s FROM resources
        WHERE tenant_id = ? AND ` + partMaxBlock + ` > ?)
)
ARRAY JOIN chunks AS c, ends AS e, arrayEnumerate(chunks) AS j
WHERE (j > 1 OR off > 0) AND NOT (
    (reinterpretAsUInt8(substring(c, 2, 1)) AS b2) = 0 OR NOT (b2 >= 48 AND b2 <= 57 OR b2 >= 97 AND b2 <= 122)
    OR (reinterpretAsUInt8(substring(c, 1, 1)) AS b1) >= 97 AND b2 >= 97 AND (
        NOT ((reinterpretAsUInt8(substring(c, 3, 1)) AS b3) >= 48 AND b3 <= 57 OR b3 >= 97 AND b3 <= 122)
        OR b3 >= 97 AND NOT ((reinterpretAsUInt8(substring(c, 4, 1)) AS b4) >= 48 AND b4 <= 57 OR b4 >= 97 AND b4 <= 122)))
UNION ALL
SELECT cityHash64(tenant_id) AS tenant, toUInt64(0) AS token, id FROM resources
WHERE tenant_id = ? AND ` + partMaxBlock + ` > ? AND (length(name) != lengthUTF8(name) OR length(native_id) != lengthUTF8(native_id))`

// buildQIndex indexes the tenant's resources rows written since its last
// build (all of them the first time) and records how far the index goes.
// It reads on one thread: it runs beside imports and audits. Clustered,
// it does nothing (no q reads the index).
func (s *Store) buildQIndex(ctx context.Context, tenantID string) error {
	if s.clustered() {
		return nil
	}
	var from uint64
	if err := s.conn.QueryRow(ctx, "SELECT max(upto) FROM resource_tokens_built WHERE tenant_id = ?", tenantID).Scan(&from); err != nil {
		return err
	}
	// Taken before the read: every block up to it is committed.
	var upto int64
	if err := s.conn.QueryRow(ctx, "SELECT toInt64(max(max_block_number)) FROM system.parts WHERE database = ? AND table = 'resources' AND active",
		s.database).Scan(&upto); err != nil {
		return err
	}
	bctx := ch.Context(ctx, ch.WithSettings(ch.Settings{"max_threads": 1}))
	if err := s.conn.Exec(bctx, "INSERT INTO resource_tokens (tenant, token, id) "+qIndexSelect, tenantID, from, tenantID, from); err != nil {
		return err
	}
	if err := s.conn.Exec(ctx, "INSERT INTO resource_tokens_built (tenant_id, upto, built_at) SELECT ?, ?, now()", tenantID, uint64(max(upto, 0))); err != nil {
		return err
	}
	qIndexBuilt.Add(1)
	return nil
}

// EnableQIndexBuilds makes the store build the q index of tenants in the
// background: after a bulk write of at least 10,000 resources, on a
// tenant's first q with a window, and by a q at most once a minute. A long-lived process
// enables it (fourd serve); a command that exits soon after its writes
// would leave a build cut short, so it leaves them to the server. Without
// it, q still reads what was built and scans the rest.
func (s *Store) EnableQIndexBuilds() { s.qBuilds.enabled.Store(true) }

// qIndexBuilds are the builds of the q index under way or asked for.
type qIndexBuilds struct {
	enabled atomic.Bool
	mu      sync.Mutex
	running map[string]bool      // a build of the tenant is under way
	again   map[string]bool      // another build asked for meanwhile
	last    map[string]time.Time // when a q last started one
}

// startQIndexBuild builds tenantID's q index in the background, when
// enabled (EnableQIndexBuilds) and the store is not clustered; byQ marks a q's ask, which starts one at most
// every qIndexRebuildEvery. An ask while a build is under way runs another
// after it (rows written meanwhile). The build keeps ctx's values, not its
// deadline.
func (s *Store) startQIndexBuild(ctx context.Context, tenantID string, byQ bool) {
	b := &s.qBuilds
	if !useQIndex || s.clustered() || !b.enabled.Load() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.running == nil {
		b.running, b.again, b.last = map[string]bool{}, map[string]bool{}, map[string]time.Time{}
	}
	if byQ {
		if t, ok := b.last[tenantID]; ok && time.Since(t) < qIndexRebuildEvery {
			return
		}
		b.last[tenantID] = time.Now()
	}
	if b.running[tenantID] {
		b.again[tenantID] = true
		return
	}
	b.running[tenantID] = true
	bctx := context.WithoutCancel(ctx)
	go func() {
		for {
			ctx, cancel := context.WithTimeout(bctx, qIndexBuildTimeout)
			if err := s.buildQIndex(ctx, tenantID); err != nil {
				s.log.Debug("q index: not built", "tenant", tenantID, "err", err)
			}
			cancel()
			b.mu.Lock()
			if !b.again[tenantID] {
				delete(b.running, tenantID)
				b.mu.Unlock()
				return
			}
			delete(b.again, tenantID)
			b.mu.Unlock()
		}
	}()
}

// isAlnum reports whether c is an ASCII letter or digit.
func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// lowerASCII is c with an ASCII upper-case letter lower-cased, as
// ClickHouse's lower.
func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// packWindow is the window of s starting at i: up to 8 bytes, lower-cased,
// big-endian, padded with zeros; and how many bytes it holds.
func packWindow(s string, i int) (uint64, int) {
	var w uint64
	n := min(8, len(s)-i)
	for k := range 8 {
		w <<= 8
		if k < n {
			w |= uint64(lowerASCII(s[i+k]))
		}
	}
	return w, n
}

// stopToken reports whether the run of ASCII letters and digits at the
// start of s is a stop token, which starts no window: one character, or
// up to three letters. A q's run is a whole run of the resource's text or
// a prefix of one; a run that is not a stop token is the prefix of none
// (a stop token is at most three bytes, all letters, or one byte).
func stopToken(s string) bool {
	n, letters := 0, true
	for n < len(s) && n < 4 && isAlnum(s[n]) {
		letters = letters && s[n] > '9'
		n++
	}
	return n == 1 || n <= 3 && letters
}

// qWindow is a range of resource_tokens' key that holds every window a
// resource holding q has at one place of q: lo and hi, the bytes of q it
// fixes (n) and where they start in q (at).
type qWindow struct {
	lo, hi uint64
	n, at  int
}

// qWindows are the key ranges of q, the longest first (then the later in
// q): one at each letter or digit of q that follows a separator and starts
// a run that is not a stop token. None for a q with a byte that is not
// ASCII, or without such a place.
func qWindows(q string) []qWindow {
	for i := 0; i < len(q); i++ {
		if q[i] >= 0x80 {
			return nil
		}
	}
	var out []qWindow
	for i := 1; i < len(q); i++ {
		if isAlnum(q[i]) && !isAlnum(q[i-1]) && !stopToken(q[i:]) {
			lo, n := packWindow(q, i)
			hi := lo
			if n < 8 {
				hi |= 1<<(8*(8-n)) - 1
			}
			out = append(out, qWindow{lo: lo, hi: hi, n: n, at: i})
		}
	}
	slices.SortStableFunc(out, func(a, b qWindow) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return b.at - a.at
	})
	return out[:min(len(out), maxQWindows)]
}
