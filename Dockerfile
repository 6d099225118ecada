# syntax=docker/dockerfile:1
# The Yueman server as a container image (docs/scaling.md): built in one stage, run from compiled code in the next,
# as the unprivileged `node` user. Every setting is an environment variable (README.md, Configuration).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# Dependencies first, so a change of source code reuses this layer.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/admin/package.json apps/admin/
COPY packages/contract/package.json packages/contract/
RUN npm ci --no-audit --no-fund
COPY . .
# The web app and the console (Vite) and the server with its tools (esbuild, apps/server/dist: main.js,
# operator-cli.js, import-cli.js), then only what runs stays.
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:24-bookworm-slim
# CJK glyphs for the demo library's drawn pages (not needed when DEMO_LIBRARY=false).
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-noto-cjk \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
# Two malloc arenas for every thread (scripts/memory-env.mjs, docs/operations.md "Memory").
ENV MALLOC_ARENA_MAX=2
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/apps/server/package.json ./apps/server/
COPY --from=build --chown=node:node /app/apps/server/dist ./apps/server/dist
COPY --from=build --chown=node:node /app/apps/server/drizzle ./apps/server/drizzle
COPY --from=build --chown=node:node /app/apps/web/dist ./apps/web/dist
COPY --from=build --chown=node:node /app/apps/admin/dist ./apps/admin/dist
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
VOLUME ["/data"]
HEALTHCHECK --interval=10s --timeout=3s CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node itself, not `npm start`: npm does not pass SIGTERM on, and the server drains on it. The image is already
# built, so there is nothing for npm start to rebuild.
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
