# Compute and load-balancing family (helper B2): classic load balancers, ELBv2
# listeners and attributes, launch templates and configurations, instances,
# volumes, Lambda. Shapes: awslabs/aws-config-resource-schema,
# config/properties/resource-types/AWS::ElasticLoadBalancing::LoadBalancer,
# AWS::ElasticLoadBalancingV2::{Listener,LoadBalancer}, AWS::EC2::LaunchTemplate,
# AWS::AutoScaling::{LaunchConfiguration,AutoScalingGroup}, AWS::Lambda::Function.
ELB=f"arn:aws:elasticloadbalancing:{R}:{ACCT}"
def listener(lid, lb, port, proto, actions, policy=None):
    arn=f"{ELB}:listener/app/{lb}/50dc6c495c0c9188/{lid}"
    c={"ListenerArn":arn,"LoadBalancerArn":f"{ELB}:loadbalancer/app/{lb}/50dc6c495c0c9188","Port":port,"Protocol":proto,"DefaultActions":actions}
    if policy:
        c.update({"SslPolicy":policy,"Certificates":[{"CertificateArn":f"arn:aws:acm:{R}:{ACCT}:certificate/1f2e3d4c-5b6a-7980-1a2b-3c4d5e6f7a8b"}]})
    return item("AWS::ElasticLoadBalancingV2::Listener", arn, f"{lb}-{port}", arn, c, tg={})
REDIRECT=[{"Type":"redirect","Order":1,"RedirectConfig":{"Protocol":"HTTPS","Port":"443","Host":"#{host}","Path":"/#{path}","Query":"#{query}","StatusCode":"HTTP_301"}}]
FORWARD=[{"Type":"forward","Order":1,"TargetGroupArn":f"{ELB}:targetgroup/acme-prod-web/73e2d6bc24d8a067",
          "ForwardConfig":{"TargetGroups":[{"TargetGroupArn":f"{ELB}:targetgroup/acme-prod-web/73e2d6bc24d8a067","Weight":1}]}}]
def elbv2(name, kind, attrs):
    arn=f"{ELB}:loadbalancer/{'app' if kind=='application' else 'net'}/{name}/6d0ecf831eec9f09"
    return item("AWS::ElasticLoadBalancingV2::LoadBalancer", arn, name, arn,
        {"loadBalancerArn":arn,"dNSName":f"{name}-1234567890.{R}.elb.amazonaws.com","loadBalancerName":name,"scheme":"internal","type":kind,
         "state":{"code":"active"},"ipAddressType":"ipv4","vpcId":"vpc-0a1b2c3d4e5f60718",
         "availabilityZones":[{"zoneName":R+"a","subnetId":"subnet-0priv000000000a"},{"zoneName":R+"b","subnetId":"subnet-0priv000000000b"}]},
        {"LoadBalancerAttributes":[{"key":"access_logs.s3.enabled","value":"true"},{"key":"deletion_protection.enabled","value":"true"}]+attrs})
def launch_template(lid, name, data):
    return item("AWS::EC2::LaunchTemplate", lid, name, f"arn:aws:ec2:{R}:{ACCT}:launch-template/{lid}",
        {"Id":lid,"LaunchTemplateName":name,"DefaultVersionNumber":4,"LatestVersionNumber":4,"LaunchTemplateData":data})
def launch_config(name, extra):
    c={"launchConfigurationName":name,"launchConfigurationARN":f"arn:aws:autoscaling:{R}:{ACCT}:launchConfiguration:0a1b2c3d-4e5f-6071-8293-a4b5c6d7e8f9:launchConfigurationName/{name}",
       "imageId":"ami-0abcdef1234567890","instanceType":"m7g.large","securityGroups":["sg-0web0000000000001"],"instanceMonitoring":{"enabled":True},
       "ebsOptimized":True,"createdTime":"2024-01-01T00:00:00.000Z","blockDeviceMappings":[]}
    c.update(extra)
    return item("AWS::AutoScaling::LaunchConfiguration", name, name, c["launchConfigurationARN"], c, tg={})
def classic(name, listeners, instances, azs, policies):
    arn=f"{ELB}:loadbalancer/{name}"
    return item("AWS::ElasticLoadBalancing::LoadBalancer", name, name, arn,
        {"loadBalancerName":name,"dnsname":f"{name}-1234567890.{R}.elb.amazonaws.com","scheme":"internet-facing","availabilityZones":azs,
         "subnets":["subnet-0pub0000000000a"],"vpcid":"vpc-0a1b2c3d4e5f60718","securityGroups":["sg-0web0000000000001"],
         "instances":[{"instanceId":i} for i in instances],"listenerDescriptions":listeners,
         "healthCheck":{"target":"HTTP:80/health","interval":30,"timeout":5,"unhealthyThreshold":2,"healthyThreshold":10},
         "createdTime":"2019-03-01T10:00:00.000Z"},
        {"LoadBalancerPolicies":policies})
HARDENED_LT={"InstanceType":"m7g.large","ImageId":"ami-0abcdef1234567890","MetadataOptions":{"HttpTokens":"required","HttpEndpoint":"enabled","HttpPutResponseHopLimit":2},
             "NetworkInterfaces":[{"DeviceIndex":0,"AssociatePublicIpAddress":False,"Groups":["sg-0web0000000000001"]}],
             "BlockDeviceMappings":[{"DeviceName":"/dev/xvda","Ebs":{"VolumeSize":50,"VolumeType":"gp3","Encrypted":True}}]}
def lambda_fn(name, vpc_subnets, tracing="Active"):
    return item("AWS::Lambda::Function", name, name, f"arn:aws:lambda:{R}:{ACCT}:function:{name}",
        {"functionName":name,"functionArn":f"arn:aws:lambda:{R}:{ACCT}:function:{name}","runtime":"python3.12","memorySize":512,"timeout":30,
         "architectures":["arm64"],"handler":"app.handler","packageType":"Zip","tracingConfig":{"mode":tracing},
         "deadLetterConfig":{"targetArn":f"arn:aws:sqs:{R}:{ACCT}:acme-prod-jobs-dlq"},
         "vpcConfig":{"subnetIds":list(vpc_subnets),"securityGroupIds":["sg-0web0000000000001"]}})

def clean():
    return [
      listener("0a1b2c3d4e5f6071", "acme-prod-web", 80, "HTTP", REDIRECT),
      listener("1a2b3c4d5e6f7081", "acme-prod-web", 443, "HTTPS", FORWARD, policy="ELBSecurityPolicy-TLS13-1-2-2021-06"),
      elbv2("acme-prod-ingest", "network", [{"key":"load_balancing.cross_zone.enabled","value":"true"}]),
      launch_template("lt-0web000000000001", "acme-prod-web", HARDENED_LT),
      launch_config("acme-prod-batch", {"associatePublicIpAddress":False,"metadataOptions":{"httpTokens":"required","httpEndpoint":"enabled","httpPutResponseHopLimit":2}}),
      lambda_fn("acme-prod-resizer", ["subnet-0priv000000000a","subnet-0priv000000000b"]),
    ]

def seed(s, label):
    old_policy={"policyName":"legacy-tls","policyTypeName":"SSLNegotiationPolicyType","policyAttributeDescriptions":[
        {"attributeName":"Reference-Security-Policy","attributeValue":"ELBSecurityPolicy-2016-08"},
        {"attributeName":"Protocol-TLSv1","attributeValue":"true"},{"attributeName":"Protocol-TLSv1.1","attributeValue":"true"},
        {"attributeName":"Protocol-TLSv1.2","attributeValue":"true"}]}
    s.append(classic("acme-legacy-web",
        [{"listener":{"protocol":"HTTP","loadBalancerPort":80,"instanceProtocol":"HTTP","instancePort":80},"policyNames":[]},
         {"listener":{"protocol":"HTTPS","loadBalancerPort":443,"instanceProtocol":"HTTP","instancePort":80,
                      "sslcertificateId":f"arn:aws:acm:{R}:{ACCT}:certificate/1f2e3d4c-5b6a-7980-1a2b-3c4d5e6f7a8b"},"policyNames":["legacy-tls"]}],
        [], [R+"a"], [old_policy]))
    arn=f"{ELB}:loadbalancer/acme-legacy-web"
    for rule,dim,sev,why in (("aws-elb-005","architecture","low","a Classic Load Balancer"),("aws-elb-006","cost","medium","no registered instances"),
                             ("aws-elb-007","security","medium","HTTP listener on port 80"),("aws-elb-008","security","medium","TLS 1.0 and 1.1 enabled"),
                             ("aws-elb-009","architecture","medium","one Availability Zone")):
        label(rule, arn, dim, sev, why)
    l=listener("2a3b4c5d6e7f8091", "acme-prod-admin", 80, "HTTP", FORWARD)
    s.append(l); label("aws-elb-010", l["ARN"], "security", "medium", "HTTP listener forwards to targets")
    l=listener("3a4b5c6d7e8f9001", "acme-prod-admin", 443, "HTTPS", FORWARD, policy="ELBSecurityPolicy-2016-08")
    s.append(l); label("aws-elb-011", l["ARN"], "security", "medium", "ELBSecurityPolicy-2016-08 allows TLS 1.0")
    lb=elbv2("acme-prod-admin", "application", [{"key":"routing.http.drop_invalid_header_fields.enabled","value":"false"},
                                                  {"key":"routing.http.desync_mitigation_mode","value":"monitor"}])
    s.append(lb)
    label("aws-elb-012", lb["ARN"], "security", "medium", "drop_invalid_header_fields false")
    label("aws-elb-013", lb["ARN"], "security", "medium", "desync mitigation monitor")
    nlb=elbv2("acme-prod-syslog", "network", [{"key":"load_balancing.cross_zone.enabled","value":"false"}])
    s.append(nlb); label("aws-elb-014", nlb["ARN"], "architecture", "low", "cross-zone off")
    lt=launch_template("lt-0legacy000000001", "acme-legacy", {"InstanceType":"c4.large","MetadataOptions":{"HttpTokens":"optional","HttpEndpoint":"enabled"},
                       "NetworkInterfaces":[{"DeviceIndex":0,"AssociatePublicIpAddress":True}]})
    s.append(lt)
    label("aws-ec2-013", lt["ARN"], "security", "medium", "HttpTokens optional")
    label("aws-ec2-014", lt["ARN"], "security", "medium", "AssociatePublicIpAddress true")
    label("aws-ec2-015", lt["ARN"], "cost", "low", "c4 is previous generation")
    t2=instance("i-0burst000000000001", "t2.large")
    s.append(t2); label("aws-ec2-016", t2["ARN"], "cost", "low", "running t2.large")
    for vid,vtype,rule,why in (("vol-0io1000000000001","io1","aws-ebs-007","io1 volume"),("vol-0magnetic0000001","standard","aws-ebs-008","magnetic volume")):
        v=volume(vid, vtype=vtype, attached=("i-0burst000000000001",))
        s.append(v); label(rule, v["ARN"], "architecture", "low", why)
    lc=launch_config("acme-legacy-batch", {"instanceType":"m4.large","associatePublicIpAddress":True,"metadataOptions":{"httpTokens":"optional","httpEndpoint":"enabled"}})
    s.append(lc)
    label("aws-asg-006", lc["ARN"], "cost", "low", "m4 is previous generation")
    label("aws-asg-003", lc["ARN"], "security", "medium", "HttpTokens optional")
    label("aws-asg-004", lc["ARN"], "security", "medium", "associatePublicIpAddress true")
    arn=f"arn:aws:autoscaling:{R}:{ACCT}:autoScalingGroup:9f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f:autoScalingGroupName/acme-legacy-batch"
    s.append(item("AWS::AutoScaling::AutoScalingGroup", arn, "acme-legacy-batch", arn,
        {"autoScalingGroupName":"acme-legacy-batch","autoScalingGroupARN":arn,"availabilityZones":[R+"a",R+"b"],"minSize":2,"maxSize":4,
         "desiredCapacity":2,"healthCheckType":"EC2","healthCheckGracePeriod":300,"targetGroupARNs":[],"loadBalancerNames":[],
         "launchConfigurationName":"acme-legacy-batch"}))
    label("aws-asg-005", arn, "architecture", "medium", "launches from a launch configuration")
    fn=lambda_fn("acme-prod-report", ["subnet-0priv000000000a"], tracing="PassThrough")
    s.append(fn)
    label("aws-lambda-006", fn["ARN"], "architecture", "medium", "one subnet")
    label("aws-lambda-007", fn["ARN"], "architecture", "low", "tracing PassThrough")
