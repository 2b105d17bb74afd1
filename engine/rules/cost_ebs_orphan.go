package rules

import (
	"strings"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// copiedSnapshotVolume is the volume id AWS gives a snapshot copied from
// another snapshot (CopySnapshot): it names no volume that ever existed
// (EC2 API Reference, Snapshot.VolumeId).
const copiedSnapshotVolume = "vol-ffffffff"

// ebsOrphanRules are the cost checks joining EBS snapshots with the
// volumes of their account and region.
func ebsOrphanRules() []Rule {
	return []Rule{
		{ID: "aws-ebs-009", Dimension: cost, Severity: low, ResourceTypes: []string{inv.TypeEBSSnapshot},
			Joins:       []string{inv.TypeEBSVolume},
			Title:       "EBS snapshot outlived its source volume",
			Description: "A snapshot older than 30 days whose source volume is no longer in the inventory (which records other volumes of the region): its storage is billed until it is deleted, often long after anyone remembers why it was kept.",
			Remediation: "If nothing needs to be restored from it, delete it (aws ec2 delete-snapshot --snapshot-id ID); otherwise move it to the archive tier (aws ec2 modify-snapshot-tier --storage-tier archive) and let a Data Lifecycle Manager or AWS Backup policy expire it.",
			Check: func(s *Subject) Result {
				sn := get[inv.EBSSnapshot](s)
				return orphanedEBSSnapshot(s, sn)
			}},
	}
}

// orphanedEBSSnapshot fails when the inventory records volumes in the
// snapshot's account and region but not the snapshot's source volume, and
// the snapshot is older than 30 days (or of unknown age). Without any
// volume recorded there the source may merely be unrecorded: not
// evaluated, like the RDS orphaned-snapshot checks (orphanedSnapshot).
func orphanedEBSSnapshot(s *Subject, sn *inv.EBSSnapshot) Result {
	vol := strings.ToLower(sn.VolumeID)
	if vol == "" {
		return notEvaluated("volume_id")
	}
	if vol == copiedSnapshotVolume {
		return passed(s, func() map[string]any {
			return map[string]any{"snapshot_id": sn.SnapshotID, "volume_id": sn.VolumeID, "copied": true}
		})
	}
	if s.pending {
		return Result{deferred: true}
	}
	region := s.Resource.Region
	if s.account == nil || !s.account.ebs[region] {
		return notEvaluated("aws_ebs_volume.volume_id")
	}
	if s.account.ebs[region+"/"+vol] {
		return passed(s, func() map[string]any {
			return map[string]any{"snapshot_id": sn.SnapshotID, "volume_id": sn.VolumeID, "source_in_inventory": true}
		})
	}
	age := days(sn.StartTime, s.Now)
	if age >= 0 && age <= 30 {
		return passed(s, func() map[string]any {
			return map[string]any{"snapshot_id": sn.SnapshotID, "volume_id": sn.VolumeID, "source_in_inventory": false, "age_days": age}
		})
	}
	ev := snapshotCost(sn, age, region)
	ev["volume_id"] = sn.VolumeID
	ev["source_in_inventory"] = false
	return fail(ev)
}

// observeEBSVolume records an EBS volume of the account: its region, as
// one whose volumes the source records, and its id. A record without a
// volume id is no evidence that the source records the region's volumes.
func (f *accountFacts) observeEBSVolume(res *engine.Resource, s *Subject) {
	id := get[inv.EBSVolume](s).VolumeID
	if id == "" || res.Region == "" {
		return
	}
	if f.ebs == nil {
		f.ebs = map[string]bool{}
	}
	f.ebs[res.Region] = true
	f.ebs[res.Region+"/"+strings.ToLower(id)] = true
}
