# Ferry's image: `ferry serve` by default; `ferry worker`, `ferry db migrate` and every other
# `ferry` command from the same image (README, "Deploy"). Build: docker build -t ferry .
# BASE is any Debian-based image with Node 20 (node, npm) on its PATH; the default is the
# official one. scripts/container-test.sh builds it on a base made from Debian's packages.
ARG BASE=node:20-bookworm-slim

FROM ${BASE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# With the dev dependencies (the compiler); no install scripts: nothing Ferry runs needs one.
RUN npm ci --no-audit --no-fund --ignore-scripts
# The context is an allow-list (.dockerignore): the sources, the build script, bin/.
COPY . .
RUN npm run build \
 && npm prune --omit=dev --no-audit --no-fund \
 && find node_modules -depth -type d -empty -delete \
 && find dist -name '*.map' -delete \
 && rm -rf src scripts generated examples tsconfig*.json \
 && ln -s ferry.js bin/ferry

FROM ${BASE}
ARG BASE
ARG VERSION=0.1.0
ARG REVISION=unknown
LABEL org.opencontainers.image.title="ferry" \
      org.opencontainers.image.description="Ferry: the customer-account data-import service (API, workers, operator CLI)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.base.name="${BASE}"
# tini as PID 1 hands SIGTERM to Ferry (which drains) and reaps; `node` (uid 1000) is the
# official image's user; a base without tini or the user gets them here.
RUN set -eu; \
    if ! command -v tini >/dev/null; then \
      apt-get update; apt-get install -y --no-install-recommends tini; rm -rf /var/lib/apt/lists/*; \
    fi; \
    if ! id -u node >/dev/null 2>&1; then \
      groupadd --gid 1000 node; useradd --uid 1000 --gid node --shell /bin/sh --create-home node; \
    fi; \
    mkdir -p /var/lib/ferry; chown node:node /var/lib/ferry
ENV NODE_ENV=production \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/var/lib/ferry \
    PATH=/app/bin:$PATH
WORKDIR /app
# Owned by root, read-only to `node`: the process writes only DATA_DIR (and /tmp).
COPY --from=build /app /app
USER node
EXPOSE 8080
# No curl in the image: Node's fetch asks the API's /healthz (`ferry worker` serves none).
HEALTHCHECK --interval=15s --timeout=10s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["tini", "--", "ferry"]
CMD ["serve"]
