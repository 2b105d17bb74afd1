package rules

// dataRules are the checks of the data, storage, analytics and ML family
// (RDS and Aurora clusters, Redshift, OpenSearch, Backup, Kinesis, MSK,
// Athena, Glue, SageMaker; issue 29 §4).
func dataRules() []Rule {
	var out []Rule
	out = append(out, dataRDSRules()...)
	out = append(out, dataRedshiftRules()...)
	out = append(out, dataSearchRules()...)
	out = append(out, dataStreamRules()...)
	out = append(out, dataBackupRules()...)
	out = append(out, dataMLRules()...)
	out = append(out, cacheDynamoRules()...)
	return out
}
