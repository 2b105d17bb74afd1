package inventory

import (
	"encoding/json"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/fourd-dev/fourd/engine"
)

// cfgMapper maps one AWS Config item's configuration (an object's bytes,
// nil when absent) to a canonical type and its attributes.
type cfgMapper func(ci *configItem, conf []byte, j *joiner) (typ string, attrs any, err error)

// configTypes maps the AWS Config resource types fourd understands; other
// types keep their raw configuration under a derived type name.
var configTypes = map[string]cfgMapper{
	"AWS::S3::Bucket":                           cfgS3Bucket,
	"AWS::EC2::SecurityGroup":                   cfgSecurityGroup,
	"AWS::EC2::Instance":                        cfgInstance,
	"AWS::EC2::Volume":                          cfgVolume,
	"AWS::EC2::EIP":                             cfgEIP,
	"AWS::EC2::VPC":                             cfgVPC,
	"AWS::EC2::FlowLog":                         cfgFlowLog,
	"AWS::RDS::DBInstance":                      cfgDBInstance,
	"AWS::IAM::User":                            cfgIAMUser,
	"AWS::IAM::Role":                            cfgIAMRole,
	"AWS::IAM::Policy":                          cfgIAMPolicy,
	"AWS::IAM::Group":                           cfgIAMGroup,
	"AWS::ECR::Repository":                      cfgECR,
	"AWS::SecretsManager::Secret":               cfgSecret,
	"AWS::ElasticLoadBalancingV2::LoadBalancer": cfgLB,
	"AWS::CloudTrail::Trail":                    cfgTrail,
	"AWS::KMS::Key":                             cfgKMSKey,
	"AWS::Lambda::Function":                     cfgLambda,
	"AWS::AutoScaling::AutoScalingGroup":        cfgASG,
	"AWS::ElastiCache::CacheCluster":            cfgElastiCache,
	"AWS::DynamoDB::Table":                      cfgDynamoDB,
	"AWS::EFS::FileSystem":                      cfgEFS,
	"AWS::CloudFront::Distribution":             cfgCloudFront,
	"AWS::SQS::Queue":                           cfgSQS,
	"AWS::SNS::Topic":                           cfgSNS,
	"AWS::Config::ConfigurationRecorder":        cfgRecorder,
	"AWS::GuardDuty::Detector":                  cfgGuardDuty,
	"AWS::Logs::LogGroup":                       cfgLogGroup,
	"AWS::S3::AccountPublicAccessBlock":         cfgAccountPAB,
	"AWS::RDS::DBSnapshot":                      cfgDBSnapshot,
	"AWS::RDS::DBCluster":                       cfgRDSCluster,
	"AWS::RDS::DBClusterSnapshot":               cfgRDSClusterSnapshot,
	"AWS::Redshift::Cluster":                    cfgRedshiftCluster,
	"AWS::OpenSearch::Domain":                   cfgOpenSearch,
	"AWS::Elasticsearch::Domain":                cfgOpenSearch,
	"AWS::Kinesis::Stream":                      cfgKinesisStream,
	"AWS::KinesisFirehose::DeliveryStream":      cfgFirehose,
	"AWS::MSK::Cluster":                         cfgMSK,
	"AWS::Backup::BackupPlan":                   cfgBackupPlan,
	"AWS::Backup::BackupVault":                  cfgBackupVault,
	"AWS::Backup::RecoveryPoint":                cfgRecoveryPoint,
	"AWS::SageMaker::NotebookInstance":          cfgSageMakerNotebook,
	"AWS::SageMaker::EndpointConfig":            cfgSageMakerEndpointConfig,
	"AWS::Athena::WorkGroup":                    cfgAthenaWorkgroup,
	"AWS::Glue::Job":                            cfgGlueJob,
	"AWS::EC2::Subnet":                          cfgSubnet,
	"AWS::EC2::RouteTable":                      cfgRouteTable,
	"AWS::EC2::NetworkAcl":                      cfgNetworkACL,
	"AWS::EC2::NatGateway":                      cfgNATGateway,
	"AWS::EC2::VPCEndpoint":                     cfgVPCEndpoint,
	"AWS::EC2::TransitGateway":                  cfgTransitGateway,
	"AWS::EC2::VPNConnection":                   cfgVPNConnection,
	"AWS::ECS::TaskDefinition":                  cfgECSTaskDefinition,
	"AWS::ECS::Cluster":                         cfgECSCluster,
	"AWS::ECS::Service":                         cfgECSService,
	"AWS::EKS::Cluster":                         cfgEKSCluster,
	"AWS::ElasticLoadBalancing::LoadBalancer":   cfgClassicLB,
	"AWS::ElasticLoadBalancingV2::Listener":     cfgLBListener,
	"AWS::EC2::LaunchTemplate":                  cfgLaunchTemplate,
	"AWS::AutoScaling::LaunchConfiguration":     cfgLaunchConfiguration,
	"AWS::CodeBuild::Project":                   cfgCodeBuild,
	"AWS::StepFunctions::StateMachine":          cfgStateMachine,
	"AWS::CloudWatch::Alarm":                    cfgAlarm,
	"AWS::Cognito::IdentityPool":                cfgIdentityPool,
	"AWS::Cognito::UserPoolClient":              cfgUserPoolClient,
	"AWS::ACMPCA::CertificateAuthority":         cfgPrivateCA,
	"AWS::AccessAnalyzer::Analyzer":             cfgAnalyzer,
	"AWS::ApiGateway::Stage":                    cfgAPIGatewayStage,
	"AWS::ApiGatewayV2::Stage":                  cfgAPIGatewayV2Stage,
	"AWS::WAFv2::WebACL":                        cfgWAFv2WebACL,
	"AWS::Route53::HostedZone":                  cfgRoute53Zone,
	"AWS::ACM::Certificate":                     cfgACMCertificate,
	"AWS::NetworkFirewall::Firewall":            cfgNetworkFirewall,
}

// fromConfigItem converts one configuration item to a canonical resource.
func fromConfigItem(ci *configItem, j *joiner) (engine.Resource, error) {
	if ci.ResourceType == "" {
		return engine.Resource{}, engine.FieldErrorf("resourceType", "configuration item has no resourceType")
	}
	if ci.ResourceID == "" && ci.ARN == "" {
		return engine.Resource{}, engine.FieldErrorf("resourceId", "configuration item of type %s has neither resourceId nor ARN", clip(ci.ResourceType))
	}
	account := ci.AWSAccountID
	if account == "" {
		account = ci.AccountID
	}
	region := ci.AWSRegion
	if region == "" {
		region = RegionGlobal
	}
	conf := jsonObject(ci.Configuration)
	res := engine.Resource{
		Provider: ProviderAWS, Account: account, Region: region,
		NativeID: ci.ARN, Name: ci.ResourceName, Tags: engine.TagsFromMap(ci.Tags),
		CapturedAt: ci.CaptureTime.ptr(),
	}
	if res.Name == "" {
		res.Name = ci.ResourceID
	}
	m, known := configTypes[ci.ResourceType]
	if !known {
		res.Type = typeFromAWS(ci.ResourceType)
		res.Attributes = conf
		if res.Attributes == nil || conf[0] != '{' {
			res.Attributes = json.RawMessage(`{}`)
		}
	} else {
		typ, attrs, err := m(ci, conf, j)
		if err != nil {
			return engine.Resource{}, engine.FieldErrorf("configuration", "%s %s: configuration: %v", ci.ResourceType, clip(ci.ResourceID), err)
		}
		b, err := json.Marshal(attrs)
		if err != nil {
			return engine.Resource{}, engine.FieldErrorf("configuration", "%s: %v", ci.ResourceType, err)
		}
		res.Type, res.Attributes = typ, b
	}
	if strings.HasPrefix(res.Type, "aws_iam_") {
		res.Region = RegionGlobal
	}
	if res.NativeID == "" {
		res.NativeID = synthARN(res.Type, res.Region, account, ci.ResourceID)
	}
	return res, nil
}

// typeFromAWS derives a canonical type name from an AWS type name:
// AWS::ApiGateway::RestApi → aws_apigateway_rest_api.
func typeFromAWS(t string) string {
	parts := strings.Split(t, "::")
	var b strings.Builder
	b.WriteString("aws")
	for i, p := range parts {
		if i == 0 && strings.EqualFold(p, "AWS") {
			continue
		}
		b.WriteByte('_')
		if i == 1 {
			b.WriteString(strings.ToLower(p))
			continue
		}
		b.WriteString(snake(p))
	}
	s := b.String()
	// Keep only what Validate accepts.
	out := []byte(s)
	for i, c := range out {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			out[i] = '_'
		}
	}
	return string(out)
}

// snake turns CamelCase into snake_case, keeping acronyms together:
// DBInstance → db_instance, RestApi → rest_api.
func snake(s string) string {
	r := []rune(s)
	var b strings.Builder
	for i, c := range r {
		if unicode.IsUpper(c) && i > 0 {
			prevLower := unicode.IsLower(r[i-1]) || unicode.IsDigit(r[i-1])
			nextLower := i+1 < len(r) && unicode.IsLower(r[i+1])
			if prevLower || (nextLower && unicode.IsUpper(r[i-1])) {
				b.WriteByte('_')
			}
		}
		b.WriteRune(unicode.ToLower(c))
	}
	return b.String()
}

// synthARN makes a stable ARN-like native id for a resource whose source
// has no ARN: arn:aws:<service>:<region>:<account>:<type>/<id>.
func synthARN(typ, region, account, id string) string {
	service := strings.TrimPrefix(typ, "aws_")
	kind := service
	if i := strings.IndexByte(service, '_'); i > 0 {
		service, kind = service[:i], service[i+1:]
	}
	if typ == "aws_flow_log" {
		service, kind = "ec2", "vpc-flow-log"
	}
	if region == RegionGlobal {
		region = ""
	}
	return "arn:aws:" + service + ":" + region + ":" + account + ":" + kind + "/" + id
}

// flexBool is a JSON boolean that AWS sometimes writes as a string.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	*f = flexBool(strings.EqualFold(s, "true"))
	return nil
}

// ptr is f as a tri-state: nil when the value was absent or null.
func (f *flexBool) ptr() *bool {
	if f == nil {
		return nil
	}
	return boolPtr(bool(*f))
}

// unrecorded is a type's canonical attributes without the keys its
// configuration item does not record: they are left out of the
// attributes, which makes them unknown to the checks that read them, not
// false.
type unrecorded struct {
	attrs any
	keys  []string
}

// MarshalJSON writes attrs without the unrecorded keys.
func (u unrecorded) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(u.attrs)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, k := range u.keys {
		delete(m, k)
	}
	return json.Marshal(m)
}

// orTri is a or b as a tri-state: true when either is true, false when
// either is false and neither true, nil when both are unknown.
func orTri(a, b *bool) *bool {
	switch {
	case a != nil && *a, b != nil && *b:
		return boolPtr(true)
	case a != nil || b != nil:
		return boolPtr(false)
	}
	return nil
}

// boolPtr returns a pointer to a copy of v.
func boolPtr(v bool) *bool { return &v }

// flexInt is a JSON integer that AWS sometimes writes as a string.
type flexInt int

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		return nil
	}
	var n json.Number = json.Number(s)
	v, err := n.Int64()
	if err != nil {
		fl, ferr := n.Float64()
		if ferr != nil {
			return err
		}
		v = int64(fl)
	}
	*f = flexInt(v)
	return nil
}

// flexTime is a time AWS writes as RFC 3339, epoch seconds (the AWS JSON
// protocol's timestamps: the Config APIs' raw answers, e.g.
// 1748762580.123) or epoch milliseconds. A number below 1e11 is seconds:
// as milliseconds it would be a time in 1973.
type flexTime time.Time

func (f *flexTime) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		return nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		*f = flexTime(t.UTC())
		return nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05.000Z0700", "2006-01-02T15:04:05Z0700", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			*f = flexTime(t.UTC())
			return nil
		}
	}
	var ms json.Number = json.Number(s)
	if v, err := ms.Float64(); err == nil {
		if v < 1e11 {
			*f = flexTime(time.UnixMilli(int64(v * 1000)).UTC())
		} else {
			*f = flexTime(time.UnixMilli(int64(v)).UTC())
		}
		return nil
	}
	return nil // an unreadable time is unknown, not an error
}

func (f flexTime) t() time.Time { return time.Time(f) }

// ptr is the time, nil when none was given.
func (f flexTime) ptr() *time.Time {
	if time.Time(f).IsZero() {
		return nil
	}
	t := time.Time(f)
	return &t
}

// supp decodes one supplementary configuration value into v; absent or
// null leaves v unchanged.
func supp(ci *configItem, key string, v any) error {
	raw := jsonObject(ci.Supplementary[key])
	if raw == nil {
		return nil
	}
	return json.Unmarshal(raw, v)
}

// decodeConf decodes the configuration into v; an absent one leaves v zero.
func decodeConf(conf []byte, v any) error {
	if conf == nil {
		return nil
	}
	return json.Unmarshal(conf, v)
}

// tagsFromList reads EC2-style [{"key","value"}] tags.
type tagList []struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

func (l tagList) get(k string) string {
	for _, t := range l {
		if t.Key == k {
			return t.Value
		}
	}
	return ""
}

// AWSConfigTypes lists the AWS Config resource types the decoder maps to a
// canonical type, sorted.
func AWSConfigTypes() []string {
	out := make([]string, 0, len(configTypes))
	for t := range configTypes {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}
