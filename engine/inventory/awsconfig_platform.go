package inventory

import (
	"net/url"
	"strings"
)

// AWS Config mappers of the build, workflow, monitoring and identity
// services. Shapes: awslabs/aws-config-resource-schema, config/properties/
// resource-types/AWS::CodeBuild::Project, AWS::StepFunctions::StateMachine,
// AWS::CloudWatch::Alarm, AWS::Cognito::IdentityPool,
// AWS::Cognito::UserPoolClient, AWS::ACMPCA::CertificateAuthority and
// AWS::AccessAnalyzer::Analyzer .properties.json.

func cfgCodeBuild(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	type artifact struct {
		Type               string   `json:"type"`
		EncryptionDisabled flexBool `json:"encryptionDisabled"`
	}
	type source struct {
		Location string `json:"location"`
	}
	var c struct {
		Name        string `json:"name"`
		Environment struct {
			Privileged flexBool `json:"privilegedMode"`
			Variables  []struct {
				Name string `json:"name"`
				Type string `json:"type"`
			} `json:"environmentVariables"`
		} `json:"environment"`
		Source             source     `json:"source"`
		SecondarySources   []source   `json:"secondarySources"`
		Artifacts          artifact   `json:"artifacts"`
		SecondaryArtifacts []artifact `json:"secondaryArtifacts"`
		Logs               *struct {
			CloudWatch *struct {
				Status string `json:"status"`
			} `json:"cloudWatchLogs"`
			S3 *struct {
				Status             string   `json:"status"`
				EncryptionDisabled flexBool `json:"encryptionDisabled"`
			} `json:"s3Logs"`
		} `json:"logsConfig"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	p := CodeBuildProject{Name: c.Name, PrivilegedMode: bool(c.Environment.Privileged)}
	if p.Name == "" {
		p.Name = ci.ResourceName
	}
	for _, v := range c.Environment.Variables {
		if v.Type == "" || strings.EqualFold(v.Type, "PLAINTEXT") {
			p.PlaintextEnvironmentNames = append(p.PlaintextEnvironmentNames, v.Name)
		}
	}
	for _, s := range append([]source{c.Source}, c.SecondarySources...) {
		if u, err := url.Parse(s.Location); err == nil && u.User != nil && u.User.String() != "" {
			p.SourceURLCredentials = true
		}
	}
	for _, a := range append([]artifact{c.Artifacts}, c.SecondaryArtifacts...) {
		if a.Type == "S3" && bool(a.EncryptionDisabled) {
			p.ArtifactsEncryptionDisabled = true
		}
	}
	if c.Logs != nil {
		// A recorded logsConfig without one of its halves has that half
		// at CodeBuild's default: CloudWatch Logs ENABLED, S3 DISABLED.
		p.CloudWatchLogsStatus, p.S3LogsStatus = "ENABLED", "DISABLED"
		if c.Logs.CloudWatch != nil && c.Logs.CloudWatch.Status != "" {
			p.CloudWatchLogsStatus = c.Logs.CloudWatch.Status
		}
		if c.Logs.S3 != nil && c.Logs.S3.Status != "" {
			p.S3LogsStatus = c.Logs.S3.Status
			p.S3LogsEncryptionDisabled = bool(c.Logs.S3.EncryptionDisabled)
		}
	}
	return TypeCodeBuildProject, recordedOnly(ci, conf, p, "cloudwatch_logs_status=?logsConfig.?cloudWatchLogs", "s3_logs_status=?logsConfig.?s3Logs"), nil
}

func cfgStateMachine(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string `json:"StateMachineName"`
		Type    string `json:"StateMachineType"`
		Logging *struct {
			Level string `json:"Level"`
		} `json:"LoggingConfiguration"`
		Tracing *struct {
			Enabled *flexBool `json:"Enabled"`
		} `json:"TracingConfiguration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	m := SFNStateMachine{Name: c.Name, Type: c.Type}
	if m.Name == "" {
		m.Name = ci.ResourceName
	}
	if c.Logging != nil {
		m.LoggingLevel = c.Logging.Level
	}
	if c.Tracing != nil {
		m.TracingEnabled = c.Tracing.Enabled.ptr()
	}
	return TypeSFNStateMachine, m, nil
}

func cfgAlarm(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string    `json:"alarmName"`
		Enabled *flexBool `json:"actionsEnabled"`
		Actions []string  `json:"alarmActions"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	a := CloudWatchAlarm{AlarmName: c.Name, ActionsEnabled: c.Enabled.ptr(), AlarmActions: c.Actions}
	if a.AlarmName == "" {
		a.AlarmName = ci.ResourceName
	}
	return TypeCloudWatchAlarm, recordedOnly(ci, conf, a, "alarm_actions=alarmActions", "actions_enabled=actionsEnabled"), nil
}

func cfgIdentityPool(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name    string   `json:"IdentityPoolName"`
		Unauth  flexBool `json:"AllowUnauthenticatedIdentities"`
		Classic flexBool `json:"AllowClassicFlow"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	p := CognitoIdentityPool{Name: c.Name, AllowUnauthenticatedIdentities: bool(c.Unauth), AllowClassicFlow: bool(c.Classic)}
	if p.Name == "" {
		p.Name = ci.ResourceName
	}
	return TypeCognitoIdentityPool, p, nil
}

func cfgUserPoolClient(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Name       string    `json:"ClientName"`
		Prevent    string    `json:"PreventUserExistenceErrors"`
		Revocation *flexBool `json:"EnableTokenRevocation"`
		Flows      []string  `json:"AllowedOAuthFlows"`
		Explicit   []string  `json:"ExplicitAuthFlows"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	p := CognitoUserPoolClient{ClientName: c.Name, PreventUserExistenceErrors: c.Prevent,
		EnableTokenRevocation: c.Revocation.ptr(), AllowedOAuthFlows: c.Flows, ExplicitAuthFlows: c.Explicit}
	if p.ClientName == "" {
		p.ClientName = ci.ResourceName
	}
	return TypeCognitoUserPoolClient, p, nil
}

func cfgPrivateCA(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Type    string `json:"Type"`
		Subject struct {
			CommonName string `json:"CommonName"`
		} `json:"Subject"`
		Revocation *struct {
			CRL *struct {
				Enabled *flexBool `json:"Enabled"`
			} `json:"CrlConfiguration"`
			OCSP *struct {
				Enabled *flexBool `json:"Enabled"`
			} `json:"OcspConfiguration"`
		} `json:"RevocationConfiguration"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	ca := ACMPCACertificateAuthority{CommonName: c.Subject.CommonName, Type: c.Type}
	if c.Revocation != nil {
		// A recorded revocation configuration without one of the two
		// mechanisms has it off.
		ca.CRLEnabled, ca.OCSPEnabled = boolPtr(false), boolPtr(false)
		if c.Revocation.CRL != nil && c.Revocation.CRL.Enabled != nil {
			ca.CRLEnabled = c.Revocation.CRL.Enabled.ptr()
		}
		if c.Revocation.OCSP != nil && c.Revocation.OCSP.Enabled != nil {
			ca.OCSPEnabled = c.Revocation.OCSP.Enabled.ptr()
		}
	}
	return TypeACMPCACertAuthority, recordedOnly(ci, conf, ca, "crl_enabled=?RevocationConfiguration.?CrlConfiguration",
		"ocsp_enabled=?RevocationConfiguration.?OcspConfiguration"), nil
}

func cfgAnalyzer(ci *configItem, conf []byte, _ *joiner) (string, any, error) {
	var c struct {
		Type string `json:"Type"`
	}
	if err := decodeConf(conf, &c); err != nil {
		return "", nil, err
	}
	return TypeAccessAnalyzerAnalyzer, recordedOnly(ci, conf, AccessAnalyzerAnalyzer{Type: c.Type}, "type=Type"), nil
}
