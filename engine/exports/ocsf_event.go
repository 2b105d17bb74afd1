package exports

// OCSFVersion is the OCSF schema version of the ocsf export.
const OCSFVersion = "1.3.0"

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
