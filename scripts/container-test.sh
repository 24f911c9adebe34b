#!/usr/bin/env bash
# The image, tested here (README, "Deploy"; decision 0086): builds the Dockerfile with podman on a
# Debian base made by scripts/container-base.sh, then against this machine's PostgreSQL server,
# in a database of its own that it drops at the end:
#   1. `ferry db migrate` in a one-shot container;
#   2. an API container (`serve --no-worker --processes 2`) and a worker container (`worker`),
#      host network, read-only root file system, all capabilities dropped, as Kubernetes runs them;
#   3. a 200-account `ferry push` (the image's own CLI) through the API; the worker gets SIGTERM
#      mid-push and must exit 0, and a second worker finishes: every account created exactly once;
#   4. SIGTERM to the API while 16 requests at a time schedule accounts: it must exit 0 having
#      answered the requests in flight, and every accepted account is created exactly once;
#   5. the image runs as a non-root user and holds no dev dependency; its size and largest parts.
# Needs root, podman (scripts/install-podman.sh), a PostgreSQL server on 127.0.0.1:5432 that
# trusts `postgres`, and this checkout's dev dependencies (the book generator runs with tsx).
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
say() { printf '[container-test %3ds] %s\n' $((SECONDS - started)) "$*"; }
fail() { say "FAIL: $*"; exit 1; }

pg_isready -h 127.0.0.1 -p 5432 -q || fail "no PostgreSQL server on 127.0.0.1:5432"
work=.tmp/container-test
mkdir -p "$work"
# podman as this sandbox allows it: runc (crun refuses the hybrid cgroup layout), cgroupfs, and
# limits no higher than this process's (podman's defaults raise them: that needs CAP_SYS_RESOURCE).
cat >"$work/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=$(ulimit -Hn):$(ulimit -Hn)", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
CONF
export CONTAINERS_CONF=$PWD/$work/containers.conf

tag=$$
image=localhost/ferry:container-test
db=ferry_container_test_$tag
api=ferry-ct-api-$tag
worker=ferry-ct-worker-$tag
api_port=$((20000 + tag % 20000))
metrics_port=$((api_port + 1))
url=http://127.0.0.1:$api_port
db_url=postgres://postgres@127.0.0.1:5432/$db
operator_key=container-test-operator-key-$tag
psql_db() { psql -h 127.0.0.1 -U postgres -d "$db" -XAtqc "$1"; }

cleanup() {
  podman rm -f -i -t 0 "$api" "$worker" "$worker-2" "ferry-ct-push-$tag" >/dev/null 2>&1 || true
  dropdb -h 127.0.0.1 -U postgres --if-exists --force "$db" 2>/dev/null || true
  # A rebuild moves the tag and leaves the last image and its build stage untagged: drop those.
  podman image prune -f >/dev/null 2>&1 || true
}
trap cleanup EXIT

say "base image"
base=$(bash scripts/container-base.sh)
say "build the image on $base"
# The host's npm cache (filled by this checkout's `npm ci`) is lent to the build's `npm ci`.
cache=()
[ -d "$HOME/.npm/_cacache" ] && cache=(-v "$HOME/.npm:/root/.npm")
podman build --format docker --network host "${cache[@]}" --build-arg "BASE=$base" \
  --build-arg "REVISION=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" \
  -t "$image" . >"$work/build.log" 2>&1 || { tail -40 "$work/build.log"; fail "image build"; }

say "the image runs as non-root and holds no dev dependency"
uid=$(podman run --rm --no-healthcheck --entrypoint id "$image" -u)
[ "$uid" != 0 ] || fail "the image runs as root"
say "  podman run --rm --no-healthcheck --entrypoint id $image -u → $uid"
podman run --rm --no-healthcheck --entrypoint sh "$image" -c '
  for p in typescript tsx @biomejs/biome @redocly/cli fast-check playwright-core dependency-cruiser; do
    [ ! -e "node_modules/$p" ] || { echo "dev dependency in the image: $p"; exit 1; }
  done
  npm ls --omit=dev --depth=0 >/dev/null
  [ ! -e /app/test ] && [ ! -e /app/bench ] && [ ! -e /app/src ] && [ ! -e /app/data ] && [ ! -e /var/lib/ferry/operator-api-key ]' ||
  fail "dev dependency, source, test or data in the image"
say "  no dev dependency (typescript, tsx, @biomejs/biome, ... absent; npm ls --omit=dev clean)"

say "database $db"
createdb -h 127.0.0.1 -U postgres "$db"
run_opts=(--network host --read-only --cap-drop ALL --tmpfs /var/lib/ferry:rw,mode=1777
  -e "DATABASE_URL=$db_url" -e "OPERATOR_API_KEY=$operator_key" -e RATE_LIMIT_PER_SECOND=100000)

say "ferry db migrate (one-shot container)"
podman run --rm --no-healthcheck "${run_opts[@]}" "$image" db migrate || fail "db migrate"

start_api() {
  # Its HEALTHCHECK is run by hand below: podman's timer for it needs systemd (which says so).
  podman run -d --name "$1" "${run_opts[@]}" --health-interval disable -e "PORT=$api_port" \
    "$image" serve --no-worker --processes 2 2> >(grep -v 'systemd connection' >&2) >/dev/null
  for _ in $(seq 1 120); do
    curl -fs "$url/readyz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  podman logs "$1" | tail -20
  fail "$1 not ready"
}
start_worker() {
  podman run -d --name "$1" "${run_opts[@]}" --no-healthcheck -e "METRICS_PORT=$metrics_port" \
    -e WORKER_CONCURRENCY=20 "$image" worker >/dev/null
}
# Stops a container with SIGTERM (`podman stop` sends it to tini, PID 1, which passes it on) and
# checks it ended by itself with exit code 0 within the grace time.
expect_clean_exit() {
  local code
  code=$(podman wait "$1")
  [ "$code" = 0 ] || { podman logs "$1" | tail -30; fail "$1 exited $code after SIGTERM"; }
  say "  $1 stopped on SIGTERM: exit $code"
}

say "API container ($api, port $api_port) and worker container ($worker)"
start_api "$api"
start_worker "$worker"
# Three tries, as the HEALTHCHECK's --retries: a busy machine can be slower than its timeout.
healthy=no
for _ in 1 2 3; do
  podman healthcheck run "$api" >/dev/null 2>&1 && { healthy=yes; break; }
done
[ "$healthy" = yes ] || fail "the image's HEALTHCHECK failed three times on a running API"
say "  the image's HEALTHCHECK passes on the API"

say "supplier and API key through the image's operator CLI"
cli=(podman run --rm --no-healthcheck --network host -e "FERRY_URL=$url" -e "FERRY_OPERATOR_API_KEY=$operator_key" "$image")
"${cli[@]}" supplier create CTEST >/dev/null
api_key=$("${cli[@]}" apikey create container-test --suppliers CTEST --json | node -pe 'JSON.parse(require("fs").readFileSync(0)).key')

npx tsx examples/make-book.ts --supplier CTEST --accounts 500 >"$work/all.ndjson"
# The push runs as the image's user: its folder (book in, report out) is open to it.
rm -rf "$work/push" && mkdir -m 0777 "$work/push"
head -n 200 "$work/all.ndjson" >"$work/push/book.ndjson"
tail -n 300 "$work/all.ndjson" >"$work/load.ndjson"

say "ferry push: 200 accounts through the API; SIGTERM to the worker mid-push"
podman run -d --no-healthcheck --name "ferry-ct-push-$tag" --network host -v "$PWD/$work/push:/work" "$image" \
  push accounts /work/book.ndjson --url "$url" --api-key "$api_key" --concurrency 8 >/dev/null
for _ in $(seq 1 600); do
  created=$(psql_db "SELECT count(*) FROM accounts")
  [ "$created" -ge 30 ] && break
  sleep 0.1
done
say "  $created accounts created: SIGTERM to $worker"
podman stop -t 60 "$worker" >/dev/null
expect_clean_exit "$worker"
say "  $(psql_db "SELECT count(*) FROM accounts") accounts created when it stopped; a second worker goes on"
start_worker "$worker-2"
push_code=$(podman wait "ferry-ct-push-$tag")
podman logs "ferry-ct-push-$tag" 2>&1 | grep -v '^\s*$' | tail -4 | sed 's/^/    /'
[ "$push_code" = 0 ] || fail "ferry push exited $push_code"
read -r processed accounts distinct <<<"$(psql_db "SELECT (SELECT count(*) FROM import_processes WHERE status = 'PROCESSED' AND account_id IS NOT NULL), (SELECT count(*) FROM accounts), (SELECT count(DISTINCT external_account_number) FROM accounts)" | tr '|' ' ')"
[ "$processed" = 200 ] && [ "$accounts" = 200 ] && [ "$distinct" = 200 ] ||
  fail "after the push: $processed processed, $accounts accounts, $distinct distinct (200 each expected)"
say "  push completed through the containers: 200 processed, 200 accounts, each once"

say "SIGTERM to the API ($api) with requests in flight"
node scripts/container-test-load.mjs --url "$url" --api-key "$api_key" --book "$work/load.ndjson" \
  --stop-after 40 --stop "podman kill --signal TERM $api" >"$work/load.json"
expect_clean_exit "$api"
# In flight: started before the API logged the signal and answered 201 after it (one host clock).
podman logs "$api" >"$work/api.log" 2>&1
node -e '
  const fs = require("fs");
  const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
  const parse = (l) => { try { return JSON.parse(l); } catch { return null; } };
  // Each API process logs its own shutdown: the signal reached the service at the first of them.
  const shutdowns = fs.readFileSync(process.argv[2], "utf8").split("\n").map(parse)
    .filter((l) => l?.msg === "shutting down").map((l) => l.time);
  if (!r.signalled || shutdowns.length === 0) { console.error("the API logged no shutdown"); process.exit(1); }
  const first = Math.min(...shutdowns);
  const early = r.answered.filter(([, answered, status]) => status !== 201 && answered < first);
  if (early.length > 0) { console.error(`answered ${early[0][2]} before the signal`); process.exit(1); }
  // In flight, and drained: started before the signal, answered 201 after it.
  const inFlight = r.answered.filter(([started, answered, status]) => status === 201 && started < first && answered >= first).length;
  console.log(`    ${r.accepted.length} accepted, ${inFlight} in flight at the signal and answered, statuses ${JSON.stringify(r.statuses)}, connection errors ${JSON.stringify(r.errors)}`);
  if (inFlight < 1) { console.error("no request was in flight at the signal"); process.exit(1); }
  fs.writeFileSync(process.argv[1] + ".accepted", r.accepted.join("\n") + "\n");
' "$work/load.json" "$work/api.log" || fail "the load on the API"
# Every accepted account is created once, by the worker still running; nothing is left undone.
expected=$((200 + $(wc -l <"$work/load.json.accepted")))
for _ in $(seq 1 600); do
  pending=$(psql_db "SELECT count(*) FROM import_processes WHERE status <> 'PROCESSED'")
  [ "$pending" = 0 ] && break
  sleep 0.1
done
accepted_list=$(sed "s/.*/'&'/" "$work/load.json.accepted" | paste -sd,)
read -r processes accounts distinct missing <<<"$(psql_db "SELECT (SELECT count(*) FROM import_processes), (SELECT count(*) FROM accounts), (SELECT count(DISTINCT external_account_number) FROM accounts), (SELECT count(*) FROM unnest(ARRAY[$accepted_list]) e WHERE NOT EXISTS (SELECT 1 FROM accounts a JOIN import_processes p ON p.account_id = a.id AND p.status = 'PROCESSED' WHERE a.external_account_number = e))" | tr '|' ' ')"
[ "$pending" = 0 ] && [ "$missing" = 0 ] && [ "$accounts" = "$processes" ] && [ "$distinct" = "$accounts" ] &&
  [ "$accounts" -ge "$expected" ] ||
  fail "after the API's SIGTERM: $pending not processed, $missing accepted missing, $processes processes, $accounts accounts ($distinct distinct), at least $expected expected"
say "  none lost: every accepted account created once ($accounts accounts, $processes processes, all PROCESSED)"
podman stop -t 60 "$worker-2" >/dev/null
expect_clean_exit "$worker-2"

say "image size, its five largest parts, and the five largest packages in its node_modules"
podman image inspect "$image" --format '{{.Size}}' | awk '{printf "    %.0f MB (%d bytes)\n", $1 / 1e6, $1}'
podman run --rm --no-healthcheck --entrypoint sh "$image" -c '
  du -sk /usr/local/bin/node /usr/local/lib/node_modules/npm /app/node_modules /app/dist /usr/lib /usr/share /usr/bin /usr/sbin /var /etc 2>/dev/null | sort -rn | head -5
  echo --
  du -sk /app/node_modules/* /app/node_modules/@*/* | sort -rn | head -5' |
  awk '$1 == "--" { print "    node_modules:"; next } { printf "    %6.1f MB  %s\n", $1 / 1024, $2 }'
say "passed in $((SECONDS - started)) s"
