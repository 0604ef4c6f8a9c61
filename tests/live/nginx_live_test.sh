#!/usr/bin/env bash
# Live oracle for the nginx algorithm: asks nginx itself (Debian's nginx-light
# 1.22, `hash $arg_key consistent;`) which upstream server each key goes to
# and compares with what the jumphash CLI prints for
#   ALGO nginx / NODES <the same server strings> / HASH "<key>".
#
# Usage: nginx_live_test.sh PATH_TO_JUMPHASH_CLI
# Environment: NGINX (default /usr/sbin/nginx), LIVE_KEYS (default 300).
# Exit status: 0 every key matches, 1 some differ (each printed) or a step
# failed, 77 nginx or curl is not installed (CTest's skip).
#
# nginx runs in the foreground (daemon off, master_process off) in a temporary
# prefix; every listener is on loopback: the front on 127.0.0.1:PORT and the
# upstream servers on 127.0.0.2..127.0.0.11:PORT, each answering its own
# "$server_addr:$server_port", which is exactly the server string of the
# upstream block. Three upstreams are checked: ten equal servers, weighted
# servers (weight=2 and 3), and the ten minus a middle one.
set -u
set -f  # node lists are split on blanks; "host:port*2" is no glob

cli=${1:?usage: nginx_live_test.sh PATH_TO_JUMPHASH_CLI}
nginx_bin=${NGINX:-/usr/sbin/nginx}
key_count=${LIVE_KEYS:-300}

if [ ! -x "$nginx_bin" ]; then
  echo "skipped: nginx is not installed ($nginx_bin)"
  exit 77
fi
if ! command -v curl >/dev/null 2>&1; then
  echo "skipped: curl is not installed"
  exit 77
fi
if [ ! -x "$cli" ]; then
  echo "error: $cli is not an executable jumphash CLI"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/jumphash-nginx.XXXXXX")
nginx_pid=
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null
    wait "$nginx_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

# The upstreams, as NODES tokens with PORT for the port: name "host:PORT",
# weight as "*w". Their nginx form is derived from these.
declare -A upstream_nodes=(
  [plain]="127.0.0.2:PORT 127.0.0.3:PORT 127.0.0.4:PORT 127.0.0.5:PORT 127.0.0.6:PORT
           127.0.0.7:PORT 127.0.0.8:PORT 127.0.0.9:PORT 127.0.0.10:PORT 127.0.0.11:PORT"
  [weighted]="127.0.0.2:PORT 127.0.0.3:PORT*2 127.0.0.4:PORT 127.0.0.5:PORT*2 127.0.0.6:PORT*3"
  [middle_removed]="127.0.0.2:PORT 127.0.0.3:PORT 127.0.0.4:PORT 127.0.0.5:PORT
                    127.0.0.7:PORT 127.0.0.8:PORT 127.0.0.9:PORT 127.0.0.10:PORT 127.0.0.11:PORT"
)
upstreams="plain weighted middle_removed"

# `server host:port weight=w;` lines of one upstream.
nginx_servers() {
  local token
  for token in $1; do
    case $token in
      *\**) echo "    server ${token%\**} weight=${token##*\*};" ;;
      *) echo "    server $token;" ;;
    esac
  done
}

# Temp paths of the modules this nginx has, inside the prefix (nginx creates
# them at start-up; their compiled-in defaults are under /var/lib/nginx).
temp_paths() {
  local module version
  version=$("$nginx_bin" -V 2>&1)
  echo "    client_body_temp_path $work/client_body;"
  for module in proxy fastcgi uwsgi scgi; do
    case $version in
      *--without-http_${module}_module*) ;;
      *) echo "    ${module}_temp_path $work/$module;" ;;
    esac
  done
}

write_config() {
  local port=$1 name servers address
  {
    echo "daemon off;"
    echo "master_process off;"
    echo "pid $work/nginx.pid;"
    echo "error_log $work/error.log warn;"
    echo "events { worker_connections 64; }"
    echo "http {"
    echo "    access_log off;"
    echo "    default_type text/plain;"
    temp_paths
    for name in $upstreams; do
      servers=${upstream_nodes[$name]//PORT/$port}
      echo "    upstream $name {"
      echo "        hash \$arg_key consistent;"
      nginx_servers "$servers"
      echo "    }"
    done
    echo "    server {"
    echo "        listen 127.0.0.1:$port;"
    echo "        proxy_next_upstream off;"
    for name in $upstreams; do
      echo "        location = /$name { proxy_pass http://$name; }"
    done
    echo "    }"
    for address in 2 3 4 5 6 7 8 9 10 11; do
      echo "    server {"
      echo "        listen 127.0.0.$address:$port;"
      echo "        location / { return 200 \"\$server_addr:\$server_port\"; }"
      echo "    }"
    done
    echo "}"
  } >"$work/nginx.conf"
}

# Starts nginx on a free port (a few random tries); sets nginx_pid and port.
start_nginx() {
  for _ in 1 2 3 4 5 6 7 8; do
    port=$((20000 + (RANDOM * 32768 + RANDOM) % 40000))
    write_config "$port"
    : >"$work/error.log"
    "$nginx_bin" -p "$work/" -c "$work/nginx.conf" -e "$work/error.log" >"$work/nginx.out" 2>&1 &
    nginx_pid=$!
    for _ in $(seq 1 50); do
      if ! kill -0 "$nginx_pid" 2>/dev/null; then break; fi
      if curl --noproxy '*' -s -o /dev/null --max-time 1 "http://127.0.0.11:$port/"; then
        return 0
      fi
      sleep 0.1
    done
    kill "$nginx_pid" 2>/dev/null
    wait "$nginx_pid" 2>/dev/null
    nginx_pid=
    if ! grep -q "Address already in use" "$work/error.log" "$work/nginx.out"; then
      echo "error: nginx did not start:"
      cat "$work/nginx.out" "$work/error.log"
      return 1
    fi
  done
  echo "error: found no free port for nginx in 8 tries"
  return 1
}

start_nginx || exit 1

keys=()
for ((i = 0; i < key_count; ++i)); do keys+=("key$i"); done
keys+=("user:42" "session-7f3a" "a" "Z" "0" "the.quick_brown~fox")

failures=0
checked=0
for name in $upstreams; do
  servers=${upstream_nodes[$name]//PORT/$port}
  # What nginx picks: one curl for all keys, each body to its own file.
  mkdir -p "$work/out/$name"
  : >"$work/curl.cfg"
  for ((i = 0; i < ${#keys[@]}; ++i)); do
    printf 'url = "http://127.0.0.1:%s/%s?key=%s"\noutput = "%s/out/%s/%d"\n' \
      "$port" "$name" "${keys[i]}" "$work" "$name" "$i" >>"$work/curl.cfg"
  done
  if ! curl --noproxy '*' -s --max-time 60 -K "$work/curl.cfg"; then
    echo "error: curl failed on upstream $name"
    failures=$((failures + 1))
    continue
  fi
  # What jumphash computes for the same server strings.
  {
    echo "ALGO nginx"
    # shellcheck disable=SC2086  # split on purpose: one line of NODES tokens
    echo NODES $servers
    for key in "${keys[@]}"; do echo "HASH \"$key\""; done
  } >"$work/$name.jh"
  if ! timeout 60 "$cli" "$work/$name.jh" >"$work/$name.expected" 2>"$work/$name.errors"; then
    echo "error: $cli failed on the $name script:"
    head -5 "$work/$name.errors"
    failures=$((failures + 1))
    continue
  fi
  mapfile -t expected <"$work/$name.expected"
  if [ "${#expected[@]}" -ne "${#keys[@]}" ]; then
    echo "error: $cli printed ${#expected[@]} lines for ${#keys[@]} keys ($name)"
    failures=$((failures + 1))
    continue
  fi
  for ((i = 0; i < ${#keys[@]}; ++i)); do
    picked=
    # The body has no final newline (read then fails but still fills picked).
    [ -f "$work/out/$name/$i" ] && IFS= read -r picked <"$work/out/$name/$i"
    computed=${expected[i]#"\"${keys[i]}\": "}
    checked=$((checked + 1))
    if [ "$picked" != "$computed" ]; then
      failures=$((failures + 1))
      echo "differs: upstream $name key \"${keys[i]}\": nginx picks ${picked:-<nothing>}, jumphash says ${expected[i]}"
    fi
  done
done

if [ "$failures" -ne 0 ]; then
  echo "FAILED: $failures difference(s) or errors in $checked lookups (nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///'))"
  exit 1
fi
echo "ok: $checked lookups in 3 upstreams match nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///') on port $port"
exit 0
