# Developer entry points. The logic lives in TypeScript under scripts/ (run with tsx);
# this file only names it. `make help` lists the targets.
SHELL := /bin/bash
TSX   := node --import tsx
NPM_INSTALL := $(TSX) scripts/install.ts

.DEFAULT_GOAL := help
.PHONY: help up test bench bench-boards bench-files bench-web bench-dashboard bench-realtime bench-editor bench-calls bench-courses lint format build typecheck clean infra

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{ printf "  make %-10s %s\n", $$1, $$2 }'

node_modules/.package-lock.json:
	npm install --no-audit --no-fund

up: node_modules/.package-lock.json ## install, start PostgreSQL/NATS/Redis if absent, build, run every service + gateway (Ctrl-C stops)
	@$(TSX) scripts/up.ts

test: node_modules/.package-lock.json ## install, infra, typecheck, lint, format check, build the web app, every jest test
	@$(TSX) scripts/run-tests.ts $(ARGS)

infra: node_modules/.package-lock.json ## only PostgreSQL/NATS/Redis (started under .data/ when absent), until Ctrl-C
	@$(TSX) scripts/infra.ts

bench: node_modules/.package-lock.json ## gateway GET /api/user vs bare Express (writes artifacts/bench/gateway-user.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/gateway-user.ts

bench-boards: node_modules/.package-lock.json ## GET /api/boards, 5,000 boards in 50 folders at 200 req/s (writes artifacts/bench/boards-list.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/boards-list.ts

bench-courses: node_modules/.package-lock.json ## GET /api/courses: a teacher with 200 courses and a student in 50, at 100 req/s (writes artifacts/bench/courses-list.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/courses-list.ts

bench-files: node_modules/.package-lock.json ## 200 MB upload through the gateway (MB/s, RSS), thumbnail GET p99 at 500 req/s, dedupe hit p99 (writes artifacts/bench/files-http.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/files-http.ts

bench-web: node_modules/.package-lock.json ## JS a logged-out visitor loads (gzip) and login time-to-interactive in Chromium (writes artifacts/bench/web-perf.json)
	@$(NPM_INSTALL)
	npx tsc -b
	npm run build -w @wb/web
	@$(TSX) scripts/bench/web-perf.ts

bench-dashboard: node_modules/.package-lock.json ## dashboard with 5,000 boards in Chromium: time to first row, long tasks, scroll frames (writes artifacts/bench/dashboard-perf.json)
	@$(NPM_INSTALL)
	npx tsc -b
	npm run build -w @wb/web
	@$(TSX) scripts/bench/dashboard-perf.ts

bench-realtime: node_modules/.package-lock.json ## realtime nodes: classroom/school/20k-stroke board, CPU per edit, memory; stock Hocuspocus side by side (writes artifacts/bench/realtime.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/realtime.ts

bench-editor: node_modules/.package-lock.json ## board editor on a 20,000-object board in Chromium: open, pan/zoom frames, hit test, marquee, undo (writes artifacts/bench/editor-perf.json)
	@$(NPM_INSTALL)
	npx tsc -b
	npm run build -w @wb/web
	@$(TSX) scripts/bench/editor-perf.ts

bench-calls: node_modules/.package-lock.json ## 1 teacher publishing 640×360 + audio, N Chromium subscribers: Janus CPU per subscriber, decoded fps, extrapolated to 30 (root; writes artifacts/bench/calls.json)
	@$(NPM_INSTALL)
	npx tsc -b
	@$(TSX) scripts/bench/calls.ts

build: node_modules/.package-lock.json ## tsc -b and the web app
	@$(NPM_INSTALL)
	npx tsc -b
	npm run build -w @wb/web

typecheck: node_modules/.package-lock.json ## tsc -b, plus the scripts and the web app (not in the root project)
	npx tsc -b
	npx tsc -p scripts
	npx tsc -p web

lint: node_modules/.package-lock.json ## eslint (type-aware) and prettier --check
	npx tsc -b
	npm run lint
	npm run format:check

format: node_modules/.package-lock.json ## prettier --write
	npm run format

clean: ## remove build output (dist/, tsbuildinfo, web/dist, artifacts/); keeps .data/ and node_modules
	rm -rf proto/dist services/*/dist gateway/dist web/dist artifacts
	find . -name '*.tsbuildinfo' -not -path './node_modules/*' -delete
	@echo "kept .data/ (local databases, mails) — remove it with: rm -rf .data"
