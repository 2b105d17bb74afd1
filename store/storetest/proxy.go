// Package storetest has test helpers shared by the stores' and the APIs'
// tests: a TCP proxy in front of a store's server that can make the server
// look down (connections refused) or hung (connections open, nothing
// answered), and then bring it back.
package storetest

import (
	"net"
	"sync"
	"testing"
)

// Proxy relays TCP connections from a loopback address to a server, until
// told to refuse or to hang them.
type Proxy struct {
	t      testing.TB
	target string
	addr   string

	mu    sync.Mutex
	cond  *sync.Cond
	ln    net.Listener // nil while refusing
	hung  bool
	conns map[net.Conn]struct{}
}

// NewProxy starts a proxy to target (host:port) on a free loopback port,
// stopped when the test ends.
func NewProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{t: t, target: target, addr: ln.Addr().String(), conns: map[net.Conn]struct{}{}}
	p.cond = sync.NewCond(&p.mu)
	p.serve(ln)
	t.Cleanup(p.Refuse)
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

// Refuse closes the listener and every connection: the server looks
// stopped (new connections are refused).
func (p *Proxy) Refuse() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	p.closeAll()
}

// Hang keeps accepting connections but relays nothing more on any of them,
// new or open: the server looks hung (a stopped process whose sockets
// still accept).
func (p *Proxy) Hang() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hung = true
	if p.ln == nil {
		p.listen()
	}
}

// Forward relays again: connections that were hung are closed (their
// clients gave up on them), new ones reach the server.
func (p *Proxy) Forward() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hung {
		p.hung = false
		p.closeAll()
	}
	if p.ln == nil {
		p.listen()
	}
}

// listen listens on the proxy's address again; p.mu is held.
func (p *Proxy) listen() {
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		p.t.Errorf("storetest: listening on %s again: %v", p.addr, err)
		return
	}
	p.mu.Unlock()
	p.serve(ln)
	p.mu.Lock()
}

// closeAll closes every connection and wakes the relays; p.mu is held.
func (p *Proxy) closeAll() {
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
	p.cond.Broadcast()
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.relay(c)
		}
	}()
}

// relay connects c to the server and copies both ways while not hung.
func (p *Proxy) relay(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	done := make(chan struct{}, 2)
	go p.copy(up, c, done)
	go p.copy(c, up, done)
	<-done
	c.Close()
	up.Close()
}

// copy relays src to dst, holding each chunk while the proxy is hung.
func (p *Proxy) copy(dst, src net.Conn, done chan<- struct{}) {
	defer func() { done <- struct{}{} }()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if !p.wait(src) {
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// wait blocks while the proxy is hung; false when c was closed meanwhile.
func (p *Proxy) wait(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.hung {
		if _, open := p.conns[c]; !open {
			return false
		}
		p.cond.Wait()
	}
	_, open := p.conns[c]
	return open
}
