-- Ordinary indexes, made after the bulk load (faster than keeping them up row by row). Primary keys and
-- app_user.username's unique index come with schema.sql.

-- The foreign key: PostgreSQL does not index the referencing side by itself; User.tasks reads it.
create index task_user_id_idx on task (user_id);
-- The `completed` condition and the `created_at` order.
create index task_completed_idx on task (completed);
create index task_created_at_idx on task (created_at);
-- The term search: a GIN full-text index over the 'simple' configuration (lower-cased words, no stemming,
-- no stop words), which matches whole words as Dgraph's term index does; a trigram index would serve
-- substrings (LIKE '%urgent%'), a different question that also matches "nonurgent".
create index task_title_terms_idx on task using gin (to_tsvector('simple', title));

-- What autovacuum would do after a bulk load, done at once: planner statistics, and the visibility map
-- that lets the counts run as index-only scans.
vacuum analyze app_user;
vacuum analyze task;
