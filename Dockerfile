# syntax=docker/dockerfile:1
# Parley BFF for self-hosting. Stage 1 builds the widget and the server; the final stage holds
# the build output and production dependencies only. `node scripts/check-dockerfile.mjs`
# checks this file and runs what the final stage copies (no Docker engine needed).

FROM node:20-bookworm-slim AS build
WORKDIR /app
# Dependencies first, so a source change does not reinstall them.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.server.json tsconfig.demo.json vite.config.ts ./
COPY scripts/ scripts/
COPY shared/ shared/
COPY bff/ bff/
COPY widget/ widget/
COPY demo/ demo/
RUN npm run build

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8787
WORKDIR /app
COPY package.json package-lock.json ./
# --omit=optional too: valibot names typescript as an optional peer, which npm would otherwise install here.
RUN npm ci --omit=dev --omit=optional --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/ dist/
COPY scripts/start.mjs scripts/start.mjs
# The demo (dist/server/demo, pages from demo/site) runs only with DEMO=true: with nothing
# configured, NODE_ENV=production makes the BFF refuse to start rather than serve the demo shop.
COPY demo/site/ demo/site/
# No widget/src or bff/src in this stage: start.mjs then runs dist/ as built, never rebuilds.
USER node
EXPOSE 8787
# Slim images have no curl; node's fetch does the probe.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself is PID 1 (not npm), so SIGTERM reaches the BFF's graceful stop directly.
# The same command as `npm start`.
CMD ["node", "scripts/start.mjs"]
