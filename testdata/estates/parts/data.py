# Data, storage, analytics and ML family (helper B1, issue 29 §4): RDS/Aurora
# clusters and cluster snapshots, Redshift. Property names from
# awslabs/aws-config-resource-schema (AWS::RDS::DBCluster,
# AWS::RDS::DBClusterSnapshot, AWS::Redshift::Cluster .properties.json).

def rds_cluster(cid, **over):
    arn=f"arn:aws:rds:{R}:{ACCT}:cluster:{cid}"
    c={"dbclusterIdentifier":cid,"dbclusterArn":arn,"engine":"aurora-postgresql","engineMode":"provisioned","engineVersion":"16.2",
       "status":"available","storageEncrypted":True,"kmsKeyId":KEY,"deletionProtection":True,"backupRetentionPeriod":14,
       "iamdatabaseAuthenticationEnabled":True,"multiAZ":True,"availabilityZones":[R+"a",R+"b",R+"c"],
       "enabledCloudwatchLogsExports":["postgresql"],"masterUsername":"orders_owner","copyTagsToSnapshot":True,
       "autoMinorVersionUpgrade":True,"publiclyAccessible":False,"port":5432,"backtrackWindow":0,
       "dbclusterMembers":[{"dbinstanceIdentifier":cid+"-1","isClusterWriter":True,"promotionTier":1},
                           {"dbinstanceIdentifier":cid+"-2","isClusterWriter":False,"promotionTier":1}]}
    c.update(over)
    return item("AWS::RDS::DBCluster","cluster-"+cid.upper().replace("-","")[:26],cid,arn,c)

def rds_cluster_snapshot(sid, cluster, restore=(), **over):
    arn=f"arn:aws:rds:{R}:{ACCT}:cluster-snapshot:{sid}"
    c={"dbclusterSnapshotIdentifier":sid,"dbclusterSnapshotArn":arn,"dbclusterIdentifier":cluster,"engine":"aurora-postgresql",
       "snapshotType":"manual","storageEncrypted":True,"kmsKeyId":KEY,"allocatedStorage":100,"status":"available",
       "snapshotCreateTime":"2025-05-31T03:00:00.000Z","engineVersion":"16.2","port":5432}
    c.update(over)
    return item("AWS::RDS::DBClusterSnapshot",sid,sid,arn,c,
                {"DBClusterSnapshotAttributes":[{"attributeName":"restore","attributeValues":list(restore)}]})

def redshift(cid, logging=True, **over):
    c={"clusterIdentifier":cid,"nodeType":"ra3.xlplus","numberOfNodes":2,"publiclyAccessible":False,"encrypted":True,"kmsKeyId":KEY,
       "automatedSnapshotRetentionPeriod":7,"manualSnapshotRetentionPeriod":-1,"allowVersionUpgrade":True,"enhancedVpcRouting":True,
       "masterUsername":"warehouse_owner","clusterStatus":"available","dBName":"analytics","vpcId":"vpc-0a1b2c3d4e5f60718",
       "endpoint":{"address":f"{cid}.c0abc123xyz.{R}.redshift.amazonaws.com","port":5439}}
    c.update(over)
    return item("AWS::Redshift::Cluster",cid,cid,f"arn:aws:redshift:{R}:{ACCT}:cluster:{cid}",c,
                {"LoggingStatus":{"loggingEnabled":logging,"bucketName":"acme-prod-access-logs","s3KeyPrefix":"redshift/"}})

def opensearch(name, cluster=None, logs=None, **over):
    arn=f"arn:aws:es:{R}:{ACCT}:domain/{name}"
    cc={"InstanceType":"r7g.large.search","InstanceCount":3,"DedicatedMasterEnabled":True,"DedicatedMasterCount":3,
        "DedicatedMasterType":"m7g.large.search","ZoneAwarenessEnabled":True,"ZoneAwarenessConfig":{"AvailabilityZoneCount":3},"WarmEnabled":False}
    cc.update(cluster or {})
    lg={"AUDIT_LOGS":{"Enabled":True,"CloudWatchLogsLogGroupArn":f"arn:aws:logs:{R}:{ACCT}:log-group:/aws/opensearch/{name}/audit"},
        "ES_APPLICATION_LOGS":{"Enabled":True,"CloudWatchLogsLogGroupArn":f"arn:aws:logs:{R}:{ACCT}:log-group:/aws/opensearch/{name}/app"}}
    if logs is not None: lg=logs
    c={"Id":f"{ACCT}/{name}","Arn":arn,"DomainArn":arn,"DomainName":name,"EngineVersion":"OpenSearch_2.11","ClusterConfig":cc,
       "EBSOptions":{"EBSEnabled":True,"VolumeType":"gp3","VolumeSize":100,"Iops":3000,"Throughput":125},
       "EncryptionAtRestOptions":{"Enabled":True,"KmsKeyId":KEY},"NodeToNodeEncryptionOptions":{"Enabled":True},
       "DomainEndpointOptions":{"EnforceHTTPS":True,"TLSSecurityPolicy":"Policy-Min-TLS-1-2-PFS-2023-10","CustomEndpointEnabled":False},
       "VPCOptions":{"SubnetIds":["subnet-0aa11bb22cc33dd44","subnet-0bb22cc33dd44ee55"],"SecurityGroupIds":["sg-0web0000000000001"]},
       "AdvancedSecurityOptions":{"Enabled":True,"InternalUserDatabaseEnabled":False,"AnonymousAuthEnabled":False},
       "LogPublishingOptions":lg,"SoftwareUpdateOptions":{"AutoSoftwareUpdateEnabled":True}}
    c.update(over)
    return item("AWS::OpenSearch::Domain",name,name,arn,c)

def kinesis(name, **over):
    arn=f"arn:aws:kinesis:{R}:{ACCT}:stream/{name}"
    c={"Name":name,"Arn":arn,"ShardCount":2,"RetentionPeriodHours":168,"StreamEncryption":{"EncryptionType":"KMS","KeyId":KEY}}
    c.update(over)
    return item("AWS::Kinesis::Stream",name,name,arn,c)

def firehose(name, **over):
    arn=f"arn:aws:firehose:{R}:{ACCT}:deliverystream/{name}"
    c={"DeliveryStreamName":name,"Arn":arn,"DeliveryStreamType":"DirectPut",
       "DeliveryStreamEncryptionConfigurationInput":{"KeyType":"CUSTOMER_MANAGED_CMK","KeyARN":KEY},
       "ExtendedS3DestinationConfiguration":{"BucketARN":"arn:aws:s3:::acme-prod-data","RoleARN":f"arn:aws:iam::{ACCT}:role/acme-firehose",
           "Prefix":name+"/","CompressionFormat":"GZIP","BufferingHints":{"IntervalInSeconds":300,"SizeInMBs":64},
           "CloudWatchLoggingOptions":{"Enabled":True,"LogGroupName":"/aws/kinesisfirehose/"+name,"LogStreamName":"DestinationDelivery"}}}
    c.update(over)
    return item("AWS::KinesisFirehose::DeliveryStream",name,name,arn,c)

def msk(name, transit=None, **over):
    arn=f"arn:aws:kafka:{R}:{ACCT}:cluster/{name}/0a1b2c3d-1111-2222-3333-444455556666-1"
    c={"ClusterName":name,"Arn":arn,"KafkaVersion":"3.6.0","NumberOfBrokerNodes":3,"EnhancedMonitoring":"PER_BROKER",
       "BrokerNodeGroupInfo":{"InstanceType":"kafka.m7g.large","ClientSubnets":["subnet-0aa11bb22cc33dd44","subnet-0bb22cc33dd44ee55","subnet-0cc33dd44ee55ff66"],
           "SecurityGroups":["sg-0web0000000000001"],"StorageInfo":{"EBSStorageInfo":{"VolumeSize":500}},"ConnectivityInfo":{"PublicAccess":{"Type":"DISABLED"}}},
       "ClientAuthentication":{"Sasl":{"Iam":{"Enabled":True},"Scram":{"Enabled":False}},"Tls":{"Enabled":False},"Unauthenticated":{"Enabled":False}},
       "EncryptionInfo":{"EncryptionAtRest":{"DataVolumeKMSKeyId":KEY},"EncryptionInTransit":dict({"ClientBroker":"TLS","InCluster":True},**(transit or {}))},
       "LoggingInfo":{"BrokerLogs":{"CloudWatchLogs":{"Enabled":True,"LogGroup":"/aws/msk/"+name},"Firehose":{"Enabled":False},"S3":{"Enabled":False}}}}
    c.update(over)
    return item("AWS::MSK::Cluster",arn,name,arn,c)

def backup_plan(pid, name, rules):
    arn=f"arn:aws:backup:{R}:{ACCT}:backup-plan:{pid}"
    return item("AWS::Backup::BackupPlan",pid,name,arn,{"BackupPlanId":pid,"BackupPlanArn":arn,"VersionId":"ZmI4NjE5ZTItY2I2",
        "BackupPlan":{"BackupPlanName":name,"BackupPlanRule":rules}})

def plan_rule(name, delete_after=35):
    r={"RuleName":name,"TargetBackupVault":"acme-prod","ScheduleExpression":"cron(0 3 * * ? *)","StartWindowMinutes":60,"CompletionWindowMinutes":480,
       "CopyActions":[{"DestinationBackupVaultArn":f"arn:aws:backup:eu-central-1:{ACCT}:backup-vault:acme-prod-copy","Lifecycle":{"DeleteAfterDays":35}}]}
    if delete_after: r["Lifecycle"]={"DeleteAfterDays":delete_after}
    return r

def backup_vault(name, events=("BACKUP_JOB_FAILED","RESTORE_JOB_COMPLETED","COPY_JOB_FAILED")):
    arn=f"arn:aws:backup:{R}:{ACCT}:backup-vault:{name}"
    c={"BackupVaultName":name,"BackupVaultArn":arn,"EncryptionKeyArn":KEY}
    if events: c["Notifications"]={"BackupVaultEvents":list(events),"SNSTopicArn":f"arn:aws:sns:{R}:{ACCT}:acme-prod-alerts"}
    return item("AWS::Backup::BackupVault",name,name,arn,c)

def recovery_point(snap, **over):
    arn=f"arn:aws:ec2:{R}::snapshot/{snap}"
    c={"RecoveryPointArn":arn,"BackupVaultName":"acme-prod","BackupVaultArn":f"arn:aws:backup:{R}:{ACCT}:backup-vault:acme-prod",
       "ResourceArn":f"arn:aws:ec2:{R}:{ACCT}:volume/vol-0c1d2e3f405162738","ResourceType":"EBS","IsEncrypted":True,"EncryptionKeyArn":KEY,
       "Status":"COMPLETED","StorageClass":"WARM","CreationDate":"2025-05-31T03:00:00.000Z","Lifecycle":{"DeleteAfterDays":35},
       "IamRoleArn":f"arn:aws:iam::{ACCT}:role/service-role/AWSBackupDefaultServiceRole"}
    c.update(over)
    return item("AWS::Backup::RecoveryPoint",arn,snap,arn,c,tg={})

def notebook(name, **over):
    arn=f"arn:aws:sagemaker:{R}:{ACCT}:notebook-instance/{name}"
    c={"NotebookInstanceName":name,"InstanceType":"ml.t3.medium","DirectInternetAccess":"Disabled","RootAccess":"Disabled","KmsKeyId":KEY,
       "SubnetId":"subnet-0aa11bb22cc33dd44","SecurityGroupIds":["sg-0web0000000000001"],"RoleArn":f"arn:aws:iam::{ACCT}:role/acme-sagemaker","VolumeSizeInGB":20}
    c.update(over)
    return item("AWS::SageMaker::NotebookInstance",name,name,arn,c)

def endpoint_config(name, count=2, **over):
    arn=f"arn:aws:sagemaker:{R}:{ACCT}:endpoint-config/{name}"
    c={"EndpointConfigName":name,"KmsKeyId":KEY,"ProductionVariants":[{"VariantName":"primary","ModelName":name,"InstanceType":"ml.m6i.large",
       "InitialInstanceCount":count,"InitialVariantWeight":1}]}
    c.update(over)
    return item("AWS::SageMaker::EndpointConfig",name,name,arn,c)

def workgroup(name, **over):
    arn=f"arn:aws:athena:{R}:{ACCT}:workgroup/{name}"
    wc={"EnforceWorkGroupConfiguration":True,"PublishCloudWatchMetricsEnabled":True,"BytesScannedCutoffPerQuery":10737418240,
        "ResultConfiguration":{"OutputLocation":f"s3://acme-prod-data/athena/{name}/","EncryptionConfiguration":{"EncryptionOption":"SSE_KMS","KmsKey":KEY}},
        "EngineVersion":{"SelectedEngineVersion":"AUTO","EffectiveEngineVersion":"Athena engine version 3"}}
    wc.update(over)
    return item("AWS::Athena::WorkGroup",name,name,arn,{"Name":name,"State":"ENABLED","Description":"","WorkGroupConfiguration":wc})

def glue_job(name, **over):
    arn=f"arn:aws:glue:{R}:{ACCT}:job/{name}"
    c={"Name":name,"Role":f"arn:aws:iam::{ACCT}:role/acme-glue","GlueVersion":"4.0","SecurityConfiguration":"acme-encrypted",
       "Command":{"Name":"glueetl","ScriptLocation":"s3://acme-prod-data/glue/"+name+".py","PythonVersion":"3"},"WorkerType":"G.1X","NumberOfWorkers":4,"Timeout":120}
    c.update(over)
    return item("AWS::Glue::Job",name,name,arn,c)

def clean():
    return [rds_cluster("acme-prod-orders-aurora"),
            rds_cluster("acme-prod-ledger-aurora", engine="aurora-mysql", engineVersion="8.0.mysql_aurora.3.05.2",
                        enabledCloudwatchLogsExports=["audit","error"], backtrackWindow=86400, port=3306),
            rds_cluster_snapshot("acme-prod-orders-aurora-2025-05-31","acme-prod-orders-aurora"),
            redshift("acme-prod-warehouse"),
            opensearch("acme-prod-search"), kinesis("acme-prod-clicks"), firehose("acme-prod-clicks-to-s3"), msk("acme-prod-events"),
            backup_plan("8f2b7c3e-1a2b-4c3d-9e8f-0a1b2c3d4e5f","acme-prod-daily",[plan_rule("daily")]), backup_vault("acme-prod"),
            recovery_point("snap-0a1b2c3d4e5f60718"), notebook("acme-prod-research"), endpoint_config("acme-prod-churn"),
            workgroup("acme-prod-analysts"), glue_job("acme-prod-nightly-etl")]

def seed(s, label):
    cl=lambda cid: f"arn:aws:rds:{R}:{ACCT}:cluster:{cid}"
    s.append(rds_cluster("acme-legacy-reports", engine="aurora-mysql", storageEncrypted=False, kmsKeyId=None, deletionProtection=False,
                         backupRetentionPeriod=1, iamdatabaseAuthenticationEnabled=False, enabledCloudwatchLogsExports=[],
                         multiAZ=False, availabilityZones=[R+"a"], masterUsername="admin", copyTagsToSnapshot=False,
                         autoMinorVersionUpgrade=False, port=3306))
    for rule,dim,sev,why in (("aws-rds-011","security","high","storageEncrypted false"),
                             ("aws-rds-012","architecture","medium","deletionProtection false"),
                             ("aws-rds-013","architecture","medium","backupRetentionPeriod 1"),
                             ("aws-rds-014","security","medium","iamdatabaseAuthenticationEnabled false"),
                             ("aws-rds-015","compliance","medium","enabledCloudwatchLogsExports empty"),
                             ("aws-rds-016","architecture","medium","multiAZ false"),
                             ("aws-rds-017","security","low","masterUsername admin"),
                             ("aws-rds-018","architecture","low","Aurora MySQL with backtrackWindow 0"),
                             ("aws-rds-019","compliance","low","copyTagsToSnapshot false"),
                             ("aws-rds-020","security","medium","autoMinorVersionUpgrade false")):
        label(rule, cl("acme-legacy-reports"), dim, sev, why)
    s.append(rds_cluster("acme-prod-pg-multiaz", engine="postgres", dbclusterInstanceClass="db.m6gd.large", publiclyAccessible=True,
                         storageType="io1", iops=3000, allocatedStorage=400))
    label("aws-rds-021", cl("acme-prod-pg-multiaz"), "security", "high", "Multi-AZ DB cluster with publiclyAccessible true")
    s.append(rds_cluster("acme-prod-empty-aurora", dbclusterMembers=[]))
    label("aws-rds-022", cl("acme-prod-empty-aurora"), "cost", "low", "cluster with no DB instances")
    snap="acme-prod-orders-aurora-shared"
    s.append(rds_cluster_snapshot(snap, "acme-prod-orders-aurora", restore=["all"], storageEncrypted=False, kmsKeyId=None))
    label("aws-rds-023", f"arn:aws:rds:{R}:{ACCT}:cluster-snapshot:{snap}", "security", "critical", "restore attribute holds all")
    label("aws-rds-024", f"arn:aws:rds:{R}:{ACCT}:cluster-snapshot:{snap}", "security", "medium", "storageEncrypted false")
    s.append(redshift("acme-legacy-dw", logging=False, nodeType="ds2.xlarge", numberOfNodes=1, publiclyAccessible=True, encrypted=False,
                      kmsKeyId=None, automatedSnapshotRetentionPeriod=0, allowVersionUpgrade=False, enhancedVpcRouting=False,
                      masterUsername="awsuser"))
    rs=f"arn:aws:redshift:{R}:{ACCT}:cluster:acme-legacy-dw"
    for rule,dim,sev,why in (("aws-redshift-001","security","high","publiclyAccessible true"),
                             ("aws-redshift-002","security","high","encrypted false"),
                             ("aws-redshift-003","compliance","medium","LoggingStatus.loggingEnabled false"),
                             ("aws-redshift-004","architecture","high","automatedSnapshotRetentionPeriod 0"),
                             ("aws-redshift-005","security","medium","allowVersionUpgrade false"),
                             ("aws-redshift-006","security","low","enhancedVpcRouting false"),
                             ("aws-redshift-007","security","low","masterUsername awsuser"),
                             ("aws-redshift-008","cost","medium","previous-generation ds2 nodes"),
                             ("aws-redshift-009","architecture","medium","production cluster with one node")):
        label(rule, rs, dim, sev, why)
    # Snapshots whose source is gone (the inventory records other clusters
    # and instances of the region).
    old="2025-01-15T03:00:00.000Z"
    snap="acme-retired-analytics-final"
    s.append(rds_cluster_snapshot(snap, "acme-retired-analytics", snapshotCreateTime=old))
    label("aws-rds-025", f"arn:aws:rds:{R}:{ACCT}:cluster-snapshot:{snap}", "cost", "low", "manual snapshot of a cluster no longer in the inventory")
    d=dbsnap("acme-retired-billing-final")
    d["configuration"].update({"dBInstanceIdentifier":"acme-retired-billing","snapshotCreateTime":old})
    s.append(d)
    label("aws-rds-026", f"arn:aws:rds:{R}:{ACCT}:snapshot:acme-retired-billing-final", "cost", "low", "manual snapshot of an instance no longer in the inventory")
    os_=opensearch("acme-legacy-search", cluster={"InstanceType":"m4.large.search","InstanceCount":1,"DedicatedMasterEnabled":False,
                                                  "ZoneAwarenessEnabled":False},
                   logs={}, EncryptionAtRestOptions={"Enabled":False}, NodeToNodeEncryptionOptions={"Enabled":False},
                   DomainEndpointOptions={"EnforceHTTPS":False,"TLSSecurityPolicy":"Policy-Min-TLS-1-0-2019-07"},
                   VPCOptions={}, AdvancedSecurityOptions={"Enabled":False})
    s.append(os_)
    for rule,dim,sev,why in (("aws-opensearch-001","security","high","EncryptionAtRestOptions.Enabled false"),
                             ("aws-opensearch-002","security","medium","NodeToNodeEncryptionOptions.Enabled false"),
                             ("aws-opensearch-003","security","medium","EnforceHTTPS false"),
                             ("aws-opensearch-004","security","medium","TLS policy Policy-Min-TLS-1-0-2019-07"),
                             ("aws-opensearch-005","security","high","no VPC subnets: public endpoint"),
                             ("aws-opensearch-006","compliance","medium","no AUDIT_LOGS publishing"),
                             ("aws-opensearch-007","security","medium","AdvancedSecurityOptions.Enabled false"),
                             ("aws-opensearch-008","architecture","medium","ZoneAwarenessEnabled false"),
                             ("aws-opensearch-009","architecture","low","production domain without dedicated masters"),
                             ("aws-opensearch-010","cost","medium","previous-generation m4 instances"),
                             ("aws-opensearch-011","compliance","low","no ES_APPLICATION_LOGS publishing")):
        label(rule, os_["ARN"], dim, sev, why)
    k=kinesis("acme-legacy-clicks", RetentionPeriodHours=24, StreamEncryption={"EncryptionType":"NONE"})
    s.append(k)
    label("aws-kinesis-001", k["ARN"], "security", "medium", "EncryptionType NONE")
    label("aws-kinesis-002", k["ARN"], "architecture", "low", "RetentionPeriodHours 24")
    f=firehose("acme-legacy-clicks-to-s3", DeliveryStreamEncryptionConfigurationInput=None)
    del f["configuration"]["DeliveryStreamEncryptionConfigurationInput"]
    f["configuration"]["ExtendedS3DestinationConfiguration"]["CloudWatchLoggingOptions"]={"Enabled":False}
    s.append(f)
    label("aws-firehose-001", f["ARN"], "security", "medium", "DirectPut without server-side encryption")
    label("aws-firehose-002", f["ARN"], "compliance", "low", "CloudWatchLoggingOptions.Enabled false")
    m=msk("acme-legacy-events", transit={"ClientBroker":"TLS_PLAINTEXT","InCluster":False},
          ClientAuthentication={"Unauthenticated":{"Enabled":True}},
          LoggingInfo={"BrokerLogs":{"CloudWatchLogs":{"Enabled":False},"Firehose":{"Enabled":False},"S3":{"Enabled":False}}})
    m["configuration"]["BrokerNodeGroupInfo"]["ConnectivityInfo"]={"PublicAccess":{"Type":"SERVICE_PROVIDED_EIPS"}}
    s.append(m)
    for rule,dim,sev,why in (("aws-msk-001","security","high","ClientBroker TLS_PLAINTEXT"),
                             ("aws-msk-002","security","medium","InCluster false"),
                             ("aws-msk-003","security","high","Unauthenticated.Enabled true"),
                             ("aws-msk-004","security","high","PublicAccess SERVICE_PROVIDED_EIPS"),
                             ("aws-msk-005","compliance","medium","no broker log destination enabled")):
        label(rule, m["ARN"], dim, sev, why)
    bp=backup_plan("1d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6","acme-legacy-backups",[plan_rule("hourly",1),plan_rule("yearly",0)])
    s.append(bp)
    label("aws-backup-001", bp["ARN"], "architecture", "medium", "rule hourly deletes after 1 day")
    label("aws-backup-002", bp["ARN"], "cost", "low", "rule yearly has no lifecycle")
    bv=backup_vault("acme-legacy", events=())
    s.append(bv)
    label("aws-backup-003", bv["ARN"], "architecture", "low", "no Notifications")
    rp=recovery_point("snap-0legacy000000001", IsEncrypted=False, EncryptionKeyArn=None, CreationDate="2023-03-01T03:00:00.000Z", Lifecycle=None)
    del rp["configuration"]["Lifecycle"]; del rp["configuration"]["EncryptionKeyArn"]
    s.append(rp)
    label("aws-backup-004", rp["ARN"], "security", "medium", "IsEncrypted false")
    label("aws-backup-005", rp["ARN"], "cost", "low", "no lifecycle, created 2023-03-01")
    nb=notebook("acme-legacy-notebook", InstanceType="ml.t2.medium", DirectInternetAccess="Enabled", RootAccess="Enabled", KmsKeyId=None, SubnetId=None)
    del nb["configuration"]["KmsKeyId"]; del nb["configuration"]["SubnetId"]; del nb["configuration"]["SecurityGroupIds"]
    s.append(nb)
    for rule,dim,sev,why in (("aws-sagemaker-001","security","medium","DirectInternetAccess Enabled"),
                             ("aws-sagemaker-002","security","medium","RootAccess Enabled"),
                             ("aws-sagemaker-003","security","medium","no KmsKeyId"),
                             ("aws-sagemaker-004","security","medium","no SubnetId"),
                             ("aws-sagemaker-005","cost","low","previous-generation ml.t2")):
        label(rule, nb["ARN"], dim, sev, why)
    ec=endpoint_config("acme-legacy-churn", count=1)
    del ec["configuration"]["KmsKeyId"]
    s.append(ec)
    label("aws-sagemaker-006", ec["ARN"], "security", "low", "no KmsKeyId")
    label("aws-sagemaker-007", ec["ARN"], "architecture", "medium", "variant primary with InitialInstanceCount 1")
    wg=workgroup("primary", EnforceWorkGroupConfiguration=False, PublishCloudWatchMetricsEnabled=False,
                 ResultConfiguration={"OutputLocation":"s3://acme-prod-data/athena/primary/"})
    del wg["configuration"]["WorkGroupConfiguration"]["BytesScannedCutoffPerQuery"]
    s.append(wg)
    for rule,dim,sev,why in (("aws-athena-001","security","medium","no EncryptionConfiguration"),
                             ("aws-athena-002","security","low","EnforceWorkGroupConfiguration false"),
                             ("aws-athena-003","cost","low","no BytesScannedCutoffPerQuery"),
                             ("aws-athena-004","compliance","low","PublishCloudWatchMetricsEnabled false")):
        label(rule, wg["ARN"], dim, sev, why)
    gj=glue_job("acme-legacy-etl", GlueVersion="1.0")
    del gj["configuration"]["SecurityConfiguration"]
    s.append(gj)
    label("aws-glue-001", gj["ARN"], "security", "medium", "no SecurityConfiguration")
    label("aws-glue-002", gj["ARN"], "security", "medium", "GlueVersion 1.0")
    ec_arn=f"arn:aws:elasticache:{R}:{ACCT}:cluster:acme-legacy-cache"
    s.append(item("AWS::ElastiCache::CacheCluster","acme-legacy-cache","acme-legacy-cache",ec_arn,
        {"cacheClusterId":"acme-legacy-cache","engine":"redis","engineVersion":"3.2.10","cacheNodeType":"cache.r7g.large","numCacheNodes":2,
         "preferredAvailabilityZone":"Multiple","atRestEncryptionEnabled":True,"transitEncryptionEnabled":True,"snapshotRetentionLimit":7,
         "cacheClusterStatus":"available"}))
    label("aws-elasticache-006", ec_arn, "security", "medium", "Redis OSS 3.2.10, end of life 2023-07-31")
    dd_arn=f"arn:aws:dynamodb:{R}:{ACCT}:table/acme-legacy-sessions"
    s.append(item("AWS::DynamoDB::Table","acme-legacy-sessions","acme-legacy-sessions",dd_arn,
        {"tableName":"acme-legacy-sessions","tableArn":dd_arn,"tableStatus":"ACTIVE","itemCount":0,
         "billingModeSummary":{"billingMode":"PROVISIONED"},"provisionedThroughput":{"readCapacityUnits":100,"writeCapacityUnits":50},
         "sSEDescription":{"status":"ENABLED","sSEType":"KMS","kMSMasterKeyArn":KEY},"deletionProtectionEnabled":True},
        {"ContinuousBackupsDescription":{"continuousBackupsStatus":"ENABLED","pointInTimeRecoveryDescription":{"pointInTimeRecoveryStatus":"ENABLED"}},
         "AutoScalingEnabled":True}))
    label("aws-dynamodb-004", dd_arn, "cost", "low", "provisioned 100/50 capacity with itemCount 0")
