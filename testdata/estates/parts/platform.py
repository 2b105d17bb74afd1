# Platform family (helper B3, issue 29 §4): ECS task definitions, clusters and
# services, EKS clusters. Property names from awslabs/aws-config-resource-schema
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

def clean():
    return [ecs_td("acme-web"), ecs_cluster("acme-prod"), ecs_service("web"),
            # A daemon service runs one task per instance by design.
            ecs_service("log-router", SchedulingStrategy="DAEMON", DesiredCount=1, LaunchType="EC2", PlatformVersion=None,
                        NetworkConfiguration=None),
            eks_cluster("acme-prod")]

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
