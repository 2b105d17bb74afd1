// Package pricing is the embedded, dated table of AWS on-demand prices the
// cost rules turn into monthly estimates. A price that is not in the table
// is unknown: lookups say so and the rules report "not estimated" rather
// than inventing a figure.
package pricing

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
)

//go:embed prices.json
var embedded []byte

// Table is a parsed price table. Prices are USD; the outer map key of every
// regional map is the AWS region code.
type Table struct {
	// AsOf is the date (YYYY-MM-DD) the prices were taken.
	AsOf string `json:"as_of"`
	// Currency is always USD.
	Currency string `json:"currency"`
	// HoursPerMonth turns hourly prices into monthly ones (AWS uses 730).
	HoursPerMonth float64 `json:"hours_per_month"`
	// Source says where the figures come from.
	Source string `json:"source"`
	// EC2Hourly is the Linux on-demand price per hour by instance type.
	EC2Hourly map[string]map[string]float64 `json:"ec2_hourly"`
	// RDSHourly is the single-AZ on-demand price per hour by instance class
	// for the engines in RDSEngines.
	RDSHourly map[string]map[string]float64 `json:"rds_hourly"`
	// RDSEngines are the engines RDSHourly prices.
	RDSEngines []string `json:"rds_engines"`
	// EBSGiBMonth is the volume storage price per GiB-month by volume type.
	EBSGiBMonth map[string]map[string]float64 `json:"ebs_gib_month"`
	// SnapshotGiBMonth is the standard-tier snapshot price per GiB-month.
	SnapshotGiBMonth map[string]float64 `json:"snapshot_gib_month"`
	// PublicIPv4Hourly is the price per hour of a public IPv4 address,
	// an idle Elastic IP included.
	PublicIPv4Hourly map[string]float64 `json:"public_ipv4_hourly"`
	// NATGatewayHourly is a NAT gateway's price per hour (data processing
	// is extra).
	NATGatewayHourly map[string]float64 `json:"nat_gateway_hourly"`
	// LoadBalancerHourly is a load balancer's price per hour by type
	// (application, network, gateway, classic); capacity units are extra.
	LoadBalancerHourly map[string]map[string]float64 `json:"load_balancer_hourly"`
}

var (
	defaultOnce  sync.Once
	defaultTable *Table
)

// Default returns the embedded table. The embedded file is checked by the
// package's tests, so a failure to parse it is a build defect and panics.
func Default() *Table {
	defaultOnce.Do(func() {
		t, err := Load(embedded)
		if err != nil {
			panic("pricing: embedded prices.json: " + err.Error())
		}
		defaultTable = t
	})
	return defaultTable
}

// Load parses and validates a price table: a dated, sourced USD table whose
// prices are all positive.
func Load(data []byte) (*Table, error) {
	var t Table
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	if _, err := time.Parse(time.DateOnly, t.AsOf); err != nil {
		return nil, fmt.Errorf("as_of %q is not a YYYY-MM-DD date", t.AsOf)
	}
	if t.Currency != "USD" {
		return nil, fmt.Errorf("currency %q, want USD", t.Currency)
	}
	if strings.TrimSpace(t.Source) == "" {
		return nil, errors.New("source is empty")
	}
	if t.HoursPerMonth <= 0 {
		return nil, errors.New("hours_per_month must be positive")
	}
	for name, m := range map[string]map[string]map[string]float64{"ec2_hourly": t.EC2Hourly, "rds_hourly": t.RDSHourly,
		"ebs_gib_month": t.EBSGiBMonth, "load_balancer_hourly": t.LoadBalancerHourly} {
		for region, prices := range m {
			if err := positive(name+"."+region, prices); err != nil {
				return nil, err
			}
		}
	}
	for name, m := range map[string]map[string]float64{"snapshot_gib_month": t.SnapshotGiBMonth,
		"public_ipv4_hourly": t.PublicIPv4Hourly, "nat_gateway_hourly": t.NATGatewayHourly} {
		if err := positive(name, m); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

func positive(name string, prices map[string]float64) error {
	for k, p := range prices {
		if !(p > 0) || math.IsInf(p, 0) {
			return fmt.Errorf("%s.%s: price %v is not positive", name, k, p)
		}
	}
	return nil
}

func lookup2(m map[string]map[string]float64, region, key string) (float64, bool) {
	p, ok := m[region][key]
	return p, ok
}

// EC2 returns the hourly price of an instance type in a region.
func (t *Table) EC2(instanceType, region string) (float64, bool) {
	return lookup2(t.EC2Hourly, region, instanceType)
}

// RDS returns the hourly price of a DB instance class for an engine in a
// region; Multi-AZ (one standby) costs twice the single-AZ price.
func (t *Table) RDS(class, engine, region string, multiAZ bool) (float64, bool) {
	if !slices.Contains(t.RDSEngines, strings.ToLower(engine)) {
		return 0, false
	}
	p, ok := lookup2(t.RDSHourly, region, class)
	if ok && multiAZ {
		p *= 2
	}
	return p, ok
}

// EBS returns the monthly price per GiB of a volume type in a region.
func (t *Table) EBS(volumeType, region string) (float64, bool) {
	return lookup2(t.EBSGiBMonth, region, volumeType)
}

// Snapshot returns the monthly price per GiB of snapshot storage in a region.
func (t *Table) Snapshot(region string) (float64, bool) {
	p, ok := t.SnapshotGiBMonth[region]
	return p, ok
}

// PublicIPv4 returns the hourly price of an (idle) public IPv4 address.
func (t *Table) PublicIPv4(region string) (float64, bool) {
	p, ok := t.PublicIPv4Hourly[region]
	return p, ok
}

// NATGateway returns the hourly price of a NAT gateway in a region.
func (t *Table) NATGateway(region string) (float64, bool) {
	p, ok := t.NATGatewayHourly[region]
	return p, ok
}

// LoadBalancer returns the hourly price of a load balancer of lbType
// (application, network, gateway, classic) in a region.
func (t *Table) LoadBalancer(lbType, region string) (float64, bool) {
	return lookup2(t.LoadBalancerHourly, region, lbType)
}

// Monthly turns an hourly price into a monthly amount in cents precision.
func (t *Table) Monthly(hourly float64) float64 { return Cents(hourly * t.HoursPerMonth) }

// Cents rounds an amount to whole cents.
func Cents(usd float64) float64 { return math.Round(usd*100) / 100 }
