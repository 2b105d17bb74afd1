package inventory

import (
	"encoding/json"

	"github.com/fourd-dev/fourd/engine"
)

// joiner holds the few resources whose canonical attributes are completed
// by other records of the same input (a VPC by its flow logs, a Terraform
// S3 bucket by its aws_s3_bucket_* companions, a security group by its
// separate rules) and emits them, patched, at the end of the input. Only
// these types are held, so memory stays bounded by their count.
type joiner struct {
	held    []heldResource
	byKey   map[string]int
	patches map[string][]func(any)
	// seen records facts about the input as a whole that a patch reads at
	// flush (e.g. that it holds route tables of an account and region).
	seen map[string]bool
	// unknowns are, per held resource, canonical attributes a companion
	// would set but whose source it lacks: left out at flush (unknown).
	unknowns map[string][]string
}

type heldResource struct {
	res   engine.Resource
	attrs any  // *VPC, *S3Bucket or *SecurityGroup
	gone  bool // deleted by a later item: not emitted
}

// forget drops the held resource with the given key (a later item says it
// was deleted); its companions' patches stay for a newer version.
func (j *joiner) forget(key string) {
	if i, ok := j.byKey[key]; ok && key != "" {
		j.held[i] = heldResource{gone: true}
		delete(j.byKey, key)
	}
}

func newJoiner() *joiner {
	return &joiner{byKey: map[string]int{}, patches: map[string][]func(any){}, seen: map[string]bool{}, unknowns: map[string][]string{}}
}

// unknown records attributes of the held resource with the given key that
// its companions leave unknown.
func (j *joiner) unknown(key string, attrs ...string) {
	if len(attrs) > 0 {
		j.unknowns[key] = append(j.unknowns[key], attrs...)
	}
}

// hold keeps res until flush when its type is one that companions patch.
func (j *joiner) hold(res engine.Resource) bool {
	var key string
	var attrs any
	switch res.Type {
	case TypeVPC:
		v := new(VPC)
		if json.Unmarshal(res.Attributes, v) != nil {
			return false
		}
		key, attrs = "vpc:"+v.VPCID, v
	case TypeS3Bucket:
		b := new(S3Bucket)
		if json.Unmarshal(res.Attributes, b) != nil {
			return false
		}
		key, attrs = "s3:"+b.Bucket, b
	case TypeSecurityGroup:
		g := new(SecurityGroup)
		if json.Unmarshal(res.Attributes, g) != nil {
			return false
		}
		key, attrs = "sg:"+g.GroupID, g
		// Rules the source did not record stay unknown when
		// aws_security_group_rule resources patch the group: the patch
		// adds to a list whose other rules nobody knows.
		for _, k := range []string{"ingress", "egress"} {
			if !hasExactKey(res.Attributes, k) {
				j.unknown(key, k)
			}
		}
	case TypeNATGateway:
		n := new(NATGateway)
		if json.Unmarshal(res.Attributes, n) != nil {
			return false
		}
		key, attrs = "nat:"+n.NATGatewayID, n
	default:
		return false
	}
	if i, dup := j.byKey[key]; dup {
		// A later observation of the same resource (a newer version in
		// configuration history) replaces the held one.
		j.held[i] = heldResource{res: res, attrs: attrs}
		return true
	}
	j.byKey[key] = len(j.held)
	j.held = append(j.held, heldResource{res: res, attrs: attrs})
	return true
}

// vpcFlowLogsOff is the patch that turns a VPC's unknown flow logs into
// "off" at flush when the input records flow logs in the scope key names
// (seen[key], set by any flow log item of that scope): a VPC that no
// active flow log patched on has none. When the input records no flow log
// in the scope, the VPC's flow logs stay unknown.
func vpcFlowLogsOff(j *joiner, key string) func(any) {
	return func(a any) {
		if v := a.(*VPC); v.FlowLogsEnabled == nil && j.seen[key] {
			off := false
			v.FlowLogsEnabled = &off
		}
	}
}

// vpcFlowLogsOn is the patch of an active flow log on its VPC.
func vpcFlowLogsOn(a any) {
	on := true
	a.(*VPC).FlowLogsEnabled = &on
}

// patch records a change to the held resource with the given key, applied
// at flush whether the resource came before or after the companion.
func (j *joiner) patch(key string, f func(any)) {
	j.patches[key] = append(j.patches[key], f)
}

// flush returns the held resources in arrival order with their patches
// applied. Patches whose resource never came are dropped.
func (j *joiner) flush() []engine.Resource {
	out := make([]engine.Resource, 0, len(j.held))
	for key, i := range j.byKey {
		fs := j.patches[key]
		if len(fs) == 0 {
			continue
		}
		h := &j.held[i]
		for _, f := range fs {
			f(h.attrs)
		}
		var v any = h.attrs
		if u := j.unknowns[key]; len(u) > 0 {
			v = unrecorded{attrs: h.attrs, keys: u}
		}
		if b, err := json.Marshal(v); err == nil {
			h.res.Attributes = b
		}
	}
	for _, h := range j.held {
		if !h.gone {
			out = append(out, h.res)
		}
	}
	j.held, j.byKey, j.patches, j.seen, j.unknowns = nil, map[string]int{}, map[string][]func(any){}, map[string]bool{}, map[string][]string{}
	return out
}
