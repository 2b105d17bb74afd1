package pricing

import (
	"strings"
	"testing"
	"time"
)

func TestDefaultLoads(t *testing.T) {
	p := Default()
	if _, err := time.Parse(time.DateOnly, p.AsOf); err != nil || p.Source == "" || p.HoursPerMonth != 730 {
		t.Fatalf("table header: as_of %q, source %q, hours %v", p.AsOf, p.Source, p.HoursPerMonth)
	}
	// Every region the test estates use has EC2, EBS, snapshot, IPv4,
	// NAT gateway and load balancer prices.
	for _, r := range []string{"us-east-1", "eu-west-1", "eu-central-1"} {
		if len(p.EC2Hourly[r]) < 10 || len(p.EBSGiBMonth[r]) != 7 || p.SnapshotGiBMonth[r] == 0 ||
			p.PublicIPv4Hourly[r] == 0 || p.NATGatewayHourly[r] == 0 || len(p.LoadBalancerHourly[r]) < 3 {
			t.Errorf("region %s is incomplete", r)
		}
	}
}

func TestLookups(t *testing.T) {
	p := Default()
	for _, c := range []struct {
		name string
		got  func() (float64, bool)
		want float64
		ok   bool
	}{
		{"m5.large Virginia", func() (float64, bool) { return p.EC2("m5.large", "us-east-1") }, 0.096, true},
		{"m5.large Frankfurt", func() (float64, bool) { return p.EC2("m5.large", "eu-central-1") }, 0.115, true},
		{"m5.large Mumbai", func() (float64, bool) { return p.EC2("m5.large", "ap-south-1") }, 0, false},
		{"unknown type", func() (float64, bool) { return p.EC2("zz9.huge", "us-east-1") }, 0, false},
		{"db.m5.large MySQL", func() (float64, bool) { return p.RDS("db.m5.large", "mysql", "us-east-1", false) }, 0.171, true},
		{"db.m5.large MySQL Multi-AZ", func() (float64, bool) { return p.RDS("db.m5.large", "MySQL", "us-east-1", true) }, 0.342, true},
		{"db.m5.large PostgreSQL", func() (float64, bool) { return p.RDS("db.m5.large", "postgres", "us-east-1", false) }, 0, false},
		{"sc1 Ireland", func() (float64, bool) { return p.EBS("sc1", "eu-west-1") }, 0.0168, true},
		{"standard Virginia", func() (float64, bool) { return p.EBS("standard", "us-east-1") }, 0.05, true},
		{"snapshot Frankfurt", func() (float64, bool) { return p.Snapshot("eu-central-1") }, 0.054, true},
		{"IPv4 Ireland", func() (float64, bool) { return p.PublicIPv4("eu-west-1") }, 0.005, true},
		{"NAT Frankfurt", func() (float64, bool) { return p.NATGateway("eu-central-1") }, 0.052, true},
		{"ALB Virginia", func() (float64, bool) { return p.LoadBalancer("application", "us-east-1") }, 0.0225, true},
		{"GWLB Ireland", func() (float64, bool) { return p.LoadBalancer("gateway", "eu-west-1") }, 0, false},
	} {
		got, ok := c.got()
		if ok != c.ok || got != c.want {
			t.Errorf("%s = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	// 730 h × $0.045 = $32.85 a month.
	if got := p.Monthly(0.045); got != 32.85 {
		t.Errorf("Monthly(0.045) = %v, want 32.85", got)
	}
}

func TestLoadRejects(t *testing.T) {
	good := `{"as_of":"2025-06-01","currency":"USD","hours_per_month":730,"source":"x"`
	for _, c := range []struct{ doc, want string }{
		{`{"as_of":"June","currency":"USD","hours_per_month":730,"source":"x"}`, "as_of"},
		{`{"as_of":"2025-06-01","currency":"EUR","hours_per_month":730,"source":"x"}`, "currency"},
		{`{"as_of":"2025-06-01","currency":"USD","hours_per_month":730,"source":""}`, "source"},
		{`{"as_of":"2025-06-01","currency":"USD","hours_per_month":0,"source":"x"}`, "hours_per_month"},
		{good + `,"ec2_hourly":{"us-east-1":{"m5.large":-1}}}`, "not positive"},
		{good + `,"nat_gateway_hourly":{"us-east-1":0}}`, "not positive"},
		{good + `,"ec2_hourlly":{}}`, "unknown field"},
	} {
		if _, err := Load([]byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Load(%s) = %v, want an error about %s", c.doc, err, c.want)
		}
	}
	if _, err := Load([]byte(good + `}`)); err != nil {
		t.Errorf("minimal table: %v", err)
	}
}
