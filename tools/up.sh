#!/usr/bin/env bash
# `npm run up`: the whole platform on this machine, from a fresh clone.
#
#   1. npm install (only when node_modules is missing)
#   2. local PostgreSQL + Redis (tools/stack/stack.sh up; installs them with apt as root)
#   3. build every app and stamp one version (tools/build.sh)
#   4. local admin credentials and JWT secrets, generated once (<state>/local-secrets.env, 0600)
#   5. findings API + worker, certificate API + worker, plugin runner in the background
#      (logs in <state>/logs, 0700, files 0600; pid files in <state>/run); migrations run at API start;
#      the findings API and worker reach the runner API at PLUGIN_RUNNER_URL with the shared
#      PLUGIN_RUNNER_TOKEN (docs/plugins/runner-api.md)
#   6. the findings web UI (apps/findings-web, built to dist/apps/findings-web) served with the
#      API proxied same-origin (apps/findings-web/server/serve.mjs), and the certificate web UI
#      (apps/certificate-web, dist/apps/certificate-web, apps/certificate-web/server/serve.mjs)
#   7. waits for every /health, then prints URLs and credentials
#   The certificate API also serves its Kubernetes credential broker (mutual TLS, on
#   https://localhost:8443, server pair generated once in <state>/k8s/); a loopback stand-in
#   API server (tools/kubectl-certsvc/standin-apiserver.mjs, https://127.0.0.1:6443) is
#   registered as cluster `local`, the admin gets a user_mtls certificate, and
#   <state>/k8s/kubeconfig points kubectl at it through the exec plugin
#   (tools/kubectl-certsvc/local-setup.mjs; docs/certificate-service/kubernetes.md).
#   Needs openssl; UP_SKIP_K8S=1 leaves it out; UP_K8S_BROKER_PORT / UP_K8S_STANDIN_PORT move
#   the two ports (e.g. when a local k3s holds 6443).
#   The local plugin catalog (tools/catalog/plugins built, signed with a local publisher key
#   and served on 127.0.0.1:7080) is the findings service's official catalog source
#   (docs/plugins/catalog.md); UP_SKIP_CATALOG=1 leaves it out.
#
# Re-running restarts the processes cleanly. Stop with `bash tools/down.sh` (add --all to
# stop PostgreSQL and Redis too).
#
# Environment: STACK_STATE_DIR (default /var/tmp/secplatform-stack), UP_HEALTH_TIMEOUT
# (seconds per process, default 180), UP_SKIP_BUILD=1 (reuse dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"

STATE="${STACK_STATE_DIR:-/var/tmp/secplatform-stack}"
RUN_DIR="$STATE/run"
LOG_DIR="$STATE/logs"
SECRETS_FILE="$STATE/local-secrets.env"
HEALTH_TIMEOUT="${UP_HEALTH_TIMEOUT:-180}"
WORKER_SETTLE_SECONDS=5

FINDINGS_PORT=3000
FINDINGS_METRICS_PORT=9090
FINDINGS_WORKER_METRICS_PORT=9091
CERTSVC_PORT=8080
PLUGIN_RUNNER_PORT=7070
PLUGIN_RUNNER_GRPC_PORT=7071
PLUGIN_RUNNER_METRICS_PORT=9092
FINDINGS_WEB_PORT=8081
CERTIFICATE_WEB_PORT=8082
PLUGIN_CATALOG_PORT=7080
PLUGIN_CATALOG_DIR="$STATE/plugin-catalog"
K8S_BROKER_PORT="${UP_K8S_BROKER_PORT:-8443}"
K8S_STANDIN_PORT="${UP_K8S_STANDIN_PORT:-6443}"
K8S_DIR="$STATE/k8s"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
log() { printf '[up] %s\n' "$*"; }
die() {
  printf '[up] error: %s\n' "$*" >&2
  exit 1
}

# ---- 0. prerequisites -------------------------------------------------------------------

command -v node >/dev/null 2>&1 || die "Node.js >= 20.19 is required (Debian: see docs/operations.md)"
node -e '
  const [maj, min] = process.versions.node.split(".").map(Number);
  process.exit(maj > 20 || (maj === 20 && min >= 19) ? 0 : 1);
' || die "Node.js >= 20.19 is required, found $(node -v)"

# ---- 1. dependencies --------------------------------------------------------------------

if [ ! -d node_modules ] || [ ! -e node_modules/.bin/nx ]; then
  step "installing npm dependencies"
  npm install --no-audit --no-fund
fi

# ---- 2. PostgreSQL + Redis --------------------------------------------------------------

step "starting the local stack (PostgreSQL, Redis)"
bash tools/stack/stack.sh up
eval "$(bash tools/stack/stack.sh env)"

# ---- 3. build ---------------------------------------------------------------------------

if [ "${UP_SKIP_BUILD:-}" = 1 ] && [ -f dist/apps/plugin-runner/build-info.json ]; then
  step "reusing the existing build (UP_SKIP_BUILD=1)"
else
  step "building findings-service, certificate-service, plugin-runner"
  bash tools/build.sh
fi
for bundle in findings-service/main.js findings-service/worker.js findings-service/ingest-parser.js certificate-service/main.js \
  certificate-service/worker.js plugin-runner/main.js; do
  [ -f "dist/apps/$bundle" ] || die "dist/apps/$bundle is missing after the build"
done
if [ "${UP_SKIP_BUILD:-}" != 1 ] || [ ! -f dist/apps/findings-web/index.html ]; then
  step "building findings-web (the web UI)"
  CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false npx nx run findings-web:build --outputStyle=static
fi
[ -f dist/apps/findings-web/index.html ] || die "dist/apps/findings-web/index.html is missing after the build"
if [ "${UP_SKIP_BUILD:-}" != 1 ] || [ ! -f dist/apps/certificate-web/index.html ]; then
  step "building certificate-web (the certificate web UI)"
  CI=true NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false npx nx run certificate-web:build --outputStyle=static
fi
[ -f dist/apps/certificate-web/index.html ] ||
  die "dist/apps/certificate-web/index.html is missing after the build"

# ---- 4. local secrets (generated once) ----------------------------------------------------

mkdir -p "$RUN_DIR" "$LOG_DIR"
# Process logs can quote request details: the directory and its files are the owner's only.
chmod 700 "$LOG_DIR"
if [ ! -s "$SECRETS_FILE" ]; then
  step "generating local admin credentials and secrets ($SECRETS_FILE)"
  (
    umask 077
    node -e '
      const { randomBytes } = require("node:crypto");
      const b64 = (n) => randomBytes(n).toString("base64");
      // base64url plus one character of every class, for any password policy.
      const password = () => randomBytes(18).toString("base64url") + "-7Aa";
      const lines = {
        FINDINGS_ADMIN_EMAIL: "admin@findings.local",
        FINDINGS_ADMIN_PASSWORD: password(),
        FINDINGS_JWT_SECRET: b64(48),
        CERTSVC_ADMIN_EMAIL: "admin@certs.local",
        CERTSVC_ADMIN_PASSWORD: password(),
        CERTSVC_JWT_SECRET: b64(48),
        CERTSVC_CA_KEY_ENC_KEY: b64(32),
        PLUGIN_RUNNER_TOKEN: randomBytes(32).toString("base64url"),
      };
      process.stdout.write(
        "# Local development secrets written by tools/up.sh. Never use them elsewhere.\n" +
          Object.entries(lines).map(([k, v]) => `${k}=\x27${v}\x27`).join("\n") + "\n",
      );
    ' >"$SECRETS_FILE.tmp"
    mv "$SECRETS_FILE.tmp" "$SECRETS_FILE"
  )
fi
chmod 600 "$SECRETS_FILE"
# A secrets file from before the runner API has no runner token yet: add one, keep the rest.
if ! grep -q '^PLUGIN_RUNNER_TOKEN=' "$SECRETS_FILE"; then
  printf "PLUGIN_RUNNER_TOKEN='%s'\n" "$(node -p 'require("node:crypto").randomBytes(32).toString("base64url")')" \
    >>"$SECRETS_FILE"
fi
# The key the findings service seals plugin secret settings with (docs/plugins/installation.md).
if ! grep -q '^PLUGIN_SECRETS_KEY=' "$SECRETS_FILE"; then
  printf "PLUGIN_SECRETS_KEY='%s'\n" "$(node -p 'require("node:crypto").randomBytes(32).toString("base64url")')" \
    >>"$SECRETS_FILE"
fi
# The certificate service's keys for webhook secrets and issuer-profile secrets
# (docs/certificate-service/configuration.md): 32 bytes each, added to an older secrets file.
for name in CERTSVC_WEBHOOK_ENC_KEY CERTSVC_SCEP_ENC_KEY; do
  if ! grep -q "^$name=" "$SECRETS_FILE"; then
    printf "%s='%s'\n" "$name" "$(node -p 'require("node:crypto").randomBytes(32).toString("base64")')" \
      >>"$SECRETS_FILE"
  fi
done
# shellcheck disable=SC1090
. "$SECRETS_FILE"

# The Kubernetes broker's TLS server pair and the stand-in API server's, generated once
# (self-signed EC P-256, localhost + 127.0.0.1; each certificate is its own CA for clients).
K8S_ENABLED=false
if [ "${UP_SKIP_K8S:-}" != 1 ]; then
  if command -v openssl >/dev/null 2>&1; then
    mkdir -p "$K8S_DIR"
    chmod 700 "$K8S_DIR"
    for pair in broker standin-apiserver; do
      if [ ! -s "$K8S_DIR/$pair.crt" ] || [ ! -s "$K8S_DIR/$pair.key" ]; then
        step "generating the local TLS pair $K8S_DIR/$pair.{crt,key}"
        (umask 077 && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
          -keyout "$K8S_DIR/$pair.key" -out "$K8S_DIR/$pair.crt" -days 825 \
          -subj "/CN=certsvc local $pair" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
          -addext "extendedKeyUsage=serverAuth" 2>/dev/null)
        chmod 644 "$K8S_DIR/$pair.crt"
      fi
    done
    K8S_ENABLED=true
  else
    log "warning: openssl is missing; the Kubernetes broker is left out (apt-get install openssl)"
  fi
fi

# ---- 5. processes -----------------------------------------------------------------------

step "stopping processes of a previous run"
bash tools/down.sh

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

for port in $FINDINGS_PORT $FINDINGS_METRICS_PORT $FINDINGS_WORKER_METRICS_PORT $CERTSVC_PORT \
  $PLUGIN_RUNNER_PORT $PLUGIN_RUNNER_GRPC_PORT $PLUGIN_RUNNER_METRICS_PORT $FINDINGS_WEB_PORT \
  $CERTIFICATE_WEB_PORT \
  $PLUGIN_CATALOG_PORT $K8S_BROKER_PORT $K8S_STANDIN_PORT; do
  port_open "$port" && die "port $port is already in use by a process that tools/up.sh did not start"
done

STARTED=()

# start <name> <script> [VAR=value ...]: runs `node <script>` detached, output to its log.
start() {
  local name="$1" script="$ROOT/$2" logfile="$LOG_DIR/$1.log"
  shift 2
  if [ -f "$logfile" ]; then
    mv -f "$logfile" "$logfile.1"
    chmod 600 "$logfile.1"
  fi
  (umask 077 && : >"$logfile")
  setsid env "$@" node "$script" >"$logfile" 2>&1 </dev/null &
  printf '%s\n%s\n' "$!" "$script" >"$RUN_DIR/$name.pid"
  STARTED+=("$name")
  log "started $name (pid $!), log $logfile"
}

pid_of() { sed -n 1p "$RUN_DIR/$1.pid"; }
alive() { kill -0 "$(pid_of "$1")" 2>/dev/null; }

fail() {
  local name="$1" reason="$2"
  printf '\n[up] error: %s %s\n' "$name" "$reason" >&2
  printf '[up] last lines of %s:\n' "$LOG_DIR/$name.log" >&2
  tail -n 40 "$LOG_DIR/$name.log" >&2 || true
  printf '\n[up] stopping what was started...\n' >&2
  bash tools/down.sh >&2 || true
  exit 1
}

http_ok() {
  node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(2000) }).then(
      (r) => process.exit(r.ok ? 0 : 1),
      () => process.exit(1),
    );
  ' "$1"
}

# wait_http <name> <url>: until the URL answers 2xx, the process dies, or the timeout.
wait_http() {
  local name="$1" url="$2" deadline=$((SECONDS + HEALTH_TIMEOUT))
  until http_ok "$url"; do
    alive "$name" || fail "$name" "exited before $url answered"
    [ "$SECONDS" -lt "$deadline" ] || fail "$name" "did not answer $url within ${HEALTH_TIMEOUT}s"
    sleep 1
  done
  log "$name is up ($url)"
}

# wait_worker <name> [metrics-url]: alive after a few seconds (and its metrics answer).
wait_worker() {
  local name="$1" url="${2:-}"
  sleep "$WORKER_SETTLE_SECONDS"
  alive "$name" || fail "$name" "exited during start-up"
  if [ -n "$url" ]; then
    wait_http "$name" "$url"
  else
    log "$name is running"
  fi
}

FINDINGS_ENV=(
  "DATABASE_URL=$DATABASE_URL"
  "REDIS_URL=$REDIS_URL"
  "JWT_SECRET=$FINDINGS_JWT_SECRET"
  "LOCAL_AUTH_ENABLED=true"
  "LOCAL_ADMIN_EMAIL=$FINDINGS_ADMIN_EMAIL"
  "LOCAL_ADMIN_PASSWORD=$FINDINGS_ADMIN_PASSWORD"
  "BOOTSTRAP_ADMIN_EMAILS=$FINDINGS_ADMIN_EMAIL"
  "COOKIE_SECURE=false"
  "LOG_FILE_SINK_ENABLED=true"
  "LOG_DIR=$LOG_DIR"
  "PLUGIN_RUNNER_URL=127.0.0.1:$PLUGIN_RUNNER_GRPC_PORT"
  "PLUGIN_RUNNER_TOKEN=$PLUGIN_RUNNER_TOKEN"
  "PLUGIN_SECRETS_KEY=$PLUGIN_SECRETS_KEY"
)
# Feature switches and the settings that go with them, from the caller's environment
# (`FEATURE_AUTO_VERIFY_FIXES=true npm run up`): passed to the findings API and worker by name,
# and listed in the summary, so what is on is visible.
FEATURE_SETTINGS=()
while IFS='=' read -r name _; do
  case "$name" in
    FEATURE_* | AUTO_CLOSE_* | SCANNER_CALLBACK_* | OUTBOUND_*) FEATURE_SETTINGS+=("$name=${!name}") ;;
  esac
done < <(env | LC_ALL=C sort)
FINDINGS_ENV+=("${FEATURE_SETTINGS[@]}")
# The local plugin catalog: built (components cached in <state>/plugin-components), signed with
# <state>/catalog-publisher.pem and served on loopback; without it the official source keeps the
# public default URL. The official source is registered at the first start of a database only.
CATALOG_URL=""
if [ "${UP_SKIP_CATALOG:-}" != 1 ]; then
  step "building the local plugin catalog (tools/catalog/plugins; first build takes minutes)"
  if node tools/catalog/local-catalog.mjs --state "$STATE" --out "$PLUGIN_CATALOG_DIR" >/dev/null; then
    start plugin-catalog tools/catalog/serve-catalog.mjs "CATALOG_DIR=$PLUGIN_CATALOG_DIR" \
      "CATALOG_PORT=$PLUGIN_CATALOG_PORT"
    wait_http plugin-catalog "http://127.0.0.1:$PLUGIN_CATALOG_PORT/healthz"
    CATALOG_URL="http://127.0.0.1:$PLUGIN_CATALOG_PORT/catalog.json"
    FINDINGS_ENV+=(
      "PLUGIN_CATALOG_ALLOW_LOCAL=true"
      "PLUGIN_OFFICIAL_CATALOG_URL=$CATALOG_URL"
      "PLUGIN_OFFICIAL_CATALOG_PUBLIC_KEY=$(cat "$PLUGIN_CATALOG_DIR/publisher.pub.pem")"
    )
  else
    log "warning: the local plugin catalog could not be built; continuing without it"
  fi
fi
CERTSVC_ENV=(
  "CERTSVC_PORT=$CERTSVC_PORT"
  "CERTSVC_DATABASE_URL=$CERTSVC_DATABASE_URL"
  "CERTSVC_REDIS_URL=$CERTSVC_REDIS_URL"
  "CERTSVC_JWT_SECRET=$CERTSVC_JWT_SECRET"
  "CERTSVC_LOCAL_AUTH_ENABLED=true"
  "CERTSVC_LOCAL_ADMIN_EMAIL=$CERTSVC_ADMIN_EMAIL"
  "CERTSVC_LOCAL_ADMIN_PASSWORD=$CERTSVC_ADMIN_PASSWORD"
  "CERTSVC_DEV_MODE=true"
  "CERTSVC_CA_KEY_ENC_KEY=$CERTSVC_CA_KEY_ENC_KEY"
  "CERTSVC_SCEP_ENC_KEY=$CERTSVC_SCEP_ENC_KEY"
  "CERTSVC_WEBHOOK_ENC_KEY=$CERTSVC_WEBHOOK_ENC_KEY"
  "CERTSVC_WEBHOOKS_ENABLED=true"
  # CRL distribution points, AIA and OCSP of issued certificates point here (/pki/*).
  "CERTSVC_PKI_BASE_URL=http://localhost:$CERTSVC_PORT"
)
# The Kubernetes credential broker (docs/certificate-service/kubernetes.md): the API process
# listens there with mutual TLS; the worker ignores it.
if [ "$K8S_ENABLED" = true ]; then
  CERTSVC_ENV+=(
    "CERTSVC_K8S_BROKER_URL=https://localhost:$K8S_BROKER_PORT"
    "CERTSVC_K8S_BROKER_TLS_CERT_FILE=$K8S_DIR/broker.crt"
    "CERTSVC_K8S_BROKER_TLS_KEY_FILE=$K8S_DIR/broker.key"
  )
fi

step "starting the APIs (migrations run at start under an advisory lock)"
start findings-api dist/apps/findings-service/main.js \
  "PORT=$FINDINGS_PORT" "METRICS_PORT=$FINDINGS_METRICS_PORT" "${FINDINGS_ENV[@]}"
start certificate-api dist/apps/certificate-service/main.js "${CERTSVC_ENV[@]}"
start plugin-runner dist/apps/plugin-runner/main.js \
  "PLUGIN_RUNNER_PORT=$PLUGIN_RUNNER_PORT" "PLUGIN_RUNNER_GRPC_PORT=$PLUGIN_RUNNER_GRPC_PORT" \
  "METRICS_PORT=$PLUGIN_RUNNER_METRICS_PORT" "LOG_FILE_SINK_ENABLED=true" "LOG_DIR=$LOG_DIR" \
  "PLUGIN_RUNNER_TOKEN=$PLUGIN_RUNNER_TOKEN" "PLUGIN_NATIVE_NODE_PATH=$ROOT/node_modules"
wait_http findings-api "http://127.0.0.1:$FINDINGS_PORT/health"
wait_http certificate-api "http://127.0.0.1:$CERTSVC_PORT/health"
wait_http plugin-runner "http://127.0.0.1:$PLUGIN_RUNNER_PORT/health"

step "starting the workers"
start findings-worker dist/apps/findings-service/worker.js \
  "METRICS_PORT=$FINDINGS_WORKER_METRICS_PORT" "${FINDINGS_ENV[@]}"
start certificate-worker dist/apps/certificate-service/worker.js "${CERTSVC_ENV[@]}"
wait_worker findings-worker "http://127.0.0.1:$FINDINGS_WORKER_METRICS_PORT/metrics"
wait_worker certificate-worker

step "starting the findings web UI"
start findings-web apps/findings-web/server/serve.mjs "FINDINGS_WEB_PORT=$FINDINGS_WEB_PORT" \
  "FINDINGS_API_URL=http://127.0.0.1:$FINDINGS_PORT" "FINDINGS_WEB_ROOT=$ROOT/dist/apps/findings-web"
wait_http findings-web "http://127.0.0.1:$FINDINGS_WEB_PORT/healthz"

step "starting the certificate web UI"
start certificate-web apps/certificate-web/server/serve.mjs \
  "CERTIFICATE_WEB_PORT=$CERTIFICATE_WEB_PORT" "CERTSVC_API_URL=http://127.0.0.1:$CERTSVC_PORT" \
  "CERTIFICATE_WEB_ROOT=$ROOT/dist/apps/certificate-web"
wait_http certificate-web "http://127.0.0.1:$CERTIFICATE_WEB_PORT/healthz"

# kubectl: cluster `local` (the stand-in API server) registered, the admin's user_mtls
# identity, <state>/k8s/kubeconfig; the broker answers over mutual TLS first. A failure here
# leaves the platform running and says why.
K8S_STATUS="(left out: UP_SKIP_K8S=1 or no openssl)"
if [ "$K8S_ENABLED" = true ]; then
  step "setting up kubectl (broker https://localhost:$K8S_BROKER_PORT, cluster local)"
  K8S_STATUS="(setup failed: see $LOG_DIR/kubectl-setup.log)"
  if (umask 077 && env CERTSVC_ADMIN_EMAIL="$CERTSVC_ADMIN_EMAIL" \
    CERTSVC_ADMIN_PASSWORD="$CERTSVC_ADMIN_PASSWORD" node tools/kubectl-certsvc/local-setup.mjs \
    --api "http://127.0.0.1:$CERTSVC_PORT" --broker "https://localhost:$K8S_BROKER_PORT" \
    --broker-ca "$K8S_DIR/broker.crt" --cluster local --server "https://127.0.0.1:$K8S_STANDIN_PORT" \
    --server-ca "$K8S_DIR/standin-apiserver.crt" --dir "$K8S_DIR" >"$LOG_DIR/kubectl-setup.log" 2>&1); then
    sed 's/^/  /' "$LOG_DIR/kubectl-setup.log"
    start k8s-standin tools/kubectl-certsvc/standin-apiserver.mjs "STANDIN_PORT=$K8S_STANDIN_PORT" \
      "STANDIN_TLS_CERT_FILE=$K8S_DIR/standin-apiserver.crt" "STANDIN_TLS_KEY_FILE=$K8S_DIR/standin-apiserver.key" \
      "STANDIN_CLIENT_CA_FILE=$K8S_DIR/cluster-client-ca.pem"
    deadline=$((SECONDS + 20))
    until port_open "$K8S_STANDIN_PORT"; do
      alive k8s-standin || fail k8s-standin "exited during start-up"
      [ "$SECONDS" -lt "$deadline" ] || fail k8s-standin "did not listen on $K8S_STANDIN_PORT"
      sleep 1
    done
    K8S_STATUS="ready"
    if command -v kubectl >/dev/null 2>&1; then
      # The plugin's stderr (e.g. "no terminal can ask") goes to the log, shown on failure.
      if who="$(kubectl --kubeconfig "$K8S_DIR/kubeconfig" auth whoami 2>"$LOG_DIR/kubectl-check.log")"; then
        log "kubectl auth whoami:"
        printf '%s\n' "$who" | sed 's/^/  /'
      else
        log "warning: kubectl auth whoami failed: $(cat "$LOG_DIR/kubectl-check.log")"
      fi
    fi
  else
    log "warning: the kubectl setup failed; last lines of $LOG_DIR/kubectl-setup.log:"
    tail -n 20 "$LOG_DIR/kubectl-setup.log" >&2 || true
  fi
fi

for name in "${STARTED[@]}"; do
  alive "$name" || fail "$name" "exited after start-up"
done

# ---- 6. summary -------------------------------------------------------------------------

K8S_SUMMARY=" Kubernetes       $K8S_STATUS
"
if [ "$K8S_STATUS" = ready ]; then
  K8S_SUMMARY=" Kubernetes (kubectl with the exec plugin; docs/certificate-service/kubernetes.md)
   Broker         https://localhost:$K8S_BROKER_PORT  (mutual TLS, POST /api/v1/k8s/credential;
                  its server CA: $K8S_DIR/broker.crt)
   Cluster local  https://127.0.0.1:$K8S_STANDIN_PORT  (a stand-in API server: version, auth whoami)
   Kubeconfig     $K8S_DIR/kubeconfig  (user: $CERTSVC_ADMIN_EMAIL, user_mtls in $K8S_DIR)
   Try            kubectl --kubeconfig $K8S_DIR/kubeconfig auth whoami
                  kubectl --kubeconfig $K8S_DIR/kubeconfig version
"
  command -v kubectl >/dev/null 2>&1 ||
    K8S_SUMMARY+="                  (kubectl is not installed; Debian: apt-get install kubernetes-client)
"
fi
VERSION="$(node -p 'require("./dist/apps/plugin-runner/build-info.json").version')"
cat <<EOF

========================================================================================
 Security platform $VERSION is running
----------------------------------------------------------------------------------------
 Findings service
   Web UI         http://127.0.0.1:$FINDINGS_WEB_PORT       (sign in with the admin login below)
   API            http://localhost:$FINDINGS_PORT            (health: /health, version: /version)
   API docs       http://localhost:$FINDINGS_PORT/api/docs
   Metrics        http://localhost:$FINDINGS_METRICS_PORT/metrics  (API)
                  http://localhost:$FINDINGS_WORKER_METRICS_PORT/metrics  (worker)
   Admin login    $FINDINGS_ADMIN_EMAIL
   Password       $FINDINGS_ADMIN_PASSWORD

 Certificate service
   Web UI         http://127.0.0.1:$CERTIFICATE_WEB_PORT       (sign in with the admin login below)
   API            http://localhost:$CERTSVC_PORT            (health: /health, version: /api/v1/version)
   API docs       http://localhost:$CERTSVC_PORT/swagger/
   Metrics        http://localhost:$CERTSVC_PORT/metrics
   Admin login    $CERTSVC_ADMIN_EMAIL
   Password       $CERTSVC_ADMIN_PASSWORD

$K8S_SUMMARY
 Feature settings ${FEATURE_SETTINGS[*]:-(none: e.g. FEATURE_AUTO_VERIFY_FIXES=true npm run up)}

 Plugin catalog   ${CATALOG_URL:-(not built: UP_SKIP_CATALOG=1 or the build failed)}
                  official source of the findings service, signed with $STATE/catalog-publisher.pem

 Plugin runner
   Health         http://localhost:$PLUGIN_RUNNER_PORT/health   (version: /version)
   gRPC           127.0.0.1:$PLUGIN_RUNNER_GRPC_PORT  (grpc.health.v1.Health; runner API
                  findsvc.runner.v1.PluginRunner, token PLUGIN_RUNNER_TOKEN in the credentials file)
   Metrics        http://localhost:$PLUGIN_RUNNER_METRICS_PORT/metrics

 PostgreSQL       ${STACK_PG_URL%/postgres}  (databases: findings, certificates)
 Redis            $REDIS_URL
 Logs             $LOG_DIR
 Credentials      $SECRETS_FILE (mode 0600, kept across runs)

 Stop:            bash tools/down.sh          (add --all to stop PostgreSQL and Redis)
========================================================================================
EOF
