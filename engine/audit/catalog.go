package audit

import (
	"slices"
	"strings"

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

// NewCatalog builds the catalog from rules.All() and engine/compliance: a
// control reference "CIS-AWS-4.0.1:2.1.4" maps the rule to control 2.1.4 of
// CIS-AWS-4.0.1, titled as the framework's catalog titles it.
func NewCatalog() *Catalog {
	c := &Catalog{rules: map[string]engine.RuleInfo{}}
	controls := map[string]map[string]*engine.CatalogControl{}
	for _, r := range rules.All() {
		c.rules[r.ID] = engine.RuleInfo{ID: r.ID, Title: r.Title, Remediation: r.Remediation, Dimension: r.Dimension,
			Severity: r.Severity, Compliance: slices.Clone(r.Compliance), ResourceTypes: slices.Clone(r.ResourceTypes)}
		for _, ref := range r.Compliance {
			fw, id, ok := strings.Cut(ref, ":")
			if !ok || fw == "" || id == "" {
				continue
			}
			if controls[fw] == nil {
				controls[fw] = map[string]*engine.CatalogControl{}
			}
			ctl := controls[fw][id]
			if ctl == nil {
				ctl = &engine.CatalogControl{ID: id}
				controls[fw][id] = ctl
			}
			if ctl.Title == "" {
				if _, c, err := compliance.Resolve(ref); err == nil {
					ctl.Title = c.Title
				} else {
					ctl.Title = r.Title // a reference the catalog lacks (the pack's tests reject them)
				}
			}
			ctl.Rules = append(ctl.Rules, r.ID)
			for _, t := range r.ResourceTypes {
				if !slices.Contains(ctl.ResourceTypes, t) {
					ctl.ResourceTypes = append(ctl.ResourceTypes, t)
				}
			}
		}
	}
	for fw, ctls := range controls {
		f := engine.CatalogFramework{ID: fw, Title: fw}
		if cf, ok := compliance.Lookup(fw); ok {
			f.Title = cf.Title
		}
		for _, ctl := range ctls {
			slices.Sort(ctl.Rules)
			f.Controls = append(f.Controls, *ctl)
		}
		slices.SortFunc(f.Controls, func(a, b engine.CatalogControl) int { return compareControlIDs(a.ID, b.ID) })
		c.frameworks = append(c.frameworks, f)
	}
	slices.SortFunc(c.frameworks, func(a, b engine.CatalogFramework) int { return strings.Compare(b.ID, a.ID) })
	return c
}

// compareControlIDs orders "2.1.10" after "2.1.4".
func compareControlIDs(a, b string) int {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < len(pa) && i < len(pb); i++ {
		if len(pa[i]) != len(pb[i]) {
			return len(pa[i]) - len(pb[i])
		}
		if c := strings.Compare(pa[i], pb[i]); c != 0 {
			return c
		}
	}
	return len(pa) - len(pb)
}

// Rule implements engine.RuleCatalog.
func (c *Catalog) Rule(id string) (engine.RuleInfo, bool) {
	r, ok := c.rules[id]
	return r, ok
}

// Frameworks implements engine.RuleCatalog: newest framework version first.
func (c *Catalog) Frameworks() []engine.CatalogFramework { return c.frameworks }
