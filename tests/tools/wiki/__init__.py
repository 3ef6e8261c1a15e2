"""Tests of the wiki: Wiki.js through GraphQL, the local Markdown wiki, the outbox, slugs."""
