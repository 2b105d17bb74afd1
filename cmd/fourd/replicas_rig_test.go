package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/store/clickhouse/chtest"
	"github.com/fourd-dev/fourd/store/postgres/pgtest"
)

// replicaRig is a fourd binary, built once, and the stores that several
// `fourd serve` processes of a test share: a private PostgreSQL and
// ClickHouse database and the test Redis.
type replicaRig struct {
	bin, dir string
	env      []string
	pgURL    string
	chURL    string     // the rig's ClickHouse database
	token    string     // the demo tenant's admin token
	owner    *testing.T // the test whose end kills the processes
}

// newReplicaRig builds the binary, makes the databases, migrates them and
// loads the demo tenant (fourd demo).
func newReplicaRig(t *testing.T) *replicaRig {
	t.Helper()
	redis := os.Getenv("FOURD_TEST_REDIS_URL")
	if redis == "" {
		t.Skip("needs FOURD_TEST_REDIS_URL (make services)")
	}
	dir := t.TempDir()
	r := &replicaRig{bin: filepath.Join(dir, "fourd"), dir: dir, owner: t}
	buildFourd(t, r.bin)
	r.pgURL = pgtest.NewDatabase(t)
	db := fmt.Sprintf("t_replicas_%d", time.Now().UnixNano())
	chtest.CreateDatabase(t, db)
	t.Cleanup(func() { chtest.DropDatabase(t, db) })
	r.chURL = chtest.WithDatabase(t, chtest.URL(), db)
	r.env = append(os.Environ(),
		"FOURD_POSTGRES_URL="+r.pgURL,
		"FOURD_CLICKHOUSE_URL="+r.chURL,
		"FOURD_CLICKHOUSE_CLUSTER="+chtest.Cluster(),
		"FOURD_REDIS_URL="+redis,
		"FOURD_SECRET=replica test secret of at least thirty-two bytes",
		"FOURD_DATA_DIR="+dir,
		"FOURD_WEBHOOK_ALLOW_LOOPBACK_HTTP=true",
		"FOURD_LOG_LEVEL=info",
	)
	r.run(t, "migrate")
	r.run(t, "demo", "--samples", "../../testdata/inventory")
	tok, err := os.ReadFile(filepath.Join(dir, "demo-token"))
	if err != nil {
		t.Fatal(err)
	}
	r.token = strings.TrimSpace(string(tok))
	return r
}

// buildFourd builds cmd/fourd into bin with the go build flags given.
func buildFourd(t *testing.T, bin string, flags ...string) {
	t.Helper()
	args := append(append([]string{"build", "-o", bin}, flags...), ".")
	if out, err := exec.Command("go", args...).CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// run runs a fourd command to its end and returns its standard output.
func (r *replicaRig) run(t *testing.T, args ...string) string {
	t.Helper()
	return r.runBin(t, r.bin, args...)
}

// runBin is run with another build of fourd.
func (r *replicaRig) runBin(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = r.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("fourd %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// newToken issues a token of the demo tenant with its own rate limit
// (requests a minute).
func (r *replicaRig) newToken(t *testing.T, email string, rate int) string {
	t.Helper()
	out := r.run(t, "token", "create", "--tenant", "demo", "--email", email, "--rate-limit", strconv.Itoa(rate))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// replica is one `fourd serve` process.
type replica struct {
	name string
	bin  string // the build it runs
	url  string
	addr string
	cmd  *exec.Cmd
	done chan error
}

// freeAddr returns a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// start starts a serve process on addr (a free one when empty), with env
// added to the rig's, and waits
// until its /readyz answers 200; the end of the rig's test (not of a
// subtest that restarts it) kills it.
func (r *replicaRig) start(t *testing.T, name, addr string, env ...string) *replica {
	t.Helper()
	return r.startBin(t, r.bin, name, addr, env...)
}

// startBin is start with another build of fourd.
func (r *replicaRig) startBin(t *testing.T, bin, name, addr string, env ...string) *replica {
	t.Helper()
	if addr == "" {
		addr = freeAddr(t)
	}
	logf, err := os.OpenFile(filepath.Join(r.dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve")
	cmd.Env = append(append(slices.Clone(r.env), env...), "FOURD_ADDR="+addr) // the last of a duplicate wins
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &replica{name: name, bin: bin, url: "http://" + addr, addr: addr, cmd: cmd, done: make(chan error, 1)}
	go func() { p.done <- cmd.Wait(); logf.Close() }()
	r.owner.Cleanup(func() { p.signal(syscall.SIGKILL) })
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(p.url + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return p
			}
		}
		select {
		case err := <-p.done:
			log, _ := os.ReadFile(filepath.Join(r.dir, name+".log"))
			t.Fatalf("%s exited: %v\n%s", name, err, log)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s not ready in 60 s: %v", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// signal sends sig and waits for the process to end.
func (p *replica) signal(sig syscall.Signal) {
	if p.cmd.ProcessState != nil {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.done
	}
	p.done <- nil // a later signal returns at once
}

// call sends a request with the token and returns the status and body;
// err is a transport error (refused, reset).
func call(method, url, token string, body any) (int, []byte, error) {
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// mustCall is call that fails the test unless the status is want.
func mustCall(t *testing.T, want int, method, url, token string, body any) []byte {
	t.Helper()
	status, b, err := call(method, url, token, body)
	if err != nil || status != want {
		t.Fatalf("%s %s: %d %v %s; want %d", method, url, status, err, b, want)
	}
	return b
}

// receiver is a webhook endpoint that counts the deliveries of each event
// and can hold the next one until released.
type receiver struct {
	mu     sync.Mutex
	counts map[string]int // event id → deliveries answered or held
	byType map[string]map[string]bool
	hold   chan held // when set, the next delivery is sent here and waits for its release
}

// held is a delivery the receiver holds: who sent it, and what releases it.
type held struct {
	eventID, remote string
	release         chan struct{}
}

func newReceiver() *receiver {
	return &receiver{counts: map[string]int{}, byType: map[string]map[string]bool{}}
}

func (rv *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	id, typ := r.Header.Get("X-Service-Event-Id"), r.Header.Get("X-Service-Event")
	rv.mu.Lock()
	rv.counts[id]++
	if rv.byType[typ] == nil {
		rv.byType[typ] = map[string]bool{}
	}
	rv.byType[typ][id] = true
	hold := rv.hold
	rv.hold = nil
	rv.mu.Unlock()
	if hold != nil {
		h := held{eventID: id, remote: r.RemoteAddr, release: make(chan struct{})}
		hold <- h
		select {
		case <-h.release:
		case <-r.Context().Done():
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// count returns the deliveries of event id so far.
func (rv *receiver) count(id string) int {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	return rv.counts[id]
}

// snapshot copies the counts.
func (rv *receiver) snapshot() map[string]int {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	out := make(map[string]int, len(rv.counts))
	for k, v := range rv.counts {
		out[k] = v
	}
	return out
}

// socketOwner returns which of ps holds the TCP connection whose local
// port is port (read from /proc: the process that sent a delivery).
func socketOwner(t *testing.T, port int, ps ...*replica) *replica {
	t.Helper()
	inode := ""
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 {
				continue
			}
			_, hexPort, ok := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); ok && err == nil && int(p) == port && fields[9] != "0" {
				inode = fields[9]
			}
		}
		fh.Close()
	}
	if inode == "" {
		t.Fatalf("no socket with local port %d", port)
	}
	for _, p := range ps {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.cmd.Process.Pid))
		for _, fd := range fds {
			if l, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", p.cmd.Process.Pid, fd.Name())); err == nil && l == "socket:["+inode+"]" {
				return p
			}
		}
	}
	t.Fatalf("no replica holds the socket of port %d", port)
	return nil
}

// holdNext makes the receiver hold the next delivery and returns where
// it will be sent.
func (rv *receiver) holdNext() chan held {
	c := make(chan held, 1)
	rv.mu.Lock()
	rv.hold = c
	rv.mu.Unlock()
	return c
}

// ids returns the ids of the events of type typ received so far.
func (rv *receiver) ids(typ string) []string {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	var out []string
	for id := range rv.byType[typ] {
		out = append(out, id)
	}
	return out
}
