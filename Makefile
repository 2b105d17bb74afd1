# Local development and CI entry points. The service stack (ClickHouse, PostgreSQL, Redis)
# is private to this checkout: scripts/services.sh keeps its data and logs in .data/.

GO ?= go

DATA_DIR := $(CURDIR)/.data

# Where the tests find the stack that `make services` starts; set them to use other servers.
FOURD_TEST_CLICKHOUSE_URL ?= clickhouse://127.0.0.1:19000/default
FOURD_TEST_POSTGRES_URL ?= postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable
FOURD_TEST_REDIS_URL ?= redis://127.0.0.1:56379/0

TEST_ENV = FOURD_TEST_CLICKHOUSE_URL='$(FOURD_TEST_CLICKHOUSE_URL)' \
	FOURD_TEST_POSTGRES_URL='$(FOURD_TEST_POSTGRES_URL)' \
	FOURD_TEST_REDIS_URL='$(FOURD_TEST_REDIS_URL)'

# The local ClickHouse cluster (scripts/cluster.sh) and the tests that run on it.
FOURD_TEST_CLICKHOUSE_CLUSTER_URL ?= clickhouse://127.0.0.1:19101/default
CLUSTER_TEST_ENV = FOURD_TEST_CLICKHOUSE_URL='$(FOURD_TEST_CLICKHOUSE_CLUSTER_URL)' \
	FOURD_TEST_CLICKHOUSE_CLUSTER=fourd \
	FOURD_TEST_POSTGRES_URL='$(FOURD_TEST_POSTGRES_URL)' \
	FOURD_TEST_REDIS_URL='$(FOURD_TEST_REDIS_URL)'

.PHONY: services services-stop services-status build run test bench fmt vet cluster cluster-stop cluster-status test-cluster test-cluster-smoke test-cluster-faults test-replicas test-cluster-replicas

services:
	bash scripts/services.sh start

services-stop:
	bash scripts/services.sh stop

services-status:
	bash scripts/services.sh status

cluster:
	bash scripts/services.sh cluster start

cluster-stop:
	bash scripts/services.sh cluster stop

cluster-status:
	bash scripts/services.sh cluster status

build:
	$(GO) build -o bin/fourd ./cmd/fourd

# FOURD_SECRET: taken from the environment when set, else generated once into .data/secret.
run: services build
	@set -eu; \
	if [ -z "$${FOURD_SECRET:-}" ]; then \
		if [ ! -s '$(DATA_DIR)/secret' ]; then \
			(umask 077; head -c 32 /dev/urandom | base64 > '$(DATA_DIR)/secret.tmp') && \
			mv '$(DATA_DIR)/secret.tmp' '$(DATA_DIR)/secret'; \
		fi; \
		FOURD_SECRET=$$(cat '$(DATA_DIR)/secret'); \
	fi; \
	export FOURD_SECRET FOURD_DATA_DIR='$(DATA_DIR)'; \
	echo './bin/fourd migrate'; ./bin/fourd migrate; \
	echo './bin/fourd demo'; ./bin/fourd demo; \
	echo './bin/fourd serve'; exec ./bin/fourd serve

test: services
	$(GO) vet ./...
	$(TEST_ENV) $(GO) test -count=1 -timeout 15m ./...

# The ClickHouse store tests and the end-to-end API tests on the local cluster (make cluster):
# every test database is made ON CLUSTER (about 10 s of DDL each), so this is slow.
test-cluster: services cluster
	$(CLUSTER_TEST_ENV) $(GO) test -count=1 -timeout 90m ./store/clickhouse/... ./rest/

# What CI runs on the cluster after `make test`: migrations, a snapshot written and paged,
# counts, the diff, resources, the fault errors, and the API's findings and isolation.
CLUSTER_SMOKE_STORE = TestCluster|TestMigrateRerunsAnAddedColumn|TestMigrateAddColumnKeepsTableReadable|TestListFindingsPagesEveryFindingOnceInOrder|TestCountFindingsEveryGrouping|TestResourcesLatestObservation|TestResourceFilterAfterCarryForward|TestDropSnapshot
CLUSTER_SMOKE_REST = TestTenantIsolationMatrix|TestListFindingsPaging$$|TestFindingSummary|TestAuditWrites$$
test-cluster-smoke: services cluster
	$(CLUSTER_TEST_ENV) $(GO) test -count=1 -timeout 20m ./store/clickhouse/ -run '$(CLUSTER_SMOKE_STORE)'
	$(CLUSTER_TEST_ENV) $(GO) test -count=1 -timeout 20m ./rest/ -run '$(CLUSTER_SMOKE_REST)'

# Fault drills on the local cluster: stops replicas, a shard and ZooKeeper (store/clickhouse
# TestClusterFaults, rest TestReadyzDegraded), so nothing else may use the cluster meanwhile.
test-cluster-faults: services cluster
	$(CLUSTER_TEST_ENV) FOURD_TEST_CLUSTER_FAULTS=1 $(GO) test -count=1 -timeout 20m ./store/clickhouse/ -run 'TestClusterFaults$$'
	$(CLUSTER_TEST_ENV) FOURD_TEST_CLUSTER_FAULTS=1 $(GO) test -count=1 -timeout 20m ./rest/ -run 'TestReadyzDegraded$$'

# Several `fourd serve` processes over the same stores (cmd/fourd TestSeveralReplicas): builds
# the binary, kills a replica mid-delivery and waits out the webhook lease (a minute), so about
# two minutes: not in `make test`, run by .ci/run after it.
test-replicas: services
	$(TEST_ENV) FOURD_TEST_REPLICAS=1 $(GO) test -count=1 -timeout 15m ./cmd/fourd/ -run 'TestSeveralReplicas$$'

# Two `fourd serve` processes over the local cluster (TestSeveralReplicas in cluster mode): the
# subtests whose outcome depends on ClickHouse (the audit claimed once, a page identical through
# either replica, events once, the rolling restart with a new migration between builds). The
# webhook kill drill and shared rate limits are PostgreSQL's and Redis's, run by test-replicas.
# About a minute: .ci/run runs it after the cluster smoke tests.
CLUSTER_REPLICAS = TestSeveralReplicas$$/^(an_audit_requested_once|a_page_reads_the_same|each_event_delivered_once|rolling_restart)
test-cluster-replicas: services cluster
	$(CLUSTER_TEST_ENV) FOURD_TEST_REPLICAS=1 $(GO) test -count=1 -timeout 15m ./cmd/fourd/ -run '$(CLUSTER_REPLICAS)'

bench: services
	$(TEST_ENV) $(GO) test -run '^$$' -bench . -benchtime 5x -timeout 60m ./...

fmt:
	$(GO) fmt ./...

vet:
	$(GO) vet ./...
