# syntax=docker/dockerfile:1.7
# Multi-stage image of the Fileshift service. The same image runs the HTTP API (ROLE=api) and the
# queue workers (ROLE=worker); the conversion engines live in the runtime stage.
#
# NODE_ENV=production (below) refuses dev payments: an API container needs live payments to start,
#   docker run -p 3000:3000 -e ROLE=api -e PAYMENTS_MODE=live -e FACILITATOR_URL=https://… \
#     -e X402_EVM_PAY_TO=0x… -e DATABASE_URL=postgres://… -e REDIS_URL=redis://… fileshift
# Dev payments (anvil in the container, test USDC) only outside production:
#   -e NODE_ENV=development -e PAYMENTS_MODE=dev
#
# ENGINE_SANDBOX=required (below): a process that runs engines (ROLE=worker, or ROLE=all, the default role) starts only
# where every engine process gets a bubblewrap sandbox and a user of its own. That takes a worker that is root in its
# container, with six capabilities and a seccomp profile that lets bubblewrap make its namespaces — docker-compose.yml's
# worker service has them, docs/engine-sandbox.md explains each; by hand (after loading deploy/worker-apparmor):
#   docker run --user 0:0 --cap-drop ALL --cap-add CHOWN --cap-add DAC_OVERRIDE --cap-add FOWNER --cap-add KILL \
#     --cap-add SETUID --cap-add SETGID --security-opt no-new-privileges --security-opt seccomp=deploy/worker-seccomp.json \
#     --security-opt apparmor=fileshift-worker --security-opt systempaths=unconfined -e ROLE=worker … fileshift
# The image's own user, `fileshift`, is for the API (ROLE=api), which runs no engine and needs none of that. As that
# user a worker has no user to lend its sandboxes and refuses to start (exit 78); only ENGINE_SANDBOX=off, an explicit
# choice, runs its engines without a sandbox.

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
# complete), the fonts documents are drawn with (DOCUMENT_FONTS: every script, Calibri's and Cambria's metrics,
# emoji; about 150 MB), and the tools around them: bubblewrap is the engine sandbox (setpriv and prlimit,
# which it runs, come with util-linux, in every Debian image).
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini ca-certificates file bubblewrap \
      fonts-dejavu-core fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea \
      fonts-noto-core fonts-noto-cjk fonts-symbola \
      ffmpeg \
      libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui python3-uno \
      poppler-utils ghostscript qpdf img2pdf pandoc imagemagick \
      libarchive-tools calibre chromium \
      libimage-exiftool-perl \
      tesseract-ocr ocrmypdf tesseract-ocr-osd \
      tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita tesseract-ocr-por \
      tesseract-ocr-nld tesseract-ocr-rus tesseract-ocr-ara tesseract-ocr-heb tesseract-ocr-hin \
      tesseract-ocr-chi-sim tesseract-ocr-chi-tra tesseract-ocr-jpn tesseract-ocr-kor \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/var/lib/fileshift ENGINE_SANDBOX=required
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/apps/api/package.json ./apps/api/package.json
COPY --from=build /app/apps/api/dist ./apps/api/dist
COPY --from=build /app/libs ./libs
# DATA_DIR: searchable by all, listable by its owner only. A sandbox's user (started outside its sandbox, in a container
# without CAP_SYS_ADMIN) must walk from / to the scratch directory it is given; the worker makes DATA_DIR/scratch 0711 too.
RUN groupadd --system fileshift && useradd --system --gid fileshift --home /var/lib/fileshift fileshift \
 && install -d -o fileshift -g fileshift -m 0711 /var/lib/fileshift
USER fileshift
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/x402/v1/health').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "apps/api/dist/main.js"]
