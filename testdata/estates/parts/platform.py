# Platform family (helper B3, issue 29 §4): ECS task definitions, clusters and
# services, EKS clusters, CodeBuild, Step Functions, CloudWatch alarms, Cognito,
# AWS Private CA, IAM Access Analyzer. Property names from awslabs/aws-config-resource-schema
# (AWS::ECS::TaskDefinition, AWS::ECS::Cluster, AWS::ECS::Service,
# AWS::EKS::Cluster .properties.json: CloudFormation-style PascalCase keys).

def ecs_container(name="web", **over):
    c={"Name":name,"Image":f"{ACCT}.dkr.ecr.{R}.amazonaws.com/{name}:1.4.2","Essential":True,"User":"1000",
       "ReadonlyRootFilesystem":True,"Privileged":False,
       "LogConfiguration":{"LogDriver":"awslogs","Options":{"awslogs-group":f"/ecs/{name}","awslogs-region":R}},
       "Environment":[{"Name":"LOG_LEVEL","Value":"info"}],
       "Secrets":[{"Name":"DB_PASSWORD","ValueFrom":f"arn:aws:secretsmanager:{R}:{ACCT}:secret:db-AbCdEf"}],
       "LinuxParameters":{"Capabilities":{"Add":["NET_BIND_SERVICE"],"Drop":["ALL"]},"InitProcessEnabled":True},
       "PortMappings":[{"ContainerPort":8080,"Protocol":"tcp"}]}
    c.update(over)
    return c

def ecs_td(family, containers=None, **over):
    arn=f"arn:aws:ecs:{R}:{ACCT}:task-definition/{family}:7"
    c={"Family":family,"TaskDefinitionArn":arn,"NetworkMode":"awsvpc","RequiresCompatibilities":["FARGATE"],"Cpu":"512","Memory":"1024",
       "Status":"ACTIVE","TaskRoleArn":f"arn:aws:iam::{ACCT}:role/{family}-task","ExecutionRoleArn":f"arn:aws:iam::{ACCT}:role/{family}-exec",
       "ContainerDefinitions":containers or [ecs_container()],
       "Volumes":[{"Name":"shared","EfsVolumeConfiguration":{"FileSystemId":"fs-0a1b2c3d4e5f60718","TransitEncryption":"ENABLED"}}]}
    c.update(over)
    return item("AWS::ECS::TaskDefinition",arn,f"{family}:7",arn,c)

def ecs_cluster(name, **over):
    arn=f"arn:aws:ecs:{R}:{ACCT}:cluster/{name}"
    c={"ClusterName":name,"Arn":arn,"ClusterSettings":[{"Name":"containerInsights","Value":"enabled"}],
       "CapacityProviders":["FARGATE","FARGATE_SPOT"],"Configuration":{"ExecuteCommandConfiguration":{"Logging":"DEFAULT"}}}
    c.update(over)
    return item("AWS::ECS::Cluster",name,name,arn,c)

def ecs_service(name, **over):
    arn=f"arn:aws:ecs:{R}:{ACCT}:service/acme-prod/{name}"
    c={"ServiceName":name,"ServiceArn":arn,"Cluster":f"arn:aws:ecs:{R}:{ACCT}:cluster/acme-prod","LaunchType":"FARGATE",
       "PlatformVersion":"LATEST","SchedulingStrategy":"REPLICA","DesiredCount":3,
       "TaskDefinition":f"arn:aws:ecs:{R}:{ACCT}:task-definition/acme-web:7",
       "NetworkConfiguration":{"AwsvpcConfiguration":{"AssignPublicIp":"DISABLED","Subnets":["subnet-0aa11bb22cc33dd44"],"SecurityGroups":["sg-0web0000000000001"]}},
       "DeploymentConfiguration":{"MaximumPercent":200,"MinimumHealthyPercent":100,"DeploymentCircuitBreaker":{"Enable":True,"Rollback":True}}}
    c.update(over)
    return item("AWS::ECS::Service",arn,name,arn,c)

def eks_cluster(name, **over):
    arn=f"arn:aws:eks:{R}:{ACCT}:cluster/{name}"
    c={"Name":name,"Arn":arn,"Version":"1.31","RoleArn":f"arn:aws:iam::{ACCT}:role/eks-cluster",
       "ResourcesVpcConfig":{"EndpointPublicAccess":False,"EndpointPrivateAccess":True,"PublicAccessCidrs":["0.0.0.0/0"],
                             "SubnetIds":["subnet-0aa11bb22cc33dd44","subnet-0bb22cc33dd44ee55"],"SecurityGroupIds":["sg-0eks0000000000001"]},
       "EncryptionConfig":[{"Resources":["secrets"],"Provider":{"KeyArn":KEY}}],
       "Logging":{"ClusterLogging":{"EnabledTypes":[{"Type":t} for t in ("api","audit","authenticator","controllerManager","scheduler")]}}}
    c.update(over)
    return item("AWS::EKS::Cluster",name,name,arn,c)

def codebuild(name, **over):
    arn=f"arn:aws:codebuild:{R}:{ACCT}:project/{name}"
    c={"name":name,"arn":arn,"source":{"type":"GITHUB","location":f"https://github.com/acme/{name}.git","gitCloneDepth":1,"buildspec":"buildspec.yml"},
       "artifacts":{"type":"S3","location":"acme-prod-artifacts","encryptionDisabled":False,"packaging":"ZIP"},
       "environment":{"type":"LINUX_CONTAINER","image":"aws/codebuild/amazonlinux2-x86_64-standard:5.0","computeType":"BUILD_GENERAL1_SMALL",
                      "privilegedMode":False,"imagePullCredentialsType":"CODEBUILD",
                      "environmentVariables":[{"name":"STAGE","value":"prod","type":"PLAINTEXT"},{"name":"NPM_TOKEN","value":"/acme/npm-token","type":"PARAMETER_STORE"}]},
       "serviceRole":f"arn:aws:iam::{ACCT}:role/codebuild-{name}","timeoutInMinutes":30,"encryptionKey":KEY,
       "logsConfig":{"cloudWatchLogs":{"status":"ENABLED","groupName":f"/codebuild/{name}"},
                     "s3Logs":{"status":"ENABLED","location":"acme-prod-access-logs/codebuild","encryptionDisabled":False}}}
    c.update(over)
    return item("AWS::CodeBuild::Project",name,name,arn,c)

def state_machine(name, **over):
    arn=f"arn:aws:states:{R}:{ACCT}:stateMachine:{name}"
    c={"StateMachineName":name,"Arn":arn,"StateMachineType":"STANDARD","RoleArn":f"arn:aws:iam::{ACCT}:role/{name}-sfn",
       "LoggingConfiguration":{"Level":"ERROR","IncludeExecutionData":False,
                               "Destinations":[{"CloudWatchLogsLogGroup":{"LogGroupArn":f"arn:aws:logs:{R}:{ACCT}:log-group:/sfn/{name}:*"}}]},
       "TracingConfiguration":{"Enabled":True}}
    c.update(over)
    return item("AWS::StepFunctions::StateMachine",arn,name,arn,c)

def alarm(name, **over):
    arn=f"arn:aws:cloudwatch:{R}:{ACCT}:alarm:{name}"
    c={"alarmName":name,"alarmArn":arn,"actionsEnabled":True,"alarmActions":[f"arn:aws:sns:{R}:{ACCT}:acme-prod-alerts"],
       "okactions":[],"insufficientDataActions":[],"metricName":"HTTPCode_Target_5XX_Count","namespace":"AWS/ApplicationELB",
       "statistic":"Sum","period":60,"evaluationPeriods":5,"threshold":10.0,"comparisonOperator":"GreaterThanThreshold","treatMissingData":"notBreaching"}
    c.update(over)
    return item("AWS::CloudWatch::Alarm",name,name,arn,c)

def identity_pool(name, pid, **over):
    c={"IdentityPoolName":name,"Id":pid,"AllowUnauthenticatedIdentities":False,"AllowClassicFlow":False,
       "CognitoIdentityProviders":[{"ClientId":"1example23456789","ProviderName":f"cognito-idp.{R}.amazonaws.com/{R}_AbCdEf123","ServerSideTokenCheck":True}]}
    c.update(over)
    return item("AWS::Cognito::IdentityPool",pid,name,f"arn:aws:cognito-identity:{R}:{ACCT}:identitypool/{pid}",c)

def user_pool_client(name, cid, **over):
    c={"ClientName":name,"ClientId":cid,"UserPoolId":f"{R}_AbCdEf123","PreventUserExistenceErrors":"ENABLED","EnableTokenRevocation":True,
       "AllowedOAuthFlows":["code"],"AllowedOAuthFlowsUserPoolClient":True,"AllowedOAuthScopes":["openid","email"],
       "CallbackURLs":["https://app.example.com/callback"],"ExplicitAuthFlows":["ALLOW_USER_SRP_AUTH","ALLOW_REFRESH_TOKEN_AUTH"]}
    c.update(over)
    return item("AWS::Cognito::UserPoolClient",cid,name,f"arn:aws:cognito-idp:{R}:{ACCT}:userpool/{R}_AbCdEf123/client/{cid}",c,tg={})

def private_ca(caid, **over):
    arn=f"arn:aws:acm-pca:{R}:{ACCT}:certificate-authority/{caid}"
    c={"Arn":arn,"Type":"SUBORDINATE","KeyAlgorithm":"EC_prime256v1","SigningAlgorithm":"SHA256WITHECDSA",
       "KeyStorageSecurityStandard":"FIPS_140_2_LEVEL_3_OR_HIGHER","Subject":{"CommonName":"acme issuing CA","Organization":"Acme"},
       "RevocationConfiguration":{"CrlConfiguration":{"Enabled":False},"OcspConfiguration":{"Enabled":True}}}
    c.update(over)
    return item("AWS::ACMPCA::CertificateAuthority",arn,caid,arn,c)

ANALYZER=f"arn:aws:access-analyzer:{R}:{ACCT}:analyzer/account"

def clean():
    return [ecs_td("acme-web"), ecs_cluster("acme-prod"), ecs_service("web"),
            # A daemon service runs one task per instance by design.
            ecs_service("log-router", SchedulingStrategy="DAEMON", DesiredCount=1, LaunchType="EC2", PlatformVersion=None,
                        NetworkConfiguration=None),
            eks_cluster("acme-prod"),
            codebuild("acme-web-build"), state_machine("orders"), alarm("acme-web-5xx"),
            identity_pool("acme_app", f"{R}:0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"), user_pool_client("acme-web","1example23456789"),
            private_ca("12345678-1234-1234-1234-123456789012"),
            item("AWS::AccessAnalyzer::Analyzer",ANALYZER,"account",ANALYZER,{"AnalyzerName":"account","Arn":ANALYZER,"Type":"ACCOUNT","ArchiveRules":[]})]

def seed(s, label):
    def td_arn(f): return f"arn:aws:ecs:{R}:{ACCT}:task-definition/{f}:7"
    bad=ecs_container("legacy", Privileged=True, User="root", ReadonlyRootFilesystem=False,
                      Environment=[{"Name":"AWS_SECRET_ACCESS_KEY","Value":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}],
                      LinuxParameters={"Capabilities":{"Add":["SYS_ADMIN"]}})
    del bad["LogConfiguration"]
    s.append(ecs_td("acme-legacy", [bad], NetworkMode="host", PidMode="host", RequiresCompatibilities=["EC2"],
                    Volumes=[{"Name":"docker","Host":{"SourcePath":"/var/run/docker.sock"}},
                             {"Name":"shared","EfsVolumeConfiguration":{"FileSystemId":"fs-0a1b2c3d4e5f60718","TransitEncryption":"DISABLED"}}]))
    a=td_arn("acme-legacy")
    for rule,dim,sev,why in (("aws-ecs-001","security","high","privileged container"),("aws-ecs-002","security","medium","network mode host"),
                             ("aws-ecs-003","security","medium","runs as root"),("aws-ecs-004","security","high","AWS_SECRET_ACCESS_KEY in plaintext environment"),
                             ("aws-ecs-005","compliance","medium","no log configuration"),("aws-ecs-006","security","low","writable root filesystem"),
                             ("aws-ecs-007","security","high","pidMode host"),("aws-ecs-008","security","high","adds SYS_ADMIN"),
                             ("aws-ecs-009","security","medium","EFS volume without transit encryption"),("aws-ecs-010","security","high","mounts the Docker socket")):
        label(rule,a,dim,sev,why)
    s.append(ecs_cluster("acme-batch", ClusterSettings=[{"Name":"containerInsights","Value":"disabled"}],
                         Configuration={"ExecuteCommandConfiguration":{"Logging":"NONE"}}))
    label("aws-ecs-011",f"arn:aws:ecs:{R}:{ACCT}:cluster/acme-batch","architecture","low","Container Insights disabled")
    label("aws-ecs-012",f"arn:aws:ecs:{R}:{ACCT}:cluster/acme-batch","compliance","low","ECS Exec logging NONE")
    s.append(ecs_service("admin", DesiredCount=1, PlatformVersion="1.3.0",
                         NetworkConfiguration={"AwsvpcConfiguration":{"AssignPublicIp":"ENABLED","Subnets":["subnet-0pub0000000000001"]}},
                         DeploymentConfiguration={"MaximumPercent":200,"MinimumHealthyPercent":100}))
    v=f"arn:aws:ecs:{R}:{ACCT}:service/acme-prod/admin"
    label("aws-ecs-013",v,"security","high","tasks get public IPs")
    label("aws-ecs-014",v,"architecture","high","one task, tagged production")
    label("aws-ecs-015",v,"architecture","low","no deployment circuit breaker")
    label("aws-ecs-016",v,"security","low","Fargate platform 1.3.0")
    s.append(eks_cluster("acme-legacy", Version="1.29", EncryptionConfig=[], Logging={"ClusterLogging":{"EnabledTypes":[{"Type":"api"}]}},
                         ResourcesVpcConfig={"EndpointPublicAccess":True,"EndpointPrivateAccess":False,"PublicAccessCidrs":["0.0.0.0/0"]}))
    k=f"arn:aws:eks:{R}:{ACCT}:cluster/acme-legacy"
    label("aws-eks-001",k,"security","high","public endpoint open to 0.0.0.0/0")
    label("aws-eks-002",k,"security","medium","no secrets encryption")
    label("aws-eks-003",k,"compliance","medium","only api logs")
    label("aws-eks-004",k,"cost","medium","1.29 in extended support")
    label("aws-eks-006",k,"security","low","no private endpoint access")
    s.append(eks_cluster("acme-ancient", Version="1.22"))
    label("aws-eks-005",f"arn:aws:eks:{R}:{ACCT}:cluster/acme-ancient","security","high","1.22 out of all support")

    # The account's only analyzer is gone, and the region's recorder records
    # every type: Access Analyzer is off there.
    s[:]=[it for it in s if it.get("resourceType")!="AWS::AccessAnalyzer::Analyzer"]
    label("aws-iam-020",f"arn:aws:iam::{ACCT}:root","security","medium","no IAM Access Analyzer in "+R)
    b=codebuild("acme-legacy-build", source={"type":"GITHUB","location":"https://ghp_exampletoken0000@github.com/acme/legacy.git"},
                artifacts={"type":"S3","location":"acme-prod-artifacts","encryptionDisabled":True},
                environment={"type":"LINUX_CONTAINER","image":"aws/codebuild/standard:7.0","computeType":"BUILD_GENERAL1_SMALL","privilegedMode":True,
                             "environmentVariables":[{"name":"AWS_SECRET_ACCESS_KEY","value":"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY","type":"PLAINTEXT"}]},
                logsConfig={"cloudWatchLogs":{"status":"DISABLED"},"s3Logs":{"status":"DISABLED"}})
    s.append(b)
    a=f"arn:aws:codebuild:{R}:{ACCT}:project/acme-legacy-build"
    for rule,dim,sev,why in (("aws-codebuild-001","security","medium","privileged mode"),("aws-codebuild-002","security","critical","AWS_SECRET_ACCESS_KEY in plaintext"),
                             ("aws-codebuild-003","security","critical","token in the source URL"),("aws-codebuild-004","security","medium","artifacts unencrypted"),
                             ("aws-codebuild-006","compliance","medium","no CloudWatch or S3 logs")):
        label(rule,a,dim,sev,why)
    s.append(codebuild("acme-docs-build", logsConfig={"cloudWatchLogs":{"status":"DISABLED"},
                                                      "s3Logs":{"status":"ENABLED","location":"acme-prod-access-logs/codebuild","encryptionDisabled":True}}))
    label("aws-codebuild-005",f"arn:aws:codebuild:{R}:{ACCT}:project/acme-docs-build","security","low","S3 logs unencrypted")
    s.append(state_machine("legacy-batch", LoggingConfiguration={"Level":"OFF"}, TracingConfiguration={"Enabled":False}))
    m=f"arn:aws:states:{R}:{ACCT}:stateMachine:legacy-batch"
    label("aws-sfn-001",m,"compliance","medium","logging OFF")
    label("aws-sfn-002",m,"architecture","low","tracing off")
    s.append(alarm("acme-disk-full", alarmActions=[]))
    label("aws-cloudwatch-001",f"arn:aws:cloudwatch:{R}:{ACCT}:alarm:acme-disk-full","architecture","low","no alarm action")
    s.append(identity_pool("acme_guest", f"{R}:9f8e7d6c-5b4a-3928-1706-f5e4d3c2b1a0", AllowUnauthenticatedIdentities=True, AllowClassicFlow=True))
    p=f"arn:aws:cognito-identity:{R}:{ACCT}:identitypool/{R}:9f8e7d6c-5b4a-3928-1706-f5e4d3c2b1a0"
    label("aws-cognito-001",p,"security","medium","guest credentials")
    label("aws-cognito-002",p,"security","low","classic flow")
    s.append(user_pool_client("acme-legacy-spa","2example98765432", PreventUserExistenceErrors="LEGACY", EnableTokenRevocation=False,
                              AllowedOAuthFlows=["implicit"], ExplicitAuthFlows=["ALLOW_USER_PASSWORD_AUTH","ALLOW_REFRESH_TOKEN_AUTH"]))
    u=f"arn:aws:cognito-idp:{R}:{ACCT}:userpool/{R}_AbCdEf123/client/2example98765432"
    label("aws-cognito-003",u,"security","low","LEGACY user existence errors")
    label("aws-cognito-004",u,"security","low","no token revocation")
    label("aws-cognito-005",u,"security","medium","implicit grant")
    label("aws-cognito-006",u,"security","low","USER_PASSWORD_AUTH allowed")
    s.append(private_ca("87654321-4321-4321-4321-210987654321", RevocationConfiguration={"CrlConfiguration":{"Enabled":False},"OcspConfiguration":{"Enabled":False}}))
    label("aws-acmpca-001",f"arn:aws:acm-pca:{R}:{ACCT}:certificate-authority/87654321-4321-4321-4321-210987654321","security","medium","no CRL, no OCSP")

# Checks of older types (GuardDuty, AWS Config, ECR, Secrets Manager, IAM,
# ECS Exec logging): IAM documents URL-encoded as AWS Config records them.
import urllib.parse as _up
def urldoc(*statements):
    return _up.quote(json.dumps({"Version":"2012-10-17","Statement":list(statements)}), safe="")

def ecr_repo(name, mutability="IMMUTABLE"):
    arn=f"arn:aws:ecr:{R}:{ACCT}:repository/{name}"
    return item("AWS::ECR::Repository",name,name,arn,{"RepositoryName":name,"Arn":arn,"ImageTagMutability":mutability,
                "ImageScanningConfiguration":{"ScanOnPush":True}})

def secret(name, rotation=True, days=30):
    arn=f"arn:aws:secretsmanager:{R}:{ACCT}:secret:{name}-AbCdEf"
    return item("AWS::SecretsManager::Secret",arn,name,arn,{"Name":name,"ARN":arn,"KmsKeyId":KEY,"RotationEnabled":rotation,
                "RotationLambdaARN":f"arn:aws:lambda:{R}:{ACCT}:function:rotate-db","RotationRules":{"AutomaticallyAfterDays":days}})

def iam_policy(name, pid, doc):
    arn=f"arn:aws:iam::{ACCT}:policy/{name}"
    return item("AWS::IAM::Policy",pid,name,arn,{"policyName":name,"policyId":pid,"arn":arn,"path":"/","defaultVersionId":"v1",
                "attachmentCount":1,"isAttachable":True,"policyVersionList":[{"document":doc,"versionId":"v1","isDefaultVersion":True}]},
                tg={},region="global")

def iam_role(name, rid, attached=(), inline=None):
    arn=f"arn:aws:iam::{ACCT}:role/{name}"
    trust=urldoc({"Effect":"Allow","Principal":{"Service":"ecs-tasks.amazonaws.com"},"Action":"sts:AssumeRole"})
    return item("AWS::IAM::Role",rid,name,arn,{"roleName":name,"roleId":rid,"arn":arn,"path":"/","assumeRolePolicyDocument":trust,
                "attachedManagedPolicies":[{"policyArn":a,"policyName":a.rsplit("/",1)[1]} for a in attached],
                "rolePolicyList":[{"policyName":"inline","policyDocument":inline}] if inline else [],"instanceProfileList":[]},
                tg={},region="global")

NARROW_KMS=urldoc({"Effect":"Allow","Action":["kms:Decrypt","kms:GenerateDataKey"],"Resource":KEY})

_clean_platform=clean
def clean():
    return _clean_platform()+[ecr_repo("acme/web"), secret("acme/db"),
        iam_policy("acme-app","ANPAEXAMPLEACMEAPP01",NARROW_KMS),
        iam_role("support","AROAEXAMPLESUPPORT01",attached=("arn:aws:iam::aws:policy/AWSSupportAccess",)),
        iam_role("acme-app","AROAEXAMPLEACMEAPP01",inline=NARROW_KMS),
        ecs_cluster("acme-tools", Configuration={"ExecuteCommandConfiguration":{"Logging":"OVERRIDE","KmsKeyId":KEY,
            "LogConfiguration":{"CloudWatchLogGroupName":"/ecs/exec","CloudWatchEncryptionEnabled":True}}})]

_seed_platform=seed
def seed(s, label):
    _seed_platform(s, label)
    root=f"arn:aws:iam::{ACCT}:root"
    for it in s:
        if it["resourceType"]=="AWS::GuardDuty::Detector":
            it["configuration"]["DataSources"]={"S3Logs":{"Enable":False},"Kubernetes":{"AuditLogs":{"Enable":False}}}
            label("aws-guardduty-001",it["ARN"],"security","medium","S3 protection off")
            label("aws-guardduty-002",it["ARN"],"security","low","EKS audit log monitoring off")
        if it["resourceType"]=="AWS::Config::ConfigurationRecorder":
            it["configuration"]["recordingGroup"]["includeGlobalResourceTypes"]=False
            label("aws-config-002",root,"compliance","medium","the only recorder excludes global resource types")
    s.append(ecr_repo("acme/legacy", mutability="MUTABLE"))
    label("aws-ecr-002",f"arn:aws:ecr:{R}:{ACCT}:repository/acme/legacy","security","low","mutable tags")
    s.append(secret("acme/legacy-api-key", rotation=False))
    label("aws-secretsmanager-002",f"arn:aws:secretsmanager:{R}:{ACCT}:secret:acme/legacy-api-key-AbCdEf","security","medium","no rotation")
    s.append(secret("acme/yearly", days=365))
    label("aws-secretsmanager-003",f"arn:aws:secretsmanager:{R}:{ACCT}:secret:acme/yearly-AbCdEf","security","low","rotated every 365 days")
    s.append(iam_policy("acme-ops","ANPAEXAMPLEACMEOPS01",urldoc({"Effect":"Allow","Action":["kms:Decrypt","cloudtrail:*"],"Resource":"*"})))
    label("aws-iam-022",f"arn:aws:iam::{ACCT}:policy/acme-ops","security","medium","kms:Decrypt on *")
    label("aws-iam-024",f"arn:aws:iam::{ACCT}:policy/acme-ops","security","medium","cloudtrail:* on *")
    s.append(iam_role("acme-batch","AROAEXAMPLEACMEBAT01",inline=urldoc({"Effect":"Allow","Action":"kms:*","Resource":"*"})))
    label("aws-iam-023",f"arn:aws:iam::{ACCT}:role/acme-batch","security","medium","inline kms:* on *")
    s.append(ecs_cluster("acme-exec", Configuration={"ExecuteCommandConfiguration":{"Logging":"OVERRIDE",
        "LogConfiguration":{"CloudWatchLogGroupName":"/ecs/exec","CloudWatchEncryptionEnabled":False}}}))
    label("aws-ecs-017",f"arn:aws:ecs:{R}:{ACCT}:cluster/acme-exec","compliance","low","ECS Exec logs unencrypted")
