package rest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/fourd-dev/fourd/engine"
	"github.com/fourd-dev/fourd/engine/findings"
)

// historyItem is one version of an EBS volume as get-resource-config-history
// answers it (AWS Config API Reference, GetResourceConfigHistory and
// ConfigurationItem: lower-case arn/accountId/version, configuration as a
// JSON string; volume properties from awslabs/aws-config-resource-schema,
// AWS::EC2::Volume.properties.json).
func historyItem(vol, captured, volumeType string, size int) string {
	conf, _ := json.Marshal(fmt.Sprintf(`{"volumeId":%q,"size":%d,"volumeType":%q,"iops":3000,"encrypted":true,"state":"in-use",`+
		`"availabilityZone":"eu-west-1a","createTime":"2025-01-10T08:00:00.000Z","attachments":[]}`, vol, size, volumeType))
	return fmt.Sprintf(`{"version":"1.3","accountId":"123456789012","configurationItemCaptureTime":%q,"configurationItemStatus":"OK",
	"configurationStateId":"1748761200000","configurationItemMD5Hash":"","arn":"arn:aws:ec2:eu-west-1:123456789012:volume/%s",
	"resourceType":"AWS::EC2::Volume","resourceId":%q,"awsRegion":"eu-west-1","availabilityZone":"eu-west-1a",
	"resourceCreationTime":"2025-01-10T08:00:00.000Z","tags":{},"relatedEvents":[],"relationships":[],"configuration":%s,
	"supplementaryConfiguration":{}}`, captured, vol, vol, conf)
}

// TestConfigHistoryNewestWins imports the configuration history of a
// volume (two versions, gp2 then gp3) as get-resource-config-history
// returns it, newest first (its default, reverse chronological) and oldest
// first (--chronological-order Forward): in both orders the inventory holds
// the newest version by configurationItemCaptureTime.
//
// The service's clock is frozen: two observations of one resource in one
// import get the same time, and the one read later must still win.
func TestConfigHistoryNewestWins(t *testing.T) {
	t.Parallel()
	frozen := time.Now().UTC()
	e := newEnv(t, envOptions{engine: func(c *findings.Config) { c.Now = func() time.Time { return frozen } }})
	for _, c := range []struct{ name, vol string }{{"newest first", "vol-0aaaaaaaaaaaaaaa1"}, {"oldest first", "vol-0bbbbbbbbbbbbbbb2"}} {
		t.Run(c.name, func(t *testing.T) {
			older := historyItem(c.vol, "2025-05-01T10:00:00.000Z", "gp2", 100)
			newer := historyItem(c.vol, "2025-06-01T10:00:00.000Z", "gp3", 200)
			items := []string{newer, older}
			if c.name == "oldest first" {
				items = []string{older, newer}
			}
			body := `{"configurationItems":[` + strings.Join(items, ",") + `],"nextToken":null}`
			r := do(t, e.client, http.MethodPost, e.url+"/v1/resources", e.tokA, []byte(body), jsonHeader("application/json"))
			if r.status != http.StatusOK && r.status != http.StatusCreated {
				t.Fatalf("POST /v1/resources: %d %s", r.status, r.body)
			}
			id := engine.ResourceID(e.a.ID, "aws", "arn:aws:ec2:eu-west-1:123456789012:volume/"+c.vol)
			res := getJSON[engine.Resource](t, e, "/v1/resources/"+id, e.tokA)
			var attrs struct {
				Type string `json:"type"`
				Size int    `json:"size"`
			}
			if err := json.Unmarshal(res.Attributes, &attrs); err != nil {
				t.Fatal(err)
			}
			if attrs.Type != "gp3" || attrs.Size != 200 {
				t.Errorf("the inventory holds %+v; want the newest version (gp3, 200 GiB)", attrs)
			}
		})
	}
}
