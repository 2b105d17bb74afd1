package engine

import (
	"context"
	"slices"
	"strings"
)

// OCSFVersion is the OCSF schema version of the ocsf export.
const OCSFVersion = "1.3.0"

// OCSF class and category ids (schema 1.3.0, events/findings/*.json).
const (
	ocsfCategoryFindings     = 2
	ocsfClassCompliance      = 2003
	ocsfClassDetection       = 2004
	ocsfActivityCreate       = 1
	ocsfActivityClose        = 3
	ocsfStatusNew            = 1
	ocsfStatusSuppressed     = 3
	ocsfStatusResolved       = 4
	ocsfComplianceStatusFail = 3
	ocsfComplianceStatusPass = 1
)

// ocsfSeverityIDs maps the five severities onto OCSF severity_id.
var ocsfSeverityIDs = map[Severity]int{SeverityInfo: 1, SeverityLow: 2, SeverityMedium: 3, SeverityHigh: 4, SeverityCritical: 5}

// ocsfSeverityNames are the captions of those severity_ids.
var ocsfSeverityNames = map[int]string{1: "Informational", 2: "Low", 3: "Medium", 4: "High", 5: "Critical"}

// OCSFEvent is one finding as an OCSF 1.3.0 event: a Compliance Finding
// (class 2003) for a compliance-dimension finding mapped to controls, else
// a Detection Finding (class 2004), whose class has no compliance
// attribute: its mapped controls go in unmapped.compliance.
type OCSFEvent struct {
	ActivityID   int              `json:"activity_id"`
	ActivityName string           `json:"activity_name"`
	CategoryUID  int              `json:"category_uid"`
	CategoryName string           `json:"category_name"`
	ClassUID     int              `json:"class_uid"`
	ClassName    string           `json:"class_name"`
	TypeUID      int64            `json:"type_uid"`
	Time         int64            `json:"time"` // ms since the epoch: when the finding was first seen
	SeverityID   int              `json:"severity_id"`
	Severity     string           `json:"severity"`
	StatusID     int              `json:"status_id"`
	Status       string           `json:"status"`
	Message      string           `json:"message"`
	Metadata     OCSFMetadata     `json:"metadata"`
	FindingInfo  OCSFFindingInfo  `json:"finding_info"`
	Resources    []OCSFResource   `json:"resources"`
	Remediation  *OCSFRemediation `json:"remediation,omitempty"`
	Compliance   *OCSFCompliance  `json:"compliance,omitempty"`
	Unmapped     map[string]any   `json:"unmapped"`
}

// OCSFMetadata is the metadata object: the product and schema version.
type OCSFMetadata struct {
	Product OCSFProduct `json:"product"`
	Version string      `json:"version"`
}

// OCSFProduct names fourd as the producer.
type OCSFProduct struct {
	Name       string `json:"name"`
	VendorName string `json:"vendor_name"`
}

// OCSFFindingInfo is the finding_info object.
type OCSFFindingInfo struct {
	UID           string   `json:"uid"`
	Title         string   `json:"title"`
	Desc          string   `json:"desc,omitempty"`
	Types         []string `json:"types"`
	FirstSeenTime int64    `json:"first_seen_time"`
	LastSeenTime  int64    `json:"last_seen_time"`
	ProductUID    string   `json:"product_uid"` // the rule id
}

// OCSFResource is a resource_details object: the native id and type.
type OCSFResource struct {
	UID    string `json:"uid"`
	Name   string `json:"name,omitempty"`
	Type   string `json:"type"`
	Region string `json:"region,omitempty"`
}

// OCSFRemediation is the remediation object.
type OCSFRemediation struct {
	Desc string `json:"desc"`
}

// OCSFCompliance is the compliance object of a Compliance Finding.
type OCSFCompliance struct {
	Standards    []string `json:"standards"`
	Control      string   `json:"control,omitempty"`
	Requirements []string `json:"requirements"`
	StatusID     int      `json:"status_id"`
	Status       string   `json:"status"`
}

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
func ocsfFinding(f Finding, native, name string) OCSFEvent {
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
	if f.Status == StatusResolved {
		ev.ActivityID, ev.ActivityName = ocsfActivityClose, "Close"
		ev.StatusID, ev.Status = ocsfStatusResolved, "Resolved"
		if f.Resolution == ResolutionAcceptedRisk {
			ev.StatusID, ev.Status = ocsfStatusSuppressed, "Suppressed"
		}
		ev.Unmapped["resolution"] = f.Resolution
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
		if f.Dimension == DimensionCompliance {
			c := &OCSFCompliance{Requirements: slices.Clone(f.Compliance), StatusID: ocsfComplianceStatusFail, Status: "Fail"}
			if f.Status == StatusResolved {
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
func (s *Service) resourceNames(ctx context.Context, tenantID string, page []Finding) (map[string][2]string, error) {
	ids := make([]string, 0, len(page))
	for _, f := range page {
		ids = append(ids, f.ResourceID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	rs, err := s.cfg.Resources.GetResourcesPartial(ctx, tenantID, ids, ResourceFields{})
	if err != nil {
		return nil, err
	}
	out := make(map[string][2]string, len(rs))
	for _, r := range rs {
		out[r.ID] = [2]string{r.NativeID, r.Name}
	}
	return out, nil
}
