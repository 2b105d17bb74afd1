package inventory

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fourd-dev/fourd/engine"
)

// The sample estate: a small company ("Alpenglow Analytics") with a
// production, a staging and a shared-services account in three regions,
// with a realistic mix of good and bad configurations. Every file in
// testdata/inventory is written from it (go test ./engine/inventory -run
// TestSamples -update), so the samples are deterministic.

type sample struct {
	res   engine.Resource
	attrs any
}

var (
	estateNow = time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)
	accounts  = []struct{ id, env string }{{"210987654321", "production"}, {"345678901234", "staging"}, {"456789012345", "shared"}}
	regions   = []string{"eu-west-1", "eu-central-1", "us-east-1"}
)

type estateGen struct {
	rnd  *rand.Rand
	out  []sample
	seq  int
	acct string
	env  string
}

func (g *estateGen) id(prefix string) string {
	g.seq++
	return fmt.Sprintf("%s-%017x", prefix, uint64(g.seq)*0x9e3779b97f4a7c15>>4)
}

func (g *estateGen) chance(p float64) bool { return g.rnd.Float64() < p }

func (g *estateGen) ago(days int) time.Time {
	return estateNow.Add(-time.Duration(days) * 24 * time.Hour)
}

func (g *estateGen) tags(name string, full bool, extra ...string) map[string]string {
	t := map[string]string{"Name": name}
	if full {
		t["Owner"] = []string{"platform", "data-eng", "web", "secops"}[g.rnd.IntN(4)]
		t["Environment"] = g.env
		t["cost-center"] = fmt.Sprintf("cc-%d", 1000+g.rnd.IntN(4)*10)
	} else if g.chance(0.5) {
		t["Owner"] = "unknown"
	}
	for i := 0; i+1 < len(extra); i += 2 {
		t[extra[i]] = extra[i+1]
	}
	return t
}

func (g *estateGen) add(typ, region, arn, name string, tags map[string]string, attrs any) {
	b, err := json.Marshal(attrs)
	if err != nil {
		panic(err)
	}
	g.out = append(g.out, sample{res: engine.Resource{Provider: ProviderAWS, Account: g.acct, Region: region, Type: typ,
		NativeID: arn, Name: name, Tags: engine.TagsFromMap(tags), Attributes: b}, attrs: attrs})
}

func arnOf(service, region, account, resource string) string {
	if region == RegionGlobal {
		region = ""
	}
	return "arn:aws:" + service + ":" + region + ":" + account + ":" + resource
}

// buildEstate returns the sample estate.
func buildEstate() []sample {
	g := &estateGen{rnd: rand.New(rand.NewPCG(20250601, 4))}
	for ai, a := range accounts {
		g.acct, g.env = a.id, a.env
		g.account(ai)
		for ri, region := range regions {
			if a.env == "shared" && ri > 0 {
				continue
			}
			g.region(ai, ri, region)
		}
	}
	return g.out
}

func (g *estateGen) account(ai int) {
	root := &IAMAccount{AccountID: g.acct, RootMFAEnabled: ai != 1, RootHardwareMFA: ai == 0,
		RootAccessKeysPresent: ai == 1}
	if ai == 2 {
		root.RootLastUsed = g.ago(12)
	}
	if ai != 1 {
		root.PasswordPolicy = &PasswordPolicy{MinimumPasswordLength: []int{14, 8}[ai/2], PasswordReusePrevention: []int{24, 5}[ai/2],
			RequireSymbols: true, RequireNumbers: true, RequireUppercaseCharacters: true, RequireLowercaseCharacters: true, MaxPasswordAge: 90}
	}
	g.add(TypeIAMAccount, RegionGlobal, "arn:aws:iam::"+g.acct+":root", accounts[ai].env, nil, root)
	users := []string{"amelie.durand", "jonas.müller", "ci-deployer", "li.wei", "backup-svc", "søren.nielsen"}
	for ui, u := range users[:4+ai] {
		human := ui != 2 && ui != 4
		user := &IAMUser{UserName: u, UserID: "AIDA" + g.id("U")[2:18], CreateDate: g.ago(200 + g.rnd.IntN(900)),
			PasswordEnabled: ptr(human), MFAActive: ptr(human && g.chance(0.6)), Groups: []string{"developers"}}
		if human {
			user.PasswordLastUsed = g.ago(g.rnd.IntN(30))
		}
		switch {
		case ui == 2:
			user.AttachedPolicyARNs = []string{"arn:aws:iam::aws:policy/AdministratorAccess"}
			user.Groups = nil
		case g.chance(0.3):
			user.InlinePolicyNames = []string{"s3-exports"}
		}
		g.add(TypeIAMUser, RegionGlobal, arnOf("iam", RegionGlobal, g.acct, "user/"+u), u, g.tags(u, g.chance(0.7)), user)
		if human && !g.chance(0.5) {
			continue
		}
		key := &IAMAccessKey{AccessKeyID: fmt.Sprintf("AKIA%016X", g.rnd.Uint64()), UserName: u, Status: "Active",
			CreateDate: g.ago([]int{20, 120, 400, 60}[g.rnd.IntN(4)]), LastUsedDate: UsedAt(time.Time{})}
		if g.chance(0.6) {
			key.LastUsedDate = UsedAt(g.ago([]int{1, 3, 70}[g.rnd.IntN(3)]))
		}
		g.add(TypeIAMAccessKey, RegionGlobal, arnOf("iam", RegionGlobal, g.acct, "user/"+u+"/accesskey/"+key.AccessKeyID), key.AccessKeyID, nil, key)
	}
	if ai == 0 {
		g.add(TypeCloudFrontDistribution, RegionGlobal, arnOf("cloudfront", RegionGlobal, g.acct, "distribution/E2QWRUHAPOMQZL"), "www.alpenglow.example",
			g.tags("www", true), &CloudFrontDistribution{DistributionID: "E2QWRUHAPOMQZL", DomainName: "d111111abcdef8.cloudfront.net", Enabled: true,
				ViewerProtocolPolicy: "redirect-to-https", MinimumProtocolVersion: "TLSv1.2_2021", LoggingBucket: "alpenglow-cf-logs.s3.amazonaws.com", PriceClass: "PriceClass_100"})
		g.add(TypeCloudFrontDistribution, RegionGlobal, arnOf("cloudfront", RegionGlobal, g.acct, "distribution/E1LEGACYDOCS01"), "docs-legacy",
			g.tags("docs-legacy", false), &CloudFrontDistribution{DistributionID: "E1LEGACYDOCS01", DomainName: "d222222abcdef8.cloudfront.net", Enabled: true,
				ViewerProtocolPolicy: "allow-all", MinimumProtocolVersion: "TLSv1"})
	}
}
