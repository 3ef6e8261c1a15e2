# The bot: Python 3.11, Node.js for the pinned `claude` CLI (and the Gemini CLI backend).
FROM python:3.11-slim

RUN apt-get update \
    && apt-get install -y --no-install-recommends nodejs npm ca-certificates \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY .ci/node/package.json /app/.ci/node/package.json
RUN npm install --prefix /app/.ci/node --no-audit --no-fund --omit=dev
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
# `claude login` stores its credentials here; mount it to keep the login (see README).
ENV CLAUDE_CONFIG_DIR=/data/claude-config

ENTRYPOINT ["debate-room"]
CMD ["run"]
