package inventory

import (
	"encoding/json"
	"strings"
)

// The absent-key rule of the AWS Config decoder: a canonical attribute is
// written only when the configuration item carries the key it comes from.
// A key the item lacks (an Advanced Query that did not select it) leaves
// the attribute out of the canonical attributes, which the checks read as
// unknown ("not evaluated"), never as false, 0 or "". A mapper names the
// sources of the attributes checks judge with recordedOnly.
//
// Some keys AWS leaves out of a whole item when the setting is off (an SQS
// queue without a dead-letter queue has no RedrivePolicy, a log group
// without retention no retentionInDays): those are optional sources, whose
// absence means "not configured" in a whole item (snapshot, history,
// batch-get, notification) and unknown only in an item that may be partial
// (select-resource-config's JSON strings).

// recordedOnly returns attrs without the canonical attributes whose source
// keys ci does not carry. Each source is "attr=key": attr the canonical
// attribute, key its top-level configuration key (matched ignoring case,
// as encoding/json does), "supp:Name" for a supplementaryConfiguration
// entry, several keys joined by "|" when any of them gives the attribute,
// and a leading "?" for an optional source.
func recordedOnly(ci *configItem, conf []byte, attrs any, sources ...string) any {
	have := confKeys(conf)
	var unknown []string
	for _, s := range sources {
		attr, keys, _ := strings.Cut(s, "=")
		optional := strings.HasPrefix(keys, "?")
		if optional && !ci.partial {
			continue // a whole item: absence is the setting's absence
		}
		if !carries(ci, have, strings.TrimPrefix(keys, "?")) {
			unknown = append(unknown, attr)
		}
	}
	if len(unknown) == 0 {
		return attrs
	}
	return unrecorded{attrs: attrs, keys: unknown}
}

// carries reports whether the item has any of the "|"-separated keys.
func carries(ci *configItem, have map[string]json.RawMessage, keys string) bool {
	for _, k := range strings.Split(keys, "|") {
		if name, ok := strings.CutPrefix(k, "supp:"); ok {
			if _, ok := ci.Supplementary[name]; ok {
				return true
			}
			continue
		}
		if _, ok := have[k]; ok {
			return true
		}
		for h := range have {
			if strings.EqualFold(h, k) {
				return true
			}
		}
	}
	return false
}

// confKeys returns the configuration's top-level keys and values; nil
// when it has none.
func confKeys(conf []byte) map[string]json.RawMessage {
	var have map[string]json.RawMessage
	if conf != nil {
		_ = json.Unmarshal(conf, &have) // conf decoded already: an error leaves every key unknown
	}
	return have
}
