package inventory

import (
	"encoding/json"
	"strings"

	"github.com/fourd-dev/fourd/engine"
)

// tfCommon is what every Terraform AWS resource may carry.
type tfCommon struct {
	ID               string            `json:"id"`
	ARN              string            `json:"arn"`
	Name             string            `json:"name"`
	Region           string            `json:"region"` // AWS provider 6 and later
	AvailabilityZone string            `json:"availability_zone"`
	OwnerID          string            `json:"owner_id"`
	Tags             map[string]string `json:"tags"`
	TagsAll          map[string]string `json:"tags_all"`
}

// tfMapper maps a Terraform resource's attributes to canonical attributes.
type tfMapper func(attrs []byte, c *tfCommon) (any, error)

// tfTypes maps the Terraform types fourd understands to canonical types.
var tfTypes = map[string]struct {
	typ string
	m   tfMapper
}{
	"aws_s3_bucket":                     {TypeS3Bucket, tfS3Bucket},
	"aws_security_group":                {TypeSecurityGroup, tfSecurityGroup},
	"aws_default_security_group":        {TypeSecurityGroup, tfSecurityGroup},
	"aws_instance":                      {TypeInstance, tfInstance},
	"aws_ebs_volume":                    {TypeEBSVolume, tfVolume},
	"aws_ebs_snapshot":                  {TypeEBSSnapshot, tfSnapshot},
	"aws_db_instance":                   {TypeDBInstance, tfDBInstance},
	"aws_eip":                           {TypeEIP, tfEIP},
	"aws_lb":                            {TypeLB, tfLB},
	"aws_alb":                           {TypeLB, tfLB},
	"aws_cloudtrail":                    {TypeCloudTrail, tfTrail},
	"aws_kms_key":                       {TypeKMSKey, tfKMSKey},
	"aws_iam_user":                      {TypeIAMUser, tfIAMUser},
	"aws_iam_role":                      {TypeIAMRole, tfIAMRole},
	"aws_iam_policy":                    {TypeIAMPolicy, tfIAMPolicy},
	"aws_iam_group":                     {TypeIAMGroup, tfIAMGroup},
	"aws_ecr_repository":                {TypeECRRepository, tfECR},
	"aws_secretsmanager_secret":         {TypeSecretsManagerSecret, tfSecret},
	"aws_iam_access_key":                {TypeIAMAccessKey, tfAccessKey},
	"aws_vpc":                           {TypeVPC, tfVPC},
	"aws_default_vpc":                   {TypeVPC, tfVPC},
	"aws_lambda_function":               {TypeLambdaFunction, tfLambda},
	"aws_autoscaling_group":             {TypeAutoScalingGroup, tfASG},
	"aws_elasticache_cluster":           {TypeElastiCacheCluster, tfElastiCache},
	"aws_dynamodb_table":                {TypeDynamoDBTable, tfDynamoDB},
	"aws_efs_file_system":               {TypeEFSFileSystem, tfEFS},
	"aws_cloudfront_distribution":       {TypeCloudFrontDistribution, tfCloudFront},
	"aws_sqs_queue":                     {TypeSQSQueue, tfSQS},
	"aws_sns_topic":                     {TypeSNSTopic, tfSNS},
	"aws_config_configuration_recorder": {TypeConfigRecorder, tfRecorder},
	"aws_guardduty_detector":            {TypeGuardDutyDetector, tfGuardDuty},
	"aws_ecs_task_definition":           {TypeECSTaskDefinition, tfECSTaskDefinition},
	"aws_eks_cluster":                   {TypeEKSCluster, tfEKSCluster},
	"aws_cloudwatch_log_group":          {TypeLogGroup, tfLogGroup},
	"aws_db_snapshot":                   {TypeDBSnapshot, tfDBSnapshot},
	"aws_subnet":                        {TypeSubnet, tfSubnet},
	"aws_route_table":                   {TypeRouteTable, tfRouteTable},
	"aws_network_acl":                   {TypeNetworkACL, tfNetworkACL(false)},
	"aws_default_network_acl":           {TypeNetworkACL, tfNetworkACL(true)},
	"aws_vpc_endpoint":                  {TypeVPCEndpoint, tfVPCEndpoint},
	"aws_ec2_transit_gateway":           {TypeTransitGateway, tfTransitGateway},
	"aws_launch_template":               {TypeLaunchTemplate, tfLaunchTemplate},
	"aws_lb_listener":                   {TypeLBListener, tfLBListener},
	"aws_alb_listener":                  {TypeLBListener, tfLBListener},
	"aws_elb":                           {TypeClassicLoadBalancer, tfClassicLB},
	"aws_launch_configuration":          {TypeLaunchConfiguration, tfLaunchConfiguration},
	"aws_api_gateway_stage":             {TypeAPIGatewayStage, tfAPIGatewayStage},
	"aws_apigatewayv2_stage":            {TypeAPIGatewayV2Stage, tfAPIGatewayV2Stage},
	"aws_networkfirewall_firewall":      {TypeNetworkFirewall, tfNetworkFirewall},
	"aws_wafv2_web_acl":                 {TypeWAFv2WebACL, tfWAFv2WebACL},
}

// tfCompanions are resources that complete another one and are merged
// into it rather than kept.
var tfCompanions = map[string]func(attrs []byte, j *joiner) error{
	"aws_s3_bucket_public_access_block":                  tfS3PublicAccessBlock,
	"aws_s3_bucket_versioning":                           tfS3Versioning,
	"aws_s3_bucket_server_side_encryption_configuration": tfS3Encryption,
	"aws_s3_bucket_logging":                              tfS3Logging,
	"aws_s3_bucket_policy":                               tfS3Policy,
	"aws_s3_bucket_acl":                                  tfS3ACL,
	"aws_s3_bucket_lifecycle_configuration":              tfS3Lifecycle,
	"aws_security_group_rule":                            tfSGRule,
	"aws_vpc_security_group_ingress_rule":                tfSGIngressRule,
	"aws_vpc_security_group_egress_rule":                 tfSGEgressRule,
}

// fromTerraform converts one Terraform resource instance. ok is false for a
// companion, which only patches the resource it completes. The account
// may be empty when no attribute names it; the decoder fills it in.
// The native id is left empty when the resource has no ARN; the decoder
// synthesizes it once the account is known.
func fromTerraform(typ, addr string, attrs []byte, j *joiner) (res engine.Resource, id string, ok bool, err error) {
	if attrs == nil {
		return engine.Resource{}, "", false, engine.FieldErrorf("attributes", "terraform resource %s has no attributes", clip(addr))
	}
	if c, ok := tfCompanions[typ]; ok {
		if err := c(attrs, j); err != nil {
			return engine.Resource{}, "", false, engine.FieldErrorf("attributes", "terraform resource %s: %v", clip(addr), err)
		}
		return engine.Resource{}, "", false, nil
	}
	var c tfCommon
	if err := json.Unmarshal(attrs, &c); err != nil {
		return engine.Resource{}, "", false, engine.FieldErrorf("attributes", "terraform resource %s: %v", clip(addr), err)
	}
	if c.ID == "" && c.ARN == "" {
		return engine.Resource{}, "", false, engine.FieldErrorf("id", "terraform resource %s has neither id nor arn", clip(addr))
	}
	res = engine.Resource{Provider: ProviderAWS, Type: typ, NativeID: c.ARN, Tags: engine.TagsFromMap(c.TagsAll)}
	if len(res.Tags) == 0 {
		res.Tags = engine.TagsFromMap(c.Tags)
	}
	if !strings.HasPrefix(typ, "aws_") {
		return engine.Resource{}, "", false, engine.FieldErrorf("type", "terraform resource %s is not an AWS resource; fourd imports the aws provider", clip(addr))
	}
	res.Account, res.Region = arnAccountRegion(c.ARN)
	if res.Account == "" && isAWSAccount(c.OwnerID) {
		res.Account = c.OwnerID
	}
	if c.Region != "" {
		res.Region = c.Region
	} else if res.Region == "" && len(c.AvailabilityZone) > 1 {
		res.Region = strings.TrimRight(c.AvailabilityZone, "abcdefghijklmnopqrstuvwxyz")
	}
	if typ == "aws_flow_log" {
		tfFlowLog(attrs, j) // kept as inventory, and marks its VPC
	}
	if m, ok := tfTypes[typ]; ok {
		a, err := m.m(attrs, &c)
		if err != nil {
			return engine.Resource{}, "", false, engine.FieldErrorf("attributes", "terraform resource %s: %v", clip(addr), err)
		}
		b, err := json.Marshal(tfRecordedOnly(typ, attrs, a))
		if err != nil {
			return engine.Resource{}, "", false, engine.FieldErrorf("attributes", "terraform resource %s: %v", clip(addr), err)
		}
		res.Type, res.Attributes = m.typ, b
		if res.Type == TypeVPC {
			j.patch("vpc:"+c.ID, vpcFlowLogsOff(j, tfFlowLogScope))
		}
	} else {
		res.Attributes = append(json.RawMessage(nil), attrs...)
	}
	if strings.HasPrefix(res.Type, "aws_iam_") || res.Type == TypeCloudFrontDistribution {
		res.Region = RegionGlobal
	}
	res.Name = res.Tags.Value("Name")
	if res.Name == "" {
		res.Name = firstNonEmpty(c.Name, c.ID)
	}
	return res, c.ID, true, nil
}

// arnAccountRegion reads the account and region of an ARN
// (arn:partition:service:region:account:resource).
func arnAccountRegion(arn string) (account, region string) {
	parts := strings.SplitN(arn, ":", 6)
	if len(parts) < 6 || parts[0] != "arn" {
		return "", ""
	}
	region = parts[3]
	if region == "" {
		region = RegionGlobal
	}
	return parts[4], region
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// tfBlock is a Terraform nested block, which state stores as a list of
// zero or one objects.
type tfBlock[T any] []T

func (b tfBlock[T]) first() (T, bool) {
	var zero T
	if len(b) == 0 {
		return zero, false
	}
	return b[0], true
}
