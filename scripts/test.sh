#!/usr/bin/env bash
# `npm test`: everything, on a fresh machine. Installs what is missing (Chromium from Debian's
# packages, node_modules), then: types, lint, generated types up to date, schema files and migrations
# in agreement, build, integration
# tests against a throwaway stack, the SDK's browser tests, the dashboard's unit tests, size
# budgets, end-to-end journeys. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# one stream: a runner's failure details (often on stderr) stay next to its summary in a log that
# keeps only stdout or only the end
exec 2>&1

started=$SECONDS
step() { printf '\n\033[1m== %s\033[0m (at %ss)\n' "$*" "$((SECONDS - started))"; }

if ! command -v chromium >/dev/null 2>&1; then
  step "installing Chromium (Debian package)"
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "Chromium is missing: run 'sudo apt-get install chromium' and retry." >&2
    exit 1
  fi
fi
export CHROME_PATH="${CHROME_PATH:-$(command -v chromium)}"

if [ ! -d node_modules ]; then
  step "installing npm packages"
  npm ci
fi

step "type check"
npm run typecheck
step "lint"
npm run lint
step "generated database types are up to date"
npm run gen:types -- --check
step "supabase/schemas and supabase/migrations build the same database"
npm run db:diff -- --check
step "build (and it changes no tracked file)"
# what the build generates and git tracks (sdk/custom-elements.json, ...) must be committed as
# the build makes it: the tracked files' state before and after the build must be the same
tracked_state() { git diff --binary HEAD -- . | sha1sum; }
before=$(tracked_state)
npm run build
if [ "$(tracked_state)" != "$before" ]; then
  echo "npm run build changed tracked files: commit what it generates" >&2
  git diff --stat HEAD -- . >&2
  exit 1
fi
# one workspace at a time, stopping at the first that fails, so a failure's summary is the last
# thing printed (`--workspaces` goes on to the next workspace and buries it)
step "integration tests (supabase: a throwaway stack)"
npm run test -w @reaction-blocks/supabase
step "SDK browser tests (Chromium)"
npm run test -w @reaction-blocks/sdk
step "dashboard unit tests"
npm run test -w @reaction-blocks/dashboard
step "SDK size budgets"
npm run size -w @reaction-blocks/sdk
step "SDK element docs match the code"
npm run docs -w @reaction-blocks/sdk -- --check
step "end-to-end journeys (Chromium)"
npm run e2e -w @reaction-blocks/sdk
npm run e2e -w @reaction-blocks/example-react
npm run e2e -w @reaction-blocks/dashboard

printf '\nnpm test: everything passed in %ss\n' "$((SECONDS - started))"
