package inventory

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/fourd-dev/fourd/engine"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/inventory from the sample estate")

// SampleDir holds the sample inventories, relative to this package.
const sampleDir = "../../testdata/inventory"

// TestSamples keeps testdata/inventory equal to what the estate generates;
// -update rewrites the files.
func TestSamples(t *testing.T) {
	estate := buildEstate()
	files := map[string][]byte{
		"fourd.ndjson":             writeNDJSON(estate),
		"aws-config-snapshot.json": writeConfigSnapshot(estate),
		"terraform.tfstate":        writeTFState(estate),
		"terraform-show.json":      writeTFShow(estate),
	}
	for name, want := range files {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(sampleDir, name)
			if *update {
				if err := os.MkdirAll(sampleDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./engine/inventory -run TestSamples -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generated sample; rerun with -update", name)
			}
		})
	}
}

func writeNDJSON(estate []sample) []byte {
	var b bytes.Buffer
	for _, s := range estate {
		r := s.res
		line, err := json.Marshal(ndjsonLine{Provider: r.Provider, Account: r.Account, Region: r.Region, Type: r.Type,
			NativeID: r.NativeID, Name: r.Name, Tags: r.Tags.Map(), Attributes: r.Attributes})
		if err != nil {
			panic(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func indent(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return b.Bytes()
}

func writeConfigSnapshot(estate []sample) []byte {
	var items []any
	// Flow logs first: the decoder must patch VPCs that come later.
	for _, s := range estate {
		if v, ok := s.attrs.(*VPC); ok && v.FlowLogsEnabled != nil && *v.FlowLogsEnabled {
			fl := "fl-0" + v.VPCID[4:20]
			items = append(items, map[string]any{"configurationItemVersion": "1.3", "configurationItemStatus": "OK", "resourceType": "AWS::EC2::FlowLog",
				"resourceId": fl, "awsAccountId": s.res.Account, "awsRegion": s.res.Region, "ARN": "arn:aws:ec2:" + s.res.Region + ":" + s.res.Account + ":vpc-flow-log/" + fl,
				"tags": map[string]string{}, "configuration": map[string]any{"flowLogId": fl, "resourceId": v.VPCID, "flowLogStatus": "ACTIVE",
					"trafficType": "ALL", "logDestinationType": "cloud-watch-logs", "logDestination": "arn:aws:logs:" + s.res.Region + ":" + s.res.Account + ":log-group:vpc-flow-logs"},
				"supplementaryConfiguration": map[string]any{}})
		}
	}
	for n, s := range estate {
		if it, ok := configItemOf(s, n); ok {
			items = append(items, it)
		}
	}
	a := accounts[0].id
	items = append(items,
		map[string]any{"configurationItemVersion": "1.3", "configurationItemStatus": "OK", "resourceType": "AWS::ApiGateway::RestApi",
			"resourceId": "a1b2c3d4e5", "resourceName": "partner-api", "awsAccountId": a, "awsRegion": "eu-west-1",
			"ARN": "arn:aws:apigateway:eu-west-1::/restapis/a1b2c3d4e5", "tags": map[string]string{"Owner": "web"},
			"configuration":              map[string]any{"id": "a1b2c3d4e5", "name": "partner-api", "endpointConfiguration": map[string]any{"types": []string{"REGIONAL"}}},
			"supplementaryConfiguration": map[string]any{}},
		map[string]any{"configurationItemVersion": "1.3", "configurationItemStatus": "ResourceDeleted", "resourceType": "AWS::EC2::Instance",
			"resourceId": "i-0deadbeef0000000", "awsAccountId": a, "awsRegion": "eu-west-1", "configuration": nil, "supplementaryConfiguration": map[string]any{}, "tags": map[string]string{}},
	)
	return indent(map[string]any{"fileVersion": "1.0", "configSnapshotId": "5a2c7f2e-8c4b-4f0e-9a61-2d6f1b7e3c90", "configurationItems": items})
}

// writeTFState writes the production and shared accounts as one v4 state,
// each through its own provider alias.
func writeTFState(estate []sample) []byte {
	resources := []any{map[string]any{"mode": "data", "type": "aws_caller_identity", "name": "current",
		"provider": `provider["registry.terraform.io/hashicorp/aws"]`, "instances": []any{map[string]any{"schema_version": 0,
			"attributes": map[string]any{"account_id": accounts[0].id, "id": accounts[0].id}}}}}
	for n, s := range estate {
		alias := map[string]string{accounts[0].id: "", accounts[2].id: ".shared"}
		a, ok := alias[s.res.Account]
		if !ok {
			continue
		}
		for _, r := range terraformOf(s, n) {
			resources = append(resources, map[string]any{"mode": "managed", "type": r.typ, "name": r.name,
				"provider":  `provider["registry.terraform.io/hashicorp/aws"]` + a,
				"instances": []any{map[string]any{"schema_version": 0, "attributes": r.attrs, "sensitive_attributes": []any{}}}})
		}
	}
	return indent(map[string]any{"version": 4, "terraform_version": "1.9.8", "serial": 412, "lineage": "8d0e5c3a-1f7b-4b52-a3a6-7c2f9e4d1b08",
		"outputs": map[string]any{"cdn_domain": map[string]any{"value": "d111111abcdef8.cloudfront.net", "type": "string"}}, "resources": resources})
}

// writeTFShow writes the staging account as `terraform show -json` output,
// networking and data in child modules.
func writeTFShow(estate []sample) []byte {
	modules := map[string][]any{}
	for n, s := range estate {
		if s.res.Account != accounts[1].id {
			continue
		}
		mod := ""
		switch s.res.Type {
		case TypeVPC, TypeSecurityGroup:
			mod = "module.network"
		case TypeDBInstance, TypeS3Bucket, TypeDynamoDBTable, TypeElastiCacheCluster:
			mod = "module.data"
		}
		for _, r := range terraformOf(s, n) {
			addr := r.typ + "." + r.name
			if mod != "" {
				addr = mod + "." + addr
			}
			modules[mod] = append(modules[mod], map[string]any{"address": addr, "mode": "managed", "type": r.typ, "name": r.name,
				"provider_name": "registry.terraform.io/hashicorp/aws", "schema_version": 0, "values": r.attrs, "sensitive_values": map[string]any{}})
		}
	}
	child := []any{}
	for _, m := range []string{"module.network", "module.data"} {
		child = append(child, map[string]any{"address": m, "resources": modules[m]})
	}
	return indent(map[string]any{"format_version": "1.0", "terraform_version": "1.9.8",
		"values": map[string]any{"outputs": map[string]any{}, "root_module": map[string]any{"resources": modules[""], "child_modules": child}}})
}

// decodeAll decodes a whole input, failing the test on any error.
func decodeAll(t testing.TB, data []byte) ([]engine.Resource, Format) {
	t.Helper()
	d, f, err := Open(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	var out []engine.Resource
	for {
		r, err := d.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return out, f
			}
			t.Fatalf("Next after %d resources: %v", len(out), err)
		}
		out = append(out, r)
	}
}

func TestSamples_Decode(t *testing.T) {
	estate := buildEstate()
	want := map[string]int{}
	for _, s := range estate {
		want[s.res.Type]++
	}
	tests := []struct {
		file       string
		format     Format
		minTypes   int
		accounts   int
		wantSample bool // decodes to exactly the estate
	}{
		{"fourd.ndjson", FormatNDJSON, 25, 3, true},
		{"aws-config-snapshot.json", FormatAWSConfig, 20, 3, false},
		{"terraform.tfstate", FormatTerraformState, 20, 2, false},
		{"terraform-show.json", FormatTerraformShow, 20, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(sampleDir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, f := decodeAll(t, data)
			if f != tt.format {
				t.Errorf("format = %s, want %s", f, tt.format)
			}
			types, accts := map[string]int{}, map[string]bool{}
			for _, r := range got {
				types[r.Type]++
				accts[r.Account] = true
				if err := Validate(&r); err != nil {
					t.Errorf("%s %s: %v", r.Type, r.NativeID, err)
				}
			}
			if len(types) < tt.minTypes || len(accts) != tt.accounts {
				t.Errorf("%d types in %d accounts; want ≥ %d types in %d accounts: %v", len(types), len(accts), tt.minTypes, tt.accounts, types)
			}
			if tt.wantSample {
				if diff := cmp.Diff(want, types); diff != "" {
					t.Errorf("types (-want +got)\n%s", diff)
				}
			}
		})
	}
}
