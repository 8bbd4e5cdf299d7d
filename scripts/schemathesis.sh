#!/usr/bin/env bash
# Schemathesis, every check on, against a local `taflbot serve` on a temporary database.
#
#   scripts/schemathesis.sh                 # 100 examples per operation, at most 10 minutes
#   EXAMPLES=300 MAX_TIME=900 scripts/schemathesis.sh
#
# Installs schemathesis into a venv under target/ when it is missing, builds and starts the
# server (loopback, a free port, Discord off, rate limits raised so the fuzzer is not mostly
# answered 429), registers two players and starts a game between them (so ids 1 and 2 exist),
# runs (one worker: with more, Python 3.11's ast.parse trips over hypothesis's lambda
# descriptions in threads), and stops the server. Exits with schemathesis's status. What each option is for and
# what was found: docs/testing.md, "Schemathesis".
set -euo pipefail
cd "$(dirname "$0")/.."

EXAMPLES="${EXAMPLES:-100}"
MAX_TIME="${MAX_TIME:-600}"
VENV=target/schemathesis/venv
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"

if [ ! -x "$VENV/bin/schemathesis" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

cargo build --quiet -p taflbot --bin taflbot

work="$(mktemp -d)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
TAFLBOT_DATABASE_PATH="$work/taflbot.db" \
  TAFLBOT_HTTP_LISTEN="127.0.0.1:$port" \
  TAFLBOT_HTTP_RATE_LIMIT_PER_SECOND=100000 \
  TAFLBOT_HTTP_RATE_LIMIT_BURST=100000 \
  TAFLBOT_HTTP_REGISTRATION_PER_MINUTE=6000000 \
  TAFLBOT_HTTP_REGISTRATION_BURST=100000 \
  TAFLBOT_LOG_FILTER=warn \
  target/debug/taflbot serve >"$work/server.log" 2>&1 &
server=$!
stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

for _ in $(seq 100); do
  curl -sf "$base/api/v1/health" >/dev/null && break
  sleep 0.1
done

register() {
  curl -sf -XPOST "$base/api/v1/players" -H 'content-type: application/json' \
    -d "{\"name\":\"$1\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
a="$(register ada)"
# Ada's token is the fuzzer's: out of reach of the ids it will try on DELETE /tokens/{id}
# (revoking it would turn every later request into a 401). Moved before its first use, so the
# server has not cached it yet.
python3 - "$work/taflbot.db" <<'PY'
import sqlite3, sys
with sqlite3.connect(sys.argv[1], timeout=10) as db:
    db.execute("UPDATE api_tokens SET id = 7346118201559 WHERE id = 1")
PY
b="$(register bo)"
curl -sf -XPOST "$base/api/v1/challenges" -H "authorization: Bearer $a" -H 'content-type: application/json' \
  -d '{"opponent_id":2,"variant":"brandubh","side":"attackers"}' >/dev/null
curl -sf -XPOST "$base/api/v1/challenges/1/accept" -H "authorization: Bearer $b" >/dev/null
export TAFLBOT_TOKEN="$a"

# The event stream never ends, so it is left out (its lines are checked by the HTTP tests).
"$VENV/bin/schemathesis" --config-file scripts/schemathesis.toml run "$base/api/v1/openapi.json" \
  --url "$base" \
  --checks all \
  --exclude-path /api/v1/stream/events \
  --max-examples "$EXAMPLES" \
  --max-time "$MAX_TIME" \
  --request-timeout 10 \
  --seed "${SEED:-1}" \
  --workers 1
