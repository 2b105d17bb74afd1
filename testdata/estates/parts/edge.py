# Edge family (helper B2): API Gateway stages, AWS WAF web ACLs, CloudFront
# origins, Route 53 hosted zones, ACM certificates, Network Firewall. Shapes:
# awslabs/aws-config-resource-schema, config/properties/resource-types/
# AWS::ApiGateway::Stage, AWS::ApiGatewayV2::Stage, AWS::WAFv2::WebACL,
# AWS::Route53::HostedZone, AWS::ACM::Certificate, AWS::NetworkFirewall::Firewall,
# AWS::CloudFront::Distribution.
LOGS=f"arn:aws:logs:{R}:{ACCT}:log-group"
def rest_stage(api, name, **over):
    c={"stageName":name,"deploymentId":"a1b2c3","description":"","createdDate":CREATED,"lastUpdatedDate":T,
       "accessLogSettings":{"destinationArn":f"{LOGS}:/acme/api/{api}","format":"$context.requestId $context.status"},
       "tracingEnabled":True,"webAclArn":f"arn:aws:wafv2:{R}:{ACCT}:regional/webacl/acme-prod-api/0a1b2c3d","cacheClusterEnabled":True,"cacheClusterSize":"0.5",
       "methodSettings":{"*/*":{"loggingLevel":"ERROR","metricsEnabled":True,"dataTraceEnabled":False,"cachingEnabled":True,"cacheDataEncrypted":True,"cacheTtlInSeconds":300}}}
    c.update(over)
    arn=f"arn:aws:apigateway:{R}::/restapis/{api}/stages/{name}"
    return item("AWS::ApiGateway::Stage", arn, name, arn, c)
def http_stage(api, name, logs=True):
    c={"stageName":name,"autoDeploy":True,"apiGatewayManaged":False,"createdDate":CREATED,
       "defaultRouteSettings":{"detailedMetricsEnabled":True,"throttlingBurstLimit":500,"throttlingRateLimit":1000}}
    if logs: c["accessLogSettings"]={"destinationArn":f"{LOGS}:/acme/http/{api}","format":"$context.requestId"}
    arn=f"arn:aws:apigateway:{R}::/apis/{api}/stages/{name}"
    return item("AWS::ApiGatewayV2::Stage", arn, name, arn, c)
def waf_rule(name, override="none"):
    return {"name":name,"priority":0,"statement":{"managedRuleGroupStatement":{"vendorName":"AWS","name":"AWSManagedRulesCommonRuleSet"}},
            "overrideAction":{override:{}},"visibilityConfig":{"sampledRequestsEnabled":True,"cloudWatchMetricsEnabled":True,"metricName":name}}
def web_acl(name, rid, rules, metrics=True):
    arn=f"arn:aws:wafv2:{R}:{ACCT}:regional/webacl/{name}/{rid}"
    return item("AWS::WAFv2::WebACL", rid, name, arn,
        {"name":name,"id":rid,"capacity":700,"defaultAction":{"allow":{}},"rules":rules,"description":"",
         "visibilityConfig":{"sampledRequestsEnabled":True,"cloudWatchMetricsEnabled":metrics,"metricName":name}})
def zone(zid, name, logs=True, vpcs=()):
    c={"Id":zid,"Name":name,"NameServers":["ns-1.awsdns-01.org","ns-2.awsdns-02.co.uk"],"HostedZoneConfig":{"Comment":"acme"}}
    if logs: c["QueryLoggingConfig"]={"CloudWatchLogsLogGroupArn":f"arn:aws:logs:us-east-1:{ACCT}:log-group:/aws/route53/{name}"}
    if vpcs: c["VPCs"]=[{"VPCId":v,"VPCRegion":R} for v in vpcs]
    return item("AWS::Route53::HostedZone", zid, name, f"arn:aws:route53:::hostedzone/{zid}", c, region="global")
def cert(cid, domain, not_after="2026-04-30T23:59:59.000Z", algo="RSA-2048", ctype="AMAZON_ISSUED", ct="ENABLED"):
    arn=f"arn:aws:acm:{R}:{ACCT}:certificate/{cid}"
    return item("AWS::ACM::Certificate", arn, domain, arn,
        {"certificateArn":arn,"domainName":domain,"subjectAlternativeNames":[domain],"type":ctype,"status":"ISSUED","keyAlgorithm":algo,
         "signatureAlgorithm":"SHA256WITHRSA","issuedAt":"2025-04-01T00:00:00.000Z","notBefore":"2025-04-01T00:00:00.000Z","notAfter":not_after,
         "inUseBy":[f"arn:aws:elasticloadbalancing:{R}:{ACCT}:loadbalancer/app/acme-prod-web/50dc6c495c0c9188"],"renewalEligibility":"ELIGIBLE",
         "options":{"certificateTransparencyLoggingPreference":ct}})
def firewall(name, subnets, protect=True):
    arn=f"arn:aws:network-firewall:{R}:{ACCT}:firewall/{name}"
    return item("AWS::NetworkFirewall::Firewall", arn, name, arn,
        {"firewall":{"firewallName":name,"firewallArn":arn,"firewallId":"0a1b2c3d-"+name,"vpcId":"vpc-0a1b2c3d4e5f60718",
                     "firewallPolicyArn":f"arn:aws:network-firewall:{R}:{ACCT}:firewall-policy/{name}","subnetMappings":[{"subnetId":s,"iPAddressType":"IPV4"} for s in subnets],
                     "deleteProtection":protect,"subnetChangeProtection":protect,"firewallPolicyChangeProtection":protect,
                     "encryptionConfiguration":{"keyId":KEY,"type":"CUSTOMER_KMS"}}})
def cdn(did, origins, waf=True):
    c={"id":did,"domainName":f"{did.lower()}.cloudfront.net","distributionConfig":{"enabled":True,"priceClass":"PriceClass_100",
        "defaultCacheBehavior":{"viewerProtocolPolicy":"redirect-to-https"},"viewerCertificate":{"minimumProtocolVersion":"TLSv1.2_2021"},
        "logging":{"enabled":True,"bucket":"acme-prod-access-logs.s3.amazonaws.com","prefix":"cdn/"},
        "origins":{"quantity":len(origins),"items":origins}}}
    if waf: c["distributionConfig"]["webACLId"]=f"arn:aws:wafv2:us-east-1:{ACCT}:global/webacl/acme-prod/0a1b2c3d"
    return item("AWS::CloudFront::Distribution", did, did, f"arn:aws:cloudfront::{ACCT}:distribution/{did}", c, region="global")
def s3_origin(oid, oac="E3OACEXAMPLE", oai=""):
    return {"id":oid,"domainName":"acme-prod-data.s3.eu-west-1.amazonaws.com","originPath":"","originAccessControlId":oac,"s3OriginConfig":{"originAccessIdentity":oai}}
def custom_origin(oid, policy="https-only", protocols=("TLSv1.2",)):
    return {"id":oid,"domainName":"app.acme.example","originPath":"","originAccessControlId":"",
            "customOriginConfig":{"hTTPPort":80,"hTTPSPort":443,"originProtocolPolicy":policy,"originSslProtocols":{"quantity":len(protocols),"items":list(protocols)},
                                  "originReadTimeout":30,"originKeepaliveTimeout":5}}

def clean():
    return [
      rest_stage("a1b2c3d4e5", "prod"),
      http_stage("f1e2d3c4b5", "$default"),
      web_acl("acme-prod-api", "0a1b2c3d-1111-2222-3333-444455556666", [waf_rule("common")]),
      zone("Z0ACMEPUBLIC00000001", "acme.example."),
      zone("Z0ACMEPRIVATE0000001", "acme.internal.", logs=False, vpcs=("vpc-0a1b2c3d4e5f60718",)),
      cert("1f2e3d4c-5b6a-7980-1a2b-3c4d5e6f7a8b", "www.acme.example"),
      firewall("acme-prod-egress", ["subnet-0fw00000000000a","subnet-0fw00000000000b"]),
      cdn("E2ACMEAPP00001", [s3_origin("assets"), custom_origin("app")]),
    ]

def seed(s, label):
    st=rest_stage("b2c3d4e5f6", "legacy", accessLogSettings=None, tracingEnabled=False, webAclArn=None,
                  methodSettings={"*/*":{"loggingLevel":"OFF","metricsEnabled":False,"cachingEnabled":True,"cacheDataEncrypted":False}})
    s.append(st)
    for rule,dim,sev,why in (("aws-apigateway-001","compliance","medium","no access log destination"),("aws-apigateway-002","compliance","medium","loggingLevel OFF"),
                             ("aws-apigateway-003","architecture","low","tracing off"),("aws-apigateway-004","security","medium","no web ACL"),
                             ("aws-apigateway-005","security","medium","cache on, cacheDataEncrypted false")):
        label(rule, st["ARN"], dim, sev, why)
    h=http_stage("c3d4e5f6a7", "$default", logs=False); s.append(h)
    label("aws-apigateway-006", h["ARN"], "compliance", "medium", "no access log settings")
    w=web_acl("acme-empty", "1a2b3c4d-1111-2222-3333-444455556666", [], metrics=False); s.append(w)
    label("aws-waf-001", w["ARN"], "security", "medium", "no rules, default allow")
    label("aws-waf-002", w["ARN"], "compliance", "low", "CloudWatch metrics off")
    w=web_acl("acme-dryrun", "2a3b4c5d-1111-2222-3333-444455556666", [waf_rule("common", override="count")]); s.append(w)
    label("aws-waf-003", w["ARN"], "security", "medium", "the only rule group counts")
    z=zone("Z0ACMELEGACY00000001", "acme-legacy.example.", logs=False); s.append(z)
    label("aws-route53-001", z["ARN"], "compliance", "low", "public zone without query logging")
    c=cert("2f3e4d5c-5b6a-7980-1a2b-3c4d5e6f7a8b", "shop.acme.example", not_after="2025-06-10T23:59:59.000Z"); s.append(c)
    label("aws-acm-001", c["ARN"], "security", "high", "expires in 9 days, in use")
    c=cert("3f4e5d6c-5b6a-7980-1a2b-3c4d5e6f7a8b", "legacy.acme.example", algo="RSA_1024", ctype="IMPORTED"); s.append(c)
    label("aws-acm-002", c["ARN"], "security", "high", "RSA 1024 key")
    c=cert("4f5e6d7c-5b6a-7980-1a2b-3c4d5e6f7a8b", "beta.acme.example", ct="DISABLED"); s.append(c)
    label("aws-acm-003", c["ARN"], "compliance", "low", "transparency logging disabled")
    f=firewall("acme-legacy-egress", ["subnet-0fw00000000000a"], protect=False); s.append(f)
    label("aws-networkfirewall-001", f["ARN"], "architecture", "low", "deleteProtection false")
    label("aws-networkfirewall-002", f["ARN"], "architecture", "medium", "one subnet mapping")
    label("aws-networkfirewall-003", f["ARN"], "security", "low", "subnetChangeProtection false")
    d=cdn("E2ACMELEGACY01", [s3_origin("public-assets", oac=""), custom_origin("plain", policy="http-only"),
                             custom_origin("old-tls", protocols=("SSLv3","TLSv1.2"))], waf=False); s.append(d)
    for rule,why in (("aws-cloudfront-004","no web ACL"),("aws-cloudfront-005","S3 origin without OAC or OAI"),
                     ("aws-cloudfront-006","http-only custom origin"),("aws-cloudfront-007","origin accepts SSLv3")):
        label(rule, d["ARN"], "security", "medium", why)
    arn=f"arn:aws:autoscaling:{R}:{ACCT}:autoScalingGroup:7f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f:autoScalingGroupName/acme-prod-api"
    s.append(item("AWS::AutoScaling::AutoScalingGroup", arn, "acme-prod-api", arn,
        {"autoScalingGroupName":"acme-prod-api","autoScalingGroupARN":arn,"availabilityZones":[R+"a",R+"b"],"minSize":1,"maxSize":4,
         "desiredCapacity":2,"healthCheckType":"ELB","healthCheckGracePeriod":300,"loadBalancerNames":[],
         "targetGroupARNs":[f"arn:aws:elasticloadbalancing:{R}:{ACCT}:targetgroup/acme-prod-api/83e2d6bc24d8a067"],
         "launchTemplate":{"launchTemplateId":"lt-0web000000000001","launchTemplateName":"acme-prod-web","version":"$Default"}}))
    label("aws-asg-007", arn, "architecture", "low", "minSize 1 behind a target group")
