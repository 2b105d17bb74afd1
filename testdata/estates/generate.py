#!/usr/bin/env python3
"""Writes the estates of testdata/estates: python3 testdata/estates/generate.py testdata/estates

Shapes: AWS Config configuration items as snapshot files carry them (objects;
AWS Config Developer Guide, example-s3-snapshot.html) and as
batch-get-resource-config returns them (JSON strings), with property names from
awslabs/aws-config-resource-schema (config/properties/resource-types/*.json).
"""
import json, copy, sys
ACCT="111111111111"; R="eu-west-1"; T="2025-06-01T07:00:00.000Z"; CREATED="2024-03-01T09:00:00.000Z"
KEY=f"arn:aws:kms:{R}:{ACCT}:key/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"
def tags(name, owner="platform"):
    return {"Name": name, "owner": owner, "environment": "production", "cost-center": "cc-4100"}
def item(rtype, rid, name, arn, conf, supp=None, tg=None, region=R, az="Not Applicable"):
    return {"configurationItemVersion":"1.3","configurationItemCaptureTime":T,"configurationStateId":1748761200000,
            "awsAccountId":ACCT,"configurationItemStatus":"OK","resourceType":rtype,"resourceId":rid,"resourceName":name,
            "ARN":arn,"awsRegion":region,"availabilityZone":az,"resourceCreationTime":CREATED,
            "tags": tg if tg is not None else tags(name),"relatedEvents":[],"relationships":[],
            "configuration":conf,"supplementaryConfiguration":supp or {}}
OWNER="7c3f1e2d" + "0"*56
def acl(extra=()):
    g=[{"grantee":{"id":OWNER,"displayName":None},"permission":"FullControl"}]+list(extra)
    return json.dumps({"grantSet":None,"grantList":g,"owner":{"displayName":None,"id":OWNER},"isRequesterCharged":False})
def denyhttp(b):
    return json.dumps({"Version":"2012-10-17","Statement":[{"Sid":"DenyInsecureTransport","Effect":"Deny","Principal":"*","Action":"s3:*",
        "Resource":[f"arn:aws:s3:::{b}",f"arn:aws:s3:::{b}/*"],"Condition":{"Bool":{"aws:SecureTransport":"false"}}}]})
def bucket(b, pab=True, grants=()):
    supp={"AccessControlList":acl(grants),
          "BucketLoggingConfiguration":{"destinationBucketName":"acme-prod-access-logs","logFilePrefix":b+"/"},
          "BucketPolicy":{"policyText":denyhttp(b)},
          "BucketVersioningConfiguration":{"status":"Enabled","isMfaDeleteEnabled":True},
          "IsRequesterPaysEnabled":False,
          "ServerSideEncryptionConfiguration":{"rules":[{"applyServerSideEncryptionByDefault":{"sseAlgorithm":"aws:kms","kmsMasterKeyID":KEY},"bucketKeyEnabled":True}]},
          "BucketLifecycleConfiguration":{"rules":[{"id":"archive","status":"Enabled","transitions":[{"days":90,"storageClass":"GLACIER_IR"}]}]}}
    if pab:
        supp["PublicAccessBlockConfiguration"]={"blockPublicAcls":True,"ignorePublicAcls":True,"blockPublicPolicy":True,"restrictPublicBuckets":True}
    return item("AWS::S3::Bucket", b, b, f"arn:aws:s3:::{b}", {"name":b,"owner":{"displayName":None,"id":OWNER},"creationDate":CREATED}, supp, region=R, az="Regional")
def perm(proto, frm, to, cidrs=(), groups=()):
    return {"ipProtocol":proto,"fromPort":frm,"toPort":to,"ipv4Ranges":[{"cidrIp":c} for c in cidrs],"ipRanges":list(cidrs),
            "ipv6Ranges":[],"prefixListIds":[],"userIdGroupPairs":[{"groupId":g,"userId":ACCT} for g in groups]}
def sg(gid, name, ingress, egress, tg=None):
    return item("AWS::EC2::SecurityGroup", gid, name, f"arn:aws:ec2:{R}:{ACCT}:security-group/{gid}",
        {"description":name,"groupName":name,"ipPermissions":ingress,"ownerId":ACCT,"groupId":gid,"ipPermissionsEgress":egress,"vpcId":"vpc-0a1b2c3d4e5f60718","tags":[]}, tg=tg)
def instance(iid, itype, tokens="required", public=None, asg="acme-prod-web"):
    t=tags(iid); 
    return item("AWS::EC2::Instance", iid, iid, f"arn:aws:ec2:{R}:{ACCT}:instance/{iid}",
        {"instanceId":iid,"instanceType":itype,"imageId":"ami-0abcdef1234567890","launchTime":"2025-05-20T08:00:00.000Z",
         "placement":{"availabilityZone":R+"a","tenancy":"default"},"publicIpAddress":public,"privateIpAddress":"10.20.1.15",
         "state":{"code":16,"name":"running"},"stateTransitionReason":"","subnetId":"subnet-0aa11bb22cc33dd44","vpcId":"vpc-0a1b2c3d4e5f60718",
         "iamInstanceProfile":{"arn":f"arn:aws:iam::{ACCT}:instance-profile/web","id":"AIPAEXAMPLE"},
         "metadataOptions":{"state":"applied","httpTokens":tokens,"httpPutResponseHopLimit":2,"httpEndpoint":"enabled"},
         "blockDeviceMappings":[{"deviceName":"/dev/xvda","ebs":{"volumeId":"vol-0c1d2e3f405162738","status":"attached","deleteOnTermination":True}}],
         "securityGroups":[{"groupId":"sg-0web0000000000001","groupName":"acme-prod-web"}],"monitoring":{"state":"enabled"},
         "tags":[{"key":k,"value":v} for k,v in t.items()]+[{"key":"aws:autoscaling:groupName","value":asg}]}, tg=dict(t, **{"aws:autoscaling:groupName":asg}), az=R+"a")
def volume(vid, vtype="gp3", enc=True, state="in-use", attached=("i-0prodweb00000001",), size=50):
    return item("AWS::EC2::Volume", vid, vid, f"arn:aws:ec2:{R}:{ACCT}:volume/{vid}",
        {"volumeId":vid,"size":size,"volumeType":vtype,"iops":3000,"encrypted":enc,"kmsKeyId":KEY if enc else None,"state":state,
         "availabilityZone":R+"a","createTime":"2025-05-20T08:00:00.000Z",
         "attachments":[{"volumeId":vid,"instanceId":i,"device":"/dev/xvda","state":"attached","deleteOnTermination":True} for i in attached]}, az=R+"a")
def db(ident, public=False, enc=True):
    return item("AWS::RDS::DBInstance", "db-ORDERSPROD0000000000000", ident, f"arn:aws:rds:{R}:{ACCT}:db:{ident}",
        {"dBInstanceIdentifier":ident,"dBInstanceClass":"db.r7g.large","engine":"postgres","engineVersion":"16.3","dBInstanceStatus":"available",
         "allocatedStorage":200,"storageType":"gp3","storageEncrypted":enc,"kmsKeyId":KEY if enc else None,"publiclyAccessible":public,"multiAZ":True,
         "backupRetentionPeriod":14,"deletionProtection":True,"autoMinorVersionUpgrade":True,"availabilityZone":R+"a"}, az=R+"a")
def dbsnap(sid, public=False):
    return item("AWS::RDS::DBSnapshot", sid, sid, f"arn:aws:rds:{R}:{ACCT}:snapshot:{sid}",
        {"dBSnapshotIdentifier":sid,"dBInstanceIdentifier":"acme-prod-orders","engine":"postgres","snapshotType":"manual","encrypted":True,
         "kmsKeyId":KEY,"snapshotCreateTime":"2025-05-31T03:00:00.000Z","status":"available"},
        {"DBSnapshotAttributes":[{"attributeName":"restore","attributeValues":["all"] if public else []}]})
def kms(kid, rotation=True):
    return item("AWS::KMS::Key", kid, kid, f"arn:aws:kms:{R}:{ACCT}:key/{kid}",
        {"keyId":kid,"arn":f"arn:aws:kms:{R}:{ACCT}:key/{kid}","keyManager":"CUSTOMER","keySpec":"SYMMETRIC_DEFAULT","customerMasterKeySpec":"SYMMETRIC_DEFAULT",
         "keyUsage":"ENCRYPT_DECRYPT","keyState":"Enabled","enabled":True,"origin":"AWS_KMS","multiRegion":False},
        {"KeyRotationStatus":rotation})
def loggroup(name, tg=None):
    return item("AWS::Logs::LogGroup", name, name, f"arn:aws:logs:{R}:{ACCT}:log-group:{name}",
        {"LogGroupName":name,"Arn":f"arn:aws:logs:{R}:{ACCT}:log-group:{name}:*","RetentionInDays":365,"KmsKeyId":KEY}, tg=tg)
def eip(alloc, assoc=True):
    c={"allocationId":alloc,"publicIp":"198.51.100.20","domain":"vpc"}
    if assoc:
        c.update({"associationId":"eipassoc-0a1b2c3d4e5f60718","instanceId":"i-0prodnat00000001","networkInterfaceId":"eni-0a1b2c3d4e5f60718"})
    return item("AWS::EC2::EIP", alloc, alloc, f"arn:aws:ec2:{R}:{ACCT}:eip-allocation/{alloc}", c)

def clean():
    lb_arn=f"arn:aws:elasticloadbalancing:{R}:{ACCT}:loadbalancer/app/acme-prod-web/50dc6c495c0c9188"
    asg_arn=f"arn:aws:autoscaling:{R}:{ACCT}:autoScalingGroup:8f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f:autoScalingGroupName/acme-prod-web"
    tg_arn=f"arn:aws:elasticloadbalancing:{R}:{ACCT}:targetgroup/acme-prod-web/73e2d6bc24d8a067"
    items=[
      item("AWS::S3::AccountPublicAccessBlock", ACCT, ACCT, None,
           {"blockPublicAcls":True,"ignorePublicAcls":True,"blockPublicPolicy":True,"restrictPublicBuckets":True}, tg={}, region=R),
      # Protected only by the account's block: the join must see it.
      bucket("acme-prod-data", pab=False),
      bucket("acme-prod-access-logs"),
      sg("sg-0web0000000000001","acme-prod-web",[perm("tcp",443,443,cidrs=["0.0.0.0/0"])],[perm("tcp",443,443,cidrs=["0.0.0.0/0"])]),
      sg("sg-0default00000001","default",[],[]),
      instance("i-0prodweb00000001","m7g.large"),
      volume("vol-0c1d2e3f405162738"),
      eip("eipalloc-0a1b2c3d4e5f60718"),
      item("AWS::EC2::VPC","vpc-0a1b2c3d4e5f60718","acme-prod",f"arn:aws:ec2:{R}:{ACCT}:vpc/vpc-0a1b2c3d4e5f60718",
           {"vpcId":"vpc-0a1b2c3d4e5f60718","cidrBlock":"10.20.0.0/16","isDefault":False,"state":"available","instanceTenancy":"default"}),
      item("AWS::EC2::FlowLog","fl-0a1b2c3d4e5f60718","acme-prod-flows",f"arn:aws:ec2:{R}:{ACCT}:vpc-flow-log/fl-0a1b2c3d4e5f60718",
           {"flowLogId":"fl-0a1b2c3d4e5f60718","resourceId":"vpc-0a1b2c3d4e5f60718","flowLogStatus":"ACTIVE","trafficType":"ALL",
            "logDestinationType":"s3","logDestination":"arn:aws:s3:::acme-prod-access-logs/flows"}),
      # The region's default VPC, which AWS creates in every account: flow logs on too.
      item("AWS::EC2::VPC","vpc-0def0000000000001","default",f"arn:aws:ec2:{R}:{ACCT}:vpc/vpc-0def0000000000001",
           {"vpcId":"vpc-0def0000000000001","cidrBlock":"172.31.0.0/16","isDefault":True,"state":"available","instanceTenancy":"default"}),
      item("AWS::EC2::FlowLog","fl-0def0000000000001","default-flows",f"arn:aws:ec2:{R}:{ACCT}:vpc-flow-log/fl-0def0000000000001",
           {"flowLogId":"fl-0def0000000000001","resourceId":"vpc-0def0000000000001","flowLogStatus":"ACTIVE","trafficType":"ALL",
            "logDestinationType":"s3","logDestination":"arn:aws:s3:::acme-prod-access-logs/flows"}),
      db("acme-prod-orders"),
      dbsnap("acme-prod-orders-2025-05-31"),
      item("AWS::IAM::User","AIDAEXAMPLEDEPLOY01","deploy",f"arn:aws:iam::{ACCT}:user/deploy",
           {"path":"/","userName":"deploy","userId":"AIDAEXAMPLEDEPLOY01","arn":f"arn:aws:iam::{ACCT}:user/deploy","createDate":"2025-01-10T10:00:00.000Z",
            "userPolicyList":[],"groupList":["deployers"],"attachedManagedPolicies":[],"tags":[]}, region="global"),
      item("AWS::ElasticLoadBalancingV2::LoadBalancer",lb_arn,"acme-prod-web",lb_arn,
           {"loadBalancerArn":lb_arn,"dNSName":"acme-prod-web-1234567890.eu-west-1.elb.amazonaws.com","loadBalancerName":"acme-prod-web",
            "scheme":"internet-facing","type":"application","state":{"code":"active"},"ipAddressType":"ipv4","securityGroups":["sg-0web0000000000001"],
            "availabilityZones":[{"zoneName":R+"a","subnetId":"subnet-0aa11bb22cc33dd44"},{"zoneName":R+"b","subnetId":"subnet-0bb22cc33dd44ee55"}]},
           {"LoadBalancerAttributes":[{"key":"access_logs.s3.enabled","value":"true"},{"key":"deletion_protection.enabled","value":"true"},
                                      {"key":"routing.http.drop_invalid_header_fields.enabled","value":"true"}]}),
      item("AWS::CloudTrail::Trail","acme-org-trail","acme-org-trail",f"arn:aws:cloudtrail:{R}:{ACCT}:trail/acme-org-trail",
           {"name":"acme-org-trail","s3BucketName":"acme-prod-access-logs","includeGlobalServiceEvents":True,"isMultiRegionTrail":True,"homeRegion":R,
            "trailARN":f"arn:aws:cloudtrail:{R}:{ACCT}:trail/acme-org-trail","logFileValidationEnabled":True,
            "cloudWatchLogsLogGroupArn":f"arn:aws:logs:{R}:{ACCT}:log-group:/acme/cloudtrail:*","kmsKeyId":KEY,"hasCustomEventSelectors":True,
            "isOrganizationTrail":False}),
      kms("0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"),
      item("AWS::Lambda::Function","acme-prod-thumbnails","acme-prod-thumbnails",f"arn:aws:lambda:{R}:{ACCT}:function:acme-prod-thumbnails",
           {"functionName":"acme-prod-thumbnails","functionArn":f"arn:aws:lambda:{R}:{ACCT}:function:acme-prod-thumbnails","runtime":"python3.12",
            "memorySize":512,"timeout":30,"architectures":["arm64"],"handler":"app.handler","packageType":"Zip","tracingConfig":{"mode":"Active"},
            "deadLetterConfig":{"targetArn":f"arn:aws:sqs:{R}:{ACCT}:acme-prod-jobs-dlq"}}),
      item("AWS::AutoScaling::AutoScalingGroup",asg_arn,"acme-prod-web",asg_arn,
           {"autoScalingGroupName":"acme-prod-web","autoScalingGroupARN":asg_arn,"availabilityZones":[R+"a",R+"b"],"minSize":2,"maxSize":6,
            "desiredCapacity":2,"healthCheckType":"ELB","healthCheckGracePeriod":300,"targetGroupARNs":[tg_arn],"loadBalancerNames":["acme-prod-web-classic"]}),
      item("AWS::ElastiCache::CacheCluster","acme-prod-sessions","acme-prod-sessions",f"arn:aws:elasticache:{R}:{ACCT}:cluster:acme-prod-sessions",
           {"cacheClusterId":"acme-prod-sessions","engine":"redis","engineVersion":"7.1","cacheNodeType":"cache.r7g.large","numCacheNodes":2,
            "preferredAvailabilityZone":"Multiple","atRestEncryptionEnabled":True,"transitEncryptionEnabled":True,"snapshotRetentionLimit":7,
            "cacheClusterStatus":"available"}),
      item("AWS::DynamoDB::Table","acme-prod-events","acme-prod-events",f"arn:aws:dynamodb:{R}:{ACCT}:table/acme-prod-events",
           {"tableName":"acme-prod-events","tableArn":f"arn:aws:dynamodb:{R}:{ACCT}:table/acme-prod-events","tableStatus":"ACTIVE","itemCount":120000,
            "billingModeSummary":{"billingMode":"PAY_PER_REQUEST"},"provisionedThroughput":{"readCapacityUnits":0,"writeCapacityUnits":0},
            "sSEDescription":{"status":"ENABLED","sSEType":"KMS","kMSMasterKeyArn":KEY},"deletionProtectionEnabled":True},
           {"ContinuousBackupsDescription":{"continuousBackupsStatus":"ENABLED","pointInTimeRecoveryDescription":{"pointInTimeRecoveryStatus":"ENABLED"}}}),
      item("AWS::EFS::FileSystem","fs-0a1b2c3d4e5f60718","acme-prod-shared",f"arn:aws:elasticfilesystem:{R}:{ACCT}:file-system/fs-0a1b2c3d4e5f60718",
           {"FileSystemId":"fs-0a1b2c3d4e5f60718","Encrypted":True,"KmsKeyId":KEY,"PerformanceMode":"generalPurpose","ThroughputMode":"elastic",
            "BackupPolicy":{"Status":"ENABLED"},"LifecyclePolicies":[{"TransitionToIA":"AFTER_30_DAYS"}]}),
      item("AWS::CloudFront::Distribution","E2ACMEPROD0001","acme-prod-cdn",f"arn:aws:cloudfront::{ACCT}:distribution/E2ACMEPROD0001",
           {"id":"E2ACMEPROD0001","domainName":"d111111abcdef8.cloudfront.net","distributionConfig":{"enabled":True,"priceClass":"PriceClass_100",
            "defaultCacheBehavior":{"viewerProtocolPolicy":"redirect-to-https"},"viewerCertificate":{"minimumProtocolVersion":"TLSv1.2_2021"},
            "logging":{"enabled":True,"bucket":"acme-prod-access-logs.s3.amazonaws.com","prefix":"cdn/"},
            "webACLId":f"arn:aws:wafv2:us-east-1:{ACCT}:global/webacl/acme-prod/0a1b2c3d"}}, region="global"),
      item("AWS::SQS::Queue",f"https://sqs.{R}.amazonaws.com/{ACCT}/acme-prod-jobs","acme-prod-jobs",f"arn:aws:sqs:{R}:{ACCT}:acme-prod-jobs",
           {"QueueUrl":f"https://sqs.{R}.amazonaws.com/{ACCT}/acme-prod-jobs","KmsMasterKeyId":KEY,"SqsManagedSseEnabled":False,"MessageRetentionPeriod":345600,
            "RedrivePolicy":json.dumps({"deadLetterTargetArn":f"arn:aws:sqs:{R}:{ACCT}:acme-prod-jobs-dlq","maxReceiveCount":5})}),
      item("AWS::SQS::Queue",f"https://sqs.{R}.amazonaws.com/{ACCT}/acme-prod-jobs-dlq","acme-prod-jobs-dlq",f"arn:aws:sqs:{R}:{ACCT}:acme-prod-jobs-dlq",
           {"QueueUrl":f"https://sqs.{R}.amazonaws.com/{ACCT}/acme-prod-jobs-dlq","KmsMasterKeyId":KEY,"SqsManagedSseEnabled":False,"MessageRetentionPeriod":1209600}),
      item("AWS::SNS::Topic",f"arn:aws:sns:{R}:{ACCT}:acme-prod-alerts","acme-prod-alerts",f"arn:aws:sns:{R}:{ACCT}:acme-prod-alerts",
           {"TopicArn":f"arn:aws:sns:{R}:{ACCT}:acme-prod-alerts","KmsMasterKeyId":KEY}),
      item("AWS::Config::ConfigurationRecorder","default","default",f"arn:aws:config:{R}:{ACCT}:config-recorder/default",
           {"name":"default","roleARN":f"arn:aws:iam::{ACCT}:role/aws-service-role/config.amazonaws.com/AWSServiceRoleForConfig",
            "recordingGroup":{"allSupported":True,"includeGlobalResourceTypes":True,"resourceTypes":[]},"recording":True}, tg={}),
      item("AWS::GuardDuty::Detector","8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5","8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5",
           f"arn:aws:guardduty:{R}:{ACCT}:detector/8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5",
           {"Id":"8ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5","Enable":True,"FindingPublishingFrequency":"FIFTEEN_MINUTES"}),
      loggroup("/acme/cloudtrail"),
    ]
    for it in items:
        if it["ARN"] is None: del it["ARN"]
    return items

def as_history(it):
    """The history encoding: lower-case envelope keys, values as JSON strings."""
    h={"version":it["configurationItemVersion"],"accountId":it["awsAccountId"],"configurationItemCaptureTime":it["configurationItemCaptureTime"],
       "configurationItemStatus":it["configurationItemStatus"],"configurationStateId":str(it["configurationStateId"]),"configurationItemMD5Hash":""}
    if "ARN" in it: h["arn"]=it["ARN"]
    for k in ("resourceType","resourceId","resourceName","awsRegion","availabilityZone","resourceCreationTime","tags","relatedEvents"):
        h[k]=it[k]
    h["configuration"]=json.dumps(it["configuration"])
    h["supplementaryConfiguration"]={k:json.dumps(v) for k,v in it["supplementaryConfiguration"].items()}
    return h

# Resource families live in parts/*.py, one file per family (so that rule
# authors working in parallel do not edit one list): each defines clean(),
# returning hardened items, and seed(s, label), appending misconfigured items
# to the seeded estate s and labelling them. They see this file's helpers.
import glob, os
PARTS=[]
for path in sorted(glob.glob(os.path.join(os.path.dirname(os.path.abspath(__file__)),"parts","*.py"))):
    ns=dict(globals()); ns["__file__"]=path
    exec(compile(open(path).read(), path, "exec"), ns)
    PARTS.append(ns)

c=clean()
for ns in PARTS:
    for it in ns["clean"]():
        if it.get("ARN") is None: it.pop("ARN", None)
        c.append(it)
json.dump({"fileVersion":"1.0","configSnapshotId":"5f0a7c1e-2b3d-4e5f-8a9b-0c1d2e3f4a5b","configurationItems":c},
          open(sys.argv[1]+"/clean.aws-config.json","w"), indent=1, ensure_ascii=False)

# The seeded estate: the clean one with labelled misconfigurations, in the
# history encoding (batch-get-resource-config's answer).
s=copy.deepcopy(c)
labels=[]
def label(rule, native, dim, sev, why):
    labels.append({"rule":rule,"native_id":native,"dimension":dim,"min_severity":sev,"why":why})
s[0]["configuration"].update({"blockPublicPolicy":False,"restrictPublicBuckets":False})
label("aws-s3-001","arn:aws:s3:::acme-prod-data","security","high","the account's block turns off BlockPublicPolicy and RestrictPublicBuckets, and the bucket has no block of its own")
s.append(sg("sg-0bastion000000001","acme-prod-bastion",[perm("tcp",22,22,cidrs=["0.0.0.0/0"])],[perm("-1",-1,-1,cidrs=["0.0.0.0/0"])]))
label("aws-ec2-001",f"arn:aws:ec2:{R}:{ACCT}:security-group/sg-0bastion000000001","security","high","SSH open to 0.0.0.0/0")
old=instance("i-0legacy000000001","m4.large",tokens="optional")
s.append(old)
label("aws-ec2-007",f"arn:aws:ec2:{R}:{ACCT}:instance/i-0legacy000000001","security","medium","IMDSv1 allowed (httpTokens optional)")
label("aws-ec2-010",f"arn:aws:ec2:{R}:{ACCT}:instance/i-0legacy000000001","cost","medium","previous-generation m4")
s.append(volume("vol-0orphan00000000001", vtype="gp2", enc=False, state="available", attached=(), size=500))
for rule,dim,sev,why in (("aws-ebs-001","security","medium","unencrypted volume"),("aws-ebs-004","cost","medium","500 GiB volume attached to nothing"),
                         ("aws-ebs-005","cost","low","gp2 instead of gp3")):
    label(rule,f"arn:aws:ec2:{R}:{ACCT}:volume/vol-0orphan00000000001",dim,sev,why)
s.append(dbsnap("acme-prod-orders-shared", public=True))
label("aws-rds-009",f"arn:aws:rds:{R}:{ACCT}:snapshot:acme-prod-orders-shared","security","critical","restore attribute holds all")
s.append(kms("5e6f7a8b-9c0d-1e2f-3a4b-5c6d7e8f9a0b", rotation=False))
label("aws-kms-001",f"arn:aws:kms:{R}:{ACCT}:key/5e6f7a8b-9c0d-1e2f-3a4b-5c6d7e8f9a0b","compliance","medium","KeyRotationStatus false")
s.append(eip("eipalloc-0idle000000000001", assoc=False))
label("aws-ec2-009",f"arn:aws:ec2:{R}:{ACCT}:eip-allocation/eipalloc-0idle000000000001","cost","low","Elastic IP associated with nothing")
lg=loggroup("/acme/untagged", tg={"Name":"/acme/untagged"})
s.append(lg)
label("aws-tag-001",f"arn:aws:logs:{R}:{ACCT}:log-group:/acme/untagged","compliance","low","no owner, environment or cost-center tag")
for ns in PARTS:
    n=len(s)
    ns["seed"](s, label)
    for it in s[n:]:
        if it.get("ARN") is None: it.pop("ARN", None)
json.dump({"baseConfigurationItems":[as_history(i) for i in s],"unprocessedResourceKeys":[]},
          open(sys.argv[1]+"/seeded.aws-config.json","w"), indent=1, ensure_ascii=False)
json.dump(labels, open(sys.argv[1]+"/seeded.labels.json","w"), indent=1, ensure_ascii=False)
