#!/usr/bin/env bash
# The distributed topology on one machine, without containers: a 3-node nats-server JetStream
# cluster and one `arbiter serve --only SERVICE` process per service, all on free loopback ports.
#
#   cluster.sh start DIR [--services a,b,...] [--pairing-workers N]
#   cluster.sh stop DIR              SIGTERM every process (services first), wait, report exits
#   cluster.sh kill DIR NAME         SIGKILL one process (fault drills)
#   cluster.sh restart DIR NAME      start a stopped process again: same binary, ports and data
#   cluster.sh status DIR
#
# DIR/cluster.env (shell syntax) holds the addresses: NATS_URLS, and per process NAME
# (registration, round-director, pairing-worker-1.., reporting, rating-worker)
# ARBITER_<NAME>_GRPC and ARBITER_<NAME>_HTTP, NAME upper-cased with '_' for '-'.
# DIR/logs/NAME.log is each process's log; DIR/run/ its pid, ports and exit status.
#
# ARBITER_BIN is the arbiter binary (default: `arbiter` on PATH); NATS_SERVER_BIN the nats
# server (default: nats-server on PATH, else /usr/sbin/nats-server).
set -euo pipefail

SERVICES_ALL="registration,round-director,pairing-worker,reporting,rating-worker"
READY_SECS=${CLUSTER_READY_SECS:-60}

die() { echo "cluster.sh: $*" >&2; exit 2; }

usage() {
  sed -n '5,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

arbiter_bin() {
  local bin=${ARBITER_BIN:-arbiter}
  command -v "$bin" >/dev/null 2>&1 || die "arbiter binary not found: $bin (set ARBITER_BIN)"
  command -v "$bin"
}

nats_bin() {
  if [ -n "${NATS_SERVER_BIN:-}" ]; then echo "$NATS_SERVER_BIN"; return; fi
  if command -v nats-server >/dev/null 2>&1; then command -v nats-server; return; fi
  [ -x /usr/sbin/nats-server ] && { echo /usr/sbin/nats-server; return; }
  die "nats-server not found on PATH or in /usr/sbin (apt-get install nats-server, or set NATS_SERVER_BIN)"
}

# A port nobody listens on, from 20000-32767: below the kernel's ephemeral range, so outgoing
# connections cannot take it before a restart binds it again.
declare -A TAKEN=()
# Sets PORT (not printed: the ports handed out are remembered in this shell).
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + (RANDOM * 32768 + RANDOM) % 12768))
    [ -n "${TAKEN[$p]:-}" ] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      TAKEN[$p]=1
      PORT=$p
      return
    fi
  done
  die "no free port found in 20000-32767"
}

# The status code of GET PATH on 127.0.0.1:PORT, or nothing.
http_status() {
  local port=$1 path=$2 line
  { exec 3<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null || return 0
  printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' "$path" >&3
  IFS=' ' read -r -t 2 _ line _ <&3 || true
  exec 3<&- 3>&-
  echo "${line:-}"
}

alive() { [ -n "${1:-}" ] && kill -0 "$1" 2>/dev/null; }

# Runs CMD... in the background as process NAME: its pid in run/NAME.pid, its exit status in
# run/NAME.exit once it ends (a watcher waits for it, so `stop` can report how it exited).
launch() {
  local dir=$1 name=$2; shift 2
  rm -f "$dir/run/$name.exit" "$dir/run/$name.pid" "$dir/run/$name.address"
  (
    "$@" </dev/null >"$dir/run/$name.out" 2>>"$dir/logs/$name.log" &
    echo $! >"$dir/run/$name.pid"
    set +e
    wait $!
    echo $? >"$dir/run/$name.exit.tmp"
    mv "$dir/run/$name.exit.tmp" "$dir/run/$name.exit"
  ) </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 100); do
    [ -s "$dir/run/$name.pid" ] && return
    sleep 0.05
  done
  die "$name: no pid recorded"
}

pid_of() { cat "$1/run/$2.pid" 2>/dev/null || true; }

start_nats() {
  local dir=$1 nats attempt i j routes
  nats=$(nats_bin)
  for attempt in 1 2 3 4 5; do
    local -a client=() cluster=() monitor=()
    for i in 1 2 3; do
      free_port; client[i]=$PORT
      free_port; cluster[i]=$PORT
      free_port; monitor[i]=$PORT
    done
    for i in 1 2 3; do
      routes=""
      for j in 1 2 3; do
        [ "$i" = "$j" ] || routes+="${routes:+,}nats://127.0.0.1:${cluster[j]}"
      done
      : >"$dir/logs/nats-$i.log"
      launch "$dir" "nats-$i" "$nats" -a 127.0.0.1 -p "${client[i]}" -n "n$i" -js \
        -sd "$dir/data/nats-$i" -m "${monitor[i]}" --cluster_name arbiter-local \
        --cluster "nats://127.0.0.1:${cluster[i]}" --routes "$routes"
    done
    local ok=1 deadline=$((SECONDS + READY_SECS))
    for i in 1 2 3; do
      until [ "$(http_status "${monitor[i]}" '/healthz?js-enabled-only=true')" = 200 ]; do
        if ! alive "$(pid_of "$dir" "nats-$i")" || [ $SECONDS -ge $deadline ]; then
          ok=0; break 2
        fi
        sleep 0.1
      done
    done
    if [ $ok = 1 ]; then
      NATS_URLS="nats://127.0.0.1:${client[1]},nats://127.0.0.1:${client[2]},nats://127.0.0.1:${client[3]}"
      {
        echo "NATS_URLS=$NATS_URLS"
        echo "NATS_MONITOR_URLS=http://127.0.0.1:${monitor[1]},http://127.0.0.1:${monitor[2]},http://127.0.0.1:${monitor[3]}"
      } >>"$dir/cluster.env"
      return
    fi
    for i in 1 2 3; do stop_one "$dir" "nats-$i" INT >/dev/null || true; done
    grep -qs "address already in use" "$dir"/logs/nats-*.log && [ $attempt -lt 5 ] && continue
    die "the nats-server cluster did not become ready; logs in $dir/logs/nats-*.log: $(tail -n 5 "$dir"/logs/nats-*.log)"
  done
}

# Starts arbiter process NAME from run/NAME.conf (BIN, SERVICE, GRPC_PORT, HTTP_PORT) and waits for
# the address line it prints. Returns 3 when a port was taken meanwhile.
spawn_service() {
  local dir=$1 name=$2 line="" deadline
  # shellcheck disable=SC1090
  . "$dir/run/$name.conf"
  # Every process verifies tokens with the same key set: ARBITER_TOKEN_KEYS, else one made for
  # the cluster with an admin token beside it (DIR/admin.token, for `arbiter client --token`).
  local keys="${ARBITER_TOKEN_KEYS:-$dir/token-keys.json}"
  if [ ! -e "$keys" ]; then
    "$BIN" token new-key --token-keys "$keys" >/dev/null || die "cannot create the token keys $keys"
    (umask 077 && "$BIN" token issue --role admin --subject admin --expires 3650d \
      --token-keys "$keys" >"$dir/admin.token") || die "cannot issue the admin token"
  fi
  launch "$dir" "$name" env RUST_LOG="${RUST_LOG:-info}" ARBITER_TOKEN_KEYS="$keys" "$BIN" serve \
    --only "$SERVICE" --nats "$NATS_URLS" --data "$dir/data/$name" \
    --grpc-port "$GRPC_PORT" --http-port "$HTTP_PORT"
  deadline=$((SECONDS + READY_SECS))
  until line=$(grep -m1 'grpc=' "$dir/run/$name.out" 2>/dev/null); do
    if [ -e "$dir/run/$name.exit" ]; then
      grep -qs "address already in use\|Address already in use" "$dir/logs/$name.log" && return 3
      die "$name exited with status $(cat "$dir/run/$name.exit"); its log ($dir/logs/$name.log):
$(tail -n 20 "$dir/logs/$name.log")"
    fi
    [ $SECONDS -ge $deadline ] && die "$name printed no address in ${READY_SECS}s; its log ($dir/logs/$name.log):
$(tail -n 20 "$dir/logs/$name.log")"
    sleep 0.1
  done
  echo "$line" >"$dir/run/$name.address"
}

# Writes the addresses of every arbiter process into cluster.env (after the NATS lines).
write_env() {
  local dir=$1 name key w words
  grep '^NATS_' "$dir/cluster.env" >"$dir/cluster.env.tmp"
  for f in "$dir"/run/*.address; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .address)
    key=$(echo "$name" | tr 'a-z-' 'A-Z_')
    read -r -a words <"$f"
    for w in "${words[@]}"; do
      case $w in
        grpc=*) echo "ARBITER_${key}_GRPC=${w#grpc=}" ;;
        http=*) echo "ARBITER_${key}_HTTP=${w#http=}" ;;
      esac
    done >>"$dir/cluster.env.tmp"
  done
  mv "$dir/cluster.env.tmp" "$dir/cluster.env"
}

start() {
  local dir="" services=$SERVICES_ALL workers=1 name svc rc
  while [ $# -gt 0 ]; do
    case $1 in
      --services) services=${2:?--services needs a comma-separated list}; shift 2 ;;
      --pairing-workers) workers=${2:?--pairing-workers needs a number}; shift 2 ;;
      -*) die "start: unknown option $1" ;;
      *) [ -z "$dir" ] || die "start: one DIR only"; dir=$1; shift ;;
    esac
  done
  [ -n "$dir" ] || usage
  [[ $workers =~ ^[1-9][0-9]*$ ]] || die "--pairing-workers: expected a positive number, got '$workers'"
  local bin
  bin=$(arbiter_bin) || exit 2
  local -a names=()
  IFS=',' read -r -a list <<<"$services"
  for svc in "${list[@]}"; do
    case ",$SERVICES_ALL," in *",$svc,"*) ;; *) die "--services: unknown service '$svc' (known: $SERVICES_ALL)" ;; esac
    if [ "$svc" = pairing-worker ]; then
      for i in $(seq 1 "$workers"); do names+=("pairing-worker-$i:$svc"); done
    else
      names+=("$svc:$svc")
    fi
  done
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if ls "$dir"/run/*.pid >/dev/null 2>&1; then
    for f in "$dir"/run/*.pid; do
      alive "$(cat "$f")" && die "$dir already has a running cluster (cluster.sh stop $dir)"
    done
  fi
  mkdir -p "$dir/logs" "$dir/run" "$dir/data"
  : >"$dir/cluster.env"
  start_nats "$dir"
  for entry in "${names[@]}"; do
    name=${entry%%:*}; svc=${entry#*:}
    for attempt in 1 2 3 4 5; do
      free_port; local grpc=$PORT
      free_port
      printf 'BIN=%q\nSERVICE=%s\nGRPC_PORT=%s\nHTTP_PORT=%s\n' "$bin" "$svc" "$grpc" "$PORT" >"$dir/run/$name.conf"
      rc=0; spawn_service "$dir" "$name" || rc=$?
      [ $rc = 0 ] && break
      [ $attempt -lt 5 ] || die "$name: ports kept being taken"
    done
  done
  write_env "$dir"
  cat "$dir/cluster.env"
}

# SIGTERM (or SIG) to one process; waits up to 30 s, then SIGKILL. Prints how it ended; fails
# when a process asked to stop did not exit 0.
stop_one() {
  local dir=$1 name=$2 sig=${3:-TERM} pid
  pid=$(pid_of "$dir" "$name")
  if ! alive "$pid"; then
    echo "$name: not running"
    return 0
  fi
  kill -s "$sig" "$pid" 2>/dev/null || true
  for _ in $(seq 1 300); do
    [ -e "$dir/run/$name.exit" ] && break
    sleep 0.1
  done
  if [ ! -e "$dir/run/$name.exit" ]; then
    kill -s KILL "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do [ -e "$dir/run/$name.exit" ] && break; sleep 0.1; done
    echo "$name: did not stop within 30 s of SIG$sig, killed"
    return 1
  fi
  local status
  status=$(cat "$dir/run/$name.exit")
  echo "$name: exited $status"
  [ "$sig" = KILL ] || [ "$status" = 0 ]
}

stop() {
  [ $# = 1 ] || usage
  local dir=$1 failed=0 name
  [ -d "$dir/run" ] || die "$dir has no cluster (no $dir/run)"
  # Services before the log they write to.
  for f in "$dir"/run/*.pid; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .pid)
    case $name in nats-*) continue ;; esac
    stop_one "$dir" "$name" || failed=1
  done
  # nats-server exits 1 on SIGTERM, 0 on SIGINT (both shut down cleanly).
  for f in "$dir"/run/nats-*.pid; do
    [ -e "$f" ] || continue
    stop_one "$dir" "$(basename "$f" .pid)" INT || failed=1
  done
  return $failed
}

known() { [ -e "$1/run/$2.pid" ] || die "no process named '$2' in $1 (see $1/run/*.pid)"; }

case ${1:-} in
  start) shift; start "$@" ;;
  stop) shift; stop "$@" ;;
  kill)
    [ $# = 3 ] || usage
    known "$2" "$3"
    stop_one "$2" "$3" KILL ;;
  restart)
    [ $# = 3 ] || usage
    known "$2" "$3"
    alive "$(pid_of "$2" "$3")" && die "$3 is still running"
    case $3 in nats-*) die "restart: arbiter processes only" ;; esac
    NATS_URLS=$(sed -n 's/^NATS_URLS=//p' "$2/cluster.env")
    rc=0; spawn_service "$2" "$3" || rc=$?
    [ $rc = 0 ] || die "$3: its port was taken while it was down"
    write_env "$2" ;;
  status)
    [ $# = 2 ] || usage
    for f in "$2"/run/*.pid; do
      n=$(basename "$f" .pid)
      if alive "$(cat "$f")"; then echo "$n: running (pid $(cat "$f"))"; else echo "$n: stopped"; fi
    done ;;
  *) usage ;;
esac
