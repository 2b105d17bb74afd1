package inventory

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// tfRecorderState is a Terraform state of two accounts (provider
// configurations a and b, each learning its account from a topic's ARN)
// with Config recorders and, per the AWS provider's documentation
// (registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/
// config_configuration_recorder_status: name, is_enabled), the statuses
// given.
func tfRecorderState(statuses string) string {
	res := func(provider, typ, name, attrs string) string {
		return `{"mode":"managed","type":"` + typ + `","name":"` + name + `","provider":"provider[\"registry.terraform.io/hashicorp/aws\"].` +
			provider + `","instances":[{"attributes":` + attrs + `}]}`
	}
	rec := func(name string) string {
		return `{"id":"` + name + `","name":"` + name + `","region":"eu-west-1","role_arn":"arn:aws:iam::111122223333:role/config",` +
			`"recording_group":[{"all_supported":true,"include_global_resource_types":true}]}`
	}
	list := []string{
		res("a", "aws_config_configuration_recorder", "main", rec("default")),
		res("a", "aws_config_configuration_recorder", "second", rec("second")),
		res("b", "aws_config_configuration_recorder", "main", rec("default")),
		res("a", "aws_sns_topic", "t", `{"id":"arn:aws:sns:eu-west-1:111122223333:t","arn":"arn:aws:sns:eu-west-1:111122223333:t","name":"t"}`),
		res("b", "aws_sns_topic", "t", `{"id":"arn:aws:sns:eu-west-1:444455556666:t","arn":"arn:aws:sns:eu-west-1:444455556666:t","name":"t"}`),
	}
	if statuses != "" {
		list = append(list, statuses)
	}
	return `{"version":4,"terraform_version":"1.9.5","resources":[` + strings.Join(list, ",") + `]}`
}

// TestTerraform_RecorderStatusJoin joins aws_config_configuration_recorder_status
// to its recorder on account, region and name: the status of account a's
// "default" recorder sets its Recording and no other recorder's; without a
// status Recording stays unknown; the status is not kept as a resource.
func TestTerraform_RecorderStatusJoin(t *testing.T) {
	status := func(enabled string) string {
		return `{"mode":"managed","type":"aws_config_configuration_recorder_status","name":"main",` +
			`"provider":"provider[\"registry.terraform.io/hashicorp/aws\"].a","instances":[{"attributes":` +
			`{"id":"default","name":"default","region":"eu-west-1","is_enabled":` + enabled + `}}]}`
	}
	recording := func(state string) map[string]string {
		d := NewTerraformDecoder(strings.NewReader(state))
		out := map[string]string{}
		for {
			r, err := d.Next()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Type == tfRecorderStatusType {
				t.Errorf("the status was kept as a resource: %+v", r)
			}
			if r.Type != TypeConfigRecorder {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(r.Attributes, &m); err != nil {
				t.Fatal(err)
			}
			out[r.Account+"/"+r.Region+"/"+r.Name] = string(m["recording"])
		}
	}
	for _, c := range []struct {
		status string
		want   map[string]string
	}{
		{"", map[string]string{"111122223333/eu-west-1/default": "null", "111122223333/eu-west-1/second": "null", "444455556666/eu-west-1/default": "null"}},
		{status("false"), map[string]string{"111122223333/eu-west-1/default": "false", "111122223333/eu-west-1/second": "null", "444455556666/eu-west-1/default": "null"}},
		{status("true"), map[string]string{"111122223333/eu-west-1/default": "true", "111122223333/eu-west-1/second": "null", "444455556666/eu-west-1/default": "null"}},
	} {
		got := recording(tfRecorderState(c.status))
		if len(got) != len(c.want) {
			t.Errorf("status %q: recorders %v, want %v", c.status, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("status %q: %s recording = %s, want %s", c.status, k, got[k], v)
			}
		}
	}
}
