package audit

import (
	"slices"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/compliance"
	"github.com/fourd-dev/fourd/engine/rules"
)

// Catalog describes the built-in rules and the compliance controls they
// check; it implements engine.RuleCatalog.
type Catalog struct {
	rules      map[string]engine.RuleInfo
	frameworks []engine.CatalogFramework
}

var _ engine.RuleCatalog = (*Catalog)(nil)

// NewCatalog builds the catalog from engine/compliance's frameworks, every
// control of each in catalog order, and rules.All(): a reference
// "CIS-AWS-4.0.1:2.1.4" puts the rule on control 2.1.4 of CIS-AWS-4.0.1. A
// reference the catalog lacks is ignored (the pack's tests reject them).
func NewCatalog() *Catalog {
	c := &Catalog{rules: map[string]engine.RuleInfo{}}
	type entry struct {
		fw, ctl int
	}
	index := map[string]entry{}
	for i, f := range compliance.Frameworks() {
		out := engine.CatalogFramework{ID: f.ID, Title: f.Title, Version: f.Version, Source: f.Source,
			Controls: make([]engine.CatalogControl, len(f.Controls))}
		for j, ctl := range f.Controls {
			out.Controls[j] = engine.CatalogControl{ID: ctl.ID, Title: ctl.Title, Section: ctl.Section, Level: ctl.Level,
				Assessment: string(ctl.Assessment)}
			if ctl.Assessment == compliance.Automated {
				out.Controls[j].Gap = compliance.Gap(f.ID, ctl.ID)
			}
			index[f.ID+":"+ctl.ID] = entry{i, j}
		}
		c.frameworks = append(c.frameworks, out)
	}
	for _, r := range rules.All() {
		c.rules[r.ID] = engine.RuleInfo{ID: r.ID, Title: r.Title, Remediation: r.Remediation, Dimension: r.Dimension,
			Severity: r.Severity, Compliance: slices.Clone(r.Compliance), ResourceTypes: slices.Clone(r.ResourceTypes)}
		for _, ref := range r.Compliance {
			e, ok := index[ref]
			if !ok {
				continue
			}
			ctl := &c.frameworks[e.fw].Controls[e.ctl]
			if !slices.Contains(ctl.Rules, r.ID) {
				ctl.Rules = append(ctl.Rules, r.ID)
			}
			for _, t := range r.ResourceTypes {
				if !slices.Contains(ctl.ResourceTypes, t) {
					ctl.ResourceTypes = append(ctl.ResourceTypes, t)
				}
			}
		}
	}
	for _, f := range c.frameworks {
		for i := range f.Controls {
			slices.Sort(f.Controls[i].Rules)
			f.Controls[i].Gap = gapIfUnchecked(f.Controls[i])
		}
	}
	return c
}

// gapIfUnchecked keeps a control's gap only while no rule checks it.
func gapIfUnchecked(c engine.CatalogControl) string {
	if len(c.Rules) > 0 {
		return ""
	}
	return c.Gap
}

// Rule implements engine.RuleCatalog.
func (c *Catalog) Rule(id string) (engine.RuleInfo, bool) {
	r, ok := c.rules[id]
	return r, ok
}

// Frameworks implements engine.RuleCatalog: the catalog's order, CIS first.
func (c *Catalog) Frameworks() []engine.CatalogFramework { return c.frameworks }
