package rules

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// checkFastAttrs decodes b as a record of typ both ways: when the fast
// decoder takes it, encoding/json must decode it without error into an
// equal value. It reports whether the fast decoder took it.
func checkFastAttrs(t testing.TB, typ string, b []byte) bool {
	t.Helper()
	var keys fieldMask
	got, ok := fastAttrs(typ, b, &keys)
	want := attrTypes[typ]()
	err := json.Unmarshal(b, want)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s %q: the fast decoder took it, encoding/json fails: %v", typ, b, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s %q:\nfast    %#v\njson    %#v", typ, b, got, want)
	}
	// The keys it saw are the record's top-level keys.
	var m map[string]json.RawMessage
	_ = json.Unmarshal(b, &m)
	var seenKeys []string
	for i, k := range attrDecoders[typ].keys {
		if keys.has(i) {
			seenKeys = append(seenKeys, k)
		}
	}
	if have := slices.Sorted(maps.Keys(m)); !slices.Equal(have, slices.Sorted(slices.Values(seenKeys))) {
		t.Fatalf("%s %q: keys %v, the record has %v", typ, b, seenKeys, have)
	}
	// A subject answers recorded from those keys as the scan would.
	res := engine.Resource{Type: typ, Attributes: b}
	s := NewSubject(&res, sampleNow)
	for _, k := range append(attrDecoders[typ].keys, "other", strings.ToUpper(attrDecoders[typ].keys[0])) {
		if s.recorded(k) != hasTopLevelKey(b, k) || s.hasKey(k) != hasTopLevelKey(b, k) {
			t.Fatalf("%s %q: recorded(%q) %v, the scan says %v", typ, b, k, s.recorded(k), hasTopLevelKey(b, k))
		}
	}
	return true
}

// attrSeeds are the records of every sample, estate and rule case of a
// canonical type.
var attrSeeds = sync.OnceValue(func() []engine.Resource {
	var out []engine.Resource
	tb := &seedTB{}
	files, _ := filepath.Glob("../../testdata/inventory/*")
	estates, _ := filepath.Glob("../../testdata/estates/*.aws-config.json")
	for _, file := range append(files, estates...) {
		f, err := os.Open(file)
		if err != nil {
			panic(err)
		}
		out = append(out, loadReader(tb, f)...)
		f.Close()
	}
	for _, c := range ruleCases {
		out = append(out, c.pass, c.fail)
	}
	for _, c := range policyRuleCases {
		out = append(out, c.pass, c.fail)
	}
	for _, c := range joinRuleCases {
		out = append(append(out, c.pass...), c.fail...)
	}
	for _, c := range accountCases {
		out = append(append(out, c.pass...), c.fail...)
	}
	for _, cs := range typeRuleCases {
		for _, c := range cs {
			out = append(append(out, c.pass...), c.fail...)
		}
	}
	for _, c := range unknownCases {
		out = append(out, c.res)
	}
	for _, c := range configRuleCases {
		out = append(append(out, decodeItems(tb, c.pass)...), decodeItems(tb, c.fail)...)
	}
	return slices.DeleteFunc(out, func(r engine.Resource) bool { _, ok := attrTypes[r.Type]; return !ok })
})

// seedTB lets the seed loaders, written for tests, run once for all.
type seedTB struct{ testing.TB }

func (seedTB) Helper()                   {}
func (seedTB) Fatal(args ...any)         { panic(args) }
func (seedTB) Fatalf(string, ...any)     { panic("seed") }
func (seedTB) Errorf(f string, a ...any) { panic("seed") }

// TestFastAttrsMatchesEncodingJSON: every record of the samples, estates
// and rule cases decodes to what encoding/json gives, and the fast decoder
// takes nearly all of them.
func TestFastAttrsMatchesEncodingJSON(t *testing.T) {
	seeds := attrSeeds()
	fast := 0
	for _, r := range seeds {
		if checkFastAttrs(t, r.Type, r.Attributes) {
			fast++
		}
		s, old := NewSubject(&r, sampleNow), subjectByEncodingJSON(&r)
		if s.bad != old.bad || !reflect.DeepEqual(s.attrs, old.attrs) {
			t.Fatalf("%s %s: NewSubject differs from encoding/json's", r.Type, r.Attributes)
		}
	}
	t.Logf("%d records, %d by the fast decoder", len(seeds), fast)
	if len(seeds) < 1000 || fast < len(seeds)*9/10 {
		t.Fatalf("%d records, %d by the fast decoder: too few", len(seeds), fast)
	}
}

// subjectByEncodingJSON is NewSubject as it was: encoding/json alone.
func subjectByEncodingJSON(res *engine.Resource) *Subject {
	s := &Subject{Resource: res}
	if newAttrs, ok := attrTypes[res.Type]; ok {
		s.attrs = newAttrs()
		if len(res.Attributes) > 0 {
			s.bad = json.Unmarshal(res.Attributes, s.attrs) != nil
		}
	}
	return s
}

// TestFastAttrsEveryType: every canonical type has a fast decoder, and it
// takes a record with every field set (so no field of a new type falls
// back to encoding/json unnoticed) and the zero record.
func TestFastAttrsEveryType(t *testing.T) {
	for typ, mk := range attrTypes {
		if _, ok := attrDecoders[typ]; !ok {
			t.Errorf("%s has no fast decoder: run go generate ./engine/rules", typ)
			continue
		}
		full := mk()
		fill(reflect.ValueOf(full).Elem())
		for _, v := range []any{full, mk()} {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if !checkFastAttrs(t, typ, b) {
				t.Errorf("%s: the fast decoder leaves %s to encoding/json", typ, b)
			}
		}
	}
}

// fill sets every settable field of v to a non-zero value.
func fill(v reflect.Value) {
	switch v.Interface().(type) {
	case time.Time:
		v.Set(reflect.ValueOf(time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)))
		return
	case json.RawMessage:
		v.Set(reflect.ValueOf(json.RawMessage(`{"k":[1,"x",null]}`)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Field(i).CanSet() {
				fill(v.Field(i))
			}
		}
	}
}

// TestFastAttrsEdges: inputs the fast decoder takes, and inputs it must
// leave to encoding/json, give encoding/json's result either way.
func TestFastAttrsEdges(t *testing.T) {
	const typ = "aws_iam_user"
	for _, c := range []struct {
		in   string
		fast bool
	}{
		{`{"user_name":"a","mfa_active":true,"groups":["g"]}`, true},
		{" \n{ \"user_name\" : \"a\" , \"groups\" : [ ] }\t", true},
		{`{"user_name":"caf\u00e9 \"q\""}`, true},
		{"{\"user_name\":\"caf\xc3\xa9\"}", true},
		{"{\"user_name\":\"bad \xff\"}", true}, // encoding/json replaces it
		{`{"user_name":null,"groups":null,"create_date":"2024-01-01T00:00:00Z"}`, true},
		{`null`, true},
		{`{}`, true},
		{`{"User_Name":"a"}`, false},      // matched up to case
		{`{"user_nam\u0065":"a"}`, false}, // escape in a key
		{`{"user_name":"a","user_name":"b"}`, false},
		{`{"unknown":1}`, false},
		{`{"user_name":1}`, false},
		{`{"mfa_active":"true"}`, false},
		{`{"user_name":"a"} x`, false},
		{`{"user_name":"a",}`, false},
		{`{"user_name":"a"`, false},
		{"{\"user_name\":\"a\tb\"}", false},
		{`{"user_name":"\x"}`, false},
		{`[]`, false},
		{`"s"`, false},
		{``, false},
	} {
		if got := checkFastAttrs(t, typ, []byte(c.in)); got != c.fast {
			t.Errorf("%q: fast %v, want %v", c.in, got, c.fast)
		}
	}
	for _, c := range []struct {
		typ, in string
		fast    bool
	}{
		{"aws_ebs_volume", `{"size":8}`, true},
		{"aws_ebs_volume", `{"size":-0}`, true},
		{"aws_ebs_volume", `{"size":8.0}`, false},
		{"aws_ebs_volume", `{"size":1e3}`, false},
		{"aws_ebs_volume", `{"size":01}`, false},
		{"aws_ebs_volume", `{"size":99999999999999999999}`, false},
		{"aws_ebs_volume", `{"size":-9223372036854775808}`, true},
		{"aws_ebs_volume", `{"size":9223372036854775808}`, false},
		{"aws_iam_access_key", `{"last_used_date":null}`, true},
		{"aws_iam_access_key", `{"last_used_date":"2025-01-01T00:00:00Z"}`, true},
		{"aws_iam_access_key", `{"last_used_date":"never"}`, false},
		{"aws_iam_account", `{"password_policy":null}`, true},
		{"aws_iam_account", `{"password_policy":{"minimum_password_length":14}}`, true},
		{"aws_iam_role", `{"assume_role_policy":{"Statement":{"Effect":"Allow","Principal":"*"}},"inline_policies":[null,{"name":"p"}]}`, true},
		{"aws_iam_role", `{"assume_role_policy":{"Statement":[{"Condition":{"a":[1,2.5e-3,true,false,null,{}]}}]}}`, true},
		{"aws_iam_role", `{"assume_role_policy":{"Statement":[}}`, false},
		{"aws_security_group", `{"ingress":[{"from_port":22,"to_port":22,"cidr_blocks":["0.0.0.0/0"]}]}`, true},
		{"aws_security_group", `{"ingress":[1]}`, false},
		{"aws_s3_account_public_access_block", `{"block_public_acls":true}`, true},
	} {
		if _, ok := attrTypes[c.typ]; !ok {
			t.Fatalf("no type %s", c.typ)
		}
		if got := checkFastAttrs(t, c.typ, []byte(c.in)); got != c.fast {
			t.Errorf("%s %q: fast %v, want %v", c.typ, c.in, got, c.fast)
		}
	}
}

// attrFamilies maps each canonical type to its family: the file of
// engine/inventory that declares its struct (types_iam.go → iam).
var attrFamilies = sync.OnceValue(func() map[string][]string {
	decl := map[string]string{} // struct name → family
	files, _ := filepath.Glob("../inventory/types*.go")
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
		if err != nil {
			panic(err)
		}
		fam := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(filepath.Base(file), "types"), "_"), ".go")
		if fam == "" {
			fam = "core"
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				decl[ts.Name.Name] = fam
			}
			return true
		})
	}
	out := map[string][]string{}
	for _, typ := range slices.Sorted(maps.Keys(attrTypes)) {
		fam := decl[reflect.TypeOf(attrTypes[typ]()).Elem().Name()]
		out[fam] = append(out[fam], typ)
	}
	return out
})

// fuzzedFamilies are the families with a FuzzAttrDecode function.
var fuzzedFamilies = []string{"analytics", "backup", "compute", "containers", "databases", "edge", "iam",
	"logging", "network", "platform", "storage", "streaming"}

// TestAttrFamiliesFuzzed: every canonical type belongs to a family that
// has a fuzz test below.
func TestAttrFamiliesFuzzed(t *testing.T) {
	for fam, types := range attrFamilies() {
		if !slices.Contains(fuzzedFamilies, fam) {
			t.Errorf("types %v (family %q) have no FuzzAttrDecode function", types, fam)
		}
	}
}

// fuzzFamily checks the fast decoder against encoding/json on the records
// of a family's types, seeded with every sample, estate and case record.
func fuzzFamily(f *testing.F, fam string) {
	types := attrFamilies()[fam]
	if len(types) == 0 {
		f.Fatalf("no canonical type in family %q", fam)
	}
	for _, r := range attrSeeds() {
		if i := slices.Index(types, r.Type); i >= 0 {
			f.Add(uint8(i), []byte(r.Attributes))
		}
	}
	for i, typ := range types {
		full := attrTypes[typ]()
		fill(reflect.ValueOf(full).Elem())
		b, _ := json.Marshal(full)
		f.Add(uint8(i), b)
	}
	f.Fuzz(func(t *testing.T, i uint8, b []byte) {
		checkFastAttrs(t, types[int(i)%len(types)], b)
	})
}

func FuzzAttrDecodeAnalytics(f *testing.F)  { fuzzFamily(f, "analytics") }
func FuzzAttrDecodeBackup(f *testing.F)     { fuzzFamily(f, "backup") }
func FuzzAttrDecodeCompute(f *testing.F)    { fuzzFamily(f, "compute") }
func FuzzAttrDecodeContainers(f *testing.F) { fuzzFamily(f, "containers") }
func FuzzAttrDecodeDatabases(f *testing.F)  { fuzzFamily(f, "databases") }
func FuzzAttrDecodeEdge(f *testing.F)       { fuzzFamily(f, "edge") }
func FuzzAttrDecodeIAM(f *testing.F)        { fuzzFamily(f, "iam") }
func FuzzAttrDecodeLogging(f *testing.F)    { fuzzFamily(f, "logging") }
func FuzzAttrDecodeNetwork(f *testing.F)    { fuzzFamily(f, "network") }
func FuzzAttrDecodePlatform(f *testing.F)   { fuzzFamily(f, "platform") }
func FuzzAttrDecodeStorage(f *testing.F)    { fuzzFamily(f, "storage") }
func FuzzAttrDecodeStreaming(f *testing.F)  { fuzzFamily(f, "streaming") }

// BenchmarkDecodeAttributes decodes the sample and estate records of the
// canonical types: the fast decoder (as NewSubject does) against
// encoding/json alone.
func BenchmarkDecodeAttributes(b *testing.B) {
	seeds := attrSeeds()
	size := 0
	for _, r := range seeds {
		size += len(r.Attributes)
	}
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for i := range seeds {
				NewSubject(&seeds[i], sampleNow)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(size))
		for b.Loop() {
			for i := range seeds {
				subjectByEncodingJSON(&seeds[i])
			}
		}
	})
}
