package inventory

import (
	"encoding/json"
	"strconv"

	"github.com/fourd-dev/fourd/engine"
)

// The AWS provider keeps whether a Config recorder is recording in a
// resource of its own, aws_config_configuration_recorder_status (name: the
// recorder's name, is_enabled), not in aws_config_configuration_recorder.
// The decoder joins the two on account, region and recorder name: a
// recorder with a status in the state gets ConfigRecorder.Recording, one
// without keeps it unknown (null). The status is a companion, not kept as
// a resource. Neither has an ARN, so both wait until the end of the input,
// when every provider's account is known.

// tfRecorderStatusType is the Terraform type of a recorder's status.
const tfRecorderStatusType = "aws_config_configuration_recorder_status"

// tfRecorderStatus is one aws_config_configuration_recorder_status.
type tfRecorderStatus struct {
	provider, region, name string
	enabled                *bool
}

// recorderJoin holds recorders and statuses until the end of the input.
type recorderJoin struct {
	recorders []pendingResource
	statuses  []tfRecorderStatus
}

// status records one status resource's attributes.
func (j *recorderJoin) status(provider string, attrs []byte) error {
	var s struct {
		Name    string    `json:"name"`
		ID      string    `json:"id"`
		Region  string    `json:"region"`
		Enabled *flexBool `json:"is_enabled"`
	}
	if err := json.Unmarshal(attrs, &s); err != nil {
		return err
	}
	j.statuses = append(j.statuses, tfRecorderStatus{provider: provider, region: s.Region, name: firstNonEmpty(s.Name, s.ID),
		enabled: s.Enabled.ptr()})
	return nil
}

// flush returns the held recorders with their accounts (from accounts, by
// provider, "" the input's first) and, where a status of the same account,
// region and name was read, Recording set from it.
func (j *recorderJoin) flush(accounts map[string]string) []engine.Resource {
	account := func(provider, known string) string {
		if known != "" {
			return known
		}
		if a := accounts[provider]; a != "" {
			return a
		}
		return accounts[""]
	}
	out := make([]engine.Resource, 0, len(j.recorders))
	for _, p := range j.recorders {
		p.res.Account = account(p.provider, p.res.Account)
		var r ConfigRecorder
		var m map[string]json.RawMessage // patched key by key: what the recorder left unknown stays so
		if json.Unmarshal(p.res.Attributes, &r) == nil && json.Unmarshal(p.res.Attributes, &m) == nil {
			for _, s := range j.statuses {
				if s.name == r.Name && s.enabled != nil && account(s.provider, "") == p.res.Account &&
					(s.region == p.res.Region || s.region == "" || p.res.Region == "") {
					m["recording"] = json.RawMessage(strconv.FormatBool(*s.enabled))
				}
			}
			if b, err := json.Marshal(m); err == nil {
				p.res.Attributes = b
			}
		}
		withNativeID(&p.res, p.id)
		out = append(out, p.res)
	}
	j.recorders, j.statuses = nil, nil
	return out
}
