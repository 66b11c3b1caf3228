#!/usr/bin/env bash
# Checks docs/grafana/senders-dashboard.json against a real Prometheus:
#   1. installs Debian's prometheus package when it is missing (apt-get; skips with a message only
#      where apt-get does not exist);
#   2. builds the example WebFlux app with Actuator and the Prometheus registry (the examples'
#      prometheus profile) and starts it on a free loopback port, tagged application=senders-audit,
#      scope 'audit', at most 64 audit writes outstanding (so some orders are refused as full);
#   3. starts Prometheus on another free loopback port, scraping the app's /actuator/prometheus
#      every second, with its data in a temporary directory;
#   4. scripts/dashboard_check.py drives load (plain and @Async orders, a few threads, bounded) and
#      evaluates every template variable and every panel query through Prometheus' HTTP API: each
#      must return series with the expected application, instance and scope labels, so a renamed
#      meter or tag fails the check.
# The shutdown meters (senders.scope.shutdown) are recorded after the app's web server, and with it
# the scrape endpoint, is gone: Prometheus sees them as registered at startup (count 0), which
# checks their names and tags; the recorded outcome and duration are checked by the starter's
# SendersAutoConfigurationTest.
# Both processes are stopped (by their process ids) and the temporary directory removed on exit.
# Nothing listens beyond 127.0.0.1. Takes about a minute after the build.
#
# Usage: scripts/dashboard-check.sh [extra mvn args]
#   SENDERS_DASHBOARD_FILE=path checks another dashboard file (default docs/grafana/senders-dashboard.json).
#   SENDERS_DASHBOARD_SKIP_INSTALL=1: the caller already installed the modules (.ci/run does);
#   otherwise the published modules the app needs are installed first (tests skipped).
#   The local repository is Maven's default unless the args say -Dmaven.repo.local=...
# Exits non-zero when a query returns no series or lacks a label, naming the panel and the query.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "dashboard-check: FAILED: $*" >&2; exit 1; }
step() { echo "dashboard-check: $*"; }
mvn_args=("$@")
# shellcheck source=scripts/example-app.sh
. scripts/example-app.sh

# ---- 1. Prometheus
if ! command -v prometheus >/dev/null; then
    if ! command -v apt-get >/dev/null; then
        echo "dashboard-check: SKIPPED: prometheus is not installed and apt-get is not available (install Debian's prometheus package, or Prometheus 2.x on the PATH)"
        exit 0
    fi
    step "installing Debian's prometheus package"
    apt_install prometheus /tmp/dashboard-check-apt.log
fi
step "$(prometheus --version 2>&1 | head -1)"

example_app_tmp

# ---- 2. the example app with Actuator and the Prometheus registry
if [ "${SENDERS_DASHBOARD_SKIP_INSTALL:-0}" != 1 ]; then
    step "installing the modules the example app uses (tests skipped)"
    example_app_install "$work/install.log" "${mvn_args[@]}"
fi
EXAMPLE_APP_PROFILES=-Pprometheus example_app_build "$work/classpath.txt" "$work/build.log" "${mvn_args[@]}"

app_port=$(free_port)
prom_port=$(free_port)
[ "$app_port" != "$prom_port" ] || prom_port=$(free_port)
application=senders-audit
scope=audit

example_app_start "$work/classpath.txt" "$app_port" "$work/app.log" \
    --management.endpoints.web.exposure.include=health,prometheus \
    --management.metrics.tags.application="$application" \
    --senders.scope.name="$scope" --senders.scope.max-outstanding=64 \
    --senders.scope.fire-and-forget=report \
    --audit.write-delay=300ms
pids+=("$EXAMPLE_APP_PID")
app="http://127.0.0.1:$app_port"
await_up "the example app" "$app/actuator/health" "${pids[0]}" "$work/app.log" 120
scrape=$(curl -sf "$app/actuator/prometheus" || true)
grep -q '^senders_scope_active{' <<<"$scrape" \
    || { tail -50 "$work/app.log" >&2; fail "$app/actuator/prometheus does not serve senders_scope_active"; }
step "example app up on $app (application=$application, scope=$scope)"

# ---- 3. Prometheus, scraping it
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: senders-audit
    metrics_path: /actuator/prometheus
    static_configs:
      - targets: ['127.0.0.1:$app_port']
EOF
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
    --web.listen-address="127.0.0.1:$prom_port" >"$work/prometheus.log" 2>&1 &
pids+=($!)
prom="http://127.0.0.1:$prom_port"
await_up Prometheus "$prom/-/ready" "${pids[1]}" "$work/prometheus.log" 60
step "Prometheus up on $prom, scraping $app/actuator/prometheus every second"

# ---- 4. load, and every query of the dashboard
python3 scripts/dashboard_check.py --dashboard "${SENDERS_DASHBOARD_FILE:-docs/grafana/senders-dashboard.json}" \
    --prometheus "$prom" --app "$app" --application "$application" --instance "127.0.0.1:$app_port" \
    --scope "$scope" --source senders-spring-boot-starter/src/main/java \
    || { tail -30 "$work/app.log" >&2; fail "a dashboard query (above)"; }
step "OK"
