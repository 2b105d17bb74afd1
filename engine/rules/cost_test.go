package rules

import (
	"testing"

	"github.com/fourd-dev/fourd/engine"
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// inRegion moves a test resource to region.
func inRegion(region string, r engine.Resource) engine.Resource {
	r.Region = region
	return r
}

// TestCostEstimates checks the monthly figures the cost rules put in their
// evidence against amounts worked out by hand from prices.json (730 hours a
// month), and that a resource without a known price says "not_estimated"
// and carries no figure at all (never the old flat guess).
func TestCostEstimates(t *testing.T) {
	cases := []struct {
		name, rule string
		res        engine.Resource
		key        string  // evidence key of the figure; "" when not estimated
		want       float64 // USD a month
	}{
		// 100 GiB × $0.11 (gp2, eu-west-1)
		{"unattached gp2 Ireland", "aws-ebs-004", mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","state":"available","size":100,"type":"gp2"}`),
			"estimated_monthly_usd", 11.00},
		// 250 GiB × $0.125 (io1, us-east-1)
		{"unattached io1 Virginia", "aws-ebs-004", inRegion("us-east-1", mk(inv.TypeEBSVolume, `{"volume_id":"vol-2","state":"available","size":250,"type":"io1"}`)),
			"estimated_monthly_usd", 31.25},
		{"unattached gp3 Mumbai", "aws-ebs-004", inRegion("ap-south-1", mk(inv.TypeEBSVolume, `{"volume_id":"vol-3","state":"available","size":10,"type":"gp3"}`)), "", 0},
		// 500 GiB × ($0.11 − $0.088)
		{"gp2 to gp3 Ireland", "aws-ebs-005", mk(inv.TypeEBSVolume, `{"volume_id":"vol-4","state":"in-use","size":500,"type":"gp2"}`),
			"estimated_monthly_saving_usd", 11.00},
		// 200 GiB × $0.054 (snapshots, eu-central-1), an upper bound
		{"old snapshot Frankfurt", "aws-ebs-006", inRegion("eu-central-1", mk(inv.TypeEBSSnapshot, `{"snapshot_id":"snap-1","volume_size":200,"start_time":"2024-01-01T00:00:00Z"}`)),
			"estimated_monthly_usd", 10.80},
		// 730 h × $0.005
		{"idle Elastic IP", "aws-ec2-009", mk(inv.TypeEIP, `{"allocation_id":"eipalloc-1","public_ip":"203.0.113.9","association_id":""}`), "estimated_monthly_usd", 3.65},
		// 730 h × ($0.222 m4.xlarge − $0.214 m5.xlarge), eu-west-1
		{"m4.xlarge Ireland", "aws-ec2-010", mk(inv.TypeInstance, `{"instance_id":"i-1","instance_type":"m4.xlarge","state":"running"}`),
			"estimated_monthly_saving_usd", 5.84},
		{"m3.medium has no m5 twin", "aws-ec2-010", inRegion("us-east-1", mk(inv.TypeInstance, `{"instance_id":"i-2","instance_type":"m3.medium","state":"running"}`)), "", 0},
		{"stopped instance", "aws-ec2-011", mk(inv.TypeInstance, `{"instance_id":"i-3","state":"stopped","state_changed_at":"2025-01-02T00:00:00Z","volume_ids":["vol-9"]}`), "", 0},
		// 730 h × $0.028 (classic, eu-west-1)
		{"idle classic LB Ireland", "aws-elb-001", mk(inv.TypeLB, `{"name":"old","load_balancer_type":"classic","target_count":0}`), "estimated_monthly_usd", 20.44},
		// 730 h × $0.027 (network, eu-central-1)
		{"idle NLB Frankfurt", "aws-elb-001", inRegion("eu-central-1", mk(inv.TypeLB, `{"name":"nlb","load_balancer_type":"network","target_count":0}`)), "estimated_monthly_usd", 19.71},
		{"idle GWLB Frankfurt", "aws-elb-001", inRegion("eu-central-1", mk(inv.TypeLB, `{"name":"gw","load_balancer_type":"gateway","target_count":0}`)), "", 0},
		// 730 h × 2 (Multi-AZ) × ($0.175 db.m4.large − $0.171 db.m5.large), MySQL us-east-1
		{"db.m4.large MySQL Multi-AZ", "aws-rds-003", inRegion("us-east-1", mk(inv.TypeDBInstance, `{"identifier":"db1","engine":"mysql","instance_class":"db.m4.large","multi_az":true}`)),
			"estimated_monthly_saving_usd", 5.84},
		{"db.m4.large Oracle", "aws-rds-003", inRegion("us-east-1", mk(inv.TypeDBInstance, `{"identifier":"db2","engine":"oracle-ee","instance_class":"db.m4.large"}`)), "", 0},
		{"log group", "aws-logs-001", mk(inv.TypeLogGroup, `{"name":"/app","retention_in_days":0}`), "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, fired := firedIDs(Evaluate(c.res, testNow))[c.rule]
			if !fired {
				t.Fatalf("%s did not fire", c.rule)
			}
			ev := v.Evidence
			if c.key == "" {
				if ev["estimate"] != "not_estimated" || ev["estimate_reason"] == "" {
					t.Errorf("evidence %v: want estimate not_estimated with a reason", ev)
				}
				for _, k := range []string{"estimated_monthly_usd", "estimated_monthly_saving_usd"} {
					if _, ok := ev[k]; ok {
						t.Errorf("unpriced finding carries %s: %v", k, ev)
					}
				}
				return
			}
			got, ok := ev[c.key].(float64)
			if !ok || got != c.want {
				t.Errorf("%s = %v, want %v (evidence %v)", c.key, ev[c.key], c.want, ev)
			}
			if ev["estimate"] != "price_table" || ev["price_table_as_of"] != prices.AsOf {
				t.Errorf("evidence %v: want estimate price_table as of %s", ev, prices.AsOf)
			}
		})
	}
}

// TestCostEstimates_CleanTwins: resources the cost rules do not flag get no
// finding, hence no estimate.
func TestCostEstimates_CleanTwins(t *testing.T) {
	for _, res := range []engine.Resource{
		mk(inv.TypeEBSVolume, `{"volume_id":"vol-1","state":"in-use","size":100,"type":"gp3"}`),
		mk(inv.TypeEIP, `{"allocation_id":"eipalloc-1","public_ip":"203.0.113.9","association_id":"eipassoc-1"}`),
		mk(inv.TypeInstance, `{"instance_id":"i-1","instance_type":"m5.xlarge","state":"running"}`),
		mk(inv.TypeLB, `{"name":"web","load_balancer_type":"application","target_count":2}`),
		inRegion("us-east-1", mk(inv.TypeDBInstance, `{"identifier":"db1","engine":"mysql","instance_class":"db.m5.large","storage_type":"gp3"}`)),
	} {
		for _, v := range Evaluate(res, testNow) {
			if v.Rule.Dimension == cost {
				t.Errorf("%s on a clean %s: %v", v.Rule.ID, res.Type, v.Evidence)
			}
		}
	}
}
