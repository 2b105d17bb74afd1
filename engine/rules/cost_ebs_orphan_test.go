package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// ebsSnap is an EBS snapshot of volume, taken on start, as fourd's NDJSON
// carries it (AWS Config does not record EBS snapshots).
func ebsSnap(region, volume, start string) engine.Resource {
	r := in(region, mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-0f1e2d3c4b5a69788","volume_id":"`+volume+
		`","volume_size":100,"encrypted":true,"public":false,"start_time":"`+start+`"}`))
	r.NativeID = "arn:aws:ec2:" + region + "::snapshot/snap-0f1e2d3c4b5a69788"
	return r
}

// ebsVolumes is the volume of goodVolume (vol-0a1b2c3d4e5f60718, in
// eu-west-1 of account 111122223333) as an AWS Config item
// (awslabs/aws-config-resource-schema AWS::EC2::Volume).
func ebsVolumes(t *testing.T) []engine.Resource {
	return decodeItems(t, volumeItem(goodVolume(), false))
}

// ebsOutcome audits resources and returns how aws-ebs-009 judged them:
// its violations, and the resources it judged and left not evaluated.
func ebsOutcome(resources []engine.Resource) (vs []Violation, judged, notEval int64) {
	a := NewAuditor(testNow)
	for _, r := range resources {
		for _, v := range a.Evaluate(r) {
			if v.Rule.ID == "aws-ebs-009" {
				vs = append(vs, v)
			}
		}
	}
	for _, v := range a.Finish() {
		if v.Rule.ID == "aws-ebs-009" {
			vs = append(vs, v.Violation)
		}
	}
	return vs, a.Evaluated()["aws-ebs-009"], a.NotEvaluated()["aws-ebs-009"]
}

func TestEBSOrphanedSnapshot(t *testing.T) {
	old := "2024-11-01T00:00:00Z" // older than 30 days at testNow
	vols := ebsVolumes(t)
	if len(vols) != 1 || vols[0].Region != "eu-west-1" || vols[0].Account != "111122223333" {
		t.Fatalf("volume item decoded to %+v", vols)
	}
	otherAcct := ebsVolumes(t)[0]
	otherAcct.Account = "444455556666"
	synthetic := in("eu-west-1", mk(inv.TypeEBSVolume, `{"index":7,"synthetic":true}`))
	cases := []struct {
		name      string
		res       []engine.Resource
		fires     bool
		evaluated bool
	}{
		{"source volume deleted", append(ebsVolumes(t), ebsSnap("eu-west-1", "vol-0deadbeef0000001", old)), true, true},
		{"source volume present", append(ebsVolumes(t), ebsSnap("eu-west-1", "vol-0A1B2C3D4E5F60718", old)), false, true},
		{"source deleted, snapshot 10 days old", append(ebsVolumes(t), ebsSnap("eu-west-1", "vol-0deadbeef0000001", "2025-05-22T00:00:00Z")), false, true},
		{"copied snapshot", append(ebsVolumes(t), ebsSnap("eu-west-1", copiedSnapshotVolume, old)), false, true},
		// No volume of the snapshot's region, account, or none with an id:
		// the source may merely be unrecorded.
		{"no volume recorded in the region", append(ebsVolumes(t), ebsSnap("us-east-1", "vol-0deadbeef0000001", old)), false, false},
		{"volumes of another account only", []engine.Resource{otherAcct, ebsSnap("eu-west-1", "vol-0deadbeef0000001", old)}, false, false},
		{"synthetic volume without an id", []engine.Resource{synthetic, ebsSnap("eu-west-1", "vol-0deadbeef0000001", old)}, false, false},
		{"snapshot without a volume id", append(ebsVolumes(t), in("eu-west-1", mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","start_time":"`+old+`"}`))), false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Either order: the snapshot waits for its account's volumes.
			for _, order := range [][]engine.Resource{c.res, {c.res[len(c.res)-1], c.res[0]}} {
				if len(c.res) != 2 {
					t.Fatalf("%d resources", len(c.res))
				}
				vs, judged, notEval := ebsOutcome(order)
				if (len(vs) > 0) != c.fires {
					t.Fatalf("fired %d times, want fire=%v", len(vs), c.fires)
				}
				if c.evaluated != (judged == 1) || c.evaluated != (notEval == 0) {
					t.Errorf("judged %d, not evaluated %d; want evaluated=%v", judged, notEval, c.evaluated)
				}
				if c.fires {
					ev := vs[0].Evidence
					if ev["volume_id"] != "vol-0deadbeef0000001" || ev["source_in_inventory"] != false || vs[0].Rule.Dimension != cost ||
						ev["estimated_monthly_usd"] == nil {
						t.Errorf("violation %s %s", vs[0].Rule.Dimension, vs[0].EvidenceJSON())
					}
				}
			}
		})
	}
}

// TestEBSOrphanedSnapshot_Unknown: alone (no Auditor facts), the check is
// not evaluated and names the volumes it needs.
func TestEBSOrphanedSnapshot_Unknown(t *testing.T) {
	assertNotEvaluated(t, ebsSnap("eu-west-1", "vol-0deadbeef0000001", "2024-11-01T00:00:00Z"), "aws-ebs-009", []string{"aws_ebs_volume.volume_id"})
}

// The join case of aws-ebs-009 for the pack-wide tests (pass and fail,
// clean twin, derived reads): a recorded volume of the region, and a
// snapshot of it or of a deleted one.
func init() {
	vol := mk(inv.TypeEBSVolume, `{"volume_id":"vol-0a1b2c3d4e5f60718","size":100,"type":"gp3","iops":3000,"encrypted":true,"state":"in-use","availability_zone":"eu-west-1a"}`)
	old := "2024-11-01T00:00:00Z"
	joinRuleCases["aws-ebs-009"] = struct{ pass, fail []engine.Resource }{
		pass: []engine.Resource{vol, ebsSnap("eu-west-1", "vol-0a1b2c3d4e5f60718", old)},
		fail: []engine.Resource{ebsSnap("eu-west-1", "vol-0deadbeef0000001", old), vol},
	}
}
