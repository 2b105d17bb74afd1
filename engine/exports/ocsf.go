package exports

import (
	"context"
	"slices"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// OCSF class and category ids (schema 1.3.0, events/findings/*.json).
// The finding statuses are events/findings/finding.json's status_id: New
// ("yet to be reviewed"), In Progress ("under review"), Suppressed
// ("reviewed, determined to be benign or a false positive and is now
// suppressed"), Resolved ("reviewed, remediated"); the compliance
// statuses objects/compliance.json's status_id (1 Pass, 3 Fail).
const (
	ocsfCategoryFindings     = 2
	ocsfClassCompliance      = 2003
	ocsfClassDetection       = 2004
	ocsfActivityCreate       = 1
	ocsfActivityClose        = 3
	ocsfStatusNew            = 1
	ocsfStatusInProgress     = 2
	ocsfStatusSuppressed     = 3
	ocsfStatusResolved       = 4
	ocsfComplianceStatusFail = 3
	ocsfComplianceStatusPass = 1
)

// ocsfSeverityIDs maps the five severities onto OCSF severity_id.
var ocsfSeverityIDs = map[engine.Severity]int{engine.SeverityInfo: 1, engine.SeverityLow: 2, engine.SeverityMedium: 3, engine.SeverityHigh: 4, engine.SeverityCritical: 5}

// ocsfSeverityNames are the captions of those severity_ids.
var ocsfSeverityNames = map[int]string{1: "Informational", 2: "Low", 3: "Medium", 4: "High", 5: "Critical"}

// splitControl splits "CIS-AWS-4.0.1:2.1.1" into its standard and control.
func splitControl(ref string) (standard, control string) {
	if i := strings.LastIndexByte(ref, ':'); i > 0 {
		return ref[:i], ref[i+1:]
	}
	return ref, ""
}

// ocsfFinding is f as an OCSF event; native is its resource's native id
// and name (empty when the resource is no longer known: the fourd id is
// used then).
func ocsfFinding(f engine.Finding, native, name string) OCSFEvent {
	ev := OCSFEvent{
		ActivityID: ocsfActivityCreate, ActivityName: "Create", CategoryUID: ocsfCategoryFindings, CategoryName: "Findings",
		ClassUID: ocsfClassDetection, ClassName: "Detection Finding", Time: f.FirstSeenAt.UnixMilli(),
		SeverityID: ocsfSeverityIDs[f.Severity], StatusID: ocsfStatusNew, Status: "New", Message: f.Title,
		Metadata: OCSFMetadata{Product: OCSFProduct{Name: "fourd", VendorName: "fourd"}, Version: OCSFVersion},
		FindingInfo: OCSFFindingInfo{UID: f.ID, Title: f.Title, Desc: f.Description, Types: []string{string(f.Dimension)},
			FirstSeenTime: f.FirstSeenAt.UnixMilli(), LastSeenTime: f.LastSeenAt.UnixMilli(), ProductUID: f.RuleID},
		Unmapped: map[string]any{"rule_id": f.RuleID, "resource_id": f.ResourceID, "audit_id": f.AuditID,
			"dimension": f.Dimension, "provider": f.Provider, "account": f.Account},
	}
	ev.Severity = ocsfSeverityNames[ev.SeverityID]
	switch {
	case f.Status == engine.StatusResolved:
		ev.ActivityID, ev.ActivityName = ocsfActivityClose, "Close"
		ev.StatusID, ev.Status = ocsfStatusResolved, "Resolved"
		if f.Resolution.Manual() { // an accepted risk or a false positive
			ev.StatusID, ev.Status = ocsfStatusSuppressed, "Suppressed"
		}
		ev.Unmapped["resolution"] = f.Resolution
	case f.Status == engine.StatusMuted:
		ev.StatusID, ev.Status = ocsfStatusSuppressed, "Suppressed"
		ev.Unmapped["mute_rule_id"] = f.MuteRuleID
	case f.WorkflowStatus == engine.WorkflowInProgress:
		ev.StatusID, ev.Status = ocsfStatusInProgress, "In Progress"
	}
	uid := native
	if uid == "" {
		uid = f.ResourceID
	}
	ev.Resources = []OCSFResource{{UID: uid, Name: name, Type: f.ResourceType, Region: f.Region}}
	if f.Remediation != "" {
		ev.Remediation = &OCSFRemediation{Desc: f.Remediation}
	}
	if len(f.Compliance) > 0 {
		if f.Dimension == engine.DimensionCompliance {
			c := &OCSFCompliance{Requirements: slices.Clone(f.Compliance), StatusID: ocsfComplianceStatusFail, Status: "Fail"}
			// The control passes once the finding is fixed or was never
			// true; an accepted risk or a mute leaves it failing.
			if f.Status == engine.StatusResolved && f.Resolution != engine.ResolutionAcceptedRisk {
				c.StatusID, c.Status = ocsfComplianceStatusPass, "Pass"
			}
			var controls []string
			for _, ref := range f.Compliance {
				std, ctl := splitControl(ref)
				if !slices.Contains(c.Standards, std) {
					c.Standards = append(c.Standards, std)
				}
				if ctl != "" {
					controls = append(controls, ctl)
				}
			}
			c.Control = strings.Join(controls, ", ")
			ev.Compliance = c
			ev.ClassUID, ev.ClassName = ocsfClassCompliance, "Compliance Finding"
		} else {
			ev.Unmapped["compliance"] = f.Compliance
		}
	}
	ev.TypeUID = int64(ev.ClassUID)*100 + int64(ev.ActivityID)
	return ev
}

// resourceNames returns the native ids and names of the resources of a
// page of findings, by fourd id.
func (s *Service) resourceNames(ctx context.Context, tenantID string, page []engine.Finding) (map[string][2]string, error) {
	ids := make([]string, 0, len(page))
	for _, f := range page {
		ids = append(ids, f.ResourceID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rs, err := s.cfg.Resources.GetResourcesPartial(ctx, tenantID, ids, engine.ResourceFields{})
	if err != nil {
		return nil, err
	}
	out := make(map[string][2]string, len(rs))
	for _, r := range rs {
		out[r.ID] = [2]string{r.NativeID, r.Name}
	}
	return out, nil
}
