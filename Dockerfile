# The bot: Python 3.11, and Node.js 22 for the pinned CLIs (`claude` declares Node >= 22, the
# Gemini CLI backend >= 20): Debian's packaged nodejs is older, so Node comes from its official image.
FROM node:22-bookworm-slim AS node

FROM python:3.11-slim-bookworm

COPY --from=node /usr/local/bin/node /usr/local/bin/node
COPY --from=node /usr/local/lib/node_modules /usr/local/lib/node_modules
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
    && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
    && apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
# Exactly the versions the tests ran against: `npm ci` installs what the lock file says.
COPY .ci/node/package.json .ci/node/package-lock.json /app/.ci/node/
RUN npm ci --prefix /app/.ci/node --no-audit --no-fund --omit=dev
ENV PATH="/app/.ci/node/node_modules/.bin:${PATH}"

COPY pyproject.toml README.md /app/
COPY bot /app/bot
COPY handlers /app/handlers
COPY tools /app/tools
COPY prompts /app/prompts
COPY migrations /app/migrations
RUN pip install --no-cache-dir /app

# The database, Claude's session folders and the local wiki live in the volume.
ENV DATABASE_PATH=/data/debate-room.sqlite3 DATA_DIR=/data LOCAL_WIKI_DIR=/data/wiki
VOLUME ["/data"]
# `claude auth login` stores its credentials here, in the volume, so the login is kept:
#   docker compose run --rm --no-deps --entrypoint claude bot auth login
ENV CLAUDE_CONFIG_DIR=/data/claude-config

ENTRYPOINT ["debate-room"]
CMD ["run"]
