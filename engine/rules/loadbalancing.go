package rules

import (
	inv "github.com/fourd-dev/fourd/engine/inventory"
)

// loadBalancingRules are the checks of classic load balancers, ELBv2
// listeners and the ELBv2 load balancers' attributes.
func loadBalancingRules() []Rule {
	return []Rule{
		{ID: "aws-elb-005", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeClassicLoadBalancer},
			Title:       "Classic Load Balancer is still in use",
			Description: "Classic Load Balancers are the previous generation of Elastic Load Balancing: no HTTP/2, no host or path routing, no WAF, no TLS 1.3, and fewer security policies than Application and Network Load Balancers.",
			Remediation: "Migrate to an Application or Network Load Balancer (the console's Migrate wizard, or the ELB migration tool), then delete the classic one.",
			Check: func(s *Subject) Result {
				lb := get[inv.ClassicLoadBalancer](s)
				return fail(map[string]any{"name": lb.Name, "scheme": lb.Scheme})
			}},
		{ID: "aws-elb-006", Dimension: cost, Severity: medium, ResourceTypes: []string{inv.TypeClassicLoadBalancer},
			Title:       "Classic Load Balancer has no registered instances",
			Description: "The classic load balancer serves no instance but is billed by the hour.",
			Remediation: "Delete it (aws elb delete-load-balancer --load-balancer-name NAME), or register the instances it was meant for.",
			Check: func(s *Subject) Result {
				lb := get[inv.ClassicLoadBalancer](s)
				if len(lb.InstanceIDs) > 0 {
					return passed(s, func() map[string]any { return map[string]any{"name": lb.Name, "instance_ids": lb.InstanceIDs} })
				}
				if !s.recorded("instance_ids") {
					return notEvaluated("instance_ids")
				}
				p, ok := prices.LoadBalancer("classic", s.Resource.Region)
				return fail(hourlyWaste(map[string]any{"name": lb.Name, "instance_count": 0}, p, ok, noPrice("classic load balancers", s.Resource.Region)))
			}},
		{ID: "aws-elb-007", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeClassicLoadBalancer},
			Title:       "Classic Load Balancer has a plaintext HTTP listener",
			Description: "A listener accepts HTTP, so requests and responses (cookies, tokens, form data) cross the network unencrypted; a classic load balancer cannot redirect them to HTTPS.",
			Remediation: "Replace the HTTP listener with an HTTPS one with an ACM certificate (aws elb create-load-balancer-listeners --listeners Protocol=HTTPS,LoadBalancerPort=443,…; aws elb delete-load-balancer-listeners --load-balancer-ports 80), or migrate to an ALB that redirects HTTP to HTTPS.",
			Check: func(s *Subject) Result {
				lb := get[inv.ClassicLoadBalancer](s)
				var ports []int
				for _, l := range lb.Listeners {
					if l.Protocol == "HTTP" {
						ports = append(ports, l.LoadBalancerPort)
					}
				}
				return failIf(s, len(ports) > 0, func() map[string]any {
					return map[string]any{"name": lb.Name, "scheme": lb.Scheme, "http_ports": ports}
				})
			}},
		{ID: "aws-elb-008", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeClassicLoadBalancer},
			Title:       "Classic Load Balancer listener allows TLS older than 1.2",
			Description: "The negotiation policy of an HTTPS or SSL listener enables SSLv3, TLS 1.0 or TLS 1.1, which have known weaknesses and are not allowed for cardholder data.",
			Remediation: "Set the listener's policy to one referencing ELBSecurityPolicy-TLS-1-2-2017-01: aws elb create-load-balancer-policy --policy-type-name SSLNegotiationPolicyType --policy-attributes AttributeName=Reference-Security-Policy,AttributeValue=ELBSecurityPolicy-TLS-1-2-2017-01, then aws elb set-load-balancer-policies-of-listener.",
			Check: func(s *Subject) Result {
				lb := get[inv.ClassicLoadBalancer](s)
				var legacy []map[string]any
				unknown := false
				for _, l := range lb.Listeners {
					if l.Protocol != "HTTPS" && l.Protocol != "SSL" {
						continue
					}
					switch {
					case l.LegacyTLS == nil:
						unknown = true
					case *l.LegacyTLS:
						legacy = append(legacy, map[string]any{"port": l.LoadBalancerPort, "ssl_policy": l.SSLPolicy})
					}
				}
				if len(legacy) == 0 && unknown {
					return notEvaluated("legacy_tls")
				}
				return failIf(s, len(legacy) > 0, func() map[string]any { return map[string]any{"name": lb.Name, "listeners": legacy} })
			}},
		{ID: "aws-elb-009", Dimension: architecture, Severity: medium, ResourceTypes: []string{inv.TypeClassicLoadBalancer},
			Title:       "Classic Load Balancer spans fewer than two Availability Zones",
			Description: "A load balancer in one Availability Zone fails with that zone.",
			Remediation: "Enable a second zone: aws elb attach-load-balancer-to-subnets (VPC) or enable-availability-zones-for-load-balancer, with instances registered in both.",
			Check: func(s *Subject) Result {
				lb := get[inv.ClassicLoadBalancer](s)
				return failIfZero(s, len(lb.AvailabilityZones) < 2, len(lb.AvailabilityZones) == 0, "availability_zones", func() map[string]any {
					return map[string]any{"name": lb.Name, "availability_zones": lb.AvailabilityZones}
				})
			}},
		{ID: "aws-elb-010", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLBListener},
			Title:       "Load balancer HTTP listener serves traffic instead of redirecting to HTTPS",
			Description: "The listener accepts HTTP and its default action forwards requests to targets, so they cross the network unencrypted; it should only redirect to HTTPS.",
			Remediation: "Change the default action to a redirect: aws elbv2 modify-listener --listener-arn ARN --default-actions 'Type=redirect,RedirectConfig={Protocol=HTTPS,Port=443,StatusCode=HTTP_301}' (Terraform: default_action { type = \"redirect\" redirect { protocol = \"HTTPS\" … } }).",
			Check: func(s *Subject) Result {
				l := get[inv.LBListener](s)
				serves := false
				for _, a := range l.DefaultActions {
					serves = serves || a == "forward"
				}
				return failIf(s, l.Protocol == "HTTP" && serves, func() map[string]any {
					return map[string]any{"listener_arn": l.ListenerARN, "load_balancer_arn": l.LoadBalancerARN,
						"port": l.Port, "protocol": l.Protocol, "default_actions": l.DefaultActions, "redirect_protocol": l.RedirectProtocol}
				})
			}},
		{ID: "aws-elb-011", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLBListener},
			Title:       "Load balancer listener allows TLS older than 1.2",
			Description: "The HTTPS or TLS listener's security policy accepts TLS 1.0 or 1.1 (e.g. ELBSecurityPolicy-2016-08, the old default), which have known weaknesses.",
			Remediation: "aws elbv2 modify-listener --listener-arn ARN --ssl-policy ELBSecurityPolicy-TLS13-1-2-2021-06 (Terraform: ssl_policy).",
			Check: func(s *Subject) Result {
				l := get[inv.LBListener](s)
				return failIf(s, (l.Protocol == "HTTPS" || l.Protocol == "TLS") && legacyTLSPolicy(l.SSLPolicy),
					func() map[string]any {
						return map[string]any{"listener_arn": l.ListenerARN, "protocol": l.Protocol, "ssl_policy": l.SSLPolicy}
					})
			}},
		{ID: "aws-elb-012", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLB},
			Title:       "Application Load Balancer does not drop invalid HTTP headers",
			Description: "routing.http.drop_invalid_header_fields.enabled is false, so headers with invalid names reach the targets, which helps HTTP request smuggling and desync attacks.",
			Remediation: "aws elbv2 modify-load-balancer-attributes --load-balancer-arn ARN --attributes Key=routing.http.drop_invalid_header_fields.enabled,Value=true (Terraform: drop_invalid_header_fields = true).",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				if lb.Type != "application" {
					return passed(s, func() map[string]any { return map[string]any{"name": lb.Name, "load_balancer_type": lb.Type} })
				}
				return failUnless(s, lb.DropInvalidHeaderFields, "drop_invalid_header_fields", func() map[string]any { return map[string]any{"name": lb.Name} })
			}},
		{ID: "aws-elb-013", Dimension: security, Severity: medium, ResourceTypes: []string{inv.TypeLB},
			Title:       "Application Load Balancer desync mitigation is in monitor mode",
			Description: "routing.http.desync_mitigation_mode is monitor: requests that are ambiguous under RFC 7230 (a sign of HTTP desync attacks) are forwarded instead of being blocked.",
			Remediation: "aws elbv2 modify-load-balancer-attributes --load-balancer-arn ARN --attributes Key=routing.http.desync_mitigation_mode,Value=defensive (or strictest; Terraform: desync_mitigation_mode).",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				switch {
				case lb.Type != "application":
					return passed(s, func() map[string]any { return map[string]any{"name": lb.Name, "load_balancer_type": lb.Type} })
				case lb.DesyncMitigationMode == "":
					return notEvaluated("desync_mitigation_mode")
				}
				return failIf(s, lb.DesyncMitigationMode == "monitor", func() map[string]any {
					return map[string]any{"name": lb.Name, "desync_mitigation_mode": lb.DesyncMitigationMode}
				})
			}},
		{ID: "aws-elb-014", Dimension: architecture, Severity: low, ResourceTypes: []string{inv.TypeLB},
			Title:       "Network Load Balancer does not balance across zones",
			Description: "Cross-zone load balancing is off, so each zone's node sends traffic only to that zone's targets: uneven target counts overload some targets, and a zone with few healthy targets takes its full share of traffic.",
			Remediation: "aws elbv2 modify-load-balancer-attributes --load-balancer-arn ARN --attributes Key=load_balancing.cross_zone.enabled,Value=true (Terraform: enable_cross_zone_load_balancing = true); mind the inter-zone data charge.",
			Check: func(s *Subject) Result {
				lb := get[inv.LoadBalancer](s)
				if lb.Type == "application" || len(lb.AvailabilityZones) < 2 {
					return passed(s, func() map[string]any {
						return map[string]any{"name": lb.Name, "load_balancer_type": lb.Type, "availability_zones": lb.AvailabilityZones}
					})
				}
				return failUnless(s, lb.CrossZoneEnabled, "cross_zone_enabled", func() map[string]any { return map[string]any{"name": lb.Name, "load_balancer_type": lb.Type} })
			}},
	}
}
