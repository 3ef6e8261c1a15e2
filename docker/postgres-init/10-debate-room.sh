#!/bin/sh
# The bot's own database and user in the PostgreSQL that Wiki.js uses (docker-compose.yml mounts
# this into /docker-entrypoint-initdb.d: it runs once, when the data volume is first made).
# On a volume made before this script existed, run it by hand once:
#   docker compose exec db sh /docker-entrypoint-initdb.d/10-debate-room.sh
# C collation: text sorts by code point, as in the bot's SQLite file.
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v password="${BOT_DB_PASSWORD:?set BOT_DB_PASSWORD in .env}" <<'SQL'
CREATE ROLE debate_room LOGIN PASSWORD :'password';
CREATE DATABASE debate_room OWNER debate_room
    ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
SQL
