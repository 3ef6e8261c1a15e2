-- PostgreSQL twin of migrations/0008_server_settings.sql.
-- What an approver set with `/debate config` over the global defaults: a server's row has
-- channel_id 0, a channel's row its id (it wins over its server's). Empty means "the default".
CREATE TABLE server_settings (
    guild_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL DEFAULT 0,
    language TEXT NOT NULL DEFAULT '',
    format TEXT NOT NULL DEFAULT '',
    rounds INTEGER NOT NULL DEFAULT 0,
    roster TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (guild_id, channel_id)
);
