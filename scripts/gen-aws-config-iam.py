#!/usr/bin/env python3
"""Writes testdata/inventory/aws-config-iam.json: an AWS Config snapshot of
IAM principals and policy-bearing resources, in the shapes AWS publishes
(awslabs/aws-iam-access-analyzer-policy-validation-config-rule
function/sample-events/, awslabs/aws-config-resource-schema): IAM documents
URL-encoded, resource policies as JSON strings, awsRegion "global" for IAM.
item(history=True) writes the configuration-history shape (configuration
and supplementary values as JSON strings) for tests that want it; a
snapshot file never mixes the two. Each misconfigured item has a
well-configured twin.

    python3 scripts/gen-aws-config-iam.py > testdata/inventory/aws-config-iam.json
"""
import json
import sys
from urllib.parse import quote

ACCOUNT = "210987654321"
REGION = "eu-west-1"
CAPTURE = "2025-06-01T07:00:00.000Z"


def urlenc(doc):
    return quote(json.dumps(doc, indent=4), safe="")


def stmt(effect, action, resource=None, principal=None, condition=None, sid=None):
    s = {"Effect": effect, "Action": action}
    if sid:
        s = {"Sid": sid, **s}
    if principal is not None:
        s["Principal"] = principal
    if resource is not None:
        s["Resource"] = resource
    if condition:
        s["Condition"] = condition
    return s


def doc(*statements):
    return {"Version": "2012-10-17", "Statement": list(statements)}


def item(rtype, rid, name, arn, conf, supp=None, region=REGION, history=False):
    return {
        "version" if history else "configurationItemVersion": "1.3",
        "configurationItemCaptureTime": CAPTURE,
        "configurationItemStatus": "OK",
        "configurationStateId": "1748761200000",
        "arn" if history else "ARN": arn,
        "resourceType": rtype,
        "resourceId": rid,
        "resourceName": name,
        "accountId" if history else "awsAccountId": ACCOUNT,
        "awsRegion": region,
        "availabilityZone": "Not Applicable",
        "tags": {},
        "relatedEvents": [],
        "relationships": [],
        "configuration": json.dumps(conf) if history else conf,
        "supplementaryConfiguration": {k: json.dumps(v) for k, v in (supp or {}).items()} if history else (supp or {}),
    }


def policy(name, pid, document, attachments, history=False):
    arn = f"arn:aws:iam::{ACCOUNT}:policy/{name}"
    conf = {"policyName": name, "policyId": pid, "arn": arn, "path": "/", "defaultVersionId": "v2",
            "attachmentCount": attachments, "permissionsBoundaryUsageCount": 0, "isAttachable": True,
            "description": None, "createDate": "2024-03-01T10:00:00.000Z", "updateDate": "2024-09-01T10:00:00.000Z",
            "policyVersionList": [
                {"document": urlenc(document), "versionId": "v2", "isDefaultVersion": True, "createDate": "2024-09-01T10:00:00.000Z"},
                {"document": urlenc(doc(stmt("Allow", "s3:ListBucket", "*"))), "versionId": "v1", "isDefaultVersion": False,
                 "createDate": "2024-03-01T10:00:00.000Z"}]}
    return item("AWS::IAM::Policy", pid, name, arn, conf, region="global", history=history)


def role(name, rid, trust, inline=(), attached=(), history=False):
    arn = f"arn:aws:iam::{ACCOUNT}:role/{name}"
    conf = {"path": "/", "roleName": name, "roleId": rid, "arn": arn, "createDate": "2024-02-01T09:00:00.000Z",
            "assumeRolePolicyDocument": urlenc(trust), "instanceProfileList": [],
            "rolePolicyList": [{"policyName": n, "policyDocument": urlenc(d)} for n, d in inline],
            "attachedManagedPolicies": [{"policyName": a.rsplit("/", 1)[1], "policyArn": a} for a in attached],
            "permissionsBoundary": None, "tags": [], "roleLastUsed": None}
    return item("AWS::IAM::Role", rid, name, arn, conf, region="global", history=history)


def group(name, gid, inline=(), attached=()):
    arn = f"arn:aws:iam::{ACCOUNT}:group/{name}"
    conf = {"path": "/", "groupName": name, "groupId": gid, "arn": arn, "createDate": "2024-02-01T09:00:00.000Z",
            "groupPolicyList": [{"policyName": n, "policyDocument": urlenc(d)} for n, d in inline],
            "attachedManagedPolicies": [{"policyName": a.rsplit("/", 1)[1], "policyArn": a} for a in attached]}
    return item("AWS::IAM::Group", gid, name, arn, conf, region="global")


def user(name, uid, inline=(), groups=()):
    arn = f"arn:aws:iam::{ACCOUNT}:user/{name}"
    conf = {"path": "/", "userName": name, "userId": uid, "arn": arn, "createDate": "2024-02-01T09:00:00.000Z",
            "userPolicyList": [{"policyName": n, "policyDocument": urlenc(d)} for n, d in inline],
            "groupList": list(groups), "attachedManagedPolicies": [], "permissionsBoundary": None, "tags": []}
    return item("AWS::IAM::User", uid, name, arn, conf, region="global")


ADMIN = "arn:aws:iam::aws:policy/AdministratorAccess"
ROOT = f"arn:aws:iam::{ACCOUNT}:root"
GHA = f"arn:aws:iam::{ACCOUNT}:oidc-provider/token.actions.githubusercontent.com"
ec2_trust = doc(stmt("Allow", "sts:AssumeRole", principal={"Service": "ec2.amazonaws.com"}))
read_s3 = doc(stmt("Allow", ["s3:GetObject", "s3:ListBucket"], ["arn:aws:s3:::app-data", "arn:aws:s3:::app-data/*"]))


def key(kid, policy_doc, history=False):
    arn = f"arn:aws:kms:{REGION}:{ACCOUNT}:key/{kid}"
    conf = {"keyId": kid, "arn": arn, "creationDate": 1717225200000, "enabled": True, "description": "",
            "keyUsage": "ENCRYPT_DECRYPT", "keyState": "Enabled", "origin": "AWS_KMS", "keyManager": "CUSTOMER",
            "customerMasterKeySpec": "SYMMETRIC_DEFAULT", "keySpec": "SYMMETRIC_DEFAULT",
            "encryptionAlgorithms": ["SYMMETRIC_DEFAULT"], "multiRegion": False}
    return item("AWS::KMS::Key", kid, kid, arn, conf,
                {"KeyRotationStatus": True, "Policy": json.dumps(policy_doc, indent=2), "Tags": []}, history=history)


def queue(name, policy_doc):
    arn = f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}"
    url = f"https://sqs.{REGION}.amazonaws.com/{ACCOUNT}/{name}"
    conf = {"QueueUrl": url, "QueueArn": arn, "Policy": json.dumps(policy_doc), "SqsManagedSseEnabled": "true",
            "MessageRetentionPeriod": "345600", "VisibilityTimeout": "30", "DelaySeconds": "0",
            "RedrivePolicy": json.dumps({"deadLetterTargetArn": f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}-dlq", "maxReceiveCount": 5})}
    return item("AWS::SQS::Queue", url, name, arn, conf, {"Tags": {}})


def topic(name, policy_doc):
    arn = f"arn:aws:sns:{REGION}:{ACCOUNT}:{name}"
    conf = {"TopicArn": arn, "Owner": ACCOUNT, "Policy": json.dumps(policy_doc), "DisplayName": "",
            "KmsMasterKeyId": "alias/aws/sns"}
    return item("AWS::SNS::Topic", arn, name, arn, conf, {"Tags": []})


def function(name, policy_doc):
    arn = f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{name}"
    conf = {"functionName": name, "functionArn": arn, "runtime": "python3.12", "memorySize": 256, "timeout": 30,
            "architectures": ["arm64"], "handler": "main.handler", "packageType": "Zip",
            "role": f"arn:aws:iam::{ACCOUNT}:role/app-ec2", "tracingConfig": {"mode": "Active"},
            "deadLetterConfig": {"targetArn": f"arn:aws:sqs:{REGION}:{ACCOUNT}:{name}-dlq"}}
    return item("AWS::Lambda::Function", name, name, arn, conf,
                {"Policy": json.dumps(policy_doc), "Concurrency": {"reservedConcurrentExecutions": 10}})


def repository(name, policy_doc):
    arn = f"arn:aws:ecr:{REGION}:{ACCOUNT}:repository/{name}"
    conf = {"RepositoryName": name, "Arn": arn, "ImageTagMutability": "IMMUTABLE",
            "ImageScanningConfiguration": {"ScanOnPush": True}, "RepositoryPolicyText": policy_doc}
    return item("AWS::ECR::Repository", name, name, arn, conf)


items = [
    # Customer managed policies: full admin, an escalation path, a clean twin.
    policy("AdminEverything", "ANPAAAAAAAAAAAAAAAAA1", doc(stmt("Allow", "*", "*", sid="All")), 1),
    policy("Deployer", "ANPAAAAAAAAAAAAAAAAA2",
           doc(stmt("Allow", ["iam:PassRole", "ec2:RunInstances", "ec2:Describe*"], "*", sid="Launch")), 1),
    policy("ReadAppData", "ANPAAAAAAAAAAAAAAAAA3", read_s3, 2),
    # Roles: inline admin, trust open to everyone, a vendor without an
    # external id, and clean twins.
    role("legacy-admin", "AROAAAAAAAAAAAAAAAAA1", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": ROOT})),
         inline=[("everything", doc(stmt("Allow", "*", "*")))]),
    role("open-role", "AROAAAAAAAAAAAAAAAAA2", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": "*"}, sid="Anyone")),
         attached=["arn:aws:iam::aws:policy/ReadOnlyAccess"]),
    role("vendor-audit", "AROAAAAAAAAAAAAAAAAA3", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": "arn:aws:iam::999988887777:root"})),
         attached=["arn:aws:iam::aws:policy/SecurityAudit"]),
    role("vendor-billing", "AROAAAAAAAAAAAAAAAAA4", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": "arn:aws:iam::999988887777:root"},
                                                          condition={"StringEquals": {"sts:ExternalId": "fourd-7f3a9c"}})),
         attached=["arn:aws:iam::aws:policy/AWSBillingReadOnlyAccess"]),
    role("org-readers", "AROAAAAAAAAAAAAAAAAA5", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": "*"},
                                                       condition={"StringEquals": {"aws:PrincipalOrgID": "o-a1b2c3d4e5"}})),
         attached=["arn:aws:iam::aws:policy/ReadOnlyAccess"]),
    role("app-ec2", "AROAAAAAAAAAAAAAAAAA6", ec2_trust, inline=[("read-app-data", read_s3)]),
    # Customer managed policies attached: the full-admin one, and the
    # narrower twin.
    role("ops-admin", "AROAAAAAAAAAAAAAAAAA9", doc(stmt("Allow", "sts:AssumeRole", principal={"AWS": ROOT},
                                                      condition={"Bool": {"aws:MultiFactorAuthPresent": "true"}})),
         attached=[f"arn:aws:iam::{ACCOUNT}:policy/AdminEverything"]),
    role("data-reader", "AROAAAAAAAAAAAAAAAA10", ec2_trust, attached=[f"arn:aws:iam::{ACCOUNT}:policy/ReadAppData"]),
    # GitHub Actions OIDC: any repository, and the documented pinned twin.
    role("gha-deploy-any", "AROAAAAAAAAAAAAAAAAA7", doc(stmt("Allow", "sts:AssumeRoleWithWebIdentity", principal={"Federated": GHA},
                                                           condition={"StringEquals": {"token.actions.githubusercontent.com:aud": "sts.amazonaws.com"}})),
         inline=[("read-app-data", read_s3)]),
    role("gha-deploy", "AROAAAAAAAAAAAAAAAAA8", doc(stmt("Allow", "sts:AssumeRoleWithWebIdentity", principal={"Federated": GHA},
                                                       condition={"StringEquals": {"token.actions.githubusercontent.com:aud": "sts.amazonaws.com"},
                                                                  "StringLike": {"token.actions.githubusercontent.com:sub": "repo:acme/app:ref:refs/heads/main"}})),
         inline=[("read-app-data", read_s3)]),
    # Groups: AdministratorAccess attached, an inline escalation, a clean twin.
    group("admins", "AGPAAAAAAAAAAAAAAAAA1", attached=[ADMIN]),
    group("developers", "AGPAAAAAAAAAAAAAAAAA2",
          inline=[("policy-versions", doc(stmt("Allow", ["iam:CreatePolicyVersion", "iam:GetPolicy*"], "*")))]),
    group("readers", "AGPAAAAAAAAAAAAAAAAA3", inline=[("read", read_s3)]),
    # Users: an inline full-admin grant behind two policies, a clean twin.
    user("ci-bot", "AIDAAAAAAAAAAAAAAAAA1", inline=[("deploy", doc(stmt("Allow", "s3:*", "*"))),
                                                     ("break-glass", doc(stmt("Allow", "*:*", "*")))]),
    user("auditor", "AIDAAAAAAAAAAAAAAAAA2", groups=["readers"]),
    # Resource policies: public ones and well-scoped twins.
    key("1111aaaa-2222-3333-4444-555566667777", doc(
        stmt("Allow", "kms:*", "*", principal={"AWS": ROOT}, sid="Enable IAM User Permissions"),
        stmt("Allow", ["kms:Decrypt", "kms:DescribeKey"], "*", principal={"AWS": "*"}, sid="Everyone"))),
    key("8888bbbb-9999-0000-1111-222233334444", doc(
        stmt("Allow", "kms:*", "*", principal={"AWS": ROOT}, sid="Enable IAM User Permissions"),
        stmt("Allow", ["kms:Decrypt", "kms:ReEncryptFrom"], "*", principal={"AWS": "*"}, sid="Account decrypt",
             condition={"StringEquals": {"kms:CallerAccount": ACCOUNT}}))),
    queue("public-intake", doc(stmt("Allow", "SQS:SendMessage", f"arn:aws:sqs:{REGION}:{ACCOUNT}:public-intake", principal="*", sid="Open"))),
    queue("orders", doc(stmt("Allow", "sqs:SendMessage", f"arn:aws:sqs:{REGION}:{ACCOUNT}:orders", principal={"Service": "sns.amazonaws.com"},
                             condition={"ArnEquals": {"aws:SourceArn": f"arn:aws:sns:{REGION}:{ACCOUNT}:order-events"}}))),
    topic("public-alerts", {"Version": "2008-10-17", "Id": "__default_policy_ID", "Statement": [
        stmt("Allow", ["SNS:Publish", "SNS:Subscribe"], f"arn:aws:sns:{REGION}:{ACCOUNT}:public-alerts", principal={"AWS": "*"}, sid="Open")]}),
    topic("order-events", {"Version": "2008-10-17", "Id": "__default_policy_ID", "Statement": [
        stmt("Allow", ["SNS:GetTopicAttributes", "SNS:Publish", "SNS:Subscribe"], f"arn:aws:sns:{REGION}:{ACCOUNT}:order-events",
             principal={"AWS": "*"}, sid="__default_statement_ID", condition={"StringEquals": {"AWS:SourceOwner": ACCOUNT}})]}),
    function("public-hook", {"Version": "2012-10-17", "Id": "default", "Statement": [
        stmt("Allow", "lambda:InvokeFunction", f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:public-hook", principal="*", sid="Anyone")]}),
    function("s3-ingest", {"Version": "2012-10-17", "Id": "default", "Statement": [
        stmt("Allow", "lambda:InvokeFunction", f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:s3-ingest", principal={"Service": "s3.amazonaws.com"},
             sid="s3", condition={"StringEquals": {"AWS:SourceAccount": ACCOUNT}, "ArnLike": {"AWS:SourceArn": "arn:aws:s3:::app-data"}})]}),
    repository("shared-base", doc(stmt("Allow", ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"], principal={"AWS": "*"}, sid="Pull"))),
    repository("app", doc(stmt("Allow", ["ecr:BatchGetImage", "ecr:GetDownloadUrlForLayer"], principal={"AWS": "*"}, sid="OrgPull",
                               condition={"StringEquals": {"aws:PrincipalOrgID": "o-a1b2c3d4e5"}}))),
]

json.dump({"fileVersion": "1.0", "configSnapshotId": "0b7c6f9e-1d2a-4c3b-9e8f-7a6b5c4d3e21", "configurationItems": items},
          sys.stdout, indent=2)
sys.stdout.write("\n")
