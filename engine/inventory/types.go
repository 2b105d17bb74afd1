package inventory

// ProviderAWS is the provider name of every resource the AWS importers produce.
const ProviderAWS = "aws"

// RegionGlobal is the region of resources that live in no region (IAM,
// CloudFront, the account summary).
const RegionGlobal = "global"

// The canonical resource types (the Type* constants, named after Terraform's
// AWS provider where it has an equivalent resource) and their attribute
// structs live in one file per service family: types_storage.go (S3, EBS,
// EFS), types_compute.go (EC2 instances, load balancers, Auto Scaling,
// Lambda), types_network.go, types_databases.go, types_streaming.go
// (queues, topics, streams), types_analytics.go, types_backup.go,
// types_iam.go, types_logging.go, types_edge.go, types_containers.go and
// types_platform.go; types_policy.go holds the IAM policy document. The
// AWS Config mappers (awsconfig_<family>.go) and Terraform mappers
// (terraform_<family>.go) follow the same families.
