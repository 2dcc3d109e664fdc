# solproof: the verification service, for `docker compose` or any container runtime.
# Build: docker build -t solproof .
# Run:   docker run -e SOLPROOF_ROLE=api -e DATABASE_URL=... -e REDIS_URL=... -e SOLPROOF_RPC_URL=... -p 8080:8080 solproof
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 builds from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json ./
COPY src ./src
# Built with the dev dependencies (TypeScript, types), which are then dropped.
RUN npx tsc -p tsconfig.json && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    SOLPROOF_HOST=0.0.0.0 \
    PORT=8080 \
    SOLPROOF_DATA_DIR=/data
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM drains (--drain-seconds, 30 by default): give the runtime a longer stop timeout.
STOPSIGNAL SIGTERM
ENTRYPOINT ["node", "dist/cli/main.js"]
CMD ["start"]
