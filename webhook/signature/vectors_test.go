package signature

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const vectorsDir = "../../testdata/webhook"

// vector is one entry of testdata/webhook/signature-vectors.json.
type vector struct {
	Name      string `json:"name"`
	Secret    string `json:"secret"`
	Timestamp int64  `json:"timestamp"`
	Body      string `json:"body"`
	Signature string `json:"signature"`
}

type vectorFile struct {
	Description string   `json:"description"`
	Vectors     []vector `json:"vectors"`
}

func mustReadVectors(t *testing.T) vectorFile {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir, "signature-vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f vectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Vectors) < 5 {
		t.Fatalf("only %d vectors", len(f.Vectors))
	}
	return f
}

func TestVectors(t *testing.T) {
	for _, v := range mustReadVectors(t).Vectors {
		t.Run(v.Name, func(t *testing.T) {
			if got := Sign([]byte(v.Secret), v.Timestamp, []byte(v.Body)); got != v.Signature {
				t.Errorf("Sign() = %s, want %s", got, v.Signature)
			}
			ts := strconv.FormatInt(v.Timestamp, 10)
			if err := Verify([]byte(v.Secret), v.Signature, ts, []byte(v.Body), time.Unix(v.Timestamp, 0)); err != nil {
				t.Errorf("Verify() = %v", err)
			}
			tampered := []byte(v.Body + " ")
			if err := Verify([]byte(v.Secret), v.Signature, ts, tampered, time.Unix(v.Timestamp, 0)); !errors.Is(err, ErrMismatch) {
				t.Errorf("Verify(tampered) = %v, want %v", err, ErrMismatch)
			}
		})
	}
}

// TestVectorsIndependent runs the Node and Python implementations, which
// use only their standard libraries, over the stored vectors and over fresh
// vectors signed here by Sign.
func TestVectorsIndependent(t *testing.T) {
	fresh, corrupt := freshVectors(t)
	tests := []struct {
		name   string
		interp string
		script string
	}{
		{"node", "node", "verify-vectors.mjs"},
		{"python", "python3", "verify_vectors.py"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, err := exec.LookPath(tt.interp)
			if err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("%s is required under CI: %v", tt.interp, err)
				}
				t.Skipf("%s not installed; skipping the independent check", tt.interp)
			}
			script := filepath.Join(vectorsDir, tt.script)
			for _, file := range []string{filepath.Join(vectorsDir, "signature-vectors.json"), fresh} {
				out, err := exec.Command(path, script, file).CombinedOutput()
				if err != nil {
					t.Fatalf("%s %s %s: %v\n%s", tt.interp, tt.script, file, err, out)
				}
				if !strings.HasPrefix(string(out), "ok ") {
					t.Fatalf("unexpected output: %s", out)
				}
			}
			// The script must notice a wrong signature.
			if out, err := exec.Command(path, script, corrupt).CombinedOutput(); err == nil {
				t.Fatalf("%s accepted a corrupted vector:\n%s", tt.script, out)
			}
		})
	}
}

// freshVectors writes vectors with random secrets and bodies, signed by
// this package, to a temporary file, and a copy with one signature altered
// to another.
func freshVectors(t *testing.T) (fresh, corrupt string) {
	t.Helper()
	var f vectorFile
	bodies := []string{"", "{}", `{"title":"ünïcødé – 日本語 🚨"}`, strings.Repeat(`{"k":"v"},`, 5000)}
	for i, body := range bodies {
		secret := "whsec_" + rand.Text()
		ts := time.Now().Unix() - int64(i*97)
		f.Vectors = append(f.Vectors, vector{Name: fmt.Sprintf("fresh %d", i), Secret: secret,
			Timestamp: ts, Body: body, Signature: Sign([]byte(secret), ts, []byte(body))})
	}
	dir := t.TempDir()
	write := func(name string, f vectorFile) string {
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	fresh = write("fresh-vectors.json", f)
	bad := f.Vectors[2]
	bad.Signature = Sign([]byte(bad.Secret), bad.Timestamp+1, []byte(bad.Body))
	corrupt = write("corrupt-vectors.json", vectorFile{Vectors: []vector{bad}})
	return fresh, corrupt
}
