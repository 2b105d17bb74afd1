#!/usr/bin/env bash
# services.sh — the local service stack fourd's tests, benchmarks and `make run` use:
# ClickHouse, PostgreSQL and Redis, each a private instance with its data under .data/,
# on ports that do not collide with system-wide servers, started as plain background
# processes this script owns (no systemd).
#
#   bash scripts/services.sh start    install (if needed), start, wait until each answers
#   bash scripts/services.sh stop     stop our processes (by pid file), keep the data
#   bash scripts/services.sh status   one line per service; exit 3 when any is not up
#   bash scripts/services.sh cluster start|stop|status
#                                     the local ClickHouse cluster (scripts/cluster.sh)
#
#   ClickHouse  native 127.0.0.1:19000 (database default, user default, no password),
#               http 127.0.0.1:18123, interserver 127.0.0.1:19009
#   PostgreSQL  postgres://fourd@127.0.0.1:55432/fourd?sslmode=disable (superuser, trust)
#   Redis       redis://127.0.0.1:56379/0 (no persistence)
#
# ClickHouse runs with MALLOC_CONF=oversize_threshold:0 (see ch_start); set
# FOURD_CLICKHOUSE_MALLOC_CONF to replace it ("" for jemalloc's defaults).
#
# Logs: .data/clickhouse.log (+ .data/clickhouse.err.log), .data/postgres.log, .data/redis.log.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
DATA="$ROOT/.data"

CH_TCP_PORT=19000
CH_HTTP_PORT=18123
CH_INTERSERVER_PORT=19009
PG_PORT=55432
REDIS_PORT=56379
HOST=127.0.0.1

CH_DIR="$DATA/clickhouse"
CH_PID="$DATA/clickhouse.pid"
CH_LOG="$DATA/clickhouse.log"
CH_ERRLOG="$DATA/clickhouse.err.log"
CH_START_TIMEOUT=60

REDIS_DIR="$DATA/redis"
REDIS_PID="$DATA/redis.pid"
REDIS_LOG="$DATA/redis.log"
REDIS_START_TIMEOUT=20

PG_START_TIMEOUT=60
# PGDATA, PGRUN and PGLOG are set by pg_dirs (they move out of the repository when the
# postgres OS user cannot reach it, e.g. a clone under a 0700 /root).

# chromium: the browser tests (OAuth consent page, GraphiQL) drive it headless.
# poppler-utils: the report tests turn PDFs to text and images (pdftotext, pdftoppm).
PACKAGES=(clickhouse-server clickhouse-client postgresql redis-server chromium poppler-utils)

# A developer's libpq settings (say PGSSLMODE=require) must not redirect our own checks.
unset PGHOST PGHOSTADDR PGPORT PGUSER PGDATABASE PGSSLMODE PGSERVICE PGOPTIONS PGDATA

IS_ROOT=false
[ "$(id -u)" -eq 0 ] && IS_ROOT=true

# ---------------------------------------------------------------------------------------
# helpers

# fail prints the one line that says what went wrong and exits non-zero.
fail() {
  echo "services: $*" >&2
  exit 1
}

# find_bin prints the path of a program, also looking in the sbin folders a non-root PATH lacks.
find_bin() {
  local name=$1 dir
  if command -v "$name" >/dev/null 2>&1; then
    command -v "$name"
    return 0
  fi
  for dir in /usr/sbin /usr/bin /sbin /usr/local/sbin /usr/local/bin; do
    if [ -x "$dir/$name" ]; then
      echo "$dir/$name"
      return 0
    fi
  done
  return 1
}

# pg_bindir prints the PostgreSQL server bin folder: the one matching an existing data
# folder's version, else the highest /usr/lib/postgresql/*/bin, else wherever pg_ctl is.
pg_bindir() {
  local want="" dir link
  if [ -n "${PGDATA:-}" ] && [ -r "$PGDATA/PG_VERSION" ]; then
    want=$(cat "$PGDATA/PG_VERSION")
    if [ -x "/usr/lib/postgresql/$want/bin/pg_ctl" ]; then
      echo "/usr/lib/postgresql/$want/bin"
      return 0
    fi
  fi
  while IFS= read -r dir; do
    if [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  done < <(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV)
  if link=$(find_bin pg_ctl); then
    dir=$(dirname "$(readlink -f "$link")")
    if [ -x "$dir/initdb" ] && [ -x "$dir/postgres" ]; then
      echo "$dir"
      return 0
    fi
  fi
  return 1
}

# psql_bin prints a psql, preferring the one beside the server.
psql_bin() {
  local dir
  if dir=$(pg_bindir) && [ -x "$dir/psql" ]; then
    echo "$dir/psql"
  else
    find_bin psql
  fi
}

# as_root runs a command as root: directly, or through sudo.
as_root() {
  if $IS_ROOT; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    return 127
  fi
}

# as_pg runs a command as the OS user that owns the PostgreSQL data: postgres when we are
# root (PostgreSQL refuses to run as root), else ourselves.
as_pg() {
  if $IS_ROOT; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# port_in_use reports whether something accepts connections on 127.0.0.1:port.
port_in_use() {
  timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" >/dev/null 2>&1
}

# port_holder describes who holds a port, when ss can tell.
port_holder() {
  local who=""
  if command -v ss >/dev/null 2>&1; then
    who=$(ss -Hltnp "( sport = :$1 )" 2>/dev/null |
      sed -n 's/.*users:(("\([^"]*\)",pid=\([0-9]*\).*/\1, pid \2/p' | head -n1)
  fi
  echo "${who:-another process}"
}

# require_free_ports fails when any of the given ports is already taken.
require_free_ports() {
  local svc=$1 port
  shift
  for port in "$@"; do
    if port_in_use "$port"; then
      fail "$svc: port $HOST:$port is already in use by something that is not ours ($(port_holder "$port")); stop it or free the port (our log: $LOG_HINT)"
    fi
  done
}

# pid_matches reports whether pid is alive and its command line contains the marker.
pid_matches() {
  local pid=$1 marker=$2
  [ -n "$pid" ] && [ "$pid" -gt 0 ] 2>/dev/null || return 1
  [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$marker"
}

read_pid() {
  if [ -r "$1" ]; then
    head -n1 "$1" | tr -dc '0-9'
  fi
}

# sed_repl escapes a string for use as a sed replacement with | as the delimiter.
sed_repl() {
  printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'
}

ensure_data_dir() {
  mkdir -p "$DATA"
  # The postgres OS user must be able to traverse .data; the secret in it is 0600 itself.
  chmod 0755 "$DATA"
}

# ---------------------------------------------------------------------------------------
# install

binaries_missing() {
  local b
  for b in clickhouse-server clickhouse-client redis-server redis-cli chromium pdftotext pdftoppm; do
    find_bin "$b" >/dev/null || return 0
  done
  pg_bindir >/dev/null || return 0
  psql_bin >/dev/null || return 0
  return 1
}

install_packages() {
  binaries_missing || return 0
  local log="$DATA/install.log" policy=/usr/sbin/policy-rc.d made_policy=false
  if ! $IS_ROOT && ! command -v sudo >/dev/null 2>&1; then
    fail "install: ${PACKAGES[*]} are missing and we are neither root nor have sudo; install them and retry"
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    fail "install: ${PACKAGES[*]} are missing and apt-get is not available; install them and retry"
  fi
  echo "services: installing ${PACKAGES[*]} (log: $log)"
  : >"$log"
  # Keep the packages from starting their own system-wide servers (we run private ones;
  # in a container that start would fail anyway). Only when no policy is in place already.
  if [ ! -e "$policy" ]; then
    if as_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 0755 $policy" >>"$log" 2>&1; then
      made_policy=true
      trap 'as_root rm -f '"$policy"' >/dev/null 2>&1 || true' EXIT
    fi
  fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >>"$log" 2>&1 ||
    echo "apt-get update failed; trying the install with the existing lists" >>"$log"
  local rc=0
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${PACKAGES[@]}" >>"$log" 2>&1 || rc=$?
  if $made_policy; then
    as_root rm -f "$policy" >/dev/null 2>&1 || true
    trap - EXIT
  fi
  if binaries_missing; then
    fail "install: apt-get install ${PACKAGES[*]} failed (exit $rc); see $log"
  fi
  if [ "$rc" -ne 0 ]; then
    # Typically a package's own service start failing in a container: the binaries are in place.
    echo "services: apt-get exited $rc but the binaries are installed; continuing (log: $log)"
  fi
}

# ---------------------------------------------------------------------------------------
# ClickHouse

ch_alive() { pid_matches "$(read_pid "$CH_PID")" "$CH_DIR/config.xml"; }

ch_answers() {
  local client
  client=$(find_bin clickhouse-client) || return 1
  # From /: clickhouse-client aborts in a deleted working directory.
  [ "$(cd / && timeout 10 "$client" --host "$HOST" --port "$CH_TCP_PORT" -q 'SELECT 1' 2>/dev/null)" = "1" ]
}

# ch_write_config makes the private config: a copy of the system one with every path moved
# under .data/clickhouse, our ports, 127.0.0.1 only, and no other listeners.
ch_write_config() {
  local src=/etc/clickhouse-server d f root_close
  [ -r "$src/config.xml" ] || fail "clickhouse: $src/config.xml is missing; reinstall clickhouse-server"
  mkdir -p "$CH_DIR/data/tmp" "$CH_DIR/data/user_files" "$CH_DIR/data/format_schemas" "$CH_DIR/log"
  rm -rf "$CH_DIR/config.d" "$CH_DIR/users.d" "$CH_DIR/conf.d"
  cp "$src/config.xml" "$CH_DIR/config.xml"
  if [ -r "$src/users.xml" ]; then
    cp "$src/users.xml" "$CH_DIR/users.xml"
  fi
  # Drop-in folders are merged relative to the config file, so copy them along.
  for d in config.d users.d conf.d; do
    if [ -d "$src/$d" ]; then
      mkdir -p "$CH_DIR/$d"
      cp -R "$src/$d/." "$CH_DIR/$d/"
    fi
  done

  local data log datadir
  datadir=$(sed_repl "$CH_DIR/data")
  log=$(sed_repl "$CH_DIR/log")
  data=$(sed_repl "$DATA")
  local script
  script=$(
    cat <<EOF
s|/var/lib/clickhouse/|$datadir/|g
s|/var/lib/clickhouse\\b|$datadir|g
s|/var/log/clickhouse-server/|$log/|g
s|<log>[^<]*</log>|<log>$data/clickhouse.log</log>|
s|<errorlog>[^<]*</errorlog>|<errorlog>$data/clickhouse.err.log</errorlog>|
s|<tmp_path>[^<]*</tmp_path>|<tmp_path>$datadir/tmp/</tmp_path>|
s|<user_files_path>[^<]*</user_files_path>|<user_files_path>$datadir/user_files/</user_files_path>|
s|<format_schema_path>[^<]*</format_schema_path>|<format_schema_path>$datadir/format_schemas/</format_schema_path>|
s|<users_config>/etc/clickhouse-server/|<users_config>|
s|<tcp_port>[^<]*</tcp_port>|<tcp_port>$CH_TCP_PORT</tcp_port>|
s|<http_port>[^<]*</http_port>|<http_port>$CH_HTTP_PORT</http_port>|
s|<interserver_http_port>[^<]*</interserver_http_port>|<interserver_http_port>$CH_INTERSERVER_PORT</interserver_http_port>|
/^[[:space:]]*<\\(https_port\\|tcp_port_secure\\|interserver_https_port\\|mysql_port\\|postgresql_port\\|grpc_port\\|tcp_with_proxy_port\\|listen_host\\)>[^<]*<\\/[a-z_]*>[[:space:]]*\$/d
EOF
  )
  find "$CH_DIR" -maxdepth 2 -name '*.xml' -not -path "$CH_DIR/data/*" -print0 |
    while IFS= read -r -d '' f; do sed -i -e "$script" "$f"; done

  # Listen on 127.0.0.1 only (the default would add ::1).
  root_close=$(grep -o '</\(yandex\|clickhouse\)>' "$CH_DIR/config.xml" | tail -n1)
  [ -n "$root_close" ] || fail "clickhouse: cannot find the root element in $src/config.xml"
  sed -i -e "s|^\\([[:space:]]*\\)$(sed_repl "$root_close")[[:space:]]*\$|    <listen_host>$HOST</listen_host>\\n\\1$(sed_repl "$root_close")|" "$CH_DIR/config.xml"

  grep -q "<path>$CH_DIR/data/</path>" "$CH_DIR/config.xml" ||
    fail "clickhouse: could not relocate <path> in the copy of $src/config.xml (unexpected layout); see $CH_DIR/config.xml"
  [ "$(grep -c "<listen_host>$HOST</listen_host>" "$CH_DIR/config.xml")" -eq 1 ] ||
    fail "clickhouse: could not set listen_host in the copy of $src/config.xml; see $CH_DIR/config.xml"
  if grep -rqs -e '/var/lib/clickhouse' -e '/var/log/clickhouse' --include='*.xml' "$CH_DIR/config.xml" "$CH_DIR/users.xml" "$CH_DIR/config.d" "$CH_DIR/users.d" "$CH_DIR/conf.d"; then
    fail "clickhouse: a system path is left in the private config under $CH_DIR"
  fi
}

ch_start() {
  LOG_HINT="$CH_LOG"
  local server pid i
  if ch_alive; then
    pid=$(read_pid "$CH_PID")
    for ((i = 0; i < CH_START_TIMEOUT; i++)); do
      if ch_answers; then
        echo "clickhouse: already running (pid $pid), native $HOST:$CH_TCP_PORT, http $HOST:$CH_HTTP_PORT"
        return 0
      fi
      sleep 1
    done
    fail "clickhouse: our server (pid $pid) is running but does not answer on $HOST:$CH_TCP_PORT; see $CH_LOG and $CH_ERRLOG"
  fi
  rm -f "$CH_PID"
  server=$(find_bin clickhouse-server) || fail "clickhouse: clickhouse-server is not installed"
  find_bin clickhouse-client >/dev/null || fail "clickhouse: clickhouse-client is not installed"
  require_free_ports clickhouse "$CH_TCP_PORT" "$CH_HTTP_PORT" "$CH_INTERSERVER_PORT"
  ch_write_config
  echo "---- $(date -u +%FT%TZ) services.sh: starting clickhouse-server" >>"$CH_LOG"
  # Debian's clickhouse-server uses the system's jemalloc with its defaults,
  # which give allocations over 8 MiB back to the kernel as soon as they are
  # freed, so every INSERT faults its column buffers in again; ClickHouse's
  # own builds set oversize_threshold:0 (ClickHouse issue 11121), which here
  # cut the server's page faults during a snapshot write by ~40% and its
  # INSERT CPU by ~9% (session 11 in
  # `git show 77779a1^:docs/benchmarks.md`). FOURD_CLICKHOUSE_MALLOC_CONF
  # overrides it ("" for jemalloc's defaults).
  # setsid: a Ctrl-C on `make run` must not reach the servers.
  (cd "$CH_DIR" && MALLOC_CONF=${FOURD_CLICKHOUSE_MALLOC_CONF-oversize_threshold:0} \
    exec setsid "$server" --config-file="$CH_DIR/config.xml" </dev/null >>"$CH_LOG" 2>&1 9>&-) &
  pid=$!
  echo "$pid" >"$CH_PID"
  for ((i = 0; i < CH_START_TIMEOUT * 2; i++)); do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$CH_PID"
      fail "clickhouse: clickhouse-server exited during startup; see $CH_LOG and $CH_ERRLOG"
    fi
    if ch_answers; then
      echo "clickhouse: up (pid $pid), native $HOST:$CH_TCP_PORT, http $HOST:$CH_HTTP_PORT, log $CH_LOG"
      return 0
    fi
    sleep 0.5
  done
  fail "clickhouse: no answer on $HOST:$CH_TCP_PORT within ${CH_START_TIMEOUT}s (pid $pid left running; 'scripts/services.sh stop' ends it); see $CH_LOG and $CH_ERRLOG"
}

ch_stop() {
  local pid i
  pid=$(read_pid "$CH_PID")
  if ! ch_alive; then
    rm -f "$CH_PID"
    echo "clickhouse: not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$CH_PID"
  echo "clickhouse: stopped (pid $pid)"
}

ch_status() {
  local pid
  pid=$(read_pid "$CH_PID")
  if ! ch_alive; then
    echo "clickhouse: stopped"
    return 1
  fi
  if ch_answers; then
    echo "clickhouse: up (pid $pid), native $HOST:$CH_TCP_PORT, http $HOST:$CH_HTTP_PORT"
    return 0
  fi
  echo "clickhouse: running (pid $pid) but not answering on $HOST:$CH_TCP_PORT; see $CH_LOG"
  return 1
}

# ---------------------------------------------------------------------------------------
# PostgreSQL

# pg_dirs sets PGDATA, PGRUN and PGLOG. The data lives in .data/postgres; when the postgres
# OS user cannot reach the repository, it lives under its home and .data/postgres links there.
pg_dirs() {
  if [ -L "$DATA/postgres" ]; then
    PGDATA=$(readlink -f "$DATA/postgres")
    PGRUN="$(dirname "$PGDATA")/run"
    PGLOG="$(dirname "$PGDATA")/postgres.log"
  else
    PGDATA="$DATA/postgres"
    PGRUN="$DATA/postgres-run"
    PGLOG="$DATA/postgres.log"
  fi
}

pg_pid() { read_pid "$PGDATA/postmaster.pid"; }

pg_alive() { pid_matches "$(pg_pid)" "$PGDATA"; }

pg_answers() {
  local psql
  psql=$(psql_bin) || return 1
  [ "$(PGCONNECT_TIMEOUT=5 timeout 10 "$psql" -X -tA -h "$HOST" -p "$PG_PORT" -U fourd -d fourd -c 'select 1' 2>/dev/null)" = "1" ]
}

pg_su() {
  local psql
  psql=$(psql_bin)
  PGCONNECT_TIMEOUT=5 "$psql" -X -q -tA -v ON_ERROR_STOP=1 -h "$HOST" -p "$PG_PORT" -U postgres -d postgres "$@"
}

# pg_relocate_if_unreachable moves the data folder to the postgres user's home when that
# user cannot reach .data (only matters when we are root).
pg_relocate_if_unreachable() {
  $IS_ROOT || return 0
  [ -e "$DATA/postgres" ] && return 0
  if runuser -u postgres -- test -x "$DATA" 2>/dev/null; then
    return 0
  fi
  local home base
  home=$(getent passwd postgres | cut -d: -f6)
  [ -n "$home" ] && [ -d "$home" ] || home=/var/tmp
  base="$home/fourd-$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
  mkdir -p "$base/data"
  chown -R postgres:postgres "$base"
  chmod 0755 "$base"
  ln -sfn "$base/data" "$DATA/postgres"
  ln -sfn "$base/postgres.log" "$DATA/postgres.log"
  echo "services: postgres cannot reach $DATA; its data lives in $base (linked from .data/postgres)"
}

pg_init() {
  local bindir=$1
  [ -s "$PGDATA/PG_VERSION" ] && return 0
  # A half-made folder from a failed initdb: start over (it holds no data yet).
  rm -rf "$PGDATA"
  mkdir -p "$PGDATA"
  chmod 0700 "$PGDATA"
  $IS_ROOT && chown postgres:postgres "$PGDATA"
  echo "---- $(date -u +%FT%TZ) services.sh: initdb $PGDATA" >>"$PGLOG"
  if ! as_pg "$bindir/initdb" -D "$PGDATA" -U postgres --auth=trust -E UTF8 --locale=C --no-sync >>"$PGLOG" 2>&1; then
    fail "postgres: initdb failed for $PGDATA; see $PGLOG"
  fi
  echo "include_if_exists = 'fourd.conf'" >>"$PGDATA/postgresql.conf"
}

pg_write_config() {
  local owner=""
  $IS_ROOT && owner=postgres
  mkdir -p "$PGRUN"
  cat >"$PGDATA/fourd.conf" <<EOF
# Written by scripts/services.sh on every start; edit the script, not this file.
listen_addresses = '$HOST'
port = $PG_PORT
unix_socket_directories = '$PGRUN'
max_connections = 200
# Bulk writes (an audit's or an import's events into the outbox) checkpoint
# constantly with the defaults (128MB buffers, 1GB of WAL); these suit a
# developer machine and CI, and cost nothing when idle.
shared_buffers = 512MB
max_wal_size = 4GB
wal_buffers = 16MB
checkpoint_completion_target = 0.9
EOF
  if [ -n "$owner" ]; then
    chown "$owner:$owner" "$PGRUN" "$PGDATA/fourd.conf"
    # The data must be postgres's (for example after a run as another user).
    if [ "$(stat -c %U "$PGDATA")" != "$owner" ]; then
      chown -R "$owner:$owner" "$PGDATA"
    fi
  fi
  touch "$PGLOG"
  [ -n "$owner" ] && chown "$owner:$owner" "$PGLOG"
  return 0
}

pg_ensure_role_db() {
  pg_su -c "DO \$\$BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'fourd') THEN CREATE ROLE fourd LOGIN SUPERUSER; END IF;
    END\$\$;" >>"$PGLOG" 2>&1 || return 1
  if [ "$(pg_su -c "SELECT 1 FROM pg_database WHERE datname = 'fourd'" 2>>"$PGLOG")" != "1" ]; then
    pg_su -c 'CREATE DATABASE fourd OWNER fourd' >>"$PGLOG" 2>&1 || return 1
  fi
}

pg_start() {
  local bindir pid i
  pg_dirs
  LOG_HINT="$PGLOG"
  if pg_alive; then
    pid=$(pg_pid)
    for ((i = 0; i < PG_START_TIMEOUT; i++)); do
      if pg_answers; then
        echo "postgres: already running (pid $pid), postgres://fourd@$HOST:$PG_PORT/fourd?sslmode=disable"
        return 0
      fi
      sleep 1
    done
    fail "postgres: our server (pid $pid) is running but fourd@$HOST:$PG_PORT/fourd does not answer; see $PGLOG"
  fi
  bindir=$(pg_bindir) || fail "postgres: initdb/pg_ctl/postgres not found (looked in /usr/lib/postgresql/*/bin and PATH)"
  $IS_ROOT && ! id postgres >/dev/null 2>&1 && fail "postgres: there is no postgres OS user to run the server as (PostgreSQL refuses root)"
  require_free_ports postgres "$PG_PORT"
  ensure_data_dir
  pg_relocate_if_unreachable
  pg_dirs
  LOG_HINT="$PGLOG"
  touch "$PGLOG"
  $IS_ROOT && chown postgres:postgres "$PGLOG"
  pg_init "$bindir"
  bindir=$(pg_bindir) || true
  # A postmaster.pid left by a dead server whose pid now belongs to another process would
  # make postgres refuse to start.
  if [ -e "$PGDATA/postmaster.pid" ] && ! pg_alive; then
    rm -f "$PGDATA/postmaster.pid"
  fi
  pg_write_config
  echo "---- $(date -u +%FT%TZ) services.sh: pg_ctl start" >>"$PGLOG"
  # pg_ctl's own lines and the server's log share the file, both appending.
  # shellcheck disable=SC2094
  if ! as_pg "$bindir/pg_ctl" -D "$PGDATA" -l "$PGLOG" -w -t "$PG_START_TIMEOUT" start </dev/null >>"$PGLOG" 2>&1 9>&-; then
    fail "postgres: the server did not start on $HOST:$PG_PORT; see $PGLOG"
  fi
  pg_ensure_role_db || fail "postgres: could not create role/database fourd; see $PGLOG"
  for ((i = 0; i < PG_START_TIMEOUT * 2; i++)); do
    if pg_answers; then
      echo "postgres: up (pid $(pg_pid)), postgres://fourd@$HOST:$PG_PORT/fourd?sslmode=disable, log $PGLOG"
      return 0
    fi
    sleep 0.5
  done
  fail "postgres: fourd@$HOST:$PG_PORT/fourd does not answer within ${PG_START_TIMEOUT}s; see $PGLOG"
}

pg_stop() {
  local bindir pid
  pg_dirs
  if ! pg_alive; then
    echo "postgres: not running"
    return 0
  fi
  pid=$(pg_pid)
  bindir=$(pg_bindir) || fail "postgres: pg_ctl not found; stop pid $pid by hand"
  if ! as_pg "$bindir/pg_ctl" -D "$PGDATA" -m fast -w -t 60 stop >>"$PGLOG" 2>&1; then
    fail "postgres: pg_ctl stop failed for pid $pid; see $PGLOG"
  fi
  echo "postgres: stopped (pid $pid)"
}

pg_status() {
  local pid
  pg_dirs
  if ! pg_alive; then
    echo "postgres: stopped"
    return 1
  fi
  pid=$(pg_pid)
  if pg_answers; then
    echo "postgres: up (pid $pid), postgres://fourd@$HOST:$PG_PORT/fourd?sslmode=disable"
    return 0
  fi
  echo "postgres: running (pid $pid) but fourd@$HOST:$PG_PORT/fourd does not answer; see $PGLOG"
  return 1
}

# ---------------------------------------------------------------------------------------
# Redis

redis_alive() { pid_matches "$(read_pid "$REDIS_PID")" "redis-server"; }

redis_answers() {
  local cli
  cli=$(find_bin redis-cli) || return 1
  [ "$(timeout 5 "$cli" -h "$HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]
}

redis_start() {
  LOG_HINT="$REDIS_LOG"
  local server pid i j
  if redis_alive; then
    pid=$(read_pid "$REDIS_PID")
    for ((i = 0; i < REDIS_START_TIMEOUT; i++)); do
      if redis_answers; then
        echo "redis: already running (pid $pid), redis://$HOST:$REDIS_PORT/0"
        return 0
      fi
      sleep 1
    done
    fail "redis: our server (pid $pid) is running but does not answer on $HOST:$REDIS_PORT; see $REDIS_LOG"
  fi
  rm -f "$REDIS_PID"
  server=$(find_bin redis-server) || fail "redis: redis-server is not installed"
  find_bin redis-cli >/dev/null || fail "redis: redis-cli is not installed"
  require_free_ports redis "$REDIS_PORT"
  mkdir -p "$REDIS_DIR"
  cat >"$REDIS_DIR/redis.conf" <<EOF
# Written by scripts/services.sh on every start; edit the script, not this file.
bind $HOST
port $REDIS_PORT
protected-mode yes
daemonize yes
pidfile "$REDIS_PID"
logfile "$REDIS_LOG"
dir "$REDIS_DIR"
save ""
appendonly no
EOF
  echo "---- $(date -u +%FT%TZ) services.sh: starting redis-server" >>"$REDIS_LOG"
  # redis daemonizes itself (fork + setsid) and writes the pid file.
  if ! (cd "$REDIS_DIR" && "$server" "$REDIS_DIR/redis.conf" </dev/null >>"$REDIS_LOG" 2>&1 9>&-); then
    fail "redis: redis-server failed to start; see $REDIS_LOG"
  fi
  for ((i = 0; i < REDIS_START_TIMEOUT * 2; i++)); do
    if redis_answers; then
      for ((j = 0; j < 10; j++)); do
        redis_alive && break
        sleep 0.2
      done
      echo "redis: up (pid $(read_pid "$REDIS_PID")), redis://$HOST:$REDIS_PORT/0, log $REDIS_LOG"
      return 0
    fi
    if ((i > 4)) && ! redis_alive; then
      fail "redis: redis-server exited during startup; see $REDIS_LOG"
    fi
    sleep 0.5
  done
  fail "redis: no answer on $HOST:$REDIS_PORT within ${REDIS_START_TIMEOUT}s; see $REDIS_LOG"
}

redis_stop() {
  local pid i
  pid=$(read_pid "$REDIS_PID")
  if ! redis_alive; then
    rm -f "$REDIS_PID"
    echo "redis: not running"
    return 0
  fi
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$REDIS_PID"
  echo "redis: stopped (pid $pid)"
}

redis_status() {
  local pid
  pid=$(read_pid "$REDIS_PID")
  if ! redis_alive; then
    echo "redis: stopped"
    return 1
  fi
  if redis_answers; then
    echo "redis: up (pid $pid), redis://$HOST:$REDIS_PORT/0"
    return 0
  fi
  echo "redis: running (pid $pid) but not answering on $HOST:$REDIS_PORT; see $REDIS_LOG"
  return 1
}

# ---------------------------------------------------------------------------------------

# lock serializes start and stop: several engineers' `make test` may start the stack at once.
# The servers are launched with fd 9 closed, or they would hold the lock for their lifetime.
lock() {
  exec 9>>"$DATA/.services.lock"
  flock -w 300 9 || fail "another services.sh start/stop has held $DATA/.services.lock for 5 minutes"
}

usage() {
  echo "usage: $0 start|stop|status|cluster start|stop|status" >&2
  exit 2
}

main() {
  if [ "${1:-}" = cluster ]; then
    shift
    exec bash "$ROOT/scripts/cluster.sh" "$@"
  fi
  [ $# -eq 1 ] || usage
  case "$1" in
  start)
    ensure_data_dir
    lock
    install_packages
    ch_start
    pg_start
    redis_start
    ;;
  stop)
    ensure_data_dir
    lock
    ch_stop
    pg_stop
    redis_stop
    ;;
  status)
    local rc=0
    ch_status || rc=3
    pg_status || rc=3
    redis_status || rc=3
    exit "$rc"
    ;;
  *) usage ;;
  esac
}

main "$@"
