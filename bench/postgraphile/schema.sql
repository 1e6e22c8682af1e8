-- The API bench's data model in PostgreSQL, as a PostGraphile user would write it (bench/postgraphile.ts
-- loads it before the data; indexes.sql follows the load).

create table app_user (
  id text primary key,
  username text not null unique,
  name text
);

-- Ids of new tasks: ascending like the ObjectIds Autograph makes, and after every loaded id ("6592...").
create sequence task_id_seq;

create table task (
  id text primary key default ('f' || lpad(to_hex(nextval('task_id_seq')), 23, '0')),
  title text not null,
  priority integer,
  completed boolean not null,
  created_at timestamptz,
  user_id text not null references app_user (id)
);

-- Dgraph's `anyofterms` on a term index: tasks whose title holds any of the words of `terms`. A STABLE SQL
-- function that is one SELECT, so PostgreSQL inlines it into PostGraphile's query, where the GIN index on
-- to_tsvector('simple', title) (indexes.sql) answers it; `condition`, `orderBy`, `first` and `totalCount`
-- then apply to it as to a table's connection.
create function tasks_with_any_term(terms text) returns setof task as $$
  select task.*
  from task
  where to_tsvector('simple', title)
     @@ to_tsquery('simple', array_to_string(tsvector_to_array(to_tsvector('simple', terms)), ' | '))
$$ language sql stable;
-- PostGraphile's smart tags: `orderBy` and `condition` on the function's connection, as on a table's.
comment on function tasks_with_any_term(text) is E'@sortable\n@filterable';

-- One task of add_tasks' input; its user named by username, as Autograph's input names it by @id.
create type new_task as (
  title text,
  priority integer,
  completed boolean,
  created_at timestamptz,
  username text
);

-- Adds many tasks in one statement (one transaction, one commit), in input order; answers how many.
-- An unknown username leaves user_id null, which the NOT NULL constraint refuses: nothing is added then.
create function add_tasks(tasks new_task[]) returns integer as $$
  with added as (
    insert into task (title, priority, completed, created_at, user_id)
    select given.title, given.priority, given.completed, given.created_at,
           (select app_user.id from app_user where app_user.username = given.username)
    from unnest(tasks) with ordinality as given (title, priority, completed, created_at, username, position)
    order by given.position
    returning 1
  )
  select count(*)::integer from added
$$ language sql volatile;
