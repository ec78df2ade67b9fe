# syntax=docker/dockerfile:1.7
# Multi-stage image of the Fileshift service. The same image runs the HTTP API (ROLE=api) and the
# queue workers (ROLE=worker); the conversion engines live in the runtime stage.
#
# NODE_ENV=production (below) refuses dev payments: an API container needs live payments to start,
#   docker run -p 3000:3000 -e ROLE=api -e PAYMENTS_MODE=live -e FACILITATOR_URL=https://… \
#     -e X402_EVM_PAY_TO=0x… -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… fileshift
# Dev payments (anvil in the container, test USDC) only outside production:
#   -e NODE_ENV=development -e PAYMENTS_MODE=dev

ARG NODE_VERSION=24

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json nx.json tsconfig.base.json tsconfig.json vitest.shared.ts ./
COPY apps ./apps
COPY libs ./libs
RUN npm ci --no-audit --no-fund
ENV NX_DAEMON=false NX_NO_CLOUD=true
RUN npx nx run api:build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
# Every conversion engine (the Debian packages each engine's descriptor names; a test keeps this list
# complete), fonts for documents, and the tools around them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates file fonts-dejavu-core fonts-liberation2 \
      ffmpeg \
      libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno \
      poppler-utils ghostscript img2pdf pandoc imagemagick \
      libarchive-tools calibre \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/fileshift
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/apps/api/package.json ./apps/api/package.json
COPY --from=build /app/apps/api/dist ./apps/api/dist
COPY --from=build /app/libs ./libs
RUN groupadd --system fileshift && useradd --system --gid fileshift --home /var/lib/fileshift fileshift \
 && mkdir -p /var/lib/fileshift && chown fileshift:fileshift /var/lib/fileshift
USER fileshift
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/x402/v1/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/api/dist/main.js"]
