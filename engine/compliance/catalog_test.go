package compliance

import (
	"strings"
	"testing"
)

// TestCatalog_ControlsOnce checks that every framework's controls are
// unique, titled and sectioned, and that CIS's are all there with their
// level and assessment.
func TestCatalog_ControlsOnce(t *testing.T) {
	want := map[string]int{"CIS-AWS-3.0.0": 62, "CIS-AWS-4.0.1": 64}
	seen := map[string]bool{}
	for _, f := range Frameworks() {
		if seen[f.ID] {
			t.Errorf("framework %s listed twice", f.ID)
		}
		seen[f.ID] = true
		if f.Title == "" || f.Version == "" || f.Source == "" || len(f.Controls) == 0 {
			t.Errorf("%s: title %q, version %q, source %q, %d controls", f.ID, f.Title, f.Version, f.Source, len(f.Controls))
		}
		ids := map[string]bool{}
		for _, c := range f.Controls {
			if ids[c.ID] {
				t.Errorf("%s: control %s listed twice", f.ID, c.ID)
			}
			ids[c.ID] = true
			if c.ID == "" || c.Title == "" || c.Section == "" {
				t.Errorf("%s: control %+v lacks an id, title or section", f.ID, c)
			}
			if strings.HasPrefix(f.ID, "CIS-") {
				if c.Level != "Level 1" && c.Level != "Level 2" {
					t.Errorf("%s %s: level %q", f.ID, c.ID, c.Level)
				}
				if c.Assessment != Automated && c.Assessment != Manual {
					t.Errorf("%s %s: assessment %q", f.ID, c.ID, c.Assessment)
				}
			}
		}
		if n, ok := want[f.ID]; ok && len(f.Controls) != n {
			t.Errorf("%s has %d controls; the benchmark has %d", f.ID, len(f.Controls), n)
		}
	}
	for _, id := range []string{"CIS-AWS-3.0.0", "CIS-AWS-4.0.1", "NIST-800-53-r5", "PCI-DSS-4.0", "SOC2"} {
		if !seen[id] {
			t.Errorf("framework %s is missing", id)
		}
	}
}

// TestResolve checks known controls of each framework (ids and titles as
// their sources publish them) and the errors for bad references.
func TestResolve(t *testing.T) {
	for ref, title := range map[string]string{
		"CIS-AWS-3.0.0:2.1.4":    "Ensure that S3 Buckets are configured with 'Block public access (bucket settings)'",
		"CIS-AWS-3.0.0:2.2.1":    "Ensure EBS Volume Encryption is Enabled in all Regions",
		"CIS-AWS-4.0.1:5.1.1":    "Ensure EBS volume encryption is enabled in all regions",
		"CIS-AWS-4.0.1:2.2.4":    "Ensure Multi-AZ deployments are used for enhanced availability in Amazon RDS",
		"NIST-800-53-r5:SC-7(4)": "Boundary Protection | External Telecommunications Services",
		"NIST-800-53-r5:AC-3":    "Access Enforcement",
		"NIST-800-53-r5:SC-28":   "Protection of Information at Rest",
		"PCI-DSS-4.0:1.3.1":      "Network access to and from the cardholder data environment is restricted.",
		"SOC2:CC6.1":             "The entity implements logical access security software, infrastructure, and architectures over protected information assets to protect them from security events to meet the entity's objectives",
	} {
		_, c, err := Resolve(ref)
		if err != nil {
			t.Errorf("Resolve(%q): %v", ref, err)
		} else if c.Title != title {
			t.Errorf("Resolve(%q).Title = %q; want %q", ref, c.Title, title)
		}
	}
	for ref, msg := range map[string]string{
		"CIS-AWS-3.0:2.1.4":    `unknown framework "CIS-AWS-3.0"`,
		"CIS-AWS-1.4:2.1.1":    `unknown framework "CIS-AWS-1.4"`,
		"CIS-AWS-4.0.1:2.4.1":  `has no control "2.4.1"`,
		"NIST-800-53-r5:AC-99": `has no control "AC-99"`,
		"SOC2":                 "is not <framework>:<control>",
		":CC6.1":               "is not <framework>:<control>",
	} {
		if _, _, err := Resolve(ref); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Resolve(%q) = %v; want an error containing %q", ref, err, msg)
		}
	}
}

// TestGaps_NameCISAutomatedControls checks that every recorded gap names
// a CIS control CIS marks Automated.
func TestGaps_NameCISAutomatedControls(t *testing.T) {
	for ref, why := range gaps {
		f, c, err := Resolve(ref)
		if err != nil {
			t.Errorf("gap %s: %v", ref, err)
			continue
		}
		if !strings.HasPrefix(f.ID, "CIS-") || c.Assessment != Automated || why == "" {
			t.Errorf("gap %s: framework %s, assessment %q, reason %q", ref, f.ID, c.Assessment, why)
		}
	}
}
