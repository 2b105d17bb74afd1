package inventory

import "encoding/json"

// Terraform mappers of queues and topics: aws_sqs_queue and aws_sns_topic.

func tfSQS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		URL       string `json:"url"`
		SSE       *bool  `json:"sqs_managed_sse_enabled"`
		KMSKeyID  string `json:"kms_master_key_id"`
		Redrive   string `json:"redrive_policy"`
		Retention int    `json:"message_retention_seconds"`
		Policy    string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	q := &SQSQueue{Name: c.Name, URL: firstNonEmpty(t.URL, c.ID), SQSManagedSSEEnabled: t.SSE, KMSMasterKeyID: t.KMSKeyID,
		MessageRetentionSeconds: t.Retention}
	var err error
	if q.Policy, err = tfPolicy(t.Policy); err != nil {
		return nil, err
	}
	if t.Redrive != "" {
		var rp struct {
			Target string `json:"deadLetterTargetArn"`
		}
		if err := json.Unmarshal([]byte(t.Redrive), &rp); err != nil {
			return nil, err
		}
		q.DeadLetterTargetARN = rp.Target
	}
	return q, nil
}

func tfSNS(attrs []byte, c *tfCommon) (any, error) {
	var t struct {
		KMSKeyID string `json:"kms_master_key_id"`
		Policy   string `json:"policy"`
	}
	if err := json.Unmarshal(attrs, &t); err != nil {
		return nil, err
	}
	p, err := tfPolicy(t.Policy)
	if err != nil {
		return nil, err
	}
	return &SNSTopic{Name: c.Name, KMSMasterKeyID: t.KMSKeyID, Policy: p}, nil
}
