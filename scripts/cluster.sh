#!/usr/bin/env bash
# cluster.sh — a replicated, sharded ClickHouse cluster on this machine for fourd's cluster
# mode (FOURD_CLICKHOUSE_CLUSTER): ZooKeeper and four clickhouse-server processes, 2 shards ×
# 2 replicas, each a plain background process this script owns, with its data and logs under
# .data/cluster/. It leaves the single-server stack of services.sh alone.
#
#   bash scripts/cluster.sh start    install (if needed), start, wait until every node answers
#   bash scripts/cluster.sh stop     stop our processes (by pid file), keep the data
#   bash scripts/cluster.sh status   one line per process; exit 3 when any is not up
#   bash scripts/cluster.sh stop-node N / start-node N   one node (1-4), for fault tests
#   bash scripts/cluster.sh stop-zookeeper / start-zookeeper
#   bash scripts/cluster.sh reset    stop and delete the cluster's data
#
#   cluster   fourd (FOURD_CLICKHOUSE_CLUSTER=fourd)
#   ZooKeeper 127.0.0.1:12181
#   node 1    shard 1 replica s1r1, native 127.0.0.1:19101 (http 19111, interserver 19121)
#   node 2    shard 1 replica s1r2, native 127.0.0.1:19102 (http 19112, interserver 19122)
#   node 3    shard 2 replica s2r1, native 127.0.0.1:19103 (http 19113, interserver 19123)
#   node 4    shard 2 replica s2r2, native 127.0.0.1:19104 (http 19114, interserver 19124)
#
# fourd connects to any node (FOURD_CLICKHOUSE_URL=clickhouse://127.0.0.1:19101/default, or
# several comma-separated hosts for failover); docs/scaling.md says what it expects.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
DIR="$ROOT/.data/cluster"
HOST=127.0.0.1
CLUSTER=${FOURD_CLUSTER_NAME:-fourd}
ZK_PORT=12181
NODES=(1 2 3 4)
START_TIMEOUT=60

IS_ROOT=false
[ "$(id -u)" -eq 0 ] && IS_ROOT=true

fail() {
  echo "cluster: $*" >&2
  exit 1
}

tcp_port() { echo $((19100 + $1)); }
http_port() { echo $((19110 + $1)); }
interserver_port() { echo $((19120 + $1)); }
shard_of() { echo $((($1 + 1) / 2)); }
replica_of() { echo "s$(shard_of "$1")r$((($1 + 1) % 2 + 1))"; }

find_bin() {
  local name=$1 dir
  if command -v "$name" >/dev/null 2>&1; then
    command -v "$name"
    return 0
  fi
  for dir in /usr/sbin /usr/bin /sbin /usr/local/sbin /usr/local/bin; do
    [ -x "$dir/$name" ] && { echo "$dir/$name"; return 0; }
  done
  return 1
}

as_root() {
  if $IS_ROOT; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    return 127
  fi
}

read_pid() { [ -r "$1" ] && head -n1 "$1" | tr -dc '0-9' || true; }

# pid_matches reports whether pid is alive and its command line contains the marker.
pid_matches() {
  local pid=$1 marker=$2
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker"
}

port_in_use() { timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" >/dev/null 2>&1; }

require_free_port() {
  port_in_use "$2" && fail "$1: port $HOST:$2 is already in use by a process that is not ours; free it"
  return 0
}

ZK_JARS=/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-simple.jar

missing_packages() {
  local out=()
  [ -r /usr/share/java/zookeeper.jar ] || out+=(zookeeper)
  [ -r /usr/share/java/slf4j-simple.jar ] || out+=(libslf4j-java)
  find_bin java >/dev/null || out+=(default-jre-headless)
  find_bin clickhouse-server >/dev/null || out+=(clickhouse-server)
  find_bin clickhouse-client >/dev/null || out+=(clickhouse-client)
  echo "${out[*]}"
}

# install runs apt-get (update once, then install) only for what is missing.
install() {
  local want log="$DIR/install.log" policy=/usr/sbin/policy-rc.d made_policy=false rc=0
  want=$(missing_packages)
  [ -n "$want" ] || return 0
  command -v apt-get >/dev/null 2>&1 || fail "install: $want missing and no apt-get; install them and retry"
  if ! $IS_ROOT && ! command -v sudo >/dev/null 2>&1; then
    fail "install: $want missing and we are neither root nor have sudo"
  fi
  echo "cluster: installing $want (log: $log)"
  : >"$log"
  # Keep the packages from starting system-wide servers: we run private ones.
  if [ ! -e "$policy" ] && as_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 0755 $policy" >>"$log" 2>&1; then
    made_policy=true
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$log" 2>&1 ||
    echo "apt-get update failed; installing from the existing lists" >>"$log"
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $want >>"$log" 2>&1 || rc=$?
  $made_policy && as_root rm -f "$policy"
  [ -z "$(missing_packages)" ] || fail "install: apt-get install $want failed (exit $rc); see $log"
}

# ---------------------------------------------------------------------------------------
# ZooKeeper

zk_alive() { pid_matches "$(read_pid "$DIR/zookeeper.pid")" "$DIR/zookeeper/zoo.cfg"; }

zk_answers() {
  # "srvr" is in ZooKeeper's default four-letter-word whitelist.
  [ -n "$(timeout 3 bash -c "exec 3<>/dev/tcp/$HOST/$ZK_PORT; printf srvr >&3; cat <&3" 2>/dev/null | grep Mode)" ]
}

zk_start() {
  local pid i
  if zk_alive; then
    echo "zookeeper: already running (pid $(read_pid "$DIR/zookeeper.pid")), $HOST:$ZK_PORT"
    return 0
  fi
  require_free_port zookeeper "$ZK_PORT"
  mkdir -p "$DIR/zookeeper/data"
  cat >"$DIR/zookeeper/zoo.cfg" <<EOF
# Written by scripts/cluster.sh on every start.
tickTime=2000
initLimit=10
syncLimit=5
dataDir=$DIR/zookeeper/data
clientPort=$ZK_PORT
clientPortAddress=$HOST
maxClientCnxns=200
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok,mntr
autopurge.snapRetainCount=3
autopurge.purgeInterval=1
EOF
  (cd "$DIR/zookeeper" && exec setsid java -Xmx256m -cp "$ZK_JARS" \
    org.apache.zookeeper.server.quorum.QuorumPeerMain "$DIR/zookeeper/zoo.cfg" \
    </dev/null >>"$DIR/zookeeper.log" 2>&1 9>&-) &
  pid=$!
  echo "$pid" >"$DIR/zookeeper.pid"
  for ((i = 0; i < START_TIMEOUT * 2; i++)); do
    kill -0 "$pid" 2>/dev/null || fail "zookeeper: exited during startup; see $DIR/zookeeper.log"
    if zk_answers; then
      echo "zookeeper: up (pid $pid), $HOST:$ZK_PORT"
      return 0
    fi
    sleep 0.5
  done
  fail "zookeeper: no answer on $HOST:$ZK_PORT within ${START_TIMEOUT}s; see $DIR/zookeeper.log"
}

# ---------------------------------------------------------------------------------------
# ClickHouse nodes

node_dir() { echo "$DIR/node$1"; }
node_alive() { pid_matches "$(read_pid "$DIR/node$1.pid")" "$(node_dir "$1")/config.xml"; }

node_answers() {
  [ "$(cd / && timeout 10 clickhouse-client --host "$HOST" --port "$(tcp_port "$1")" -q 'SELECT 1' 2>/dev/null)" = "1" ]
}

replica_xml() {
  echo "        <replica><host>$HOST</host><port>$(tcp_port "$1")</port></replica>"
}

node_config() {
  local n=$1 d
  d=$(node_dir "$n")
  mkdir -p "$d/data/tmp" "$d/data/user_files" "$d/data/format_schemas" "$d/log"
  cat >"$d/config.xml" <<EOF
<?xml version="1.0"?>
<!-- Written by scripts/cluster.sh on every start; edit the script, not this file. -->
<yandex>
    <logger>
        <level>information</level>
        <log>$d/log/server.log</log>
        <errorlog>$d/log/server.err.log</errorlog>
        <size>100M</size>
        <count>3</count>
    </logger>
    <listen_host>$HOST</listen_host>
    <tcp_port>$(tcp_port "$n")</tcp_port>
    <http_port>$(http_port "$n")</http_port>
    <interserver_http_port>$(interserver_port "$n")</interserver_http_port>
    <interserver_http_host>$HOST</interserver_http_host>
    <max_connections>1024</max_connections>
    <keep_alive_timeout>3</keep_alive_timeout>
    <max_concurrent_queries>100</max_concurrent_queries>
    <uncompressed_cache_size>8589934592</uncompressed_cache_size>
    <mark_cache_size>536870912</mark_cache_size>
    <path>$d/data/</path>
    <tmp_path>$d/data/tmp/</tmp_path>
    <user_files_path>$d/data/user_files/</user_files_path>
    <format_schema_path>$d/data/format_schemas/</format_schema_path>
    <users_config>$d/users.xml</users_config>
    <default_profile>default</default_profile>
    <default_database>default</default_database>
    <timezone>UTC</timezone>
    <builtin_dictionaries_reload_interval>3600</builtin_dictionaries_reload_interval>
    <max_session_timeout>3600</max_session_timeout>
    <default_session_timeout>60</default_session_timeout>
    <remote_servers>
        <$CLUSTER>
            <shard>
                <internal_replication>true</internal_replication>
$(replica_xml 1)
$(replica_xml 2)
            </shard>
            <shard>
                <internal_replication>true</internal_replication>
$(replica_xml 3)
$(replica_xml 4)
            </shard>
        </$CLUSTER>
    </remote_servers>
    <zookeeper>
        <node><host>$HOST</host><port>$ZK_PORT</port></node>
        <session_timeout_ms>10000</session_timeout_ms>
    </zookeeper>
    <macros>
        <cluster>$CLUSTER</cluster>
        <shard>$(shard_of "$n")</shard>
        <replica>$(replica_of "$n")</replica>
    </macros>
    <!-- Finished DDL tasks are dropped after 10 minutes and the queue is kept to 200:
         every node walks the whole queue on each new task, and the tests make a
         database (about 40 tasks) per test. -->
    <distributed_ddl>
        <path>/clickhouse/task_queue/ddl</path>
        <cleanup_delay_period>30</cleanup_delay_period>
        <task_max_lifetime>600</task_max_lifetime>
        <max_tasks_in_queue>200</max_tasks_in_queue>
    </distributed_ddl>
</yandex>
EOF
  cat >"$d/users.xml" <<EOF
<?xml version="1.0"?>
<yandex>
    <profiles>
        <default>
            <max_memory_usage>4000000000</max_memory_usage>
            <load_balancing>in_order</load_balancing>
            <!-- What a node writes into a Distributed table on its own (a Buffer's flush of
                 the event log) reaches the shards before the flush returns, as fourd's own
                 inserts do (it sets this for its sessions). -->
            <insert_distributed_sync>1</insert_distributed_sync>
        </default>
    </profiles>
    <users>
        <default>
            <password></password>
            <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
            <profile>default</profile>
            <quota>default</quota>
        </default>
    </users>
    <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors>
        <result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time>
    </interval></default></quotas>
</yandex>
EOF
}

node_launch() {
  local n=$1 d pid
  d=$(node_dir "$n")
  if node_alive "$n"; then
    return 0
  fi
  require_free_port "node $n" "$(tcp_port "$n")"
  require_free_port "node $n" "$(http_port "$n")"
  require_free_port "node $n" "$(interserver_port "$n")"
  node_config "$n"
  (cd "$d" && MALLOC_CONF=${FOURD_CLICKHOUSE_MALLOC_CONF-oversize_threshold:0} \
    exec setsid "$(find_bin clickhouse-server)" --config-file="$d/config.xml" </dev/null >>"$d/stdout.log" 2>&1 9>&-) &
  pid=$!
  echo "$pid" >"$DIR/node$n.pid"
}

node_wait() {
  local n=$1 i pid
  pid=$(read_pid "$DIR/node$n.pid")
  for ((i = 0; i < START_TIMEOUT * 2; i++)); do
    kill -0 "$pid" 2>/dev/null || fail "node $n: clickhouse-server exited during startup; see $(node_dir "$n")/log/server.err.log"
    if node_answers "$n"; then
      echo "node $n: up (pid $pid), shard $(shard_of "$n") replica $(replica_of "$n"), native $HOST:$(tcp_port "$n")"
      return 0
    fi
    sleep 0.5
  done
  fail "node $n: no answer on $HOST:$(tcp_port "$n") within ${START_TIMEOUT}s; see $(node_dir "$n")/log/server.err.log"
}

stop_pid() {
  local what=$1 pidfile=$2 marker=$3 pid i
  pid=$(read_pid "$pidfile")
  if ! pid_matches "$pid" "$marker"; then
    rm -f "$pidfile"
    echo "$what: not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
  echo "$what: stopped (pid $pid)"
}

node_stop() { stop_pid "node $1" "$DIR/node$1.pid" "$(node_dir "$1")/config.xml"; }

check_node() {
  case "${1:-}" in 1 | 2 | 3 | 4) ;; *) fail "node must be 1, 2, 3 or 4" ;; esac
}

lock() {
  exec 9>>"$DIR/.lock"
  flock -w 300 9 || fail "another cluster.sh start/stop has held $DIR/.lock for 5 minutes"
}

start() {
  install
  zk_start
  local n
  for n in "${NODES[@]}"; do node_launch "$n"; done
  for n in "${NODES[@]}"; do node_wait "$n"; done
  echo "cluster: $CLUSTER up; FOURD_CLICKHOUSE_CLUSTER=$CLUSTER FOURD_CLICKHOUSE_URL=clickhouse://$HOST:$(tcp_port 1)/default"
}

stop() {
  local n
  for n in "${NODES[@]}"; do node_stop "$n"; done
  stop_pid zookeeper "$DIR/zookeeper.pid" "$DIR/zookeeper/zoo.cfg"
}

status() {
  local rc=0 n
  if zk_alive && zk_answers; then echo "zookeeper: up, $HOST:$ZK_PORT"; else echo "zookeeper: down"; rc=3; fi
  for n in "${NODES[@]}"; do
    if node_alive "$n" && node_answers "$n"; then
      echo "node $n: up, shard $(shard_of "$n") replica $(replica_of "$n"), native $HOST:$(tcp_port "$n")"
    else
      echo "node $n: down"
      rc=3
    fi
  done
  return "$rc"
}

main() {
  mkdir -p "$DIR"
  case "${1:-}" in
  start) lock; start ;;
  stop) lock; stop ;;
  status) status || exit 3 ;;
  stop-node) check_node "${2:-}"; lock; node_stop "$2" ;;
  start-node) check_node "${2:-}"; lock; node_launch "$2"; node_wait "$2" ;;
  reset) lock; stop; rm -rf "$DIR"/node[1-4] "$DIR/zookeeper/data"; echo "cluster: data removed" ;;
  stop-zookeeper) lock; stop_pid zookeeper "$DIR/zookeeper.pid" "$DIR/zookeeper/zoo.cfg" ;;
  start-zookeeper) lock; zk_start ;;
  *) echo "usage: $0 start|stop|status|reset|stop-node N|start-node N|stop-zookeeper|start-zookeeper" >&2; exit 2 ;;
  esac
}

main "$@"
