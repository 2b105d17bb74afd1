// Package compliance is fourd's catalog of compliance frameworks: every
// control of the CIS AWS Foundations Benchmark v3.0.0 and v4.0.1, and the
// NIST SP 800-53 rev. 5 controls, PCI DSS v4.0 requirements and SOC 2
// criteria the rule pack can map to. It depends on nothing else in fourd,
// so the rule pack, the audit and the reports all read the same catalog.
//
// The data is catalog.json, embedded: it is generated from public sources
// by scripts/gen-compliance-catalog.py rather than typed in Go, so that a
// new benchmark version is a regeneration and a reviewable data diff, not
// hand-edited code. Each framework names its source (repository, commit,
// file); ids and titles are taken as published:
//   - CIS v3.0.0 and v4.0.1: prowler-cloud/prowler's
//     prowler/compliance/aws/cis_3.0_aws.json and cis_4.0_aws.json (id,
//     title, section, profile level, and whether CIS marks the control
//     Automated or Manual). The file named cis_4.0 is v4.0.1 (its Name and
//     Version say so). Between the two, CIS renumbered the storage and
//     networking sections (v3.0.0 2.2.1 EBS encryption is v4.0.1 5.1.1, RDS
//     2.3.x is 2.2.x, EFS 2.4.1 is 2.3.1, networking 5.1-5.6 is 5.2-5.7),
//     added 2.2.4 (RDS Multi-AZ) and 5.1.2 (CIFS), marked 1.6, 1.7, 1.11,
//     2.1.2 and 4.2-4.15 Manual and 1.18 Automated, and moved 2.1.2 and
//     4.1 to Level 2.
//   - NIST SP 800-53 rev. 5: usnistgov/oscal-content's HIGH and PRIVACY
//     baseline resolved catalogs (titles as "Control | Enhancement"), plus
//     the controls Prowler's nist_800_53_revision_5_aws.json maps AWS checks
//     to; statement items (AC-2(d)(1)) are folded into their control.
//   - PCI DSS v4.0: the requirements Prowler's pci_4.0_aws.json maps AWS
//     checks to; a requirement's title is the statement of the requirement
//     group it belongs to, as that file gives it (the PCI SSC's own
//     requirement texts are not redistributable).
//   - SOC 2: the Trust Services Criteria Prowler's soc2_aws.json maps AWS
//     checks to.
//
// A rule's compliance reference is "<framework id>:<control id>", e.g.
// CIS-AWS-4.0.1:2.1.4, NIST-800-53-r5:SC-7(4), PCI-DSS-4.0:1.3.1, SOC2:CC6.1.
package compliance

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

//go:embed catalog.json
var catalogJSON []byte

// Assessment says how CIS marks a control: Automated (checkable from
// configuration) or Manual (needs a person).
type Assessment string

// CIS assessment statuses.
const (
	Automated Assessment = "automated"
	Manual    Assessment = "manual"
)

// Framework is one compliance framework and its controls in control order.
type Framework struct {
	ID       string    `json:"id"` // the reference prefix, e.g. CIS-AWS-4.0.1
	Title    string    `json:"title"`
	Version  string    `json:"version"`
	Source   string    `json:"source"` // where the ids and titles come from
	Controls []Control `json:"controls"`

	index map[string]int
}

// Control is one control (requirement, criterion) of a framework.
type Control struct {
	ID      string `json:"id"` // e.g. 2.1.4, SC-7(4), 1.3.1, CC6.1
	Title   string `json:"title"`
	Section string `json:"section"`
	// Level is the CIS profile level ("Level 1", "Level 2"); empty elsewhere.
	Level string `json:"level,omitempty"`
	// Assessment is CIS's Automated or Manual; empty for other frameworks.
	Assessment Assessment `json:"assessment,omitempty"`
}

var (
	loadOnce   sync.Once
	frameworks []Framework
	byID       map[string]int
)

func load() {
	var doc struct {
		Frameworks []Framework `json:"frameworks"`
	}
	if err := json.Unmarshal(catalogJSON, &doc); err != nil {
		panic("compliance: catalog.json: " + err.Error()) // embedded data, checked by the tests
	}
	frameworks = doc.Frameworks
	byID = make(map[string]int, len(frameworks))
	for i := range frameworks {
		f := &frameworks[i]
		byID[f.ID] = i
		f.index = make(map[string]int, len(f.Controls))
		for j, c := range f.Controls {
			f.index[c.ID] = j
		}
	}
}

// Frameworks returns every framework of the catalog, CIS first. The
// slice is shared: callers must not modify it.
func Frameworks() []Framework {
	loadOnce.Do(load)
	return frameworks
}

// Lookup returns the framework with the given id (e.g. CIS-AWS-4.0.1).
func Lookup(id string) (Framework, bool) {
	loadOnce.Do(load)
	i, ok := byID[id]
	if !ok {
		return Framework{}, false
	}
	return frameworks[i], true
}

// Control returns the framework's control with the given id.
func (f Framework) Control(id string) (Control, bool) {
	i, ok := f.index[id]
	if !ok {
		return Control{}, false
	}
	return f.Controls[i], true
}

// Resolve parses a compliance reference "<framework>:<control>" and
// returns the framework and control it names, or an error saying what is
// wrong with it.
func Resolve(ref string) (Framework, Control, error) {
	fid, cid, ok := strings.Cut(ref, ":")
	if !ok || fid == "" || cid == "" {
		return Framework{}, Control{}, fmt.Errorf("compliance reference %q is not <framework>:<control>", ref)
	}
	f, ok := Lookup(fid)
	if !ok {
		return Framework{}, Control{}, fmt.Errorf("compliance reference %q: unknown framework %q", ref, fid)
	}
	c, ok := f.Control(cid)
	if !ok {
		return Framework{}, Control{}, fmt.Errorf("compliance reference %q: %s has no control %q", ref, fid, cid)
	}
	return f, c, nil
}
