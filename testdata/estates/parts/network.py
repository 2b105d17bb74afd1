# Network family (helper B2): subnets, route tables, network ACLs, NAT and
# transit gateways, VPC endpoints, VPN connections. Shapes:
# awslabs/aws-config-resource-schema, config/properties/resource-types/
# AWS::EC2::{Subnet,RouteTable,NetworkAcl,NatGateway,VPCEndpoint,TransitGateway,VPNConnection}.properties.json.
VPC="vpc-0a1b2c3d4e5f60718"
def _arn(kind, rid): return f"arn:aws:ec2:{R}:{ACCT}:{kind}/{rid}"
def subnet(sid, cidr, free, public=False, az="a"):
    return item("AWS::EC2::Subnet", sid, sid, _arn("subnet", sid),
        {"subnetId":sid,"vpcId":VPC,"cidrBlock":cidr,"availabilityZone":R+az,"availabilityZoneId":"euw1-az"+az,
         "availableIpAddressCount":free,"defaultForAz":False,"mapPublicIpOnLaunch":public,"assignIpv6AddressOnCreation":False,
         "state":{"value":"available"},"ownerId":ACCT,"subnetArn":_arn("subnet", sid)}, az=R+az)
def route_table(rid, routes, subnets=("subnet-0priv000000000a",)):
    return item("AWS::EC2::RouteTable", rid, rid, _arn("route-table", rid),
        {"routeTableId":rid,"vpcId":VPC,"ownerId":ACCT,"propagatingVgws":[],
         "associations":[{"main":False,"routeTableAssociationId":"rtbassoc-"+s[-8:],"routeTableId":rid,"subnetId":s,
                          "associationState":{"state":"associated"}} for s in subnets],
         "routes":[{"destinationCidrBlock":"10.20.0.0/16","gatewayId":"local","origin":"CreateRouteTable","state":"active"}]+list(routes)})
def nacl_entry(n, proto, action, cidr=None, cidr6=None, ports=None, egress=False):
    e={"ruleNumber":n,"protocol":proto,"ruleAction":action,"egress":egress}
    if cidr: e["cidrBlock"]=cidr
    if cidr6: e["ipv6CidrBlock"]=cidr6
    if ports: e["portRange"]={"from":ports[0],"to":ports[1]}
    return e
def nacl(aid, entries, subnets, default=False):
    return item("AWS::EC2::NetworkAcl", aid, aid, _arn("network-acl", aid),
        {"networkAclId":aid,"vpcId":VPC,"isDefault":default,"ownerId":ACCT,
         "associations":[{"networkAclAssociationId":"aclassoc-"+s[-8:],"networkAclId":aid,"subnetId":s} for s in subnets],
         "entries":entries})
HARDENED=[nacl_entry(10,"6","deny","0.0.0.0/0",ports=(22,22)),nacl_entry(11,"6","deny","0.0.0.0/0",ports=(3389,3389)),
          nacl_entry(12,"6","deny",cidr6="::/0",ports=(22,22)),nacl_entry(13,"6","deny",cidr6="::/0",ports=(3389,3389)),
          nacl_entry(100,"-1","allow","0.0.0.0/0"),nacl_entry(101,"-1","allow",cidr6="::/0"),
          nacl_entry(32767,"-1","deny","0.0.0.0/0"),nacl_entry(32768,"-1","deny",cidr6="::/0"),
          nacl_entry(100,"-1","allow","0.0.0.0/0",egress=True),nacl_entry(32767,"-1","deny","0.0.0.0/0",egress=True)]
def nat(nid, sid="subnet-0pub0000000000a"):
    return item("AWS::EC2::NatGateway", nid, nid, _arn("natgateway", nid),
        {"natGatewayId":nid,"vpcId":VPC,"subnetId":sid,"state":{"value":"available"},"connectivityType":"public",
         "createTime":"2025-01-10T10:00:00.000Z","natGatewayAddresses":[{"allocationId":"eipalloc-0nat"+nid[-6:],"networkInterfaceId":"eni-0nat"+nid[-6:],
         "privateIp":"10.20.0.10","publicIp":"198.51.100.30"}]})
def endpoint(eid, subnets, service="ssm"):
    return item("AWS::EC2::VPCEndpoint", eid, eid, _arn("vpc-endpoint", eid),
        {"vpcEndpointId":eid,"vpcEndpointType":"Interface","vpcId":VPC,"serviceName":f"com.amazonaws.{R}.{service}","state":"available",
         "routeTableIds":[],"subnetIds":list(subnets),"groups":[{"groupId":"sg-0web0000000000001","groupName":"acme-prod-web"}],
         "privateDnsEnabled":True,"requesterManaged":False,"networkInterfaceIds":["eni-0vpce0001"],"ipAddressType":"ipv4",
         "creationTimestamp":"2025-01-10T10:00:00.000Z","ownerId":ACCT})
def tgw(tid, auto="disable"):
    return item("AWS::EC2::TransitGateway", tid, tid, _arn("transit-gateway", tid),
        {"Id":tid,"AmazonSideAsn":64512,"AutoAcceptSharedAttachments":auto,"DefaultRouteTableAssociation":"enable",
         "DefaultRouteTablePropagation":"enable","DnsSupport":"enable","VpnEcmpSupport":"enable","MulticastSupport":"disable",
         "Description":"acme hub"})
def vpn(vid, statuses=("UP","UP")):
    return item("AWS::EC2::VPNConnection", vid, vid, _arn("vpn-connection", vid),
        {"vpnConnectionId":vid,"customerGatewayId":"cgw-0a1b2c3d4e5f60718","transitGatewayId":"tgw-0hub000000000001","category":"VPN",
         "state":"available","type":"ipsec.1","options":{"staticRoutesOnly":False,"tunnelInsideIpVersion":"ipv4"},
         "vgwTelemetry":[{"acceptedRouteCount":3,"outsideIpAddress":f"203.0.113.{i+1}","status":st,"statusMessage":"3 BGP ROUTES",
                          "lastStatusChange":"2025-05-30T10:00:00.000Z"} for i,st in enumerate(statuses)]})

def clean():
    return [
      subnet("subnet-0priv000000000a","10.20.1.0/24",240),
      subnet("subnet-0pub0000000000a","10.20.0.0/24",245,az="a"),
      route_table("rtb-0private00000001",[{"destinationCidrBlock":"0.0.0.0/0","natGatewayId":"nat-0prod000000000001","origin":"CreateRoute","state":"active"},
          {"destinationIpv6CidrBlock":"::/0","egressOnlyInternetGatewayId":"eigw-0a1b2c3d4e5f60718","origin":"CreateRoute","state":"active"},
          {"destinationCidrBlock":"10.30.4.0/24","vpcPeeringConnectionId":"pcx-0shared000000001","origin":"CreateRoute","state":"active"},
          {"destinationCidrBlock":"10.40.0.0/16","transitGatewayId":"tgw-0hub000000000001","origin":"CreateRoute","state":"active"}]),
      nacl("acl-0default00000001",HARDENED,["subnet-0priv000000000a","subnet-0pub0000000000a"],default=True),
      nat("nat-0prod000000000001"),
      endpoint("vpce-0ssm00000000001",["subnet-0priv000000000a","subnet-0priv000000000b"]),
      tgw("tgw-0hub000000000001"),
      vpn("vpn-0office000000001"),
    ]

def seed(s, label):
    s.append(nacl("acl-0legacy000000001",[nacl_entry(100,"-1","allow","0.0.0.0/0"),nacl_entry(101,"6","allow",cidr6="::/0",ports=(3389,3389)),
                                          nacl_entry(32767,"-1","deny","0.0.0.0/0")],["subnet-0legacy00000001"]))
    label("aws-vpc-002",_arn("network-acl","acl-0legacy000000001"),"security","high","rule 100 allows all traffic from 0.0.0.0/0 (22 and 3389 included), rule 101 RDP from ::/0")
    s.append(nacl("acl-0orphan000000001",HARDENED,[]))
    label("aws-vpc-010",_arn("network-acl","acl-0orphan000000001"),"architecture","low","custom ACL associated with no subnet")
    s.append(subnet("subnet-0legacy00000001","10.20.9.0/24",4,public=True,az="b"))
    label("aws-vpc-003",_arn("subnet","subnet-0legacy00000001"),"security","low","mapPublicIpOnLaunch true")
    label("aws-vpc-004",_arn("subnet","subnet-0legacy00000001"),"architecture","medium","4 of 251 addresses free")
    s.append(route_table("rtb-0peering00000001",[{"destinationCidrBlock":"0.0.0.0/0","vpcPeeringConnectionId":"pcx-0shared000000001","origin":"CreateRoute","state":"active"}],
                         subnets=("subnet-0legacy00000001",)))
    label("aws-vpc-005",_arn("route-table","rtb-0peering00000001"),"security","medium","0.0.0.0/0 routed to a peering connection")
    s.append(nat("nat-0idle000000000001"))
    label("aws-vpc-006",_arn("natgateway","nat-0idle000000000001"),"cost","medium","no route table routes to it")
    s.append(endpoint("vpce-0ecr00000000001",["subnet-0priv000000000a"],service="ecr.api"))
    label("aws-vpc-007",_arn("vpc-endpoint","vpce-0ecr00000000001"),"architecture","medium","one subnet only")
    s.append(tgw("tgw-0shared000000001",auto="enable"))
    label("aws-vpc-008",_arn("transit-gateway","tgw-0shared000000001"),"security","medium","AutoAcceptSharedAttachments enable")
    s.append(vpn("vpn-0branch000000001",("UP","DOWN")))
    label("aws-vpc-009",_arn("vpn-connection","vpn-0branch000000001"),"architecture","medium","one tunnel DOWN")
